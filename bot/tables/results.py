"""A finished game's results as the rows the results table stores: one per seat, owned by whoever sat."""

from __future__ import annotations

from bot.games.base import SeatResult
from bot.storage import PlayerResult, StakeRecord
from bot.tables.seats import Seat


def result_row(seats: list[Seat], result: SeatResult) -> PlayerResult:
    """A player who left still owns the seat an AI finished for them (``Seat.owner_id``)."""
    seat = seats[result.seat]
    return PlayerResult(
        seat=result.seat,
        user_id=seat.owner_id,
        name=seat.owner_name,
        cash=result.cash,
        net=result.net,
        place=result.place,
        won=result.won,
        stakes=[StakeRecord(s.label, s.outcome, s.amount) for s in result.stakes],
    )
