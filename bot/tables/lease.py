"""Which games this process drives: those of its shards' guilds whose lease it holds.

A game belongs to the shard of its guild (``(guild_id >> 22) % shard_count``, as Discord routes a
guild's events). The keeper renews this process's leases every ``lease_renew_seconds``, stops
driving a game whose lease another process took, and takes over (resumes) the games of its shards
that nobody holds a live lease on: at start, and whenever a crashed process's leases run out.
Two processes misconfigured with the same shards therefore split the games between them rather
than both playing them; the storage refuses a move from a process that lost the game's lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any

from bot.storage import StorageError
from bot.tables.directory import Directory
from bot.tables.host import Host
from bot.tables.table import LOST, Table

if TYPE_CHECKING:
    from bot.storage import StoredGame

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % max(shard_count, 1)


class LeaseKeeper:
    def __init__(
        self,
        bot: Host,
        directory: Directory,
        shards: tuple[int, ...],
        shard_count: int,
        resume: Callable[[], Awaitable[Collection[int] | None]] | None = None,
    ) -> None:
        self.bot = bot
        self.directory = directory
        # Carries on the stored games this process may drive (the registry's); returns the ids of
        # those it gave up on for good (bot.tables.resuming.Resuming.given_up).
        self.resume = resume
        self.shards = frozenset(shards)
        self.shard_count = shard_count
        # A new token every start: a restarted process takes its old games over like any other would.
        self.owner = f"{socket.gethostname()}:{secrets.token_hex(6)}"
        self.after_tick: Callable[[], Awaitable[None]] | None = None  # the click router drains here
        self._task: asyncio.Task[None] | None = None
        self._taking = asyncio.Lock()
        self._given_up: set[int] = set()  # damaged, or of an unknown kind: reported once, never retried

    def owns_guild(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) in self.shards

    async def may_drive(self, game: StoredGame) -> bool:
        """Resume ``game`` here? Only if it is of one of this process's shards and its lease is ours now."""
        if not self.owns_guild(game.guild_id):
            return False
        try:
            return bool(await self.bot.storage.acquire_lease(game.id))
        except StorageError:
            log.exception("Could not take the lease of game %s", game.id)
            return False

    def start(self) -> None:
        """Keep the leases from now on; on a database no other process can use (SQLite) there is no
        one to keep them from, so nothing runs."""
        if self._task is None and self.bot.storage.shared:
            self._task = asyncio.create_task(self._run(), name="lease-keeper")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _run(self) -> None:
        every = self.bot.timing.lease_renew_seconds
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick()
            except StorageError:
                log.warning("Could not renew the game leases; trying again", exc_info=True)
            except Exception:
                log.exception("The lease keeper failed; trying again")

    async def tick(self) -> None:
        """Renew, let go of what was lost, take over what is free."""
        tables = self.directory
        asked = list(tables.by_id)
        held = await self.bot.storage.renew_leases(asked)
        # Only the games asked about: one that opened while the renewal waited for the database holds
        # the lease it took when it was stored, and was not in the question (under load a renewal waits
        # seconds, and such a game must not be taken for lost).
        for game_id in asked:
            table = tables.by_id.get(game_id)
            # A game whose results this process stored has no lease any more (the renewal lets go of the
            # leases of ended games) while its table still announces them: it is not lost. Stopping it
            # there lost the game's results message and final standings (docs/scaling.md: the PostgreSQL
            # stall at 200 games).
            settled = getattr(table, "settled", False)
            if table is not None and game_id not in held and not table.closed and not settled:
                await self.lost(table)
        free = [
            gid
            for gid, guild in await self.bot.storage.free_games()
            if self.owns_guild(guild) and gid not in tables.by_id and gid not in self._given_up
        ]
        if free:
            async with self._taking:
                if self.resume is not None:
                    # Given up only for what is wrong with the game itself (damaged, of an unknown
                    # kind): reported once, not at every tick. A game still free because the database
                    # failed while it was being taken over is tried again at the next tick (before,
                    # one such error orphaned it until the process restarted); one another process
                    # was quicker to is no longer free.
                    self._given_up.update(await self.resume() or ())
        if self.after_tick is not None:
            await self.after_tick()

    async def lost(self, table: Table) -> None:
        """Another process drives this game now: stop at once, say nothing (the new owner speaks)."""
        table.end(LOST)

    async def release_all(self) -> None:
        """On a clean stop, let the games go so another process may take them without waiting."""
        for game_id in list(self.directory.by_id):
            with contextlib.suppress(StorageError):
                await self.bot.storage.release_lease(game_id)


def describe(keeper: Any) -> str:
    return f"shards {sorted(keeper.shards)} of {keeper.shard_count} as {keeper.owner}"
