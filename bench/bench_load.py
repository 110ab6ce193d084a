"""One bot process under load: N concurrent Hot Streak games against the fake Discord, with figures.

    python bench/bench_load.py --games N [--seconds S] [--global-limit R] [--database postgres] [--json]

The bot runs in a process of its own (the real RaceBot, default timings: pace 2.5 s, 5 messages per 5 s
per channel), so its RSS and event-loop lag are the bot's alone; this process holds the fake Discord and
the simulated people. Each game has two people and two AI seats: a person notices what is due within
about a second and then takes 1 to 4 s to click (bets in the channel, secret picks in DMs). Games open
over the first tenth of the run (at most 30 s), as they would in real servers, not all in one second.
The run lasts S seconds or until every game has ended. The bot is told the fake's global limit
(DISCORD_GLOBAL_LIMIT); without --global-limit it runs unpaced, as a bot whose limit Discord raised.

Figures: acknowledgement time as Discord sees it (interaction created -> the bot's first callback, on
the fake's clock, so the fake's own lag is included: a pessimistic figure); the bot's event-loop lag
(a 50 ms ticker in the bot process: how late it wakes); the peak RSS (VmHWM) of the bot's process and
of each worker process, and their sum (``rss_total_mb``); 429s of any kind; requests per second; cards
flipped and games finished (from the bot's database); how much slower than their pace the cards came
(the gap between two flips in a row, divided by the pace); how many race pictures were drawn and how
many merged into a newer one (a busy bot shows fewer pictures rather than fall behind its pace); and
the CPU seconds of the bot, its workers and this process (the fake Discord and the people share the
machine's two cores with the bot).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BET_ID = re.compile(r"g:\d+:d:(\d+):(\d+):bet:")
SELECT_ID = re.compile(r"gs:\d+:(\d+):(\d+):(submit|double)")
TICK = 0.05  # the bot's lag ticker
HUMAN_SEATS = (0, 3)  # host first, then the two AI seats of /hotstreak start bots:2, then the joiner


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- the bot's process ------------------------------------------------------------------------------


def bot_process() -> int:
    """The real bot with default timings; writes its lag and peak RSS to BENCH_STATS when stopped."""
    import logging

    from bot import collector, workers
    from bot.client import RaceBot
    from bot.config import Settings
    from bot.discord_endpoints import use_endpoints
    from bot.tables.timing import Timing

    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    settings = Settings.from_env(env_file=None)
    use_endpoints(settings.api_base, settings.gateway_url)
    out = Path(os.environ["BENCH_STATS"])

    profile = os.environ.get("BENCH_PROFILE", "")
    if profile == "memory":
        import tracemalloc

        tracemalloc.start(8)

    workers.start(workers.processes_for(settings.work_processes))  # as bot.main does
    collector.tune()  # as bot.main does

    pauses = gc_pauses()

    async def run() -> None:
        bot = RaceBot(settings, timing=Timing())
        bot._connection.guild_ready_timeout = 0.05  # the fake sends every guild at once
        lags: list[float] = []

        async def ticker() -> None:
            loop = asyncio.get_running_loop()
            while True:
                before = loop.time()
                await asyncio.sleep(TICK)
                lags.append(max(0.0, loop.time() - before - TICK))

        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        runner = asyncio.create_task(bot.start(settings.token))
        await asyncio.sleep(0)
        tick = asyncio.create_task(ticker())
        waits: dict[str, int] = {}
        watch = asyncio.create_task(where_tables_wait(bot, waits)) if profile == "tasks" else None
        await stop.wait()
        tick.cancel()
        if watch is not None:
            watch.cancel()
        stats = {
            "lag_ms": [round(x * 1000, 2) for x in lags],
            "rss_mb": peak_rss_mb(),
            "workers": workers.in_use(),
            "workers_rss_mb": [peak_rss_mb(pid) for pid in workers.worker_pids()],
            "cpu_s": cpu_seconds(),
            "workers_cpu_s": [cpu_seconds(pid) for pid in workers.worker_pids()],
            "work": dict(workers.figures),
            "gc_ms": {
                f"gen{gen}": {
                    "count": len(ms),
                    "total": round(sum(ms)),
                    "max": round(max(ms, default=0.0), 1),
                }
                for gen, ms in pauses.items()
            },
        }
        pacer, outbox = getattr(bot, "requests", None), getattr(bot, "outbox", None)
        storage = getattr(bot, "storage", None)
        if storage is not None and hasattr(storage, "action_figures"):
            stats["stored"] = storage.action_figures
        if pacer is not None and outbox is not None:  # absent before the global pacer existed
            stats["pacer"] = pacer.figures() | {
                "pictures_merged": outbox.merged,
                "pictures_drawn": outbox.drawn,
            }
        if profile == "memory":
            stats["memory"] = memory_profile()
        if profile == "objects":
            stats["objects"] = object_census()
        if profile == "tasks":
            stats["tables_wait"] = dict(sorted(waits.items(), key=lambda kv: -kv[1])[:25])
        await asyncio.to_thread(out.write_text, json.dumps(stats))
        await bot.close()
        runner.cancel()

    asyncio.run(run())
    workers.stop()
    return 0


def gc_pauses() -> dict[int, list[float]]:
    """How long each of the bot's garbage collections held the loop, per generation (milliseconds)."""
    import gc

    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            pauses[info["generation"]].append((time.perf_counter() - started[0]) * 1000)

    gc.callbacks.append(timed)
    return pauses


