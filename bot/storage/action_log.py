"""Storing game actions with a group commit: the actions of every game waiting to be stored go in one
transaction, committed (to disk) before any of their callers returns.

Why: each statement is a trip to the database's thread (SQLite) or server (PostgreSQL), and each trip
costs its caller a turn of the event loop. At 500 games the loop's turns were long and one
transaction of five trips per action left tables waiting 1.3 s on average to store a move, queued
behind each other on the one connection. One transaction for everything waiting costs the same five
trips whatever the number of actions, and one sync to disk. An action alone is stored at once. On
PostgreSQL the whole batch is one statement, its own transaction (``store_actions``, a function the
schema's v12 adds): one trip to the server where a transaction of reads and writes took seven to
nine.

Each action is checked as ``append_action`` promises (its game exists and is open, it is the next
in the log, this process holds the game's live lease, locked: ``bot.storage.leases.fence``) and is
refused alone. One game does not hold up the others (PostgreSQL): a game whose row or lease another
transaction holds locked is skipped (``SKIP LOCKED``) and tried again in the next batch, until the
busy wait has passed, while the rest commit; a batch that fails on one game's data (a constraint, a
trigger) is stored again game by game, so only that game's actions fail. A batch that fails on the
connection (the server is down) fails every action in it, and none of them is stored.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.storage.backend import POSTGRES, Backend, Tx, marks
from bot.storage.errors import StaleAction, StorageError
from bot.storage.leases import LeaseLost, check_holder
from bot.storage.records import OPEN_STATUSES

log = logging.getLogger(__name__)

LOCKED_RETRY_SECONDS = 0.02  # the pause before a batch of only locked games is tried again


@dataclass
class _Waiting:
    game_id: int
    seq: int
    text: str
    now: float
    deadline: float  # the event loop's time after which a game still locked fails
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class _Locked(StorageError):
    """This batch could not lock the game's rows (another transaction holds them): try it again."""


@dataclass
class _Slot:
    status: str
    count: int
    holder: str | None = None  # who holds the lease (None: no lease row)
    live: bool = True  # the lease has not run out (PostgreSQL, on the server's clock)
    locked: bool = False


class ActionLog:
    """One writer of actions per ``Storage``: callers wait while it stores what they queued."""

    def __init__(self, backend: Backend, owner: Callable[[], str | None], busy_timeout: float = 5.0) -> None:
        self._backend = backend
        self._owner = owner  # the lease owner of this process, read at each write
        self._busy_timeout = busy_timeout
        self._queue: list[_Waiting] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0  # for the figures: how many commits stored how many actions
        self.stored = 0

    async def append(self, game_id: int, seq: int, text: str, now: float) -> None:
        deadline = asyncio.get_running_loop().time() + self._busy_timeout
        waiting = _Waiting(game_id, seq, text, now, deadline)
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
                refusals = await self._store_isolated(batch)
            except BaseException:  # the writer itself cancelled (the bot is closing): nothing was committed
                for waiting in batch:
                    closing = (
                        f"Could not store action {waiting.seq} of game {waiting.game_id}: the bot is closing."
                    )
                    _settle(waiting, StorageError(closing))
                raise
            again: list[_Waiting] = []
            now = asyncio.get_running_loop().time()
            for waiting, refusal in zip(batch, refusals, strict=True):
                if isinstance(refusal, _Locked) and now < waiting.deadline:
                    again.append(waiting)
                else:
                    _settle(waiting, refusal)
            if again:
                # Before what came meanwhile: a game's actions stay in their order.
                self._queue = again + self._queue
                if len(self._queue) == len(again):
                    await asyncio.sleep(LOCKED_RETRY_SECONDS)

    async def _store_isolated(self, batch: list[_Waiting]) -> list[BaseException | None]:
        """Store a batch; if it fails on one game's data, store each game alone so only that one fails."""
        try:
            return list(await self._store(batch))
        except Exception as error:
            games = sorted({w.game_id for w in batch})
            if len(games) == 1 or not _about_the_data(error):
                return [error] * len(batch)
        outcomes: dict[int, BaseException | None] = {}
        for game in games:
            alone = [w for w in batch if w.game_id == game]
            try:
                results: list[BaseException | None] = list(await self._store(alone))
            except Exception as error:
                results = [error] * len(alone)
            outcomes.update({id(w): r for w, r in zip(alone, results, strict=True)})
        return [outcomes[id(w)] for w in batch]

    async def _store(self, batch: list[_Waiting]) -> list[StorageError | None]:
        if len(batch) == 1:
            doing = f"store action {batch[0].seq} of game {batch[0].game_id}"
        else:
            doing = f"store {len(batch)} actions of {len({w.game_id for w in batch})} games"
        owner = self._owner()
        if self._backend.dialect == POSTGRES:
            refusals = await self._store_in_one_trip(doing, batch, owner)
        else:
            async with self._backend.transaction(doing, write=True) as tx:
                slots = await _slots(tx, sorted({w.game_id for w in batch}))
                refusals, accepted = _judge(batch, slots, owner, tx.dialect)
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
        self.transactions += 1
        self.stored += sum(refusal is None for refusal in refusals)
        return refusals

    async def _store_in_one_trip(
        self, doing: str, batch: list[_Waiting], owner: str | None
    ) -> list[StorageError | None]:
        """PostgreSQL: the batch checked and stored by ``store_actions`` (``bot.storage.migrations``, v12)
        in one statement, its own transaction.

        Why: seven to nine trips to the server a batch (BEGIN, the games locked and those skipped told
        apart, the actions counted, the leases locked, two writes, COMMIT) took a fifth of the bot's CPU
        at 200 games, each trip a wake-up of the server and of the event loop. The function reads and
        locks the games and their leases in that order, and applies the rule ``_refusal`` states; the
        answers are judged here again from the slots it read, and both must agree (a disagreement is
        logged, and the game's moves in the batch are answered as not stored: what the log holds is the
        truth, and the table finds it when it stores again)."""
        async with self._backend.transaction(doing, write=True, one_statement=True) as tx:
            rows = await tx.fetch_all(
                "SELECT * FROM store_actions(?, ?, ?, ?, ?, ?)",
                (
                    owner,
                    list(OPEN_STATUSES),
                    [w.game_id for w in batch],
                    [w.seq for w in batch],
                    [w.text for w in batch],
                    [w.now for w in batch],
                ),
            )
        slots: dict[int, _Slot] = {}
        stored: dict[int, int] = {}  # how many of each game's moves the function stored
        for game, status, count, holder, live, locked, added in rows:
            slots[int(game)] = _Slot(str(status or ""), int(count), _text(holder), bool(live), bool(locked))
            stored[int(game)] = int(added)
        refusals, accepted = _judge(batch, slots, owner, POSTGRES)
        judged = Counter(w.game_id for w in accepted)
        for game, count in stored.items():
            if judged[game] != count:
                # Never told "stored" for a move the database may not hold: its table stores it again
                # and hears "already stored" (and reloads from the log) or stores it then.
                log.error(
                    "Game %s: the database stored %s of its actions in a batch, where %s were judged storable",
                    game,
                    count,
                    judged[game],
                )
                for i, waiting in enumerate(batch):
                    if waiting.game_id == game and refusals[i] is None:
                        refusals[i] = StorageError(
                            f"Could not confirm that action {waiting.seq} of game {game} was stored."
                        )
        return refusals


