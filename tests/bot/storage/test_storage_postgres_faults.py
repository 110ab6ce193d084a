"""PostgreSQL's own faults: each becomes a StorageError with a clear message, nothing is half-written,
and the storage recovers by itself once the server is back."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage import Storage, StorageError
from tests.bot.storage import pg_server
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import result, seats


def with_database(url: str, name: str, user: str | None = None) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, f"{user or parts.username}@{host}", f"/{name}", "", ""))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_a_server_that_is_not_running_is_a_clear_error_without_the_password() -> None:
    url = f"postgresql://bot:hunter2@127.0.0.1:{free_port()}/racing"
    with pytest.raises(StorageError) as caught:
        await Storage.open(url)
    message = str(caught.value)
    assert message.startswith(
        "Could not open the database: the PostgreSQL database postgresql://bot@127.0.0.1:"
    )
    assert "cannot be reached" in message and "is the server running" in message
    assert "hunter2" not in message
    assert isinstance(caught.value.__cause__, OSError)


async def test_a_missing_database_and_an_unknown_user_are_named(postgres_url: str) -> None:
    with pytest.raises(StorageError, match=r"/no_such_db does not exist on that server .*createdb"):
        await Storage.open(with_database(postgres_url, "no_such_db"))
    with pytest.raises(StorageError, match="refused the login .*check the user and password"):
        await Storage.open(with_database(postgres_url, "bot_test", user="nobody_here"))


async def test_rows_locked_by_another_process_past_the_wait_refuse_the_action(pg: Database) -> None:
    storage = await Storage.open(pg.url, busy_timeout=0.2)
    other = await asyncpg.connect(
        urlsplit(pg.url)._replace(query="").geturl(), server_settings={"search_path": _schema(pg)}
    )
    try:
        game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
        transaction = other.transaction()
        await transaction.start()
        await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game_id)
        # The batch skips the locked game and tries it again until the busy wait has passed (one locked
        # game never holds up the others' moves: test_storage_fencing.py); then it is refused alone.
        with pytest.raises(StorageError, match="locked by another process"):
            await storage.append_action(game_id, 0, {"choice": "mum:safe"})
        game = await storage.load_game(game_id)  # reading still works while another writes
        assert game is not None and game.actions == []
        await transaction.rollback()
        await storage.append_action(game_id, 0, {"choice": "mum:safe"})
        assert await pg.count_rows("actions") == 1
    finally:
        await other.close()
        await storage.close()


def _schema(database: Database) -> str:
    return urlsplit(database.url).query.partition("search_path=")[2]


async def test_two_bot_processes_on_one_database_store_each_action_once_and_settle_once(pg: Database) -> None:
    first = await Storage.open(pg.url)
    second = await Storage.open(pg.url)  # PostgreSQL is how several processes share one database
    try:
        for round_no in range(5):
            game_id = await first.create_game("hotstreak", 1, round_no, 3, {}, seats(5, 6))
            clicks = await asyncio.gather(
                first.append_action(game_id, 0, {"by": "first"}),
                second.append_action(game_id, 0, {"by": "second"}),
                return_exceptions=True,
            )
            assert sorted(type(c).__name__ for c in clicks) == ["NoneType", "StaleAction"], clicks
            results = [result(0, 5, 3, won=True), result(1, 6, -3, place=2)]
            settled = await asyncio.gather(
                first.finish_game(game_id, results),
                second.finish_game(game_id, results),
                first.finish_game(game_id, results),
            )
            assert sorted(settled) == [False, False, True]
        assert await pg.count_rows("actions") == 5
        assert await pg.count_rows("results") == 10
        assert await second.lifetime_net(1, "hotstreak", [5, 6]) == {5: 15, 6: -15}
    finally:
        await first.close()
        await second.close()


async def test_a_read_only_look_refuses_writes(pg: Database) -> None:
    async with await Storage.open(pg.url) as storage:
        game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
    async with await Storage.open(pg.url, read_only=True) as look:
        assert (await look.load_game(game_id)) is not None
        with pytest.raises(StorageError, match="is read-only"):
            await look.append_action(game_id, 0, {"choice": 1})
    assert await pg.count_rows("actions") == 0


@pytest.fixture
async def own_server() -> AsyncIterator[tuple[str, Path]]:
    """A PostgreSQL server of this test's own, which it may stop and start (needs the server installed)."""
    folder = pg_server.new_folder()
    try:
        url = await asyncio.to_thread(pg_server.start, folder)
    except pg_server.PgServerError as error:
        pg_server.stop(folder)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"could not start a PostgreSQL server of the test's own: {error}")
        pytest.skip(f"could not start a PostgreSQL server of the test's own: {error}")
    try:
        yield url, folder
    finally:
        await asyncio.to_thread(pg_server.stop, folder)


async def test_the_server_going_away_fails_clearly_and_the_storage_recovers_when_it_is_back(
    own_server: tuple[str, Path],
) -> None:
    url, folder = own_server
    storage = await Storage.open(url, busy_timeout=0.5)
    try:
        game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5, 6))
        await storage.append_action(game_id, 0, {"n": 0})
        await asyncio.to_thread(pg_server.stop, folder, remove=False)
        for _ in range(2):  # every call while it is down fails the same clear way, none hangs
            with pytest.raises(StorageError) as caught:
                await storage.append_action(game_id, 1, {"n": 1})
            message = str(caught.value)
            assert message.startswith(f"Could not store action 1 of game {game_id}: the PostgreSQL database ")
            assert "the bot connects again on its next action" in message.lower()
        with pytest.raises(StorageError, match="cannot be reached"):
            await storage.finish_game(game_id, [result(0, 5, 3, won=True), result(1, 6, -3)])
        await asyncio.to_thread(pg_server.restart, folder)
        await storage.append_action(game_id, 1, {"n": 1})  # no reopening: it connects again by itself
        game = await storage.load_game(game_id)
        assert game is not None and game.actions == [{"n": 0}, {"n": 1}] and game.status == "running"
        assert await storage.finish_game(game_id, [result(0, 5, 3, won=True), result(1, 6, -3)]) is True
    finally:
        await storage.close()
