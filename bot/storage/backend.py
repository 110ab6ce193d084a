"""What ``Storage`` needs from a database: transactions that run ``?``-placeholder SQL, per dialect.

Two backends implement it: SQLite (``bot.storage.sqlite``) and PostgreSQL (``bot.storage.postgres``).
The SQL is written once, in the common subset of both; where they differ (a query hint, a JSON
function, a row lock) the caller asks ``tx.dialect`` and the difference stays next to the query.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

SQLITE = "sqlite"
POSTGRES = "postgres"


class Tx(ABC):
    """One open transaction; every method may raise a driver error, which the backend explains."""

    dialect: str
    for_update: str  # " FOR UPDATE" where a read must lock the rows it reads against other writers

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Backend(ABC):
    """A connection (or the means to make one again) to one database."""

    dialect: str
    where: str  # "the database at data/bot.db", "the PostgreSQL database postgresql://bot@db/bot"

    @abstractmethod
    def transaction(
        self, doing: str, *, write: bool, aside: bool = False, one_statement: bool = False
    ) -> AbstractAsyncContextManager[Tx]:
        """One transaction.

        Commits when the block ends, rolls back if it raises; a driver error leaves as
        ``StorageError`` saying it could not ``doing`` and why, with the driver error as its cause.
        ``write`` transactions take the write lock first (SQLite), so a busy database fails
        before anything is written.

        Where they run: SQLite serialises every transaction on its one connection. PostgreSQL runs
        the game writes one at a time on one connection (the order of a process's writes stays
        obvious), and reads and ``aside`` writes (the lease keeper's, routed clicks) on a small pool
        of connections of their own, so they never queue behind a game write that waits for a lock.

        ``one_statement``: the block runs a single statement, which PostgreSQL then runs as its own
        transaction (no ``BEGIN`` and ``COMMIT`` trips to the server); SQLite runs it as any other.
        """

    @abstractmethod
    async def close(self) -> None:
        """Close the connection; calling it twice is harmless."""


def marks(values: Sequence[Any]) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list of ``values``."""
    return ", ".join("?" * len(values))


class TimedBackend(Backend):
    """A backend whose every transaction is timed, and counted when it fails (``bot.metrics``)."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self.where = inner.where

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @asynccontextmanager
    async def transaction(
        self, doing: str, *, write: bool, aside: bool = False, one_statement: bool = False
    ) -> AsyncIterator[Tx]:
        from bot import metrics

        with metrics.timed(
            metrics.STORAGE_CALL_SECONDS, metrics.STORAGE_ERRORS, "write" if write else "read"
        ):
            async with self.inner.transaction(
                doing, write=write, aside=aside, one_statement=one_statement
            ) as tx:
                yield tx

    async def close(self) -> None:
        await self.inner.close()
