"""What a table waits for, shown: the live prompt in the channel, the secret prompts by DM, the deadline.

The table hands its prompts the decisions it waits on (``show``); they keep one live prompt message
(edited while its key stays the same, retired when the wait is over), send each private decision's
prompt by DM once, and keep the deadline: a new turn or phase gets a fresh one, a phase that only
shrinks keeps its own. A deadline counts from when its prompt went out: when sending took long (a
busy channel, a slow DM), the deadline moves on by as long, so nobody loses time to the bot.
"""

from __future__ import annotations

from typing import Protocol

import discord

from bot.discord_io.outgoing import Outgoing
from bot.games.base import Decision
from bot.i18n import N_, Language, _, _n, speaking
from bot.i18n.formatting import number
from bot.tables import clock
from bot.tables.presenter import Presenter
from bot.tables.seats import Seat
from bot.tables.timing import Timing
from bot.tables.view import TableView
from bot.tables.voice import Voice


class Prompted(Protocol):
    """What the prompts read of their table (``bot.tables.table.Table``)."""

    seats: list[Seat]

    @property
    def acted(self) -> list[int]: ...

    @property
    def language(self) -> Language: ...

    def seat_language(self, seat: int) -> Language: ...

    def human_pending(self) -> list[Decision]: ...

    def is_private(self, decision: Decision) -> bool: ...

    def view(self, audience: int | None = None) -> TableView: ...

    @property
    def voice(self) -> Voice: ...


# A wait that starts on a prompt only edited (or on a private decision of someone without DMs): the
# person is told it is their turn, once.
YOUR_TURN_DM = N_("⏰ Your turn in **{game}**: {link} (deadline {deadline}).")
YOUR_TURN_CHANNEL = N_("⏰ {player}, your turn (deadline {deadline}).")
YOUR_PICK_CHANNEL = N_("⏰ {player}, your secret pick: press **My hand** (deadline {deadline}).")


