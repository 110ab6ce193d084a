"""CPU-heavy pure work (odds, race pictures, AI look-ahead, replays) in worker processes, so the event
loop keeps a core of its own.

Drawing, Monte Carlo odds and the AI's imagined races are pure Python for the most part: in a thread
they hold the GIL, and at 50 games they took 80% of it, so the event loop (clicks, gateway events,
every game's next step) ran in what was left at 500 games. Worker processes take that work instead,
in three lanes, so that one kind of work never waits behind another:

- ``PICTURES``: race pictures and their odds (``WORK_PROCESSES`` processes; default one fewer than
  the machine's cores, at least one). A game's next card waits for these.
- ``AI``: the AI players' look-ahead (one process, 0.1-0.3 s a decision).
- ``REPLAYS``: race replays (one process at a lower CPU priority: an animation may come late, and
  must never hold up a card's picture). Past ``REPLAY_QUEUE`` waiting, a replay is skipped (``Busy``).
  A replay (``replay``) first takes the GIF blocks its race's live pictures left in the picture
  worker that drew them (``bot.games.kept_frames``), so the replay lane draws only the frames nobody
  drew live.

Without workers (``WORK_PROCESSES=0``, and in tests) everything runs in a thread as before. Work
that cannot be sent to a process (a closure) also runs in a thread, and a worker that died is
replaced.

Every call has a time limit (``time_limits``: ``AI_TIMEOUT`` for the AI lane, ``WORKER_TIMEOUT`` for
the others; ``bot.config``), counted from when the call starts running, not from when it was queued
(a busy bot's queue is not a hung worker). A call that runs past it raises ``WorkerTimeout`` and its
process is killed and replaced, as one that dies is (its call is tried once more in the new one). Each
process runs one call at a time, so no other call is held up or lost with it. A call in a thread cannot
be killed: its caller goes on without it (the thread is left to finish). What the callers do about it: the AI plays its easy level in the bot's own process
(``bot.tables.ai_seats``); a picture's message goes without the picture (``bot.discord_io.outbox``,
``bot.tables.voice.drawn``); a replay is left out (``bot.discord_io.later``).

The odds are governed (``odds``): a frame's simulation gets a share of its time budget that shrinks
as more pictures wait, and from ``ODDS_QUEUE`` waiting per process a frame gets each game's quickest
estimate rather than being held up (Hot Streak's odds need about 40 ms per frame at full precision,
2 ms for the estimate).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from bot import collector
from bot.games.kept_frames import Block, take
from bot.games.odds import Odds, odds_for
from bot.i18n import InLanguage, current, in_language

log = logging.getLogger(__name__)

T = TypeVar("T")

PICTURES, AI, REPLAYS = "pictures", "ai", "replays"
LANES = (PICTURES, AI, REPLAYS)
PICTURE_NICE, AI_NICE, REPLAY_NICE = 8, 14, 15
"""The workers' niceness: the event loop (clicks, gateway) first, then pictures, the AI, replays last.
Why the AI 14 and not 10: two workers that both want the second core share it by their weights, and at
nice 10 the AI took two fifths of it from the pictures (pictures 8: weight 172, AI 10: 110; 14: 45). At
200 games that gave 0.81-0.82 of the cards a picture; at 14, 0.87 (``docs/scaling.md``). The AI's
decisions wait a little longer for the core, and past ``AI_QUEUE`` waiting each thinks less
(``ai_effort``), so a busy bot's AI seats keep their pace."""
ODDS_QUEUE = 1
"""Pictures and odds waiting per process from which a frame gets the quickest estimate of its odds.
Ruling: a simulation within the frame's budget (Hot Streak: 30 ms, 500-1,000 races) only for a
picture worker with nothing else to do; one more picture waiting and the frame gets the quick estimate
(2-4 ms). At 200 games a card comes every 20 ms, so a worker that is free now is not for long: with 4 the
budgeted odds took 15-28 s of the picture worker's CPU in 180 s, the time of 2,000-3,000 pictures."""
KEEP_QUEUE = 4
"""Pictures and odds waiting per process from which a live picture does not keep its GIF block for the
race's replay (``keeps_frames``; Hot Streak only while it catches up: ``catching_up``)."""
CATCH_UP_SHARE = 0.75
"""The share of recent race pictures drawn (of those given to be sent) from which a picture lane that is
behind is catching up on a burst rather than past what its cores draw (``catching_up``)."""
SHARE_WEIGHT = 1 / 1024
"""Each race picture's weight in the recent share drawn (an exponential average: about the last 20 s at
200 games, the last 9 s at 500)."""
AI_QUEUE = 2
"""AI decisions waiting per process beyond which each one thinks less (``ai_effort``)."""
DRAWING_DEPTH = 3
"""Race pictures given to each picture worker at once. Why more than one: a picture's trip (its odds,
then its drawing, each sent from the event loop and answered to it) leaves the worker idle while the
answer waits for a busy loop. Ruling: three. Two kept a worker busy while its pictures cost 14 ms and
the full odds took what was left; once a picture cost 9 (``collector.tune_malloc_for_pictures``) and
the odds kept to their quick estimate under load (``ODDS_QUEUE``), the worker sat idle between trips
(95 of 184 s busy at 200 games) and three drew 0.93 of the cards where two drew 0.86-0.87."""
SPARSE_BEHIND = 1
"""Replays waiting (or being made) beyond which the next one is sparse: the frames its race's live
pictures kept, without drawing those nobody saw (``bot.games.animation.shown_frames``). Ruling: a
replay draws the cards nobody saw only when the replay lane is free; a busy bot's replay shows what the
channel saw live, for a few milliseconds, where it used to cost a third of a second or be skipped."""
REPLAY_QUEUE = 24
"""Replays waiting beyond which another is skipped (`Busy`): at 1-2 s each the last would come a minute
after its results (which never wait for it: bot.tables.later)."""


