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


def test_the_c_allocator_keeps_to_two_arenas_where_it_can_and_spawned_workers_inherit_it(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    set_here = collector.fewer_arenas()
    assert os.environ["MALLOC_ARENA_MAX"] == str(collector.ARENAS)  # read by each worker at its start
    if platform.libc_ver()[0] == "glibc":
        assert set_here


# Run in a fresh interpreter: a heap of its own, not one that earlier tests left full of holes.
TRIM_EXPERIMENT = """
import json
from bot import collector

def resident_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

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
