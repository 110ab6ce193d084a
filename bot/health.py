"""``/healthz`` and ``/metrics`` on an opt-in HTTP port (``METRICS_PORT``), served on the bot's own loop.

* ``/healthz``: 200 ``{"status": "ok", ...}`` while every shard of this process is connected (a shard
  that is reconnecting has ``SHARD_GRACE`` seconds) and the database answers a trivial read within
  ``DATABASE_TIMEOUT``; otherwise 503 with ``{"status": "unhealthy", "reasons": [...]}``.
* ``/metrics``: Prometheus' text format (``bot.metrics``).
* A process unhealthy for more than ``EXIT_AFTER`` seconds stops itself with exit code 3
  (``UNHEALTHY_EXIT``), so that its supervisor (Docker's ``restart: unless-stopped``, systemd)
  starts a fresh one. The stop is the usual clean one (``bot.shutdown``); a stop that hangs is cut
  short ``HARD_EXIT_AFTER`` seconds later.

Bound to 127.0.0.1 unless ``METRICS_HOST`` says otherwise (``0.0.0.0`` in the image, whose port is
published only where the operator publishes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot import metrics

log = logging.getLogger(__name__)

SHARD_GRACE = 60.0
DATABASE_TIMEOUT = 1.0
EXIT_AFTER = 300.0
CHECK_EVERY = 5.0
HARD_EXIT_AFTER = 20.0
UNHEALTHY_EXIT = 3


class Health:
    """The process's health, checked on demand and every ``CHECK_EVERY`` seconds in the background."""

    def __init__(
        self,
        bot: Any,
        *,
        shard_grace: float = SHARD_GRACE,
        database_timeout: float = DATABASE_TIMEOUT,
        exit_after: float = EXIT_AFTER,
        check_every: float = CHECK_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot, self.clock = bot, clock
        self.shard_grace, self.database_timeout = shard_grace, database_timeout
        self.exit_after, self.check_every = exit_after, check_every
        self.down_since: dict[int, float] = {}  # shard -> when it was first seen disconnected
        self.unhealthy_since: float | None = None
        self.last_healthy = False
        self.exiting = False

    def shard_states(self) -> dict[int, bool]:
        """Each shard this process runs: connected to the gateway or not."""
        bot = self.bot
        own = tuple(bot.settings.own_shards)
        if bot.settings.shard_count is None:
            ws = getattr(bot, "ws", None)
            socket = getattr(ws, "socket", None)
            connected = bot.is_ready() and socket is not None and not socket.closed
            return dict.fromkeys(own, connected)
        states = {}
        for shard in own:
            info = bot.get_shard(shard) if bot.is_ready() else None
            states[shard] = info is not None and not info.is_closed()
        return states

    async def check(self) -> tuple[bool, list[str]]:
        """Healthy or not, and why not: each reason a short sentence."""
        now = self.clock()
        reasons = []
        for shard, connected in self.shard_states().items():
            if connected:
                self.down_since.pop(shard, None)
                continue
            since = self.down_since.setdefault(shard, now)
            if now - since > self.shard_grace:
                reasons.append(f"shard {shard} disconnected for {now - since:.0f} s")
        storage = getattr(self.bot, "storage", None)
        if storage is None:
            reasons.append("the database is not open yet")
        else:
            try:
                await asyncio.wait_for(storage.ping(), self.database_timeout)
            except TimeoutError:
                reasons.append(f"the database did not answer within {self.database_timeout:g} s")
            except Exception as error:
                reasons.append(f"the database failed: {type(error).__name__}")
        healthy = not reasons
        self.last_healthy = healthy
        if healthy:
            self.unhealthy_since = None
        elif self.unhealthy_since is None:
            self.unhealthy_since = now
        return healthy, reasons

    async def watch(self) -> None:
        """Forever: check, and stop the process once it has been unhealthy for ``exit_after`` seconds."""
        while True:
            await asyncio.sleep(self.check_every)
            healthy, reasons = await self.check()
            if healthy or self.unhealthy_since is None:
                continue
            if self.clock() - self.unhealthy_since > self.exit_after and not self.exiting:
                log.critical(
                    "Unhealthy for over %.0f s (%s); exiting with code %d so that the supervisor restarts the bot",
                    self.exit_after,
                    "; ".join(reasons),
                    UNHEALTHY_EXIT,
                )
                self.give_up()

    def give_up(self) -> None:
        """Stop cleanly with exit code ``UNHEALTHY_EXIT``; exit hard if the clean stop hangs."""
        self.exiting = True
        self.bot.exit_code = UNHEALTHY_EXIT
        timer = threading.Timer(HARD_EXIT_AFTER, os._exit, (UNHEALTHY_EXIT,))
        timer.daemon = True
        timer.start()
        os.kill(os.getpid(), signal.SIGTERM)  # bot.shutdown's clean stop


class MetricsServer:
    """The aiohttp server of ``/healthz`` and ``/metrics``; ``port`` is the one bound (``0`` picks one)."""

    def __init__(self, bot: Any, host: str, port: int, health: Health | None = None) -> None:
        self.bot, self.host, self.port = bot, host, port
        self.health = health or Health(bot)
        self.registry = metrics.bot_registry(bot, self.health)
        self._runner: web.AppRunner | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        self._tasks = [
            asyncio.create_task(self.health.watch(), name="health"),
            asyncio.create_task(metrics.watch_loop_lag(), name="loop-lag"),
        ]
        log.info("Health and metrics at http://%s:%d/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        healthy, reasons = await self.health.check()
        body: dict[str, Any] = {"status": "ok" if healthy else "unhealthy"}
        if reasons:
            body["reasons"] = reasons
        return web.Response(
            status=200 if healthy else 503, text=json.dumps(body), content_type="application/json"
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(REGISTRY) + generate_latest(self.registry)
        response = web.Response(body=body)
        response.content_type = CONTENT_TYPE_LATEST.split(";")[0]
        response.charset = "utf-8"
        return response
