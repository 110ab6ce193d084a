"""Who goes first: "The unluckiest player goes first" (Hot Streak), judged by lifetime winnings."""

from __future__ import annotations

import random


def choose_unluckiest(winnings: dict[int, int], rng: random.Random) -> int:
    """The user with the lowest lifetime winnings; among ties, one picked by ``rng``.

    Ties are drawn from the users sorted by id, so the same seeded ``rng`` gives the same pick
    whatever order the dict was built in. Pure: reads nothing, writes nothing.
    """
    if not winnings:
        raise ValueError("no players to choose the unluckiest from")
    lowest = min(winnings.values())
    tied = sorted(user for user, won in winnings.items() if won == lowest)
    return tied[0] if len(tied) == 1 else rng.choice(tied)
