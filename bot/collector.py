"""The garbage collector (and the C allocator) tuned for a long-running bot.

At 500 games a full collection walked every game's state and held the event loop for 230 ms on
average (400 ms at worst), and the collector ran one every 6 s: the loop's worst pauses. Two
settings, made once at start by the process that runs the bot:

* ``gc.freeze()`` once everything is imported: the modules, classes and functions live as long as the
  process, so the collector never walks them again;
* a young generation of 10,000 objects instead of 700: far fewer collections (most of the bot's
  garbage is freed by reference counting the moment it is dropped; the collector only finds cycles,
  and a few thousand short-lived objects waiting longer for it cost a few hundred kilobytes).

And one for the C allocator, made first of all (``tune_malloc``): glibc gives threads allocation
arenas of their own (up to eight per core), and memory freed in one is kept for that arena; the bot's
threads (the database's, ``asyncio.to_thread``'s) each held their own. Two arenas are enough for a
process whose Python code runs on one thread at a time.

And one more for it, made at the same time: glibc's mmap threshold fixed at ``MMAP_THRESHOLD``. A block
that large (a picture's bytes on their way to Discord, a replay) then gets pages of its own, returned to
the system the moment it is freed. By default the threshold moves up to the largest block freed so far,
so after the first picture every later one came from the heap, between a game's small long-lived pieces.
(Not what made the bot's process climb at the end of a long run: that was ``after_a_game``'s garbage.)

But not in the worker processes (``tune_malloc_for_pictures``): a picture worker makes and frees a frame's
buffers on every card (800 x 600 pixels at 4 bytes, their palette copy, the deltas kept for the replay,
the previous frame read back), and with the threshold fixed each of them was mapped anew and faulted in
page by page: a Hot Streak frame took 4.0-5.7 ms to draw and 5.0-6.8 ms to keep instead of 2.4-3.3 and
3.5-4.1 (``bench/bench_replay.py``'s races, a quiet core; 559,000 page faults for five races' frames,
41,000 now). There the threshold is raised to ``WORK_MMAP_THRESHOLD``, so those buffers come from the
heap and are reused, and ``keep_trimmed`` hands back what a burst left free.

And ``after_a_game``: a finished game's table, presenter, engine and the discord.py objects it held
(interactions, messages, their components) are one graph of reference cycles, which only a full
collection frees, and the young generation of 10,000 made full collections so rare that a 200-game run
had none: the bot's process grew from 130 to 270 MB over the last 80 s as games ended, and a full
collection at the end freed 121,000 objects and 146 MB. Now a table that ends asks for one, run on the
event loop at most once every ``FULL_COLLECTION_EVERY`` seconds (a pause of 0.1-0.3 s at 200 games).

And ``keep_trimmed``, in the bot's process and in every worker: glibc returns freed memory to the system
only from the top of its heap, so one burst (pictures queued for upload behind a rate limit, a replay's
frames) kept the process at its peak size for good although Python held a fifth of it (200 games to the
end: 17 MB traced, 300 MB resident). ``malloc_trim`` every ``TRIM_EVERY`` seconds hands the free pages
back; it takes a few milliseconds, on a thread of its own, so the event loop never waits for it.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import os
import threading
import time
from typing import Any

M_ARENA_MAX = -8  # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
M_TRIM_THRESHOLD = -1
ARENAS = 2
MMAP_THRESHOLD = 128 * 1024
"""Bytes from which a block gets pages of its own (glibc's starting value, kept from moving up)."""

WORK_MMAP_THRESHOLD = 4 * 1024 * 1024
"""A worker's mmap threshold (``tune_malloc_for_pictures``): above any one picture's buffers (a frame's
pixels are 1.9 MB)."""
WORK_TRIM_THRESHOLD = WORK_MMAP_THRESHOLD
"""Free bytes at the top of a worker's heap kept for the next pictures rather than handed back at once;
``keep_trimmed`` hands the rest back. Measured on a race's frames: 16 and 32 MB were no faster and held
7 MB more at their peak (79 MB against 72; 70 with the pages faulted in anew)."""

FULL_COLLECTION_EVERY = 30.0
"""Seconds at least between two full collections asked for by ended games (``after_a_game``)."""

TRIM_EVERY = 15.0
"""Seconds between two ``malloc_trim`` calls (``keep_trimmed``)."""

YOUNG = 10_000
"""Allocations (less deallocations) of tracked objects between two collections of the youngest generation."""


def tune() -> None:
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


def tune_malloc() -> bool:
    """At most ``ARENAS`` malloc arenas and a fixed ``MMAP_THRESHOLD`` from now on (glibc only; elsewhere
    nothing changes): True if set. Call it before the process starts threads; arenas made before are
    kept. Worker processes spawned later inherit ``MALLOC_ARENA_MAX`` and ``MALLOC_MMAP_THRESHOLD_``,
    which glibc reads when a process starts."""
    os.environ.setdefault("MALLOC_ARENA_MAX", str(ARENAS))
    os.environ.setdefault("MALLOC_MMAP_THRESHOLD_", str(MMAP_THRESHOLD))
    return _mallopt((M_ARENA_MAX, ARENAS), (M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def tune_malloc_for_pictures() -> bool:
    """In a worker process (``bot.workers``): blocks under ``WORK_MMAP_THRESHOLD`` come from the heap,
    and up to ``WORK_TRIM_THRESHOLD`` free at its top stays there, so a picture's buffers are reused
    from one card to the next rather than mapped and faulted in anew (the bot's process keeps the low
    threshold it inherited: see the module's docstring). True if set (glibc only)."""
    return _mallopt((M_MMAP_THRESHOLD, WORK_MMAP_THRESHOLD), (M_TRIM_THRESHOLD, WORK_TRIM_THRESHOLD))


def _mallopt(*settings: tuple[int, int]) -> bool:
    """Each (parameter, value) through glibc's ``mallopt``: True if every one was set; False at once
    where the C library has no such call (musl, macOS)."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return all([libc.mallopt(parameter, value) for parameter, value in settings])  # each one set


_full: dict[str, Any] = {"last": 0.0, "due": None, "loop": None, "runs": 0}


def after_a_game(every: float | None = None) -> None:
    """A game's table has ended: a full collection within ``every`` seconds (``FULL_COLLECTION_EVERY``),
    at most one per ``every``, on the running event loop (its finalizers may touch asyncio objects)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop (a table forgotten at shutdown): the process ends anyway
        return
    if _full["due"] is not None and _full["loop"] is loop:
        return  # one is coming: it collects this game's objects too (a closed loop's never comes)
    every = FULL_COLLECTION_EVERY if every is None else every
    wait = max(0.0, _full["last"] + every - time.monotonic())
    _full["due"], _full["loop"] = loop.call_later(wait, _collect_all), loop


def _collect_all() -> None:
    _full["due"] = None
    gc.collect()
    _full["last"] = time.monotonic()
    _full["runs"] += 1


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def _malloc_trim() -> Any | None:
    """glibc's ``malloc_trim``, or None where the C library has no such call (musl, macOS)."""
    return getattr(_libc(), "malloc_trim", None)


def trim() -> bool:
    """Give the C allocator's free pages back to the system now (glibc only): True if it could."""
    malloc_trim = _malloc_trim()
    if malloc_trim is None:
        return False
    malloc_trim(0)
    return True


def keep_trimmed(every: float = TRIM_EVERY, stop: threading.Event | None = None) -> threading.Thread | None:
    """``trim`` every ``every`` seconds on a daemon thread, for the life of the process (or until ``stop``
    is set); None where the C library has no ``malloc_trim`` (nothing to do there)."""
    malloc_trim = _malloc_trim()
    if malloc_trim is None:
        return None

    stopped = stop or threading.Event()

    def loop() -> None:
        while not stopped.wait(every):
            malloc_trim(0)

    thread = threading.Thread(target=loop, name="malloc-trim", daemon=True)
    thread.start()
    return thread
