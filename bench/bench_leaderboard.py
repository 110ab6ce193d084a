"""How fast the leaderboards, records and history are with a million result rows, on SQLite and PostgreSQL.

Run: ``python bench/bench_leaderboard.py [--rows 1000000] [--repeat 40] [--databases sqlite,postgres]
[--postgres-url URL] [--keep PATH] [--samples DIR]``

First it times the leaderboard pictures, a full page of ten: a game's board (ranked by net
winnings), the board across games (ranked by wins, no money column) and a game's board ranked by
rating; ``--samples DIR`` writes them there (``leaderboard.png``, ``leaderboard-wins.png``,
``leaderboard-rating.png``). ``--databases ''`` times only the pictures.

Fills a temporary database (50 guilds of very different sizes, 5,000 users, a year of games,
three or four stakes per Hot Streak seat) and prints the median and 95th percentile per query, in
milliseconds, through the real ``Storage`` API. The bulk fill writes SQL straight into the tables
``Storage`` created (through its triggers, so the all-time totals are built exactly as
finish_game would build them): a benchmark may do that; the bot's code never does.

Both databases get the same games and results (one seeded generator). PostgreSQL: ``--postgres-url``
(or ``BENCH_POSTGRES_URL``) names an empty database to fill; without one, a throwaway server is
started with tests/bot/storage/pg_server.py (durable settings, as in production: fsync on).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.leaderboard_image import BoardLine, Ranking, render_leaderboard  # noqa: E402
from bot.storage import Storage, period_start  # noqa: E402

GUILDS = 50
USERS = 5_000
YEAR = 365 * 86400
TICKETS = tuple(
    f"{name}, {risk}" for name in ("Gobbler", "Hurley", "Dangle", "Mum") for risk in ("safe", "risky")
)
SIDE_BETS = ("Side bet yes, safe", "Side bet no, safe", "Side bet yes, risky", "Side bet no, risky")


Batch = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]


def generate(rows: int, seed: int = 1) -> tuple[dict[int, list[int]], Iterator[Batch]]:
    """Each guild's members, and the games and result rows in batches of about 50,000 results."""
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

    def batches() -> Iterator[Batch]:
        now = time.time()
        step = YEAR / (rows / 5.2)
        t = now - YEAR
        game_id = written = 0
        games: list[tuple[Any, ...]] = []
        results: list[tuple[Any, ...]] = []
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
            seat_json = json.dumps(
                [{"user_id": u, "name": f"P{u}" if u else "Bot", "ai": None} for u in seats]
            )
            games.append((game_id, kind, guild, guild * 10, str(game_id), seat_json, t - 1200, t, t))
            for seat, user in enumerate(seats):
                name = f"Player {user % 100000}" if user else f"Bot {seat}"
                won = int(place[seat] == 1)
                results.append(
                    (game_id, seat, guild, kind, t, user, name, cash[seat], cash[seat] - 10, place[seat], won)
                )
            written += size
            if len(results) >= 50_000:
                yield games, results
                games, results = [], []
        if results:
            yield games, results

    return members, batches()


def fill_sqlite(path: Path, rows: int) -> dict[str, Any]:
    """Write ``rows`` result rows (and their games and stakes); return facts the timings need."""
    members, batches = generate(rows)
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
    spent: dict[str, float] = {"games": 0.0, "results": 0.0, "stakes": 0.0, "indexes": 0.0, "analyze": 0.0}
    for games, results in batches:
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
    mark = time.perf_counter()
    for sql in index_sql:
        db.execute(sql)
    mark = _tick(spent, "indexes", mark)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("ANALYZE")
    _tick(spent, "analyze", mark)
    counts = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in COUNTED}
    by_guild = dict(db.execute(BY_GUILD).fetchall())
    busiest = max(by_guild, key=by_guild.__getitem__)
    heavy_user = db.execute(HEAVY_USER, (busiest,)).fetchone()[0]
    facts = _facts(counts, by_guild, heavy_user, members)
    db.close()
    return {**facts, "spent": spent, "size": f"{path.stat().st_size / 1e6:.0f} MB"}


