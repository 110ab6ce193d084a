"""The rules of spectator bets (``bot.spectators``): prices with the house margin, payouts, the
daily allowance, and a quote never taken once the race has moved on from its frame."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot import spectators as rules
from bot.games.base import Action
from bot.games.catalog import Start, entry
from bot.games.hotstreak import spectate as hotstreak
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.odds import odds
from bot.spectators import Race


def test_the_price_takes_the_margin_off_the_fair_price_and_rounds_down() -> None:
    assert rules.price(0.5) == 190  # 0.95 / 0.5 = 1.90
    assert rules.price(0.3) == 315  # 3.1666 rounded down to 3.15
    assert rules.price(0.0) is None  # a racer that cannot win is not offered
    assert rules.price(0.95) is None  # 1.00: nothing to win
    assert rules.price(0.0001) == rules.MAX_PRICE


def test_a_winning_bet_returns_stake_times_price_and_a_dead_heat_splits_it() -> None:
    assert rules.payout(25, 340, ("bear",), "bear") == 25 * 340
    assert rules.payout(25, 340, ("mum",), "bear") == 0
    assert rules.payout(25, 340, ("bear", "mum"), "bear") == 25 * 340 // 2


def test_the_allowance_tops_a_wallet_up_once_a_utc_day() -> None:
    day = 1_796_300_000.0
    chips, today = rules.topped_up(0, None, day)
    assert chips == 100 * rules.CENT
    assert rules.topped_up(4_000, today, day + 60) == (4_000, today)  # the same day: as it is
    assert rules.topped_up(4_000, today, day + 86_400)[0] == 100 * rules.CENT  # the next day
    assert rules.topped_up(25_000, today, day + 86_400)[0] == 25_000  # above the allowance: kept


def test_over_10000_seeded_bets_the_mean_return_is_one_minus_the_margin() -> None:
    """Chances drawn at random, the outcome drawn from the same chance: the mean of payout / stake is
    1 - margin within 3 standard errors (rounding prices down only lowers it, by under a percent)."""
    rng = random.Random(30)
    returns = []
    for _ in range(10_000):
        chance = rng.uniform(0.05, 0.8)
        price = rules.price(chance)
        assert price is not None
        won = rng.random() < chance
        returns.append(rules.payout(10, price, ("a",) if won else ("b",), "a") / (10 * rules.CENT))
    mean = sum(returns) / len(returns)
    sd = math.sqrt(sum((r - mean) ** 2 for r in returns) / (len(returns) - 1))
    assert abs(mean - (1 - rules.MARGIN)) <= 3 * sd / math.sqrt(len(returns)), mean


def test_over_10000_bets_on_hot_streak_races_at_its_odds_the_mean_return_is_one_minus_the_margin() -> None:
    """Bets on real Hot Streak race states, priced at the game's fast odds, each outcome drawn (seeded)
    from the same odds: the house keeps its margin, no more, within 3 standard errors."""
    rng = random.Random(31)
    states = []
    for seed in range(6):
        game = HotStreak.new(3, seed)
        while game.view(None)["phase"] != "race":
            decision = game.pending()[0]
            game.apply(
                Action(decision.player, decision.kind, decision.options[rng.randrange(len(decision.options))])
            )
        for _ in range(4):  # a few frames into the race
            view = game.view(None)
            race = hotstreak.race(view)
            if race is not None:
                states.append((race, odds(view, samples=256).win))
            decision = game.pending()[0]
            if game.view(None)["phase"] != "race":
                break
            game.apply(Action(decision.player, decision.kind, decision.options[0]))
    assert states
    returns = []
    while len(returns) < 10_000:
        race, win = states[rng.randrange(len(states))]
        quotes = rules.quotes(1, race, 0, win)
        if not quotes:
            continue
        racer = rng.choice(sorted(quotes))
        racers, weights = zip(*win.items(), strict=True)
        winner = rng.choices(racers, weights)[0]
        returns.append(rules.payout(10, quotes[racer].price, (winner,), racer) / (10 * rules.CENT))
    mean = sum(returns) / len(returns)
    sd = math.sqrt(sum((r - mean) ** 2 for r in returns) / (len(returns) - 1))
    assert abs(mean - (1 - rules.MARGIN)) <= 3 * sd / math.sqrt(len(returns)), (mean, sd)


@pytest.mark.parametrize("frame", [0, 5])
def test_a_quote_names_its_frame(frame: int) -> None:
    race = Race(1, ("a", "b"), {"a": "A", "b": "B"})
    quotes = rules.quotes(7, race, frame, {"a": 0.5, "b": 0.5})
    assert {q.frame for q in quotes.values()} == {frame}
    assert quotes["a"].price == 190 and quotes["a"].game_id == 7


def play_until(kind: str, seats: int, seed: int, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """A game of ``kind`` played by its AI from ``seed`` until its public view is ``done``."""
    game = entry(kind)
    settings = game.engine_settings(Start(seats, seed, 0.0, {"players": seats}, {}))
    engine = game.new_engine(seats, seed, game.stored_engine_settings({"engine": settings}))
    rng = random.Random(seed)
    for _ in range(5_000):
        view = engine.view(None)
        if done(view):
            return view
        decision = engine.pending()[0]
        choice = (
            decision.options[0]
            if decision.player is None
            else game.choose(engine.view(decision.player), decision, "easy", rng)
        )
        engine.apply(Action(decision.player, decision.kind, choice))
    raise AssertionError(f"{kind} never got there")


@pytest.mark.parametrize("kind", ["hotstreak", "horserace", "downforce"])
def test_each_game_opens_its_race_to_bets_and_names_its_winner(kind: str) -> None:
    spectate = rules.rules_for(kind)
    assert spectate is not None
    running = play_until(kind, 3, 5, lambda v: spectate.race(v) is not None)
    race = spectate.race(running)
    assert race is not None and race.racers and race.number not in spectate.winners(running)
    assert all(spectate.name(r) for r in race.racers)
    ended = play_until(kind, 3, 5, lambda v: race.number in spectate.winners(v))
    assert spectate.race(ended) is None or spectate.race(ended).number != race.number  # type: ignore[union-attr]
    assert set(spectate.winners(ended)[race.number]) <= set(race.racers) | set(running.get("mascots") or {})
    assert len(spectate.winners(ended)[race.number]) == 1


def test_a_game_without_races_to_bet_on_has_no_rules() -> None:
    assert rules.rules_for("nosuchgame") is None and rules.rules_for("../x") is None
