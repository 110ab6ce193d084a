"""One bot process under load: N concurrent Hot Streak games against the fake Discord, with figures.

    python bench/bench_load.py --games N [--seconds S] [--global-limit R] [--database postgres] [--json]

The bot runs in a process of its own (the real RaceBot, default timings: pace 2.5 s, 5 messages per 5 s
per channel), so its RSS and event-loop lag are the bot's alone; this process holds the fake Discord and
the simulated people. Each game has two people and two AI seats: a person notices what is due within
about a second and then takes 1 to 4 s to click (bets in the channel, secret picks in DMs). Games open
over the first tenth of the run (at most 30 s), as they would in real servers, not all in one second.
The run lasts S seconds or until every game has ended. The bot is told the fake's global limit
(DISCORD_GLOBAL_LIMIT); without --global-limit it runs unpaced, as a bot whose limit Discord raised.

Figures: acknowledgement time as Discord sees it (interaction created -> the bot's first callback, on
the fake's clock, so the fake's own lag is included: a pessimistic figure); the bot's event-loop lag
(a 50 ms ticker in the bot process: how late it wakes); the peak RSS (VmHWM) of the bot's process and
of each worker process, and their sum (``rss_total_mb``); 429s of any kind; requests per second; cards
flipped and games finished (from the bot's database); how much slower than their pace the cards came
(the gap between two flips in a row, divided by the pace); how many race pictures were drawn and how
many merged into a newer one (a busy bot shows fewer pictures rather than fall behind its pace); and
the CPU seconds of the bot, its workers and this process (the fake Discord and the people share the
machine's two cores with the bot).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import gc
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BET_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):bet:")
SELECT_ID = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(submit|double)")
# A decision's button or menu (bot.tables.custom_ids): game, seat, the seat's actions so far, kind.
DECISION_ID = re.compile(r"g:(\d+)(?:\.[0-9a-z]+)?:d:(\d+):(\d+):([a-z0-9_]+):")
MENU_ID = re.compile(r"gs:(\d+)(?:\.[0-9a-z]+)?:(\d+):(\d+):([a-z0-9_]+)$")
TICK = 0.05  # the bot's lag ticker
RSS_EVERY = 10.0  # seconds between two readings of the bot's resident memory
HEAP_EVERY = 60.0  # seconds between two heap profiles (BENCH_PROFILE=memory)
FREEZE_EVERY = 5.0  # seconds between two freezes of the fake's heap (fake_keeps_its_heap_frozen)
HUMAN_SEATS = (0, 3)  # host first, then the two AI seats of /hotstreak start bots:2, then the joiner


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- the bot's process ------------------------------------------------------------------------------


def bot_process() -> int:
    """The real bot with default timings; writes its lag and peak RSS to BENCH_STATS when stopped."""
    import logging

    from bot import collector, workers
    from bot.client import RaceBot
    from bot.config import Settings
    from bot.discord_endpoints import use_endpoints
    from bot.tables.timing import Timing

    collector.tune_malloc()  # as bot.main does, before any thread starts
    # BENCH_LOG=warning shows the bot's warnings too (retries, rate limits: what a stall was doing).
    level = getattr(logging, os.environ.get("BENCH_LOG", "error").upper(), logging.ERROR)
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    settings = Settings.from_env(env_file=None)
    use_endpoints(settings.api_base, settings.gateway_url)
    out = Path(os.environ["BENCH_STATS"])

    profile = os.environ.get("BENCH_PROFILE", "")
    if profile in ("memory", "young"):
        import tracemalloc

        tracemalloc.start(8)  # young: where the young objects were made

    workers.start(workers.processes_for(settings.work_processes))  # as bot.main does
    collector.tune()  # as bot.main does
    if os.environ.get("BENCH_GC"):  # other thresholds to compare, e.g. BENCH_GC=2000,50,10
        gc.set_threshold(*(int(n) for n in os.environ["BENCH_GC"].split(",")))
    collector.keep_trimmed()  # as bot.main does

    pauses = gc_pauses()
    young = young_census() if profile == "young" else None
    slow = slow_callbacks() if profile == "slow" else None
    decisions = watch_decisions()

    async def run() -> None:
        bot = RaceBot(settings, timing=Timing())
        bot._connection.guild_ready_timeout = 0.05  # the fake sends every guild at once
        lags: list[float] = []

        async def ticker() -> None:
            loop = asyncio.get_running_loop()
            while True:
                before = loop.time()
                await asyncio.sleep(TICK)
                lags.append(max(0.0, loop.time() - before - TICK))
                if slow is not None:
                    slow.tick(lags[-1])

        rss_timeline: list[float] = []  # the bot's resident memory every RSS_EVERY s: when the peak comes
        heaps: list[dict[str, Any]] = []  # BENCH_PROFILE=memory: where the heap is, every HEAP_EVERY s

        async def memory_watch() -> None:
            started = time.monotonic()
            next_heap = HEAP_EVERY
            while True:
                await asyncio.sleep(RSS_EVERY)
                rss_timeline.append(current_rss_mb())
                if profile == "memory" and time.monotonic() - started >= next_heap:
                    next_heap += HEAP_EVERY
                    heaps.append({"at_s": round(time.monotonic() - started)} | memory_profile(top=8))

        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        runner = asyncio.create_task(bot.start(settings.token))
        await asyncio.sleep(0)
        tick = asyncio.create_task(ticker())
        memory = asyncio.create_task(memory_watch())
        waits: dict[str, int] = {}
        watch = asyncio.create_task(where_tables_wait(bot, waits)) if profile == "tasks" else None
        await stop.wait()
        tick.cancel()
        memory.cancel()
        if watch is not None:
            watch.cancel()
        stats = {
            "lag_ms": [round(x * 1000, 2) for x in lags],
            "rss_mb": peak_rss_mb(),
            "rss_timeline_mb": rss_timeline,
            "rss_kinds_mb": rss_kinds_mb(),  # at the end, where the peak comes: heap, mapped files, shared
            "rss_maps_mb": rss_maps_mb(),  # and which mappings hold it: main heap, thread arenas, own blocks
            "workers": workers.in_use(),
            "workers_rss_mb": [peak_rss_mb(pid) for pid in workers.worker_pids()],
            "workers_rss_kinds_mb": [rss_kinds_mb(pid) for pid in workers.worker_pids()],
            "cpu_s": cpu_seconds(),
            "workers_cpu_s": [cpu_seconds(pid) for pid in workers.worker_pids()],
            "work": dict(workers.figures),
            # Pillow's own allocator (not traced by tracemalloc, not Python's): anything drawn in the bot's process.
            "pillow": sys.modules["PIL.Image"].core.get_stats() if "PIL.Image" in sys.modules else None,
            "threads": [t.name for t in threading.enumerate()],
            # What a full collection would free at the end: cyclic garbage waiting for the old generation.
            "full_collection": full_collection(),
            "work_cpu_s": {kind: round(seconds, 2) for kind, seconds in workers.cpu_seconds.items()},
            "decisions": decisions,
            "gc_ms": pauses.figures(),
        }
        pacer, outbox = getattr(bot, "requests", None), getattr(bot, "outbox", None)
        storage = getattr(bot, "storage", None)
        if storage is not None and hasattr(storage, "action_figures"):
            stats["stored"] = storage.action_figures
        if pacer is not None and outbox is not None:  # absent before the global pacer existed
            from bot.discord_io import later, place

            stats["replays"] = dict(getattr(later, "figures", {}))  # offered (races), posted
            stats["pacer"] = pacer.figures() | {
                "pictures_merged": outbox.merged,
                "merged_behind": getattr(
                    outbox, "merged_behind", None
                ),  # waiting for its turn, or to be drawn
                "pictures_drawn": outbox.drawn,
                "pictures_offered": getattr(outbox, "offered", None),  # every card frame given to be sent
                "pictures_with_odds": getattr(outbox, "with_odds", None),
                "pictures_undrawn": getattr(outbox, "undrawn", None),  # sent as lines: a message was behind
                "edits_merged": getattr(place, "figures", {}).get("edits_merged"),  # joined a newer edit
                "edits_answering": getattr(place, "figures", {}).get("edits_answering"),  # through a click
            }
        if profile == "memory":
            stats["memory"] = memory_profile()
            stats["memory_timeline"] = heaps
        if profile == "objects":
            stats["objects"] = object_census()
        if young is not None:
            stats["young"] = young
        if slow is not None:
            stats["slow"] = slow.figures()
        if profile == "tasks":
            stats["tables_wait"] = dict(sorted(waits.items(), key=lambda kv: -kv[1])[:25])
        await asyncio.to_thread(out.write_text, json.dumps(stats))
        await bot.close()
        runner.cancel()

    asyncio.run(run())
    workers.stop()
    return 0


def watch_decisions() -> dict[str, Any]:
    """When each person's decision began (the engine made it pending: on the wall clock, which the fake
    shares) and its deadline, and every deadline takeover (the AI deciding for a late person), keyed
    ``game:seat:n:kind`` as the decision's buttons and menus say (``bot.tables.custom_ids``)."""
    from bot.tables.table import Table

    # key -> [began, deadline or None, place id, when the deadline was set, when the table asked for its prompt]
    began: dict[str, list[Any]] = {}
    expired: list[dict[str, Any]] = []

    def note(table: Any, asking: bool = False) -> None:
        moment = time.time()
        try:
            waiting = table.human_pending()
        except Exception:
            return
        for d in waiting:
            key = f"{table.game_id}:{d.player}:{table.acted[d.player]}:{d.kind}"
            entry = began.setdefault(key, [moment, None, table.place.place_id, None, None])
            if asking and entry[4] is None:
                entry[4] = moment  # the table asks for its prompt (after announcing what led to it)
            if entry[1] is None and table.deadline is not None and not asking:
                entry[1], entry[3] = table.deadline, moment

    def after(name: str) -> None:
        original = getattr(Table, name)
        if asyncio.iscoroutinefunction(original):

            async def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
                if name == "show_prompts":
                    note(self, asking=True)
                try:
                    return await original(self, *args, **kwargs)
                finally:
                    note(self)
        else:

            def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
                try:
                    return original(self, *args, **kwargs)
                finally:
                    note(self)

        setattr(Table, name, wrapped)

    for name in ("start_engine", "commit", "show_prompts"):
        after(name)
    original_expire = Table._expire

    async def expire(self: Any, late: Any) -> None:
        moment = time.time()
        for d in self.human_pending():
            key = f"{self.game_id}:{d.player}:{self.acted[d.player]}:{d.kind}"
            expired.append({"key": key, "at": moment, "deadline": self.deadline})
        await original_expire(self, late)

    Table._expire = expire  # type: ignore[method-assign]
    return {"began": began, "expired": expired}


