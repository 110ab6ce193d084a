"""How long a race replay takes to build and how big it is, for a typical race of each game.

Hot Streak: the frames of race 1 of seeded 4-player games (with the tickets and the odds of every
card, as the bot would post them). The Horse Race Game: the board after every roll of race 1
(scratch round included) with exact odds. Prints seconds, frames, size for GIF (what the bot posts)
and animated WebP, and the largest GIF seen. Run: ``python bench/bench_replay.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.base import Action  # noqa: E402
from bot.games.horserace.game import HorseRace  # noqa: E402
from bot.games.horserace.odds import odds as horse_odds  # noqa: E402
from bot.games.horserace.replay import race_replay as horse_replay  # noqa: E402
from bot.games.hotstreak.game import HotStreak  # noqa: E402
from bot.games.hotstreak.odds import odds as hot_odds  # noqa: E402
from bot.games.hotstreak.replay import race_replay as hot_replay  # noqa: E402
from bot.games.odds import Odds  # noqa: E402


def hotstreak_race(seed: int) -> tuple[list[dict], list[Odds | None]]:
    game = HotStreak.new(4, seed)
    rng = random.Random(seed)
    frames: list[dict] = []
    chances: list[Odds | None] = []
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    view = game.view(None)
    frames.append(view)
    chances.append(hot_odds(view, samples=500))
    bets = {"bets": view["bets"], "cash": view["cash"]}
    while game.phase == "race" and game.s["race_no"] == 1:
        for event in game.apply(Action(None, "flip", "flip")):
            if event.kind in ("card_flipped", "bar_folded"):
                frame = {**event.data["frame"], **bets}
                frames.append(frame)
        if game.phase == "race":
            chances += [None] * (len(frames) - len(chances) - 1)
            chances.append(hot_odds(game.view(None), samples=500))
    return frames, chances


def horserace_race(seed: int) -> tuple[list[dict], list]:
    game = HorseRace.new(5, seed)
    views, chances = [], []
    while True:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        view = game.view(None)
        if view["race"] != 1 or view["phase"] == "between" and view["winner"] is None:
            break
        views.append(view)
        chances.append(horse_odds(view))
        if view["winner"] is not None:
            break
    return views, chances


def bench(label: str, make, replay, seeds: range) -> None:
    times, sizes, webp, counts = [], [], [], []
    for seed in seeds:
        frames, chances = make(seed)
        start = time.perf_counter()
        gif = replay(frames, odds=chances)
        times.append(time.perf_counter() - start)
        sizes.append(len(gif.data))
        counts.append(gif.frames)
        webp.append(len(replay(frames, odds=chances, fmt="webp").data))
    print(
        f"{label}: {statistics.median(counts):.0f} frames, GIF {statistics.median(sizes) / 1024:.0f} KB median "
        f"(max {max(sizes) / 1024:.0f} KB, limit 8192 KB), built in {statistics.median(times):.2f} s median "
        f"(max {max(times):.2f} s); animated WebP {statistics.median(webp) / 1024:.0f} KB; {gif.size[0]}x{gif.size[1]}"
    )


if __name__ == "__main__":
    bench("Hot Streak race replay", hotstreak_race, hot_replay, range(1, 6))
    bench("Horse Race replay", horserace_race, horse_replay, range(1, 4))