DEFAULT_TIMEOUT = 30.0
"""Seconds a picture, odds or a replay may run in a worker (``WORKER_TIMEOUT``): far beyond the slowest
(a replay takes a second or two), so only a hung worker meets it."""
DEFAULT_AI_TIMEOUT = 5.0
"""Seconds an AI decision may run in its worker (``AI_TIMEOUT``): it takes 0.1-0.3 s; past the limit the
AI plays its easy level in the bot's own process, so the game goes on."""
_limits: dict[str, float] = {PICTURES: DEFAULT_TIMEOUT, AI: DEFAULT_AI_TIMEOUT, REPLAYS: DEFAULT_TIMEOUT}


class Busy(Exception):
    """The workers are too far behind to take this (optional) work now."""


class WorkerTimeout(Exception):
    """A call ran past its lane's time limit (``time_limits``); in a process, the lane's processes were
    replaced."""


def time_limits(work: float = DEFAULT_TIMEOUT, ai: float = DEFAULT_AI_TIMEOUT) -> None:
    """The longest a call may run: ``work`` seconds for pictures, odds and replays, ``ai`` for the AI."""
    _limits.update({PICTURES: work, AI: ai, REPLAYS: work})


class _Call:
    """A call waiting for, or running in, one of a lane's processes."""

    __slots__ = ("future", "sent", "tries")

    def __init__(self, sent: bytes, future: asyncio.Future[tuple[Any, float]]) -> None:
        self.sent = sent
        self.future = future
        self.tries = 0


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker, as its ``__cause__`` (as the process pool did)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