async def where_tables_wait(bot: Any, waits: dict[str, int]) -> None:
    """``BENCH_PROFILE=tasks``: every second, where each table's loop is suspended (its innermost three
    frames of our code), counted: a table stuck behind something shows up as a large count."""
    while True:
        await asyncio.sleep(1.0)
        for table in list(bot.tables.by_id.values()):
            task = table.task
            if task is None or task.done():
                continue
            ours, coro = [], task.get_coro()
            while coro is not None:  # the chain of awaits (Task.get_stack gives only the outermost)
                frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
                filename = frame.f_code.co_filename if frame is not None else ""
                if filename.startswith(str(ROOT)) and "/.venv/" not in filename:
                    where = filename.rsplit("/", 2)[-1]
                    ours.append(f"{where}:{frame.f_lineno} {frame.f_code.co_name}")  # type: ignore[union-attr]
                coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
            key = " < ".join(reversed(ours[-3:]))
            waits[key] = waits.get(key, 0) + 1


def object_census() -> dict[str, Any]:
    """``BENCH_PROFILE=objects``: what the garbage collector walks at a full collection, by type."""
    import collections
    import gc

    counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    return {"tracked": sum(counts.values()), "top": dict(counts.most_common(20))}


def memory_profile() -> dict[str, Any]:
    """Where the Python heap is (``BENCH_PROFILE=memory``): the traced total and the biggest sites."""
    import tracemalloc

    snapshot = tracemalloc.take_snapshot()
    current, peak = tracemalloc.get_traced_memory()
    top = snapshot.statistics("traceback")[:15]
    return {
        "traced_mb": round(current / 2**20, 1),
        "traced_peak_mb": round(peak / 2**20, 1),
        "top": [
            {"mb": round(s.size / 2**20, 2), "count": s.count, "where": [str(f) for f in s.traceback][-8:]}
            for s in top
        ],
    }


