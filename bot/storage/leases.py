"""Leases and routed clicks: what lets several bot processes share one database without two of them
driving the same game, and lets a click reach the process that drives its game.

* A lease is one row per game: the process (``owner``, a token made at its start) that drives it and
  until when (``expires_at``). A process renews its leases while it runs; a lease past its time (its
  process crashed or hung) may be taken over by another process.
* Every write a table makes to its game is *fenced* (``fence``): inside the write's own transaction,
  with the lease row locked (``FOR SHARE``), it checks that this process holds the lease and that the
  lease has not run out; otherwise it is refused (``LeaseLost``) and writes nothing. A takeover
  (``_take``) locks the lease row ``FOR UPDATE``, so it waits for a write in flight, and a write that
  comes after it finds the new holder. So a process that lost a lease (or stalled past it) cannot
  write to that game, even before it notices.
* The clock: on PostgreSQL every lease time is written and compared on the database server's clock
  (``clock_timestamp()``), never a process's own, so processes whose clocks disagree still agree on
  who holds what. On SQLite (one process per file, by its lock) the storage's clock serves, and the
  fence checks only that no other owner holds the lease: nothing renews leases there (the lease
  keeper runs only on a shared database), and no other process can take one over.
  Tests expire a lease by writing its ``expires_at`` into the past through their own connection
  (the database's clock is not the test's to move).
* A routed click is a click that reached a process which does not drive its game (Discord sends DMs,
  and the clicks in them, to shard 0 only). That process acknowledges it and stores it here; the owner
  applies it and answers the player with the interaction's token. PostgreSQL tells the owner at once
  (NOTIFY on ``CLICK_CHANNEL``); every owner also polls, which is all SQLite needs (one process).

"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.backend import POSTGRES, Backend, Tx, marks
from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

CLICK_CHANNEL = "racing_routed_clicks"
_OPEN = "status IN ('lobby', 'running')"
# Now on the PostgreSQL server's clock, in seconds since the epoch (as expires_at is stored). The real
# time of the statement (not of the transaction's start): a check that waited for a lock is on time.
DB_NOW = "EXTRACT(EPOCH FROM clock_timestamp())::float8"


class LeaseLost(StorageError):
    """Another process holds this game's lease: this process must stop driving the game."""


@dataclass(frozen=True)
class RoutedClick:
    """A click on a game driven by another process: only what its owner needs to apply and answer it.

    Issue 26, point 15: who clicked (``user_id``, to find their seat), what (``custom_id``, ``values``)
    and the interaction's ``token`` with the bot's ``application_id`` (a followup is sent to
    ``/webhooks/<application_id>/<token>``); not the clicker's name, nor where they clicked. The token
    answers as the bot for 15 minutes (``TOKEN_LIFETIME``): the row is deleted as soon as the owner
    handled the click, when its game ends, and after 15 minutes at most; past that it is never read.
    """

    id: int  # the interaction's id: a click is routed at most once
    game_id: int
    user_id: int
    custom_id: str
    values: list[str] | None
    application_id: int
    token: str


#: Discord's interaction tokens last 15 minutes: a click stored longer could not be answered any more.
TOKEN_LIFETIME = 15 * 60.0


class _Host(Protocol):
    _backend: Backend
    _clock: Callable[[], float]

    def _transaction(
        self, doing: str, *, write: bool, aside: bool = False
    ) -> AbstractAsyncContextManager[Tx]: ...


