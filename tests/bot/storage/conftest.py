"""Storages on real SQLite files in tmp_path, with a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.bot.storage.storage_support import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.db"


@pytest.fixture
async def storage(db_path: Path, clock: Clock) -> AsyncIterator[Storage]:
    store = await Storage.open(str(db_path), clock=clock)
    try:
        yield store
    finally:
        await store.close()