def cpu_seconds(pid: int | str = "self") -> float:
    """The CPU time (user and system) a process has used so far: where the 2 cores went."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 1)


def peak_rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


# --- the people -----------------------------------------------------------------------------------------


class People:
    """Two people at one table, clicking at a human pace."""

    def __init__(self, fake: Any, channel: Any, host: Any, guest: Any, rng: random.Random) -> None:
        self.fake, self.channel, self.rng = fake, channel, rng
        self.users = {HUMAN_SEATS[0]: host, HUMAN_SEATS[1]: guest}
        self.done: set[str] = set()
        self.finished = False

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(1.0, 4.0))

    async def play(self, start_at: float, end_at: float) -> None:
        fake, channel = self.fake, self.channel
        host, guest = self.users[HUMAN_SEATS[0]], self.users[HUMAN_SEATS[1]]
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        # In the channel itself, where these people look (a game's own thread is the default since the
        # thread support; the figures in docs/scaling.md are for games in their channels).
        await fake.slash(host, channel, "hotstreak start", wait=False, players=4, bots=2, where="channel")
        lobby = None
        while lobby is None and time.monotonic() < end_at:
            await asyncio.sleep(self.rng.uniform(0.5, 1.0))
            lobby = next((m for m in channel.messages if any(b.label == "Join" for b in m.buttons)), None)
        if lobby is None:
            return
        await self.think()
        await fake.click_button(guest, lobby, "Join", wait=False)
        while time.monotonic() < end_at:
            await asyncio.sleep(self.rng.uniform(0.5, 1.0))  # how often a person glances at the game
            recent = channel.messages[-8:]
            if any("Final standings" in m.text for m in recent[-3:]):
                self.finished = True
                return
            await self.act(recent)

    async def act(self, recent: list[Any]) -> None:
        """One due move, after thinking about it; a button gone meanwhile is simply not clicked."""
        from tests.fakediscord import ImpossibleAction

        for message in reversed(recent):
            choices: dict[int, list[str]] = {}
            for button in message.buttons:
                match = BET_ID.match(button.custom_id or "")
                if match and not button.disabled and int(match.group(1)) in self.users:
                    choices.setdefault(int(match.group(1)), []).append(button.custom_id or "")
            for seat, ids in choices.items():
                key = ids[0].rsplit(":", 1)[0]
                if key in self.done:
                    continue
                self.done.add(key)
                await self.think()
                with contextlib.suppress(ImpossibleAction):
                    await self.fake.click(self.users[seat], message, self.rng.choice(ids), wait=False)
                return
        for user in self.users.values():
            for message in self.fake.dm_channel(user).messages[-3:]:
                for menu in message.selects:
                    if SELECT_ID.match(menu.custom_id) and menu.custom_id not in self.done:
                        self.done.add(menu.custom_id)
                        await self.think()
                        with contextlib.suppress(ImpossibleAction):
                            await self.fake.select(
                                user, message, menu.custom_id, [menu.values[0]], wait=False
                            )
                        return


async def fake_lag(lags: list[float], until: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not until.is_set():
        before = loop.time()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - before - TICK))


async def bench(
    games: int, seconds: float, global_limit: float | None, database: str = "sqlite"
) -> dict[str, Any]:
    from bot.client import PERMISSIONS
    from tests.fakediscord import FakeDiscord

    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    db, stats_file = folder / "bot.db", folder / "stats.json"
    url = str(db)
    # A throwaway server, syncing to disk as a real one does, in a folder of its own under the temporary
    # folder (the server's user must reach it; the bench's own folder is private to this user).
    pg_folder: Path | None = None
    if database == "postgres":
        from tests.bot.storage import pg_server

        pg_folder = Path(tempfile.mkdtemp(prefix="bench-load-pg-"))
        url = pg_server.start(pg_folder, durable=True)
    rng = random.Random(15)
    async with FakeDiscord(rate_limit=(5, 5.0), enforce_rate_limits=True, global_limit=global_limit) as fake:
        tables = []
        for number in range(games):
            guild = fake.add_guild(f"Server {number}", bot_permissions=PERMISSIONS.value)
            channel = guild.add_text_channel("games")
            host = fake.add_user(f"host{number}", guild=guild)
            guest = fake.add_user(f"guest{number}", guild=guild)
            tables.append(People(fake, channel, host, guest, random.Random(rng.random())))
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DATABASE_URL": url,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "BENCH_STATS": str(stats_file),
            # The bot paces itself to the limit the fake enforces; without one, as a bot whose limit
            # Discord raised (large bots ask for that), so the run measures what one process carries.
            "DISCORD_GLOBAL_LIMIT": f"{global_limit:g}" if global_limit else "none",
            "PYTHONPATH": str(ROOT),
        }
        bot = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--bot-process", env=env, cwd=ROOT
        )
        try:
            await fake.wait_for(lambda: fake.global_commands, timeout=120, what="the bot's commands")
            await asyncio.sleep(1.0)
            started = time.monotonic()
            end_at = started + seconds
            spread = min(30.0, seconds / 10)
            stop_lag = asyncio.Event()
            lags: list[float] = []
            lag_task = asyncio.create_task(fake_lag(lags, stop_lag))
            players = [
                asyncio.create_task(t.play(started + spread * i / max(games, 1), end_at))
                for i, t in enumerate(tables)
            ]
            await asyncio.gather(*players)
            elapsed = time.monotonic() - started
            stop_lag.set()
            await lag_task
        finally:
            bot.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(bot.wait(), 60)
            except TimeoutError:
                bot.kill()
        acks = [
            (ix.callbacks[0].at - ix.created_at) * 1000 for ix in fake.interactions.values() if ix.callbacks
        ]
        unanswered = sum(1 for ix in fake.interactions.values() if not ix.callbacks)
        by_kind: dict[str, list[float]] = {}
        for ix in fake.interactions.values():
            if ix.callbacks:
                kind = (
                    ix.command
                    or (ix.custom_id or "").split(":")[0] + ":" + (ix.custom_id or "").split(":")[-1]
                )
                by_kind.setdefault(kind, []).append((ix.callbacks[0].at - ix.created_at) * 1000)
        late = sum(1 for ix in fake.interactions.values() if ix.late)
        # What the people were told privately besides their choices' confirmations (refusals, "couldn't
        # save"...), the most frequent first.
        told = collections.Counter(
            message.text.splitlines()[0][:80] if message.text else "(no text)"
            for ix in fake.interactions.values()
            for message in ix.messages
            if message.ephemeral and not message.text.startswith(("✅", "🤫"))
        )
        traffic = fake.traffic.summary()
        routes = {f"{m} {r}": n for (m, r), n in fake.traffic.per_route.most_common(8)}
    child = json.loads(stats_file.read_text()) if stats_file.exists() else {"lag_ms": [], "rss_mb": 0}
    try:
        games_rows, action_rows = await database_rows(url)
    finally:
        if pg_folder is not None:
            pg_server.stop(pg_folder)
    finished, cards, slowdown = from_database(games_rows, action_rows)
    statuses = [status for _id, status, _settings in games_rows]
    return {
        "games": games,
        "database": database,
        "seconds": round(elapsed, 1),
        "started": sum(status != "lobby" for status in statuses),  # past their lobby (or ended)
        "in_lobby": statuses.count("lobby"),
        "finished": finished,
        "cards_flipped": cards,
        "ack_ms": {
            "p50": round(percentile(acks, 0.5), 1),
            "p99": round(percentile(acks, 0.99), 1),
            "max": round(max(acks, default=0.0), 1),
        },
        "loop_lag_ms": {
            "p99": round(percentile(child["lag_ms"], 0.99), 1),
            "max": round(max(child["lag_ms"], default=0.0), 1),
        },
        "rss_mb": child["rss_mb"],
        "workers_rss_mb": child.get("workers_rss_mb", []),
        "rss_total_mb": round(child["rss_mb"] + sum(child.get("workers_rss_mb", [])), 1),
        "cpu_s": {  # where the 2 cores went: the bot, its workers, and this process (the fake and the people)
            "bot": child.get("cpu_s"),
            "workers": child.get("workers_cpu_s", []),
            "fake_and_people": cpu_seconds(),
        },
        "http_429": traffic["http_429"],
        "global_429": traffic["global_429"],
        "requests_per_s": traffic["requests_per_s"],
        "peak_second": traffic["peak_second"],
        "requests": traffic["requests"],
        "user_fetches": traffic["user_fetches"],
        "unanswered": unanswered,
        "late": late,
        "private_answers": dict(told.most_common(8)),
        "ack_p99_by_kind": {k: round(percentile(v, 0.99), 1) for k, v in sorted(by_kind.items())},
        "flip_gap_over_pace": slowdown,
        "fake_lag_ms_p99": round(percentile([x * 1000 for x in lags], 0.99), 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "top_routes": routes,
        "bot": {
            k: v
            for k, v in child.items()
            if k not in ("lag_ms", "rss_mb", "workers_rss_mb", "cpu_s", "workers_cpu_s")
        },
    }


async def database_rows(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The games (id, status, settings) and their actions (game, seq, action, time), from either database."""
    games_sql = "SELECT id, status, settings FROM games"
    actions_sql = "SELECT game_id, seq, action, created_at FROM actions ORDER BY game_id, seq"
    if url.startswith(("postgres://", "postgresql://")):
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            return [tuple(r) for r in await conn.fetch(games_sql)], [
                tuple(r) for r in await conn.fetch(actions_sql)
            ]
        finally:
            await conn.close()
    with sqlite3.connect(url) as conn:
        return conn.execute(games_sql).fetchall(), conn.execute(actions_sql).fetchall()


