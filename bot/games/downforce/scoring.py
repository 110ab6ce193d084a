"""Prizes and bet payouts, for the three betting settings.

* ``standard``: a bet pays 9/6/3 (first bet), 6/4/2 (second), 3/2/1 (third) if its car places
  1st/2nd/3rd.
* ``odds``: the car's position when the bet was placed times a modifier: 3/2/1 for finishing
  1st/2nd/3rd on the first bet, 2/1/0 on the second, 1/0/0 on the third (the rules text's
  "Apostas de probabilidades").
* ``odds-winner-only``: the same, but only a bet on the race winner pays (3, 2, 1 times the
  position for the first, second, third bet).
"""

from __future__ import annotations

BETTING = ("standard", "odds", "odds-winner-only")
PRIZES = (12, 9, 6, 4, 2, 0)
STANDARD = ((9, 6, 3), (6, 4, 2), (3, 2, 1))
ODDS = ((3, 2, 1), (2, 1, 0), (1, 0, 0))
ODDS_WINNER_ONLY = ((3, 0, 0), (2, 0, 0), (1, 0, 0))
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def prize(place: int) -> int:
    return PRIZES[place - 1]


def bet_payout(betting: str, index: int, place: int, position: int) -> int:
    """What bet number ``index`` (0 = first) pays when its car places ``place``; ``position`` is the
    car's position when the bet was placed (used by the odds settings)."""
    if place > 3 or index > 2:
        return 0
    if betting == "standard":
        return STANDARD[index][place - 1]
    table = ODDS if betting == "odds" else ODDS_WINNER_ONLY
    return position * table[index][place - 1]
