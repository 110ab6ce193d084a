"""The PostgreSQL backend (asyncpg): for several bot processes sharing one database.

* One connection per bot process for the game writes, used by one transaction at a time (an
  ``asyncio.Lock``), as with SQLite: the bot's writes are human-paced, and one connection keeps the
  order of a process's writes obvious. Other processes are kept out of a game's rows by row locks:
  every write that reads a game first reads it ``FOR UPDATE``, and its lease ``FOR SHARE``
  (``bot.storage.leases.fence``).
* Reads and the lease keeper's writes run on a small pool of connections of their own
  (``POOL_SIZE``): a game write waiting for another process's lock must not make the lease keeper
  miss its renewal (its games would be taken over) or a leaderboard wait.
* Commits are synchronous (``synchronous_commit = on`` for the bot's connection, whatever the
  server's default): a call returns only once the server has the change on disk, so an announced
  move is a stored move.
* When the server goes away (restart, network), the call fails with ``StorageError`` and the
  connection is dropped; the next call connects again, so the bot recovers by itself once the
  server is back. Nothing is retried behind the caller's back: a caller that announces only what
  was stored needs to know that this one was not.
"""

from __future__ import annotations

import asyncio
import decimal
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

import asyncpg

from bot.storage.backend import POSTGRES, Backend, Tx
from bot.storage.errors import StorageError
from bot.storage.location import PostgresUrl

CONNECT_TIMEOUT = 10.0  # seconds to reach the server and log in at start
# Connecting again mid-run waits no longer than a busy database would (``busy_timeout``, at least
# this): a click must get its "couldn't save that" answer while Discord still waits for one.
RECONNECT_TIMEOUT = 2.0
COMMAND_TIMEOUT = 15.0  # seconds one statement may take before the call fails (a hung server)
POOL_SIZE = 3  # connections for reads and the lease keeper, made when first needed


class PostgresTx(Tx):
    dialect = POSTGRES
    for_update = " FOR UPDATE"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        if params:
            await self.conn.execute(numbered(sql), *params)
        else:
            await self.conn.execute(sql)  # the simple protocol: several statements, $$ bodies

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(numbered(sql), rows)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        records = await self.conn.fetch(numbered(sql), *params)
        return [tuple(_plain(value) for value in record) for record in records]


