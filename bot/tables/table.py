"""One game in one channel: owns its record (``ledger``), the lock, the seats, the AI and the pace.

Every change is checked, stored, then applied (``Ledger.commit``), then announced: a decision that
could not be stored is never applied, and an engine that fails on an action it accepted ends its
game as ``BROKEN``.

What the table does not do: it shows the game through its ``Place`` (``bot.discord_io.place``) and
its ``Prompts``; its presenter sees only a ``TableView``; and it never closes itself. A game that is
over, whose channel is gone, whose engine broke or whose lease was lost is *signalled* through
``on_end(table, why)``, which whoever made the table (the registry) set.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n, logs
from bot.discord_io.outgoing import Outgoing
from bot.discord_io.place import Place
from bot.games.base import Action, Decision, Event, Game, IllegalAction
from bot.i18n import N_, Language, _, speaking
from bot.storage import LeaseLost, StaleAction, StorageError
from bot.tables import answers, clock, custom_ids, permission_notes, viewing
from bot.tables.ai_seats import ai_action
from bot.tables.host import Host
from bot.tables.ledger import EngineFailed, Ledger
from bot.tables.outcome import BLOCKED, BROKEN, GONE, LOST, OVER, Outcome
from bot.tables.presenter import Presenter
from bot.tables.prompts import Prompts
from bot.tables.seats import AI_SUFFIX, Seat
from bot.tables.steps import Steps
from bot.tables.view import TableView
from bot.tables.voice import Voice

if TYPE_CHECKING:
    from bot.games.catalog import Entry

log = logging.getLogger(__name__)

# A table whose step meets a log that moved on without it (``StaleAction``) reads the game again and
# carries on; this many times in a row and it lets the game go instead (never retries forever).
STALE_CATCH_UPS = 3

__all__ = ["BLOCKED", "BROKEN", "GONE", "LOST", "OVER", "EngineFailed", "Outcome", "Table"]


class Table:
    def __init__(
        self,
        host: Host,
        entry: Entry,
        presenter: Presenter,
        place: Place,
        *,
        game_id: int,
        guild_id: int,
        host_id: int,
        seed: int,
        seats: list[Seat],
        settings: dict[str, Any],
        meta: dict[str, Any] | None = None,
        token: str | None = None,
    ) -> None:
        self.host, self.entry, self.presenter, self.place = host, entry, presenter, place
        self.token = (
            token  # what its buttons carry besides its id (bot.tables.custom_ids); None: made before tokens
        )
        place.on_gone = lambda: self.end(GONE)
        self.game_id, self.guild_id, self.channel_id = game_id, guild_id, place.channel_id
        self.host_id, self.seed, self.seats, self.settings = host_id, seed, seats, settings
        self.meta: dict[str, Any] = meta or {}
        self.ledger = Ledger(host, entry, game_id, seed)
        self.prompts = Prompts(presenter, host.timing, self.meta.get("deadline"))
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.voice = Voice(place, game_id, self.meta, self)
        self.on_end: Callable[[Table, str], None] | None = None  # set by whoever made the table
        # Told after each published batch, never waited on (the spectator bets settle aside).
        self.after_publish: Callable[[Table], None] | None = None
        self.steps = Steps()  # the pace of the table's own steps
        self._storage_warned = False
        self._behind = False  # a click found the stored log ahead of this table: catch up first
        permission_notes.wire(self)  # a channel that refuses the bot pauses the game (bot.discord_io.pause)

    # --- the record and who is who ---------------------------------------------------------

    @property
    def engine(self) -> Game | None:
        return self.ledger.engine

    @property
    def seq(self) -> int:
        return self.ledger.seq

    @property
    def acted(self) -> list[int]:
        return self.ledger.acted

    @property
    def settled(self) -> bool:
        return self.ledger.settled

    @property
    def pace(self) -> float:
        pace = float(self.settings.get("pace", self.host.timing.default_pace))
        if self.seats and all(seat.is_ai for seat in self.seats):  # nobody to wait for: a least pace
            return max(pace, self.host.timing.ai_only_pace)  # (issue 26, point 10; bot.tables.timing)
        return pace

    @property
    def thread_id(self) -> int | None:
        return self.place.thread_id

    @property
    def deadline(self) -> float | None:
        return self.prompts.deadline

    @property
    def language(self) -> Language:
        """The server's language: every public message of the table is in it."""
        return self.host.languages.server(self.guild_id)

    def seat_language(self, seat: int) -> Language:
        """A player's own language, for their DMs: their Discord client's, else the server's."""
        return self.host.languages.person(self.seats[seat].user_id, self.guild_id)

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, seat in enumerate(self.seats) if seat.user_id == user_id), None)

    def view(self, audience: int | None = None) -> TableView:
        """What ``audience`` may see (None: the channel; else one seat): all a presenter is handed."""
        ledger, pending = self.ledger, self.pending()
        return TableView.of(
            game_id=self.game_id,
            audience=audience,
            seq=self.seq,
            pace=self.pace,
            deadline=self.deadline,
            settled=self.settled,
            settings=self.settings,
            seats=self.seats,
            acted=self.acted,
            pending=pending,
            waiting=self.human_pending(pending),
            private=self.is_private,
            read_state=(lambda: ledger.view(audience)) if self.engine is not None else dict,
        )

    def is_private(self, decision: Decision) -> bool:
        """Taken in a DM (or the ephemeral "My hand" answer), as the game's catalog entry says."""
        return decision.kind in self.entry.private

    def is_automatic(self, decision: Decision) -> bool:
        """A seat's decision the table takes by itself (a roll, in a game set to roll for everyone)."""
        return decision.player is not None and self.entry.is_automatic(self.settings, decision)

    def pending(self) -> list[Decision]:
        """Every decision due now, the table's own steps and the AI's included."""
        return self.engine.pending() if self.engine is not None else []

    def human_pending(self, pending: list[Decision] | None = None) -> list[Decision]:
        return [
            d
            for d in (self.pending() if pending is None else pending)
            if d.player is not None and not self.seats[d.player].is_ai and not self.is_automatic(d)
        ]

    # --- starting and stopping ---------------------------------------------------------

    def start_engine(self, actions: list[dict[str, Any]] | None = None) -> None:
        self.ledger.start(len(self.seats), self.settings, actions)

    def run(self) -> None:
        if self.task is None or self.task.done():
            with logs.about_game(self.game_id, self.guild_id):  # its lines name the game (bot.logs)
                self.task = asyncio.create_task(self._drive(), name=f"table-{self.game_id}")

    async def stop(self) -> None:
        self.closed = True
        self.place.stop()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def end(self, why: str) -> None:
        """Signal that this table is done (``OVER``, ``GONE``, ``BROKEN``, ``LOST``, ``BLOCKED``): its
        owner closes it."""
        if why != OVER:
            self.closed = True  # no more steps or clicks meanwhile
        if self.on_end is not None:
            self.on_end(self, why)

    # --- the loop that moves the game on --------------------------------------

    async def _drive(self) -> None:
        log.debug("Driving %s game %d", self.entry.kind, self.game_id)
        failures = stale = 0
        while not self.closed:
            try:
                if self._behind:
                    self._behind = False
                    raise StaleAction(f"A click on game {self.game_id} found its stored log ahead.")
                finished = await self._step()
            except LeaseLost:  # another process drives this game now (bot/tables/lease.py)
                self.end(LOST)
                return
            except StaleAction:
                # The stored log moved on without this table (a move stored by a process that had the
                # game before) or the game ended elsewhere: retrying the same step would fail forever.
                stale += 1
                caught_up = stale <= STALE_CATCH_UPS and await self._catch_up()
                if caught_up is None:  # the game could not be read now: try again after a pause
                    await asyncio.sleep(self.host.timing.storage_retry_seconds)
                    continue
                if not caught_up:
                    log.warning(
                        "Game %s: its stored log moved on without this table; letting it go", self.game_id
                    )
                    self.end(LOST)  # forgotten here; on a shared database the lease keeper resumes it
                    return
                continue
            except StorageError:  # nothing was applied: the engine only moves on once its action is stored
                log.exception("Game %s could not store its next step; retrying", self.game_id)
                if not self._storage_warned:
                    self._storage_warned = True
                    await self.say(N_("⚠️ I can't save the game right now; it will carry on once I can."))
                await asyncio.sleep(self.host.timing.storage_retry_seconds)
                continue
            except Exception:
                # Anything else (a network error that outlived its retries, a presenter's bug): nothing
                # half-applied survives it, so the table carries on after a pause that grows.
                failures += 1
                log.exception("Game %s hit an error (%d in a row); carrying on", self.game_id, failures)
                await asyncio.sleep(min(60.0, self.host.timing.send_retry_seconds * 2**failures))
                continue
            failures, stale, self._storage_warned = 0, 0, False
            if finished:
                return

    async def _catch_up(self) -> bool | None:
        """Read the game again and carry on from its stored log (seats and actions): True if it goes on
        here, False if it cannot (ended or closed elsewhere, gone, unreadable), None if the storage
        could not be read just now."""
        try:
            stored = await self.host.storage.load_game(self.game_id)
        except StorageError:
            log.exception("Game %s could not be read again to catch up with its log", self.game_id)
            return None
        if stored is None or stored.status != "running":
            return False
        async with self.lock:
            try:
                self.seats = [Seat.from_json(seat) for seat in stored.seats]
                self.start_engine(stored.actions)
            except Exception:
                log.exception("Game %s could not be replayed from its stored log", self.game_id)
                return False
        log.warning("Game %s caught up with its stored log (%d actions)", self.game_id, self.seq)
        return True

    async def _step(self) -> bool:
        """Move the game on by one automatic step, one round of AI choices, or one wait for people."""
        if self.place.pause.paused:  # a permission was taken away: no step until it is back
            await self.place.pause.until_back()
            return False
        self.wake.clear()
        assert self.engine is not None
        await self.host.languages.refresh(self.guild_id)  # read again now and then: /config may change it
        i18n.use(self.language)  # the table's own loop speaks in public
        if self.engine.is_over:
            async with self.lock:
                await self._finish()
            return True
        pending = self.engine.pending()
        timed = [d for d in pending if d.player is None and d.not_before is not None]
        due = [d for d in timed if d.not_before is not None and d.not_before <= clock.now()]
        if due:  # a timed table step whose time has come (a game that ends on the clock)
            async with self.lock:
                if self._still_pending(due[0]):
                    await self._commit_and_announce(Action(None, due[0].kind, due[0].options[0]))
            return False
        automatic = [
            d for d in pending if (d.player is None and d.not_before is None) or self.is_automatic(d)
        ]
        if automatic:
            await self._automatic(automatic[0])
            return False
        ai = [d for d in pending if d.player is not None and self.seats[d.player].is_ai]
        if ai:
            wait = max(self.entry.ai_wait(self.ledger.view(None), d, self.pace) for d in ai)
            if wait > 0:  # the game's pace for AI seats (outside the lock: clicks stay answered)
                await asyncio.sleep(wait)
            for decision in ai:
                if not await self._ai_turn(decision):
                    break  # something moved meanwhile: the next step looks again
            return False
        async with self.lock:
            await self.show_prompts()
        times = [t for t in [self.deadline, *(d.not_before for d in timed)] if t is not None]
        # Paused (the bot cannot post where it plays): nobody's time runs; the pause's end moves the
        # deadline on by its length and wakes this loop (``permission_notes.back``).
        paused = self.place.pause.paused
        timeout = None if not times or paused else max(0.0, min(times) - clock.now())
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            if self.deadline is not None and clock.now() >= self.deadline and not self.place.pause.paused:
                seq, late = self.seq, await self._late_actions()  # outside the lock (the AI's worker)
                async with self.lock:
                    # Looked at again: a pause while the lock was held moves the deadline on (and one
                    # still on stops the clock); a move meanwhile makes the plan stale (made again on
                    # the next pass, at once).
                    if (
                        self.deadline is not None
                        and clock.now() >= self.deadline
                        and self.seq == seq
                        and not self.place.pause.paused
                    ):
                        await self._expire(late)
        return False

    async def _automatic(self, step: Decision) -> None:
        """The table's own step at the game's pace. Ruling: the pace is the time from one card to the
        next, so the time the last one took to announce (its odds and picture) is part of it."""
        assert self.engine is not None
        pause = self.entry.step_pause(
            self.ledger.view(None), step, self.pace, self.host.timing.countdown_seconds
        )
        await asyncio.sleep(self.steps.left_of(pause, self.seq))
        async with self.lock:
            if self._still_pending(step):
                with self.steps.timing(lambda: self.seq):
                    await self._commit_and_announce(Action(step.player, step.kind, step.options[0]))

    def _still_pending(self, decision: Decision) -> bool:
        return any(d.player == decision.player and d.kind == decision.kind for d in self.pending())

    async def _ai_action(self, decision: Decision, level: str) -> Action:
        """The AI's action, from a worker (``bot.tables.ai_seats``). Never called with the lock held:
        a hung worker waits ``AI_TIMEOUT`` at most, and nothing else at the table waits with it."""
        assert self.engine is not None
        return await ai_action(self.entry, self.engine, self.seed, self.seq, decision, level)

    async def _ai_turn(self, decision: Decision) -> bool:
        """An AI seat's decision: computed outside the lock, committed under it if the game has not
        moved meanwhile (same step, still pending). False: it moved, and the choice was dropped."""
        seq, level = self.seq, self.seats[decision.player or 0].ai or "normal"
        if not self._still_pending(decision):
            return True
        action = await self._ai_action(decision, level)
        async with self.lock:
            if self.closed or self.seq != seq or not self._still_pending(decision):
                return False
            await self._commit_and_announce(action)
        return True

    async def _late_actions(self) -> dict[tuple[int, str], Action]:
        """What is played for each person late at the deadline: the game's own answer to lateness, else
        the AI's (computed outside the lock; ``_expire`` uses it if nothing moved meanwhile)."""
        actions: dict[tuple[int, str], Action] = {}
        for decision in self.human_pending():
            if decision.player is None:
                continue
            late = self.entry.late_choice(decision)
            actions[decision.player, decision.kind] = (
                Action(decision.player, decision.kind, late)
                if late is not None
                else await self._ai_action(decision, "normal")
            )
        return actions

    async def _expire(self, late: dict[tuple[int, str], Action]) -> None:
        """The deadline passed: the AI decides for everyone who is late (``late``: their actions,
        planned on this very step), and the channel hears who.

        Only decisions that were stored are announced: if storing fails, the deadline stays (it has
        passed, so the next try comes as soon as the storage is back) and the error goes to the loop.
        """
        stored: list[tuple[int, list[Event]]] = []
        failure: StorageError | None = None
        for decision in self.human_pending():
            if not self._still_pending(decision) or decision.player is None:
                continue
            action = late.get((decision.player, decision.kind))
            if action is None:
                continue
            try:
                stored.append((decision.player, await self.commit(action)))
            except StorageError as error:
                failure = error
                break
        if failure is None:
            self.prompts.deadline = None  # before announcing: the next decisions get a deadline of their own
        if stored:
            names = ", ".join(sorted({self.seats[seat].shown for seat, _events in stored}))
            await self.say(N_("⏰ Time's up for {names}: the AI decided for them."), names=names)
            for _seat, events in stored:
                await self.publish(events)
        if failure is not None:
            raise failure

    # --- applying and announcing ------------------------------------------------------

    async def commit(self, action: Action) -> list[Event]:
        """``Ledger.commit``; an engine that failed ends the game (``BROKEN``) before the error goes on."""
        try:
            return await self.ledger.commit(action)
        except EngineFailed:
            self.end(BROKEN)
            raise

    async def _commit_and_announce(self, action: Action) -> None:
        await self.publish(await self.commit(action))

    async def publish(self, events: list[Event]) -> None:
        """Announce a batch: split by viewer first, so no presenter holds what its audience may not see."""
        if self.engine is not None and self.engine.is_over and not self.settled:
            await self.ledger.settle(
                self.seats
            )  # results are stored before the final standings are shown (settled says if)
        parts = viewing.split(events, len(self.seats))
        with speaking(self.language):
            public = await self.presenter.announce(self.view(), parts.public)
        for out in public:
            out.seat = None
            message = await self.send(out)
            if out.later is not None:
                self.place.follow(message, out)  # the results are out; their replay follows
        if public and self.thread_id and self.engine is not None and self.engine.is_over:
            # Ruling: the game's last word (its final standings) is also posted in the channel it was opened in.
            await self.place.send_home(dataclasses.replace(public[-1], image=None))
        for seat, own in sorted(parts.private.items()):
            with speaking(self.seat_language(seat)):
                told = self.presenter.tell(self.view(seat), own)
            for out in told:
                await self.dm(seat, out)
        if self.after_publish is not None:
            self.after_publish(self)
        await self.show_prompts()

    async def show_prompts(self) -> None:
        if self.engine is None or self.closed:
            return
        await self.prompts.show(self)
        if self.meta.get("deadline") != self.deadline:
            self.meta["deadline"] = self.deadline
            with contextlib.suppress(StorageError):
                await self.host.storage.update_game(self.game_id, meta=self.meta)

    async def _finish(self) -> None:
        """The game is over and its ending was posted (``publish`` of its last batch)."""
        if self.closed:
            return
        self.closed = True
        if self.settled:
            await self.ledger.mark_announced()  # first: a kill from here on does not post it twice
        await self.prompts.retire(self)
        if not self.settled:
            await self.ledger.settle(self.seats, announced=True)  # its final standings are out
        # The owner forgets the table once both are stored; until then it keeps it (closed: neither
        # driven nor resumed, its lease kept) and keeps trying (``bot.tables.endings``).
        self.end(OVER)
        await self.place.finish_drawing()  # the last race's replay is added before the table goes

    # --- what people ask of the table ------------------------------------------------

    def check_click(self, user_id: int, click: custom_ids.Decide) -> Outcome | None:
        """A decision click refused at once, without waiting for the lock; None if it may go on."""
        if click.token != self.token:  # another game's button with this one's number (custom_ids)
            return Outcome(answers.NOT_THIS_GAME)
        mine = self.seat_of(user_id)
        if mine is None:
            return Outcome(answers.NOT_PLAYING)
        if self.place.pause.paused:
            return Outcome(answers.PAUSED)
        if self.engine is None:
            return Outcome(answers.NOT_STARTED)
        if not 0 <= click.seat < len(self.seats):
            return Outcome(answers.UNREADABLE)
        if mine != click.seat:
            return Outcome(_("That's for {name}, not you.", name=self.seats[click.seat].shown))
        pending = any(d.player == click.seat and d.kind == click.kind for d in self.human_pending())
        if click.n != self.acted[click.seat] or not pending:
            return Outcome(answers.STALE)
        if click.index is None and not click.legacy:
            return Outcome(answers.PICK_FIRST)
        return None

    async def decide(
        self, user_id: int, click: custom_ids.Decide, told: Callable[[Outcome], Awaitable[None]]
    ) -> Outcome:
        """A person's decision: checked against the clicker, the step and the options, stored, then
        announced. ``told`` hears the outcome before the game's announcements (which may take the
        game's pace), so the clicker's confirmation never waits for them."""
        async with self.lock:
            refused = self.check_click(user_id, click)
            outcome, events = (refused, []) if refused else await self._apply_click(click)
            try:
                await told(outcome)
            except Exception:  # the clicker's answer failing must not keep the game from going on
                log.exception("Could not answer a click on game %s", self.game_id)
            if outcome.applied:
                await self.publish(events)
        self.wake.set()
        return outcome

    async def _apply_click(self, click: custom_ids.Decide) -> tuple[Outcome, list[Event]]:
        decision = self.engine.decision_for(click.seat, click.kind) if self.engine else None
        choice = custom_ids.chosen(decision, click) if decision is not None else custom_ids.NOT_AN_OPTION
        if self.closed or decision is None or choice is custom_ids.NOT_AN_OPTION:
            return Outcome(answers.STALE), []
        try:
            events = await self.commit(Action(click.seat, click.kind, choice))
        except IllegalAction as error:
            return Outcome(_("Not allowed: {reason}", reason=error)), []
        except StaleAction:
            self._behind = True  # the loop reads the game again before its next step
            return Outcome(answers.STALE), []
        except LeaseLost:
            self.end(LOST)  # another process drives the game now; it shows the prompts again
            return Outcome(answers.SAVE_FAILED), []
        except StorageError:
            log.exception("Could not store an action of game %s", self.game_id)
            return Outcome(answers.SAVE_FAILED), []
        except EngineFailed:
            return Outcome(answers.GAME_BROKE), []
        label = self.presenter.choice_label(self.view(click.seat), decision, choice)
        self.prompts.clicked = click.seat  # a private decision that follows, in the same wait, is shown
        # where they clicked (``bot.tables.clicks``)
        return Outcome(label, applied=True), events

    async def replace_with_ai(self, user_id: int) -> Outcome:
        """A person leaves a running game: an AI plays their seat from now on (their result stays
        theirs, ``Seat.owner_id``), and the channel is told."""
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None or self.closed:
                return Outcome(N_("You're no longer in this game."))
            old = self.seats[seat]
            seats = list(self.seats)
            seats[seat] = Seat(name=f"{old.name}{AI_SUFFIX}", ai="normal", left_user_id=old.user_id)
            try:
                await self.host.storage.update_game(self.game_id, seats=[s.to_json() for s in seats])
            except StorageError:
                return Outcome(answers.SAVE_FAILED)
            self.seats = seats
        await self.say(N_("👋 {player} left; an AI plays their seat from now on."), player=old.mention())
        self.wake.set()
        return Outcome(N_("You left the game; an AI plays your seat from now on."), applied=True)

    # --- talking (``voice``) --------------------------------------------------------------

    async def say(
        self, message: str, /, *, ping: tuple[int, ...] = (), **values: Any
    ) -> discord.Message | None:
        return await self.voice.say(message, ping=ping, **values)

    async def send(self, out: Outgoing) -> discord.Message | None:
        return await self.voice.send(out)

    async def dm(self, seat: int, out: Outgoing) -> discord.Message | None:
        return await self.voice.dm(seat, out)
