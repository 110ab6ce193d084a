"""The Horse Race Game's live odds are exact: they agree with long simulations from any position."""

from __future__ import annotations

import math
import random

import pytest

from bot.games.base import Action
from bot.games.horserace.board import HORSES, load_board
from bot.games.horserace.game import HorseRace
from bot.games.horserace.odds import odds
from bot.games.horserace.race import DICE_TOTALS, Track
from bot.games.horserace.sim import simulate


def _close_enough(exact: dict[str, float], counts: dict[int, int], runs: int) -> None:
    for h in HORSES:
        p = exact[str(h)]
        se = math.sqrt(max(p * (1 - p), 1e-12) / runs)
        assert abs(counts[h] / runs - p) <= 4 * se, (h, counts[h] / runs, p)


@pytest.mark.parametrize("board_name", ["standard", "classic16"])
def test_odds_from_the_start_agree_with_a_100000_race_simulation(board_name: str) -> None:
    board = load_board(board_name)
    game = HorseRace.new(3, 5, {"board": board_name})
    view = game.view(None)
    result = odds(view)
    assert result.exact and result.samples is None and result.place is None
    assert sum(result.win.values()) == pytest.approx(1.0)
    stats = simulate(board, 100_000, seed=11)
    counts = {h: round(stats["win_rate"][str(h)] * 100_000) for h in HORSES}
    _close_enough(result.win, counts, 100_000)


def _race_view(seed: int, rolls: int) -> dict:
    game = HorseRace.new(3, seed)
    while game.view(None)["phase"] != "race" or rolls > 0:
        d = game.pending()[0]
        if game.view(None)["phase"] == "race":
            rolls -= 1
        game.apply(Action(d.player, d.kind, d.options[0]))
    return game.view(None)


def test_odds_mid_race_agree_with_a_simulation_from_that_position() -> None:
    view = _race_view(3, 25)
    assert view["winner"] is None
    moves = {int(h): m for h, m in view["board"]["moves"].items()}
    positions = {int(h): p for h, p in view["positions"].items()}
    scratched = [s["horse"] for s in view["scratched"]]
    result = odds(view)
    rng = random.Random(4)
    counts = dict.fromkeys(HORSES, 0)
    runs = 40_000
    for _ in range(runs):
        track = Track(moves, dict(positions), list(scratched))
        while track.winner is None:
            track.race_roll(rng.choice(DICE_TOTALS))
        counts[track.winner] += 1
    _close_enough(result.win, counts, runs)
    for h in scratched:
        assert result.win[str(h)] == 0.0


def test_a_won_race_is_certain_and_the_scratch_round_counts_what_is_scratched() -> None:
    view = _race_view(6, 0)
    decided = dict(view, winner=5)
    assert odds(decided).win["5"] == 1.0
    partial = dict(view, phase="scratch", scratched=view["scratched"][:2])
    chances = odds(partial).win
    assert sum(chances.values()) == pytest.approx(1.0)
    for s in view["scratched"][:2]:
        assert chances[str(s["horse"])] == 0.0


def test_the_shared_entry_gives_the_horse_race_its_exact_odds() -> None:
    from bot.games.odds import odds_for

    view = _race_view(7, 5)
    assert odds_for("horserace", view, samples=100, budget_ms=5) == odds(view)


def _average_over_scratches(moves: dict[int, int], scratched: tuple[int, ...]) -> dict[int, float]:
    """The plain way: every order the scratch slots can fill, each set's race solved on its own."""
    from bot.games.horserace.odds import WAYS, race_odds
    from bot.games.horserace.scratch import SLOTS

    win = dict.fromkeys(HORSES, 0.0)

    def fill(done: tuple[int, ...], p: float) -> None:
        if len(done) >= SLOTS:
            for h, chance in race_odds(tuple((h, moves[h]) for h in HORSES if h not in done)).items():
                win[h] += p * chance
            return
        left = [h for h in HORSES if h not in done]
        for h in left:
            fill((*done, h), p * WAYS[h] / sum(WAYS[x] for x in left))

    fill(scratched, 1.0)
    return win


@pytest.mark.parametrize("scratched", [(), (7,), (2, 12, 6)])
def test_the_fast_odds_before_a_race_equal_the_plain_average_over_every_scratch(scratched) -> None:
    from bot.games.horserace.odds import _before_race

    view = HorseRace.new(3, 1).view(None)
    moves = {int(h): int(m) for h, m in view["board"]["moves"].items()}
    fast = _before_race(tuple(sorted(moves.items())), scratched)
    plain = _average_over_scratches(moves, scratched)
    assert all(math.isclose(fast[h], plain[h], abs_tol=1e-12) for h in HORSES)


@pytest.mark.parametrize("scratched", [(), (2,)])
def test_a_board_with_no_two_horses_alike_gets_the_same_exact_odds_as_the_plain_average(scratched) -> None:
    """The fast path merges horses alike in dice and moves; a lopsided board has none to merge."""
    from bot.games.horserace.odds import _before_race

    moves = {h: 2 + (h * 5) % 9 for h in HORSES}  # 7 and 12 alike in moves but not in dice
    fast = _before_race(tuple(sorted(moves.items())), scratched)
    plain = _average_over_scratches(moves, scratched)
    assert all(math.isclose(fast[h], plain[h], abs_tol=1e-12) for h in HORSES)
    assert math.isclose(sum(fast.values()), 1.0, abs_tol=1e-12)
