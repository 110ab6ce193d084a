"""An AI seat's decision: the game's AI (its catalog entry's ``choose``) on that seat's own view,
with a random generator seeded by the game, its step and the seat, so a replay decides the same."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bot import workers
from bot.games.base import Action, Decision, Game

if TYPE_CHECKING:
    from bot.games.catalog import Entry


async def ai_action(
    entry: Entry, engine: Game, seed: int, seq: int, decision: Decision, level: str
) -> Action:
    """The action an AI of ``level`` takes for ``decision``, computed in a worker process (a look-ahead
    takes about 0.1 s of CPU, which the event loop must not spend: clicks stay answered)."""
    assert decision.player is not None
    rng = random.Random(f"{seed}:{seq}:{decision.player}")
    view, effort = engine.view(decision.player), workers.ai_effort()
    choice = await workers.run(entry.choose, view, decision, level, rng, effort, lane=workers.AI)
    return Action(decision.player, decision.kind, choice)
