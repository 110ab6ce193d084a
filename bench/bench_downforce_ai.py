"""Benchmark the Downforce AI: ms per ``normal`` decision by kind, and ms per whole easy game.

``python bench/bench_downforce_ai.py [--games N]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.base import Action  # noqa: E402
from bot.games.downforce.ai import choose, play_ai_game  # noqa: E402
from bot.games.downforce.game import Downforce  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    times: dict[str, list[float]] = {}
    for seed in range(args.games):
        game = Downforce.new(4, seed, {"track": ("river-station", "marina-bay")[seed % 2]})
        rng = random.Random(seed)
        while not game.is_over:
            decision = game.pending()[0]
            started = time.perf_counter()
            choice = choose(game.view(decision.player), decision, "normal", rng)
            times.setdefault(decision.kind, []).append((time.perf_counter() - started) * 1000)
            game.apply(Action(decision.player, decision.kind, choice))
    for kind, ms in sorted(times.items()):
        print(
            f"normal {kind:<5} {len(ms):>5} decisions: median {statistics.median(ms):.2f} ms, max {max(ms):.1f} ms"
        )
    started = time.perf_counter()
    for seed in range(args.games * 10):
        play_ai_game(4, seed, ["easy"])
    per_game = (time.perf_counter() - started) * 1000 / (args.games * 10)
    print(f"easy game (4 players, engine and AI): {per_game:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