class _Worker:
    """One worker process, and the event loop's end of the socket to it: a call goes out as one message
    (its pickled bytes behind a length, the framing of ``multiprocessing.connection``, which the worker
    reads with), its answer comes back as one, read by the loop's own selector.

    Why not ``concurrent.futures.ProcessPoolExecutor``: each call there crossed two threads of the bot's
    process (the pool's manager, which also unpickles the answer, and its queue's feeder), and each
    answer woke the loop from a thread: about a seventh of the bot's busy samples at 200 games, and six
    threads asking the event loop's core for the GIL. Here nothing runs but the loop: one write, one read
    and one timer a call."""

    def __init__(self, lane: _Lane, loop: asyncio.AbstractEventLoop) -> None:
        ours, theirs = multiprocessing.Pipe(duplex=True)  # a pair of Unix sockets
        self.process = multiprocessing.get_context("spawn").Process(
            # Spawned, not forked: the bot's process has threads (the database's, discord.py's).
            target=_serve,
            args=(theirs, lane.nice),
            name=f"{lane.name}-worker",
            daemon=True,
        )
        try:
            self.process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.socket = socket.socket(fileno=os.dup(ours.fileno()))
        ours.close()
        self.socket.setblocking(False)
        self.lane = lane
        self.loop = loop
        self.call: _Call | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.open = True
        self.ready = False  # started: its first message (empty) says so
        self.limit = 0.0
        loop.add_reader(self.socket, self._readable)

    def run(self, call: _Call, limit: float) -> None:
        """Sends ``call``; its time limit runs from now, or from when the process is ready (a process
        starting on a busy machine takes a second or more: that is not the call's time)."""
        self.call = call
        call.tries += 1
        self.limit = limit
        wait = limit if self.ready else limit + START_TIMEOUT
        self.timer = self.loop.call_later(wait, self._timed_out, wait)
        sent = call.sent
        self._write(_HEADER.pack(len(sent)) + sent if len(sent) < _LONG else _long_header(len(sent)) + sent)

    def close(self, kill: bool) -> None:
        """Closes this end (the worker reads the end of its input and exits); ``kill``: at once."""
        if not self.open:
            return
        self.open = False
        if self.timer is not None:
            self.timer.cancel()
        if not self.loop.is_closed():
            self.loop.remove_reader(self.socket)
            self.loop.remove_writer(self.socket)
        self.socket.close()
        if kill:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                self.process.kill()

    def _write(self, data: bytes) -> None:
        if self.outbox:
            self.outbox += data
            return
        try:
            sent = self.socket.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._lost()
            return
        if sent < len(data):
            self.outbox += memoryview(data)[sent:]
            self.loop.add_writer(self.socket, self._writable)

    def _writable(self) -> None:
        try:
            sent = self.socket.send(self.outbox)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._lost()
            return
        del self.outbox[:sent]
        if not self.outbox:
            self.loop.remove_writer(self.socket)

    def _readable(self) -> None:
        try:
            chunk = self.socket.recv(_READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._lost()
            return
        self.inbox += chunk
        while self.open and len(self.inbox) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self.inbox)
            start = _HEADER.size
            if size == -1:  # a message of 2 GiB or more: a second, longer length follows
                if len(self.inbox) < _HEADER.size + _LONG_SIZE.size:
                    return
                (size,) = _LONG_SIZE.unpack_from(self.inbox, _HEADER.size)
                start += _LONG_SIZE.size
            if len(self.inbox) < start + size:
                return
            message = bytes(memoryview(self.inbox)[start : start + size])
            if len(self.inbox) == start + size:
                self.inbox = bytearray()  # (not a replay's megabytes kept allocated until the next answer)
            else:
                del self.inbox[: start + size]
            self._answered(message)

    def _answered(self, message: bytes) -> None:
        if not self.ready:  # the process is ready: a call sent meanwhile has its own time from now
            self.ready = True
            if self.call is not None and self.timer is not None:
                self.timer.cancel()
                self.timer = self.loop.call_later(self.limit, self._timed_out, self.limit)
            return
        call, self.call = self.call, None
        if self.timer is not None:
            self.timer.cancel()
        if call is not None and not call.future.done():
            try:
                ok, value, extra = pickle.loads(message)
            except Exception as error:  # an answer that cannot be made again here
                call.future.set_exception(error)
            else:
                if ok:
                    call.future.set_result((value, extra))
                else:
                    value.__cause__ = _RemoteTraceback(extra)
                    call.future.set_exception(value)
        self.lane.dispatch(self.loop)

    def _timed_out(self, limit: float) -> None:
        figures["timeouts"] += 1
        call, self.call = self.call, None
        self.lane.replace(self, f"ran a call past its time limit ({limit:.1f} s)")
        if call is not None and not call.future.done():
            call.future.set_exception(WorkerTimeout())
        self.lane.dispatch(self.loop)

    def _lost(self) -> None:
        """The worker died (killed, out of memory): its call is tried once more in a new one, so only a
        call that kills its worker fails (``BrokenProcessPool``, as from the process pool)."""
        if not self.open:
            return
        call, self.call = self.call, None
        self.lane.replace(self, "died")
        if call is not None and not call.future.done():
            if call.tries < 2 and not self.lane.stopped:
                self.lane.queue.appendleft(call)
            else:
                call.future.set_exception(BrokenProcessPool("A worker process died running this call"))
        self.lane.dispatch(self.loop)


