"""After a restart, or when another process's leases ran out: every stored game that had not ended
carries on, an ended one whose results were waiting is settled, and one that cannot go on is closed
with its channel told why."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord_io.delivery import TRANSIENT, deliver, new_run, nonce
from bot.discord_io.outgoing import Outgoing
from bot.discord_io.pacer import ChannelPacer
from bot.games.base import GameError
from bot.games.catalog import Entry
from bot.i18n import N_, _, speaking
from bot.storage import StorageError, StoredGame
from bot.tables.directory import Directory
from bot.tables.endings import Endings
from bot.tables.lobby import expire_lobby, lobby_message
from bot.tables.opening import Builder
from bot.tables.seats import Seat
from bot.tables.table import Table

log = logging.getLogger(__name__)


class Resuming:
    def __init__(
        self,
        directory: Directory,
        endings: Endings,
        catalog: dict[str, Entry],
        build: Builder,
        *,
        get_channel: Callable[[int], Any],
        pacer: ChannelPacer,
        may_drive: Callable[[StoredGame], Awaitable[bool]] | None = None,
    ) -> None:
        self.directory = directory
        self.endings = endings
        self.host = directory.host
        self.catalog = catalog
        self.build = build
        self.get_channel = get_channel
        self.pacer = pacer
        self.may_drive = may_drive  # several processes: only the games whose lease this one holds

    async def resume_all(self) -> None:
        """Carry on every stored game that had not ended; close the ones that can't go on.

        A game of a kind the catalog does not know, or one whose stored row could not be read, is
        left as it is, reported in the log as an error and told in its channel; the others go on.
        """
        try:
            await self._resume_stored()
        finally:
            self.directory.resumed.set()

    async def _resume_stored(self) -> None:
        try:
            stored = await self.host.storage.unfinished_games()
            stored += await self.host.storage.unannounced_games()  # ended, their ending never posted
        except StorageError:
            log.exception("Could not read the stored games; none were resumed")
            return
        for game in stored:
            if game.id in self.directory.by_id:
                continue
            if self.may_drive is not None and not await self.may_drive(game):
                continue  # another shard's game, or another process drives it (bot/tables/lease.py)
            try:
                await self._resume_one(game)
            except Exception:
                log.exception("Could not resume game %s", game.id)

    async def _resume_one(self, game: StoredGame) -> None:
        if game.status not in ("lobby", "running") and (game.kind not in self.catalog or game.damage):
            # An ending that cannot be replayed: its results stand, and it is not reported at every start.
            await self.host.storage.mark_announced(game.id)
            return
        if game.kind not in self.catalog:
            log.error(
                "Stored game %s is of an unknown kind %r (known: %s); it was not resumed",
                game.id,
                game.kind,
                ", ".join(sorted(self.catalog)),
            )
            await self._say(
                game, N_("⚠️ I can't resume game #{number}: I don't know its game."), number=game.id
            )
            return
        damage = getattr(game, "damage", None)
        if damage:
            log.error("Stored game %s could not be read (%s); it was not resumed", game.id, damage)
            await self._say(
                game,
                N_("⚠️ I can't resume {game} #{number}: its saved data is damaged."),
                game=self.catalog[game.kind].title,  # translated in _say
                number=game.id,
            )
            return
        table = self.build(
            game.kind,
            game_id=game.id,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            host_id=int(game.settings.get("host_id", 0)),
            seed=game.seed,
            seats=[Seat.from_json(s) for s in game.seats],
            settings=dict(game.settings),
            meta=dict(game.meta),
        )
        if table.place.home is None:  # the channel it was opened in (its thread is fetched when needed)
            if game.status in ("lobby", "running"):
                await self.endings.abandon(table)
            else:  # an ending nobody can read any more: its results stand
                await table.ledger.mark_announced()
            return
        await self.host.languages.refresh(game.guild_id)  # its messages speak the server's language
        with speaking(table.language):
            await self._carry_on(table, game)

    async def _say(self, stored: StoredGame, message: str, /, **values: Any) -> None:
        """A note in a stored game's channel, in its server's language (``message``: marked)."""
        channel_id = stored.channel_id
        language = await self.host.languages.refresh(stored.guild_id)
        with speaking(language):
            text = _(message, **{k: _(v) if k == "game" else v for k, v in values.items()})
        channel = self.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            tag = nonce(channel_id, new_run(), 0, "s")  # one post, retried with its own nonce

            async def attempt() -> None:
                async with self.pacer.turn(channel_id):
                    await channel.send(content=text, nonce=tag)

            try:
                await deliver(attempt, self.host.timing, f"A note in channel {channel_id}")
            except (discord.HTTPException, *TRANSIENT):
                log.exception("Could not post in channel %s", channel_id)

    async def _carry_on(self, table: Table, game: StoredGame) -> None:
        title = table.presenter.title
        if game.status not in ("lobby", "running"):
            await self._tell_ending(table, game)
            return
        if time.time() - game.updated_at > self.host.timing.stale_after_seconds:
            if game.status != "lobby" and await self._settle_ended(table, game):
                return
            await self.directory.close(table, "abandoned", "Idle for too long.")
            await table.send(
                Outgoing(
                    content=_(
                        "🛑 {game} #{number} was closed: it waited too long.", game=title, number=game.id
                    )
                )
            )
            return
        self.directory.by_id[game.id] = table
        closes = table.meta.get("lobby_closes")
        if game.status == "lobby" and isinstance(closes, int | float) and closes <= time.time():
            # Its time ran out while no process drove it (or its close could not be stored before this
            # process stopped): closed now, never shown again with live buttons.
            await expire_lobby(self.directory, table, 0)
            return
        if game.status == "lobby":
            await table.send(Outgoing(content=_("♻️ I restarted; here is the lobby again.")))
            await table.send(lobby_message(table))
            left = max(5.0, float(table.meta.get("lobby_closes", 0)) - time.time())
            self.directory.lobby_timers[game.id] = asyncio.create_task(
                expire_lobby(self.directory, table, left)
            )
            return
        try:
            table.start_engine(game.actions)
        except (GameError, ValueError, KeyError, TypeError):
            log.exception("Game %s could not be replayed", game.id)
            await self.directory.close(table, "abandoned", "Its stored history could not be replayed.")
            await table.send(
                Outgoing(
                    content=_(
                        "🛑 {game} #{number} could not be resumed and was closed.",
                        game=title,
                        number=game.id,
                    )
                )
            )
            return
        late = table.human_pending()
        names = ", ".join(sorted({table.seats[d.player].shown for d in late if d.player is not None}))
        grace = table.prompts.grace(late, names)  # a deadline that passed while the bot was down
        await table.send(
            Outgoing(
                content=_(
                    "♻️ I restarted; {game} #{number} carries on from where it stopped.",
                    game=title,
                    number=game.id,
                )
            )
        )
        if grace:
            await table.send(Outgoing(content=grace))
        if table.engine is not None and table.engine.is_over:
            # Stopped between storing the last action and announcing it: settle and show the end now.
            await table.publish(table.ledger.last_events)
        elif table.engine is not None and table.seq == 0:
            await table.publish(table.engine.opening_events())  # stopped before the opening was shown
        elif table.engine is not None:
            with speaking(table.language):
                snapshot = await table.presenter.snapshot(table.view())
            for out in snapshot:
                await table.send(out)
        table.run()

    async def _tell_ending(self, table: Table, game: StoredGame) -> None:
        """A game settled by a process that stopped before posting its ending (killed between storing
        the results and posting them): its last batch (the last race's result, the final standings)
        is posted now, once; the table then notes it as told and is forgotten (``Table._finish``)."""
        try:
            table.start_engine(game.actions)
        except (GameError, ValueError, KeyError, TypeError):
            log.exception("Game %s could not be replayed to post its ending", game.id)
        if table.engine is None or not table.engine.is_over:
            await table.ledger.mark_announced()  # nothing to tell: not asked again at every start
            return
        table.ledger.settled = True
        self.directory.by_id[game.id] = table
        await table.send(
            Outgoing(
                content=_(
                    "♻️ I restarted; {game} #{number} carries on from where it stopped.",
                    game=table.presenter.title,
                    number=game.id,
                )
            )
        )
        await table.publish(table.ledger.last_events)
        table.run()

    async def _settle_ended(self, table: Table, game: StoredGame) -> bool:
        """An old game whose log shows it ended is settled, not abandoned: its results were only
        waiting for a database that failed when it ended (checked before the idle rule)."""
        try:
            table.start_engine(game.actions)
        except (GameError, ValueError, KeyError, TypeError):
            return False
        if table.engine is None or not table.engine.is_over:
            return False
        if await table.ledger.settle(table.seats):
            await table.say(
                N_("🏁 {game} #{number} had ended; its results are saved now."),
                game=table.presenter.title,
                number=game.id,
            )
        else:
            self.endings.settle_later(table)
        return True
