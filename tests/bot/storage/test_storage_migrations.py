"""Schema migrations: applied once, in order, in a transaction; a newer schema is refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import StakeRecord, Storage, StorageError
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION, Migration, migrate
from tests.bot.storage.storage_support import count_rows, result


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
    assert {"games", "actions", "results", "stakes", "player_totals", "player_names"} <= tables(db_path)
    assert "bets" not in tables(db_path)


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
    last = SCHEMA_VERSION
    new = Migration(last + 1, "add notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",))
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await migrate(db, MIGRATIONS) == last
        await db.execute("INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, "
                         "created_at, updated_at) VALUES ('hotstreak', 1, 2, '3', '{}', '[]', 'running', '{}', 0, 0)")  # fmt: skip
        assert await migrate(db, (*MIGRATIONS, new)) == last + 1
    assert versions(db_path) == [*range(1, last + 1), last + 1]
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


# What version 1 of the bot wrote when a game ended (its finish_game, verbatim): results and bet rows.
_V1_GAME = (
    "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, created_at, "
    "updated_at, ended_at, settled) VALUES ('hotstreak', 7, 8, '9', '{}', "
    '\'[{"user_id": 5, "name": "ann", "ai": null}, {"user_id": null, "name": "Bot", "ai": "easy"}]\', '
    "'finished', '{}', 100, 200, 200, 1)"
)
_V1_RESULT = (
    "INSERT INTO results (game_id, seat, guild_id, kind, finished_at, user_id, name, cash, net, place, won) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_V1_BET = (
    "INSERT INTO bets (game_id, seat, n, race, subject, side, payout, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


async def test_bets_written_by_schema_1_become_stakes(db_path: Path) -> None:
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        await migrate(db, MIGRATIONS[:1])
        await db.execute(_V1_GAME)
        await db.execute(_V1_RESULT, (1, 0, 7, "hotstreak", 200.0, 5, "ann", 16, 6, 1, 1))
        await db.execute(_V1_RESULT, (1, 1, 7, "hotstreak", 200.0, None, "Bot", 8, -2, 2, 0))
        await db.execute(_V1_BET, (1, 0, 0, 1, "gobbler", "risky", 6, 1))
        await db.execute(_V1_BET, (1, 0, 1, 2, "side:dq-mum", "yes:safe", 0, 0))
        await db.execute(_V1_BET, (1, 0, 2, 3, "gobbler", "safe", -1, 0))
        await db.execute(_V1_BET, (1, 1, 0, 1, "mum", "safe", 3, 1))
    storage = await Storage.open(str(db_path))
    try:
        ann, bot = await storage.game_results(1)
        assert [(s.label, s.outcome, s.amount) for s in ann.stakes] == [
            ("Gobbler, risky", "won", 6),
            ("Side bet yes, safe", "lost", 0),
            ("Gobbler, safe", "lost", 0),
        ]
        assert [(s.label, s.outcome, s.amount) for s in bot.stakes] == [("Mum, safe", "won", 3)]
        (stats,) = await storage.player_stats(7, 5)
        assert (stats.games, stats.wins, stats.total_net) == (1, 1, 6)
        assert (stats.favourite_stake, stats.stakes_won, stats.stakes_lost) == ("Gobbler, risky", 1, 2)
        assert await storage.lifetime_net(7, "hotstreak", [5]) == {5: 6}
    finally:
        await storage.close()
    assert versions(db_path) == [m.version for m in MIGRATIONS]
    assert "bets" not in tables(db_path)


async def test_stakes_are_final_like_results(storage: Storage, db_path: Path) -> None:
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, [])
    await storage.finish_game(game_id, [result(0, 5, 1, stakes=[StakeRecord("Red", "won", 1)])])
    with closing(sqlite3.connect(db_path)) as db:
        for statement in ("DELETE FROM stakes", "UPDATE stakes SET amount = 100"):
            with pytest.raises(sqlite3.IntegrityError, match="results are final"):
                db.execute(statement)
