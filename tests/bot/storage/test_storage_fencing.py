"""Fencing and isolated batches (issue 26, points 1 to 3).

* Every write a table makes to its game (a move, its seats, closing it, settling it) is refused
  (``LeaseLost``) unless its process holds the game's live lease, checked in the write's own
  transaction with the lease row locked, so a takeover waits for a write in flight.
* One locked or failing game is refused alone: the rest of the group commit is stored.
* The lease keeper and reads do not queue behind a game write that waits for a lock (PostgreSQL).

Lease times are on the database server's clock on PostgreSQL; a test runs a lease out by writing its
``expires_at`` into the past through its own connection (``run_out``).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from bot.storage import LeaseLost, Storage, StorageError
from bot.storage.location import PostgresUrl, database_location
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import result, seats

A, B = "process-a", "process-b"
MOVE = {"p": None, "k": "x", "c": 1}
WAIT = 10.0  # seconds a condition may take to come true


async def run_out(database: Database, game: int) -> None:
    await database.execute("UPDATE leases SET expires_at = expires_at - 1000 WHERE game_id = ?", game)


async def connect(database: Database) -> asyncpg.Connection:
    """A connection of the test's own (another process, for the storage under test)."""
    location = database_location(database.url)
    assert isinstance(location, PostgresUrl)
    return await asyncpg.connect(location.dsn)


async def until(condition: Callable[[], Awaitable[object]], what: str) -> None:
    """Wait for ``condition()`` to be true, generously (a slow machine only waits longer)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while not await condition():
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


# --- point 2: every write is fenced ------------------------------------------------------------


async def test_a_process_that_lost_the_lease_cannot_seat_close_or_settle_the_game(
    storage: Storage, database: Database
) -> None:
    storage.hold_leases_as(A, 20)
    game = await storage.create_game("hotstreak", 1, 10, 7, {}, seats(1, 2), status="lobby")
    await run_out(database, game)
    storage.hold_leases_as(B, 20)
    assert await storage.acquire_lease(game)
    storage.hold_leases_as(A, 20)  # A, which stalled, carries on as if it still drove the game
    with pytest.raises(LeaseLost):
        await storage.update_game(game, seats=seats(1, 2, 3))
    with pytest.raises(LeaseLost):
        await storage.update_game(game, status="running")
    with pytest.raises(LeaseLost):
        await storage.close_game(game, "cancelled", "A's timeout")
    with pytest.raises(LeaseLost):
        await storage.finish_game(game, [result(0, 1, 5, won=True)])
    stored = await storage.load_game(game)
    assert stored is not None and stored.status == "lobby" and len(stored.seats) == 2
    assert await database.count_rows("results") == 0
    storage.hold_leases_as(B, 20)  # the holder writes as before
    await storage.update_game(game, seats=seats(1, 2, 3), status="running")
    assert await storage.finish_game(game, [result(0, 1, 5, won=True)])
    await storage.update_game(game, meta={"message": 5})  # an ended game's meta: nobody drives it
    storage.hold_leases_as(A, 20)
    await storage.close_game(game, "cancelled", "late")  # an ended game: changes nothing, refuses nothing
    assert (await storage.load_game(game)).status == "finished"  # type: ignore[union-attr]


async def test_on_postgresql_a_lease_that_ran_out_fences_even_before_anyone_took_it(pg: Database) -> None:
    """The server's clock says the lease is over: its holder may not write any more (on SQLite, one
    process per file, nobody can take it over and nothing renews it, so only another holder counts)."""
    storage = await Storage.open(pg.url)
    try:
        storage.hold_leases_as(A, 20)
        game = await storage.create_game("hotstreak", 1, 10, 7, {}, seats(1))
        await storage.append_action(game, 0, MOVE)
        await run_out(pg, game)
        with pytest.raises(LeaseLost, match="ran out"):
            await storage.append_action(game, 1, MOVE)
        with pytest.raises(LeaseLost, match="ran out"):
            await storage.update_game(game, meta={"x": 1})
        assert await storage.renew_leases([game]) == {game}  # nobody took it: held again
        await storage.append_action(game, 1, MOVE)
    finally:
        await storage.close()


# --- point 1: a takeover waits for a write in flight ---------------------------------------------


async def test_a_takeover_waits_for_the_old_owners_write_in_flight_and_then_sees_it(pg: Database) -> None:
    """A checks its lease and stalls inside the write past its lease; B's takeover waits for that write,
    loads the log with A's move in it and carries on from there; A's next write is refused."""
    first = await Storage.open(pg.url)
    second = await Storage.open(pg.url)
    key = secrets.randbelow(1 << 30)
    gate = await connect(pg)
    try:
        first.hold_leases_as(A, 1.5)  # A's lease runs out while its write is stalled
        game = await first.create_game("hotstreak", 1, 10, 7, {}, seats(1))
        await pg.execute(
            "CREATE FUNCTION stall() RETURNS trigger AS $$ BEGIN "
            f"PERFORM pg_advisory_xact_lock_shared({key}); RETURN NEW; END $$ LANGUAGE plpgsql"
        )
        await pg.execute(
            "CREATE TRIGGER stall BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION stall()"
        )
        await gate.execute("SELECT pg_advisory_lock($1)", key)
        a_move = asyncio.create_task(first.append_action(game, 0, MOVE))  # checks, then stalls

        async def a_stalls_past_its_lease() -> bool:
            waiting = await gate.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted",
                key,
            )
            over = await pg.fetch(
                "SELECT expires_at < EXTRACT(EPOCH FROM clock_timestamp()) FROM leases WHERE game_id = ?",
                game,
            )
            return bool(waiting) and bool(over[0][0])

        await until(a_stalls_past_its_lease, "A's write to stall past its lease")
        second.hold_leases_as(B, 20)

        async def take_over() -> list[dict[str, object]] | None:
            """As a process takes a game over: the lease, then the game's log, to carry on from it."""
            if not await second.acquire_lease(game):
                return None
            stored = await second.load_game(game)
            return None if stored is None else stored.actions

        takeover = asyncio.create_task(take_over())

        async def b_waits_or_took_it() -> bool:
            waiting = await gate.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE 'SELECT owner, expires_at FROM leases%'"
            )
            return takeover.done() or bool(waiting)

        await until(b_waits_or_took_it, "B's takeover to wait for A's write")
        await gate.execute("SELECT pg_advisory_unlock($1)", key)
        await a_move  # A checked its lease while it was live: its move stands
        assert await takeover == [MOVE]  # B took over after A's write and carries on from A's move
        await second.append_action(game, 1, MOVE)
        with pytest.raises(LeaseLost):
            await first.append_action(game, 2, MOVE)
    finally:
        await gate.close()
        await first.close()
        await second.close()


