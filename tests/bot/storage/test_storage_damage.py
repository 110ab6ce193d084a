"""A damaged game row never stops the others from resuming: it comes back marked with what is wrong."""

from __future__ import annotations

import pytest

from bot.storage import Storage, StorageError
from bot.storage.backend import POSTGRES
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import seats

GUILD = 111


async def game_with_actions(storage: Storage, channel: int, actions: int = 2) -> int:
    # A server of its own per game: a person sits at one open table per server (migration 7).
    game_id = await storage.create_game("hotstreak", GUILD + channel, channel, 7, {"races": 3}, seats(5, 6))
    for seq in range(actions):
        await storage.append_action(game_id, seq, {"player": seq % 2, "choice": seq})
    return game_id


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("UPDATE games SET settings = '{not json' WHERE id = ?", "settings: Expecting property name"),
        (
            "UPDATE games SET seats = '{\"user_id\": 5}' WHERE id = ?",
            "seats: expected a JSON array, found dict",
        ),
        ("UPDATE games SET seats = '[5]' WHERE id = ?", "seats: seat 0 is int, not a JSON object"),
        ("UPDATE games SET meta = 'null' WHERE id = ?", "meta: expected a JSON object, found NoneType"),
        ("UPDATE games SET seed = 'seven' WHERE id = ?", "seed: invalid literal for int()"),
        (
            "UPDATE games SET guild_id = 'a guild' WHERE id = ?",
            "guild_id: expected a whole number, found 'a guild'",
        ),
        ("UPDATE actions SET action = 'oops' WHERE game_id = ? AND seq = 1", "action 1: Expecting value"),
        (
            "UPDATE actions SET action = '[1]' WHERE game_id = ? AND seq = 1",
            "action 1: expected a JSON object",
        ),
        ("DELETE FROM actions WHERE game_id = ? AND seq = 0", "action 0: missing from the log"),
    ],
)
async def test_one_damaged_game_is_marked_and_the_others_load_normally(
    storage: Storage, database: Database, sql: str, reason: str
) -> None:
    if database.dialect == POSTGRES and "guild_id" in sql:
        pytest.skip("a PostgreSQL BIGINT column cannot hold text: that damage cannot happen there")
    before = await game_with_actions(storage, channel=1)
    damaged = await game_with_actions(storage, channel=2)
    after = await game_with_actions(storage, channel=3)
    await database.execute(sql, damaged)  # behind the storage's back, as a bad disk or a hand edit would
    games = await storage.unfinished_games()
    assert [g.id for g in games] == [before, damaged, after]
    sound = [g for g in games if g.id != damaged]
    assert all(g.damage is None and len(g.actions) == 2 and g.seats == seats(5, 6) for g in sound)
    marked = games[1]
    assert marked.damage is not None and marked.damage.startswith(reason), marked.damage
    assert (marked.kind, marked.channel_id, marked.status) == ("hotstreak", 2, "running")
    with pytest.raises(StorageError, match=f"Game {damaged} is stored with unreadable data"):
        await storage.load_game(damaged)


async def test_a_damaged_game_keeps_what_could_be_read(storage: Storage, database: Database) -> None:
    game_id = await game_with_actions(storage, channel=4, actions=3)
    await database.execute("UPDATE games SET meta = 'garbage' WHERE id = ?", game_id)
    await database.execute("UPDATE actions SET action = '{' WHERE game_id = ? AND seq = 2", game_id)
    (game,) = await storage.unfinished_games()
    assert game.damage is not None
    assert game.damage.startswith("meta: Expecting value") and "; action 2: " in game.damage
    assert (game.id, game.guild_id, game.channel_id, game.seed) == (game_id, GUILD + 4, 4, 7)
    assert game.settings == {"races": 3} and game.seats == seats(5, 6) and game.meta == {}
    assert game.actions == [
        {"player": 0, "choice": 0},
        {"player": 1, "choice": 1},
    ]  # the readable ones before


async def test_a_damaged_game_does_not_hide_who_plays_or_hosts_elsewhere(
    storage: Storage, database: Database
) -> None:
    sound = await storage.create_game(
        "hotstreak", GUILD, 1, 7, {"host_id": 5}, seats(5, None), status="lobby"
    )
    damaged = await storage.create_game(
        "hotstreak", GUILD, 2, 7, {"host_id": 5}, seats(6, None), status="lobby"
    )
    await database.execute("UPDATE games SET seats = '[{oops', settings = 'nope' WHERE id = ?", damaged)
    found = await storage.active_game_of_user(GUILD, 5)
    assert found is not None and found.id == sound
    assert await storage.active_game_of_user(GUILD, 6) is None
    assert await storage.count_open_tables_hosted(GUILD, 5) == 1
    assert await storage.count_running_games(GUILD) == 2
