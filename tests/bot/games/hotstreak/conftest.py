"""Shared helpers: play race cards in scenario notation on a fixed test mat.

The rule tests use their own mat (not the shipped one) so tuning the edition never
changes what a rule test means. Test mat: 4 lanes, length 10, stars per lane
[[4, 8], [], [5], [2, 6]], white lines at 3 and 6.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.games.base import Action, Event
from bot.games.hotstreak.cards import parse_card
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.scenario import build_race, run_scenario

TEST_TRACK = {"lanes": 4, "length": 10, "stars": [[4, 8], [], [5], [2, 6]], "white_lines": [3, 6]}


def _scenario(cards: list[str], mascots: dict | None, bar: int, track: dict | None) -> dict:
    return {"track": track or TEST_TRACK, "mascots": mascots or {}, "bar": bar, "cards": cards}


@pytest.fixture
def play() -> Callable[..., dict]:
    """``play(["gobbler +3"], mascots={...})`` -> the scenario runner's printed result."""

    def _play(cards: list[str], mascots: dict | None = None, bar: int = 0, track: dict | None = None) -> dict:
        return run_scenario(_scenario(cards, mascots, bar, track))

    return _play


@pytest.fixture
def race_after() -> Callable[..., Race]:
    """Like ``play`` but returns the ``Race`` itself (for side bets and payouts)."""

    def _race(cards: list[str], mascots: dict | None = None, bar: int = 0) -> Race:
        race = build_race(_scenario([], mascots, bar, None))
        for card in cards:
            if race.ended:
                break
            if card == "dry":
                race.fold()
            else:
                race.resolve(parse_card(card))
        return race

    return _race


def random_step(game: HotStreak, rnd: random.Random) -> list[Event]:
    """Apply one random legal decision (any pending one)."""
    decision = rnd.choice(game.pending())
    return game.apply(Action(decision.player, decision.kind, rnd.choice(decision.options)))


def play_out(
    game: HotStreak, rnd: random.Random, until: Callable[[HotStreak], bool] | None = None
) -> list[Event]:
    """Random legal play until the game ends (or ``until(game)`` holds); returns every event."""
    events: list[Event] = []
    while not game.is_over and not (until and until(game)):
        events += random_step(game, rnd)
    return events
