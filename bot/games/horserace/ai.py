"""The AI player: the game has no choices, only rolls, so the AI takes the pending step."""

from __future__ import annotations

from bot.games.base import Action
from bot.games.horserace.game import HorseRace


def choose(game: HorseRace, seat: int | None) -> Action | None:
    """The action ``seat`` takes now (its roll, or the table step for ``None``), or None if nothing is due."""
    decision = game.decision_for(seat)
    if decision is None:
        return None
    return Action(seat, decision.kind, decision.options[0])


def play_out(game: HorseRace, max_steps: int = 1_000_000) -> list[Action]:
    """Play every pending step until the game ends; returns the actions taken (the game's log)."""
    taken: list[Action] = []
    for _ in range(max_steps):
        if game.is_over:
            break
        decision = game.pending()[0]
        action = Action(decision.player, decision.kind, decision.options[0])
        game.apply(action)
        taken.append(action)
    return taken
