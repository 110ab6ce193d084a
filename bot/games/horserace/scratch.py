"""The scratch round: four horses drop out, each into a slot whose multiplier sets the penalty.

A rolled number that is not yet scratched takes the next slot (x1, x2, x3, x4 in order) and
every card of that horse is surrendered. A number already scratched is simply rolled again
by the next player, with no penalty (the penalty applies in the race only).
"""

from __future__ import annotations

MULTIPLIERS: tuple[int, ...] = (1, 2, 3, 4)
SLOTS = len(MULTIPLIERS)
SIT_OUT_FEES = 5  # a player left without cards pays 5x the entry fee and sits out


def multiplier(slot: int) -> int:
    """Penalty multiplier of scratch ``slot`` (1-based)."""
    return MULTIPLIERS[slot - 1]


def surrender(hands: list[list[int]], horse: int) -> dict[int, int]:
    """Take every card of ``horse`` out of ``hands``; returns seat -> cards surrendered."""
    given: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        count = hand.count(horse)
        if count:
            hand[:] = [card for card in hand if card != horse]
            given[seat] = count
    return given