# --- point 3: batches that isolate --------------------------------------------------------------


async def test_a_locked_game_does_not_hold_up_the_other_games_of_its_batch(pg: Database) -> None:
    storage = await Storage.open(pg.url)
    other = await connect(pg)
    try:
        storage.hold_leases_as(A, 20)
        locked = await storage.create_game("hotstreak", 1, 10, 7, {}, seats(1))
        free = await storage.create_game("hotstreak", 1, 11, 7, {}, seats(2))
        hold = other.transaction()
        await hold.start()
        await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", locked)  # another process writes
        blocked = asyncio.create_task(storage.append_action(locked, 0, MOVE))
        moved = asyncio.create_task(storage.append_action(free, 0, MOVE))  # queued in the same batch

        async def free_game_done() -> bool:
            return moved.done()

        await until(free_game_done, "the free game's move")
        moved.result()  # stored, while the other game is still locked
        assert not blocked.done()
        renewing = asyncio.create_task(storage.renew_leases([locked, free]))
        reading = asyncio.create_task(storage.load_game(free))
        await asyncio.wait_for(asyncio.gather(renewing, reading), 10)  # not queued behind the write
        assert renewing.result() == {locked, free} and reading.result().actions == [MOVE]  # type: ignore[union-attr]
        await hold.rollback()
        await blocked  # tried again until the lock was gone, within the busy wait
        assert await pg.count_rows("actions") == 2
    finally:
        await other.close()
        await storage.close()


async def test_the_lease_keeper_does_not_wait_behind_a_game_write_stuck_on_a_lock(pg: Database) -> None:
    storage = await Storage.open(pg.url)
    other = await connect(pg)
    try:
        storage.hold_leases_as(A, 20)
        game = await storage.create_game("hotstreak", 1, 10, 7, {}, seats(1))
        hold = other.transaction()
        await hold.start()
        await other.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game)
        stuck = asyncio.create_task(storage.update_game(game, meta={"x": 1}))  # waits for the row lock
        await asyncio.sleep(0)
        assert await asyncio.wait_for(storage.renew_leases([game]), 10) == {game}
        assert await asyncio.wait_for(storage.free_games(), 10) == []
        assert not stuck.done()
        await hold.rollback()
        await stuck
    finally:
        await other.close()
        await storage.close()


async def test_a_game_whose_move_fails_in_the_database_fails_alone(
    storage: Storage, database: Database
) -> None:
    storage.hold_leases_as(A, 20)
    bad = await storage.create_game("hotstreak", 1, 10, 7, {}, seats(1))
    good = await storage.create_game("hotstreak", 1, 11, 7, {}, seats(2))
    if database.dialect == "postgres":
        await database.execute(
            "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
            f"IF NEW.game_id = {bad} THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"
        )
        await database.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION refuse()"
        )
    else:
        await database.execute(
            f"CREATE TRIGGER refuse BEFORE INSERT ON actions WHEN NEW.game_id = {bad} "
            "BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    outcomes = await asyncio.gather(
        storage.append_action(bad, 0, MOVE), storage.append_action(good, 0, MOVE), return_exceptions=True
    )
    assert isinstance(outcomes[0], StorageError) and outcomes[1] is None
    assert await database.fetch("SELECT game_id FROM actions") == [(good,)]