class Prompts:
    def __init__(self, presenter: Presenter, timing: Timing, deadline: float | None = None) -> None:
        self.presenter = presenter
        self.timing = timing
        self.deadline = deadline
        self._deadline_for: frozenset[tuple[int, str]] = frozenset()
        self._key: str | None = None
        self._message: discord.Message | None = None
        self._shown: object = None
        self._out: Outgoing | None = None  # the live prompt as last shown, for its retired version
        self._dm_sent: set[tuple[int, int, str]] = set()
        # The seats waited on at the last ``show`` (with their actions then): a seat still waited on
        # is in the same wait, and is not notified again. (After a restart everyone waited on is told
        # again: the bot says it restarted.)
        self._waiting: dict[int, int] = {}
        # Private decisions that follow their person's own click in the same wait: shown where they
        # clicked (``bot.tables.clicks``), not sent as a new DM. ``clicked`` is the seat whose click is
        # being published (set by the table, for one ``show``).
        self.continued: dict[int, Decision] = {}
        self.clicked: int | None = None

    def grace(self, late: list[Decision], names: str) -> str | None:
        """After a restart the stored deadline applies to what is pending (``late``); one that passed
        while the bot was down would make the AI play at once, so the late players (``names``) get a
        short grace instead, and the channel is told: the note is returned (in the current language)."""
        self._deadline_for = _signature(late)
        grace = self.timing.resume_grace_seconds
        if self.deadline is None or self.deadline > clock.now() or not late:
            return None
        self.deadline = clock.now() + grace
        return _n(
            "⏳ The deadline passed while I was away: {names}, you get {seconds} more second "
            "(until {deadline}).",
            "⏳ The deadline passed while I was away: {names}, you get {seconds} more seconds "
            "(until {deadline}).",
            1 if grace == 1 else 2,  # 1.5 seconds: a plural in both languages
            names=names,
            seconds=number(grace),
            deadline=self._deadline_mark(),
        )

    async def show(self, table: Prompted) -> None:
        """Keep the live prompt current, send secret prompts by DM, and set the deadline."""
        began = clock.now()
        waiting = table.human_pending()
        signature = _signature(waiting)
        fresh = False
        if not signature:
            self.deadline = None
        elif self.deadline is None or not signature <= self._deadline_for:
            turn = len(signature) == 1 and not any(table.is_private(d) for d in waiting)
            self.deadline = began + (self.timing.turn_seconds if turn else self.timing.phase_seconds)
            fresh = True
        self._deadline_for = signature
        seats = {d.player: table.acted[d.player] for d in waiting if d.player is not None}
        starting = {seat for seat in seats if seat not in self._waiting}
        public = {d.player for d in waiting if d.player in starting and not table.is_private(d)}
        with speaking(table.language):
            prompt = await self.presenter.prompt(table.view())
        notified: set[int] = set()
        if prompt is None:
            await self.retire(table)
        else:
            notified = await self._keep(table, public, *prompt)
        for decision in waiting:
            seat = decision.player
            if seat is None or not table.is_private(decision):
                continue
            marker = (seat, table.acted[seat], decision.kind)
            if marker in self._dm_sent:
                continue
            self._dm_sent.add(marker)
            if seat == self.clicked and seat not in starting:
                self.continued[seat] = decision  # their own click goes on to this (same wait)
                continue
            if seat in table.voice.dm_closed:
                if seat in starting:
                    await self._turn_in_channel(table, seat, YOUR_PICK_CHANNEL)
                continue
            with speaking(table.seat_language(seat)):
                secret = self.presenter.private_prompt(table.view(seat), decision)
            await table.voice.dm(seat, secret)  # it notifies: that is this wait's notification
            notified.add(seat)
        for seat in sorted(public - notified):
            await self._your_turn(table, seat)
        self._waiting = seats
        self.clicked = None
        if fresh and self.deadline is not None:
            self.deadline += max(0.0, clock.now() - began)  # from when the prompts went out

    async def _keep(self, table: Prompted, starting: set[int], key: str, out: Outgoing) -> set[int]:
        """Post or edit the live prompt; returns the seats its new message notified (those in
        ``starting`` whose wait begins with it: their mentions lead its content)."""
        users = {seat: uid for seat in starting if (uid := table.seats[seat].user_id) is not None}
        shown = _seen(out, table.acted)
        if key == self._key and self._message is not None:
            if shown != self._shown:  # an unchanged prompt is not edited again
                await table.voice.edit(self._message, **table.voice.dress(out, editing=True))
            self._shown = shown
            self._out = out
            return set()
        await self.retire(table)
        if users:
            out.ping = tuple(sorted(users.values()))
            mentions = " ".join(f"<@{uid}>" for uid in out.ping)
            out.content = f"{mentions} {out.content}".strip()
        self._message = await table.voice.send(out)
        self._key = key
        self._shown = shown
        self._out = out
        return set(users)  # told by this post (one that failed is not told again by another)

    async def _your_turn(self, table: Prompted, seat: int) -> None:
        """A wait that starts on a prompt only edited: the person is told once, by DM (with a link to
        the prompt), or in the channel when their DMs are closed."""
        if table.seats[seat].user_id is None:
            return
        if seat in table.voice.dm_closed or self._message is None:
            await self._turn_in_channel(table, seat, YOUR_TURN_CHANNEL)
            return
        with speaking(table.seat_language(seat)):
            note = Outgoing(
                content=_(
                    YOUR_TURN_DM,
                    game=self.presenter.title,
                    link=self._message.jump_url,
                    deadline=self._deadline_mark(),
                )
            )
        # If their DMs turn out to be closed, the voice says so in the channel, mentioning them: that
        # is this wait's notification.
        await table.voice.dm(seat, note)

    async def _turn_in_channel(self, table: Prompted, seat: int, words: str) -> None:
        person = table.seats[seat]
        if person.user_id is None:
            return
        await table.voice.say(
            words, player=person.mention(), deadline=self._deadline_mark(), ping=(person.user_id,)
        )

    def _deadline_mark(self) -> str:
        return f"<t:{int(self.deadline)}:R>" if self.deadline is not None else "—"

    def take_continued(self, seat: int) -> Decision | None:
        """The private decision that follows ``seat``'s own click in the same wait, if any (once)."""
        return self.continued.pop(seat, None)

    async def retire(self, table: Prompted) -> None:
        """The wait is over: the prompt loses its buttons (its text stays as a record)."""
        if self._message is not None:
            done = self.presenter.retired(self._key or "", self._out) if self._out is not None else None
            if done is None:
                await table.voice.edit(self._message, view=None)
            else:  # it no longer says whom it waits for, nor by when
                await table.voice.edit(
                    self._message, **{**table.voice.dress(done, editing=True), "view": None}
                )
        self._message = None
        self._key = None
        self._out = None


def _signature(waiting: list[Decision]) -> frozenset[tuple[int, str]]:
    return frozenset((d.player, d.kind) for d in waiting if d.player is not None)


def _seen(out: Outgoing, acted: list[int]) -> object:
    """What a player would see of a prompt (its ids depend on who acted how often)."""
    embed = out.embed.to_dict() if out.embed is not None else None
    steps = tuple(acted) if out.controls is not None else ()  # only controls' ids carry the steps
    return (out.content, repr(embed), out.image, out.controls, out.hand_button, out.asks, steps)