def _judge(
    batch: list[_Waiting], slots: dict[int, _Slot], owner: str | None, dialect: str
) -> tuple[list[StorageError | None], list[_Waiting]]:
    """Each action's refusal (None: it may be stored) in the batch's order, and those that may be: a
    game's second action in a batch follows its first."""
    refusals: list[StorageError | None] = []
    accepted: list[_Waiting] = []
    for waiting in batch:
        slot = slots.get(waiting.game_id)
        refusal = _refusal(waiting, slot, owner, dialect)
        refusals.append(refusal)
        if refusal is None and slot is not None:
            slot.count += 1
            accepted.append(waiting)
    return refusals, accepted


def _settle(waiting: _Waiting, outcome: BaseException | None) -> None:
    if waiting.done.done():
        return
    if outcome is None:
        waiting.done.set_result(None)
    elif isinstance(outcome, _Locked):
        waiting.done.set_exception(
            StorageError(
                f"Could not store action {waiting.seq} of game {waiting.game_id}: the game is locked by "
                "another process or connection and stayed locked past the wait."
            )
        )
    else:
        waiting.done.set_exception(outcome)


def _about_the_data(error: BaseException) -> bool:
    """A failure caused by what one game's rows hold (a constraint, a trigger), not by the connection."""
    cause = error.__cause__
    state = str(getattr(cause, "sqlstate", "") or "")
    if state:
        return state[:2] in ("22", "23", "P0")  # data exception, integrity violation, raised by PL/pgSQL
    return isinstance(cause, sqlite3.IntegrityError | sqlite3.DataError)


def _refusal(waiting: _Waiting, slot: _Slot | None, owner: str | None, dialect: str) -> StorageError | None:
    """Why this action may not be stored (the same order and words as a single ``append_action``)."""
    game_id, seq = waiting.game_id, waiting.seq
    if slot is None:
        return StorageError(f"Game {game_id} does not exist; action {seq} was not stored.")
    if slot.locked:
        return _Locked(f"Game {game_id} is locked by another transaction.")
    if seq < slot.count:
        return StaleAction(f"Action {seq} of game {game_id} was already stored (a double click or a replay).")
    if slot.status not in OPEN_STATUSES:
        return StaleAction(f"Game {game_id} has ended ({slot.status}); action {seq} came too late.")
    try:
        if dialect == POSTGRES and owner is not None and slot.holder is None:
            raise LeaseLost(f"This process holds no lease on game {game_id}; it stopped driving the game.")
        check_holder(game_id, owner, slot.holder, slot.live)
    except LeaseLost as lost:
        return lost
    if seq > slot.count:
        return StorageError(
            f"Action {seq} of game {game_id} would leave a gap: only {slot.count} actions are stored."
        )
    return None


async def _slots(tx: Tx, game_ids: list[int]) -> dict[int, _Slot]:
    """Each game's status, how many actions it has stored and its lease holder (SQLite: its
    ``BEGIN IMMEDIATE`` already holds the file's one write lock, so one statement reads all of it;
    PostgreSQL reads and locks the same in ``store_actions``, statement by statement)."""
    ids = marks(game_ids)
    rows = await tx.fetch_all(
        "SELECT id, status, (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = games.id), "
        f"(SELECT owner FROM leases WHERE game_id = games.id) FROM games WHERE id IN ({ids})",
        game_ids,
    )
    return {int(game): _Slot(str(status), int(count), _text(owner)) for game, status, count, owner in rows}


def _text(value: object) -> str | None:
    return None if value is None else str(value)
