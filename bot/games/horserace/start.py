"""What the table asks the catalog about The Horse Race Game: its settings at the start, its pace."""

from __future__ import annotations

import random
from typing import Any

from bot.games.base import JSON, Decision
from bot.games.catalog import Start
from bot.games.horserace.game import AUTO_ROLL, NEXT_RACE, ROLL

ENGINE_KEYS = ("bank", "fee", "races", "end", "minutes")


def engine_settings(start: Start) -> dict[str, JSON]:
    """The lobby's choices, a dealer drawn from the seed, and for a game on the clock its end time."""
    options = start.options
    settings: dict[str, JSON] = {key: options[key] for key in ENGINE_KEYS if key in options}
    settings["dealer"] = random.Random(start.seed).randrange(start.seats)
    if settings.get("end") == "minutes":
        settings["ends_at"] = start.now + 60.0 * float(settings.get("minutes", 30))
    return settings


def stored_settings(options: dict[str, Any]) -> dict[str, JSON]:
    """The engine settings of a stored game. Before the end time was a setting, the bot kept it in the
    table's own settings (``ends_at``); such a game gets it back, so it still ends on the clock."""
    settings = dict(options.get("engine", {}))
    if settings.get("end") == "minutes" and "ends_at" not in settings and "ends_at" in options:
        settings["ends_at"] = float(options["ends_at"])
    return settings


def is_automatic(options: dict[str, JSON], decision: Decision) -> bool:
    """With ``rolls: auto`` (the default) the bot rolls for everyone at the table's pace; with
    ``manual``, for a seat whose rolls went automatic (its roll offers only ``auto``: see the engine).
    A game stored without the setting was opened with it written out, so its absence means the default."""
    if decision.kind != ROLL:
        return False
    return options.get("rolls", "auto") == "auto" or decision.options == (AUTO_ROLL,)


def late_choice(decision: Decision) -> JSON | None:
    """What the bot chooses for a person who missed a roll's deadline: ``auto``, this roll and every
    roll of theirs after it for the rest of the game (they are told once, in the channel). Ruling:
    a player who let one roll pass would keep the whole table waiting on every turn of theirs."""
    if decision.kind == ROLL and AUTO_ROLL in decision.options:
        return AUTO_ROLL
    return None


def step_pause(view: dict[str, JSON], decision: Decision, pace: float, countdown: float) -> float:
    """A longer pause between races (none before the first), so the last result can be read."""
    if decision.kind == NEXT_RACE and view["race"]:
        return max(pace * 3, countdown * 3 if pace else 0.0)
    return pace
