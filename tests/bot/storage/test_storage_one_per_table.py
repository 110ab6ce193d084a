"""One open game per place and one open table per person in a server, held by the database itself
(migration 7), so no process can race past them: on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage, StorageError
from bot.storage.errors import AlreadyOpen
from bot.storage.migrations import MIGRATIONS, migrate
from tests.bot.storage.databases import Database

GUILD, CHANNEL, OTHER_CHANNEL, THREAD = 1, 10, 11, 99


def seat(user: int | None) -> dict[str, object]:
    return {"user_id": user, "name": f"p{user}", "ai": None if user else "normal"}


async def lobby(storage: Storage, channel: int, *users: int | None, guild: int = GUILD) -> int:
    return await storage.create_game(
        "hotstreak", guild, channel, 7, {}, [seat(u) for u in users], status="lobby"
    )


async def test_a_second_open_game_in_a_place_is_refused_whole(storage: Storage, database: Database) -> None:
    first = await lobby(storage, CHANNEL, 1)
    with pytest.raises(AlreadyOpen) as refused:
        await lobby(storage, CHANNEL, 2)
    assert (refused.value.game_id, refused.value.kind, refused.value.place_id) == (
        first,
        "hotstreak",
        CHANNEL,
    )
    assert refused.value.user_id is None
    assert await database.count_rows("games") == 1  # nothing half-written: no game, no lease


async def test_two_starts_racing_in_one_place_make_one_game(database: Database) -> None:
    """Two processes (two connections) start in the same channel at once: exactly one game is made."""
    if database.dialect != "postgres":
        pytest.skip("one process per SQLite file")
    one, two = await Storage.open(database.url), await Storage.open(database.url)
    try:
        made = await asyncio.gather(lobby(one, CHANNEL, 1), lobby(two, CHANNEL, 2), return_exceptions=True)
    finally:
        await one.close()
        await two.close()
    assert sorted(type(m).__name__ for m in made) == ["AlreadyOpen", "int"]
    assert await database.count_rows("games") == 1


async def test_a_person_sits_at_one_open_table_per_server(storage: Storage) -> None:
    first = await lobby(storage, CHANNEL, 1, None)
    second = await lobby(storage, OTHER_CHANNEL, 2)
    with pytest.raises(AlreadyOpen) as refused:
        await storage.update_game(second, seats=[seat(2), seat(1)])  # 1 joins a second table
    assert (refused.value.game_id, refused.value.user_id, refused.value.place_id) == (first, 1, CHANNEL)
    assert [s["user_id"] for s in (await storage.load_game(second)).seats] == [2]  # type: ignore[union-attr]
    with pytest.raises(AlreadyOpen):  # nor may a new game seat them
        await lobby(storage, 12, 1)
    await lobby(storage, 12, 1, guild=2)  # another server is another matter
    # AI seats claim nothing; leaving frees the seat, and so does the end of the game.
    await storage.update_game(first, seats=[seat(None)])
    await storage.update_game(second, seats=[seat(2), seat(1)])
    await storage.close_game(second, "cancelled", "test")
    await storage.update_game(first, seats=[seat(1)])
    await lobby(storage, OTHER_CHANNEL, 2)  # the cancelled game's place and seats are free


async def test_a_game_that_moves_to_a_thread_frees_its_channel(storage: Storage) -> None:
    first = await lobby(storage, CHANNEL, 1)
    await storage.update_game(first, status="running", meta={"thread_id": THREAD})
    await lobby(storage, CHANNEL, 2)
    with pytest.raises(AlreadyOpen) as refused:
        await lobby(storage, THREAD, 3)
    assert (refused.value.game_id, refused.value.place_id) == (first, THREAD)


async def test_rows_that_already_break_the_rules_do_not_fail_the_migration(database: Database) -> None:
    """Two open games in one channel sharing a player, stored before migration 7: the upgrade keeps
    both going (the oldest holds the claims), and the newer one's writes still work."""
    backend = await database.backend()
    try:
        await migrate(backend, MIGRATIONS[:6])
        async with backend.transaction("add two clashing games", write=True) as tx:
            for _ in range(2):
                await tx.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, "
                    "created_at, updated_at) VALUES ('hotstreak', ?, ?, '3', '{}', ?, 'running', '{}', 0, 0)",
                    (GUILD, CHANNEL, '[{"user_id": 1, "name": "a", "ai": null}]'),
                )
            await tx.execute(
                "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, "
                "created_at, updated_at) VALUES ('hotstreak', ?, 12, '3', '{}', '[{oops', 'lobby', 'garbage', 0, 0)",
                (GUILD,),
            )
        await migrate(backend, MIGRATIONS)
    finally:
        await backend.close()
    assert await database.fetch("SELECT place_id, game_id FROM open_places ORDER BY game_id") == [
        (CHANNEL, 1),
        (12, 3),
    ]
    assert await database.fetch("SELECT user_id, game_id FROM open_seats") == [(1, 1)]
    storage = await Storage.open(database.url)
    try:
        await storage.update_game(
            2, seats=[seat(1), seat(None)], meta={"deadline": 5}
        )  # the newer game goes on
        with pytest.raises(AlreadyOpen):
            await lobby(storage, CHANNEL, 4)
        await storage.close_game(1, "cancelled", "test")
        with pytest.raises(StorageError):  # the newer game still holds the channel in memory; in
            await storage.update_game(
                2, seats=[seat(1), seat(5)], meta={"thread_id": 12}
            )  # storage: 12 is taken
    finally:
        await storage.close()
