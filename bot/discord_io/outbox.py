"""Race pictures of each channel: sent in order behind the channel's other messages, drawn only when
about to be sent, and merged when one is still waiting as the next comes, so a busy bot shows fewer,
fresher pictures instead of falling behind its pace."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot import workers
from bot.discord_io.global_pacer import PICTURE, GlobalPacer
from bot.discord_io.outgoing import Outgoing, readied
from bot.discord_io.pacer import ChannelPacer, Kind

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
DRAWING_PATIENCE = 5.0
"""Seconds a paced game's race picture waits for a drawing slot; then its lines go out alone, so a
channel is never silent for long behind a busy picture worker (at 200 games on a busy machine it was
10-15 s between cards). A newer picture still merges into it until then."""


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
        self._drawing = asyncio.Semaphore(drawing or workers.drawing_slots())

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
        a picture still waiting for a drawing slot goes out now as its lines alone.

        Why: the picture holds its channel's turn while it waits, and under load the wait for the picture
        worker is long (at 200 games on a busy machine 5 pictures a second were drawn for 200 channels: up
        to 49 s). The race's results, the next race and its bet prompt waited behind it, and the people's
        time ran while their prompt was not shown. Ruling: a prompt is never held behind a
        picture; under load the show thins out, never the game."""
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
                        out = dataclasses.replace(out, render=None)
                        self.undrawn += 1
                    else:
                        try:
                            out = entry.out = await readied(out)  # its odds: only a frame drawn pays for them
                            if out.render is not None:
                                image = await workers.run(out.render)
                                out = dataclasses.replace(out, image=image, render=None)
                                self.drawn += 1
                                self.with_odds += out.odds_shown
                        except workers.WorkerTimeout:
                            # Ruling: a picture whose worker hung goes without it (no retry: the next
                            # card's picture comes soon, from the replaced worker).
                            out = dataclasses.replace(out, render=None)
                            self.undrawn += 1
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

    async def _drawing_slot(self, hurry: asyncio.Event) -> bool:
        """A drawing slot (True: release it), or False once ``hurry`` is set while none is free."""
        if not self._drawing.locked():
            await self._drawing.acquire()  # free: taken at once
            return True
        if hurry.is_set():
            return False
        acquire = asyncio.ensure_future(self._drawing.acquire())
        hurried = asyncio.ensure_future(hurry.wait())
        got = False
        try:
            await asyncio.wait({acquire, hurried}, return_when=asyncio.FIRST_COMPLETED)
            got = acquire.done() and not acquire.cancelled() and acquire.exception() is None
            return got
        finally:
            hurried.cancel()
            if not got:
                if acquire.done() and not acquire.cancelled() and acquire.exception() is None:
                    self._drawing.release()  # granted as we stopped waiting: given back
                else:
                    acquire.cancel()

    async def drain(self) -> None:
        """Wait for every queued picture (a finishing game's last frames)."""
        tasks = [w.task for w in self._waiting.values() if w.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


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