_HEADER = struct.Struct("!i")
_LONG_SIZE = struct.Struct("!Q")
_LONG = 0x7FFFFFFF
_READ_SIZE = 1 << 18
START_TIMEOUT = 10.0
"""Seconds a worker process may take to start (spawn a Python, import the games: about a second on a quiet
machine), beyond the limit of the call sent to it meanwhile; one stopped or hung before it is ready is
replaced then."""


def _long_header(size: int) -> bytes:
    return _HEADER.pack(-1) + _LONG_SIZE.pack(size)


class _Lane:
    def __init__(self, name: str, processes: int, nice: int = 0) -> None:
        self.name = name
        self.stopped = False  # the bot stopped its workers: nothing is retried
        self.processes = processes
        self.nice = nice
        self.workers: list[_Worker] = []
        self.queue: collections.deque[_Call] = collections.deque()  # calls waiting for a free process
        self.waiting = 0  # submitted and not finished (running included)

    def submit(self, sent: bytes) -> asyncio.Future[tuple[Any, float]]:
        """``sent`` (a pickled call) run by the first free process: its result and CPU time."""
        loop = asyncio.get_running_loop()
        call = _Call(sent, loop.create_future())
        self.queue.append(call)
        self.dispatch(loop)
        return call.future

    def dispatch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hands waiting calls to free processes, starting processes up to ``processes``; a call's time
        limit runs from here (a call waiting its turn is not a hung worker)."""
        while self.queue and not self.stopped:
            if self.queue[0].future.done():  # its caller stopped waiting
                self.queue.popleft()
                continue
            try:
                worker = self._free(loop)
            except OSError as error:  # no process could be started (out of processes, of files)
                failed = self.queue.popleft()
                failed.future.set_exception(BrokenProcessPool(f"Could not start a worker process: {error}"))
                continue
            if worker is None:
                return
            worker.run(self.queue.popleft(), _limits[self.name])

    def _free(self, loop: asyncio.AbstractEventLoop) -> _Worker | None:
        for worker in list(self.workers):
            if worker.loop is not loop:  # started under another event loop (tests): of no use here
                self.workers.remove(worker)
                worker.close(kill=True)
        for worker in self.workers:
            if worker.call is None:
                return worker
        if len(self.workers) >= self.processes:
            return None
        worker = _Worker(self, loop)
        self.workers.append(worker)
        return worker

    def replace(self, worker: _Worker, why: str) -> None:
        """``worker``'s process is killed (a stopped or hung one too); the next call starts a new one."""
        if worker not in self.workers:
            return
        log.warning("A worker process of the %s lane %s; starting a new one", self.name, why)
        figures["workers_replaced"] += 1
        self.workers.remove(worker)
        worker.close(kill=True)

    def pids(self, starting: bool) -> list[int]:
        return [
            worker.process.pid
            for worker in self.workers
            if worker.process.pid is not None and (worker.ready or starting)
        ]

    def stop(self) -> None:
        """Its processes exit (their input ends); calls waiting or running fail as broken."""
        self.stopped = True
        calls = [worker.call for worker in self.workers if worker.call is not None] + list(self.queue)
        for worker in self.workers:
            worker.close(kill=False)
        self.workers.clear()
        self.queue.clear()
        for call in calls:
            if not call.future.done() and not call.future.get_loop().is_closed():
                call.future.set_exception(BrokenProcessPool("The worker processes were stopped"))


