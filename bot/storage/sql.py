"""Small helpers for running a query on an aiosqlite connection and reading all of it at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite


async def fetch_all(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    async with db.execute(sql, params) as cursor:
        return list(await cursor.fetchall())


async def fetch_one(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    async with db.execute(sql, params) as cursor:
        return await cursor.fetchone()


def marks(values: Sequence[Any]) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list of ``values``."""
    return ", ".join("?" * len(values))