@dataclasses.dataclass
class Collections:
    """The garbage collections of one process: each one's pause per generation (wall ms), and in all
    their CPU time (ms) and the objects they freed (cyclic garbage: its freeing is part of the pause)."""

    pauses: dict[int, list[float]] = dataclasses.field(default_factory=lambda: {0: [], 1: [], 2: []})
    cpu_ms: float = 0.0
    collected: int = 0

    def figures(self) -> dict[str, dict[str, float]]:
        """Per generation: how many collections, their total and longest pause (ms); and the CPU and
        the objects freed of all of them (the pauses are wall time, which a busy machine stretches)."""
        return {
            **{
                f"gen{gen}": {
                    "count": len(ms),
                    "total": round(sum(ms)),
                    "max": round(max(ms, default=0.0), 1),
                }
                for gen, ms in self.pauses.items()
            },
            "cpu": {"total": round(self.cpu_ms), "collected": self.collected},
        }


def gc_pauses() -> Collections:
    """How long each of the process's garbage collections held the loop, from now on."""

    seen = Collections()
    started = [0.0, 0.0]  # when the running collection started: wall clock, this thread's CPU clock

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter(), time.thread_time()]
        elif started[0]:
            seen.pauses[info["generation"]].append((time.perf_counter() - started[0]) * 1000)
            seen.cpu_ms += (time.thread_time() - started[1]) * 1000
            seen.collected += info.get("collected", 0)

    gc.callbacks.append(timed)
    return seen


