"""Leases: one process drives a game at a time. A lease is taken, renewed, lost to nobody while it lasts,
taken over once it ran out (its process crashed), and a process that lost one can no longer store moves
to that game. Run on SQLite and on PostgreSQL (each test models processes as lease owners)."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import LeaseLost, RoutedClick, Storage
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock

A, B = "process-a", "process-b"


async def a_game(storage: Storage) -> int:
    return await storage.create_game("hotstreak", 1 << 22, 10, 7, {}, [{"name": "x"}])


async def test_a_new_game_is_leased_to_the_process_that_made_it(storage: Storage, clock: Clock) -> None:
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    assert await storage.lease_of(game) == (A, clock.now + 20)
    storage.hold_leases_as(B, 20)
    assert not await storage.acquire_lease(game)
    assert await storage.free_games() == []


async def test_a_lease_is_renewed_while_its_process_runs(storage: Storage, clock: Clock) -> None:
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    for _ in range(5):
        clock.advance(10)
        assert await storage.renew_leases([game]) == {game}
    storage.hold_leases_as(B, 20)
    assert not await storage.acquire_lease(game)  # 50 s later, still A's


async def test_an_expired_lease_is_taken_over_and_the_old_owner_learns_it(
    storage: Storage, clock: Clock
) -> None:
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    clock.advance(21)  # A crashed, or hung: no renewal
    storage.hold_leases_as(B, 20)
    assert await storage.free_games() == [(game, 1 << 22)]
    assert await storage.acquire_lease(game)
    assert await storage.lease_of(game) == (B, clock.now + 20)
    storage.hold_leases_as(A, 20)  # A wakes up
    assert await storage.renew_leases([game]) == set()
    with pytest.raises(LeaseLost):
        await storage.append_action(game, 0, {"p": None, "k": "x", "c": 1})
    storage.hold_leases_as(B, 20)
    await storage.append_action(game, 0, {"p": None, "k": "x", "c": 1})


async def test_a_lease_that_ran_out_but_was_not_taken_stays_with_its_owner(
    storage: Storage, clock: Clock
) -> None:
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    clock.advance(60)
    assert await storage.renew_leases([game]) == {game}
    assert await storage.acquire_lease(game)


async def test_overlapping_processes_split_the_games_rather_than_share_them(storage: Storage) -> None:
    storage.hold_leases_as(A, 20)
    games = [await a_game(storage) for _ in range(3)]
    await storage.release_lease(games[1])  # A stops driving one of them
    storage.hold_leases_as(B, 20)
    took = [game for game in games if await storage.acquire_lease(game)]
    assert took == [games[1]]
    storage.hold_leases_as(A, 20)
    assert await storage.renew_leases(games) == {games[0], games[2]}


async def test_leases_of_ended_games_are_dropped(storage: Storage, database: Database) -> None:
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    await storage.close_game(game, "cancelled", "test")
    assert await storage.renew_leases([game]) == set()
    assert await database.count_rows("leases") == 0


async def test_a_routed_click_is_stored_once_and_read_for_its_game(storage: Storage, clock: Clock) -> None:
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    click = RoutedClick(1234567890123456789, game, 42, f"gs:{game}:0:0:submit", ["i2"], 99, "tok")
    assert await storage.route_click(click)
    assert not await storage.route_click(click)  # the same interaction again
    assert await storage.routed_clicks([game]) == [click]
    assert await storage.routed_clicks([game + 1]) == []
    await storage.drop_routed_click(click.id)
    assert await storage.routed_clicks([game]) == []
    await storage.route_click(click)
    clock.advance(16 * 60)
    await storage.drop_old_routed_clicks(15 * 60)
    assert await storage.routed_clicks([game]) == []


async def test_a_restarted_sqlite_bot_takes_its_games_back_at_once(db_path, clock: Clock) -> None:  # noqa: ANN001
    """One process per SQLite file (its lock says so): the leases of the process before it are void."""
    storage = await Storage.open(str(db_path), clock=clock)
    storage.hold_leases_as(A, 20)
    game = await a_game(storage)
    await storage.close()
    storage = await Storage.open(str(db_path), clock=clock)
    try:
        storage.hold_leases_as(B, 20)
        assert await storage.acquire_lease(game)
    finally:
        await storage.close()


async def test_two_postgresql_processes_racing_for_one_lease_get_it_once(postgres_url: str) -> None:
    from tests.bot.storage.databases import postgres_database

    async for database in postgres_database(postgres_url):
        first = await Storage.open(database.url)
        second = await Storage.open(database.url)
        try:
            first.hold_leases_as(A, 20)
            games = [await first.create_game("hotstreak", 1, 10, 7, {}, []) for _ in range(20)]
            for game in games:
                await first.release_lease(game)
            second.hold_leases_as(B, 20)
            for game in games:
                won = await asyncio.gather(first.acquire_lease(game), second.acquire_lease(game))
                assert sorted(won) == [False, True]
                holder = A if won[0] else B
                assert (await first.lease_of(game))[0] == holder  # type: ignore[index]
        finally:
            await first.close()
            await second.close()


async def test_a_routed_click_keeps_only_what_its_owner_needs_and_its_token_lives_15_minutes_at_most(
    storage: Storage, database: Database, clock: Clock
) -> None:
    """Issue 26, point 15: no name is stored; a click older than the token's 15 minutes is never read,
    and the sweep deletes it, and at once those of games that ended (nobody will apply them)."""
    storage.hold_leases_as(A, 20)
    game, ended = await a_game(storage), await a_game(storage)
    click = RoutedClick(11, game, 42, f"gs:{game}:0:0:submit", ["i2"], 99, "tok-11")
    await storage.route_click(click)
    await storage.route_click(RoutedClick(12, ended, 42, f"gs:{ended}:0:0:submit", None, 99, "tok-12"))
    assert await database.fetch("SELECT user_name FROM routed_clicks") == [("",), ("",)]
    await storage.close_game(ended, "cancelled", "test")
    await storage.drop_old_routed_clicks()
    assert await database.fetch("SELECT token FROM routed_clicks") == [("tok-11",)]  # the ended game's: gone
    clock.advance(15 * 60 + 1)
    assert await storage.routed_clicks([game]) == []  # its token could not answer any more
    await storage.drop_old_routed_clicks()
    assert await database.count_rows("routed_clicks") == 0
