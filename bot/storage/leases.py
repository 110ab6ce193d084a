"""Leases and routed clicks: what lets several bot processes share one database without two of them
driving the same game, and lets a click reach the process that drives its game.

* A lease is one row per game: the process (``owner``, a token made at its start) that drives it and
  until when (``expires_at``, on the storage's clock). A process renews its leases while it runs; a
  lease past its time (its process crashed or hung) may be taken over by another process. Storing an
  action is *fenced*: it is refused (``LeaseLost``) when another process holds the game's lease, so a
  process that lost a lease cannot write to that game even before it notices.
* A routed click is a click that reached a process which does not drive its game (Discord sends DMs,
  and the clicks in them, to shard 0 only). That process acknowledges it and stores it here; the owner
  applies it and answers the player with the interaction's token. PostgreSQL tells the owner at once
  (NOTIFY on ``CLICK_CHANNEL``); every owner also polls, which is all SQLite needs (one process).

The clocks of the processes sharing a database should agree within a few seconds (NTP): leases last
far longer than that.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.backend import POSTGRES, Backend, Tx, marks
from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

CLICK_CHANNEL = "racing_routed_clicks"
_OPEN = "status IN ('lobby', 'running')"


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

    def _transaction(self, doing: str, *, write: bool) -> AbstractAsyncContextManager[Tx]: ...


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

    async def acquire_lease(self: Any, game_id: int) -> bool:
        """Take (or keep) the game's lease; False if another process holds a lease that has not expired."""
        owner, now = self._owner(), float(self._clock())
        async with self._transaction(f"take the lease of game {game_id}", write=True) as tx:
            return await _take(tx, game_id, owner, now, now + self.lease_seconds)

    async def renew_leases(self: Any, game_ids: Sequence[int]) -> set[int]:
        """Extend this process's leases on ``game_ids``; return those it still holds (the rest were taken
        over, or never held). A held lease that ran out but was not taken over is held again."""
        owner, now = self._owner(), float(self._clock())
        ids = list(game_ids)
        async with self._transaction("renew the game leases", write=True) as tx:
            # Leases of games that ended are of no more use to anyone, once their ending was posted
            # (until then the lease says who posts it: ``Storage.unannounced_games``).
            await tx.execute(
                "DELETE FROM leases WHERE owner = ? AND game_id IN "
                f"(SELECT id FROM games WHERE NOT {_OPEN} AND COALESCE(announced, 1) = 1)",
                (owner,),
            )
            if not ids:
                return set()
            await tx.execute(
                f"UPDATE leases SET expires_at = ? WHERE owner = ? AND game_id IN ({marks(ids)})",
                (now + self.lease_seconds, owner, *ids),
            )
            rows = await tx.fetch_all(
                f"SELECT game_id FROM leases WHERE owner = ? AND game_id IN ({marks(ids)})", (owner, *ids)
            )
        return {int(game_id) for (game_id,) in rows}

    async def release_lease(self: Any, game_id: int) -> None:
        """Give a game's lease up (this process stops driving it)."""
        async with self._transaction(f"release the lease of game {game_id}", write=True) as tx:
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
        now = float(self._clock())
        async with self._transaction("list the games free to drive", write=False) as tx:
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
        async with self._transaction(f"pass a click on game {click.game_id} on", write=True) as tx:
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
        async with self._transaction("forget a click passed on", write=True) as tx:
            await tx.execute("DELETE FROM routed_clicks WHERE id = ?", (click_id,))

    async def drop_old_routed_clicks(self: Any, older_than: float = TOKEN_LIFETIME) -> None:
        """Clicks nobody applied in time (their token lasts 15 minutes), and those of games that have
        ended (nobody will apply them), are of no more use: their tokens are deleted."""
        async with self._transaction("forget old clicks passed on", write=True) as tx:
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


async def _take(tx: Tx, game_id: int, owner: str, now: float, until: float) -> bool:
    row = await tx.fetch_one(
        f"SELECT owner, expires_at FROM leases WHERE game_id = ?{tx.for_update}", (game_id,)
    )
    if row is None:
        # Two processes inserting at once: the second waits for the first's key and then sees it.
        await tx.execute(
            "INSERT INTO leases (game_id, owner, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO NOTHING",
            (game_id, owner, until),
        )
        held = await tx.fetch_one("SELECT owner FROM leases WHERE game_id = ?", (game_id,))
        return held is not None and held[0] == owner
    holder, expires_at = str(row[0]), float(row[1])
    if holder != owner and expires_at >= now:
        return False
    await tx.execute("UPDATE leases SET owner = ?, expires_at = ? WHERE game_id = ?", (owner, until, game_id))
    return True


def check_holder(game_id: int, owner: str | None, holder: str | None) -> None:
    """Inside a write to a game: refuse it if another process (``holder``) holds the game's lease."""
    if owner is not None and holder is not None and holder != owner:
        raise LeaseLost(f"Game {game_id} is driven by another process now; this one stopped driving it.")


async def take_new_game(tx: Tx, game_id: int, owner: str | None, until: float) -> None:
    """A new game is leased to the process that made it, in the transaction that stores it."""
    if owner is not None:
        await tx.execute(
            "INSERT INTO leases (game_id, owner, expires_at) VALUES (?, ?, ?)", (game_id, owner, until)
        )


__all__ = [
    "CLICK_CHANNEL",
    "TOKEN_LIFETIME",
    "LeaseLost",
    "Leases",
    "RoutedClick",
    "check_holder",
    "take_new_game",
]