async def where_tables_wait(bot: Any, waits: dict[str, int]) -> None:
    """``BENCH_PROFILE=tasks``: every second, where each table's loop is suspended (its innermost three
    frames of our code), counted: a table stuck behind something shows up as a large count."""
    while True:
        await asyncio.sleep(1.0)
        for table in list(bot.tables.by_id.values()):
            task = table.task
            if task is None or task.done():
                continue
            ours, coro = [], task.get_coro()
            while coro is not None:  # the chain of awaits (Task.get_stack gives only the outermost)
                frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
                filename = frame.f_code.co_filename if frame is not None else ""
                if filename.startswith(str(ROOT)) and "/.venv/" not in filename:
                    where = filename.rsplit("/", 2)[-1]
                    ours.append(f"{where}:{frame.f_lineno} {frame.f_code.co_name}")  # type: ignore[union-attr]
                coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            key = " < ".join(reversed(ours[-3:]))
            waits[key] = waits.get(key, 0) + 1


class SlowCallbacks:
    """``BENCH_PROFILE=slow``: every event-loop callback that held the loop ``over_ms`` or more, by what
    ran (a task's coroutine and the line it stopped at next) and how much of it garbage collections
    took: what sets the loop lag's tail besides the collector."""

    def __init__(self, over_ms: float = 40.0) -> None:
        self.over = over_ms / 1000
        self.gc_s = 0.0  # collections' time so far (the loop's thread only collects while a callback runs)
        self.by_what: dict[str, list[float]] = collections.defaultdict(list)
        self.gc_in_slow: list[float] = []
        self.wall_s = 0.0  # callbacks' time on the wall clock, and on the loop thread's CPU clock: the
        self.cpu_s = 0.0  # difference is the loop waiting for a core or for the GIL mid-callback
        self.since_tick: list[tuple[str, float]] = []  # every callback since the lag ticker last woke
        self.gc_since_tick = 0.0
        self.late_ticks: list[dict[str, Any]] = []  # what ran while the ticker was late (over 80 ms)
        self.began = time.monotonic()

    def tick(self, lag: float) -> None:
        """The ticker woke ``lag`` s late: if by more than 80 ms, what ran meanwhile."""
        if lag > 0.08 and len(self.late_ticks) < 400:
            ran = self.since_tick
            by: dict[str, float] = collections.defaultdict(float)
            for what, took in ran:
                by[what] += took
            top = sorted(by.items(), key=lambda kv: -kv[1])[:4]
            self.late_ticks.append(
                {
                    "at_s": round(time.monotonic() - self.began, 1),
                    "lag_ms": round(lag * 1000),
                    "callbacks": len(ran),
                    "ran_ms": round(sum(t for _, t in ran) * 1000),
                    "gc_ms": round(self.gc_since_tick * 1000),
                    "top": [(w, round(t * 1000)) for w, t in top],
                }
            )
        self.since_tick = []
        self.gc_since_tick = 0.0

    def figures(self) -> dict[str, Any]:
        rows = sorted(self.by_what.items(), key=lambda kv: -sum(kv[1]))[:30]
        return {
            "slow": sum(len(v) for v in self.by_what.values()),
            "gc_share": round(
                sum(self.gc_in_slow) / max(1e-9, sum(sum(v) for v in self.by_what.values())), 2
            ),
            "top": [
                {"what": k, "n": len(v), "ms": round(sum(v) * 1000), "max": round(max(v) * 1000)}
                for k, v in rows
            ],
            "late_ticks": self.late_ticks,
            "callbacks_wall_s": round(self.wall_s, 1),
            "callbacks_cpu_s": round(self.cpu_s, 1),
        }


def slow_callbacks() -> SlowCallbacks:
    from asyncio import events

    seen = SlowCallbacks()
    started = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            took = time.perf_counter() - started[0]
            seen.gc_s += took
            seen.gc_since_tick += took

    gc.callbacks.append(timed)
    original = events.Handle._run

    def run(handle: Any) -> None:
        before, gc_before, cpu_before = time.perf_counter(), seen.gc_s, time.thread_time()
        original(handle)
        took = time.perf_counter() - before
        seen.wall_s += took
        seen.cpu_s += time.thread_time() - cpu_before
        seen.since_tick.append((_what_ran(handle) if took > 0.002 else "small", took))
        if took < seen.over:
            return
        gc_took = seen.gc_s - gc_before
        seen.gc_in_slow.append(gc_took)
        what = _what_ran(handle)
        seen.by_what[what + (" +gc" if gc_took > took / 2 else "")].append(took)

    events.Handle._run = run  # type: ignore[method-assign,assignment]
    return seen


def _what_ran(handle: Any) -> str:
    callback = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    coro = task.get_coro() if isinstance(task, asyncio.Task) else None
    if coro is None:
        return getattr(callback, "__qualname__", repr(callback))[:80]
    names = []
    while coro is not None:
        names.append(getattr(coro, "__qualname__", "?"))
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(names[:4])