class PostgresBackend(Backend):
    dialect = POSTGRES

    def __init__(self, url: PostgresUrl, busy_timeout: float, read_only: bool) -> None:
        self.url = url
        self.where = f"the PostgreSQL database {url.shown}"
        self._busy_timeout = busy_timeout
        self._read_only = read_only
        self._conn: asyncpg.Connection | None = None
        self._connected_once = False
        self._closed = False
        self._lock = asyncio.Lock()
        self._pool: asyncpg.Pool | None = None

    @classmethod
    async def open(cls, url: PostgresUrl, *, busy_timeout: float, read_only: bool = False) -> PostgresBackend:
        """Connect once now, so a wrong URL or a server that is down stops the bot at start."""
        backend = cls(url, busy_timeout, read_only)
        async with backend._lock:
            await backend._connection("open the database")
        # No connection is made here (min_size 0): the first read or renewal makes one.
        backend._pool = await asyncpg.create_pool(
            url.dsn,
            min_size=0,
            max_size=POOL_SIZE,
            timeout=max(busy_timeout, RECONNECT_TIMEOUT),
            command_timeout=COMMAND_TIMEOUT,
            server_settings=backend._settings(),
        )
        return backend

    async def _connection(self, doing: str) -> asyncpg.Connection:
        if self._closed:
            raise StorageError(f"Could not {doing}: the storage for {self.where} is closed.")
        if self._conn is not None and not self._conn.is_closed():
            return self._conn
        self._conn = None
        try:
            timeout = max(self._busy_timeout, RECONNECT_TIMEOUT) if self._connected_once else CONNECT_TIMEOUT
            self._conn = await asyncpg.connect(
                self.url.dsn,
                timeout=timeout,
                command_timeout=COMMAND_TIMEOUT,
                server_settings=self._settings(),
            )
        except BaseException as error:
            if is_driver_error(error):
                raise explain(error, doing, self.url) from error
            raise
        self._connected_once = True
        return self._conn

    def _settings(self) -> dict[str, str]:
        settings = {
            "application_name": "racing-bets-bot",
            # Whatever the server's default: a commit returns once it is on the server's disk, so
            # a move the bot announces is a stored move.
            "synchronous_commit": "on",
            # Waiting for another process's row lock ends like SQLite's busy wait: a clear error.
            "lock_timeout": str(max(int(self._busy_timeout * 1000), 1)),
        }
        if self._read_only:
            settings["default_transaction_read_only"] = "on"
        return settings

    @asynccontextmanager
    async def transaction(
        self, doing: str, *, write: bool, aside: bool = False, one_statement: bool = False
    ) -> AsyncIterator[Tx]:
        # Reads see one snapshot across their statements (a board and its total agree).
        options = {} if write else {"isolation": "repeatable_read", "readonly": True}
        if write and not aside:
            async with self._lock:
                conn = await self._connection(doing)
                try:
                    async with _scope(conn, options, one_statement):
                        yield PostgresTx(conn)
                except BaseException as error:
                    if _connection_unusable(error) or conn.is_closed():
                        self._conn = None
                        conn.terminate()
                    if is_driver_error(error):
                        raise explain(error, doing, self.url) from error
                    raise
            return
        pool = self._side_pool(doing)
        try:
            conn = await pool.acquire(timeout=max(self._busy_timeout, RECONNECT_TIMEOUT) + COMMAND_TIMEOUT)
        except BaseException as error:
            if is_driver_error(error):
                raise explain(error, doing, self.url) from error
            raise
        try:
            async with _scope(conn, options, one_statement):
                yield PostgresTx(conn)
        except BaseException as error:
            if _connection_unusable(error) or conn.is_closed():
                conn.terminate()  # the pool makes a new one when next asked
            if is_driver_error(error):
                raise explain(error, doing, self.url) from error
            raise
        finally:
            try:
                await pool.release(conn, timeout=5)
            except Exception:  # noqa: BLE001 - a connection that cannot be reset is dropped
                conn.terminate()

    def _side_pool(self, doing: str) -> asyncpg.Pool:
        """The pool for reads and the lease keeper (made at ``open``; its connections when first needed)."""
        if self._closed or self._pool is None:
            raise StorageError(f"Could not {doing}: the storage for {self.where} is closed.")
        return self._pool

    async def close(self) -> None:
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), timeout=5)
            except Exception:  # noqa: BLE001 - a server already gone cannot be said goodbye to
                pool.terminate()
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                try:
                    await asyncio.wait_for(conn.close(), timeout=5)
                except Exception:  # noqa: BLE001 - a server already gone cannot be said goodbye to
                    conn.terminate()


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the SQL of this package has no ``?`` in literals)."""
    if "?" not in sql:
        return sql
    parts = sql.split("?")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], start=1)) + parts[-1]


def _plain(value: Any) -> Any:
    # SUM over BIGINT columns comes back as NUMERIC: give callers the int SQLite gives them.
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def is_driver_error(error: BaseException) -> bool:
    """Errors from the server, the driver or the network rather than from our own logic."""
    return isinstance(error, asyncpg.PostgresError | asyncpg.InterfaceError | OSError | TimeoutError)


def _scope(conn: Any, options: dict[str, Any], one_statement: bool) -> AbstractAsyncContextManager[Any]:
    """The transaction a block runs in: asyncpg's, or for a single statement none of the bot's own
    (PostgreSQL runs the statement as its own transaction: one trip to the server, not three)."""
    return nullcontext() if one_statement else conn.transaction(**options)


def _connection_unusable(error: BaseException) -> bool:
    """After these the connection may be half-way through something: drop it and connect again."""
    if isinstance(error, asyncpg.PostgresError):
        state = getattr(error, "sqlstate", "") or ""
        return state.startswith(("08", "57P"))  # connection exceptions, shutdown / cannot connect now
    return isinstance(error, asyncpg.InterfaceError | OSError | TimeoutError | asyncio.CancelledError)


def explain(error: BaseException, doing: str, url: PostgresUrl) -> StorageError:
    """Turn a driver/server/network error met while ``doing`` something into a clear ``StorageError``."""
    where = f"the PostgreSQL database {url.shown}"
    state = getattr(error, "sqlstate", "") or ""
    text = str(error).strip() or type(error).__name__
    if state in ("28P01", "28000"):
        message = f"{where} refused the login ({text}); check the user and password in DATABASE_URL"
    elif state == "3D000":
        message = f"{where} does not exist on that server ({text}); create it (createdb) or fix DATABASE_URL"
    elif state == "42501":
        message = f"{where} refused: the user lacks a permission the bot needs ({text})"
    elif state == "25006":
        message = f"{where} is read-only (a standby server, or read-only by setting); the bot needs to write"
    elif state == "53100":
        message = f"{where} is full (the server's disk); free some space"
    elif state == "53300":
        message = f"{where} has no free connection slot ({text}); raise max_connections or stop other clients"
    elif state in ("55P03", "40001", "40P01"):
        message = f"{where} is locked by another process or connection and stayed locked past the wait"
    elif state.startswith("57P") or state.startswith("08"):
        message = (
            f"{where} is shutting down, starting up or cut the connection ({text}); "
            "the bot connects again on its next action"
        )
    elif isinstance(error, asyncpg.PostgresError):
        message = f"{where} failed ({text})"
    elif isinstance(error, TimeoutError):
        message = f"{where} did not answer in time; is the server overloaded or unreachable?"
    elif isinstance(error, OSError):
        message = (
            f"{where} cannot be reached ({text}); is the server running and the host and port in "
            "DATABASE_URL right? The bot connects again on its next action"
        )
    elif isinstance(error, asyncpg.InterfaceError):
        message = f"{where} lost the connection ({text}); the bot connects again on its next action"
    else:
        message = f"{where} failed ({text})"
    return StorageError(f"Could not {doing}: {message}.")
