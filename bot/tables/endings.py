"""How a table ends: what the registry does when a table signals ``on_end`` (``bot.tables.table``).

A game that is over is forgotten, its results settled later if the database failed as it ended; a
game whose channel is gone closes and its players are told (in the channel for a deleted thread,
by DM for a lost channel); a game whose engine broke closes and says so; a game another process
drives now stops here without a word (the new owner speaks). Closing stops the table's loop, which
may be the caller, so the work runs in a task of its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from bot.discord_io.outgoing import Outgoing
from bot.i18n import N_, _, _n, speaking
from bot.storage import LeaseLost, StorageError
from bot.tables.answers import permission_names
from bot.tables.directory import Directory
from bot.tables.table import BLOCKED, BROKEN, GONE, LOST, OVER, Table

log = logging.getLogger(__name__)

ENGINE_FAILED = N_("🛑 {game} #{number} hit an error in its rules and was closed. No results were recorded.")


class Endings:
    def __init__(self, directory: Directory) -> None:
        self.directory = directory
        self.host = directory.host
        self.stopping = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._settling: dict[int, asyncio.Task[None]] = {}

    def on_end(self, table: Table, why: str) -> None:
        """The hook every table is given (``Table.on_end``)."""
        if why == OVER:
            if table.settled and table.ledger.announced:
                self.directory.forget(table)
            else:
                self.settle_later(table)  # listed (closed) until both are stored
        elif why == GONE:
            self._aside(self.thread_gone(table) if table.thread_id else self.abandon(table), why, table)
        elif why == BROKEN:
            self._aside(self.broken(table), why, table)
        elif why == BLOCKED:
            self._aside(self.blocked(table), why, table)
        elif why == LOST:
            log.warning("Game %s is driven by another process now; this one stops driving it", table.game_id)
            self.directory.forget(table)  # at once: the lease keeper's next look must not see it
            self._aside(table.stop(), why, table)

    def _aside(self, closing: Coroutine[Any, Any, None], why: str, table: Table) -> None:
        task = asyncio.create_task(closing, name=f"{why}-{table.game_id}")
        self._tasks.add(task)  # a reference, so the task is not collected while it runs
        task.add_done_callback(self._tasks.discard)

    async def abandon(self, table: Table) -> None:
        """A game whose channel is gone (deleted, or the bot lost access): closed, its players told by DM."""
        await self.directory.close(table, "abandoned", "The game's channel is gone.")
        await self.tell_players(
            table,
            N_(
                "Your game #{number} ({game}) was closed: its channel is gone "
                "or I can no longer post there. No results were recorded."
            ),
        )

    async def thread_gone(self, table: Table) -> None:
        """The game's thread was deleted: the game closes and the players hear it in the channel."""
        if table.closed and table.game_id not in self.directory.by_id:
            return
        await self.directory.close(table, "abandoned", "Its thread was deleted.")
        players = [s for s in table.seats if s.user_id is not None]
        mentions = " ".join(s.mention() for s in players)
        with speaking(table.language):
            text = _(
                "🛑 {game} #{number} was closed: its thread was deleted. {players}",
                game=table.presenter.title,
                number=table.game_id,
                players=mentions,
            )
        pings = tuple(s.user_id for s in players if s.user_id)
        await table.place.send_home(Outgoing(content=text.strip(), ping=pings))

    async def broken(self, table: Table) -> None:
        """A game whose engine failed on an action it had accepted."""
        await self.directory.close(table, "abandoned", "Its engine failed on a stored action.")
        with speaking(table.language):
            title = table.presenter.title
        await table.say(ENGINE_FAILED, game=title, number=table.game_id)

    async def blocked(self, table: Table) -> None:
        """A game whose channel refused the bot for longer than it waits (``bot.discord_io.pause``):
        closed without results; each player is told by DM, in their language, what was missing (the
        channel cannot be used), and the channel it was opened in too when it played in a thread."""
        lacking = table.place.lacking() or []
        await self.directory.close(
            table, "abandoned", "Missing permissions: " + (", ".join(lacking) or "access refused") + "."
        )
        for index in range(len(table.seats)):
            with speaking(table.seat_language(index)):
                out = Outgoing(content=self.blocked_text(table, lacking))
            await table.dm(index, out)
        if table.thread_id:
            players = [s for s in table.seats if s.user_id is not None]
            with speaking(table.language):
                text = f"{self.blocked_text(table, lacking)} {' '.join(s.mention() for s in players)}"
            await table.place.send_home(
                Outgoing(content=text.strip(), ping=tuple(s.user_id for s in players if s.user_id))
            )

    def blocked_text(self, table: Table, lacking: list[str]) -> str:
        where = f"<#{table.place.place_id}>"
        if lacking:
            return _n(
                "🛑 {game} game #{number} was closed: I was missing the {permissions} permission in "
                "{channel} and it did not come back. No results were recorded.",
                "🛑 {game} game #{number} was closed: I was missing the {permissions} permissions in "
                "{channel} and they did not come back. No results were recorded.",
                len(lacking),
                game=table.presenter.title,
                number=table.game_id,
                permissions=permission_names(lacking),
                channel=where,
            )
        return _(
            "🛑 {game} game #{number} was closed: Discord kept refusing my messages in {channel}. "
            "No results were recorded.",
            game=table.presenter.title,
            number=table.game_id,
            channel=where,
        )

    async def tell_players(self, table: Table, message: str) -> None:
        """``message`` (marked; ``{game}`` and ``{number}`` filled) to each player by DM, in their language."""
        for index in range(len(table.seats)):
            with speaking(table.seat_language(index)):
                out = Outgoing(content=_(message, game=table.presenter.title, number=table.game_id))
            await table.dm(index, out)

    def settle_later(self, table: Table) -> None:
        """The results of an ended game, or the note that its ending was posted, could not be stored:
        keep trying while the bot runs (the next start settles it otherwise, whatever its age), and
        tell the channel both ways about the results.

        Until both are stored the table stays listed, closed: the lease keeper keeps its lease and
        nothing resumes it. Forgotten at once, its lease ran out during a database outage and the
        game (still "running" in storage) was resumed here when the database came back: its final
        standings posted twice and a false "I restarted" (issue 26, point 4)."""
        if table.game_id in self._settling:
            return
        task = asyncio.create_task(self._keep_settling(table), name=f"settle-{table.game_id}")
        self._settling[table.game_id] = task
        task.add_done_callback(lambda _task: self._settling.pop(table.game_id, None))

    async def _keep_settling(self, table: Table) -> None:
        title = table.presenter.title
        if not table.settled:
            await table.say(
                N_("⚠️ I couldn't save the results of {game} #{number} yet; I'll keep trying."),
                game=title,
                number=table.game_id,
            )
        pause = self.host.timing.storage_retry_seconds
        while not self.stopping:
            await asyncio.sleep(pause)
            if not table.settled:
                # Its final standings are out (``Table._finish``): only the results were waiting.
                try:
                    stored = await table.ledger.settle(table.seats, announced=True)
                except LeaseLost:
                    # Its lease ran out while the database was away (leases are the database's time,
                    # and nobody could renew it): take it back if nobody else did, and try again
                    # soon; if another process took the game over, that process settles it.
                    if await self._take_back(table):
                        pause = self.host.timing.storage_retry_seconds
                        continue
                    self.directory.forget(table)
                    return
                if stored:
                    await table.say(
                        N_("✅ The results of {game} #{number} are saved now."),
                        game=title,
                        number=table.game_id,
                    )
            elif not table.ledger.announced:
                await table.ledger.mark_announced()
            if table.settled and table.ledger.announced:
                self.directory.forget(table)
                return
            pause = min(pause * 2, 300.0)

    async def _take_back(self, table: Table) -> bool:
        """Whether this process holds the ended game's lease again (False: another one does)."""
        try:
            return bool(await self.host.storage.acquire_lease(table.game_id))
        except StorageError:
            return True  # the database is away again: keep the table and try later

    def stop(self) -> None:
        self.stopping = True
        for task in list(self._settling.values()):
            task.cancel()
