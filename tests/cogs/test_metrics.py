"""``/healthz`` and ``/metrics`` (bot.health, bot.metrics) scraped while a real game runs on the fake Discord:
every counter the game exercises grows, every gauge and histogram in docs/operating.md has samples, and
the health check answers 200, then 503 with its reason once the database stops answering."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot import logs, metrics
from bot.client import RaceBot
from bot.fakediscord import running_bot
from tests.cogs.conftest import World

OPERATING = Path(__file__).resolve().parents[2] / "docs" / "operating.md"


def documented_metrics() -> dict[str, str]:
    """The metrics table of docs/operating.md: name -> type (counter, gauge, histogram)."""
    text = OPERATING.read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `(bot_[a-z_]+)` \| (counter|gauge|histogram) \|", text, re.M))


async def scrape(port: int) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """Every sample of /metrics, by sample name, then by its labels."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = await answer.text()
    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def total(samples: dict[str, dict[tuple[tuple[str, str], ...], float]], name: str, **labels: str) -> float:
    return sum(
        value for key, value in samples.get(name, {}).items() if all((k, v) in key for k, v in labels.items())
    )


async def healthz(port: int) -> tuple[int, dict[str, object]]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as answer:
        return answer.status, json.loads(await answer.text())


async def test_a_game_moves_every_counter_it_exercises_and_health_follows_the_database(world: World) -> None:
    bot = world.bot()
    bot.settings = dataclasses.replace(bot.settings, metrics_port=0)
    # The table's own lines name its game and server (bot.logs), whichever task writes them.
    lines: list[logging.LogRecord] = []
    capture = logging.Handler(logging.DEBUG)
    capture.emit = lines.append  # type: ignore[method-assign]
    capture.addFilter(logs.GameContext())
    table_log = logging.getLogger("bot.tables.table")
    table_log.addHandler(capture)
    level = table_log.level
    table_log.setLevel(logging.DEBUG)  # setLevel, not .level: it clears the logger's cached answers
    async with running_bot(world.fake, bot) as running:
        assert isinstance(running, RaceBot) and running.metrics_server is not None
        server = running.metrics_server
        assert server.host == "127.0.0.1" and server.port > 0
        before = await scrape(server.port)
        assert await healthz(server.port) == (200, {"status": "ok"})

        ix = await world.fake.slash(
            world.users["alice"], world.channel, "hotstreak start", pace=0.0, players=2, bots=1
        )
        await ix.reply()
        table = running.tables.in_channel(world.channel.id)
        assert table is not None
        await world.fake.wait_for(lambda: table.engine is not None, timeout=5)
        during = await scrape(server.port)
        assert total(during, "bot_games_open", kind="hotstreak") == 1
        left = await world.fake.slash(world.users["alice"], world.channel, "hotstreak leave")
        assert "You left the game" in (await left.reply()).text
        await world.fake.wait_for(lambda: table.closed, timeout=90)  # 9 s on a quiet machine
        after = await scrape(server.port)
        table_log.removeHandler(capture)
        table_log.setLevel(level)
        driving = [r for r in lines if r.getMessage().startswith("Driving hotstreak game")]
        assert driving and all(
            (getattr(r, "game_id", None), getattr(r, "guild_id", None), getattr(r, "shard", None))
            == (table.game_id, str(world.guild.id), 0)
            for r in driving
        )

        # Counters the game exercised have grown.
        grown = {
            "bot_interactions_total": {"type": "application_command"},
            "bot_interaction_ack_seconds_count": {},
            "bot_discord_requests_total": {"status": "200"},
            "bot_storage_call_seconds_count": {"kind": "write"},
            "bot_worker_call_seconds_count": {"lane": "pictures"},
            "bot_event_loop_lag_seconds_count": {},
        }
        for name, labels in grown.items():
            assert total(after, name, **labels) > total(before, name, **labels), name
        routes = {dict(key)["route"] for key in after["bot_discord_requests_total"]}
        assert "POST /channels/{id}/messages" in routes
        assert "POST /interactions/{id}/{token}/callback" in routes
        assert not any(re.search(r"\d{15,}", route) for route in routes)  # no ids, no tokens in labels
        assert total(after, "bot_games_open", kind="hotstreak") == 0
        assert after["bot_shards_connected"] == {(("shard", "0"),): 1.0}
        assert after["bot_healthy"][()] == 1.0

        # Every gauge and histogram of the docs' table has samples; every counter is exported.
        documented = documented_metrics()
        assert set(documented) == set(metrics.NAMES)
        for name, kind in documented.items():
            sample = f"{name}_count" if kind == "histogram" else name
            assert name in during or sample in during or sample in after, name
            if kind != "counter":
                assert during.get(sample) or after.get(sample), f"{name} has no samples"

        # The database stops answering in time: 503 with the reason.
        async def slow_ping() -> None:
            import asyncio

            await asyncio.sleep(5)

        server.health.database_timeout = 0.05
        running.storage.ping = slow_ping  # type: ignore[method-assign]
        status, body = await healthz(server.port)
        assert status == 503
        assert body == {"status": "unhealthy", "reasons": ["the database did not answer within 0.05 s"]}