def from_database(
    games: list[tuple[Any, ...]], rows: list[tuple[Any, ...]]
) -> tuple[int, int, dict[str, float]]:
    """Games finished, cards flipped, and the gaps between consecutive flips relative to the pace."""
    finished = sum(1 for _id, status, _settings in games if status == "finished")
    paces = {gid: json.loads(settings).get("pace", 2.5) for gid, _status, settings in games}
    cards, ratios = 0, []
    previous: tuple[int, int, str, float] | None = None
    for game_id, seq, action, created in rows:
        kind = json.loads(action).get("kind")
        cards += kind == "flip"
        if (
            kind == "flip"
            and previous is not None
            and previous[0] == game_id
            and previous[1] == seq - 1
            and previous[2] == "flip"
            and paces.get(game_id)
        ):
            ratios.append((created - previous[3]) / paces[game_id])
        previous = (game_id, seq, kind, created)
    slowdown = {
        "median": round(statistics.median(ratios), 2) if ratios else 0.0,
        "p90": round(percentile(ratios, 0.9), 2),
        "mean": round(statistics.fmean(ratios), 2) if ratios else 0.0,
    }
    return finished, cards, slowdown


def main() -> int:
    if "--bot-process" in sys.argv:
        return bot_process()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--global-limit", type=float, default=None)
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the bot's database: a SQLite file, or a throwaway PostgreSQL server (fsync on) started for the run",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    figures = asyncio.run(bench(args.games, args.seconds, args.global_limit, args.database))
    if args.json:
        print(json.dumps(figures))
        return 0
    limit = f"global limit {args.global_limit:g}/s" if args.global_limit else "no global limit"
    print(
        f"{figures['games']} games, {figures['seconds']} s, {limit}, {figures['database']},"
        f" load average {figures['load_average']}"
    )
    print(
        f"started {figures['started']} (still in their lobby {figures['in_lobby']}),"
        f" finished {figures['finished']}, cards flipped {figures['cards_flipped']}"
    )
    print(
        f"ack ms p50 {figures['ack_ms']['p50']} p99 {figures['ack_ms']['p99']} max {figures['ack_ms']['max']}"
        f" (unanswered {figures['unanswered']})"
    )
    print(
        f"bot loop lag ms p99 {figures['loop_lag_ms']['p99']} max {figures['loop_lag_ms']['max']};"
        f" peak RSS {figures['rss_mb']} MB; worker processes' peak RSS {figures['workers_rss_mb']} MB"
        f" ({figures['rss_total_mb']} MB in all)"
    )
    print(f"CPU seconds: {figures['cpu_s']}")
    print(
        f"requests {figures['requests']} ({figures['requests_per_s']}/s, busiest second {figures['peak_second']}),"
        f" 429s {figures['http_429']} (global {figures['global_429']}), user fetches {figures['user_fetches']}"
    )
    print(f"gap between flips / pace: {figures['flip_gap_over_pace']}; late answers {figures['late']}")
    print(
        f"ack p99 by kind: {figures['ack_p99_by_kind']}; the fake's own loop lag p99 {figures['fake_lag_ms_p99']} ms"
    )
    print(f"private answers: {figures['private_answers']}")
    print(f"global pacer: {figures['bot'].get('pacer')}")
    print(f"workers: {figures['bot'].get('workers')} processes, {figures['bot'].get('work')}")
    print(
        f"garbage collections (ms): {figures['bot'].get('gc_ms')}; actions stored: {figures['bot'].get('stored')}"
    )
    print(f"top routes: {figures['top_routes']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
