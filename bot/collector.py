"""The garbage collector tuned for a long-running bot.

At 500 games a full collection walked every game's state and held the event loop for 230 ms on
average (400 ms at worst), and the collector ran one every 6 s: the loop's worst pauses. Two
settings, made once at start by the process that runs the bot:

* ``gc.freeze()`` once everything is imported: the modules, classes and functions live as long as the
  process, so the collector never walks them again;
* a young generation of 10,000 objects instead of 700: far fewer collections (most of the bot's
  garbage is freed by reference counting the moment it is dropped; the collector only finds cycles,
  and a few thousand short-lived objects waiting longer for it cost a few hundred kilobytes).
"""

from __future__ import annotations

import gc

YOUNG = 10_000
"""Allocations (less deallocations) of tracked objects between two collections of the youngest generation."""


def tune() -> None:
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
