"""The collector tuned for a long-running bot (bot.collector): what is loaded at start is never walked
again, and young objects are collected far less often."""

from __future__ import annotations

import gc
import json
import os
import platform
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot import collector

ROOT = Path(__file__).resolve().parents[2]


def test_tuning_freezes_what_is_loaded_and_raises_the_young_generation() -> None:
    threshold = gc.get_threshold()
    try:
        collector.tune()
        assert gc.get_freeze_count() > 1_000  # the modules, classes and functions loaded so far
        assert gc.get_threshold() == (collector.YOUNG, threshold[1], threshold[2])
    finally:
        gc.unfreeze()  # this test process goes on making garbage the collector must still find
        gc.set_threshold(*threshold)


def test_the_c_allocator_keeps_to_two_arenas_and_a_fixed_mmap_threshold_and_spawned_workers_inherit_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    set_here = collector.tune_malloc()
    assert os.environ["MALLOC_ARENA_MAX"] == str(collector.ARENAS)  # read by each worker at its start
    assert os.environ["MALLOC_MMAP_THRESHOLD_"] == str(collector.MMAP_THRESHOLD)
    if platform.libc_ver()[0] == "glibc":
        assert set_here


RESIDENT = """
def resident_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
"""

# A picture's bytes, freed once: glibc then raises its threshold to that size, and every later picture of
# that size comes from the heap, where the small pieces kept between them pin its pages.
PICTURES_EXPERIMENT = (
    RESIDENT
    + """
import json, sys
from bot import collector


if sys.argv[1] == "tuned":
    collector.tune_malloc()
first = bytearray(300_000)
del first
pictures, kept = [], []
for _ in range(300):
    pictures.append(bytearray(200_000))
    kept.append(bytearray(1_000))
grown = resident_mb()
del pictures
print(json.dumps({"handed_back": grown - resident_mb()}))
"""
)


def test_pictures_freed_go_back_to_the_system_at_once_with_the_threshold_fixed() -> None:
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("mallopt is glibc's")

    def handed_back(how: str) -> float:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
        done = subprocess.run(
            [sys.executable, "-c", PICTURES_EXPERIMENT, how],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env=env,
        )
        return float(json.loads(done.stdout)["handed_back"])

    assert handed_back("default") < 20  # MB of the 60 freed: the holes stay resident
    assert handed_back("tuned") > 50


# Run in a fresh interpreter: a heap of its own, not one that earlier tests left full of holes.
TRIM_EXPERIMENT = (
    RESIDENT
    + """
import json
from bot import collector


pictures, kept = [], []
for _ in range(600):
    pictures.append(bytearray(100_000))
    kept.append(bytearray(1_000))
grown = resident_mb()
del pictures
freed = resident_mb()
trimmed = collector.trim()
print(json.dumps({"by_itself": grown - freed, "after_trim": grown - resident_mb(), "trimmed": trimmed}))
"""
)


def test_freed_memory_goes_back_to_the_system_after_a_trim() -> None:
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("malloc_trim is glibc's")
    # 60 MB in pieces the size of a picture (below glibc's mmap threshold: they come from its heap), each
    # followed by a small piece that stays, as a live game's state does: freeing the pictures leaves holes
    # that glibc does not hand back by itself; a trim does.
    done = subprocess.run(
        [sys.executable, "-c", TRIM_EXPERIMENT], capture_output=True, text=True, check=True, cwd=ROOT
    )
    figures = json.loads(done.stdout)
    assert figures["trimmed"]
    assert figures["by_itself"] < 20  # MB: the holes are still resident
    assert figures["after_trim"] > 40


def test_the_trimming_thread_runs_until_stopped() -> None:
    stop = threading.Event()
    thread = collector.keep_trimmed(0.01, stop)
    if thread is None:  # no malloc_trim here
        return
    assert thread.daemon and thread.is_alive()
    stop.set()
    thread.join(1)
    assert not thread.is_alive()


class Cyclic:
    """A finished game's objects in miniature: they refer to each other, so only a collection frees them."""

    def __init__(self) -> None:
        self.me = self


async def test_an_ended_game_asks_for_a_full_collection_at_most_once_per_interval() -> None:
    import asyncio
    import weakref

    gc.collect()
    runs = collector._full["runs"]
    game = Cyclic()
    gone = weakref.ref(game)
    gc.collect()  # survives twice: in the oldest generation now, as a long game's objects are
    gc.collect()
    del game
    collector.after_a_game(every=0.05)
    collector.after_a_game(every=0.05)  # a second game ending meanwhile: the same collection
    await asyncio.sleep(0.2)
    assert gone() is None
    assert collector._full["runs"] == runs + 1


def test_a_collection_still_due_on_a_closed_loop_does_not_hold_back_the_next_loops() -> None:
    import asyncio

    async def ended_just_before_the_stop() -> None:
        collector._full["last"] = time.monotonic()  # one just ran: the next waits its interval
        collector.after_a_game(every=60)  # due in a minute; the loop closes first

    async def ended_on_the_next_loop() -> int:
        runs = collector._full["runs"]
        collector._full["last"] = 0.0
        collector.after_a_game(every=0.01)
        await asyncio.sleep(0.1)
        return int(collector._full["runs"] - runs)

    asyncio.run(ended_just_before_the_stop())
    assert asyncio.run(ended_on_the_next_loop()) == 1