async def fill_postgres(url: str, rows: int) -> dict[str, Any]:
    """The same rows as ``fill_sqlite``, by COPY (the results trigger fires per row, as in the bot)."""
    import asyncpg

    members, batches = generate(rows)
    db = await asyncpg.connect(url)
    try:
        index_sql = [
            sql
            for (sql,) in await db.fetch(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'results' "
                "AND indexname <> 'results_pkey'"
            )
        ]
        for (name,) in await db.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'results' "
            "AND indexname <> 'results_pkey'"
        ):
            await db.execute(f"DROP INDEX {name}")
        spent: dict[str, float] = {
            "games": 0.0,
            "results": 0.0,
            "stakes": 0.0,
            "indexes": 0.0,
            "analyze": 0.0,
        }
        game_columns: tuple[str, ...] = (
            "id",
            "kind",
            "guild_id",
            "channel_id",
            "seed",
            "settings",
            "seats",
            "status",
            "meta",
        )
        game_columns += ("created_at", "updated_at", "ended_at", "settled")
        result_columns: tuple[str, ...] = (
            "game_id",
            "seat",
            "guild_id",
            "kind",
            "finished_at",
            "user_id",
            "name",
            "cash",
            "net",
        )
        result_columns += ("place", "won")
        for games, results in batches:
            async with db.transaction():
                mark = time.perf_counter()
                await db.copy_records_to_table(
                    "games",
                    records=[(*g[:5], "{}", g[5], "finished", "{}", *g[6:], 1) for g in games],
                    columns=game_columns,
                )
                mark = _tick(spent, "games", mark)
                await db.copy_records_to_table("results", records=results, columns=result_columns)
                mark = _tick(spent, "results", mark)
                await db.execute(
                    f"INSERT INTO stakes (game_id, seat, n, label, outcome, amount) "
                    f"SELECT game_id, seat, race - 1, {_pg_pick(TICKETS)}, "
                    "CASE WHEN random() < 0.35 THEN 'won' ELSE 'lost' END, floor(random() * 8)::int "
                    "FROM results, generate_series(1, 3) AS race "
                    "WHERE game_id BETWEEN $1 AND $2 AND kind = 'hotstreak'",
                    games[0][0],
                    games[-1][0],
                )
                await db.execute(
                    f"INSERT INTO stakes (game_id, seat, n, label, outcome, amount) "
                    f"SELECT game_id, seat, 3, {_pg_pick(SIDE_BETS)}, "
                    "CASE WHEN random() < 0.4 THEN 'won' ELSE 'lost' END, 3 FROM results "
                    "WHERE game_id BETWEEN $1 AND $2 AND kind = 'hotstreak' AND random() < 0.3",
                    games[0][0],
                    games[-1][0],
                )
                _tick(spent, "stakes", mark)
        mark = time.perf_counter()
        for sql in index_sql:
            await db.execute(sql)
        await db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")
        mark = _tick(spent, "indexes", mark)
        await db.execute("VACUUM ANALYZE")
        _tick(spent, "analyze", mark)
        counts = {table: int(await db.fetchval(f"SELECT COUNT(*) FROM {table}")) for table in COUNTED}
        by_guild = {g: int(n) for g, n in await db.fetch(BY_GUILD)}
        busiest = max(by_guild, key=by_guild.__getitem__)
        heavy_user = await db.fetchval(HEAVY_USER.replace("?", "$1"), busiest)
        facts = _facts(counts, by_guild, heavy_user, members)
        size = await db.fetchval("SELECT pg_size_pretty(pg_database_size(current_database()))")
    finally:
        await db.close()
    return {**facts, "spent": spent, "size": size}


COUNTED = ("games", "results", "stakes")
BY_GUILD = "SELECT guild_id, COUNT(*) FROM results GROUP BY guild_id"
HEAVY_USER = (
    "SELECT user_id FROM results WHERE guild_id = ? AND user_id IS NOT NULL "
    "GROUP BY user_id ORDER BY COUNT(*) DESC, user_id LIMIT 1"
)


