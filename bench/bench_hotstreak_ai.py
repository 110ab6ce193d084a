"""How long a normal Hot Streak AI decision takes, by decision kind and table size.

Plays whole games with every seat at ``normal`` and times each ``choose`` call (the view is
built outside the timing). Prints mean, 95th percentile and max milliseconds per kind.
Run: ``python bench/bench_hotstreak_ai.py [games]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.base import Action  # noqa: E402
from bot.games.hotstreak.ai import RACE_BUDGET, choose  # noqa: E402
from bot.games.hotstreak.game import HotStreak  # noqa: E402


def time_decisions(seats: int, games: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    rng = random.Random(seats)
    for seed in range(games):
        game = HotStreak.new(seats, seed)
        while not game.is_over:
            decision = game.pending()[0]
            if decision.player is None:
                game.apply(Action(None, decision.kind, decision.options[0]))
                continue
            view = game.view(decision.player)
            started = time.perf_counter()
            choice = choose(view, decision, "normal", rng)
            times.setdefault(decision.kind, []).append((time.perf_counter() - started) * 1000)
            game.apply(Action(decision.player, decision.kind, choice))
    return times


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"normal AI, {RACE_BUDGET} imagined races per decision, {games} games per table size")
    for seats in (2, 4, 6):
        for kind, ms in time_decisions(seats, games).items():
            p95 = statistics.quantiles(ms, n=20, method="inclusive")[-1] if len(ms) > 1 else ms[0]
            print(
                f"  {seats} players  {kind:<7} n={len(ms):<4} mean {statistics.fmean(ms):6.1f} ms"
                f"  p95 {p95:6.1f} ms  max {max(ms):6.1f} ms"
            )


if __name__ == "__main__":
    main()
