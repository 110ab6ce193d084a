"""Benchmark the Horse Race board renderer: ms per frame and PNG size, over frames of real games.

``python bench/bench_horserace_render.py [--frames N] [--samples DIR]``

With ``--samples`` it also writes one PNG per interesting moment (setup, scratch round,
penalty, finish, 15 players, the classic16 board, game over) to look at.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.base import Action  # noqa: E402
from bot.games.horserace.game import HorseRace  # noqa: E402
from bot.games.horserace.odds import odds  # noqa: E402
from bot.games.horserace.render import render_board  # noqa: E402


def step(game: HorseRace) -> None:
    decision = game.pending()[0]
    game.apply(Action(decision.player, decision.kind, decision.options[0]))


def views(frames: int) -> list[dict]:
    """Views of a 6-player game, one per step, until ``frames`` are collected."""
    game = HorseRace.new(6, seed=7, settings={"races": 50})
    out: list[dict] = []
    while len(out) < frames and not game.is_over:
        step(game)
        out.append(game.view(None))
    return out


def samples(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)

    def save(name: str, game: HorseRace) -> None:
        (directory / f"{name}.png").write_bytes(render_board(game.view(None)))

    game = HorseRace.new(5, seed=3)
    save("0_before_first_race", game)
    step(game)
    save("1_dealt", game)
    step(game)
    step(game)
    save("2_scratch_round", game)
    while game.last_roll is None or game.last_roll.get("kind") != "penalty" or game.race_rolls < 20:
        step(game)
    save("3_penalty", game)
    while game.phase != "between":
        step(game)
    save("4_winner", game)
    big = HorseRace.new(15, seed=11, settings={"board": "classic16", "end": "broke"})
    for _ in range(60):
        step(big)
    save("5_fifteen_players_classic16", big)
    while not game.is_over:
        step(game)
    save("6_game_over", game)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--samples", type=Path)
    args = parser.parse_args()
    frames = views(args.frames)
    render_board(frames[0])  # warm the background and font caches
    times, sizes = [], []
    for view in frames:
        started = time.perf_counter()
        png = render_board(view)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png) / 1024)
    print(f"frames: {len(frames)}")
    print(
        f"ms/frame: mean {statistics.mean(times):.1f}, median {statistics.median(times):.1f}, max {max(times):.1f}"
    )
    print(f"KB/frame: mean {statistics.mean(sizes):.1f}, max {max(sizes):.1f}")
    times, sizes = [], []
    for view in frames:
        chances = odds(view)  # exact odds; their own cost is in bench_odds.py
        started = time.perf_counter()
        png = render_board(view, odds=chances)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png) / 1024)
    print(
        f"with odds: ms/frame median {statistics.median(times):.1f}, max {max(times):.1f};"
        f" KB/frame mean {statistics.mean(sizes):.1f}, max {max(sizes):.1f}"
    )
    if args.samples:
        samples(args.samples)
        print(f"samples written to {args.samples}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
