"""Snowflake ids shaped like Discord's, so discord.py's ``snowflake_time`` gives sensible creation times."""

from __future__ import annotations

import time

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeMint:
    """Hands out unique, increasing snowflakes: milliseconds since Discord's epoch, then a counter."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


def random_token(mint: SnowflakeMint, prefix: str) -> str:
    """A token that is unique within one fake; nobody checks its shape, only that it matches."""
    return f"{prefix}.{mint.next():x}"