def young_census(every: int = 10, samples: int = 8) -> list[dict[str, Any]]:
    """``BENCH_PROFILE=young``: what a young collection walks, on every ``every``-th one (``samples`` of
    them): the young objects by type, and by the references each type holds (a collection visits every
    reference of every young container: a few large ones make it slow); and the cyclic garbage it found,
    by type. Costly: for finding only."""
    import tracemalloc

    found: list[dict[str, Any]] = []
    seen = [0]

    def census(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and gc.get_debug() & gc.DEBUG_SAVEALL:
            # The garbage this sampled collection found (kept aside by DEBUG_SAVEALL), by type: the cycles
            # whose freeing and finalizing the pause pays for. Let go at once, collected next time.
            garbage = collections.Counter(type(o).__qualname__ for o in gc.garbage)
            found[-1]["garbage"] = sum(garbage.values())
            found[-1]["garbage_by_type"] = dict(garbage.most_common(12))
            gc.garbage.clear()
            gc.set_debug(0)
            return
        if phase != "start" or info["generation"] != 0 or len(found) >= samples:
            return
        seen[0] += 1
        if seen[0] % every:
            return
        counts: collections.Counter[str] = collections.Counter()
        refs: collections.Counter[str] = collections.Counter()
        sites: collections.Counter[str] = collections.Counter()
        for o in gc.get_objects(0):
            name = type(o).__qualname__
            counts[name] += 1
            refs[name] += len(gc.get_referents(o))
            made = tracemalloc.get_object_traceback(o)
            if made is not None:  # where it was made: the innermost frames, the bot's own first
                innermost = list(reversed(made))  # tracemalloc lists the oldest frame first
                frames = [f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}" for f in innermost]
                ours = [
                    f
                    for f, g in zip(frames, innermost, strict=True)
                    if "/bot/" in g.filename or "/cogs/" in g.filename
                ]
                sites[f"{name} {frames[0]} < {ours[0] if ours else '?'}"] += 1
        found.append(
            {
                "objects": sum(counts.values()),
                "references": sum(refs.values()),
                "by_count": dict(counts.most_common(8)),
                "by_references": dict(refs.most_common(8)),
                "by_site": dict(sites.most_common(25)),
            }
        )
        gc.set_debug(gc.DEBUG_SAVEALL)

    gc.callbacks.append(census)
    return found


def object_census(generation: int | None = None, top: int = 20) -> dict[str, Any]:
    """What the garbage collector walks at a full collection (``BENCH_PROFILE=objects``), or in one
    ``generation``: how many objects, the most common types and the packages they come from."""
    tracked = gc.get_objects() if generation is None else gc.get_objects(generation)
    kinds = collections.Counter(type(o) for o in tracked)
    del tracked  # (not held through a collection that follows)
    names: collections.Counter[str] = collections.Counter()
    packages: collections.Counter[str] = collections.Counter()
    for kind, count in kinds.items():
        names[kind.__qualname__] += count
        packages[_package(kind)] += count
    return {
        "tracked": sum(kinds.values()),
        "top": dict(names.most_common(top)),
        "packages": dict(packages.most_common(8)),
    }


def memory_profile(top: int = 15) -> dict[str, Any]:
    """Where the Python heap is (``BENCH_PROFILE=memory``): the traced total and the biggest sites."""
    import tracemalloc

    snapshot = tracemalloc.take_snapshot()
    current, peak = tracemalloc.get_traced_memory()
    sites = snapshot.statistics("traceback")[:top]
    return {
        "traced_mb": round(current / 2**20, 1),
        "traced_peak_mb": round(peak / 2**20, 1),
        "top": [
            {"mb": round(s.size / 2**20, 2), "count": s.count, "where": [str(f) for f in s.traceback][-8:]}
            for s in sites
        ],
    }


def cpu_seconds(pid: int | str = "self") -> float:
    """The CPU time (user and system) a process has used so far: where the 2 cores went."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 1)


def current_rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def rss_kinds_mb(pid: int | str = "self") -> dict[str, float]:
    """What the resident memory is made of now (``/proc/<pid>/smaps_rollup``): ``Anonymous`` is the C
    allocator's heap (Python's objects and everything C code allocated), ``Rss`` less it mostly mapped
    files (the interpreter, Pillow's and OpenSSL's libraries)."""
    kinds = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        if name in ("Rss", "Anonymous", "Shared_Clean", "Private_Clean", "Private_Dirty"):
            kinds[name] = round(int(rest.split()[0]) / 1024, 1)
    return kinds


def _package(kind: type) -> str:
    module = getattr(kind, "__module__", None)  # (a C type may have a descriptor there: asyncpg's)
    return module.split(".")[0] if isinstance(module, str) else "?"


def full_collection() -> dict[str, Any]:
    """A full collection now and a trim: the objects it freed and the resident memory before and after
    (the young-generation threshold and the frozen start make full collections rare: none in most runs)."""

    from bot import collector

    # What a full collection walks (issue 31: "find what survives to the old generation"): the objects the
    # collector tracks in each generation, the oldest by type, and how long walking them all takes now.
    old = object_census(2, top=12)
    counts = [len(gc.get_objects(0)), len(gc.get_objects(1)), old["tracked"]]
    before = current_rss_mb()
    started = time.perf_counter()
    freed = gc.collect()
    took = time.perf_counter() - started
    collector.trim()
    return {
        "objects_freed": freed,
        "ms": round(took * 1000),
        "tracked": counts,
        "frozen": gc.get_freeze_count(),
        "old_by_type": old["top"],
        "old_by_module": old["packages"],
        "rss_before_mb": before,
        "rss_after_mb": current_rss_mb(),
    }


def rss_maps_mb(pid: int | str = "self", top: int = 8) -> list[dict[str, Any]]:
    """The mappings that hold the most resident memory now (``/proc/<pid>/smaps``): glibc's main heap
    (``[heap]``, the event loop's thread), a thread arena's 64 MB heaps (the database's thread, the
    default executor's), blocks mapped on their own and Python's arenas (anonymous, of their own size)."""
    maps: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and not head[0].endswith(":"):
            start, end = (int(x, 16) for x in head[0].split("-"))
            current = {
                "name": head[5] if len(head) > 5 else "anonymous",
                "size_mb": round((end - start) / 2**20, 1),
            }
            maps.append(current)
        elif current is not None and line.startswith("Rss:"):
            current["rss_mb"] = round(int(head[1]) / 1024, 1)
    anonymous = [m for m in maps if m["name"] == "anonymous"]
    small = [m for m in anonymous if m["size_mb"] < 4]  # Python's 1 MiB arenas, blocks mapped on their own
    biggest = sorted((m for m in maps if m not in small), key=lambda m: -m.get("rss_mb", 0))[:top]
    return biggest + [
        {
            "name": "anonymous under 4 MB",
            "count": len(small),
            "rss_mb": round(sum(m.get("rss_mb", 0) for m in small), 1),
        }
    ]


def show_shares(child: dict[str, Any]) -> dict[str, float | None]:
    """How much of the show the people got (issue 31): card frames sent with a picture of their own
    (``pictures_per_card``: drawn over given, the rest merged into a newer one or sent as lines), those
    pictures showing the odds (``odds_share``), and races whose replay was posted (``replays_share``)."""
    pacer, replays = child.get("pacer") or {}, child.get("replays") or {}

    def share(part: Any, whole: Any) -> float | None:
        return round(part / whole, 3) if isinstance(part, int) and isinstance(whole, int) and whole else None

    return {
        "pictures_per_card": share(pacer.get("pictures_drawn"), pacer.get("pictures_offered")),
        "odds_share": share(pacer.get("pictures_with_odds"), pacer.get("pictures_drawn")),
        "replays_share": share(replays.get("posted"), replays.get("offered")),
    }


def peak_rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


# --- the people -----------------------------------------------------------------------------------------


class People:
    """Two people at one table, clicking at a human pace."""

    def __init__(self, fake: Any, channel: Any, host: Any, guest: Any, rng: random.Random) -> None:
        self.fake, self.channel, self.rng = fake, channel, rng
        self.users = {HUMAN_SEATS[0]: host, HUMAN_SEATS[1]: guest}
        self.dm_ids = {user.id: fake.dm_channel(user).id for user in (host, guest)}
        self.done: set[str] = set()
        # Clicks sent, by what they decided: one Discord gave up on (answered after its 3 s) failed on the
        # person's screen and left the same buttons, so they click again, as a person does.
        self.sent: dict[str, Any] = {}
        self.again = 0
        self.finals: dict[int, float] = {}  # Watch.finals: channels whose final standings are out
        self.finished = False

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(1.0, 4.0))

    async def play(self, start_at: float, end_at: float) -> None:
        fake, channel = self.fake, self.channel
        host, guest = self.users[HUMAN_SEATS[0]], self.users[HUMAN_SEATS[1]]
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        # In the channel itself, where these people look (a game's own thread is the default since the
        # thread support; the figures in docs/scaling.md are for games in their channels).
        await fake.slash(host, channel, "hotstreak start", wait=False, players=4, bots=2, where="channel")
        lobby = None
        while lobby is None and time.monotonic() < end_at:
            await asyncio.sleep(self.rng.uniform(0.5, 1.0))
            lobby = next((m for m in channel.messages if any(b.label == "Join" for b in m.buttons)), None)
        if lobby is None:
            return
        await self.think()
        await fake.click_button(guest, lobby, "Join", wait=False)
        while time.monotonic() < end_at:
            await asyncio.sleep(self.rng.uniform(0.5, 1.0))  # how often a person glances at the game
            recent = channel.messages[-8:]
            # Anywhere in the channel: a replay or a late line may come after the standings.
            if any("Final standings" in m.text for m in recent) or self.channel.id in self.finals:
                self.finished = True
                return
            await self.act(recent)

    async def act(self, recent: list[Any]) -> None:
        """One due move, after thinking about it; a button gone meanwhile is simply not clicked."""
        from bot.fakediscord import ImpossibleAction

        for key, interaction in list(self.sent.items()):
            if interaction.late:  # "This interaction failed": the click did not count
                del self.sent[key]
                self.done.discard(key)
                self.again += 1
        for message in reversed(recent):
            choices: dict[int, list[str]] = {}
            for button in message.buttons:
                match = BET_ID.match(button.custom_id or "")
                if match and not button.disabled and int(match.group(1)) in self.users:
                    choices.setdefault(int(match.group(1)), []).append(button.custom_id or "")
            for seat, ids in choices.items():
                key = ids[0].rsplit(":", 1)[0]
                if key in self.done:
                    continue
                self.done.add(key)
                await self.think()
                with contextlib.suppress(ImpossibleAction):
                    self.sent[key] = await self.fake.click(
                        self.users[seat], message, self.rng.choice(ids), wait=False
                    )
                return
        for user in self.users.values():
            # Their DMs, and the private answers to their clicks (a secret pick that follows their last
            # bet in the same wait is shown there, not sent as a second DM).
            for message in self.fake.dm_channel(user).messages[-3:] + self.fake.ephemeral_for(user)[-3:]:
                for menu in message.selects:
                    if SELECT_ID.match(menu.custom_id) and menu.custom_id not in self.done:
                        self.done.add(menu.custom_id)
                        await self.think()
                        with contextlib.suppress(ImpossibleAction):
                            self.sent[menu.custom_id] = await self.fake.select(
                                user, message, menu.custom_id, [menu.values[0]], wait=False
                            )
                        return


STALL_SECONDS = 60.0
"""Nothing shown anywhere for this long while some people still wait for their game's end: a stall."""


async def until_done_or_stalled(players: list[asyncio.Task[None]], tables: list[People], watch: Watch) -> int:
    """Wait for every table's people; if the whole fake goes quiet for ``STALL_SECONDS`` while some still
    wait, say on stderr what each of their channels showed last, stop them, and return how many."""
    while True:
        done, pending = await asyncio.wait(players, timeout=5.0)
        if not pending:
            return 0
        last = max((moments[-1][0] for moments in watch.activity.values() if moments), default=time.time())
        if time.time() - last < STALL_SECONDS:
            continue
        waiting = [t for t, task in zip(tables, players, strict=True) if not task.done()]
        print(
            f"stalled: {len(waiting)} games still waited after {STALL_SECONDS:.0f} s of silence",
            file=sys.stderr,
        )
        for table in waiting[:10]:
            print(f"-- channel {table.channel.id}:", file=sys.stderr)
            for moment, what in watch.activity.get(table.channel.id, [])[-8:]:
                print(f"   {time.strftime('%H:%M:%S', time.localtime(moment))} {what}", file=sys.stderr)
            for message in table.channel.messages[-3:]:
                text = (message.text or "").replace("\n", " | ")[:160]
                print(f"   last message: {text}", file=sys.stderr)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return len(waiting)


class Watch:
    """What the bot showed, and when (wall clock, which the bot's process shares): every message it
    posts or edits where people see it (channels and DMs), through the fake's own announcements."""

    def __init__(self, fake: Any) -> None:
        from bot.fakediscord.model import iter_components

        self.iter_components = iter_components
        self.shown: dict[str, float] = {}  # decision key -> first moment its control was on screen
        self.shown_how: dict[str, str] = {}  # decision key -> "post in channel", "edit in dm"...
        self.finals: dict[int, float] = {}  # channel id -> when its game's final standings were posted
        # channel id -> (moment, what) of every post and edit
        self.activity: dict[int, list[tuple[float, str]]] = collections.defaultdict(list)
        original = fake._announce_message

        def announce(event: str, message: Any, data: dict[str, Any] | None = None) -> None:
            original(event, message, data)
            if event != "MESSAGE_DELETE":
                self.saw(message)

        fake._announce_message = announce
        # Private answers (ephemeral) are not announced to the gateway: a prompt shown in one (the next
        # step of a wait, after a click) is seen as it is made or edited.
        made, changed = fake.conversation.made, fake.conversation.changed

        def made_privately(message: Any) -> None:
            made(message)
            if message.ephemeral and message.components:
                self.saw(message)

        def changed_privately(message: Any, **how: Any) -> None:
            changed(message, **how)
            if message.ephemeral:
                asyncio.get_running_loop().call_soon(self.saw, message)  # once the edit is applied

        fake.conversation.made = made_privately
        fake.conversation.changed = changed_privately

    def saw(self, message: Any) -> None:
        moment = time.time()
        title = (message.embeds[0].get("title") or "") if message.embeds else ""
        what = f"{'edit' if message.edits else 'post'}: {(message.content or title)[:60]}"
        self.activity[message.channel.id].append((moment, what))
        if "Final standings" in what:
            self.finals.setdefault(message.channel.id, moment)
        for component in self.iter_components(message.components):
            custom_id = component.get("custom_id") or ""
            if component.get("disabled"):
                continue
            match = DECISION_ID.match(custom_id) or MENU_ID.match(custom_id)
            if match:
                key = ":".join(match.groups())
                if key not in self.shown:
                    self.shown[key] = moment
                    # How it was first shown: a new message (post) or an edit, where (DM, private, channel).
                    where = "dm" if message.channel.is_dm else "private" if message.ephemeral else "channel"
                    self.shown_how[key] = f"{what.split(':', 1)[0]} in {where}"


def prompt_figures(
    decisions: dict[str, Any], watch: Watch, tables: list[Any], ended: float
) -> dict[str, Any]:
    """Deadline takeovers (and whether the late person had been shown the prompt, and when), prompts
    never shown or shown late (after more than a quarter of their deadline, or more than 2 s after their
    decision began), and the longest silence in any game (no post or edit in its channel or its people's
    DMs), from its first message to its last (to the end of the run for a game that did not finish)."""
    began: dict[str, list[Any]] = decisions.get("began", {})
    delays, after_ask, late, over_2s, never = [], [], [], 0, []
    slow_kinds: collections.Counter[str] = collections.Counter()  # prompts shown over 2 s late, by kind
    slow_how: collections.Counter[str] = collections.Counter()  # ... and by how they were first shown
    for key, (start, deadline, _place, set_at, asked) in began.items():
        shown = watch.shown.get(key)
        if shown is None:
            never.append(key)
            continue
        delay = max(0.0, shown - start)
        delays.append(delay)
        if asked is not None:
            after_ask.append(max(0.0, shown - asked))
        over_2s += delay > 2.0
        if delay > 2.0:
            slow_kinds[key.rsplit(":", 1)[-1]] += 1
            slow_how[watch.shown_how.get(key, "?")] += 1
        length = (deadline - set_at) if deadline and set_at else None
        if length and delay > length / 4:
            late.append(key)
    takeovers = []
    for item in decisions.get("expired", []):
        start = began.get(item["key"], [None])[0]
        shown = watch.shown.get(item["key"])
        takeovers.append(
            {
                "key": item["key"],
                "shown_after_s": round(shown - start, 1) if shown and start else None,
                "deadline_after_s": round(item["deadline"] - start, 1)
                if item["deadline"] and start
                else None,
                "expired_after_s": round(item["at"] - start, 1) if start else None,
            }
        )
    silences = []
    for people in tables:
        moments = sorted(
            watch.activity.get(people.channel.id, [])
            + [
                t
                for user in people.users.values()
                for t in watch.activity.get(people.dm_ids.get(user.id, 0), [])
            ]
        )
        if not moments:
            continue
        # A game lasts from its first message to its final standings (a replay added to them after is
        # not the game waiting), or to the end of the run.
        final = next((i for i, (_t, what) in enumerate(moments) if "Final standings" in what), None)
        moments = moments[: final + 1] if final is not None else [*moments, (ended, "(end of the run)")]
        first = moments[0][0]
        gaps = [
            (
                b[0] - a[0],
                people.channel.guild.name if people.channel.guild else "",
                round(a[0] - first),
                a[1],
                b[1],
            )
            for a, b in zip(moments, moments[1:], strict=False)
        ]
        if gaps:
            silences.append(max(gaps))
    longest = max(silences, default=(0.0, "", 0, "", ""))
    over = collections.Counter(f"{g[3][:30]} -> {g[4][:30]}" for g in silences if g[0] > 12.5)
    return {
        "decisions": len(began),
        "takeovers": len(takeovers),
        "takeovers_shown": sum(1 for t in takeovers if t["shown_after_s"] is not None),
        "takeover_list": takeovers[:40],
        "never_shown": len(never),
        "never_shown_list": never[:20],
        "shown_late": len(late),
        "shown_over_2s": over_2s,
        "shown_over_2s_by_kind": dict(slow_kinds),
        "shown_over_2s_by_how": dict(slow_how),
        "show_delay_s": {
            "p50": round(percentile(delays, 0.5), 2),
            "p99": round(percentile(delays, 0.99), 2),
            "max": round(max(delays, default=0.0), 2),
        },
        "show_delay_after_ask_s": {
            "p50": round(percentile(after_ask, 0.5), 2),
            "p99": round(percentile(after_ask, 0.99), 2),
            "max": round(max(after_ask, default=0.0), 2),
        },
        "longest_silence_s": round(longest[0], 1),
        "longest_silence_where": f"{longest[1]}, {longest[2]} s in, after {longest[3]!r}, before {longest[4]!r}",
        "silences_over_12_5_s": {
            "games": sum(1 for g in silences if g[0] > 12.5),
            "between": dict(over.most_common(6)),
        },
        "silence_p90_s": round(percentile([x[0] for x in silences], 0.9), 1),
    }


async def fake_lag(lags: list[float], until: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not until.is_set():
        before = loop.time()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - before - TICK))


async def fake_keeps_its_heap_frozen(until: asyncio.Event) -> None:
    """The fake Discord keeps every message, edit and interaction of the run, so its heap only grows
    (millions of objects at 500 games), and each full collection of it walked them all: pauses of its
    loop that the acknowledgement figure (read on the fake's clock) counted against the bot. Discord's
    servers do not pause for our bot, so every ``FREEZE_EVERY`` s what the fake holds moves to the
    collector's permanent generation (``gc.freeze``: a list splice), and its collections walk only
    what is new. Its pauses are reported (``fake_gc_ms``)."""

    while not until.is_set():
        gc.freeze()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(until.wait(), FREEZE_EVERY)


async def bench(
    games: int, seconds: float, global_limit: float | None, database: str = "sqlite"
) -> dict[str, Any]:
    from bot.client import PERMISSIONS
    from bot.fakediscord import FakeDiscord

    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    db, stats_file = folder / "bot.db", folder / "stats.json"
    url = str(db)
    # A throwaway server, syncing to disk as a real one does, in a folder of its own under the temporary
    # folder (the server's user must reach it; the bench's own folder is private to this user).
    pg_folder: Path | None = None
    if database == "postgres":
        from tests.bot.storage import pg_server

        pg_folder = Path(tempfile.mkdtemp(prefix="bench-load-pg-"))
        url = pg_server.start(pg_folder, durable=True)
    rng = random.Random(15)
    fake_pauses = gc_pauses()  # the fake's and the people's own collections, in this process
    async with FakeDiscord(rate_limit=(5, 5.0), enforce_rate_limits=True, global_limit=global_limit) as fake:
        watch = Watch(fake)
        tables = []
        for number in range(games):
            guild = fake.add_guild(f"Server {number}", bot_permissions=PERMISSIONS.value)
            channel = guild.add_text_channel("games")
            host = fake.add_user(f"host{number}", guild=guild)
            guest = fake.add_user(f"guest{number}", guild=guild)
            tables.append(People(fake, channel, host, guest, random.Random(rng.random())))
            tables[-1].finals = watch.finals
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": url,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "BENCH_STATS": str(stats_file),
            # The bot paces itself to the limit the fake enforces; without one, as a bot whose limit
            # Discord raised (large bots ask for that), so the run measures what one process carries.
            "DISCORD_GLOBAL_LIMIT": f"{global_limit:g}" if global_limit else "none",
            # The bot-wide cap on games at once (bot.config): the run's own count, so none is refused.
            "MAX_GAMES_AT_ONCE": str(games),
            "PYTHONPATH": str(ROOT),
        }
        bot = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--bot-process", env=env, cwd=ROOT
        )
        try:
            await fake.wait_for(lambda: fake.global_commands, timeout=120, what="the bot's commands")
            await asyncio.sleep(1.0)
            started = time.monotonic()
            end_at = started + seconds
            spread = min(30.0, seconds / 10)
            stop_lag = asyncio.Event()
            lags: list[float] = []
            lag_task = asyncio.create_task(fake_lag(lags, stop_lag))
            # BENCH_FAKE_GC=plain: the fake collects as any process does (the figures before the freezes).
            plain = os.environ.get("BENCH_FAKE_GC") == "plain"
            freezer = asyncio.create_task(asyncio.sleep(0) if plain else fake_keeps_its_heap_frozen(stop_lag))
            players = [
                asyncio.create_task(t.play(started + spread * i / max(games, 1), end_at))
                for i, t in enumerate(tables)
            ]
            stalled = await until_done_or_stalled(players, tables, watch)
            elapsed, ended = time.monotonic() - started, time.time()
            stop_lag.set()
            await lag_task
            await freezer
        finally:
            bot.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(bot.wait(), 60)
            except TimeoutError:
                bot.kill()
        acks = [
            (ix.callbacks[0].at - ix.created_at) * 1000 for ix in fake.interactions.values() if ix.callbacks
        ]
        unanswered = sum(1 for ix in fake.interactions.values() if not ix.callbacks)
        by_kind: dict[str, list[float]] = {}
        for ix in fake.interactions.values():
            if ix.callbacks:
                kind = (
                    ix.command
                    or (ix.custom_id or "").split(":")[0] + ":" + (ix.custom_id or "").split(":")[-1]
                )
                by_kind.setdefault(kind, []).append((ix.callbacks[0].at - ix.created_at) * 1000)
        late = sum(1 for ix in fake.interactions.values() if ix.late)
        # What the people were told privately besides their choices' confirmations (refusals, "couldn't
        # save"...), the most frequent first.
        told = collections.Counter(
            message.text.splitlines()[0][:80] if message.text else "(no text)"
            for ix in fake.interactions.values()
            for message in ix.messages
            if message.ephemeral and not message.text.startswith(("✅", "🤫"))
        )
        traffic = fake.traffic.summary()
        routes = {f"{m} {r}": n for (m, r), n in fake.traffic.per_route.most_common(8)}
    child: dict[str, Any] = (
        json.loads(stats_file.read_text()) if stats_file.exists() else {"lag_ms": [], "rss_mb": 0}
    )
    try:
        games_rows, action_rows = await database_rows(url)
    finally:
        if pg_folder is not None:
            pg_server.stop(pg_folder)
    finished, cards, slowdown = from_database(games_rows, action_rows)
    prompts = prompt_figures(child.get("decisions", {}), watch, tables, ended)
    statuses = [status for _id, status, _settings in games_rows]
    return {
        "games": games,
        "database": database,
        "seconds": round(elapsed, 1),
        "started": sum(status != "lobby" for status in statuses),  # past their lobby (or ended)
        "in_lobby": statuses.count("lobby"),
        "finished": finished,
        "stalled": stalled,  # games whose people still waited when everything had gone quiet
        "cards_flipped": cards,
        "prompts": prompts,
        "ack_ms": {
            "p50": round(percentile(acks, 0.5), 1),
            "p99": round(percentile(acks, 0.99), 1),
            "max": round(max(acks, default=0.0), 1),
        },
        "loop_lag_ms": {
            "p99": round(percentile(child["lag_ms"], 0.99), 1),
            "max": round(max(child["lag_ms"], default=0.0), 1),
        },
        "rss_mb": child["rss_mb"],
        "workers_rss_mb": child.get("workers_rss_mb", []),
        "rss_total_mb": round(child["rss_mb"] + sum(child.get("workers_rss_mb", [])), 1),
        "cpu_s": {  # where the 2 cores went: the bot, its workers, and this process (the fake and the people)
            "bot": child.get("cpu_s"),
            "workers": child.get("workers_cpu_s", []),
            "fake_and_people": cpu_seconds(),
        },
        # Where each flipped card's CPU went (issue 31): the bot's process (its event loop, and the work
        # that ran in its threads if it had no workers) and the work by kind, wherever it ran.
        "cpu_ms_per_card": {
            kind: round(1000 * seconds / max(cards, 1), 2)
            for kind, seconds in {
                "bot_process": child.get("cpu_s") or 0.0,
                **child.get("work_cpu_s", {}),
            }.items()
        },
        **show_shares(child),
        "http_429": traffic["http_429"],
        "global_429": traffic["global_429"],
        "requests_per_s": traffic["requests_per_s"],
        "peak_second": traffic["peak_second"],
        "requests": traffic["requests"],
        "user_fetches": traffic["user_fetches"],
        "unanswered": unanswered,
        "late": late,
        "clicked_again": sum(people.again for people in tables),  # after a click that came too late
        "private_answers": dict(told.most_common(8)),
        "ack_p99_by_kind": {k: round(percentile(v, 0.99), 1) for k, v in sorted(by_kind.items())},
        "flip_gap_over_pace": slowdown,
        "fake_lag_ms_p99": round(percentile([x * 1000 for x in lags], 0.99), 1),
        "fake_gc_ms": fake_pauses.figures(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "top_routes": routes,
        "bot": {
            k: v
            for k, v in child.items()
            if k not in ("lag_ms", "rss_mb", "workers_rss_mb", "cpu_s", "workers_cpu_s", "decisions")
        },
    }


async def database_rows(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The games (id, status, settings) and their actions (game, seq, action, time), from either database."""
    games_sql = "SELECT id, status, settings FROM games"
    actions_sql = "SELECT game_id, seq, action, created_at FROM actions ORDER BY game_id, seq"
    if url.startswith(("postgres://", "postgresql://")):
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            return [tuple(r) for r in await conn.fetch(games_sql)], [
                tuple(r) for r in await conn.fetch(actions_sql)
            ]
        finally:
            await conn.close()
    with sqlite3.connect(url) as conn:
        return conn.execute(games_sql).fetchall(), conn.execute(actions_sql).fetchall()


def from_database(
    games: list[tuple[Any, ...]], rows: list[tuple[Any, ...]]
) -> tuple[int, int, dict[str, float]]:
    """Games finished, cards flipped, and the gaps between consecutive flips relative to the pace."""
    finished = sum(1 for _id, status, _settings in games if status == "finished")
    paces = {gid: json.loads(settings).get("pace", 2.5) for gid, _status, settings in games}
    cards, ratios = 0, []
    previous: tuple[int, int, str, float] | None = None
    for game_id, seq, action, created in rows:
        kind = json.loads(action).get("kind")
        cards += kind == "flip"
        if (
            kind == "flip"
            and previous is not None
            and previous[0] == game_id
            and previous[1] == seq - 1
            and previous[2] == "flip"
            and paces.get(game_id)
        ):
            ratios.append((created - previous[3]) / paces[game_id])
        previous = (game_id, seq, kind, created)
    slowdown = {
        "median": round(statistics.median(ratios), 2) if ratios else 0.0,
        "p90": round(percentile(ratios, 0.9), 2),
        "mean": round(statistics.fmean(ratios), 2) if ratios else 0.0,
    }
    return finished, cards, slowdown


def main() -> int:
    if "--bot-process" in sys.argv:
        return bot_process()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=None, help="180 by default")
    parser.add_argument(
        "--to-the-end",
        action="store_true",
        help="play every game to its final standings (at most --seconds, 1500 by default)",
    )
    parser.add_argument("--global-limit", type=float, default=None)
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the bot's database: a SQLite file, or a throwaway PostgreSQL server (fsync on) started for the run",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    if args.seconds is None:
        args.seconds = 1500.0 if args.to_the_end else 180.0
    figures = asyncio.run(bench(args.games, args.seconds, args.global_limit, args.database))
    if args.json:
        print(json.dumps(figures))
        return 0
    limit = f"global limit {args.global_limit:g}/s" if args.global_limit else "no global limit"
    print(
        f"{figures['games']} games, {figures['seconds']} s, {limit}, {figures['database']},"
        f" load average {figures['load_average']}"
    )
    print(
        f"started {figures['started']} (still in their lobby {figures['in_lobby']}),"
        f" finished {figures['finished']}, cards flipped {figures['cards_flipped']}"
    )
    p = figures["prompts"]
    print(
        f"deadline takeovers {p['takeovers']} (of people shown their prompt: {p['takeovers_shown']});"
        f" prompts {p['decisions']}: never shown {p['never_shown']}, shown late (over a quarter of the"
        f" deadline) {p['shown_late']}, over 2 s {p['shown_over_2s']} {p['shown_over_2s_by_kind']}, delay s {p['show_delay_s']}"
        f" (after the table asked for it: {p['show_delay_after_ask_s']});"
        f" longest silence {p['longest_silence_s']} s ({p['longest_silence_where']}), p90 {p['silence_p90_s']} s"
    )
    print(f"  games with a silence over 12.5 s: {p['silences_over_12_5_s']}")
    for takeover in p["takeover_list"][:10]:
        print(f"  takeover {takeover}")
    print(
        f"ack ms p50 {figures['ack_ms']['p50']} p99 {figures['ack_ms']['p99']} max {figures['ack_ms']['max']}"
        f" (unanswered {figures['unanswered']})"
    )
    print(
        f"bot loop lag ms p99 {figures['loop_lag_ms']['p99']} max {figures['loop_lag_ms']['max']};"
        f" peak RSS {figures['rss_mb']} MB; worker processes' peak RSS {figures['workers_rss_mb']} MB"
        f" ({figures['rss_total_mb']} MB in all)"
    )
    print(f"CPU seconds: {figures['cpu_s']}; CPU ms per card: {figures['cpu_ms_per_card']}")
    print(
        f"the show: pictures per card {figures['pictures_per_card']}, odds share {figures['odds_share']},"
        f" replays share {figures['replays_share']}"
    )
    print(
        f"requests {figures['requests']} ({figures['requests_per_s']}/s, busiest second {figures['peak_second']}),"
        f" 429s {figures['http_429']} (global {figures['global_429']}), user fetches {figures['user_fetches']}"
    )
    print(
        f"gap between flips / pace: {figures['flip_gap_over_pace']}; late answers {figures['late']}, clicked again {figures['clicked_again']}"
    )
    print(
        f"ack p99 by kind: {figures['ack_p99_by_kind']}; the fake's own loop lag p99 {figures['fake_lag_ms_p99']} ms,"
        f" its collections (ms) {figures['fake_gc_ms']}"
    )
    print(f"private answers: {figures['private_answers']}")
    print(f"global pacer: {figures['bot'].get('pacer')}")
    print(f"workers: {figures['bot'].get('workers')} processes, {figures['bot'].get('work')}")
    print(
        f"garbage collections (ms): {figures['bot'].get('gc_ms')}; actions stored: {figures['bot'].get('stored')}"
    )
    print(f"top routes: {figures['top_routes']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
