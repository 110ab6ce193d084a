"""Discord's global rate limit, and the traffic counters a benchmark reads.

    fake = FakeDiscord(global_limit=50)       # requests per second across every route (None: no limit)
    ...
    fake.traffic.summary()  # {"requests": .., "requests_per_s": .., "peak_second": .., "http_429": .., ...}
    fake.traffic.user_fetches[alice.id]       # how often the bot fetched GET /users/{alice}

Discord's rule: a bot may make ``global_limit`` requests per second in all, whatever the route; beyond it
the answer is 429 with ``"global": true`` and the headers ``X-RateLimit-Global: true``,
``X-RateLimit-Scope: global``, ``Retry-After`` and ``Via`` (discord.py then holds every request until
``retry_after`` has passed). Interaction callbacks and interaction webhooks (followups, editing the
original response) are exempt, as Discord documents. Ruling: the window slides (at most ``global_limit``
counted requests in any 1.0 s), and a refused request does not count, so a bot that waits as told gets
through; an enforced global limit is never wrong in the bot's favour compared with Discord's fixed second.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")


def exempt_from_global_limit(path: str) -> bool:
    """Interaction callbacks and interaction-token webhooks do not count against the global limit."""
    return path.startswith(EXEMPT_PREFIXES)


@dataclass
class Traffic:
    """Counts of every REST request the bot made (``fake.traffic``), for benchmarks and tests."""

    started: float = field(default_factory=time.monotonic)
    #: Requests by whole second since the fake started (every request, exempt ones included).
    per_second: Counter[int] = field(default_factory=Counter)
    #: Requests that count against the global limit, by second.
    limited_per_second: Counter[int] = field(default_factory=Counter)
    #: Requests by (method, route as the fake spells it); unknown routes under their path.
    per_route: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: GET /users/{id} requests by user id.
    user_fetches: Counter[int] = field(default_factory=Counter)
    #: 429 answers of any kind, and how many of them were the global limit.
    http_429: int = 0
    global_429: int = 0
    first: float | None = None
    last: float | None = None
    #: When each request that counts against the global limit was made (``time.monotonic()``).
    limited_times: list[float] = field(default_factory=list)
    limited_routes: list[tuple[str, str]] = field(default_factory=list)

    def limited_between(self, start: float, end: float) -> int:
        """Requests counted against the global limit from ``start`` to ``end`` (monotonic seconds)."""
        return sum(1 for moment in self.limited_times if start <= moment <= end)

    @property
    def requests(self) -> int:
        return sum(self.per_second.values())

    def record(self, method: str, route: str, path: str, params: dict[str, str], *, limited: bool) -> None:
        now = time.monotonic()
        second = int(now - self.started)
        self.per_second[second] += 1
        if limited:
            self.limited_per_second[second] += 1
            self.limited_times.append(now)
            self.limited_routes.append((method, route))
        self.per_route[(method, route)] += 1
        if method == "GET" and route == "/users/{user_id}" and params.get("user_id", "").isdigit():
            self.user_fetches[int(params["user_id"])] += 1
        self.first = now if self.first is None else self.first
        self.last = now

    def answered(self, status: int, *, is_global: bool = False) -> None:
        if status == 429:
            self.http_429 += 1
            self.global_429 += is_global

    def requests_per_second(self) -> float:
        """Average over the span from the first request to the last (at least one second)."""
        if self.first is None or self.last is None:
            return 0.0
        return self.requests / max(self.last - self.first, 1.0)

    def peak_second(self) -> int:
        """The most requests in any one whole second."""
        return max(self.per_second.values(), default=0)

    def summary(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "requests_per_s": round(self.requests_per_second(), 2),
            "peak_second": self.peak_second(),
            "http_429": self.http_429,
            "global_429": self.global_429,
            "user_fetches": sum(self.user_fetches.values()),
            "most_fetched_user": max(self.user_fetches.values(), default=0),
        }


class GlobalLimit:
    """At most ``per_second`` counted requests in any sliding second (None: unlimited)."""

    def __init__(self, per_second: float | None) -> None:
        self.per_second = per_second
        self._times: deque[float] = deque()

    def admit(self) -> float | None:
        """Count one request and return None, or return the seconds to wait (the request is refused)."""
        now = time.monotonic()
        while self._times and now - self._times[0] >= 1.0:
            self._times.popleft()
        if self.per_second is not None and len(self._times) >= self.per_second:
            return max(1.0 - (now - self._times[0]), 0.001)
        self._times.append(now)
        return None
