"""What the bot counts for Prometheus (``prometheus-client``), scraped at ``/metrics`` (``bot.health``).

Every metric of the process is defined here, one place, and ``docs/operating.md`` has their table
(``tests/bot/test_health.py`` checks that every metric named there is exported and has samples). The
counters and histograms live in the process's default registry; what is read off the bot at scrape
time (games open, shards connected, worker queues) is a collector of the bot's own (``BotCollector``).

Discord's requests are counted where aiohttp sends them (a ``TraceConfig`` given to discord.py as
``http_trace``), so discord.py's own retries and the 429s it handles by itself are counted too.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

# Seconds: an acknowledgement must come within 3 s (Discord's limit), the interesting part is below 1 s.
ACK_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
CALL_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)

INTERACTIONS = Counter(
    "bot_interactions_total", "Interactions received (slash commands, clicks, autocompletes)", ["type"]
)
ACK_SECONDS = Histogram(
    "bot_interaction_ack_seconds",
    "From the interaction's creation (its snowflake) to the bot's answer reaching Discord",
    buckets=ACK_BUCKETS,
)
LOOP_LAG = Histogram(
    "bot_event_loop_lag_seconds", "How late a 0.25 s timer of the event loop fires", buckets=LAG_BUCKETS
)
DISCORD_REQUESTS = Counter(
    "bot_discord_requests_total",
    "REST requests answered by Discord, by route group and status",
    ["route", "status"],
)
DISCORD_RETRIES = Counter(
    "bot_discord_retries_total",
    "Requests tried again: by discord.py after a 429 or a 5xx (reason 429, 5xx), by the bot after a failure in transit",
    ["reason"],
)
DISCORD_DISCONNECTS = Counter(
    "bot_discord_disconnects_total",
    "Connections dropped: a gateway session lost (gateway) or a REST request that got no answer (rest)",
    ["kind"],
)
WORKER_CALL_SECONDS = Histogram(
    "bot_worker_call_seconds",
    "Calls to the worker processes (pictures, AI, replays)",
    ["lane"],
    buckets=CALL_BUCKETS,
)
STORAGE_CALL_SECONDS = Histogram(
    "bot_storage_call_seconds", "Database transactions, reads and writes", ["kind"], buckets=CALL_BUCKETS
)
STORAGE_ERRORS = Counter("bot_storage_errors_total", "Database transactions that failed", ["kind"])

# The labels known in advance start at zero, so that a scrape shows them before anything happened.
for _reason in ("429", "5xx", "transit"):
    DISCORD_RETRIES.labels(_reason)
for _kind in ("gateway", "rest"):
    DISCORD_DISCONNECTS.labels(_kind)
for _kind in ("read", "write"):
    STORAGE_CALL_SECONDS.labels(_kind)
    STORAGE_ERRORS.labels(_kind)

# Every metric's name as scraped (a counter gains ``_total``), for the docs test.
NAMES = (
    "bot_games_open",
    "bot_interactions_total",
    "bot_interaction_ack_seconds",
    "bot_event_loop_lag_seconds",
    "bot_discord_requests_total",
    "bot_discord_retries_total",
    "bot_discord_disconnects_total",
    "bot_worker_queue_depth",
    "bot_worker_call_seconds",
    "bot_storage_call_seconds",
    "bot_storage_errors_total",
    "bot_shards_connected",
    "bot_healthy",
)

_SNOWFLAKE_NUMBER = re.compile(r"/\d{15,25}(?=/|$)")
_INTERACTION_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_TOKEN_PATH = re.compile(r"/(webhooks|interactions)/(\{id\}|\d+)/[^/]+")
DISCORD_EPOCH_MS = 1420070400000


def route_group(path: str) -> str:
    """``/api/v10/channels/123/messages/456`` → ``/channels/{id}/messages/{id}``: ids and interaction
    tokens out (a label per message would be a metric per message; a token must never be shown)."""
    path = path.split("/api/v", 1)[-1]
    path = path.split("/", 1)[1] if "/" in path else path
    path = "/" + path.lstrip("/")
    path = _TOKEN_PATH.sub(lambda m: f"/{m.group(1)}/{{id}}/{{token}}", path)
    return _SNOWFLAKE_NUMBER.sub("/{id}", path)


def snowflake_time(snowflake: int) -> float:
    """The Unix time a Discord id was made at."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000.0