def _facts(
    counts: dict[str, int], by_guild: dict[int, int], heavy_user: int, members: dict[int, list[int]]
) -> dict[str, Any]:
    busiest = max(by_guild, key=by_guild.__getitem__)
    median_guild = sorted(by_guild, key=lambda g: (by_guild[g], g))[len(by_guild) // 2]
    return {
        "counts": counts,
        "busiest": (busiest, by_guild[busiest]),
        "median": (median_guild, by_guild[median_guild]),
        "heavy_user": heavy_user,
        "members": members,
    }


def _pg_pick(values: tuple[str, ...]) -> str:
    """PostgreSQL SQL for one of ``values`` at random."""
    return "(ARRAY[" + ", ".join(f"'{v}'" for v in values) + f"])[floor(random() * {len(values)})::int + 1]"


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


async def measure(url: str, facts: dict[str, Any], repeat: int) -> None:
    storage = await Storage.open(url)
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
                            repeat, functools.partial(storage.leaderboard, guild, kind, since, page)
                        )
                        name = f"leaderboard {period:<7} {kind or 'all games':<10} page {page + 1}"
                        print(f"{name:<58} {median:>10.2f} {p95:>8.2f}")
            users = facts["members"][guild]
            rng = random.Random(7)

            # Functions of their own, not lambdas: mypy infers no lambda whose defaults bind the loop's
            # values (a default keeps ruff's B023 quiet: each call reads this guild's, not the last one's).
            def random_member(g: int = guild, r: random.Random = rng, u: list[int] = users) -> Awaitable[Any]:
                return storage.player_stats(g, r.choice(u))

            def six_members(g: int = guild, r: random.Random = rng, u: list[int] = users) -> Awaitable[Any]:
                return storage.lifetime_net(g, "hotstreak", r.sample(u, 6))

            median, p95 = await timed(repeat, random_member)
            print(f"{'player_stats (random member)':<58} {median:>10.2f} {p95:>8.2f}")
            median, p95 = await timed(repeat, functools.partial(storage.history, guild, 10))
            print(f"{'history (10)':<58} {median:>10.2f} {p95:>8.2f}")
            median, p95 = await timed(repeat, six_members)
            print(f"{'lifetime_net (6 users)':<58} {median:>10.2f} {p95:>8.2f}")
        guild, _ = facts["busiest"]
        median, p95 = await timed(repeat, lambda: storage.player_stats(guild, facts["heavy_user"]))
        print(f"{'player_stats (heaviest player of the busiest guild)':<58} {median:>10.2f} {p95:>8.2f}")
    finally:
        await storage.close()


