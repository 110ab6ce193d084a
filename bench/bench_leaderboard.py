"""How fast the leaderboards, records and history are with a million result rows.

Run: ``python bench/bench_leaderboard.py [--rows 1000000] [--repeat 40] [--keep PATH]``

Fills a temporary database (50 guilds of very different sizes, 5,000 users, a year of games,
three or four stakes per Hot Streak seat) and prints the median and 95th percentile per query, in milliseconds, through
the real ``Storage`` API. The bulk fill writes SQL straight into the tables ``Storage`` created
(through its triggers, so the all-time totals are built exactly as finish_game would build them):
a benchmark may do that; the bot's code never does.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Storage, period_start  # noqa: E402

GUILDS = 50
USERS = 5_000
YEAR = 365 * 86400
TICKETS = tuple(
    f"{name}, {risk}" for name in ("Gobbler", "Hurley", "Dangle", "Mum") for risk in ("safe", "risky")
)
SIDE_BETS = ("Side bet yes, safe", "Side bet no, safe", "Side bet yes, risky", "Side bet no, risky")


def fill(path: Path, rows: int, seed: int = 1) -> dict[str, Any]:
    """Write ``rows`` result rows (and their games and stakes); return facts the timings need."""
    rng = random.Random(seed)
    guild_ids = [1_000_000 + g for g in range(GUILDS)]
    weights = [1 / (rank + 1) for rank in range(GUILDS)]  # Zipf: the biggest guild ~22% of games
    cumulative = list(itertools.accumulate(weights))
    members: dict[int, list[int]] = {g: [] for g in guild_ids}
    activity: dict[int, float] = {}
    for u in range(USERS):
        user = 10**17 + u  # snowflake-sized ids
        activity[user] = rng.lognormvariate(0, 1.0)
        for guild in set(rng.choices(guild_ids, weights, k=1 + (rng.random() < 0.3))):
            members[guild].append(user)
    member_weights = {g: list(itertools.accumulate(activity[u] for u in members[g])) for g in guild_ids}

    db = sqlite3.connect(path, isolation_level=None)
    # Bulk-load settings for this throwaway file only: no journal, no fsync, a big cache. The
    # results indexes are dropped and rebuilt from the migration's own statements afterwards
    # (building an index from sorted data is several times faster than a million random inserts).
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -400000")
    index_sql = [
        sql
        for (sql,) in db.execute(
            "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'results' AND sql IS NOT NULL"
        )
    ]
    for (name,) in db.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'results' AND sql IS NOT NULL"
    ).fetchall():
        db.execute(f"DROP INDEX {name}")
    now = time.time()
    start = now - YEAR
    expected_games = rows / 5.2
    step = YEAR / expected_games
    t = start
    game_id = 0
    written = 0
    games: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []

    spent: dict[str, float] = {"games": 0.0, "results": 0.0, "stakes": 0.0, "indexes": 0.0, "analyze": 0.0}

    def flush() -> None:
        db.execute("BEGIN")
        mark = time.perf_counter()
        db.executemany(
            "INSERT INTO games (id, kind, guild_id, channel_id, seed, settings, seats, status, meta, created_at, "
            "updated_at, ended_at, settled) VALUES (?, ?, ?, ?, ?, '{}', ?, 'finished', '{}', ?, ?, ?, 1)",
            games,
        )
        mark = _tick(spent, "games", mark)
        db.executemany(
            "INSERT INTO results (game_id, seat, guild_id, kind, finished_at, user_id, name, cash, net, place, won) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            results,
        )
        mark = _tick(spent, "results", mark)
        # Stakes are made inside SQLite from the batch's Hot Streak results: three tickets each (one
        # per race) and a side bet for about 30% (about 2.3 million rows; unseeded random(), uniform).
        db.execute(
            f"INSERT INTO stakes (game_id, seat, n, label, outcome, amount) "
            f"SELECT game_id, seat, race - 1, {_pick(TICKETS)}, "
            "CASE WHEN abs(random()) % 100 < 35 THEN 'won' ELSE 'lost' END, abs(random()) % 8 "
            "FROM results, (SELECT 1 AS race UNION ALL SELECT 2 UNION ALL SELECT 3) "
            "WHERE game_id BETWEEN ? AND ? AND kind = 'hotstreak'",
            (games[0][0], games[-1][0]),
        )
        db.execute(
            f"INSERT INTO stakes (game_id, seat, n, label, outcome, amount) "
            f"SELECT game_id, seat, 3, {_pick(SIDE_BETS)}, "
            "CASE WHEN abs(random()) % 100 < 40 THEN 'won' ELSE 'lost' END, 3 FROM results "
            "WHERE game_id BETWEEN ? AND ? AND kind = 'hotstreak' AND abs(random()) % 10 < 3",
            (games[0][0], games[-1][0]),
        )
        db.execute("COMMIT")
        _tick(spent, "stakes", mark)
        games.clear()
        results.clear()

    while written < rows:
        game_id += 1
        t = min(t + rng.expovariate(1 / step), now - 1)
        guild = rng.choices(guild_ids, cum_weights=cumulative)[0]
        kind = "hotstreak" if rng.random() < 0.7 else "horserace"
        size = min(rng.randint(2, 8), rows - written)
        humans = [
            u
            for u in rng.choices(members[guild], cum_weights=member_weights[guild], k=size)
            if rng.random() > 0.1
        ]
        humans = list(dict.fromkeys(humans))
        seats: list[int | None] = humans + [None] * (size - len(humans))
        rng.shuffle(seats)
        cash = [max(0, int(rng.gauss(12, 6))) for _ in seats]
        order = sorted(range(size), key=lambda s: -cash[s])
        place = {seat: i + 1 for i, seat in enumerate(order)}
        seat_json = json.dumps([{"user_id": u, "name": f"P{u}" if u else "Bot", "ai": None} for u in seats])
        games.append((game_id, kind, guild, guild * 10, str(game_id), seat_json, t - 1200, t, t))
        for seat, user in enumerate(seats):
            name = f"Player {user % 100000}" if user else f"Bot {seat}"
            results.append(
                (
                    game_id,
                    seat,
                    guild,
                    kind,
                    t,
                    user,
                    name,
                    cash[seat],
                    cash[seat] - 10,
                    place[seat],
                    place[seat] == 1,
                )
            )
        written += size
        if len(results) >= 50_000:
            flush()
    flush()
    mark = time.perf_counter()
    for sql in index_sql:
        db.execute(sql)
    mark = _tick(spent, "indexes", mark)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("ANALYZE")
    _tick(spent, "analyze", mark)
    counts = {
        table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("games", "results", "stakes")
    }
    by_guild = dict(db.execute("SELECT guild_id, COUNT(*) FROM results GROUP BY guild_id").fetchall())
    busiest = max(by_guild, key=by_guild.__getitem__)
    median_guild = sorted(by_guild, key=by_guild.__getitem__)[len(by_guild) // 2]
    heavy_user = db.execute(
        "SELECT user_id FROM results WHERE guild_id = ? AND user_id IS NOT NULL "
        "GROUP BY user_id ORDER BY COUNT(*) DESC LIMIT 1",
        (busiest,),
    ).fetchone()[0]
    db.close()
    return {
        "counts": counts,
        "busiest": (busiest, by_guild[busiest]),
        "median": (median_guild, by_guild[median_guild]),
        "heavy_user": heavy_user,
        "members": members,
        "spent": spent,
    }


def _pick(values: tuple[str, ...]) -> str:
    """SQL for one of ``values`` at random."""
    cases = " ".join(f"WHEN {i} THEN '{value}'" for i, value in enumerate(values))
    return f"CASE abs(random()) % {len(values)} {cases} END"


def _tick(spent: dict[str, float], what: str, since: float) -> float:
    now = time.perf_counter()
    spent[what] += now - since
    return now


async def timed(repeat: int, call: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    await call()  # warm the page cache once
    times = []
    for _ in range(repeat):
        begin = time.perf_counter()
        await call()
        times.append((time.perf_counter() - begin) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]


async def measure(path: Path, facts: dict[str, Any], repeat: int) -> None:
    storage = await Storage.open(str(path))
    try:
        print(f"{'query':<58} {'median ms':>10} {'p95 ms':>8}")
        for label, (guild, size) in (("busiest guild", facts["busiest"]), ("median guild", facts["median"])):
            print(f"-- {label}: {size:,} result rows")
            # "month" and "week" as the bot asks for them (calendar, UTC: the month reads the monthly
            # totals); "30 days" is a rolling window, which always groups the results themselves.
            for period in ("all", "month", "week", "30 days"):
                since = time.time() - 30 * 86400 if period == "30 days" else period_start(period)
                for kind in (None, "hotstreak", "horserace"):
                    for page in (0, 19):
                        median, p95 = await timed(
                            repeat, lambda g=guild, k=kind, s=since, p=page: storage.leaderboard(g, k, s, p)
                        )
                        name = f"leaderboard {period:<7} {kind or 'all games':<10} page {page + 1}"
                        print(f"{name:<58} {median:>10.2f} {p95:>8.2f}")
            users = facts["members"][guild]
            rng = random.Random(7)
            median, p95 = await timed(
                repeat, lambda g=guild, r=rng, u=users: storage.player_stats(g, r.choice(u))
            )
            print(f"{'player_stats (random member)':<58} {median:>10.2f} {p95:>8.2f}")
            median, p95 = await timed(repeat, lambda g=guild: storage.history(g, 10))
            print(f"{'history (10)':<58} {median:>10.2f} {p95:>8.2f}")
            median, p95 = await timed(
                repeat,
                lambda g=guild, r=rng, u=users: storage.lifetime_net(g, "hotstreak", r.sample(u, 6)),
            )
            print(f"{'lifetime_net (6 users)':<58} {median:>10.2f} {p95:>8.2f}")
        guild, _ = facts["busiest"]
        median, p95 = await timed(repeat, lambda: storage.player_stats(guild, facts["heavy_user"]))
        print(f"{'player_stats (heaviest player of the busiest guild)':<58} {median:>10.2f} {p95:>8.2f}")
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="result rows to write")
    parser.add_argument("--repeat", type=int, default=40, help="timed calls per query")
    parser.add_argument("--keep", type=Path, help="write the database here and keep it (default: a temp dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.db"
        asyncio.run(_create(path))
        begin = time.perf_counter()
        facts = fill(path, args.rows)
        built = time.perf_counter() - begin
        counts = facts["counts"]
        print(
            f"built {counts['results']:,} results, {counts['games']:,} games, {counts['stakes']:,} stakes "
            f"in {built:.1f} s ({path.stat().st_size / 1e6:.0f} MB)"
        )
        print("  of which SQLite: " + ", ".join(f"{what} {s:.1f} s" for what, s in facts["spent"].items()))
        asyncio.run(measure(path, facts, args.repeat))
    return 0


async def _create(path: Path) -> None:
    storage = await Storage.open(str(path))
    await storage.close()


if __name__ == "__main__":
    raise SystemExit(main())
