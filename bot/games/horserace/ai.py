"""The AI player: the game has no choices, only rolls, so the AI takes the pending step."""

from __future__ import annotations

import random

from bot.games.base import JSON, Action, Decision
from bot.games.horserace.game import HorseRace


def choose(view: dict[str, JSON], decision: Decision, level: str, rng: random.Random) -> JSON:
    """The shared AI signature: a roll has one option, so every level takes it."""
    return decision.options[0]


def ai_action(game: HorseRace, seat: int | None) -> Action | None:
    """The action ``seat`` takes now (its roll, or the table step for ``None``), or None if nothing is due."""
    decision = game.decision_for(seat)
    if decision is None:
        return None
    return Action(seat, decision.kind, choose({}, decision, "normal", random.Random(0)))


def play_out(game: HorseRace, max_steps: int = 1_000_000) -> list[Action]:
    """Play every pending step until the game ends; returns the actions taken (the game's log).

    ``time_up`` (a game on the clock) is listed after the other steps, so it is never taken here.
    """
    taken: list[Action] = []
    for _ in range(max_steps):
        if game.is_over:
            break
        decision = game.pending()[0]
        action = Action(decision.player, decision.kind, decision.options[0])
        game.apply(action)
        taken.append(action)
    return taken
