"""An AI seat's decision: the game's AI (its catalog entry's ``choose``) on that seat's own view,
with a random generator seeded by the game, its step and the seat, so a replay decides the same."""

from __future__ import annotations

import logging
import random
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from bot import workers
from bot.games.base import Action, Decision, Game

if TYPE_CHECKING:
    from bot.games.catalog import Entry

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "easy"
"""The AI level played in the bot's own process when the AI worker fails (every game's easy AI is a
random legal option: no look-ahead, nothing for the event loop to wait on)."""


async def ai_action(
    entry: Entry, engine: Game, seed: int, seq: int, decision: Decision, level: str
) -> Action:
    """The action an AI of ``level`` takes for ``decision``, computed in a worker process (a look-ahead
    takes about 0.1 s of CPU, which the event loop must not spend: clicks stay answered).

    Ruling: an AI worker that runs past ``AI_TIMEOUT`` (hung, stopped) or dies on this decision is
    replaced (``bot.workers``), and this one decision is taken by the game's easy AI here instead, so
    the game goes on; the next decision goes to the new worker."""
    assert decision.player is not None
    view, effort = engine.view(decision.player), workers.ai_effort()
    try:
        choice = await workers.run(
            entry.choose, view, decision, level, _rng(seed, seq, decision), effort, lane=workers.AI
        )
    except (workers.WorkerTimeout, BrokenProcessPool) as error:
        log.warning(
            "The AI worker failed on a %s decision (%s); the %s AI decides it here instead",
            entry.kind,
            type(error).__name__,
            FALLBACK_LEVEL,
        )
        choice = entry.choose(view, decision, FALLBACK_LEVEL, _rng(seed, seq, decision))
    return Action(decision.player, decision.kind, choice)


def _rng(seed: int, seq: int, decision: Decision) -> random.Random:
    return random.Random(f"{seed}:{seq}:{decision.player}")
