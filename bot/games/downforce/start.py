"""What the table asks the catalog about Downforce: its settings at the start, and its pace.

``pace`` is the seconds between cards: the table flips nothing by itself in Downforce (players
play every card), so the pace is how long an AI seat waits before it plays a card, giving the
table time to look at the last picture. Every other AI choice (a bid, a bet, an end space) is
made at once.
"""

from __future__ import annotations

from bot.games.base import JSON, Decision
from bot.games.catalog import Start
from bot.games.downforce.settings import Settings

ENGINE_KEYS = ("track", "betting", "powers")


def engine_settings(start: Start) -> dict[str, JSON]:
    """The lobby's track, betting and powers choices (defaults for those it did not make)."""
    chosen = {key: start.options[key] for key in ENGINE_KEYS if key in start.options}
    return Settings.parse(chosen).to_json()


def stored_settings(options: dict[str, JSON]) -> dict[str, JSON]:
    """The engine settings of a stored game. One stored before wild lines were kept to cars still
    racing played with the old rule (``wild: any``): its action log replays only under it."""
    settings = dict(options.get("engine") or {})
    settings.setdefault("wild", "any")
    return settings


def ai_pause(view: dict[str, JSON], decision: Decision, pace: float) -> float:
    """An AI seat waits one pace before it plays a card; its other choices are made at once."""
    return pace if decision.kind == "play" else 0.0
