"""Pure game engines: no Discord here. Each game implements ``base.Game`` and has one line in ``catalog``."""

from __future__ import annotations

from bot.games.base import Game
from bot.games.catalog import CATALOG, entry

# kind -> "module:Class" (kept for the command line; the catalog is the one list).
GAMES: dict[str, str] = {kind: e.engine for kind, e in CATALOG.items()}


def game_class(kind: str) -> type[Game]:
    """The engine class for a game kind (``"hotstreak"``, ``"horserace"``)."""
    return entry(kind).engine_class
