"""The schema, as numbered migrations applied in order at start and recorded in ``schema_version``.

Rules for adding one: append a new ``Migration`` with the next number; never edit a released one
(databases in the wild already ran it). Each migration runs in the same transaction as its
``schema_version`` row, so a crash mid-upgrade leaves the previous version intact.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.storage.errors import StorageError


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


# Why the shapes below:
# - games: JSON columns (settings, seats, meta) because the engine and the Discord layer own their
#   shapes; ``seed`` is TEXT so a seed of any size round-trips. ``settled`` marks that results were
#   written, which makes finish_game idempotent even for a game with no result rows.
#   AUTOINCREMENT: a game id is never reused, because button custom_ids carry game ids.
# - actions: (game_id, seq) primary key is what turns a double click into StaleAction.
# - results: guild, kind and finish time are copied from the game so leaderboards read one table
#   through covering indexes (partial: AI seats, user_id NULL, are never ranked).
# - player_totals / player_months / player_names: kept by a trigger on results, so they can never
#   drift from the results. The all-time board reads player_totals (a few thousand rows instead of
#   grouping a million); a board since a calendar month start (UTC, "YYYY-MM") reads player_months,
#   about ten times fewer rows than that month's results in a busy guild.
_V1 = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        seed TEXT NOT NULL,
        settings TEXT NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')),
        meta TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        ended_at REAL,
        end_reason TEXT,
        settled INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1))
    )""",
    "CREATE INDEX games_open_by_channel ON games (channel_id) WHERE status IN ('lobby', 'running')",
    "CREATE INDEX games_open_by_guild ON games (guild_id) WHERE status IN ('lobby', 'running')",
    "CREATE INDEX games_finished_by_guild ON games (guild_id, ended_at) WHERE status = 'finished'",
    """CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL CHECK (seq >= 0),
        action TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        finished_at REAL NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        cash INTEGER NOT NULL,
        net INTEGER NOT NULL,
        place INTEGER NOT NULL,
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID""",
    """CREATE INDEX results_by_period ON results (guild_id, finished_at, kind, user_id, net, won)
        WHERE user_id IS NOT NULL""",
    """CREATE INDEX results_by_kind_period ON results (guild_id, kind, finished_at, user_id, net, won)
        WHERE user_id IS NOT NULL""",
    """CREATE INDEX results_by_player ON results (guild_id, user_id, kind, finished_at, won, net)
        WHERE user_id IS NOT NULL""",
    """CREATE TABLE bets (
        game_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        n INTEGER NOT NULL,
        race INTEGER NOT NULL,
        subject TEXT NOT NULL,
        side TEXT NOT NULL,
        payout INTEGER NOT NULL,
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (game_id, seat, n),
        FOREIGN KEY (game_id, seat) REFERENCES results (game_id, seat)
    ) WITHOUT ROWID""",
    """CREATE TABLE player_totals (
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        net INTEGER NOT NULL,
        PRIMARY KEY (guild_id, kind, user_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE player_months (
        guild_id INTEGER NOT NULL,
        month TEXT NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        net INTEGER NOT NULL,
        PRIMARY KEY (guild_id, month, kind, user_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE player_names (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        seen_at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER results_count_in_totals AFTER INSERT ON results WHEN NEW.user_id IS NOT NULL
    BEGIN
        INSERT INTO player_totals (guild_id, kind, user_id, games, wins, net)
            VALUES (NEW.guild_id, NEW.kind, NEW.user_id, 1, NEW.won, NEW.net)
            ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET
                games = games + 1, wins = wins + excluded.wins, net = net + excluded.net;
        INSERT INTO player_months (guild_id, month, kind, user_id, games, wins, net)
            VALUES (NEW.guild_id, strftime('%Y-%m', NEW.finished_at, 'unixepoch'), NEW.kind, NEW.user_id, 1,
                    NEW.won, NEW.net)
            ON CONFLICT (guild_id, month, kind, user_id) DO UPDATE SET
                games = games + 1, wins = wins + excluded.wins, net = net + excluded.net;
        INSERT INTO player_names (guild_id, user_id, name, seen_at)
            VALUES (NEW.guild_id, NEW.user_id, NEW.name, NEW.finished_at)
            ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at
            WHERE excluded.seen_at >= player_names.seen_at;
    END""",
    "CREATE TRIGGER results_are_final BEFORE DELETE ON results BEGIN SELECT RAISE(ABORT, 'results are final'); END",
    """CREATE TRIGGER results_are_final_on_update BEFORE UPDATE ON results
    BEGIN SELECT RAISE(ABORT, 'results are final'); END""",
)

# v2: results hold stakes in any game's words (a label, an outcome, an amount) instead of Hot Streak's
# own bet rows, so storage knows no game. The old rows are carried over, then their table dropped,
# in the words Hot Streak now writes itself: a ticket "gobbler"/"risky" becomes "Gobbler, risky"; a
# side bet "side:dq-mum"/"yes:safe" becomes "Side bet yes, safe"; outcome from won; amount is what
# it paid when won, else 0. Stakes are final like results.
_V2 = (
    """CREATE TABLE stakes (
        game_id INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        n INTEGER NOT NULL CHECK (n >= 0),
        label TEXT NOT NULL,
        outcome TEXT NOT NULL,
        amount INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat, n),
        FOREIGN KEY (game_id, seat) REFERENCES results (game_id, seat)
    ) WITHOUT ROWID""",
    """INSERT INTO stakes (game_id, seat, n, label, outcome, amount)
        SELECT game_id, seat, n,
            CASE WHEN subject LIKE 'side:%' THEN 'Side bet ' || replace(side, ':', ', ')
                ELSE upper(substr(subject, 1, 1)) || substr(subject, 2) || ', ' || side END,
            CASE WHEN won THEN 'won' ELSE 'lost' END,
            CASE WHEN won AND payout > 0 THEN payout ELSE 0 END
        FROM bets""",
    "DROP TABLE bets",
    "CREATE TRIGGER stakes_are_final BEFORE DELETE ON stakes BEGIN SELECT RAISE(ABORT, 'results are final'); END",
    """CREATE TRIGGER stakes_are_final_on_update BEFORE UPDATE ON stakes
    BEGIN SELECT RAISE(ABORT, 'results are final'); END""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, actions, results, bets, totals", _V1),
    Migration(2, "stakes in any game's words", _V2),
)
SCHEMA_VERSION = MIGRATIONS[-1].version


async def migrate(db: aiosqlite.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the schema up to the last of ``migrations`` in one transaction; return the version now.

    ``db`` must be in autocommit mode (``isolation_level=None``). Refuses, changing nothing, a
    database made by a newer bot: running old code on a newer schema could corrupt what it
    does not understand.
    """
    known = migrations[-1].version if migrations else 0
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.name!r} is numbered {migration.version}, expected {expected}"
            )
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        current = int(row[0]) if row else 0
        if current > known:
            raise StorageError(
                f"database schema v{current} is newer than this bot (v{known}); upgrade the bot"
            )
        for migration in migrations[current:]:
            for statement in migration.statements:
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time()),
            )
        await db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            await db.execute("ROLLBACK")
        raise
    return max(current, known)
