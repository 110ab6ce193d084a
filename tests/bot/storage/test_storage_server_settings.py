"""Server settings and the counts that caps are checked against: read from the database, per server."""

from __future__ import annotations

import pytest

from bot.storage import Storage
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import result, seats

GUILD, OTHER = 1, 2


async def test_a_server_without_settings_has_none(storage: Storage) -> None:
    assert await storage.get_server_settings(GUILD) == {}


async def test_settings_are_json_values_kept_per_server_and_key(storage: Storage) -> None:
    await storage.set_server_setting(GUILD, "max_tables_per_host", 3)
    await storage.set_server_setting(GUILD, "game_channel", {"hotstreak": 1234567890123456789})
    await storage.set_server_setting(OTHER, "max_tables_per_host", 1)
    await storage.set_server_setting(GUILD, "max_tables_per_host", 4)  # replaces
    assert await storage.get_server_settings(GUILD) == {
        "max_tables_per_host": 4,
        "game_channel": {"hotstreak": 1234567890123456789},
    }
    assert await storage.get_server_settings(OTHER) == {"max_tables_per_host": 1}
    await storage.clear_server_setting(GUILD, "max_tables_per_host")
    await storage.clear_server_setting(GUILD, "never set")  # harmless
    assert await storage.get_server_settings(GUILD) == {"game_channel": {"hotstreak": 1234567890123456789}}


async def test_a_setting_must_be_plain_json_and_have_a_name(storage: Storage, database: Database) -> None:
    with pytest.raises(ValueError, match="plain JSON"):
        await storage.set_server_setting(GUILD, "language", {1, 2})
    with pytest.raises(ValueError, match="non-empty string"):
        await storage.set_server_setting(GUILD, "", 1)
    assert await database.count_rows("server_settings") == 0


async def test_settings_outlive_the_storage(database: Database) -> None:
    async with await Storage.open(database.url) as storage:
        await storage.set_server_setting(GUILD, "max_running_games", 12)
    async with await Storage.open(database.url) as storage:
        assert await storage.get_server_settings(GUILD) == {"max_running_games": 12}


async def test_a_damaged_setting_falls_back_to_its_default(storage: Storage, database: Database) -> None:
    await storage.set_server_setting(GUILD, "max_running_games", 12)
    await storage.set_server_setting(GUILD, "language", "fr")
    await database.execute("UPDATE server_settings SET value = '{broken' WHERE key = 'max_running_games'")
    assert await storage.get_server_settings(GUILD) == {"language": "fr"}


async def test_open_tables_hosted_count_lobbies_and_running_games_even_after_the_host_left(
    storage: Storage,
) -> None:
    def hosted_by(user: int) -> dict:
        return {"host_id": user, "players": 4}

    # In this order: a person sits at one open table per server (migration 7).
    running = await storage.create_game("horserace", GUILD, 2, 1, hosted_by(5), seats(5, None))
    await storage.update_game(running, seats=seats(None, None))  # the host left: AI seats only
    finished = await storage.create_game("hotstreak", GUILD, 3, 1, hosted_by(5), seats(5))
    await storage.finish_game(finished, [result(0, 5, 1, won=True)])
    cancelled = await storage.create_game("hotstreak", GUILD, 4, 1, hosted_by(5), seats(5), status="lobby")
    await storage.close_game(cancelled, "cancelled", "host cancelled")
    lobby = await storage.create_game("hotstreak", GUILD, 1, 1, hosted_by(5), seats(5, None), status="lobby")
    await storage.create_game("hotstreak", GUILD, 5, 1, hosted_by(6), seats(6, 7))  # 7 only plays here
    await storage.create_game("hotstreak", OTHER, 6, 1, hosted_by(5), seats(5))  # another server
    assert await storage.count_open_tables_hosted(GUILD, 5) == 2
    assert await storage.count_open_tables_hosted(GUILD, 6) == 1
    assert await storage.count_open_tables_hosted(GUILD, 7) == 0
    assert await storage.count_running_games(GUILD) == 3
    assert await storage.count_running_games(OTHER) == 1
    await storage.close_game(lobby, "abandoned", "lobby expired")
    assert await storage.count_open_tables_hosted(GUILD, 5) == 1
    assert await storage.count_running_games(GUILD) == 2


async def test_counts_see_games_another_process_stored(storage: Storage, database: Database) -> None:
    async with await Storage.open(database.url, read_only=True) as look:
        assert await look.count_running_games(GUILD) == 0
        await storage.create_game("hotstreak", GUILD, 1, 1, {"host_id": 5}, seats(5), status="lobby")
        assert await look.count_running_games(GUILD) == 1
        assert await look.count_open_tables_hosted(GUILD, 5) == 1
