"""How long one Hot Streak race frame takes to draw, and how big the PNG is.

Renders ~200 varied race views (three tracks, folds, falls, turns, crowded spaces, finished and
disqualified mascots, every kind of card) and prints the median and 95th percentile milliseconds per
frame, the PNG sizes, and the cost of the first frame of a track (the static background is built
then and cached). Run: ``python bench/bench_hotstreak_render.py``.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from bot.games.hotstreak.render import render_race  # noqa: E402
from bot.games.odds import Odds  # noqa: E402

MASCOTS = {
    "gobbler": {"name": "Gobbler", "colour": "#8b5a2b"},
    "hurley": {"name": "Hurley", "colour": "#e8483b"},
    "dangle": {"name": "Dangle", "colour": "#2f8fd8"},
    "mum": {"name": "Mum", "colour": "#9b59d0"},
}
TRACKS = [
    {"lanes": 4, "length": 12, "stars": [[4], [7], [3, 9], []], "white_lines": [4, 8]},
    {"lanes": 4, "length": 16, "stars": [[4, 11], [7], [3, 13], [9]], "white_lines": [5, 10]},
    {"lanes": 4, "length": 20, "stars": [[4, 11, 17], [7, 15], [3, 13], [9, 18]], "white_lines": [5, 10, 15]},
]
CARDS = [
    None,
    "gobbler +3",
    "hurley -2",
    "all +2",
    "mum swerve-left 2",
    "dangle swerve-right 1",
    "hurley star",
]
CARDS += ["dangle fall", "mum turn", "hurley recover 2", "all -1", "gobbler +1"]


def random_view(rng: random.Random, track: dict[str, Any]) -> dict[str, Any]:
    length = track["length"]
    bar = rng.choice([0, 0, 0, *track["white_lines"]])
    mascots: dict[str, Any] = {}
    podium: list[str | None] = [None] * 4
    for key in MASCOTS:
        roll = rng.random()
        status = "finished" if roll < 0.15 else "out" if roll < 0.25 else "racing"
        place = None
        if status != "racing":
            free = [i for i, p in enumerate(podium) if p is None]
            slot = free[0] if status == "finished" else free[-1]
            podium[slot], place = key, slot + 1
        pos = length if status == "finished" else -1 if status == "out" else rng.randrange(bar, length)
        mascots[key] = {
            "lane": rng.randrange(4),
            "pos": pos,
            "facing": rng.choice(["forward", "forward", "back"]),
            "fallen": rng.random() < 0.25,
            "status": status,
            "place": place,
        }
    return {
        "game": "hotstreak",
        "phase": "race",
        "race": rng.randint(1, 3),
        "races": 3,
        "track": track,
        "bar": bar,
        "mascots": mascots,
        "mascot_info": MASCOTS,
        "last_card": rng.choice(CARDS),
        "cards_left": rng.randint(0, 20),
        "burned": 3,
        "podium": podium,
    }


def main() -> int:
    rng = random.Random(2025)
    views = [random_view(rng, TRACKS[i % len(TRACKS)]) for i in range(200)]
    cold: list[float] = []
    seen: set[tuple[int, int]] = set()
    times: list[float] = []
    sizes: list[int] = []
    for view in views:
        start = time.perf_counter()
        png = render_race(view)
        elapsed = (time.perf_counter() - start) * 1000
        key = (view["track"]["length"], view["bar"])
        if key in seen:
            times.append(elapsed)
        else:  # first frame of this track and fold: builds and caches the background
            seen.add(key)
            cold.append(elapsed)
        sizes.append(len(png))
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"frames: {len(views)} ({len(times)} warm, {len(cold)} building a background)")
    print(f"warm ms/frame: median {statistics.median(times):.1f}, p95 {p95:.1f}, max {times[-1]:.1f}")
    print(f"first frame of a track/fold: median {statistics.median(cold):.1f} ms, max {max(cold):.1f} ms")
    print(f"PNG size: median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB")
    with_odds(rng, views)
    return 0


def with_odds(rng: random.Random, views: list[dict[str, Any]]) -> None:
    """The same frames as the bot posts them: odds bars and four players' tickets (odds made up here;
    computing them is timed by bench_odds.py)."""
    times: list[float] = []
    sizes: list[int] = []
    height = 0
    for view in views:
        win = [rng.random() for _ in MASCOTS]
        chances = Odds(
            win={m: w / sum(win) for m, w in zip(MASCOTS, win, strict=True)},
            place={m: min(1.0, 2 * w / sum(win)) for m, w in zip(MASCOTS, win, strict=True)},
            samples=2000,
        )
        bets = [
            [
                {
                    "kind": "ticket",
                    "mascot": rng.choice(list(MASCOTS)),
                    "values": [5, 3, 2],
                    "doubled": False,
                },
                {"kind": "side", "answer": "yes", "values": [6, -1], "doubled": False},
            ]
            for _ in range(4)
        ]
        view = {**view, "bets": bets, "cash": [10, 12, 7, 15]}
        start = time.perf_counter()
        png = render_race(view, odds=chances, players=["Ann", "Bo", "Cy", "Dee"])
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
        height = Image.open(io.BytesIO(png)).height
    times.sort()
    print(
        f"with odds and tickets: median {statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:.1f}"
        f" ms; PNG median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB; 1200x{height}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