class Leases:
    """The lease and routing half of ``Storage`` (mixed into it)."""

    lease_owner: str | None = None  # set by ``hold_leases_as``: this process's token
    lease_seconds: float = 30.0

    def hold_leases_as(self, owner: str, seconds: float) -> None:
        """From now on this storage's games are leased to ``owner`` for ``seconds`` at a time, and
        storing an action checks the lease."""
        self.lease_owner = owner
        self.lease_seconds = seconds

    def _owner(self) -> str:
        if self.lease_owner is None:
            raise StorageError("No lease owner set: call hold_leases_as first.")
        return self.lease_owner

    async def _lease_now(self: Any, tx: Tx) -> float:
        """Now on the lease clock: the database server's on PostgreSQL, the storage's on SQLite."""
        if tx.dialect == POSTGRES:
            row = await tx.fetch_one(f"SELECT {DB_NOW}")
            assert row is not None
            return float(row[0])
        return float(self._clock())

    async def acquire_lease(self: Any, game_id: int) -> bool:
        """Take (or keep) the game's lease; False if another process holds a lease that has not expired."""
        owner = self._owner()
        async with self._transaction(f"take the lease of game {game_id}", write=True, aside=True) as tx:
            return await _take(tx, game_id, owner, self.lease_seconds, lambda: self._lease_now(tx))

    async def renew_leases(self: Any, game_ids: Sequence[int]) -> set[int]:
        """Extend this process's leases on ``game_ids``; return those it still holds (the rest were taken
        over, or never held). A held lease that ran out but was not taken over is held again."""
        owner = self._owner()
        ids = list(game_ids)
        async with self._transaction("renew the game leases", write=True, aside=True) as tx:
            # Leases of games that ended are of no more use to anyone, once their ending was posted
            # (until then the lease says who posts it: ``Storage.unannounced_games``).
            await tx.execute(
                "DELETE FROM leases WHERE owner = ? AND game_id IN "
                f"(SELECT id FROM games WHERE NOT {_OPEN} AND COALESCE(announced, 1) = 1)",
                (owner,),
            )
            if not ids:
                return set()
            # On PostgreSQL the new time is the server's clock when the row is written (after any
            # wait for a write in flight that holds it), so the lease lasts its whole length.
            until, first = (
                (f"{DB_NOW} + ?", self.lease_seconds)
                if tx.dialect == POSTGRES
                else ("?", float(self._clock()) + self.lease_seconds)
            )
            await tx.execute(
                f"UPDATE leases SET expires_at = {until} WHERE owner = ? AND game_id IN ({marks(ids)})",
                (first, owner, *ids),
            )
            rows = await tx.fetch_all(
                f"SELECT game_id FROM leases WHERE owner = ? AND game_id IN ({marks(ids)})", (owner, *ids)
            )
        return {int(game_id) for (game_id,) in rows}

    async def release_lease(self: Any, game_id: int) -> None:
        """Give a game's lease up (this process stops driving it)."""
        async with self._transaction(f"release the lease of game {game_id}", write=True, aside=True) as tx:
            await tx.execute("DELETE FROM leases WHERE game_id = ? AND owner = ?", (game_id, self._owner()))

    async def lease_of(self: Any, game_id: int) -> tuple[str, float] | None:
        """Who holds the game's lease and until when (for tests and reports)."""
        async with self._transaction(f"read the lease of game {game_id}", write=False) as tx:
            row = await tx.fetch_one("SELECT owner, expires_at FROM leases WHERE game_id = ?", (game_id,))
        return None if row is None else (str(row[0]), float(row[1]))

    async def free_games(self: Any) -> list[tuple[int, int]]:
        """``(game id, guild id)`` of every unfinished game without a live lease: nobody drives it;
        and of every ended game whose ending nobody posted (its process was killed in between).

        A live lease of this process's own is not "free": this process drives that game, or is
        opening it right now.
        """
        async with self._transaction("list the games free to drive", write=False) as tx:
            now = await self._lease_now(tx)
            # Two selects, each on a partial index, rather than one OR that would read every game.
            free = "SELECT g.id, g.guild_id FROM games g LEFT JOIN leases l ON l.game_id = g.id WHERE "
            unleased = "(l.game_id IS NULL OR l.expires_at < ?)"
            rows = await tx.fetch_all(
                f"{free}g.{_OPEN} AND {unleased} UNION {free}g.announced = 0 AND {unleased} ORDER BY 1",
                (now, now),
            )
        return [(int(game_id), int(guild_id)) for game_id, guild_id in rows]

    async def game_is_open(self: Any, game_id: int) -> bool:
        async with self._transaction(f"look up game {game_id}", write=False) as tx:
            row = await tx.fetch_one(f"SELECT 1 FROM games WHERE id = ? AND {_OPEN}", (game_id,))
        return row is not None

    # --- routed clicks ---------------------------------------------------------------------------

    async def route_click(self: Any, click: RoutedClick) -> bool:
        """Store a click for its game's owner (and wake it on PostgreSQL); False if it was routed before."""
        async with self._transaction(
            f"pass a click on game {click.game_id} on", write=True, aside=True
        ) as tx:
            if await tx.fetch_one("SELECT 1 FROM routed_clicks WHERE id = ?", (click.id,)):
                return False
            await tx.execute(
                "INSERT INTO routed_clicks (id, game_id, user_id, user_name, custom_id, picked, "
                "application_id, token, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    click.id,
                    click.game_id,
                    click.user_id,
                    "",  # Ruling: the name is not stored (the owner never needs it); the column stays
                    # for a process of the previous release during a rolling restart (migration-free).
                    click.custom_id,
                    json.dumps(click.values),
                    click.application_id,
                    click.token,
                    float(self._clock()),
                ),
            )
            if tx.dialect == POSTGRES:  # delivered when this transaction commits, never before
                await tx.execute("SELECT pg_notify(?, ?)", (CLICK_CHANNEL, str(click.game_id)))
        return True

    async def routed_clicks(self: Any, game_ids: Sequence[int]) -> list[RoutedClick]:
        """The clicks waiting for these games, oldest first; none older than ``TOKEN_LIFETIME`` (its
        token could not answer any more)."""
        if not game_ids:
            return []
        ids = list(game_ids)
        async with self._transaction("read the clicks passed on", write=False) as tx:
            rows = await tx.fetch_all(
                "SELECT id, game_id, user_id, custom_id, picked, application_id, token FROM routed_clicks "
                f"WHERE game_id IN ({marks(ids)}) AND created_at >= ? ORDER BY created_at, id",
                [*ids, float(self._clock()) - TOKEN_LIFETIME],
            )
        return [
            RoutedClick(int(r[0]), int(r[1]), int(r[2]), str(r[3]), json.loads(r[4]), int(r[5]), str(r[6]))
            for r in rows
        ]

    async def drop_routed_click(self: Any, click_id: int) -> None:
        async with self._transaction("forget a click passed on", write=True, aside=True) as tx:
            await tx.execute("DELETE FROM routed_clicks WHERE id = ?", (click_id,))

    async def drop_old_routed_clicks(self: Any, older_than: float = TOKEN_LIFETIME) -> None:
        """Clicks nobody applied in time (their token lasts 15 minutes), and those of games that have
        ended (nobody will apply them), are of no more use: their tokens are deleted."""
        async with self._transaction("forget old clicks passed on", write=True, aside=True) as tx:
            await tx.execute(
                "DELETE FROM routed_clicks WHERE created_at < ? "
                f"OR game_id NOT IN (SELECT id FROM games WHERE {_OPEN})",
                (float(self._clock()) - older_than,),
            )

    async def listen_for_clicks(self: Any, wake: Callable[[], None]) -> Callable[[], Any] | None:
        """Call ``wake`` whenever a click is routed (PostgreSQL: LISTEN on its own connection). Returns
        a coroutine function that stops listening, or None where there is nothing to listen to (SQLite,
        or the listening connection could not be made: then polling alone delivers)."""
        if self._backend.dialect != POSTGRES:
            return None
        import asyncpg

        try:
            conn = await asyncpg.connect(self._backend.url.dsn, timeout=10)
            await conn.add_listener(CLICK_CHANNEL, lambda *_: wake())
        except (asyncpg.PostgresError, OSError, TimeoutError) as error:
            log.warning("Could not listen for routed clicks (%s); polling for them instead", error)
            return None

        async def stop() -> None:
            if not conn.is_closed():
                await conn.close(timeout=5)

        return stop


