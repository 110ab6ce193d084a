"""Actions of many games stored together (a group commit): each stored once, in order, refused alone,
and all lost together only when their transaction fails."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import LeaseLost, StaleAction, Storage, StorageError, action_log
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import seats

GUILD = 111
A, B = "process-a", "process-b"


async def games(storage: Storage, count: int) -> list[int]:
    return [
        await storage.create_game("hotstreak", GUILD, channel, 7, {}, seats(channel))
        for channel in range(count)
    ]


async def stored_actions(storage: Storage, game: int) -> list[dict]:
    stored = await storage.load_game(game)
    assert stored is not None
    return stored.actions


def action(game: int, n: int) -> dict:
    return {"player": 0, "kind": "bet", "choice": f"{game}:{n}"}


async def test_many_games_storing_at_once_share_transactions_and_each_log_stays_whole(
    storage: Storage,
) -> None:
    ids = await games(storage, 20)

    async def play(game: int) -> None:
        for n in range(5):
            await storage.append_action(game, n, action(game, n))

    await asyncio.gather(*(play(game) for game in ids))
    log = storage._actions
    assert log.stored == 100
    assert log.transactions < 100 / 2  # twenty games waiting at once are committed together
    for game in ids:
        stored = await storage.load_game(game)
        assert stored is not None and stored.actions == [action(game, n) for n in range(5)]


async def test_one_refused_action_in_a_batch_is_refused_alone(storage: Storage) -> None:
    first, second, third = await games(storage, 3)
    await storage.append_action(second, 0, action(second, 0))
    outcomes = await asyncio.gather(
        storage.append_action(first, 0, action(first, 0)),
        storage.append_action(second, 0, action(second, 99)),  # a double click: seq 0 is taken
        storage.append_action(third, 1, action(third, 1)),  # a gap: nothing before it
        storage.append_action(404, 0, action(404, 0)),  # no such game
        return_exceptions=True,
    )
    assert outcomes[0] is None
    assert isinstance(outcomes[1], StaleAction)
    assert isinstance(outcomes[2], StorageError) and "would leave a gap" in str(outcomes[2])
    assert isinstance(outcomes[3], StorageError) and "does not exist" in str(outcomes[3])
    assert [await stored_actions(storage, g) for g in (first, second, third)] == [
        [action(first, 0)],
        [action(second, 0)],
        [],
    ]


async def test_two_actions_of_one_game_in_a_batch_are_stored_in_turn(storage: Storage) -> None:
    (game,) = await games(storage, 1)
    outcomes = await asyncio.gather(
        storage.append_action(game, 0, action(game, 0)),
        storage.append_action(game, 1, action(game, 1)),
        storage.append_action(game, 1, action(game, 7)),  # the same step clicked twice
        return_exceptions=True,
    )
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], StaleAction)
    stored = await storage.load_game(game)
    assert stored is not None and stored.actions == [action(game, 0), action(game, 1)]


async def test_a_failed_transaction_fails_every_action_in_it_and_stores_none(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    storage = await Storage.open(str(db), busy_timeout=0.1)
    try:
        ids = await games(storage, 4)
        other = sqlite3.connect(db, isolation_level=None, timeout=0)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        try:
            outcomes = await asyncio.gather(
                *(storage.append_action(game, 0, action(game, 0)) for game in ids), return_exceptions=True
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert all(isinstance(o, StorageError) and not isinstance(o, StaleAction) for o in outcomes)
        assert [await stored_actions(storage, game) for game in ids] == [[]] * 4
        await asyncio.gather(*(storage.append_action(game, 0, action(game, 0)) for game in ids))
        assert [await stored_actions(storage, game) for game in ids] == [[action(game, 0)] for game in ids]
    finally:
        await storage.close()


async def test_an_action_whose_caller_gave_up_before_its_turn_is_not_stored(storage: Storage) -> None:
    first, second = await games(storage, 2)
    running = asyncio.create_task(storage.append_action(first, 0, action(first, 0)))
    await asyncio.sleep(0)  # the first transaction has started: the next action waits its turn
    waiting = asyncio.create_task(storage.append_action(second, 0, action(second, 0)))
    await asyncio.sleep(0)
    waiting.cancel()
    await running
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await storage.append_action(first, 1, action(first, 1))  # the writer carries on
    assert await stored_actions(storage, second) == []


async def test_a_batch_of_every_outcome_is_judged_alike_by_the_database_and_by_the_bot(
    storage: Storage, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """Every reason a move may be refused, in one batch. On PostgreSQL the batch is checked and stored by
    ``store_actions`` in one statement (one trip to the server, its own transaction) and the bot judges
    it again from the slots the function read: both must agree, or the bot logs it."""
    storage.hold_leases_as(A, 20)
    ok, two, double, gap, ended, other, ran_out, no_lease = await games(storage, 8)
    await storage.append_action(double, 0, action(double, 0))
    await storage.close_game(ended, "cancelled", "a test")
    await database.execute(
        "UPDATE leases SET expires_at = expires_at - 1000 WHERE game_id IN (?, ?)", other, ran_out
    )
    storage.hold_leases_as(B, 20)
    assert await storage.acquire_lease(other)
    storage.hold_leases_as(A, 20)
    await database.execute("DELETE FROM leases WHERE game_id = ?", no_lease)
    trips: list[str] = []
    if database.dialect == "postgres":
        storage._backend._conn.add_query_logger(lambda query: trips.append(query.query))
    with caplog.at_level(logging.ERROR, logger="bot.storage.action_log"):
        outcomes = await asyncio.gather(
            storage.append_action(ok, 0, action(ok, 0)),
            storage.append_action(two, 0, action(two, 0)),
            storage.append_action(two, 1, action(two, 1)),  # a game's second move follows its first
            storage.append_action(double, 0, action(double, 9)),  # a double click
            storage.append_action(gap, 1, action(gap, 1)),
            storage.append_action(404, 0, action(404, 0)),
            storage.append_action(ended, 0, action(ended, 0)),
            storage.append_action(other, 0, action(other, 0)),  # B took it over
            storage.append_action(ran_out, 0, action(ran_out, 0)),
            storage.append_action(no_lease, 0, action(no_lease, 0)),
            return_exceptions=True,
        )
    assert outcomes[:3] == [None, None, None]
    assert isinstance(outcomes[3], StaleAction) and "already stored" in str(outcomes[3])
    assert isinstance(outcomes[4], StorageError) and "would leave a gap" in str(outcomes[4])
    assert isinstance(outcomes[5], StorageError) and "does not exist" in str(outcomes[5])
    assert isinstance(outcomes[6], StaleAction) and "has ended" in str(outcomes[6])
    assert isinstance(outcomes[7], LeaseLost) and "driven by another process" in str(outcomes[7])
    if database.dialect == "postgres":  # leases run on the server's clock; a game must have one
        assert isinstance(outcomes[8], LeaseLost) and "ran out" in str(outcomes[8])
        assert isinstance(outcomes[9], LeaseLost) and "holds no lease" in str(outcomes[9])
        assert len(trips) == 1 and "store_actions" in trips[0]  # one statement, its own transaction
    else:  # one process per SQLite file: its leases are its own
        assert outcomes[8:] == [None, None]
    stored = {
        g: len(await stored_actions(storage, g))
        for g in (ok, two, double, gap, ended, other, ran_out, no_lease)
    }
    mine = 1 if database.dialect == "sqlite" else 0
    assert stored == {ok: 1, two: 2, double: 1, gap: 0, ended: 0, other: 0, ran_out: mine, no_lease: mine}
    assert not caplog.records  # the database and the bot judged every move alike


async def test_a_move_the_database_did_not_store_is_never_answered_stored(
    pg: Database, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the bot's judgement and the database's ever differ, the database's log is the truth: a move
    the bot judged storable but the database refused is answered "not stored", and it is logged."""
    storage = await Storage.open(pg.url)
    try:
        storage.hold_leases_as(A, 20)
        (game,) = await games(storage, 1)
        monkeypatch.setattr(action_log, "_refusal", lambda *_args: None)  # the bot judges every move storable
        with caplog.at_level(logging.ERROR, logger="bot.storage.action_log"):
            with pytest.raises(StorageError, match="Could not confirm"):
                await storage.append_action(game, 1, action(game, 1))  # a gap: the database refuses it
        assert await stored_actions(storage, game) == []
        assert "judged storable" in caplog.text
    finally:
        await storage.close()
