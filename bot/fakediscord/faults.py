"""Network faults on chosen REST requests: what a flaky network or a busy Discord does to a bot.

    fake.faults.drop_next(method="POST", route="/channels/{channel_id}/messages", channel=games)
    fake.faults.timeout_next(2, seconds=1.0, channel=games, applied=True)
    fake.faults.rate_limit_next(3, retry_after=0.05, channel=games)

Each call arms a :class:`FaultRule` for the next ``n`` requests that match (``method``, ``route`` as the
fake spells it with ``{channel_id}``-style holes, ``channel``: a FakeChannel or id matched against the
path's ``channel_id``, ``match``: any predicate on (method, path, body)); ``skip`` lets that many matching
requests through first. What the bot's discord.py sees:

- ``drop_next``: the server closes the connection without answering:
  ``aiohttp.ServerDisconnectedError`` (a ``ClientConnectionError``); discord.py does not retry it.
- ``reset_next``: the connection is reset (TCP RST): ``aiohttp.ClientOSError`` errno 104
  (a ``ClientConnectionError``); discord.py retries only errno 54/10054, so it reaches the bot on Linux.
- ``timeout_next``: no answer for ``seconds`` (the bot's own timeout fires first, if it has one), then
  the connection is closed as in ``drop_next``.
- ``rate_limit_next``: a 429 like Discord's (``retry_after``, ``global``, ``Via`` and ``Retry-After``
  headers); discord.py waits and retries by itself, so the bot sees it only after 5 in a row.
- ``error_next``: a 5xx (default 500); discord.py retries 500/502/504 by itself after 1 s, 3 s...

``applied=True`` (drop, reset, timeout) makes the request take effect before the answer is lost: the
message is posted but the bot never hears so, which is what a retry with an enforced nonce is for.
Every faulted request is in ``fake.requests`` and ``fake.faults.injected`` with ``fault`` set; faults are
left out of ``fake.refused_requests`` (the bot did nothing wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from aiohttp import web

if TYPE_CHECKING:
    from bot.fakediscord.http_api import RequestRecord, Route
    from bot.fakediscord.model import FakeChannel

FaultKind = Literal["drop", "reset", "timeout", "429", "5xx"]
Matcher = Callable[[str, str, Any], bool]


@dataclass
class FaultRule:
    """One armed fault: ``remaining`` more matching requests get it, after ``skip`` pass untouched."""

    kind: FaultKind
    remaining: int
    method: str | None = None
    route: str | None = None
    channel_id: int | None = None
    match: Matcher | None = None
    skip: int = 0
    applied: bool = False
    seconds: float = 10.0
    retry_after: float = 0.05
    is_global: bool = False
    status: int = 500
    hits: list[RequestRecord] = field(default_factory=list)

    def matches(self, method: str, path: str, found: Route | None, params: dict[str, str], body: Any) -> bool:
        if self.method is not None and self.method != method:
            return False
        if self.route is not None and (found is None or found.path != self.route):
            return False
        if self.channel_id is not None and params.get("channel_id") != str(self.channel_id):
            return False
        return self.match is None or self.match(method, path, body)

    @property
    def spent(self) -> bool:
        return self.remaining <= 0


class Faults:
    """The fake's fault injector (``fake.faults``)."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []
        #: Every request that got a fault, in order (also in ``fake.requests``).
        self.injected: list[RequestRecord] = []
        self.released = asyncio.Event()

    # ---- arming -----------------------------------------------------------------------------------------
    def drop_next(self, n: int = 1, *, applied: bool = False, **where: Any) -> FaultRule:
        """Close the connection without an answer on the next ``n`` matching requests."""
        return self._arm("drop", n, applied=applied, **where)

    def reset_next(self, n: int = 1, *, applied: bool = False, **where: Any) -> FaultRule:
        """Reset the connection (TCP RST) on the next ``n`` matching requests."""
        return self._arm("reset", n, applied=applied, **where)

    def timeout_next(
        self, n: int = 1, *, seconds: float = 10.0, applied: bool = False, **where: Any
    ) -> FaultRule:
        """Answer nothing for ``seconds``, then close the connection, on the next ``n`` matching requests."""
        return self._arm("timeout", n, seconds=seconds, applied=applied, **where)

    def rate_limit_next(
        self, n: int = 1, *, retry_after: float = 0.05, is_global: bool = False, **where: Any
    ) -> FaultRule:
        """Answer 429 (not applied) on the next ``n`` matching requests."""
        return self._arm("429", n, retry_after=retry_after, is_global=is_global, **where)

    def error_next(self, n: int = 1, *, status: int = 500, **where: Any) -> FaultRule:
        """Answer a server error ``status`` (not applied) on the next ``n`` matching requests."""
        return self._arm("5xx", n, status=status, **where)

    def clear(self) -> None:
        """Disarm every rule that has not fired yet."""
        self.rules.clear()

    def release(self) -> None:
        """End every timeout being held now (their connections close at once); later ones hold again."""
        self.released.set()
        self.released = asyncio.Event()

    @property
    def armed(self) -> list[FaultRule]:
        return [r for r in self.rules if not r.spent]

    def _arm(
        self,
        kind: FaultKind,
        n: int,
        *,
        method: str | None = None,
        route: str | None = None,
        channel: FakeChannel | int | None = None,
        match: Matcher | None = None,
        skip: int = 0,
        **options: Any,
    ) -> FaultRule:
        if n < 1:
            raise ValueError("n must be at least 1")
        channel_id = channel if isinstance(channel, int) or channel is None else channel.id
        rule = FaultRule(
            kind,
            n,
            method=method.upper() if method else None,
            route=route,
            channel_id=channel_id,
            match=match,
            skip=skip,
            **options,
        )
        self.rules.append(rule)
        return rule

    # ---- firing (called by the REST side) ---------------------------------------------------------------
    def take(
        self, method: str, path: str, found: Route | None, params: dict[str, str], body: Any
    ) -> FaultRule | None:
        """The rule this request triggers, counted as used; None if the request goes through."""
        for rule in self.rules:
            if rule.spent or not rule.matches(method, path, found, params, body):
                continue
            if rule.skip > 0:
                rule.skip -= 1
                continue
            rule.remaining -= 1
            return rule
        return None

    def note(self, rule: FaultRule, record: RequestRecord) -> None:
        rule.hits.append(record)
        self.injected.append(record)


async def cut(request: web.Request, rule: FaultRule, released: asyncio.Event) -> None:
    """Lose the answer: hold it first for a timeout (until ``released``), then close or reset the connection."""
    if rule.kind == "timeout":
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(released.wait(), rule.seconds)
    transport = request.transport
    if transport is None:
        return
    if rule.kind == "reset":
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    else:
        transport.close()
