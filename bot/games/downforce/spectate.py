"""Downforce's race for spectator bets (``bot.spectators``): its one race, open from its first card
(the phases ``race`` and ``bet``, the bets between lines) until a car crosses the finish first.

A bet is on a car to win: decided by the first car placed (place 1), which the public view keeps to
the end of the game, so the bets are paid as soon as it finishes, while the others race on for places.
"""

from __future__ import annotations

from typing import Any

from bot.games.downforce.narration import colour_name
from bot.spectators import Race

RACE = 1  # Downforce is one race


def race(view: dict[str, Any]) -> Race | None:
    if view.get("phase") not in ("race", "bet") or winners(view):
        return None
    cars = view.get("cars") or {}
    running = tuple(c for c, car in cars.items() if not car.get("finished"))
    return Race(RACE, running, {c: name(c) for c in cars}) if running else None


def winners(view: dict[str, Any]) -> dict[int, tuple[str, ...]]:
    first = tuple(sorted(c for c, car in (view.get("cars") or {}).items() if car.get("place") == 1))
    return {RACE: first} if first else {}


def name(racer: str) -> str:
    return colour_name(racer).capitalize()