_lanes: dict[str, _Lane] = {}
_in_threads: dict[str, int] = {PICTURES: 0, AI: 0, REPLAYS: 0}  # waiting work, without workers
_held: dict[str, int] = {PICTURES: 0, AI: 0, REPLAYS: 0}  # work its callers hold back (``held_back``)
cpu_seconds: dict[str, float] = {"pictures": 0.0, "odds": 0.0, "replays": 0.0, "ai": 0.0}
"""CPU time the work took where it ran (a worker process or a thread), by kind: where each card's CPU
goes besides the event loop (``bench/bench_load.py``'s ``cpu_ms_per_card``)."""
drawn_share = 1.0  # of the race pictures given to be sent lately, the share drawn (``note_picture``)

figures = {
    "odds": 0,
    "odds_quick": 0,
    "replays_skipped": 0,
    "replays_sparse": 0,
    "in_thread": 0,
    "workers_replaced": 0,
    "timeouts": 0,
}


def processes_for(setting: int | None) -> int:
    """The picture workers for ``WORK_PROCESSES`` (``Settings.work_processes``): as set, or for ``auto``
    (None) one fewer than the cores, at least one (the event loop keeps a core of its own)."""
    if setting is not None:
        return setting
    return max(1, (os.cpu_count() or 2) - 1)


def start(processes: int) -> None:
    """Use ``processes`` picture workers from now on, plus one for the AI and one for replays (0: threads,
    no processes at all). The processes start on first use."""
    stop()
    if processes > 0:
        _lanes.update(
            {
                PICTURES: _Lane(PICTURES, processes, PICTURE_NICE),
                AI: _Lane(AI, 1, AI_NICE),
                REPLAYS: _Lane(REPLAYS, 1, REPLAY_NICE),
            }
        )


def stop() -> None:
    for lane in _lanes.values():
        lane.stop()
    _lanes.clear()


def in_use() -> int:
    """How many worker processes do the work (0: threads)."""
    return sum(lane.processes for lane in _lanes.values())


def drawing_slots() -> int:
    """Pictures worth drawing at once: ``DRAWING_DEPTH`` per picture worker, else one (a thread: the
    drawing holds the GIL, so more would only take turns on the loop's core)."""
    lane = _lanes.get(PICTURES)
    return lane.processes * DRAWING_DEPTH if lane is not None else 1


def worker_pids(lane: str | None = None, *, starting: bool = False) -> list[int]:
    """The ready workers' process ids (``starting``: those still starting too), of every lane or of
    ``lane`` (the bench adds their memory to the bot's)."""
    pids: list[int] = []
    for name, lane_ in _lanes.items():
        if lane in (None, name):
            pids.extend(lane_.pids(starting))
    return pids


def waiting(lane: str = PICTURES) -> int:
    """Work sent to ``lane`` and not finished yet, and work for it that its callers hold back."""
    found = _lanes.get(lane)
    return (found.waiting if found is not None else _in_threads[lane]) + _held[lane]


@contextlib.contextmanager
def held_back(lane: str = PICTURES) -> Iterator[None]:
    """Work for ``lane`` that waits on its caller's side meanwhile (a race picture waiting for a drawing
    slot) counts as waiting, so that optional work yields to it.

    Why: at 500 games the pictures waited for their slot while every frame's odds went to the worker
    ahead of them; the picture worker spent three quarters of its time on odds and drew one card in
    fourteen. Ruling: a picture before its odds, as a card before its picture.
    """
    _held[lane] += 1
    try:
        yield
    finally:
        _held[lane] -= 1


