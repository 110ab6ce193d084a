"""How long the live odds take, and how far the fast ones are from their references.

Hot Streak and Downforce (issue 31): on the fixture states of ``bench/odds_references.py`` (their
20,000-race references shipped under ``tests/``), times the bot's odds (``odds(view)``: Hot Streak's
``RACE_SAMPLES`` simulated races, Downforce's fitted model) and the simulator as it was (Hot Streak
2,000 races, Downforce 600), caches cleared so every call computes, one core; prints the median, 95th
percentile and max milliseconds, and each one's mean absolute and worst error in percentage points
against the references.
The Horse Race Game: times ``odds(view)`` after every roll of seeded races on each shipped board
(race phase; cache cleared), and the first and the cached cost of the odds before a race (which
average over every way the scratch slots can fill). Run: ``python bench/bench_odds.py``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import odds_references as refs  # noqa: E402

from bot.games.base import Action  # noqa: E402
from bot.games.downforce import odds as down_odds  # noqa: E402
from bot.games.horserace import odds as horse_odds  # noqa: E402
from bot.games.horserace.board import available_boards  # noqa: E402
from bot.games.horserace.game import HorseRace  # noqa: E402
from bot.games.hotstreak import odds as hot_odds  # noqa: E402
from bot.games.odds import Odds, error_points  # noqa: E402


def _summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms over {len(ms)} states"
    )


def _fixtures(game: str) -> list[tuple[dict[str, Any], dict[str, float]]]:
    states = json.loads(refs.FIXTURES[game].read_text())["states"]
    return [(refs.loaded(game, s["view"]), s["win"]) for s in states]


def _timed(
    compute: Callable[[dict[str, Any]], Odds], states: list[tuple[dict[str, Any], dict[str, float]]]
) -> tuple[str, float]:
    """The timing and accuracy line of ``compute`` over ``states``, and its median milliseconds."""
    times: list[float] = []
    got: list[tuple[dict[str, float], dict[str, float]]] = []
    for view, want in states:
        hot_odds._CACHE.clear()
        down_odds._CACHE.clear()
        start = time.perf_counter()
        chances = compute(view)
        times.append((time.perf_counter() - start) * 1000)
        got.append((chances.win, want))
    mae, worst = error_points(got)
    return f"{_summary(times)}; {mae:.2f} points off on average, {worst:.1f} at worst", statistics.median(
        times
    )


def bench_fast_odds() -> None:
    hot = _fixtures("hotstreak")
    line, _ = _timed(lambda v: hot_odds.odds(v, budget_ms=0), hot)
    print(f"Hot Streak odds during a race, a busy bot's ({hot_odds.RACE_SAMPLES} simulated races): {line}")
    line, median = _timed(lambda v: hot_odds.odds(v, samples=hot_odds.SAMPLES), hot)
    print(f"  the simulator at {hot_odds.SAMPLES} races: {line}")
    print(f"  about {hot_odds.SAMPLES / median * 1000:,.0f} simulated races per second on one core")
    down = _fixtures("downforce")
    line, _ = _timed(down_odds.odds, down)
    print(f"Downforce odds (fitted model): {line}")
    line, _ = _timed(lambda v: down_odds.odds(v, samples=down_odds.SAMPLES), down)
    print(f"  the simulator at {down_odds.SAMPLES} races: {line}")


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
    bench_fast_odds()
    bench_horserace()
