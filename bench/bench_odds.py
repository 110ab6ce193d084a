"""How long the live odds take: Hot Streak's Monte Carlo and The Horse Race Game's exact odds.

Hot Streak: plays seeded games with AI-free random choices and, after every flipped card, times
``odds(view)`` at the default 2,000 simulated races (cache cleared, so every call computes), then
prints the median, 95th percentile and max milliseconds, and races simulated per second on one core.
The Horse Race Game: times ``odds(view)`` after every roll of seeded races on each shipped board
(race phase; cache cleared), and the first and the cached cost of the odds before a race (which
average over every way the scratch slots can fill). Run: ``python bench/bench_odds.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.base import Action  # noqa: E402
from bot.games.horserace import odds as horse_odds  # noqa: E402
from bot.games.horserace.board import available_boards  # noqa: E402
from bot.games.horserace.game import HorseRace  # noqa: E402
from bot.games.hotstreak import odds as hot_odds  # noqa: E402
from bot.games.hotstreak.game import HotStreak  # noqa: E402


def _summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms over {len(ms)} states"
    )


def bench_hotstreak(games: int = 6, samples: int = hot_odds.SAMPLES) -> None:
    times: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        game = HotStreak.new(2 + seed % 7, seed)
        while not game.is_over:
            d = game.pending()[0]
            if game.phase == "race":
                view = game.view(None)
                hot_odds._CACHE.clear()
                start = time.perf_counter()
                hot_odds.odds(view, samples=samples)
                times.append((time.perf_counter() - start) * 1000)
            game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    rate = samples / (statistics.median(times) / 1000)
    print(f"Hot Streak odds, {samples} simulated races per state: {_summary(times)}")
    print(f"  about {rate:,.0f} simulated races per second on one core")
    for fewer in (500, 1000):
        view = HotStreak.new(4, 99).view(None)
        hot_odds._CACHE.clear()
        start = time.perf_counter()
        hot_odds.odds(view, samples=fewer)
        print(f"  {fewer} samples (a busy bot): {(time.perf_counter() - start) * 1000:.1f} ms")
    start = time.perf_counter()
    hot_odds.odds(view, samples=1000)
    print(f"  a cached state: {(time.perf_counter() - start) * 1000:.3f} ms")


def bench_horserace(races: int = 5) -> None:
    for name in available_boards():
        times: list[float] = []
        for seed in range(races):
            game = HorseRace.new(3, seed, {"board": name})
            while not game.is_over and game.view(None)["race"] <= 1:
                d = game.pending()[0]
                game.apply(Action(d.player, d.kind, d.options[0]))
                view = game.view(None)
                if view["phase"] == "race":
                    horse_odds.race_odds.cache_clear()
                    start = time.perf_counter()
                    horse_odds.odds(view)
                    times.append((time.perf_counter() - start) * 1000)
        print(f"Horse Race odds ({name}), exact, during the race: {_summary(times)}")
        view = HorseRace.new(3, 1, {"board": name}).view(None)
        horse_odds.race_odds.cache_clear()
        horse_odds._before_race.cache_clear()
        firsts = []
        for _ in range(5):  # the best of five cold runs: the machine may be busy
            horse_odds.race_odds.cache_clear()
            horse_odds._before_race.cache_clear()
            horse_odds._scratch_outcomes.cache_clear()
            start = time.perf_counter()
            horse_odds.odds(view)
            firsts.append((time.perf_counter() - start) * 1000)
        first = min(firsts)
        start = time.perf_counter()
        horse_odds.odds(view)
        again = (time.perf_counter() - start) * 1000
        print(
            f"  before a race (all scratch outcomes): first {first:.1f} ms per board (target < 20 ms), then {again:.2f} ms (cached)"
        )


if __name__ == "__main__":
    bench_hotstreak()
    bench_horserace()
