"""Per-channel message rate watch: Discord allows about 5 messages per 5 s in one channel.

By default the fake only records when the bot goes over (tests assert ``fake.rate_limit_violations == []``);
with ``enforce`` it also answers 429 with ``retry_after`` and sends the X-RateLimit headers, as Discord does.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from dataclasses import dataclass


@dataclass(frozen=True)
class RateLimitViolation:
    """The bot made request number ``count`` of kind ``kind`` ("create" or "edit") in channel ``channel_id``
    within ``window`` seconds, where only ``limit`` are allowed."""

    kind: str
    channel_id: int
    count: int
    limit: int
    window: float
    at: float


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    remaining: int
    reset_after: float


class ChannelRateWatch:
    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.violations: list[RateLimitViolation] = []
        self._times: dict[tuple[str, int], deque[float]] = defaultdict(deque)

    def record(self, kind: str, channel_id: int, *, enforce: bool) -> Verdict:
        """Count one request; when enforcing, a refused request is not counted (Discord does not either)."""
        now = time.monotonic()
        times = self._times[(kind, channel_id)]
        while times and now - times[0] >= self.window:
            times.popleft()
        over = len(times) >= self.limit
        reset_after = self.window - (now - times[0]) if times else self.window
        if over:
            self.violations.append(
                RateLimitViolation(kind, channel_id, len(times) + 1, self.limit, self.window, now)
            )
            if enforce:
                return Verdict(False, 0, max(reset_after, 0.001))
        times.append(now)
        return Verdict(True, max(self.limit - len(times), 0), reset_after)