def http_trace() -> aiohttp.TraceConfig:
    """The trace discord.py's HTTP session reports each request to (``discord.Client(http_trace=...)``)."""
    trace = aiohttp.TraceConfig()

    async def on_end(session: Any, ctx: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        path = params.url.path
        DISCORD_REQUESTS.labels(f"{params.method} {route_group(path)}", str(status)).inc()
        if status == 429:
            DISCORD_RETRIES.labels("429").inc()
        elif status >= 500:
            DISCORD_RETRIES.labels("5xx").inc()
        callback = _INTERACTION_CALLBACK.search(path)
        if callback is not None and status < 300:
            ACK_SECONDS.observe(max(0.0, time.time() - snowflake_time(int(callback.group(1)))))

    async def on_exception(
        session: Any, ctx: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        DISCORD_DISCONNECTS.labels("rest").inc()

    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace


@contextlib.contextmanager
def timed(histogram: Histogram, errors: Counter | None, label: str) -> Iterator[None]:
    """Time the block into ``histogram``; count it in ``errors`` if it raises."""
    start = time.perf_counter()
    try:
        yield
    except BaseException as error:
        if errors is not None and not isinstance(error, asyncio.CancelledError | GeneratorExit):
            errors.labels(label).inc()
        raise
    finally:
        histogram.labels(label).observe(time.perf_counter() - start)


async def watch_loop_lag(interval: float = 0.25) -> None:
    """Forever: how much later than asked the event loop wakes a sleeper (a busy loop answers clicks late)."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(interval)
        LOOP_LAG.observe(max(0.0, loop.time() - start - interval))


class BotCollector(Collector):
    """What is read off the bot when scraped: games open, shards connected, worker queues, health."""

    def __init__(self, bot: Any, health: Any) -> None:
        self.bot, self.health = bot, health

    def collect(self) -> Iterator[Metric]:
        from bot import workers

        games = GaugeMetricFamily(
            "bot_games_open", "Games open in this process, by kind and phase", labels=["kind", "phase"]
        )
        counts: dict[tuple[str, str], int] = {}
        tables = getattr(getattr(self.bot, "tables", None), "by_id", {})
        for table in list(tables.values()):
            if table.closed:
                continue
            key = (table.entry.kind, game_phase(table))
            counts[key] = counts.get(key, 0) + 1
        for (kind, phase), count in sorted(counts.items()):
            games.add_metric([kind, phase], count)
        yield games

        shards = GaugeMetricFamily(
            "bot_shards_connected",
            "This process's shards connected to the gateway (1 or 0)",
            labels=["shard"],
        )
        for shard, connected in sorted(self.health.shard_states().items()):
            shards.add_metric([str(shard)], 1.0 if connected else 0.0)
        yield shards

        queues = GaugeMetricFamily(
            "bot_worker_queue_depth", "Work sent to a worker lane and not finished", labels=["lane"]
        )
        for lane in workers.LANES:
            queues.add_metric([lane], workers.waiting(lane))
        yield queues

        yield GaugeMetricFamily(
            "bot_healthy", "1 while /healthz answers 200", value=1.0 if self.health.last_healthy else 0.0
        )


def game_phase(table: Any) -> str:
    """``lobby`` before the game starts, else the engine's phase where it has one (``running`` if not)."""
    engine = table.engine
    if engine is None:
        return "lobby"
    if engine.is_over:
        return "over"
    phase = getattr(engine, "phase", None)
    return phase if isinstance(phase, str) and phase else "running"


def bot_registry(bot: Any, health: Any) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(BotCollector(bot, health))
    return registry
