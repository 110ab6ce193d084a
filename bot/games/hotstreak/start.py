"""What the table asks the catalog about Hot Streak: who bets first, and the countdown before a race."""

from __future__ import annotations

import random

from bot.games.base import JSON, Decision
from bot.games.catalog import Start


def choose_unluckiest(net: dict[int, int], rng: random.Random) -> int:
    """ "The unluckiest player goes first": the key with the lowest lifetime net; ties by ``rng``.

    Ties are drawn from the keys sorted, so the same seeded ``rng`` gives the same pick whatever
    order the dict was built in. Pure: reads nothing, writes nothing.
    """
    if not net:
        raise ValueError("no players to choose the unluckiest from")
    lowest = min(net.values())
    tied = sorted(key for key, value in net.items() if value == lowest)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def engine_settings(start: Start) -> dict[str, JSON]:
    """The human with the lowest lifetime Hot Streak net here bets first (ties by lot from the seed);
    with no humans, seat 0."""
    if not start.lifetime_net:
        return {"first_better": 0}
    return {"first_better": choose_unluckiest(start.lifetime_net, random.Random(start.seed))}


def step_pause(view: dict[str, JSON], decision: Decision, pace: float, countdown: float) -> float:
    """The first flip of a race waits for the "3, 2, 1" countdown; every other flip one pace."""
    if decision.kind == "flip" and view["last_card"] is None and view["burned"] == 0:
        return 3 * min(pace, countdown)
    return pace
