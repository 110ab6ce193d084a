"""How the bot stops: on SIGTERM (``docker stop``, systemd) or SIGINT (Ctrl-C), cleanly and quickly.

1. The bot's ``stopping`` flag is set: ``/<game> start`` answers that the bot is restarting (no new games).
2. Every table finishes the step it is in (its save and its messages) and starts no other: the
   stop takes each table's lock and keeps it. At most ``GRACE_SECONDS``; a second signal skips it.
3. The bot closes: tables stop, the database is closed (every write is committed by then), the
   gateway disconnects. Exit code 0.

Nothing is lost even if a step is cut short (the storage commits each decision before it is
announced, and a restart resumes every game), so the grace period is a courtesy to the players,
kept well under ``docker stop``'s 10 s before it kills.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable

import discord

log = logging.getLogger(__name__)

GRACE_SECONDS = 5.0  # for the steps in progress to finish
CLOSE_SECONDS = 3.0  # for the database and the gateway to close
SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopRequest:
    """The signals received so far: the first asks for a clean stop, a second for a quick one."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.hurry = asyncio.Event()
        self.signal_name = ""

    def __call__(self, signum: int) -> None:
        if self.asked.is_set():
            log.warning("Second %s: stopping now", signal.Signals(signum).name)
            self.hurry.set()
        else:
            self.signal_name = signal.Signals(signum).name
            self.asked.set()


async def serve(bot: discord.Client, token: str) -> None:
    """Log in and run ``bot`` until a stop signal, then stop as described above. Login errors propagate."""
    request = StopRequest()
    restore = _catch_signals(asyncio.get_running_loop(), request)
    try:
        async with bot:
            running = asyncio.create_task(bot.start(token), name="bot")
            asked = asyncio.create_task(request.asked.wait(), name="stop-request")
            await asyncio.wait({running, asked}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                asked.cancel()
                running.result()  # a login failure, Discord out of reach...
                return
            await stop(bot, request)
            await _settle_task(running)
    finally:
        restore()


async def stop(bot: discord.Client, request: StopRequest | None = None) -> None:
    """Refuse new games, let the steps in progress finish (bounded), then close the bot."""
    request = request or StopRequest()
    log.info("Stopping (%s): no new games; finishing the moves in progress", request.signal_name or "asked")
    bot.stopping = True  # type: ignore[attr-defined]  # read by the table layer before opening a game
    await _quiesce(bot, request)
    log.info("Closing the tables, the database and the connection")
    try:
        await asyncio.wait_for(bot.close(), CLOSE_SECONDS)
    except TimeoutError:
        log.warning("Closing took over %.0f s; stopping anyway", CLOSE_SECONDS)
    log.info("Stopped")


async def _quiesce(bot: discord.Client, request: StopRequest) -> None:
    """Take every table's lock (so its current step ends and no other begins)."""
    tables = getattr(getattr(bot, "tables", None), "by_id", {})
    locks = [lock for table in list(tables.values()) if (lock := getattr(table, "lock", None)) is not None]
    seating = getattr(getattr(bot, "tables", None), "seating_locks", None)
    if seating is not None:
        locks.extend(seating())  # a lobby being opened right now is stored before we close

    async def take_all() -> None:
        for lock in locks:
            await lock.acquire()

    taking = asyncio.create_task(take_all())
    hurry = asyncio.create_task(request.hurry.wait())
    await asyncio.wait({taking, hurry}, timeout=GRACE_SECONDS, return_when=asyncio.FIRST_COMPLETED)
    hurry.cancel()
    if not taking.done():
        log.warning(
            "Some moves were still in progress after %.0f s; they resume after the restart", GRACE_SECONDS
        )
        taking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await taking


async def _settle_task(task: asyncio.Task[None]) -> None:
    """The login task ends once the bot is closed; don't wait long for it, and don't raise from it."""
    done, _ = await asyncio.wait({task}, timeout=CLOSE_SECONDS)
    if not done:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


def _catch_signals(loop: asyncio.AbstractEventLoop, request: StopRequest) -> Callable[[], None]:
    """Route SIGTERM and SIGINT to ``request``; returns what puts the previous handlers back."""
    try:
        for signum in SIGNALS:
            loop.add_signal_handler(signum, request, signum)
    except NotImplementedError:  # Windows' event loops: plain handlers, hopping onto the loop
        previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
        for signum in SIGNALS:
            signal.signal(signum, lambda num, _frame: loop.call_soon_threadsafe(request, num))

        def restore_plain() -> None:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

        return restore_plain

    def restore() -> None:
        for signum in SIGNALS:
            loop.remove_signal_handler(signum)

    return restore
