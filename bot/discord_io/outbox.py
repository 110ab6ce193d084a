"""Race pictures of each channel: sent in order behind the channel's other messages, drawn only when
about to be sent, and merged when one is still waiting as the next comes, so a busy bot shows fewer,
fresher pictures instead of falling behind its pace."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from bot import workers
from bot.discord_io.global_pacer import PICTURE, GlobalPacer
from bot.discord_io.outgoing import Outgoing, readied
from bot.discord_io.pacer import ChannelPacer, Kind

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
DRAWING_PATIENCE = 5.0
"""Seconds a paced game's race picture waits for a drawing slot; then it is hurried (below), so a
channel is never silent for long behind a busy picture worker (at 200 games on a busy machine it was
10-15 s between cards). A newer picture still merges into it until then."""
HURRY_WAIT = 0.5
"""Seconds a hurried picture (a message waits behind it, or it outwaited ``DRAWING_PATIENCE``) waits for
a drawing slot, ahead of every picture that is not hurried; then its lines go out alone.

Why: a race's last card and its results come in one step, so the last picture was always hurried, and it
went out without its picture whenever the three slots were busy at that instant: at 200 games 204-234
races a run ended on a card nobody saw drawn (a third of them). There a slot frees every 15-20 ms (three,
each held 45-65 ms at the median), so the results wait about that long behind the finish; the bound
keeps a stuck worker from holding them."""


@dataclasses.dataclass
class _Waiting:
    out: Outgoing
    task: asyncio.Task[None] | None = None
    started: bool = False
    open: bool = True  # nothing else was sent in the channel since: a newer picture may merge into it
    merged: int = 0
    # What it waits for: its channel's turn (the channel's earlier messages and rate limit), then a
    # drawing slot (the picture worker): counted when a newer picture merges into it (the figures).
    behind: str = "turn"
    # Another message waits behind it in the channel (a prompt, results...): it goes out without waiting
    # for a drawing slot (``PictureOutbox.close``).
    hurry: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    # What sending it will be (a new message, or an edit of a live one), asked once it is ready to go.
    kind: Callable[[Outgoing], Kind] | None = None


class PictureOutbox:
    """Race pictures of each channel, sent in order behind the channel's other messages, and merged
    when one is still waiting as the next comes (the game keeps its pace; the channel gets fewer,
    fresher pictures)."""

    def __init__(
        self,
        global_pacer: GlobalPacer,
        channel_pacer: ChannelPacer,
        drawing: int | None = None,
        patience: float = DRAWING_PATIENCE,
    ) -> None:
        self.global_pacer = global_pacer
        self.patience = patience
        self.channel_pacer = channel_pacer
        self.merged = 0  # pictures (and race lines) merged into a newer one: never drawn
        self.undrawn = 0  # pictures sent as their lines alone: another message waited behind them
        self.drawn = 0  # pictures drawn and sent (the figures: how much of the race a busy bot shows)
        self.offered = 0  # pictures given to be sent (drawn, merged away or sent as lines)
        self.with_odds = 0  # pictures drawn and sent that show the odds
        # Merges by what the older picture was waiting for (``_Waiting.behind``): where the show thins.
        self.merged_behind = {"turn": 0, "drawing": 0}
        self._waiting: dict[int, _Waiting] = {}
        # Pictures drawn at once: one per worker process (bot.workers), or one in a thread (the drawing
        # holds the GIL, so more threads would only take turns on the loop's core); pictures waiting
        # for it are merged when stale.
        self._drawing = Slots(drawing or workers.drawing_slots())

    @staticmethod
    def takes(out: Outgoing) -> bool:
        """A channel picture drawn when sent (``Outgoing.render``: a race frame) with nothing to click,
        or a race line without a picture (``Outgoing.race_line``), which joins such a picture.

        Ruling: only pictures and lines that say so are taken; any other message's sender may need the
        message back (a live board that is edited later), which a queued picture cannot give."""
        return (
            out.seat is None
            and (out.render is not None or out.race_line)
            and out.later is None
            and out.embed is None  # a picture inside an embed (a race's setup) is never merged away
            and out.controls is None
            and (out.view is None or out.fixed_view)  # a live race's Bet button is the same on every card
            and not out.hand_button
        )

    async def post(
        self,
        channel_id: int,
        out: Outgoing,
        send: Callable[[Outgoing], Awaitable[Any]],
        *,
        wait: bool = False,
        kind: Callable[[Outgoing], Kind] | None = None,
    ) -> None:
        """Queue ``out``; returns once it holds its place in the channel's order, or with ``wait`` once it
        is sent. Ruling: a game at pace 0 ("as fast as the messages go") waits for each picture, so
        none is merged; a paced game goes on at its pace, and a picture it outran is merged. ``kind``
        says, when it is about to be sent, whether sending it makes a new message or edits one (each
        has its own rate limit in the channel); a new message if not given."""
        if out.render is not None:
            self.offered += 1
        waiting = self._waiting.get(channel_id)
        if waiting is not None and waiting.open and not waiting.started:
            if out.render is not None:
                workers.note_picture(drawn=False)  # the older picture is never drawn
            waiting.out = merge(waiting.out, out)
            waiting.merged += 1
            self.merged += 1
            self.merged_behind[waiting.behind] += 1
            return
        entry = _Waiting(out, kind=kind)
        self._waiting[channel_id] = entry
        entry.task = asyncio.create_task(self._send(channel_id, entry, send), name=f"picture-{channel_id}")
        if not wait:  # a paced game: its channel waits at most ``patience`` for this picture's drawing
            patience = asyncio.get_running_loop().call_later(self.patience, entry.hurry.set)
            entry.task.add_done_callback(lambda _task: patience.cancel())
        if wait:
            await entry.task
        else:
            # One turn of the loop: the task queues for the channel's turn before anything sent after it.
            await asyncio.sleep(0)

    def close(self, channel_id: int) -> None:
        """Something else is being sent in the channel: later pictures must come after it, not merge, and
        a picture still waiting for a drawing slot takes the next one before any picture that can wait,
        or goes out as its lines alone if none comes within ``HURRY_WAIT``.

        Why: the picture holds its channel's turn while it waits, and under load the wait for the picture
        worker is long (at 200 games on a busy machine 5 pictures a second were drawn for 200 channels: up
        to 49 s). The race's results, the next race and its bet prompt waited behind it, and the people's
        time ran while their prompt was not shown. Ruling: a prompt is never held behind a
        picture for more than ``HURRY_WAIT``; under load the show thins out, never the game."""
        waiting = self._waiting.get(channel_id)
        if waiting is not None:
            waiting.open = False
            waiting.hurry.set()

    async def _send(
        self, channel_id: int, entry: _Waiting, send: Callable[[Outgoing], Awaitable[Any]]
    ) -> None:
        try:
            async with (
                self.channel_pacer.turn(channel_id, kind=None) as turn,
                self.global_pacer.slot(PICTURE),
            ):
                out = entry.out
                entry.behind = "drawing"
                if out.image is None and out.render is not None:
                    # Drawn now, off the event loop (bot.workers), a few at a time. Until its drawing
                    # starts a newer picture still merges into it (under load the wait for a drawing
                    # slot is the long one); the upload after it needs no drawing slot.
                    with workers.held_back():  # the odds of later frames wait for this (bot.workers)
                        drawing = await self._drawing_slot(entry.hurry)
                    entry.started = True
                    out = entry.out
                    if not drawing:  # a message waits behind it: its lines now, without the picture
                        out = self._undrawn(out)
                    else:
                        try:
                            out = entry.out = await readied(out)  # its odds: only a frame drawn pays for them
                            if out.render is not None:
                                image = await workers.run(out.render)
                                out = dataclasses.replace(out, image=image, render=None)
                                self.drawn += 1
                                workers.note_picture(drawn=True)
                                self.with_odds += out.odds_shown
                        except workers.WorkerTimeout:
                            # Ruling: a picture whose worker hung goes without it (no retry: the next
                            # card's picture comes soon, from the replaced worker).
                            out = self._undrawn(out)
                        finally:
                            self._drawing.release()
                entry.started = True
                await turn.ready(entry.kind(out) if entry.kind is not None else "create")
                await send(out)
        except Exception:
            log.exception("Could not post a picture in channel %s", channel_id)
        finally:
            if self._waiting.get(channel_id) is entry:
                del self._waiting[channel_id]

    def _undrawn(self, out: Outgoing) -> Outgoing:
        """The picture goes out as its lines alone, counted as not drawn."""
        self.undrawn += 1
        workers.note_picture(drawn=False)
        return dataclasses.replace(out, render=None)

    async def _drawing_slot(self, hurry: asyncio.Event) -> bool:
        """A drawing slot (True: release it), or False once ``hurry`` is set and none came within
        ``HURRY_WAIT`` (a hurried picture goes before those that are not)."""
        if self._drawing.take():
            return True  # free: taken at once
        if not hurry.is_set():
            waiter = self._drawing.wait(urgent=False)
            hurried: asyncio.Future[Any] = asyncio.ensure_future(hurry.wait())
            granted = False
            try:
                await asyncio.wait([waiter, hurried], return_when=asyncio.FIRST_COMPLETED)
                granted = waiter.done() and not waiter.cancelled()
            finally:
                hurried.cancel()
                if not granted:
                    self._drawing.withdraw(waiter)  # out of the line (a slot granted meanwhile given back)
            if granted:
                return True
        waiter = self._drawing.wait(urgent=True)
        granted = False
        try:
            await asyncio.wait({waiter}, timeout=HURRY_WAIT)
            granted = waiter.done() and not waiter.cancelled()
        finally:
            if not granted:
                self._drawing.withdraw(waiter)
        return granted

    async def drain(self) -> None:
        """Wait for every queued picture (a finishing game's last frames)."""
        tasks = [w.task for w in self._waiting.values() if w.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


class Slots:
    """Drawing slots: taken at once while one is free, else granted in turn as they are given back,
    urgent waiters (hurried pictures) before the others. A waiter is a future, resolved when granted;
    one that stops waiting is ``withdraw``-n, giving back a slot granted meanwhile."""

    def __init__(self, count: int) -> None:
        self.free = count
        self._waiting: dict[bool, deque[asyncio.Future[None]]] = {True: deque(), False: deque()}

    def locked(self) -> bool:
        return self.free <= 0

    async def __aenter__(self) -> None:
        """A slot, waited for in turn (not urgent)."""
        waiter = self.wait(urgent=False)
        try:
            await waiter
        except asyncio.CancelledError:
            self.withdraw(waiter)
            raise

    async def __aexit__(self, *_: object) -> None:
        self.release()

    def take(self) -> bool:
        """Take a free slot now, if there is one."""
        if self.free > 0:
            self.free -= 1
            return True
        return False

    def wait(self, *, urgent: bool) -> asyncio.Future[None]:
        """A place in line: the future is resolved when a slot is granted to it."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if not self.take():
            self._waiting[urgent].append(waiter)
        else:
            waiter.set_result(None)
        return waiter

    def withdraw(self, waiter: asyncio.Future[None]) -> None:
        """``waiter`` stops waiting: out of the line, or, if a slot was granted to it, the slot given back."""
        for line in self._waiting.values():
            with contextlib.suppress(ValueError):
                line.remove(waiter)
        if waiter.done():
            if not waiter.cancelled():
                self.release()
        else:
            waiter.cancel()

    def release(self) -> None:
        """A slot given back: to the first urgent waiter, else the first other one, else free."""
        for urgent in (True, False):
            line = self._waiting[urgent]
            while line:
                waiter = line.popleft()
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self.free += 1


def merge(older: Outgoing, newer: Outgoing) -> Outgoing:
    """The stale picture's text kept above the newer one's; only the newer picture is shown, or the
    older one when the newer is a race line without a picture (the track has not changed since). A live
    message's newer text already holds its last lines (``Outgoing.live``): it replaces the older."""
    if newer.live is not None and newer.live == older.live:
        if newer.render is None and newer.image is None:
            # The older picture with the newer words and buttons (a race that ended: no Bet any more).
            return dataclasses.replace(
                older, content=newer.content, view=newer.view, fixed_view=newer.fixed_view
            )
        return newer
    lines = [line for part in (older.content, newer.content) if part for line in part.splitlines()]
    while len(lines) > 1 and len("\n".join(lines)) > MESSAGE_LIMIT:
        lines.pop(0)  # Discord's message limit: the oldest lines go first
    if newer.render is None and newer.image is None:
        return dataclasses.replace(
            older, content="\n".join(lines), view=newer.view, fixed_view=newer.fixed_view
        )
    return dataclasses.replace(newer, content="\n".join(lines))