async def _take(
    tx: Tx, game_id: int, owner: str, seconds: float, lease_now: Callable[[], Awaitable[float]]
) -> bool:
    # FOR UPDATE: a takeover waits for a write to this game in flight (it holds the row FOR SHARE).
    row = await tx.fetch_one(
        f"SELECT owner, expires_at FROM leases WHERE game_id = ?{tx.for_update}", (game_id,)
    )
    now = await lease_now()  # read once the lock is ours: the lease may have been renewed meanwhile
    if row is None:
        # Two processes inserting at once: the second waits for the first's key and then sees it.
        await tx.execute(
            "INSERT INTO leases (game_id, owner, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO NOTHING",
            (game_id, owner, now + seconds),
        )
        held = await tx.fetch_one("SELECT owner FROM leases WHERE game_id = ?", (game_id,))
        return held is not None and held[0] == owner
    holder, expires_at = str(row[0]), float(row[1])
    if holder != owner and expires_at >= now:
        return False
    await tx.execute(
        "UPDATE leases SET owner = ?, expires_at = ? WHERE game_id = ?", (owner, now + seconds, game_id)
    )
    return True


def check_holder(game_id: int, owner: str | None, holder: str | None, live: bool = True) -> None:
    """Inside a write to a game: refuse it unless this process (``owner``) may write to the game.

    ``holder`` and ``live`` are the game's lease as the write read it, locked: who holds it (None: no
    lease row) and whether it has not run out on the database's clock. On SQLite ``live`` is always
    True and a missing lease is no one's (see the module's docstring).
    """
    if owner is None:
        return  # a storage that holds no leases (a tool, a test of something else) is not fenced
    if holder is not None and holder != owner:
        raise LeaseLost(f"Game {game_id} is driven by another process now; this one stopped driving it.")
    if not live:
        raise LeaseLost(f"This process's lease on game {game_id} ran out; it stopped driving the game.")


