"""Hot Streak's races for spectator bets (``bot.spectators``): the race running now, and who won each.

A race is open from its first card (the phase ``race``) until a mascot takes 1st place (the race goes
on for 2nd and 3rd, but a bet to win is decided); a mascot may be bet on while it is still racing. A race's winner is the mascot placed 1st (``history``, which every finished race
joins), so a race that ended while the bot was down is still told apart.
"""

from __future__ import annotations

from typing import Any

from bot.games.hotstreak.narration import _name
from bot.spectators import Race


def race(view: dict[str, Any]) -> Race | None:
    if view.get("phase") != "race":
        return None
    mascots = view.get("mascots") or {}
    if any(r.get("place") == 1 for r in mascots.values()):
        return None  # the winner is known
    running = tuple(m for m, r in mascots.items() if r.get("status") == "racing")
    if not running:
        return None
    return Race(int(view["race"]), running, {m: name(m) for m in mascots})


def winners(view: dict[str, Any]) -> dict[int, tuple[str, ...]]:
    return {
        int(past["race"]): tuple(sorted(m for m, p in (past.get("places") or {}).items() if p == 1))
        for past in view.get("history") or []
    }


def name(racer: str) -> str:
    return _name(racer)
