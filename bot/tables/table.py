"""One game in one channel: owns the engine, the lock, the deadlines, the AI, the pace and the messages.

The order of every change is: check the action against the engine (which changes nothing), store
it (committed), then apply it and announce. So a decision that could not be stored is never applied,
and one that was stored is replayed exactly after a restart. An engine that fails while applying an
action it accepted cannot go on (its stored log would fail the same way after a restart): its game is
closed and the channel told (``EngineFailed``).

The table knows games only through the engine surface and the game's catalog entry; its
presenter is asked for words and pictures, and is handed only what its audience may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n, workers
from bot.games.base import Action, Decision, Event, Game, SeatResult
from bot.i18n import N_, Language, _, _n, speaking
from bot.i18n.formatting import number
from bot.storage import LeaseLost, PlayerResult, StakeRecord, StorageError
from bot.tables import custom_ids, later, threads, viewing
from bot.tables.components import add_controls, button
from bot.tables.delivery import TRANSIENT, deliver, is_gone, new_run, nonce
from bot.tables.presenter import Outgoing, Presenter
from bot.tables.seats import Seat

if TYPE_CHECKING:
    from bot.games.catalog import Entry
    from bot.tables.host import Host

log = logging.getLogger(__name__)

# Marked constants: ``reply`` and ``followup`` translate them; elsewhere show them with ``_()``.
SAVE_FAILED = N_("I couldn't save that, so it was not applied. Please try again in a moment.")
CANCEL_UNSAVED = N_("I couldn't save the cancellation, so the game goes on. Please try again in a moment.")
STALE = N_("That was already decided: this button is from an earlier step.")
UNREADABLE = N_("I couldn't read this button; it may be from an older version of the bot.")
ENGINE_FAILED = N_(
    "🛑 {game} game #{number} hit an error in its rules and was closed. No results were recorded."
)


class EngineFailed(Exception):
    """The engine raised while applying an action it had accepted and that is now stored."""


def now() -> float:
    """The table's clock (deadlines, timed steps); tests move it forward instead of waiting."""
    return time.time()


