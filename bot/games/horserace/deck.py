"""The horse cards and the deal.

44 cards, 4 per horse. With fewer than seven players the rules split the deck and keep two
of each horse "for even play and odds", so the deck is 22 cards. Every card is dealt, face
up, one at a time, starting with the player left of the dealer; hands may be uneven.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.horserace.board import HORSES

FULL_COPIES = 4
SPLIT_COPIES = 2
SPLIT_BELOW = 7  # fewer players than this: split deck


def copies_per_horse(players: int) -> int:
    return SPLIT_COPIES if players < SPLIT_BELOW else FULL_COPIES


def build_deck(players: int) -> list[int]:
    """The cards in play for ``players`` (unshuffled, horse order)."""
    return [horse for horse in HORSES for _ in range(copies_per_horse(players))]


def left_of(seat: int, players: int) -> int:
    """Seats are numbered clockwise, so "left" is the next seat number."""
    return (seat + 1) % players


def deal(deck: Sequence[int], players: int, dealer: int) -> list[list[int]]:
    """Deal every card of ``deck`` in order, one at a time, from the seat left of ``dealer``.

    Hands come back sorted (they are face up, and sorted hands read best).
    """
    hands: list[list[int]] = [[] for _ in range(players)]
    seat = left_of(dealer, players)
    for card in deck:
        hands[seat].append(card)
        seat = left_of(seat, players)
    for hand in hands:
        hand.sort()
    return hands
