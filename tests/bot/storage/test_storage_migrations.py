"""Schema migrations: applied once, in order, in a transaction; a newer schema is refused; on both databases."""

from __future__ import annotations

import pytest

from bot.storage import StakeRecord, Storage, StorageError
from bot.storage.backend import SQLITE
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION, Migration, migrate
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import result

ALL = [m.version for m in MIGRATIONS]


async def test_a_fresh_database_gets_every_migration(database: Database) -> None:
    storage = await Storage.open(database.url)
    await storage.close()
    assert await database.versions() == ALL
    tables = await database.tables()
    assert {
        "games",
        "actions",
        "results",
        "stakes",
        "player_totals",
        "player_names",
        "server_settings",
    } <= tables
    assert "bets" not in tables


async def test_reopening_applies_nothing_again_and_keeps_the_data(database: Database) -> None:
    storage = await Storage.open(database.url)
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, [])
    await storage.close()
    storage = await Storage.open(database.url)
    try:
        assert await database.versions() == ALL
        assert (await storage.load_game(game_id)) is not None
    finally:
        await storage.close()


async def test_a_sqlite_database_uses_wal_and_foreign_keys(sqlite_storage: Storage) -> None:
    db = sqlite_storage._backend.connection  # type: ignore[attr-defined]
    async with db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    async with db.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1


async def test_a_newer_schema_is_refused_with_a_clear_message(database: Database) -> None:
    storage = await Storage.open(database.url)
    await storage.close()
    await database.execute(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (99, 'from the future', 0)"
    )
    with pytest.raises(StorageError) as caught:
        await Storage.open(database.url)
    assert (
        str(caught.value)
        == f"database schema v99 is newer than this bot (v{SCHEMA_VERSION}); upgrade the bot"
    )
    assert (await database.versions())[-1] == 99  # untouched


async def test_an_old_database_gets_only_the_new_migration(database: Database) -> None:
    new = Migration(
        SCHEMA_VERSION + 1, "add notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",)
    )
    backend = await database.backend()
    try:
        assert await migrate(backend, MIGRATIONS) == SCHEMA_VERSION
        async with backend.transaction("add a game", write=True) as tx:
            await tx.execute(
                "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, created_at, "
                "updated_at) VALUES ('hotstreak', 1, 2, '3', '{}', '[]', 'running', '{}', 0, 0)"
            )
        assert await migrate(backend, (*MIGRATIONS, new)) == SCHEMA_VERSION + 1
    finally:
        await backend.close()
    assert await database.versions() == [*ALL, SCHEMA_VERSION + 1]
    assert "notes" in await database.tables()
    assert await database.count_rows("games") == 1


async def test_a_failing_migration_leaves_the_previous_version_whole(database: Database) -> None:
    broken = Migration(2, "broken", ("CREATE TABLE notes (id INTEGER PRIMARY KEY)", "THIS IS NOT SQL"))
    backend = await database.backend()
    try:
        await migrate(backend, MIGRATIONS[:1])
        with pytest.raises(StorageError, match="Could not upgrade the database schema") as caught:
            await migrate(backend, (*MIGRATIONS[:1], broken))
        assert caught.value.__cause__ is not None  # the driver's own syntax error
    finally:
        await backend.close()
    assert await database.versions() == [1]
    assert "notes" not in await database.tables()


async def test_migrations_must_be_numbered_in_order(database: Database) -> None:
    skipped = Migration(3, "skipped a number", ("SELECT 1",))
    backend = await database.backend()
    try:
        with pytest.raises(ValueError, match="numbered 3, expected 2"):
            await migrate(backend, (*MIGRATIONS[:1], skipped))
    finally:
        await backend.close()


# What version 1 of the bot wrote when a game ended (its finish_game, verbatim): results and bet rows.
_V1_GAME = (
    "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, created_at, "
    "updated_at, ended_at, settled) VALUES ('hotstreak', 7, 8, '9', '{}', "
    """'[{"user_id": 5, "name": "ann", "ai": null}, {"user_id": null, "name": "Bot", "ai": "easy"}]', """
    "'finished', '{}', 100, 200, 200, 1)"
)
_V1_RESULT = (
    "INSERT INTO results (game_id, seat, guild_id, kind, finished_at, user_id, name, cash, net, place, won) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_V1_BET = (
    "INSERT INTO bets (game_id, seat, n, race, subject, side, payout, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


async def test_bets_written_by_schema_1_become_stakes(database: Database) -> None:
    backend = await database.backend()
    try:
        await migrate(backend, MIGRATIONS[:1])
        async with backend.transaction("write as version 1 did", write=True) as tx:
            await tx.execute(_V1_GAME)
            await tx.execute(_V1_RESULT, (1, 0, 7, "hotstreak", 200.0, 5, "ann", 16, 6, 1, 1))
            await tx.execute(_V1_RESULT, (1, 1, 7, "hotstreak", 200.0, None, "Bot", 8, -2, 2, 0))
            await tx.execute(_V1_BET, (1, 0, 0, 1, "gobbler", "risky", 6, 1))
            await tx.execute(_V1_BET, (1, 0, 1, 2, "side:dq-mum", "yes:safe", 0, 0))
            await tx.execute(_V1_BET, (1, 0, 2, 3, "gobbler", "safe", -1, 0))
            await tx.execute(_V1_BET, (1, 1, 0, 1, "mum", "safe", 3, 1))
    finally:
        await backend.close()
    storage = await Storage.open(database.url)
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
        game = await storage.create_game("hotstreak", 7, 8, 1, {}, [])  # ids go on after the old ones
        assert game == 2
    finally:
        await storage.close()
    assert await database.versions() == ALL
    assert "bets" not in await database.tables()


async def test_stakes_are_final_like_results(storage: Storage, database: Database) -> None:
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, [])
    await storage.finish_game(game_id, [result(0, 5, 1, stakes=[StakeRecord("Red", "won", 1)])])
    for statement in ("DELETE FROM stakes", "UPDATE stakes SET amount = 100", "DELETE FROM results"):
        with pytest.raises(Exception, match="results are final"):
            await database.execute(statement)
    assert await database.count_rows("stakes") == 1


def test_every_migration_speaks_both_dialects() -> None:
    for migration in MIGRATIONS:
        assert migration.for_dialect(SQLITE) == migration.statements
        assert migration.postgres is not None, f"migration {migration.version} has no PostgreSQL statements"
        assert len(migration.postgres) > 0
