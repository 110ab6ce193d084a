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
