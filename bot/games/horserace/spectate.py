"""The Horse Race Game's races for spectator bets (``bot.spectators``): the race running now (its
phase ``race``, every horse not scratched) and its winner while the board still shows it.

Ruling: the board forgets a race's winner when the next race's scratches begin, so a bet whose race
ended unseen (the bot down from its last roll until the next race began) is refunded when the game
ends, as a race that was not seen to finish.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import _
from bot.spectators import Race


def race(view: dict[str, Any]) -> Race | None:
    if view.get("phase") != "race" or view.get("winner") is not None:
        return None
    scratched = {int(s["horse"]) for s in view.get("scratched") or []}
    horses = tuple(str(h) for h in sorted(int(h) for h in view["board"]["moves"]) if h not in scratched)
    return Race(int(view["race"]), horses, {h: name(h) for h in horses})


def winners(view: dict[str, Any]) -> dict[int, tuple[str, ...]]:
    winner = view.get("winner")
    return {int(view["race"]): (str(winner),)} if winner is not None else {}


def name(racer: str) -> str:
    return _("Horse {number}", number=racer)
