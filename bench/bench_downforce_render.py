"""Benchmark the Downforce track renderer: ms per frame and PNG size, over frames of real games; and the
hand picture (``render_hand``): ms per picture and PNG size, over the hands seats held in those games.

``python bench/bench_downforce_render.py [--frames N] [--samples DIR]``

With ``--samples`` it also writes a mid-race frame of each track to look at.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.downforce import render_hand as hand_picture  # noqa: E402
from bot.games.downforce.ai import ai_action  # noqa: E402
from bot.games.downforce.content import TRACKS  # noqa: E402
from bot.games.downforce.game import Downforce  # noqa: E402
from bot.games.downforce.render import render_track  # noqa: E402


def views(frames: int) -> list[dict]:
    """Public views after every played card of AI games on both tracks, until ``frames`` are collected."""
    out: list[dict] = []
    seed = 0
    while len(out) < frames:
        game = Downforce.new(4, seed, {"track": TRACKS[seed % len(TRACKS)]})
        rng = random.Random(seed)
        while not game.is_over and len(out) < frames:
            played = game.view(None)["cards_played"]
            game.apply(ai_action(game, ["easy"] * 4, rng))
            if game.view(None)["cards_played"] != played:
                out.append(game.view(None))
        seed += 1
    return out


def hands(count: int) -> list[list]:
    """The hands seats held (their cards' lines) after every card of AI games of 2 to 6 players."""
    out: list[list] = []
    seed = 0
    while len(out) < count:
        players = 2 + seed % 5
        game = Downforce.new(players, seed, {})
        rng = random.Random(seed)
        while not game.is_over and len(out) < count:
            game.apply(ai_action(game, ["easy"] * players, rng))
            hand = game.view(seed % players)["hand"]
            if hand and (not out or [c["lines"] for c in hand] != out[-1]):
                out.append([c["lines"] for c in hand])
        seed += 1
    return out


def bench_hands(count: int) -> None:
    held = hands(count)
    hand_picture.render_hand(held[0])  # the palette and the fonts
    times, sizes = [], []
    for hand in held:
        hand_picture._render.cache_clear()  # drawn, not taken from the cache
        started = time.perf_counter()
        png = hand_picture.render_hand(hand)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png) / 1024)
    biggest = max(len(h) for h in held)
    print(f"hand pictures: {len(held)} (1 to {biggest} cards)")
    print(
        f"ms/hand picture: mean {statistics.mean(times):.1f}, median {statistics.median(times):.1f}, "
        f"max {max(times):.1f}"
    )
    print(f"KB/hand picture: mean {statistics.mean(sizes):.1f}, max {max(sizes):.1f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--samples", type=Path)
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    frames = views(args.frames)
    for track in TRACKS:  # warm the background and font caches
        render_track(Downforce.new(2, 0, {"track": track}).view(None))
    times, sizes = [], []
    for view in frames:
        started = time.perf_counter()
        png = render_track(view)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png) / 1024)
    print(f"frames: {len(frames)} (1200x860)")
    print(
        f"ms/frame: mean {statistics.mean(times):.1f}, median {statistics.median(times):.1f}, max {max(times):.1f}"
    )
    print(f"KB/frame: mean {statistics.mean(sizes):.1f}, max {max(sizes):.1f}")
    bench_hands(args.hands)
    if args.samples:
        args.samples.mkdir(parents=True, exist_ok=True)
        for view in (frames[len(frames) // 3], frames[-1]):
            name = f"{view['track']['name']}-card{view['cards_played']}.png"
            (args.samples / name).write_bytes(render_track(view))
        print(f"samples written to {args.samples}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
