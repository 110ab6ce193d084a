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
from bot.i18n import Language, _n, speaking
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
            deadline=f"<t:{int(self.deadline)}:R>",
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
        with speaking(table.language):
            prompt = await self.presenter.prompt(table.view())
        if prompt is None:
            await self.retire(table)
        else:
            await self._keep(table, waiting, *prompt)
        for decision in waiting:
            if decision.player is None or not table.is_private(decision):
                continue
            marker = (decision.player, table.acted[decision.player], decision.kind)
            if marker not in self._dm_sent:
                self._dm_sent.add(marker)
                with speaking(table.seat_language(decision.player)):
                    secret = self.presenter.private_prompt(table.view(decision.player), decision)
                await table.voice.dm(decision.player, secret)
        if fresh and self.deadline is not None:
            self.deadline += max(0.0, clock.now() - began)  # from when the prompts went out

    async def _keep(self, table: Prompted, waiting: list[Decision], key: str, out: Outgoing) -> None:
        # The prompt pings the people it waits for in the channel (not those deciding in a DM).
        out.ping = tuple(
            sorted(
                {
                    uid
                    for d in waiting
                    if d.player is not None
                    and not table.is_private(d)
                    and (uid := table.seats[d.player].user_id) is not None
                }
            )
        )
        shown = _seen(out, table.acted)
        if key == self._key and self._message is not None:
            if shown != self._shown:  # an unchanged prompt is not edited again
                await table.voice.edit(self._message, **table.voice.dress(out, editing=True))
        else:
            await self.retire(table)
            self._message = await table.voice.send(out)
            self._key = key
        self._shown = shown
        self._out = out

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
    return (out.content, repr(embed), out.image, out.controls, out.hand_button, out.asks, tuple(acted))
