"""Every open table of the bot: find one by game, channel or player; open, resume and close them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import GameError
from bot.games.catalog import CATALOG, Entry
from bot.i18n import N_, _, _n, speaking
from bot.server_settings import MAX_GAMES, MAX_HOSTED, WHERE
from bot.storage import StorageError, StoredGame
from bot.tables import clicks, custom_ids, routing
from bot.tables.delivery import TRANSIENT, deliver, new_run, nonce
from bot.tables.lobby import expire_lobby, lobby_message, on_lobby, start_game
from bot.tables.presenter import Outgoing, Presenter
from bot.tables.seats import Seat, ai_seat
from bot.tables.table import ENGINE_FAILED, SAVE_FAILED, UNREADABLE, Table, followup, message_kwargs, reply

if TYPE_CHECKING:
    from bot.tables.host import Host

log = logging.getLogger(__name__)

# Marked constants, translated by ``reply``/``followup`` (bot.tables.table).
GONE = N_("This game has ended; these buttons no longer do anything.")
RESTARTING = N_("The bot is restarting; try again in a minute.")
STARTING = N_("I'm starting up; try again in a few seconds.")
STORAGE_BUSY = N_("I can't reach my storage right now; please try again in a moment.")
__all__ = ["GONE", "RESTARTING", "STARTING", "STORAGE_BUSY", "UNREADABLE", "Tables"]


class Tables:
    def __init__(self, bot: Host, catalog: dict[str, Entry] | None = None) -> None:
        self.bot = bot
        self.catalog = dict(CATALOG if catalog is None else catalog)
        # One presenter per catalogued game, made here from the catalog (never by loading a cog).
        self.presenters: dict[str, Presenter] = {
            kind: entry.presenter_class()(entry) for kind, entry in self.catalog.items()
        }
        self.by_id: dict[int, Table] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}
        self._settling: dict[int, asyncio.Task[None]] = {}
        self._seating: dict[int, asyncio.Lock] = {}
        # Set once the stored games are back (resume_all): before that, a channel that looks free may
        # hold a stored game, and a player who looks free may be seated in one.
        self.resumed = asyncio.Event()

    async def ready_for(self, interaction: discord.Interaction) -> bool:
        """Wait briefly for the stored games to be back; if they are not yet, say so and return False."""
        if not self.resumed.is_set():
            try:
                await asyncio.wait_for(self.resumed.wait(), self.bot.timing.startup_wait)
            except TimeoutError:
                await reply(interaction, STARTING)
                return False
        return True

    def seating(self, guild_id: int) -> asyncio.Lock:
        """One server's seating lock: every seating rule (a game per channel, a game per player, the
        caps) is within one server, so starts in other servers never wait for it (issue 15: with one
        bot-wide lock, 50 starts at once queued behind each other's database writes past 3 s)."""
        return self._seating.setdefault(guild_id, asyncio.Lock())

    def seating_locks(self) -> list[asyncio.Lock]:
        """Every server's seating lock (a stopping bot takes them all: see bot.shutdown)."""
        return list(self._seating.values())

    def in_channel(self, channel_id: int) -> Table | None:
        """The game played here: a channel's own game, or a thread's (a game in a thread frees its channel)."""
        return next((t for t in self.by_id.values() if t.place_id == channel_id and not t.closed), None)

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
        self.by_id.pop(table.game_id, None)
        timer = self._lobby_timers.pop(table.game_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    # --- opening a lobby -------------------------------------------------------

    def _table(self, kind: str, **fields: Any) -> Table:
        return Table(self.bot, self.catalog[kind], self.presenters[kind], **fields)

    async def open(
        self, interaction: discord.Interaction, kind: str, settings: dict[str, Any], bots: int
    ) -> Table | None:
        """``/<game> start``: one game per channel, one game per player in a server."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if self.bot.stopping:  # shutting down (bot.shutdown): a new game would only be cut short
            await reply(interaction, RESTARTING)
            return None
        if not await self.ready_for(interaction):
            return None
        entry = self.catalog[kind]
        refusal = self._seated_elsewhere(interaction)  # from memory: answered at once, privately
        if refusal is not None:
            await reply(interaction, refusal)
            return None
        # Acknowledge before anything that may wait: the seating lock and the cap counts queue behind
        # every game's writes on the one database writer (issue 15: at 500 games, starts that read
        # storage first timed out). Public, since the lobby fills this answer; a refusal found later
        # (a cap, or a start that won a race) still reaches only the user (see private_after_defer).
        await interaction.response.defer(thinking=True)
        async with self.seating(
            interaction.guild_id
        ):  # two starts at once in one channel must not both get a lobby
            if self.bot.stopping:  # the stop began while this start waited for the lock
                await private_after_defer(interaction, RESTARTING)
                return None
            refusal = self._seated_elsewhere(interaction) or await self._over_a_cap(
                interaction.guild_id, interaction.user.id
            )
            if refusal is not None:
                await private_after_defer(interaction, refusal)
                return None
            seats = [Seat(name=interaction.user.display_name, user_id=interaction.user.id)]
            level = str(settings.get("ai_level", "normal"))
            for _seat in range(min(bots, int(settings["players"]) - 1)):
                seats.append(ai_seat(seats, level))
            settings["host_id"] = interaction.user.id
            if settings.get("where") not in WHERE.choices:  # not chosen: the server's default
                settings["where"] = await self._default_where(interaction.guild_id)
            meta = {"lobby_closes": time.time() + self.bot.timing.lobby_seconds}
            seed = secrets.randbits(48)
            try:
                game_id = await self.bot.storage.create_game(
                    entry.kind,
                    interaction.guild_id,
                    interaction.channel_id,
                    seed,
                    settings,
                    [s.to_json() for s in seats],
                    status="lobby",
                    meta=meta,
                )
            except StorageError:
                log.exception("Could not create a game")
                await private_after_defer(interaction, SAVE_FAILED)
                return None
            table = self._table(
                kind,
                game_id=game_id,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                seed=seed,
                seats=seats,
                settings=settings,
                meta=meta,
            )
            self.by_id[game_id] = table
        await self.bot.languages.refresh(interaction.guild_id)  # the lobby speaks the server's language
        # The timer first: a lobby whose message could not be posted must still close by itself.
        self._lobby_timers[game_id] = asyncio.create_task(expire_lobby(table, self.bot.timing.lobby_seconds))
        lobby: discord.Message | None
        try:
            lobby = await interaction.followup.send(**message_kwargs(lobby_message(table)), wait=True)
        except (discord.HTTPException, *TRANSIENT):
            log.exception("Could not answer the start of game %s; posting its lobby in the channel", game_id)
            lobby = await table.send(lobby_message(table))  # retried, with a nonce
        if len(seats) >= int(settings["players"]):
            await start_game(table, lobby)
        return table

    def _seated_elsewhere(self, interaction: discord.Interaction) -> str | None:
        """Why this start is refused by the games already seated here (in memory, so instant)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        existing = self.in_channel(interaction.channel_id)
        if existing is not None:
            title = existing.presenter.title
            return _(
                "A {game} game is already running here (game #{number}).", game=title, number=existing.game_id
            )
        other = self.of_user(interaction.guild_id, interaction.user.id)
        if other is not None:
            where = f"<#{other.place_id}>"
            return _("You're already playing in {channel}; finish or leave that game first.", channel=where)
        return None

    async def _default_where(self, guild_id: int) -> str:
        """The server's `/config` choice, else the bot's own default (``DEFAULT_WHERE``), else a thread."""
        fallback = str(getattr(getattr(self.bot, "settings", None), "default_where", WHERE.default))
        try:
            stored = await self.bot.storage.get_server_settings(guild_id)
        except StorageError:
            return fallback
        return str(WHERE.read(stored)) if WHERE.key in stored else fallback

    async def _over_a_cap(self, guild_id: int, user_id: int) -> str | None:
        """Why this user may not open one more table in this server now, if they may not.

        Counts come from storage, so they hold when several bot processes share a database. Checked
        after acknowledging the command: behind a busy database writer, these reads can outlast the
        three seconds Discord gives (issue 15).
        """
        try:
            stored = await self.bot.storage.get_server_settings(guild_id)
            hosted = await self.bot.storage.count_open_tables_hosted(guild_id, user_id)
            games = await self.bot.storage.count_running_games(guild_id)
        except StorageError:
            log.exception("Could not count the open games of server %s", guild_id)
            return STORAGE_BUSY
        most_hosted, most_games = MAX_HOSTED.read(stored), MAX_GAMES.read(stored)
        if hosted >= int(most_hosted):
            return _n(
                "You already host {n} open game in this server, the most it allows "
                "(`{setting}`, games you left included); let one end or cancel it first.",
                "You already host {n} open games in this server, the most it allows "
                "(`{setting}`, games you left included); let one end or cancel it first.",
                hosted,
                setting=MAX_HOSTED.key,
            )
        if games >= int(most_games):
            return _n(
                "This server already has {n} open game, the most it allows (`{setting}`); "
                "try again when one has ended.",
                "This server already has {n} open games, the most it allows (`{setting}`); "
                "try again when one has ended.",
                games,
                setting=MAX_GAMES.key,
            )
        return None

    async def close(self, table: Table, status: str, why: str, *, keep_if_unsaved: bool = False) -> bool:
        """End a game without results. The end is stored first: with ``keep_if_unsaved`` (a cancel), a
        game whose end could not be stored goes on and False says so, since after a restart it would
        come back; otherwise (a gone channel, an idle game) the table stops anyway and the next start
        closes it again."""
        try:
            await self.bot.storage.close_game(table.game_id, status, why)
        except StorageError:
            log.exception("Could not mark game %s as %s", table.game_id, status)
            if keep_if_unsaved:
                return False
        await table.stop()
        self.forget(table)
        return True

    # --- clicks ---------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction, custom_id: object, values: list[str] | None
    ) -> None:
        """Every click on any of the bot's components; whatever the id says, the clicker gets an answer."""
        click = custom_ids.parse(custom_id, values)
        if isinstance(click, custom_ids.Unreadable):
            await reply(interaction, UNREADABLE)
            return
        if isinstance(click, custom_ids.BoardPage):
            await self.bot.dispatch_page(interaction, click)
            return
        if not await self.ready_for(interaction):
            return
        table = self.by_id.get(click.game)
        if table is None or table.closed:
            # Another process may drive this game (a DM click reaches shard 0 only): pass it on.
            if not await routing.pass_on(self.bot, interaction, click):
                await reply(interaction, GONE)
            return
        if isinstance(click, custom_ids.Lobby):
            await on_lobby(table, interaction, click.op, click.seat)
        elif isinstance(click, custom_ids.Hand):
            await clicks.show_hand(table, interaction)
        elif isinstance(click, custom_ids.Ask):
            await clicks.on_ask(table, interaction, click.topic)
        elif isinstance(click, custom_ids.MenuPage):
            await clicks.on_menu_page(table, interaction, click)
        else:
            await clicks.on_decision(table, interaction, click)

    # --- after a restart --------------------------------------------------------

    async def resume_all(self) -> None:
        """Carry on every stored game that had not ended; close the ones that can't go on.

        A game of a kind the catalog does not know, or one whose stored row could not be read, is
        left as it is, reported in the log as an error and told in its channel; the others go on.
        """
        try:
            await self._resume_stored()
        finally:
            self.resumed.set()

    async def _resume_stored(self) -> None:
        try:
            stored = await self.bot.storage.unfinished_games()
        except StorageError:
            log.exception("Could not read the stored games; none were resumed")
            return
        for game in stored:
            if game.id in self.by_id:
                continue
            keeper = getattr(self.bot, "leases", None)
            if keeper is not None and not await keeper.may_drive(game):
                continue  # another shard's game, or another process drives it (bot/tables/lease.py)
            try:
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
                    continue
                damage = getattr(game, "damage", None)
                if damage:
                    log.error("Stored game %s could not be read (%s); it was not resumed", game.id, damage)
                    await self._say(
                        game,
                        N_("⚠️ I can't resume {game} game #{number}: its saved data is damaged."),
                        game=self.presenters[game.kind].entry.title,  # translated in _say
                        number=game.id,
                    )
                    continue
                await self._resume(game)
            except Exception:
                log.exception("Could not resume game %s", game.id)

    async def _say(self, stored: StoredGame, message: str, /, **values: Any) -> None:
        """A note in a stored game's channel, in its server's language (``message``: marked)."""
        channel_id = stored.channel_id
        language = await self.bot.languages.refresh(stored.guild_id)
        with speaking(language):
            text = _(message, **{k: _(v) if k == "game" else v for k, v in values.items()})
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            tag = nonce(channel_id, new_run(), 0, "s")  # one post, retried with its own nonce

            async def attempt() -> None:
                async with self.bot.pacer.turn(channel_id):
                    await channel.send(content=text, nonce=tag)

            try:
                await deliver(attempt, self.bot.timing, f"A note in channel {channel_id}")
            except (discord.HTTPException, *TRANSIENT):
                log.exception("Could not post in channel %s", channel_id)

    async def _resume(self, game: StoredGame) -> None:
        presenter = self.presenters[game.kind]
        table = self._table(
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
        if table.home is None:  # the channel it was opened in (its thread is fetched when needed)
            await self.abandon(table)
            return
        await self.bot.languages.refresh(game.guild_id)  # its messages speak the server's language
        with speaking(table.language):
            await self._carry_on(table, game, presenter)

    async def _carry_on(self, table: Table, game: StoredGame, presenter: Presenter) -> None:
        if time.time() - game.updated_at > self.bot.timing.stale_after_seconds:
            if game.status != "lobby" and await self._settle_ended(table, game):
                return
            await self.close(table, "abandoned", "Idle for too long.")
            await table.send(
                Outgoing(
                    content=_(
                        "🛑 {game} game #{number} was closed: it waited too long.",
                        game=presenter.title,
                        number=game.id,
                    )
                )
            )
            return
        self.by_id[game.id] = table
        if game.status == "lobby":
            await table.send(Outgoing(content=_("♻️ I restarted; here is the lobby again.")))
            await table.send(lobby_message(table))
            left = max(5.0, float(table.meta.get("lobby_closes", 0)) - time.time())
            self._lobby_timers[game.id] = asyncio.create_task(expire_lobby(table, left))
            return
        try:
            table.start_engine(game.actions)
        except (GameError, ValueError, KeyError, TypeError):
            log.exception("Game %s could not be replayed", game.id)
            await self.close(table, "abandoned", "Its stored history could not be replayed.")
            await table.send(
                Outgoing(
                    content=_(
                        "🛑 {game} game #{number} could not be resumed and was closed.",
                        game=presenter.title,
                        number=game.id,
                    )
                )
            )
            return
        table.adopt_stored_deadline()
        grace = table.grace_after_downtime()
        await table.send(
            Outgoing(
                content=_(
                    "♻️ I restarted; {game} game #{number} carries on from where it stopped.",
                    game=presenter.title,
                    number=game.id,
                )
            )
        )
        if grace:
            await table.send(Outgoing(content=grace))
        if table.engine is not None and table.engine.is_over:
            # Stopped between storing the last action and announcing it: settle and show the end now.
            await table.publish(table.last_events)
        elif table.engine is not None and table.seq == 0:
            await table.publish(table.engine.opening_events())  # stopped before the opening was shown
        elif table.engine is not None:
            with speaking(table.language):
                snapshot = await presenter.snapshot(table)
            for out in snapshot:
                await table.send(out)
        table.run()

    async def abandon(self, table: Table) -> None:
        """A game whose channel is gone (deleted, or the bot lost access): closed, its players told by DM."""
        await self.close(table, "abandoned", "The game's channel is gone.")
        await self._tell_players(
            table,
            N_(
                "Your {game} game #{number} was closed: its channel is gone "
                "or I can no longer post there. No results were recorded."
            ),
        )

    async def broken(self, table: Table) -> None:
        """A game whose engine failed on an action it had accepted (``Table.engine_failed``)."""
        await self.close(table, "abandoned", "Its engine failed on a stored action.")
        with speaking(table.language):
            title = table.presenter.title
        await table.say(ENGINE_FAILED, game=title, number=table.game_id)

    async def _settle_ended(self, table: Table, game: StoredGame) -> bool:
        """An old game whose log shows it ended is settled, not abandoned: its results were only
        waiting for a database that failed when it ended (checked before the idle rule)."""
        try:
            table.start_engine(game.actions)
        except (GameError, ValueError, KeyError, TypeError):
            return False
        if table.engine is None or not table.engine.is_over:
            return False
        if await table.settle():
            await table.say(
                N_("🏁 {game} game #{number} had ended; its results are saved now."),
                game=table.presenter.title,
                number=game.id,
            )
        else:
            self.settle_later(table)
        return True

    async def _tell_players(self, table: Table, message: str) -> None:
        """``message`` (marked; ``{game}`` and ``{number}`` filled) to each player by DM, in their language."""
        for index in range(len(table.seats)):
            with speaking(table.seat_language(index)):
                out = Outgoing(
                    content=_(message, game=table.presenter.title, number=table.game_id), seat=index
                )
            await table.send(out)

    def settle_later(self, table: Table) -> None:
        """The results of an ended game could not be stored: keep trying while the bot runs (the next
        start settles it otherwise, whatever its age), and tell the channel both ways."""
        if table.game_id in self._settling:
            return
        task = asyncio.create_task(self._keep_settling(table), name=f"settle-{table.game_id}")
        self._settling[table.game_id] = task
        task.add_done_callback(lambda _task: self._settling.pop(table.game_id, None))

    async def _keep_settling(self, table: Table) -> None:
        await table.say(
            N_("⚠️ I couldn't save the results of {game} game #{number} yet; I'll keep trying."),
            game=table.presenter.title,
            number=table.game_id,
        )
        pause = self.bot.timing.storage_retry_seconds
        while not self.bot.stopping:
            await asyncio.sleep(pause)
            if await table.settle():
                await table.say(
                    N_("✅ The results of {game} game #{number} are saved now."),
                    game=table.presenter.title,
                    number=table.game_id,
                )
                return
            pause = min(pause * 2, 300.0)

    async def stop_all(self) -> None:
        for task in list(self._settling.values()):
            task.cancel()
        for table in list(self.by_id.values()):
            await table.stop()
        for timer in self._lobby_timers.values():
            timer.cancel()


async def private_after_defer(interaction: discord.Interaction, text: str) -> None:
    """A private answer to a command already deferred publicly: the public "thinking" placeholder is
    removed, so the next followup is a new message and may be ephemeral (the first followup after a
    deferral would fill the placeholder, in public)."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()
    await followup(interaction, text)
