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

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake that, as a guild id, lands on ``shard_id`` of ``shard_count``
        (Discord's rule: ``(guild_id >> 22) % shard_count``). Skips ahead at most ``shard_count - 1`` ms."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        stamp = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
        stamp += (shard_id - stamp) % shard_count
        self._last = stamp << 22
        return self._last


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def random_token(mint: SnowflakeMint, prefix: str) -> str:
    """A token that is unique within one fake; nobody checks its shape, only that it matches."""
    return f"{prefix}.{mint.next():x}"