async def run(fn: Callable[..., T], /, *args: Any, lane: str = PICTURES, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` off the event loop: in a worker process of ``lane`` if there are workers,
    else in a thread. Replays raise ``Busy`` when ``REPLAY_QUEUE`` of them wait already; a call that
    runs past the lane's time limit raises ``WorkerTimeout``."""
    if lane == REPLAYS and waiting(REPLAYS) >= REPLAY_QUEUE:
        figures["replays_skipped"] += 1
        raise Busy
    from bot import metrics  # here, not at the top: the worker processes import this module, and need none

    with metrics.timed(metrics.WORKER_CALL_SECONDS, None, lane):  # the wait for a worker included
        return await _run(fn, lane, *args, **kwargs)


async def _run(fn: Callable[..., T], lane: str, /, *args: Any, **kwargs: Any) -> T:
    # In the caller's language: a worker process does not share the caller's context (bot.i18n).
    call = in_language(current(), functools.partial(fn, *args, **kwargs))
    kind = (
        "odds"
        if fn is odds_for
        else "replays"
        if fn is take
        else {AI: "ai", REPLAYS: "replays"}.get(lane, "pictures")
    )
    found = _lanes.get(lane)
    sent = _pickled(call) if found is not None else None
    if found is None or sent is None:
        if found is not None:
            figures["in_thread"] += 1
        _in_threads[lane] += 1
        try:
            result, cpu = await _in_thread(lane, functools.partial(_timed_call, call, time.thread_time))
        finally:
            _in_threads[lane] -= 1
    else:
        found.waiting += 1
        try:
            result, cpu = await _in_process(found, sent)
        finally:
            found.waiting -= 1
    cpu_seconds[kind] += cpu
    return result


async def replay(later: Callable[[], T]) -> T:
    """A race's replay (``Outgoing.later``: a ``ReplayLog.drawn``) in the replay lane, from the GIF blocks
    the race's live pictures left in the picture worker (``bot.games.kept_frames``): that worker hands
    them over (a lookup, in its turn among the pictures), and the replay lane joins them and draws only
    the frames nobody drew. Raises ``Busy`` as ``run`` does.

    Ruling: the blocks travel through this process (a few hundred kilobytes, pickled once each way)
    rather than the replay being made in the picture worker: drawing the missing frames (all of them,
    after a restart) must not hold up a card's picture. With several picture workers, only the blocks
    of the one that takes the call are found; the frames the others drew are drawn again. They are
    taken before a replay is skipped (``Busy``), so a skipped race's blocks do not fill the cache.
    """
    race = _race_of(later)
    kept: dict[str, Block] = {}
    if race is not None:
        try:
            kept = await run(take, race) if PICTURES in _lanes else take(race)
        except Exception:  # a worker that died or hung: its blocks are gone, the replay is drawn whole
            log.warning("Could not take the kept frames of race %s; drawing its replay whole", race)
    ahead = waiting(REPLAYS)
    if ahead >= REPLAY_QUEUE:
        figures["replays_skipped"] += 1
        raise Busy
    sparse = ahead >= SPARSE_BEHIND
    figures["replays_sparse"] += sparse
    if kept or sparse:
        later = _with_kept(later, kept, sparse)
    return await run(later, lane=REPLAYS)


def _race_of(later: Callable[..., Any]) -> str | None:
    """The race key of a replay (a ``ReplayLog.drawn``, maybe in a language and with options)."""
    if isinstance(later, InLanguage):
        return _race_of(later.work)
    if isinstance(later, functools.partial):
        later = later.func
    key = getattr(getattr(later, "__self__", None), "key", None)
    return key if isinstance(key, str) else None


def _with_kept(later: Callable[[], T], kept: dict[str, Block], sparse: bool) -> Callable[[], T]:
    if isinstance(later, InLanguage):
        return InLanguage(later.language, _with_kept(later.work, kept, sparse))
    work: Callable[..., T] = later  # a ReplayLog.drawn, which takes ``kept`` and the replay's options
    return functools.partial(work, kept=kept, sparse=sparse)


def _timed_call(call: Callable[[], T], clock: Callable[[], float]) -> tuple[T, float]:
    """``call``'s result and the CPU time it took on ``clock``."""
    began = clock()
    result = call()
    return result, clock() - began


async def _in_thread(lane: str, call: Callable[[], T]) -> T:
    began: list[float] = []

    def timed() -> T:
        began.append(time.monotonic())
        return call()

    try:
        return await _watch(asyncio.ensure_future(asyncio.to_thread(timed)), lambda: began, _limits[lane])
    except WorkerTimeout:
        log.warning(
            "A %s call in a thread ran past %.1f s; going on without it (the thread is left to finish)",
            lane,
            _limits[lane],
        )
        raise


async def _in_process(lane: _Lane, sent: bytes) -> tuple[Any, float]:
    """The pickled call ``sent`` in ``lane``'s processes: its result and CPU time. A worker that dies
    (killed, out of memory) has its call tried once more in a new one, so only a call that kills its
    worker fails (``BrokenProcessPool``). A call that runs past the time limit raises ``WorkerTimeout``
    (not tried again: it would hang the next worker too) and its process is replaced."""
    future = lane.submit(sent)
    try:
        return await future
    except asyncio.CancelledError:
        future.cancel()  # still waiting: never sent; running: its answer is dropped
        raise


async def _watch(future: asyncio.Future[T], began: Callable[[], list[float]], limit: float) -> T:
    """``future``'s result, or ``WorkerTimeout`` once it has run for ``limit`` seconds (``began`` says
    since when it runs: a list with that time, empty while it waits its turn)."""
    poll = max(0.01, min(1.0, limit / 4))  # how late a call's start may be noticed, at most
    try:
        while True:
            since = began()
            wait = poll if not since else min(poll, since[0] + limit - time.monotonic())
            if since and wait <= 0:
                future.cancel()  # a result that comes after all is dropped, not left unretrieved
                figures["timeouts"] += 1
                raise WorkerTimeout
            done, _pending = await asyncio.wait({future}, timeout=wait)
            if done:
                return future.result()
    except asyncio.CancelledError:
        future.cancel()
        raise


async def odds(kind: str, view: dict[str, Any], *, budget_ms: float | None = None) -> Odds | None:
    """The odds of ``view`` for a picture, computed within a share of ``budget_ms``.

    Ruling: the time budget is shared by the pictures and odds waiting, so a busy bot shows odds from
    fewer simulated races (the odds say how many), and with ``ODDS_QUEUE`` or more per process
    already waiting each game's quickest estimate (a budget of 0: Hot Streak's 64 races, Downforce's
    fitted model, the Horse Race's exact odds), a few milliseconds: a card is never held up for its
    odds, and a busy bot's frames still show them (they were left out: 1% of frames had odds at 500
    games).
    """
    lane = _lanes.get(PICTURES)
    processes = lane.processes if lane is not None else 1
    ahead = waiting(PICTURES)
    options: dict[str, Any] = {}
    if ahead >= ODDS_QUEUE * processes:
        figures["odds_quick"] += 1
        options["budget_ms"] = 0.0
    elif budget_ms is not None:
        options["budget_ms"] = budget_ms / (1 + ahead / processes)
    figures["odds"] += 1
    return await run(odds_for, kind, view, **options)


def keeps_frames() -> bool:
    """Whether a live race picture drawn now also keeps its GIF block for the race's replay
    (``bot.games.kept_frames``).

    Ruling: not while ``KEEP_QUEUE`` or more pictures per process wait. Keeping costs 5-8 ms of a
    15-35 ms picture and saves 3-5 times that in the replay, but a card's picture comes first: a busy
    bot's replays draw the frames it did not keep, in the replay lane at a lower priority, or are
    skipped.
    """
    lane = _lanes.get(PICTURES)
    processes = lane.processes if lane is not None else 1
    return waiting(PICTURES) < KEEP_QUEUE * processes


def note_picture(drawn: bool) -> None:
    """A race picture given to be sent was drawn, or not (merged into a newer one, sent as its lines)."""
    global drawn_share
    drawn_share += (float(drawn) - drawn_share) * SHARE_WEIGHT


def catching_up() -> bool:
    """Whether the picture lane is behind (``keeps_frames`` says no) while it still draws most of the
    pictures given to it (``CATCH_UP_SHARE``): a burst of cards it can catch up on.

    Ruling (Hot Streak's live pictures): keep every frame's block for the replay except while catching
    up. Keeping is 3-3.5 ms of a Hot Streak picture's 8-10 ms (the change since the race's previous
    picture, read back from its PNG, LZW-encoded), and at 200 games the pictures merged away were those
    that waited behind a burst: without keeping there, 0.96-0.97 of the cards got a picture where 0.91-0.96
    did, the frames not kept drawn by their replay in the lowest lane. A bot past what its cores draw (at
    500 games a quarter to a third of the pictures) keeps every block, as before: skipping them there too
    drew 0.31-0.53 of the cards against 0.25-0.32 but posted 0.70-0.84 of the replays against 0.92-1.00,
    and twice (2026-12-07, afternoon and late) came with 500-game runs past issue 15's targets; on a
    machine where the code before missed them as well, so not proven, but not worth the risk at the
    load where those targets are thinnest (``docs/scaling.md``)."""
    return not keeps_frames() and drawn_share >= CATCH_UP_SHARE


def ai_effort() -> float:
    """How hard an AI player may think now (1: fully). Ruling: with more than ``AI_QUEUE`` decisions per
    AI process waiting, each thinks proportionally less (down to a tenth), so a busy bot's AI plays a
    little worse instead of keeping its table's people waiting behind every other table's AI."""
    lane = _lanes.get(AI)
    processes = lane.processes if lane is not None else 1
    ahead = waiting(AI) / processes
    return 1.0 if ahead <= AI_QUEUE else max(0.1, AI_QUEUE / ahead)


def _pickled(call: Callable[[], Any]) -> bytes | None:
    """``call`` as the bytes a worker process is sent, or None if it cannot be sent (run in a thread).

    Why the bytes themselves are sent: pickling is the only way to know a call can go to a process, and
    the pool would then pickle the whole call (a race's frames, for a replay) a second time; bytes are
    pickled as one copy."""
    try:
        return pickle.dumps(call, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None


def _unpickled_call(sent: bytes) -> tuple[Any, float]:
    """In the worker: the call ``_pickled`` made into bytes, made again and run; with its CPU time."""
    return _timed_call(pickle.loads(sent), time.process_time)


def _serve(connection: Connection, nice: int) -> None:
    """A worker process's life: calls in, answers out (``_Worker``), one at a time, until its input ends."""
    _worker_started(nice)
    connection.send_bytes(b"")  # ready
    while True:
        try:
            sent = connection.recv_bytes()
        except (EOFError, OSError):
            return  # the bot stopped its workers, or ended
        try:
            result, cpu = _unpickled_call(sent)
            answer = pickle.dumps((True, result, cpu), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:
            answer = _failure(error)
        try:
            connection.send_bytes(answer)
        except OSError:
            return


def _failure(error: Exception) -> bytes:
    text = "".join(traceback.format_exception(error))
    try:
        return pickle.dumps((False, error, text), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that cannot be pickled: its words, at least
        return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}"), text))


def _worker_started(nice: int) -> None:
    # Ctrl-C reaches the whole process group: the bot stops its workers itself, without their tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(nice)
    collector.tune_malloc_for_pictures()  # a picture's buffers reused, not mapped anew (bot.collector)
    collector.keep_trimmed()  # a replay's frames or a burst of pictures would keep it at its peak (bot.collector)
