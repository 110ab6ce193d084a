"""The SQLite backend: one aiosqlite connection per bot process, and only one bot process per file.

* Every change is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), committed with
  ``synchronous=FULL`` before the call returns.
* One connection serves the bot; an ``asyncio.Lock`` keeps two coroutines from interleaving
  statements inside each other's transactions.
* A second bot process on the same file is refused at start (a lock on ``<file>.lock``, which the
  system drops when the process dies, even by SIGKILL): two bots would each resume the same games
  and play them twice. Sharing one database between processes is what PostgreSQL is for.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any
from urllib.request import pathname2url

import aiosqlite

from bot.storage.backend import SQLITE, Backend, Tx
from bot.storage.errors import StorageError


class SqliteTx(Tx):
    dialect = SQLITE
    for_update = ""  # BEGIN IMMEDIATE already holds the one write lock of the file

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.db.execute(sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        # One trip to aiosqlite's thread, not three (open, fetch, close a cursor): each trip costs its
        # caller a turn of the event loop, and at 500 games the trips were a tenth of the loop.
        return [tuple(row) for row in await self.db.execute_fetchall(sql, params)]


class SqliteBackend(Backend):
    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, path: Path, lock: IO[bytes] | None) -> None:
        self._db: aiosqlite.Connection | None = db
        self.path = path
        self.where = f"the database at {path}"
        self._file_lock = lock
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path, *, busy_timeout: float, read_only: bool = False) -> SqliteBackend:
        """Open the file (creating it and its folder unless ``read_only``), with the bot's settings."""
        lock: IO[bytes] | None = None
        db: aiosqlite.Connection | None = None
        try:
            if not read_only:
                path.parent.mkdir(parents=True, exist_ok=True)
                # A file that cannot be opened at all (a directory, no permission) is found by plain
                # sqlite3 first: aiosqlite's failed connect leaves its worker thread to finish after
                # we return, which can outlive the event loop and end in an error on another thread.
                await asyncio.to_thread(_probe_open, path)
                lock = _lock_for_this_process(path)
                db = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
            else:
                await asyncio.to_thread(_probe_open, path, True)
                db = await aiosqlite.connect(
                    _read_only_uri(path), uri=True, isolation_level=None, timeout=busy_timeout
                )
            await db.execute(f"PRAGMA busy_timeout = {max(int(busy_timeout * 1000), 0)}")
            if not read_only:
                # The first statement that reads the file: a garbage file fails here, clearly.
                async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                    await cursor.fetchone()
            await db.execute("PRAGMA foreign_keys = ON")
            # FULL: a commit survives a power cut too, not only a crash of the bot. Writes are
            # human-paced (clicks), so the extra fsync costs nothing anyone notices.
            await db.execute("PRAGMA synchronous = FULL")
        except BaseException as error:
            if db is not None:
                await _quietly_close(db)
            if lock is not None:
                lock.close()
            if is_driver_error(error):
                raise explain(error, "open the database", path) from error
            raise
        return cls(db, path, lock)

    @asynccontextmanager
    async def transaction(
        self, doing: str, *, write: bool, aside: bool = False, one_statement: bool = False
    ) -> AsyncIterator[Tx]:
        # ``aside`` and ``one_statement`` change nothing here: the file has one writer at a time
        # whatever the connection, and a statement is as cheap in a transaction as alone.
        async with self._lock:
            db = self._db
            if db is None:
                raise StorageError(f"Could not {doing}: the storage at {self.path} is closed.")
            try:
                await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield SqliteTx(db)
                await db.execute("COMMIT")
            except BaseException as error:
                await _rollback(db)
                if is_driver_error(error):
                    raise explain(error, doing, self.path) from error
                raise

    async def close(self) -> None:
        db, self._db = self._db, None
        if db is None:
            return
        async with self._lock:
            try:
                # Keeps the query planner's statistics fresh, cheaply (bounded analysis).
                await db.execute("PRAGMA analysis_limit = 1000")
                await db.execute("PRAGMA optimize")
            except Exception:  # noqa: BLE001 - closing must not fail on a housekeeping step
                pass
            await _quietly_close(db)
            if self._file_lock is not None:
                self._file_lock.close()
                self._file_lock = None

    @property
    def connection(self) -> aiosqlite.Connection | None:
        """The open connection (tests reach in to set pragmas that simulate faults)."""
        return self._db


def _lock_for_this_process(path: Path) -> IO[bytes]:
    """Hold ``<file>.lock`` exclusively for as long as the returned file stays open."""
    lock_path = path.with_name(path.name + ".lock")
    handle = open(lock_path, "a+b")  # noqa: SIM115 - held open on purpose: the lock lives with it
    try:
        if sys.platform == "win32":  # pragma: no cover - the bot is run and tested on Linux
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StorageError(
            f"Could not open the database: {path} is already in use by another running bot. "
            "Only one bot process may use a SQLite file (two would play the same games twice); "
            "stop the other one, or give each its own file, or set DATABASE_URL to a PostgreSQL "
            "database (postgresql://user:password@host/dbname) to share one database between processes."
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n".encode())
    handle.flush()
    return handle


def explain(error: BaseException, doing: str, path: Path) -> StorageError:
    """Turn a driver/OS error met while ``doing`` something into a ``StorageError`` with a clear message."""
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    lowered = text.lower()
    where = f"the database at {path}"
    if name == "SQLITE_NOTADB" or "file is not a database" in lowered:
        message = f"{where} is not a SQLite database (the file is corrupt or is another kind of file)"
    elif name.startswith("SQLITE_CORRUPT") or "malformed" in lowered:
        message = f"{where} is corrupt ({text}); restore it from a backup"
    elif name.startswith("SQLITE_FULL") or "disk is full" in lowered:
        message = f"{where} is full (the disk or the database's size limit); free some space"
    elif name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED") or "locked" in lowered:
        message = f"{where} is locked by another program or connection and stayed locked past the wait"
    elif name.startswith("SQLITE_READONLY") or "readonly" in lowered or "read-only" in lowered:
        message = f"{where} is read-only; the bot needs to write to it (check file and folder permissions)"
    elif name.startswith("SQLITE_CANTOPEN") or "unable to open" in lowered:
        message = f"{where} cannot be opened (missing folder, a directory in its place, or no permission)"
    elif name.startswith("SQLITE_IOERR") or isinstance(error, OSError):
        message = f"{where} could not be read or written (I/O error: {text})"
    elif isinstance(error, ValueError) and "no active connection" in lowered:
        message = f"{where} is closed; the storage was used after close()"
    else:
        message = f"{where} failed ({text})"
    return StorageError(f"Could not {doing}: {message}.")


def is_driver_error(error: BaseException) -> bool:
    """Errors that come from the database or the file system rather than from our own logic."""
    return isinstance(error, sqlite3.Error | OSError)


async def _rollback(db: aiosqlite.Connection) -> None:
    # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL); a failed rollback must
    # not hide the error that caused it.
    try:
        if db.in_transaction:
            await db.execute("ROLLBACK")
    except Exception:  # noqa: BLE001
        pass


def _probe_open(path: Path, read_only: bool = False) -> None:
    if read_only:
        sqlite3.connect(_read_only_uri(path), uri=True).close()
    else:
        sqlite3.connect(path).close()


def _read_only_uri(path: Path) -> str:
    return f"file:{pathname2url(str(path.absolute()))}?mode=ro"


async def _quietly_close(db: aiosqlite.Connection) -> None:
    try:
        await db.close()
    except Exception:  # noqa: BLE001
        pass
