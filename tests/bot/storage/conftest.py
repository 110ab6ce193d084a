"""Storages on real databases: every test taking ``database`` or ``storage`` runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.bot.storage.databases import Database, postgres_database, postgres_server, sqlite_database
from tests.bot.storage.storage_support import Clock


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    yield from postgres_server()


@pytest.fixture
async def pg(postgres_url: str) -> AsyncIterator[Database]:
    """A PostgreSQL database of its own, for the tests of what only PostgreSQL does (several processes)."""
    async for database in postgres_database(postgres_url):
        yield database


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file of the SQLite-only tests (file faults, locations)."""
    return tmp_path / "bot.db"


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield sqlite_database(tmp_path)
        return
    server = request.getfixturevalue("postgres_url")
    async for database in postgres_database(server):
        yield database


@pytest.fixture
async def storage(database: Database, clock: Clock) -> AsyncIterator[Storage]:
    store = await Storage.open(database.url, clock=clock)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def sqlite_storage(db_path: Path, clock: Clock) -> AsyncIterator[Storage]:
    store = await Storage.open(str(db_path), clock=clock)
    try:
        yield store
    finally:
        await store.close()
