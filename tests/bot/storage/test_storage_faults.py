"""Faults on real SQLite files: each becomes a StorageError with a clear message, and nothing is half-written.

PostgreSQL's own faults (server down, refused, locked rows) are in test_storage_postgres_faults.py."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from bot.storage import StakeRecord, Storage, StorageError
from tests.bot.storage.storage_support import count_rows, result, seats

ROOT = Path(__file__).resolve().parents[3]


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


async def test_a_read_only_database_refuses_writes_and_stores_nothing(sqlite_storage: Storage) -> None:
    storage = sqlite_storage
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
    # Tests run as root, where chmod 0o444 does not stop writes; query_only is SQLite's own read-only.
    await storage._backend.connection.execute("PRAGMA query_only = 1")  # type: ignore[attr-defined]
    with pytest.raises(StorageError, match="read-only") as caught:
        await storage.append_action(game_id, 0, {"player": 0, "kind": "bet", "choice": "mum:safe"})
    assert isinstance(caught.value.__cause__, sqlite3.Error)
    with pytest.raises(StorageError, match="read-only"):
        await storage.update_game(game_id, meta={"message_id": 1})
    game = await storage.load_game(game_id)
    assert game is not None and (game.actions, game.meta) == ([], {})


async def test_a_full_disk_during_settlement_leaves_nothing_half_written(
    sqlite_storage: Storage, db_path: Path
) -> None:
    storage = sqlite_storage
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(*range(1, 9)))
    stakes = [StakeRecord(f"stake {n}", "won", 4) for n in range(40)]
    results = [result(seat, seat + 1, seat, name="N" * 3000, stakes=stakes) for seat in range(8)]
    db = storage._backend.connection  # type: ignore[attr-defined]
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


SECOND_PROCESS = """
import asyncio, sys
from bot.storage import Storage, StorageError
async def main():
    try:
        storage = await Storage.open(sys.argv[1])
    except StorageError as error:
        print(error)
        return 3
    await storage.close()
    return 0
raise SystemExit(asyncio.run(main()))
"""


def open_in_another_process(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SECOND_PROCESS, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


async def test_a_second_bot_process_on_the_same_file_is_refused_naming_postgresql(db_path: Path) -> None:
    storage = await Storage.open(str(db_path))
    try:
        done = await asyncio.to_thread(open_in_another_process, db_path)
        assert done.returncode == 3, done.stderr
        assert f"{db_path} is already in use by another running bot" in done.stdout
        assert "PostgreSQL" in done.stdout and "postgresql://" in done.stdout
        with pytest.raises(StorageError, match="already in use by another running bot"):
            await Storage.open(str(db_path))  # a second storage in this process too
        game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))  # the first one is unharmed
        assert (await storage.load_game(game_id)) is not None
    finally:
        await storage.close()
    done = await asyncio.to_thread(open_in_another_process, db_path)
    assert done.returncode == 0, done.stdout + done.stderr  # closed: the file is free again


HOLDER = """
import asyncio, sys
from bot.storage import Storage
async def main():
    storage = await Storage.open(sys.argv[1])
    print("open", flush=True)
    await asyncio.sleep(60)
    await storage.close()
asyncio.run(main())
"""


async def test_a_killed_bot_leaves_the_file_free(db_path: Path) -> None:
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, str(db_path), stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    try:
        assert holder.stdout is not None
        assert (await asyncio.wait_for(holder.stdout.readline(), 30)).strip() == b"open"
        with pytest.raises(StorageError, match="already in use"):
            await Storage.open(str(db_path))
    finally:
        holder.kill()
        await holder.wait()
    storage = await Storage.open(str(db_path))  # SIGKILL released the lock with the process
    await storage.close()


async def test_a_read_only_look_is_allowed_beside_the_bot_and_writes_nothing(
    sqlite_storage: Storage, db_path: Path
) -> None:
    game_id = await sqlite_storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
    async with await Storage.open(str(db_path), read_only=True) as look:
        game = await look.load_game(game_id)
        assert game is not None and game.seats == seats(5)
        with pytest.raises(StorageError, match="read-only"):
            await look.append_action(game_id, 0, {"choice": 1})
    await sqlite_storage.append_action(game_id, 0, {"choice": 1})  # the bot's own writes go on
    assert count_rows(db_path, "actions") == 1


async def test_a_read_only_look_at_a_missing_or_old_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot be opened"):
        await Storage.open(str(tmp_path / "missing.db"), read_only=True)
    old = tmp_path / "old.db"
    with closing(sqlite3.connect(old)) as db, db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, applied_at REAL)")
        db.execute("INSERT INTO schema_version VALUES (1, 'old', 0)")
    with pytest.raises(StorageError, match="its schema is v1"):
        await Storage.open(str(old), read_only=True)
