"""The table layer's clock (deadlines, timed steps): one function, so tests move time forward by
replacing ``now`` here instead of waiting."""

from __future__ import annotations

import time


def now() -> float:
    return time.time()
