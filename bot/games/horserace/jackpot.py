"""Splitting the jackpot among the holders of the winning horse's cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Split:
    """Whole dollars per winning card; what cannot be split evenly stays for the next race."""

    share: int
    payouts: dict[int, int]
    remainder: int


def split_jackpot(jackpot: int, cards_held: Mapping[int, int]) -> Split:
    """Split ``jackpot`` evenly per card: ``cards_held`` is seat -> winning cards held.

    Nobody holding the card (every copy surrendered) means nobody wins: the whole pot stays.
    """
    cards = sum(cards_held.values())
    if cards == 0:
        return Split(share=0, payouts={}, remainder=jackpot)
    share = jackpot // cards
    payouts = {seat: share * count for seat, count in sorted(cards_held.items()) if count}
    return Split(share=share, payouts=payouts, remainder=jackpot - share * cards)
