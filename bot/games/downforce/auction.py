"""The auction rules: who may bid, and who wins.

* Every seat may bid, except under the one-car rule: every player must end with at least one
  car, so once the cars left equal the seats without one, only those seats may bid.
* The highest bid wins. A tie goes to the seat with fewer cars, then to a draw from the game's
  seeded RNG.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.rng import GameRng


def eligible_seats(seats: int, cars_owned: Mapping[int, int], cars_left: int) -> list[int]:
    """The seats that may bid on the next car (``cars_owned``: seat -> cars it has)."""
    without = [seat for seat in range(seats) if not cars_owned.get(seat)]
    return without if cars_left <= len(without) else list(range(seats))


def auction_winner(
    bids: Mapping[int, int], cars_owned: Mapping[int, int], rng: GameRng
) -> tuple[int, bool, bool]:
    """``(winner, tie, drawn)`` for ``bids`` (seat -> amount): whether the top bid was tied, and
    whether the tie was left to the draw."""
    top = max(bids.values())
    best = [seat for seat, amount in bids.items() if amount == top]
    tie = len(best) > 1
    fewest = min(cars_owned.get(seat, 0) for seat in best)
    best = sorted(seat for seat in best if cars_owned.get(seat, 0) == fewest)
    drawn = len(best) > 1
    return (rng.choice(best) if drawn else best[0]), tie, drawn
