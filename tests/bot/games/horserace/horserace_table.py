"""Test helpers: load the dice so a rule test reads like the rulebook ("the dice come up 7")."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from bot.games.base import Action, Event
from bot.games.horserace.game import HorseRace


class LoadedDice:
    """Stands in for the game's RNG: dice come up as scripted, and the deck is not shuffled."""

    def __init__(self) -> None:
        self.faces: list[int] = []

    def roll(self, *totals: int) -> None:
        for total in totals:
            first = min(6, total - 1)
            self.faces += [first, total - first]

    def randint(self, low: int, high: int) -> int:
        assert self.faces, "the test ran out of scripted dice"
        return self.faces.pop(0)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Leave the deck in horse order (2, 2, 3, 3, ...), so hands are predictable."""

    def to_json(self) -> list[int]:
        return list(self.faces)


def table(seats: int = 4, **settings: Any) -> tuple[HorseRace, LoadedDice]:
    """A game whose dice the test controls."""
    game = HorseRace.new(seats, seed=0, settings=settings or None)
    dice = LoadedDice()
    game.rng = dice  # type: ignore[assignment]
    return game, dice


def step(game: HorseRace) -> list[Event]:
    """Take the one pending step (whoever's roll it is, or the table's)."""
    decision = game.pending()[0]
    return game.apply(Action(decision.player, decision.kind, decision.options[0]))


def rolls(game: HorseRace, dice: LoadedDice, *totals: int) -> list[Event]:
    """The players whose turn it is roll ``totals``, one after the other."""
    dice.roll(*totals)
    events: list[Event] = []
    for _ in totals:
        events += step(game)
    return events


def start_race(game: HorseRace, dice: LoadedDice, scratches: tuple[int, ...] = (7, 6, 8, 5)) -> list[Event]:
    """Start the next race and scratch ``scratches`` (no re-rolls)."""
    events = step(game)
    return events + rolls(game, dice, *scratches)


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]