def board_page(by: Ranking) -> list[BoardLine]:
    """A first page of ten players as a busy server's board has them (names of every length), in
    the order the board ranks them: by net, or by wins (ties: fewer games)."""
    rng = random.Random(3)
    names = (
        "alice",
        "Maximiliano Bartholomew",
        "bob",
        "Conceição",
        "W" * 32,
        "dave",
        "Zoë",
        "carol",
        "Ng",
        "erin",
    )
    players = []
    for i in range(10):
        games = rng.randint(40, 900)
        wins = rng.randint(0, games // 2)
        players.append((names[i], rng.randint(-4000, 12000), games, wins))
    if by == "rating":
        # A rating board: the shown rating (1,500 to start) and its change over the last games.
        rated = sorted(((rng.randint(1380, 2240), rng.randint(-60, 80), p) for p in players), reverse=True)
        return [
            BoardLine(rank, name, None, games, wins, wins / games, rating=rating, trend=trend)
            for rank, (rating, trend, (name, _net, games, wins)) in enumerate(rated, start=1)
        ]
    if by == "net":
        players.sort(key=lambda p: (-p[1], -p[3], p[2]))
    else:
        players.sort(key=lambda p: (-p[3], p[2]))
    return [
        BoardLine(rank, name, net if by == "net" else None, games, wins, wins / games)
        for rank, (name, net, games, wins) in enumerate(players, start=1)
    ]


def bench_pictures(repeat: int, samples: Path | None) -> None:
    """Median and p95 ms to draw one page's picture of each board, and its size."""
    boards: tuple[tuple[str, Ranking, str], ...] = (
        ("a game's board (by net)", "net", "leaderboard.png"),
        ("all games (by wins, no money)", "wins", "leaderboard-wins.png"),
        ("a game's board (by rating)", "rating", "leaderboard-rating.png"),
    )
    print(f"{'picture (a page of 10)':<58} {'median ms':>10} {'p95 ms':>8}")
    for label, by, filename in boards:
        title = "Leaderboard — all games" if by == "wins" else "Leaderboard — Hot Streak"
        subtitle = "All time · page 1 of 12 · 117 players"
        lines = board_page(by)
        picture = render_leaderboard(title, subtitle, lines, by=by)  # the fonts load once
        times = []
        for _ in range(repeat):
            begin = time.perf_counter()
            render_leaderboard(title, subtitle, lines, by=by)
            times.append((time.perf_counter() - begin) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        name = f"{label}, {len(picture) / 1000:.0f} KB PNG"
        print(f"{name:<58} {statistics.median(times):>10.2f} {p95:>8.2f}")
        if samples is not None:
            samples.mkdir(parents=True, exist_ok=True)
            (samples / filename).write_bytes(picture)
    if samples is not None:
        print(f"pictures written to {samples}")


def report(name: str, facts: dict[str, Any], built: float) -> None:
    counts = facts["counts"]
    print(
        f"{name}: built {counts['results']:,} results, {counts['games']:,} games, {counts['stakes']:,} stakes "
        f"in {built:.1f} s ({facts['size']})"
    )
    print("  of which: " + ", ".join(f"{what} {s:.1f} s" for what, s in facts["spent"].items()))


def bench_sqlite(rows: int, repeat: int, keep: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = keep or Path(tmp) / "bench.db"
        asyncio.run(_create(str(path)))
        begin = time.perf_counter()
        facts = fill_sqlite(path, rows)
        report("SQLite", facts, time.perf_counter() - begin)
        asyncio.run(measure(str(path), facts, repeat))


def bench_postgres(rows: int, repeat: int, url: str | None) -> None:
    folder = None
    if url is None:
        from tests.bot.storage import pg_server

        folder = pg_server.new_folder()
        try:
            url = pg_server.start(folder, durable=True)
        except (pg_server.PgServerError, OSError) as error:
            pg_server.stop(folder)
            print(f"PostgreSQL: not measured ({error}); pass --postgres-url to use a server you have")
            return
    try:
        asyncio.run(_create(url))
        begin = time.perf_counter()
        facts = asyncio.run(fill_postgres(url, rows))
        report("PostgreSQL", facts, time.perf_counter() - begin)
        asyncio.run(measure(url, facts, repeat))
    finally:
        if folder is not None:
            pg_server.stop(folder)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="result rows to write")
    parser.add_argument("--repeat", type=int, default=40, help="timed calls per query")
    parser.add_argument(
        "--databases", default="sqlite,postgres", help="which to measure (comma-separated; '' for none)"
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("BENCH_POSTGRES_URL"),
        help="an empty PostgreSQL database to fill (default: start a throwaway server)",
    )
    parser.add_argument(
        "--keep", type=Path, help="write the SQLite file here and keep it (default: a temp dir)"
    )
    parser.add_argument("--samples", type=Path, help="write both leaderboard pictures to this folder")
    args = parser.parse_args(argv)
    chosen = {name.strip() for name in args.databases.split(",") if name.strip()}
    unknown = chosen - {"sqlite", "postgres"}
    if unknown:
        parser.error(f"--databases: unknown {', '.join(sorted(unknown))}; use sqlite, postgres or both")
    bench_pictures(args.repeat, args.samples)
    if chosen:
        print()
    if "sqlite" in chosen:
        bench_sqlite(args.rows, args.repeat, args.keep)
    if "postgres" in chosen:
        if "sqlite" in chosen:
            print()
        bench_postgres(args.rows, args.repeat, args.postgres_url)
    return 0


async def _create(url: str) -> None:
    storage = await Storage.open(url)
    await storage.close()


if __name__ == "__main__":
    raise SystemExit(main())
