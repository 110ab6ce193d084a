"""The databases storage tests run on: a SQLite file, and a schema of its own on a real PostgreSQL server.

``TEST_POSTGRES_URL`` names the server (.ci/run starts one and sets it). Without it, the tests
start their own throwaway server (tests/bot/storage/pg_server.py) if PostgreSQL is installed, and
skip the PostgreSQL half, saying why, if it is not; under ``CI=true`` a missing server fails.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.storage.backend import POSTGRES, SQLITE, Backend
from bot.storage.location import database_location
from bot.storage.postgres import PostgresBackend, numbered
from bot.storage.sqlite import SqliteBackend
from tests.bot.storage import pg_server


@dataclass
class Database:
    """One empty database for one test, and ways to look into it behind the storage's back."""

    dialect: str
    url: str
    path: Path | None = None  # the SQLite file

    async def fetch(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run ``sql`` (``?`` placeholders) on a separate connection, committed (what another process sees)."""
        if self.path is not None:
            with closing(sqlite3.connect(self.path)) as db, db:
                return [tuple(row) for row in db.execute(sql, params).fetchall()]
        import asyncpg

        location = database_location(self.url)
        assert not isinstance(location, Path)
        conn = await asyncpg.connect(location.dsn)
        try:
            return [tuple(row) for row in await conn.fetch(numbered(sql), *params)]
        finally:
            await conn.close()

    async def execute(self, sql: str, *params: Any) -> None:
        await self.fetch(sql, *params)

    async def count_rows(self, table: str) -> int:
        return int((await self.fetch(f"SELECT COUNT(*) FROM {table}"))[0][0])

    async def tables(self) -> set[str]:
        if self.dialect == SQLITE:
            rows = await self.fetch("SELECT name FROM sqlite_schema WHERE type = 'table'")
        else:
            rows = await self.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {name for (name,) in rows}

    async def versions(self) -> list[int]:
        return [int(v) for (v,) in await self.fetch("SELECT version FROM schema_version ORDER BY version")]

    async def backend(self) -> Backend:
        """A bare backend on this database (no migration): for testing migrations themselves."""
        location = database_location(self.url)
        if isinstance(location, Path):
            return await SqliteBackend.open(location, busy_timeout=5.0)
        return await PostgresBackend.open(location, busy_timeout=5.0)


def sqlite_database(tmp_path: Path) -> Database:
    path = tmp_path / "bot.db"
    return Database(SQLITE, str(path), path)


def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's test database for the whole run (see the module docstring)."""
    given = os.environ.get("TEST_POSTGRES_URL", "").strip()
    if given:
        yield given
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true but TEST_POSTGRES_URL is not set: .ci/run must start PostgreSQL for the tests")
    folder = pg_server.new_folder()
    try:
        url = pg_server.start(folder)
    except (pg_server.PgServerError, OSError) as error:
        pg_server.stop(folder)
        pytest.skip(f"no PostgreSQL to test on ({error}); set TEST_POSTGRES_URL to a server's database URL")
    try:
        yield url
    finally:
        pg_server.stop(folder)


async def postgres_database(server_url: str) -> AsyncIterator[Database]:
    """A schema of its own on the server for one test (the URL's search_path points at it), dropped after."""
    import asyncpg

    schema = f"test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    joiner = "&" if "?" in server_url else "?"
    try:
        yield Database(POSTGRES, f"{server_url}{joiner}search_path={schema}")
    finally:
        conn = await asyncpg.connect(server_url)
        try:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await conn.close()
