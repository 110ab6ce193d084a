"""Storing game actions with a group commit: the actions of every game waiting to be stored go in one
transaction, committed (to disk) before any of their callers returns.

Why: each statement is a trip to the database's thread (SQLite) or server (PostgreSQL), and each trip
costs its caller a turn of the event loop. At 500 games the loop's turns were long and one
transaction of five trips per action left tables waiting 1.3 s on average to store a move, queued
behind each other on the one connection. One transaction for everything waiting costs the same five
trips whatever the number of actions, and one sync to disk. An action alone is stored at once.

Each action is checked as ``append_action`` promises (its game exists and is open, it is the next
in the log, this process holds the game's lease) and is refused alone; a transaction that fails
fails every action in it, and none of them is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.storage.backend import Backend, Tx, marks
from bot.storage.errors import StaleAction, StorageError
from bot.storage.leases import LeaseLost, check_holder
from bot.storage.records import OPEN_STATUSES


@dataclass
class _Waiting:
    game_id: int
    seq: int
    text: str
    now: float
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class ActionLog:
    """One writer of actions per ``Storage``: callers wait while it stores what they queued."""

    def __init__(self, backend: Backend, owner: Callable[[], str | None]) -> None:
        self._backend = backend
        self._owner = owner  # the lease owner of this process, read at each write
        self._queue: list[_Waiting] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0  # for the figures: how many commits stored how many actions
        self.stored = 0

    async def append(self, game_id: int, seq: int, text: str, now: float) -> None:
        waiting = _Waiting(game_id, seq, text, now)
        self._queue.append(waiting)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="store-actions")
        # A caller cancelled before its batch starts is left out of it; one cancelled after may still
        # be stored, as a single transaction cancelled after its COMMIT was (the log is the truth).
        await waiting.done

    async def _write(self) -> None:
        while self._queue:
            batch = [w for w in self._queue if not w.done.done()]
            self._queue = []
            if not batch:
                continue
            try:
                refusals = await self._store(batch)
            except Exception as error:
                for waiting in batch:
                    _settle(waiting, error)
                continue
            except BaseException:  # the writer itself cancelled (the bot is closing): nothing was committed
                for waiting in batch:
                    closing = (
                        f"Could not store action {waiting.seq} of game {waiting.game_id}: the bot is closing."
                    )
                    _settle(waiting, StorageError(closing))
                raise
            self.transactions += 1
            for waiting, refusal in zip(batch, refusals, strict=True):
                _settle(waiting, refusal)

    async def _store(self, batch: list[_Waiting]) -> list[StorageError | None]:
        if len(batch) == 1:
            doing = f"store action {batch[0].seq} of game {batch[0].game_id}"
        else:
            doing = f"store {len(batch)} actions of {len({w.game_id for w in batch})} games"
        owner = self._owner()
        refusals: list[StorageError | None] = []
        accepted: list[_Waiting] = []
        async with self._backend.transaction(doing, write=True) as tx:
            slots = await _slots(tx, sorted({w.game_id for w in batch}))
            for waiting in batch:
                refusal = _refusal(waiting, slots.get(waiting.game_id), owner)
                refusals.append(refusal)
                if refusal is None:
                    status, count, holder = slots[waiting.game_id]
                    slots[waiting.game_id] = (status, count + 1, holder)
                    accepted.append(waiting)
            if accepted:
                await tx.executemany(
                    "INSERT INTO actions (game_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                    [(w.game_id, w.seq, w.text, w.now) for w in accepted],
                )
                latest = {w.game_id: w.now for w in accepted}
                await tx.executemany(
                    "UPDATE games SET updated_at = ? WHERE id = ?",
                    [(t, g) for g, t in sorted(latest.items())],
                )
        self.stored += len(accepted)
        return refusals


def _settle(waiting: _Waiting, outcome: BaseException | None) -> None:
    if waiting.done.done():
        return
    if outcome is None:
        waiting.done.set_result(None)
    else:
        waiting.done.set_exception(outcome)


def _refusal(
    waiting: _Waiting, slot: tuple[str, int, str | None] | None, owner: str | None
) -> StorageError | None:
    """Why this action may not be stored (the same order and words as a single ``append_action``)."""
    game_id, seq = waiting.game_id, waiting.seq
    if slot is None:
        return StorageError(f"Game {game_id} does not exist; action {seq} was not stored.")
    status, count, holder = slot
    if seq < count:
        return StaleAction(f"Action {seq} of game {game_id} was already stored (a double click or a replay).")
    if status not in OPEN_STATUSES:
        return StaleAction(f"Game {game_id} has ended ({status}); action {seq} came too late.")
    try:
        check_holder(game_id, owner, holder)
    except LeaseLost as lost:
        return lost
    if seq > count:
        return StorageError(
            f"Action {seq} of game {game_id} would leave a gap: only {count} actions are stored."
        )
    return None


async def _slots(tx: Tx, game_ids: list[int]) -> dict[int, tuple[str, int, str | None]]:
    """Each game's status, how many actions it has stored and who holds its lease.

    On PostgreSQL the games' rows are read (and locked against other processes, in id order) first,
    then, in statements of their own, the logs and the leases: a statement that waited for a lock sees
    what the other process wrote. SQLite's ``BEGIN IMMEDIATE`` already holds the file's one write
    lock, so one statement reads all three.
    """
    ids = marks(game_ids)
    if tx.for_update:
        rows = await tx.fetch_all(
            f"SELECT id, status FROM games WHERE id IN ({ids}) ORDER BY id{tx.for_update}", game_ids
        )
        counts = dict(
            await tx.fetch_all(
                f"SELECT game_id, MAX(seq) + 1 FROM actions WHERE game_id IN ({ids}) GROUP BY game_id",
                game_ids,
            )
        )
        owners = dict(
            await tx.fetch_all(f"SELECT game_id, owner FROM leases WHERE game_id IN ({ids})", game_ids)
        )
        return {
            int(game): (str(status), int(counts.get(game) or 0), _text(owners.get(game)))
            for game, status in rows
        }
    rows = await tx.fetch_all(
        "SELECT id, status, (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = games.id), "
        f"(SELECT owner FROM leases WHERE game_id = games.id) FROM games WHERE id IN ({ids})",
        game_ids,
    )
    return {int(game): (str(status), int(count), _text(owner)) for game, status, count, owner in rows}


def _text(value: object) -> str | None:
    return None if value is None else str(value)