class Table:
    def __init__(
        self,
        bot: Host,
        entry: Entry,
        presenter: Presenter,
        *,
        game_id: int,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seed: int,
        seats: list[Seat],
        settings: dict[str, Any],
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.bot = bot
        self.entry = entry
        self.presenter = presenter
        self.game_id = game_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.host_id = host_id
        self.seed = seed
        self.seats = seats
        self.settings = settings
        self.meta: dict[str, Any] = meta or {}
        self.engine: Game | None = None
        self.seq = 0
        self.acted: list[int] = []
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.deadline: float | None = self.meta.get("deadline")
        self._deadline_for: frozenset[tuple[int, str]] = frozenset()
        self._prompt_key: str | None = None
        self._prompt_message: discord.Message | None = None
        self._prompt_shown: object = None
        self._dm_sent: set[tuple[int, int, str]] = set()
        self.dm_closed: set[int] = set(self.meta.get("dm_closed", []))
        self.last_events: list[Event] = []  # what the last replayed action caused (see Tables._resume)
        self._thread: discord.abc.Messageable | None = None  # the thread, kept while the cache drops it
        self.notes: dict[str, Any] = {}  # the presenter's scratch pad (running log lines...), not stored
        self.posts = 0  # channel posts and DMs so far in this run: each one's nonce
        self.run_id = new_run()  # this table's run (a restart makes a new Table): part of each nonce
        self.gone = False  # the channel is gone for good (see channel_gone)
        self.settled = False  # the results are stored (presenters say "Results saved" only then)
        self._users: dict[int, discord.User] = {}  # players fetched for DMs, once per game
        self.drawing: set[asyncio.Task[None]] = set()  # replays being drawn for messages already out
        self._stepped: tuple[int, float] | None = None  # (seq after, loop time) of the last automatic step

    # --- who is who ---------------------------------------------------------

    @property
    def pace(self) -> float:
        return float(self.settings.get("pace", self.bot.timing.default_pace))

    @property
    def thread_id(self) -> int | None:
        """The thread the game plays in (``bot.tables.threads``), or None when it plays in its channel."""
        value = self.meta.get("thread_id")
        return int(value) if value else None

    @property
    def place_id(self) -> int:
        """Where the game's messages go: its thread, else its channel."""
        return self.thread_id or self.channel_id

    @property
    def channel(self) -> discord.abc.Messageable | None:
        """Where the game plays (its thread, or its channel); None if it is not in the cache."""
        channel = self.bot.get_channel(self.place_id) or (self._thread if self.thread_id else None)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    @property
    def home(self) -> discord.abc.Messageable | None:
        """The channel the game was opened in (its lobby, its thread's link, its final standings)."""
        channel = self.bot.get_channel(self.channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    def use_thread(self, thread: discord.Thread) -> None:
        self.meta["thread_id"] = thread.id
        self._thread = thread

    # --- who reads what, in which language (bot.i18n) ---------------------------

    @property
    def language(self) -> Language:
        """The server's language: every public message of the table is in it."""
        return self.bot.languages.server(self.guild_id)

    def seat_language(self, seat: int) -> Language:
        """A player's own language, for their DMs: their Discord client's, else the server's."""
        return self.bot.languages.person(self.seats[seat].user_id, self.guild_id)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def deadline_mark(self) -> str:
        """The deadline as a Discord relative timestamp ("in 2 minutes"), which each reader sees live."""
        return f"<t:{int(self.deadline)}:R>" if self.deadline else _("soon")

    def is_manager(self, member: discord.abc.User) -> bool:
        perms = getattr(member, "guild_permissions", None)
        return member.id == self.host_id or bool(perms and perms.manage_guild)

    def public_view(self) -> dict[str, Any]:
        assert self.engine is not None
        return self.engine.view(None)

    def seat_view(self, seat: int) -> dict[str, Any]:
        assert self.engine is not None
        return self.engine.view(seat)

    def pending_for(self, seat: int, kind: str | None = None) -> Decision | None:
        """What ``seat`` must decide now (a presenter shows its options), if anything."""
        return self.engine.decision_for(seat, kind) if self.engine is not None else None

    def is_private(self, decision: Decision) -> bool:
        """Taken in a DM (or the ephemeral "My hand" answer), as the game's catalog entry says."""
        return decision.kind in self.entry.private

    def is_automatic(self, decision: Decision) -> bool:
        return decision.player is not None and self.entry.is_automatic(self.settings, decision)

    def pending(self) -> list[Decision]:
        """Every decision due now, the table's own steps and the AI's included."""
        return self.engine.pending() if self.engine is not None else []

    def human_pending(self) -> list[Decision]:
        if self.engine is None:
            return []
        return [
            d
            for d in self.engine.pending()
            if d.player is not None and not self.seats[d.player].is_ai and not self.is_automatic(d)
        ]

    # --- starting, replaying, stopping ---------------------------------------

    def adopt_stored_deadline(self) -> None:
        """After a restart, the stored deadline still applies to what is pending now."""
        self._deadline_for = frozenset(
            (d.player, d.kind) for d in self.human_pending() if d.player is not None
        )

    def grace_after_downtime(self) -> str | None:
        """A deadline that passed while the bot was down would make the AI play at once: the late
        players get a short grace instead, and the channel is told (the text is returned)."""
        grace = self.bot.timing.resume_grace_seconds
        late = self.human_pending()
        if self.deadline is None or self.deadline > now() or not late:
            return None
        self.deadline = now() + grace
        with speaking(self.language):
            names = ", ".join(sorted({self.seats[d.player].shown for d in late if d.player is not None}))
            return _n(
                "⏳ The deadline passed while I was away: {names}, you get {seconds} more second "
                "(until {deadline}).",
                "⏳ The deadline passed while I was away: {names}, you get {seconds} more seconds "
                "(until {deadline}).",
                1 if grace == 1 else 2,  # 1.5 seconds: a plural in both languages
                names=names,
                seconds=number(grace),
                deadline=self.deadline_mark(),
            )

    def start_engine(self, actions: list[dict[str, Any]] | None = None) -> None:
        """Build the engine from the seed and replay the stored actions (the game's whole history)."""
        engine = self.entry.new_engine(
            len(self.seats), self.seed, self.entry.stored_engine_settings(self.settings)
        )
        self.acted = [0] * len(self.seats)
        self.last_events = []
        for raw in actions or []:
            action = Action.from_json(raw)
            self.last_events = engine.apply(action)
            if action.player is not None:
                self.acted[action.player] += 1
        self.engine = engine
        self.seq = len(actions or [])

    def run(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drive(), name=f"table-{self.game_id}")
            self.task.add_done_callback(self._driver_done)

    def _driver_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("Game %s stopped on an error", self.game_id, exc_info=task.exception())

    async def stop(self) -> None:
        self.closed = True
        for task in list(self.drawing):
            task.cancel()  # a replay still being drawn is skipped (bot.tables.later)
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    # --- the loop that moves the game on --------------------------------------

    async def _drive(self) -> None:
        failures = 0
        while not self.closed:
            try:
                finished = await self._step()
            except LeaseLost:  # another process drives this game now (bot/tables/lease.py)
                await self.bot.leases.lost(self)
                return
            except StorageError:
                # Nothing was applied: the engine only moves on once its action is stored.
                log.exception("Game %s could not store its next step; retrying", self.game_id)
                if not self.notes.get("storage_warned"):
                    self.notes["storage_warned"] = True
                    await self.say(N_("⚠️ I can't save the game right now; it will carry on once I can."))
                await asyncio.sleep(self.bot.timing.storage_retry_seconds)
                continue
            except Exception:
                # Anything else (a network error that outlived its retries, a presenter's bug): nothing
                # half-applied survives it (an action is stored before it is applied), so the table
                # carries on from the engine's state after a pause that grows, rather than dying.
                failures += 1
                log.exception("Game %s hit an error (%d in a row); carrying on", self.game_id, failures)
                await asyncio.sleep(min(60.0, self.bot.timing.send_retry_seconds * 2**failures))
                continue
            failures = 0
            self.notes.pop("storage_warned", None)
            if finished:
                return

    async def _step(self) -> bool:
        """Move the game on by one automatic step, one round of AI choices, or one wait for people."""
        self.wake.clear()
        assert self.engine is not None
        await self.bot.languages.refresh(self.guild_id)  # read again now and then: /config may change it
        i18n.use(self.language)  # the table's own loop speaks in public
        if self.engine.is_over:
            async with self.lock:
                await self._finish()
            return True
        pending = self.engine.pending()
        timed = [d for d in pending if d.player is None and d.not_before is not None]
        due = [d for d in timed if d.not_before is not None and d.not_before <= now()]
        if due:  # a timed table step whose time has come (a game that ends on the clock)
            async with self.lock:
                if self._still_pending(due[0]):
                    await self._commit_and_announce(Action(None, due[0].kind, due[0].options[0]))
            return False
        automatic = [
            d for d in pending if (d.player is None and d.not_before is None) or self.is_automatic(d)
        ]
        if automatic:
            step = automatic[0]
            pause = self.entry.step_pause(
                self.public_view(), step, self.pace, self.bot.timing.countdown_seconds
            )
            loop = asyncio.get_running_loop()
            if self._stepped is not None and self._stepped[0] == self.seq:
                # Ruling: the pace is the time from one card to the next, so the time the last one took
                # to announce (its odds and picture) is part of it, not added to it (issue 15).
                pause -= loop.time() - self._stepped[1]
            await asyncio.sleep(max(0.0, pause))
            async with self.lock:
                if self._still_pending(step):
                    started = loop.time()
                    await self._commit_and_announce(Action(step.player, step.kind, step.options[0]))
                    self._stepped = (self.seq, started)
            return False
        ai = [d for d in pending if d.player is not None and self.seats[d.player].is_ai]
        if ai:
            view = self.public_view()
            wait = max(self.entry.ai_wait(view, d, self.pace) for d in ai)
            if wait > 0:  # the game's pace for AI seats (outside the lock: clicks stay answered)
                await asyncio.sleep(wait)
            async with self.lock:
                for decision in ai:
                    if self._still_pending(decision):
                        level = self.seats[decision.player].ai or "normal"  # type: ignore[index]
                        await self._decide_for(decision, level)
            return False
        async with self.lock:
            await self.refresh_prompts()
        times = [t for t in [self.deadline, *(d.not_before for d in timed)] if t is not None]
        timeout = None if not times else max(0.0, min(times) - now())
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            if self.deadline is not None and now() >= self.deadline:
                async with self.lock:
                    await self._expire()
        return False

    def _still_pending(self, decision: Decision) -> bool:
        assert self.engine is not None
        return any(d.player == decision.player and d.kind == decision.kind for d in self.engine.pending())

    async def _decide_for(self, decision: Decision, level: str) -> None:
        await self._commit_and_announce(await self._ai_action(decision, level))

    async def _ai_action(self, decision: Decision, level: str) -> Action:
        assert decision.player is not None
        rng = random.Random(f"{self.seed}:{self.seq}:{decision.player}")
        # An AI look-ahead takes ~0.1 s of CPU: in a worker process (bot.workers), so clicks stay answered.
        view, effort = self.seat_view(decision.player), workers.ai_effort()
        choice = await workers.run(self.entry.choose, view, decision, level, rng, effort, lane=workers.AI)
        return Action(decision.player, decision.kind, choice)

    async def _expire(self) -> None:
        """The deadline passed: the AI decides for everyone who is late, and the channel hears who.

        Only decisions that were stored are announced: if storing fails, the deadline stays (it has
        passed, so the next try comes as soon as the storage is back) and the error goes to the loop.
        """
        late = self.human_pending()
        if not late:
            self.deadline = None
            return
        stored: list[tuple[int, list[Event]]] = []
        failure: StorageError | None = None
        for decision in late:
            if not self._still_pending(decision):
                continue
            assert decision.player is not None
            try:
                stored.append((decision.player, await self.commit(await self._ai_action(decision, "normal"))))
            except StorageError as error:
                failure = error
                break
        if failure is None:
            self.deadline = None  # before announcing: the next decisions get a deadline of their own
        if stored:
            with speaking(self.language):
                names = ", ".join(sorted({self.seats[seat].shown for seat, _events in stored}))
                late_note = Outgoing(
                    content=_("⏰ Time's up for {names}: the AI decided for them.", names=names)
                )
            await self.send(late_note)
            for _seat, events in stored:
                await self.publish(events)
        if failure is not None:
            raise failure

    # --- applying one action -----------------------------------------------

    async def commit(self, action: Action) -> list[Event]:
        """Check, store, then apply. Raises IllegalAction or StorageError and changes nothing, or
        EngineFailed (the game is being closed).

        No copy of the engine is made: at 500 games copying every game for every action was the
        event loop's largest cost (issue 15), and ``check`` changes nothing.
        """
        assert self.engine is not None
        decision = self.engine.check(action)
        await self.bot.storage.append_action(self.game_id, self.seq, action.to_json())
        try:
            events = self.engine.apply_checked(action, decision)
        except Exception as error:
            self.engine_failed(action)
            raise EngineFailed(f"game {self.game_id} failed on its action {self.seq}") from error
        self.seq += 1
        if action.player is not None:
            self.acted[action.player] += 1
        return events

    def engine_failed(self, action: Action) -> None:
        """The engine broke on an action it accepted (a bug): it may be half-changed and would fail the
        same way when replayed, so the game is closed and its channel told, in a task of its own
        (closing stops this table's loop, which may be the caller)."""
        log.error("Game %s: the engine failed on %r; closing the game", self.game_id, action)
        self.closed = True  # no more steps or clicks on a half-changed engine meanwhile
        self._close_aside(self.bot.tables.broken(self), "broken")

    async def _commit_and_announce(self, action: Action) -> None:
        events = await self.commit(action)
        await self.publish(events)

    async def publish(self, events: list[Event]) -> None:
        """Announce a batch: split by viewer first, so the presenter never holds what its audience may not see."""
        if self.engine is not None and self.engine.is_over and not self.settled:
            await self.settle()  # results are stored before the final standings are shown (settled says if)
        parts = viewing.split(events, len(self.seats))
        with speaking(self.language):
            public = await self.presenter.announce(self, parts.public)
        for out in public:
            out.seat = None
            message = await self.send(out)
            if out.later is not None:
                later.attach(self, message, out)  # the results are out; their replay follows
        if public and self.thread_id and self.engine is not None and self.engine.is_over:
            # Ruling: the game's last word (its final standings) is also posted in the channel it was opened in.
            await self.send_home(dataclasses.replace(public[-1], image=None))
        for seat, own in sorted(parts.private.items()):
            with speaking(self.seat_language(seat)):
                told = self.presenter.tell(self, seat, own)
            for out in told:
                out.seat = seat
                await self.send(out)
        await self.refresh_prompts()

    async def _finish(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self._retire_prompt()
        if not self.settled and not await self.settle():
            self.bot.tables.settle_later(self)
        self.bot.tables.forget(self)
        await later.finish(self)  # the last race's replay, still being drawn, is added before the table goes

    async def settle(self) -> bool:
        """Write the results once (the storage refuses a second write, so calling this again is safe).

        True once they are stored. If not, the table keeps trying (``Tables.settle_later``) and the
        action log holds the whole game, so the next start writes them whatever the game's age.
        """
        try:
            await self.bot.storage.finish_game(self.game_id, self.results())
        except StorageError:
            log.exception("Could not store the results of game %s; retrying", self.game_id)
            return False
        self.settled = True
        return True

    # --- results --------------------------------------------------------------

    def results(self) -> list[PlayerResult]:
        """The engine's generic results as the rows the results table stores (one per seat)."""
        assert self.engine is not None
        return [self._result_row(r) for r in self.engine.results()]

    def _result_row(self, result: SeatResult) -> PlayerResult:
        seat = self.seats[result.seat]
        return PlayerResult(
            seat=result.seat,
            user_id=seat.owner_id,
            name=seat.owner_name,
            cash=result.cash,
            net=result.net,
            place=result.place,
            won=result.won,
            stakes=[StakeRecord(s.label, s.outcome, s.amount) for s in result.stakes],
        )

    # --- talking to Discord ------------------------------------------------------

    async def say(
        self, message: str, /, *, ping: tuple[int, ...] = (), **values: Any
    ) -> discord.Message | None:
        """A note of the table's own in its channel, in the server's language (``message`` marked with
        ``N_``, its placeholders filled from ``values``), pinging only ``ping``."""
        with speaking(self.language):
            out = Outgoing(content=_(message, **values), ping=ping)
        return await self.send(out)

    async def send(self, out: Outgoing) -> discord.Message | None:
        """Send to the channel (paced) or to one seat by DM; a closed DM is a normal case, not an error.

        A failure in transit is retried with the same nonce (so nothing is posted twice); a channel
        that is gone for good closes the game (``channel_gone``); anything else loses this one
        message (logged), never the game.
        """
        if out.seat is not None:
            return await self._send_dm(out.seat, out)
        if self.gone:
            return None
        channel = self.channel or await self._fetch_channel()
        if channel is None:
            return None
        if self.bot.outbox.takes(out):  # a race picture: it may wait, or merge into the next (global_pacer)
            await self.bot.outbox.post(self.place_id, out, self._post, wait=self.pace <= 0)
            return None
        self.bot.outbox.close(self.place_id)
        async with self.bot.pacer.turn(self.place_id):
            return await self._post(out)

    async def _post(self, out: Outgoing) -> discord.Message | None:
        """One post where the game plays (its thread or its channel), already paced by the caller
        (``send`` or the picture outbox)."""
        channel = self.channel or await self._fetch_channel()
        if channel is None:
            return None
        return await self._deliver(channel, self.place_id, out)

    async def send_home(self, out: Outgoing) -> discord.Message | None:
        """Send to the channel the game was opened in, even while it plays in a thread."""
        channel = self.home
        if channel is None:
            return None
        async with self.bot.pacer.turn(self.channel_id):
            return await self._deliver(channel, self.channel_id, out)

    async def _deliver(
        self, channel: discord.abc.Messageable, place: int, out: Outgoing
    ) -> discord.Message | None:
        """Post ``out``, retried with the same nonce (so nothing is posted twice); a place that is gone
        for good closes the game; any other failure loses this one message (logged), never the game."""
        self.posts += 1
        tag = nonce(self.game_id, self.run_id, self.posts)

        async def attempt() -> discord.Message:
            return await channel.send(nonce=tag, **self.message_kwargs(out))

        try:
            return await deliver(attempt, self.bot.timing, f"A post of game {self.game_id}")
        except (discord.HTTPException, *TRANSIENT) as error:
            if is_gone(error):
                self.channel_gone()
            else:
                log.exception("Could not post in channel %s for game %s", place, self.game_id)
            return None

    async def _fetch_channel(self) -> discord.abc.Messageable | None:
        """Where the game plays is not in the bot's cache (a thread archived or not yet seen after a
        restart; a channel deleted or hidden from the bot): ask Discord."""
        place = self.place_id
        try:
            channel = await deliver(
                lambda: self.bot.fetch_channel(place), self.bot.timing, "Finding a channel"
            )
        except (discord.HTTPException, *TRANSIENT) as error:
            if is_gone(error) or isinstance(error, discord.NotFound | discord.Forbidden):
                self.channel_gone()
            else:
                log.warning("Could not find the channel of game %s: %r", self.game_id, error)
            return None
        found = channel if isinstance(channel, discord.abc.Messageable) else None
        if self.thread_id:
            self._thread = found
        return found

    def channel_gone(self) -> None:
        """The channel (or the game's thread) was deleted or the bot lost access: close the game and
        tell the players (a thread's in its channel, ``threads.thread_gone``; a channel's by DM), in a
        task of its own: closing stops this table's loop, which may be the caller."""
        if self.gone or self.closed:
            return
        self.gone = True
        log.warning("The channel of game %s is gone; closing the game", self.game_id)
        closing = threads.thread_gone(self) if self.thread_id else self.bot.tables.abandon(self)
        self._close_aside(closing, "abandon")

    def _close_aside(self, closing: Coroutine[Any, Any, None], why: str) -> None:
        """Close the game in a task of its own: closing stops this table's loop, which may be the caller."""
        task = asyncio.create_task(closing, name=f"{why}-{self.game_id}")
        self.notes["abandon_task"] = task  # a reference, so the task is not collected while it runs

    async def _send_dm(self, seat: int, out: Outgoing) -> discord.Message | None:
        user_id = self.seats[seat].user_id
        if user_id is None or seat in self.dm_closed:
            return None
        self.posts += 1
        tag = nonce(self.game_id, self.run_id, self.posts, "d")

        async def attempt() -> discord.Message:
            # Fetched once per game (the bot has no member cache to find players in).
            user = (
                self.bot.get_user(user_id) or self._users.get(user_id) or await self.bot.fetch_user(user_id)
            )
            self._users[user_id] = user
            return await user.send(nonce=tag, **self.message_kwargs(out))

        try:
            return await deliver(attempt, self.bot.timing, f"A DM of game {self.game_id}")
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden) or getattr(error, "code", 0) == 50007:
                self.dm_closed.add(seat)
                self.meta["dm_closed"] = sorted(self.dm_closed)
                await self.say(
                    N_(
                        "📪 {player}, I can't send you direct messages. "
                        "Press **My hand** in this channel to see your cards and make your picks."
                    ),
                    player=self.seats[seat].mention(),
                    ping=(user_id,),
                )
            else:
                log.exception("Could not DM seat %s of game %s", seat, self.game_id)
            return None
        except TRANSIENT:
            log.exception("Could not DM seat %s of game %s", seat, self.game_id)
            return None

    async def refresh_prompts(self) -> None:
        """Keep the live prompt current, send secret prompts by DM, and set the deadline."""
        if self.engine is None or self.closed:
            return
        waiting = self.human_pending()
        signature = frozenset((d.player, d.kind) for d in waiting if d.player is not None)
        if not signature:
            self.deadline = None
        elif self.deadline is None or not signature <= self._deadline_for:
            # A new turn or phase gets a fresh deadline; a phase that only shrinks keeps its own.
            turn = len(signature) == 1 and not any(self.is_private(d) for d in waiting)
            timing = self.bot.timing
            self.deadline = now() + (timing.turn_seconds if turn else timing.phase_seconds)
        self._deadline_for = signature
        if self.meta.get("deadline") != self.deadline:
            self.meta["deadline"] = self.deadline
            with contextlib.suppress(StorageError):
                await self.bot.storage.update_game(self.game_id, meta=self.meta)
        with speaking(self.language):
            prompt = await self.presenter.prompt(self)
        if prompt is None:
            await self._retire_prompt()
        else:
            key, out = prompt
            # The prompt pings the people it waits for in the channel (not those deciding in a DM).
            out.ping = tuple(
                sorted(
                    {
                        uid
                        for d in waiting
                        if d.player is not None
                        and not self.is_private(d)
                        and (uid := self.seats[d.player].user_id) is not None
                    }
                )
            )
            shown = self._shown(out)
            if key == self._prompt_key and self._prompt_message is not None:
                if shown != self._prompt_shown:  # an unchanged prompt is not edited again
                    await self.edit(self._prompt_message, **self.message_kwargs(out, editing=True))
            else:
                await self._retire_prompt()
                self._prompt_message = await self.send(out)
                self._prompt_key = key
            self._prompt_shown = shown
        for decision in waiting:
            if decision.player is None or not self.is_private(decision):
                continue
            marker = (decision.player, self.acted[decision.player], decision.kind)
            if marker not in self._dm_sent:
                self._dm_sent.add(marker)
                with speaking(self.seat_language(decision.player)):
                    secret = self.presenter.private_prompt(self, decision.player, decision)
                await self._send_dm(decision.player, secret)

    def message_kwargs(self, out: Outgoing, *, editing: bool = False, page: int = 0) -> dict[str, Any]:
        """What discord.py sends for ``out``: its decision controls and "My hand" get their ids here."""
        with speaking(out.language):  # the buttons speak the language of the message they are on
            return self._message_kwargs(out, editing=editing, page=page)

    def _message_kwargs(self, out: Outgoing, *, editing: bool, page: int) -> dict[str, Any]:
        if out.controls is not None or out.hand_button or out.asks:
            view = out.view or discord.ui.View(timeout=None)
            if out.controls is not None:
                n = self.acted[out.controls.seat] if self.engine is not None else 0
                add_controls(view, self.game_id, n, out.controls, page)
            if out.hand_button:
                view.add_item(
                    button(custom_ids.hand(self.game_id), _("My hand"), emoji="🃏", row=out.hand_row)
                )
            for topic, label, emoji in out.asks:
                view.add_item(
                    button(custom_ids.ask(self.game_id, topic), label, emoji=emoji, row=out.hand_row)
                )
            out = dataclasses.replace(out, view=view, controls=None, hand_button=False, asks=())
        return message_kwargs(out, editing=editing)

    def _shown(self, out: Outgoing) -> object:
        """What a player would see of a prompt (its ids depend on who acted how often)."""
        embed = out.embed.to_dict() if out.embed is not None else None
        return (
            out.content,
            repr(embed),
            out.image,
            out.controls,
            out.hand_button,
            out.asks,
            tuple(self.acted),
        )

    async def edit(self, message: discord.Message, **changes: Any) -> None:
        """Edit one of the table's channel messages, paced like a new message (and retried like one:
        an edit sets the whole message, so doing it twice is harmless)."""
        if self.gone:
            return

        async def attempt() -> None:
            for file in changes.get("attachments") or []:
                if isinstance(file, discord.File):
                    file.reset(seek=True)  # a retried upload starts from the first byte again
            async with self.bot.pacer.turn(message.channel.id):
                await message.edit(**changes)

        try:
            await deliver(attempt, self.bot.timing, f"An edit of game {self.game_id}")
        except (discord.HTTPException, *TRANSIENT) as error:
            if is_gone(error):
                self.channel_gone()
            else:
                log.warning("Could not edit a message of game %s: %r", self.game_id, error)

    async def _retire_prompt(self) -> None:
        if self._prompt_message is not None:
            await self.edit(self._prompt_message, view=None)
        self._prompt_message = None
        self._prompt_key = None


def message_kwargs(out: Outgoing, *, editing: bool = False) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"content": out.content or None, "embed": out.embed}
    if out.ping:  # the bot's default pings nobody (bot.client.QUIET)
        kwargs["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in out.ping]
        )
    file = out.file()
    if editing:
        kwargs["attachments"] = [file] if file else []
    elif file is not None:
        kwargs["file"] = file
    kwargs["view"] = out.view
    if not editing and out.view is None:
        kwargs.pop("view")
    return kwargs


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short private answer to a click, whether or not it was acknowledged already; ``text`` may be
    a marked constant (``SAVE_FAILED``...), translated here into the clicker's language."""
    if interaction.response.is_done():
        await followup(interaction, text)
    else:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(_(text), ephemeral=True)


async def followup(interaction: discord.Interaction, text: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(_(text), ephemeral=True)
