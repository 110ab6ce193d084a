"""Helpers for the storage tests: a hand-moved clock, seats, and raw row counts."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.storage import PlayerResult, StakeRecord

DAY = 86400.0
START = 1_767_225_600.0  # 2026-01-01 00:00 UTC, a Thursday


class Clock:
    """``clock()`` is now; ``clock.advance(seconds)`` moves it on."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def count_rows(path: Path, table: str) -> int:
    """Rows committed in ``table``, read through a separate connection (what another process would see)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def seats(*users: int | None) -> list[dict[str, Any]]:
    """Seat dicts for users; ``None`` makes an AI seat."""
    return [
        {
            "user_id": u,
            "name": f"User {u}" if u is not None else f"Bot {i}",
            "ai": None if u is not None else "easy",
        }
        for i, u in enumerate(users)
    ]


def result(
    seat: int, user_id: int | None, net: int, *, won: bool = False, place: int = 1, name: str | None = None,
    stakes: list[StakeRecord] | None = None,
) -> PlayerResult:  # fmt: skip
    """A seat's result with $10 starting cash."""
    return PlayerResult(
        seat=seat,
        user_id=user_id,
        name=name or (f"User {user_id}" if user_id is not None else f"Bot {seat}"),
        cash=10 + net,
        net=net,
        place=place,
        won=won,
        stakes=stakes or [],
    )
