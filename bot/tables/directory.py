"""Every open table of this process: found by game, channel, thread or player; closed without results.

The lower parts of the table layer (the lobby, the leases, the clicks passed on by other processes)
are handed this directory, never the registry that composes them (``bot.tables.registry``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot import collector
from bot.storage import LeaseLost, StorageError
from bot.tables.answers import STARTING, reply
from bot.tables.host import Host
from bot.tables.table import Table

log = logging.getLogger(__name__)


class Directory:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.by_id: dict[int, Table] = {}
        self.lobby_timers: dict[int, asyncio.Task[None]] = {}
        self._seating: dict[int, asyncio.Lock] = {}
        self._closing: dict[int, asyncio.Task[None]] = {}  # closes waiting for the database
        # Set once the stored games are back: before that, a channel that looks free may hold a
        # stored game, and a player who looks free may be seated in one.
        self.resumed = asyncio.Event()
        self.on_closed: Callable[[Table], None] | None = None  # a game closed without results (registry)

    async def ready_for(self, interaction: discord.Interaction) -> bool:
        """Wait briefly for the stored games to be back; if they are not yet, say so and return False."""
        if not self.resumed.is_set():
            try:
                await asyncio.wait_for(self.resumed.wait(), self.host.timing.startup_wait)
            except TimeoutError:
                await reply(interaction, STARTING)
                return False
        return True

    def seating(self, guild_id: int) -> asyncio.Lock:
        """One server's seating lock: every seating rule (a game per channel, a game per player, the
        caps) is within one server, so starts in other servers never wait for it."""
        return self._seating.setdefault(guild_id, asyncio.Lock())

    def seating_locks(self) -> list[asyncio.Lock]:
        """Every server's seating lock (a stopping bot takes them all: see bot.shutdown)."""
        return list(self._seating.values())

    def in_channel(self, channel_id: int) -> Table | None:
        """The game played here: a channel's own game, or a thread's (a game in a thread frees its channel)."""
        return next((t for t in self.by_id.values() if t.place.place_id == channel_id and not t.closed), None)

    def in_thread(self, thread_id: int) -> Table | None:
        return next((t for t in self.by_id.values() if t.thread_id == thread_id and not t.closed), None)

    def of_user(self, guild_id: int, user_id: int) -> Table | None:
        return next(
            (
                t
                for t in self.by_id.values()
                if t.guild_id == guild_id and not t.closed and t.seat_of(user_id) is not None
            ),
            None,
        )

    def forget(self, table: Table) -> None:
        if self.by_id.pop(table.game_id, None) is not None:
            collector.after_a_game()  # its objects are cycles only a full collection frees (bot.collector)
        timer = self.lobby_timers.pop(table.game_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def close(self, table: Table, status: str, why: str, *, keep_if_unsaved: bool = False) -> bool:
        """End a game without results. The end is stored first: with ``keep_if_unsaved`` (a cancel), a
        game whose end could not be stored goes on and False says so; otherwise (a gone channel, an
        expired lobby, an idle game) the table stops anyway and stays listed, closed, until its end
        is stored: its lease kept and nothing resuming it. Forgotten at once, a lobby announced as
        closed while PostgreSQL was down came back (and could be started) when it returned (issue 26,
        point 12); the next start closes it again if this process stops before then."""
        try:
            await self.host.storage.close_game(table.game_id, status, why)
        except StorageError:
            log.exception("Could not mark game %s as %s", table.game_id, status)
            if keep_if_unsaved:
                return False
            await table.stop()
            self._close_later(table, status, why)
            return True
        await table.stop()
        self.forget(table)
        if self.on_closed is not None:
            self.on_closed(table)  # its spectator bets refunded (aside): its race will not finish
        return True

    def _close_later(self, table: Table, status: str, why: str) -> None:
        if table.game_id in self._closing:
            return
        task = asyncio.create_task(self._keep_closing(table, status, why), name=f"close-{table.game_id}")
        self._closing[table.game_id] = task
        task.add_done_callback(lambda _task: self._closing.pop(table.game_id, None))

    async def _keep_closing(self, table: Table, status: str, why: str) -> None:
        pause = self.host.timing.storage_retry_seconds
        while True:
            await asyncio.sleep(pause)
            try:
                await self.host.storage.close_game(table.game_id, status, why)
            except LeaseLost:  # another process took the game over: its end is that process's now
                self.forget(table)
                return
            except StorageError:
                pause = min(pause * 2, 300.0)
                continue
            log.info("Game %s is stored as %s now", table.game_id, status)
            self.forget(table)
            return

    async def stop_all(self) -> None:
        for task in list(self._closing.values()):
            task.cancel()
        for table in list(self.by_id.values()):
            await table.stop()
        for timer in self.lobby_timers.values():
            timer.cancel()
