"""Schema migrations: applied once, in order, in a transaction; a newer schema is refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Storage, StorageError
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION, Migration, migrate
from tests.bot.storage.storage_support import count_rows


def versions(path: Path) -> list[int]:
    with closing(sqlite3.connect(path)) as db:
        return [v for (v,) in db.execute("SELECT version FROM schema_version ORDER BY version")]


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as db:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}


async def test_a_fresh_file_gets_every_migration(db_path: Path) -> None:
    storage = await Storage.open(str(db_path))
    await storage.close()
    assert versions(db_path) == [m.version for m in MIGRATIONS]
    assert {"games", "actions", "results", "bets", "player_totals", "player_names"} <= tables(db_path)


async def test_reopening_applies_nothing_again_and_keeps_the_data(db_path: Path) -> None:
    storage = await Storage.open(str(db_path))
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, [])
    await storage.close()
    storage = await Storage.open(str(db_path))
    try:
        assert versions(db_path) == [m.version for m in MIGRATIONS]
        assert (await storage.load_game(game_id)) is not None
    finally:
        await storage.close()


async def test_database_uses_wal_and_foreign_keys(storage: Storage) -> None:
    db = storage._db
    assert db is not None
    async with db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with db.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1


async def test_a_newer_schema_is_refused_with_a_clear_message(db_path: Path) -> None:
    storage = await Storage.open(str(db_path))
    await storage.close()
    with closing(sqlite3.connect(db_path)) as db, db:
        db.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (5, 'from the future', 0)")
    with pytest.raises(StorageError) as caught:
        await Storage.open(str(db_path))
    assert str(caught.value) == (
        f"database schema v5 is newer than this bot (v{SCHEMA_VERSION}); upgrade the bot"
    )
    assert versions(db_path)[-1] == 5  # untouched


async def test_an_old_database_gets_only_the_new_migration(db_path: Path) -> None:
    second = Migration(2, "add notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",))
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db, MIGRATIONS[:1]) == 1
        await db.execute("INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, "
                         "created_at, updated_at) VALUES ('hotstreak', 1, 2, '3', '{}', '[]', 'running', '{}', 0, 0)")  # fmt: skip
        assert await migrate(db, (*MIGRATIONS[:1], second)) == 2
    assert versions(db_path) == [1, 2]
    assert "notes" in tables(db_path)
    assert count_rows(db_path, "games") == 1


async def test_a_failing_migration_leaves_the_previous_version_whole(db_path: Path) -> None:
    broken = Migration(2, "broken", ("CREATE TABLE notes (id INTEGER PRIMARY KEY)", "THIS IS NOT SQL"))
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        await migrate(db, MIGRATIONS[:1])
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, (*MIGRATIONS[:1], broken))
    assert versions(db_path) == [1]
    assert "notes" not in tables(db_path)


async def test_migrations_must_be_numbered_in_order(db_path: Path) -> None:
    skipped = Migration(3, "skipped a number", ("SELECT 1",))
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        with pytest.raises(ValueError, match="numbered 3, expected 2"):
            await migrate(db, (*MIGRATIONS[:1], skipped))