async def fence(tx: Tx, game_id: int, owner: str | None) -> None:
    """Refuse a write to one game (``LeaseLost``) unless this process holds the game's live lease.

    Called inside the write's transaction, after the game's row was read ``FOR UPDATE``: the lease row
    is locked ``FOR SHARE`` until the write commits, so a takeover waits for it, and on PostgreSQL
    the lease is compared with the server's clock (``holder = owner AND expires_at >= now``).
    """
    if owner is None:
        return
    if tx.dialect == POSTGRES:
        row = await tx.fetch_one(
            f"SELECT owner, expires_at >= {DB_NOW} FROM leases WHERE game_id = ? FOR SHARE", (game_id,)
        )
        if row is None:
            raise LeaseLost(f"This process holds no lease on game {game_id}; it stopped driving the game.")
        check_holder(game_id, owner, str(row[0]), bool(row[1]))
        return
    row = await tx.fetch_one("SELECT owner FROM leases WHERE game_id = ?", (game_id,))
    check_holder(game_id, owner, None if row is None else str(row[0]))


async def take_new_game(tx: Tx, game_id: int, owner: str | None, seconds: float, now: float) -> None:
    """A new game is leased to the process that made it, in the transaction that stores it (``now``: the
    storage's clock, used on SQLite; PostgreSQL takes its own)."""
    if owner is None:
        return
    if tx.dialect == POSTGRES:
        await tx.execute(
            f"INSERT INTO leases (game_id, owner, expires_at) VALUES (?, ?, {DB_NOW} + ?)",
            (game_id, owner, seconds),
        )
    else:
        await tx.execute(
            "INSERT INTO leases (game_id, owner, expires_at) VALUES (?, ?, ?)",
            (game_id, owner, now + seconds),
        )


__all__ = [
    "CLICK_CHANNEL",
    "DB_NOW",
    "TOKEN_LIFETIME",
    "LeaseLost",
    "Leases",
    "RoutedClick",
    "check_holder",
    "fence",
    "take_new_game",
]
