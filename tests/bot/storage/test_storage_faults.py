"""Faults on real files: each becomes a StorageError with a clear message, and nothing is half-written."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from bot.storage import StakeRecord, Storage, StorageError
from tests.bot.storage.storage_support import count_rows, result, seats


@contextmanager
def write_lock_held_elsewhere(path: Path) -> Iterator[None]:
    """Another connection (another process, in life) holding a write transaction on the file."""
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")


def write_garbage(path: Path) -> None:
    path.write_bytes(b"this is no database, just some text the user saved here\n" * 200)


def wreck_schema_page(path: Path) -> None:
    """Keep the 100-byte header (so it still looks like SQLite), overwrite the schema page behind it."""
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)
    path.write_bytes(bytes(data))


async def test_a_garbage_file_is_refused_as_not_a_database(db_path: Path) -> None:
    write_garbage(db_path)
    with pytest.raises(StorageError, match="is not a SQLite database") as caught:
        await Storage.open(str(db_path))
    assert str(db_path) in str(caught.value)
    assert isinstance(caught.value.__cause__, sqlite3.DatabaseError)


async def test_a_damaged_database_is_reported_as_corrupt(db_path: Path) -> None:
    storage = await Storage.open(str(db_path))
    await storage.close()
    wreck_schema_page(db_path)
    with pytest.raises(StorageError, match="corrupt") as caught:
        await Storage.open(str(db_path))
    assert isinstance(caught.value.__cause__, sqlite3.DatabaseError)


async def test_a_directory_where_the_file_should_be_cannot_be_opened(tmp_path: Path) -> None:
    db_path = tmp_path / "a-folder"
    db_path.mkdir()  # noqa: ASYNC240 - test setup, not the code under test
    with pytest.raises(StorageError, match="cannot be opened"):
        await Storage.open(str(db_path))


async def test_a_database_locked_past_the_wait_refuses_the_action_and_stores_nothing(db_path: Path) -> None:
    storage = await Storage.open(str(db_path), busy_timeout=0.1)
    try:
        game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
        with write_lock_held_elsewhere(db_path):
            with pytest.raises(StorageError, match="locked") as caught:
                await storage.append_action(game_id, 0, {"player": 0, "kind": "bet", "choice": "mum:safe"})
            assert isinstance(caught.value.__cause__, sqlite3.OperationalError)
            game = await storage.load_game(game_id)  # WAL: reading still works while another writes
            assert game is not None and game.actions == []
        assert count_rows(db_path, "actions") == 0
        await storage.append_action(game_id, 0, {"player": 0, "kind": "bet", "choice": "mum:safe"})
    finally:
        await storage.close()


async def test_settling_while_locked_fails_whole_and_can_be_retried(db_path: Path) -> None:
    storage = await Storage.open(str(db_path), busy_timeout=0.05)
    try:
        game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5, 6))
        results = [result(0, 5, 3, won=True), result(1, 6, -3, place=2)]
        with write_lock_held_elsewhere(db_path), pytest.raises(StorageError, match="locked"):
            await storage.finish_game(game_id, results)
        assert count_rows(db_path, "results") == 0
        assert await storage.finish_game(game_id, results) is True
    finally:
        await storage.close()


async def test_a_read_only_database_refuses_writes_and_stores_nothing(
    storage: Storage, db_path: Path
) -> None:
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
    assert storage._db is not None
    # Tests run as root, where chmod 0o444 does not stop writes; query_only is SQLite's own read-only.
    await storage._db.execute("PRAGMA query_only = 1")
    with pytest.raises(StorageError, match="read-only") as caught:
        await storage.append_action(game_id, 0, {"player": 0, "kind": "bet", "choice": "mum:safe"})
    assert isinstance(caught.value.__cause__, sqlite3.Error)
    with pytest.raises(StorageError, match="read-only"):
        await storage.update_game(game_id, meta={"message_id": 1})
    game = await storage.load_game(game_id)
    assert game is not None and (game.actions, game.meta) == ([], {})


async def test_a_full_disk_during_settlement_leaves_nothing_half_written(
    storage: Storage, db_path: Path
) -> None:
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(*range(1, 9)))
    stakes = [StakeRecord(f"stake {n}", "won", 4) for n in range(40)]
    results = [result(seat, seat + 1, seat, name="N" * 3000, stakes=stakes) for seat in range(8)]
    db = storage._db
    assert db is not None
    async with db.execute("PRAGMA page_count") as cursor:
        (pages,) = await cursor.fetchone()
    await db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk is full" at this size
    with pytest.raises(StorageError, match="is full") as caught:
        await storage.finish_game(game_id, results)
    assert isinstance(caught.value.__cause__, sqlite3.OperationalError)
    for table in ("results", "stakes", "player_totals", "player_names"):
        assert count_rows(db_path, table) == 0, table
    game = await storage.load_game(game_id)
    assert game is not None and game.status == "running"
    await db.execute("PRAGMA max_page_count = 1073741823")  # space freed: the settlement goes through once
    assert await storage.finish_game(game_id, results) is True
    assert count_rows(db_path, "results") == 8
    assert count_rows(db_path, "stakes") == 8 * 40
