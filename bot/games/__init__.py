"""Pure game engines: no Discord here. Each game implements ``base.Game``."""

from __future__ import annotations

from importlib import import_module

from bot.games.base import Game

# kind -> "module:Class"; imported lazily so one broken game does not stop the others.
GAMES: dict[str, str] = {
    "hotstreak": "bot.games.hotstreak.game:HotStreak",
    "horserace": "bot.games.horserace.game:HorseRace",
    "downforce": "bot.games.downforce.game:Downforce",
}


def game_class(kind: str) -> type[Game]:
    """The engine class for a game kind (``"hotstreak"``, ``"horserace"``)."""
    try:
        module_name, class_name = GAMES[kind].split(":")
    except KeyError:
        raise KeyError(f"Unknown game {kind!r}; known: {', '.join(sorted(GAMES))}") from None
    return getattr(import_module(module_name), class_name)
