"""The collector tuned for a long-running bot (bot.collector): what is loaded at start is never walked
again, and young objects are collected far less often."""

from __future__ import annotations

import gc

from bot import collector


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
    import os
    import platform

    assert os.environ["MALLOC_ARENA_MAX"] == str(collector.ARENAS)  # read by each worker at its start
    if platform.libc_ver()[0] == "glibc":
        assert set_here
