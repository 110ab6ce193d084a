"""The schema, as numbered migrations applied in order at start and recorded in ``schema_version``.

Rules for adding one: append a new ``Migration`` with the next number; never edit a released one
(databases in the wild already ran it). Each migration runs in the same transaction as its
``schema_version`` row, so a crash mid-upgrade leaves the previous version intact.

One numbering for both databases: a migration holds its SQLite statements and, where PostgreSQL
needs other words, its PostgreSQL statements (the same tables, columns, keys and indexes; 64-bit
ids and double-precision times; triggers as PL/pgSQL functions).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.backend import POSTGRES, Backend
from bot.storage.errors import StorageError

# Two bot processes starting together on one PostgreSQL database upgrade it one after the other.
_MIGRATION_LOCK = 0x72616365  # any constant; pg_advisory_xact_lock's key for "migrating this database"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]  # SQLite
    postgres: tuple[str, ...] | None = None  # None: the SQLite statements work as they are

    def for_dialect(self, dialect: str) -> tuple[str, ...]:
        return self.postgres if dialect == POSTGRES and self.postgres is not None else self.statements


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

# v3: one row per server setting (the /config commands), the value as JSON text.
_V3 = (
    """CREATE TABLE server_settings (
        guild_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, key)
    ) WITHOUT ROWID""",
)

_PG_V1 = (
    """CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        kind TEXT NOT NULL,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        seed TEXT NOT NULL,
        settings TEXT NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'abandoned')),
        meta TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        ended_at DOUBLE PRECISION,
        end_reason TEXT,
        settled INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1))
    )""",
    _V1[1],
    _V1[2],
    _V1[3],
    """CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL CHECK (seq >= 0),
        action TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    """CREATE TABLE results (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        cash BIGINT NOT NULL,
        net BIGINT NOT NULL,
        place INTEGER NOT NULL,
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (game_id, seat)
    )""",
    _V1[6],
    _V1[7],
    _V1[8],
    """CREATE TABLE bets (
        game_id BIGINT NOT NULL,
        seat INTEGER NOT NULL,
        n INTEGER NOT NULL,
        race INTEGER NOT NULL,
        subject TEXT NOT NULL,
        side TEXT NOT NULL,
        payout BIGINT NOT NULL,
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (game_id, seat, n),
        FOREIGN KEY (game_id, seat) REFERENCES results (game_id, seat)
    )""",
    """CREATE TABLE player_totals (
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        games BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        net BIGINT NOT NULL,
        PRIMARY KEY (guild_id, kind, user_id)
    )""",
    """CREATE TABLE player_months (
        guild_id BIGINT NOT NULL,
        month TEXT NOT NULL,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        games BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        net BIGINT NOT NULL,
        PRIMARY KEY (guild_id, month, kind, user_id)
    )""",
    """CREATE TABLE player_names (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        seen_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )""",
    """CREATE FUNCTION results_count_in_totals() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO player_totals (guild_id, kind, user_id, games, wins, net)
            VALUES (NEW.guild_id, NEW.kind, NEW.user_id, 1, NEW.won, NEW.net)
            ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET
                games = player_totals.games + 1, wins = player_totals.wins + excluded.wins,
                net = player_totals.net + excluded.net;
        INSERT INTO player_months (guild_id, month, kind, user_id, games, wins, net)
            VALUES (NEW.guild_id, to_char(to_timestamp(NEW.finished_at) AT TIME ZONE 'UTC', 'YYYY-MM'),
                    NEW.kind, NEW.user_id, 1, NEW.won, NEW.net)
            ON CONFLICT (guild_id, month, kind, user_id) DO UPDATE SET
                games = player_months.games + 1, wins = player_months.wins + excluded.wins,
                net = player_months.net + excluded.net;
        INSERT INTO player_names (guild_id, user_id, name, seen_at)
            VALUES (NEW.guild_id, NEW.user_id, NEW.name, NEW.finished_at)
            ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at
            WHERE excluded.seen_at >= player_names.seen_at;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER results_count_in_totals AFTER INSERT ON results
        FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION results_count_in_totals()""",
    """CREATE FUNCTION results_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'results are final' USING ERRCODE = 'integrity_constraint_violation';
    END $$""",
    """CREATE TRIGGER results_are_final BEFORE UPDATE OR DELETE ON results
        FOR EACH ROW EXECUTE FUNCTION results_are_final()""",
)

_PG_V2 = (
    """CREATE TABLE stakes (
        game_id BIGINT NOT NULL,
        seat INTEGER NOT NULL,
        n INTEGER NOT NULL CHECK (n >= 0),
        label TEXT NOT NULL,
        outcome TEXT NOT NULL,
        amount BIGINT NOT NULL,
        PRIMARY KEY (game_id, seat, n),
        FOREIGN KEY (game_id, seat) REFERENCES results (game_id, seat)
    )""",
    """INSERT INTO stakes (game_id, seat, n, label, outcome, amount)
        SELECT game_id, seat, n,
            CASE WHEN subject LIKE 'side:%' THEN 'Side bet ' || replace(side, ':', ', ')
                ELSE upper(substr(subject, 1, 1)) || substr(subject, 2) || ', ' || side END,
            CASE WHEN won = 1 THEN 'won' ELSE 'lost' END,
            CASE WHEN won = 1 AND payout > 0 THEN payout ELSE 0 END
        FROM bets""",
    "DROP TABLE bets",
    """CREATE TRIGGER stakes_are_final BEFORE UPDATE OR DELETE ON stakes
        FOR EACH ROW EXECUTE FUNCTION results_are_final()""",
)

_PG_V3 = (
    """CREATE TABLE server_settings (
        guild_id BIGINT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, key)
    )""",
)

# - leases: which bot process drives which game, until when (bot/storage/leases.py). One row per
#   game; a process renews its rows while it runs, and a row past ``expires_at`` may be taken over.
# - routed_clicks: a click that reached a process which does not drive its game (DMs reach shard 0
#   only), waiting for the game's owner to apply it. Keyed by the interaction's id: routed once.
_V4 = (
    """CREATE TABLE leases (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        owner TEXT NOT NULL,
        expires_at REAL NOT NULL
    )""",
    "CREATE INDEX leases_by_owner ON leases (owner)",
    """CREATE TABLE routed_clicks (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id),
        user_id INTEGER NOT NULL,
        user_name TEXT NOT NULL,
        custom_id TEXT NOT NULL,
        picked TEXT NOT NULL,
        application_id INTEGER NOT NULL,
        token TEXT NOT NULL,
        created_at REAL NOT NULL
    )""",
    "CREATE INDEX routed_clicks_by_game ON routed_clicks (game_id)",
)

_PG_V4 = (
    """CREATE TABLE leases (
        game_id BIGINT PRIMARY KEY REFERENCES games (id),
        owner TEXT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX leases_by_owner ON leases (owner)",
    """CREATE TABLE routed_clicks (
        id BIGINT PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        user_id BIGINT NOT NULL,
        user_name TEXT NOT NULL,
        custom_id TEXT NOT NULL,
        picked TEXT NOT NULL,
        application_id BIGINT NOT NULL,
        token TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX routed_clicks_by_game ON routed_clicks (game_id)",
)

# v5: a person may erase what the bot stores about them (``/privacy erase``, bot/storage/erasure.py).
# Their results stay, for everyone else's standings, under a pseudonym: results become updatable in
# their ``user_id`` and ``name`` only (every other column stays final), and never deletable.
_V5 = (
    "DROP TRIGGER results_are_final_on_update",
    """CREATE TRIGGER results_are_final_on_update BEFORE UPDATE ON results
        WHEN NEW.game_id IS NOT OLD.game_id OR NEW.seat IS NOT OLD.seat OR NEW.guild_id IS NOT OLD.guild_id
            OR NEW.kind IS NOT OLD.kind OR NEW.finished_at IS NOT OLD.finished_at OR NEW.cash IS NOT OLD.cash
            OR NEW.net IS NOT OLD.net OR NEW.place IS NOT OLD.place OR NEW.won IS NOT OLD.won
            OR (OLD.user_id IS NULL AND NEW.user_id IS NOT NULL)
    BEGIN SELECT RAISE(ABORT, 'results are final'); END""",
)

_PG_V5 = (
    "DROP TRIGGER results_are_final ON results",
    """CREATE TRIGGER results_are_final BEFORE DELETE ON results
        FOR EACH ROW EXECUTE FUNCTION results_are_final()""",
    """CREATE TRIGGER results_are_final_on_update BEFORE UPDATE ON results
        FOR EACH ROW WHEN (NEW.game_id IS DISTINCT FROM OLD.game_id OR NEW.seat IS DISTINCT FROM OLD.seat
            OR NEW.guild_id IS DISTINCT FROM OLD.guild_id OR NEW.kind IS DISTINCT FROM OLD.kind
            OR NEW.finished_at IS DISTINCT FROM OLD.finished_at OR NEW.cash IS DISTINCT FROM OLD.cash
            OR NEW.net IS DISTINCT FROM OLD.net OR NEW.place IS DISTINCT FROM OLD.place
            OR NEW.won IS DISTINCT FROM OLD.won OR (OLD.user_id IS NULL AND NEW.user_id IS NOT NULL))
        EXECUTE FUNCTION results_are_final()""",
)

# v6: an ending is told once. ``settled`` says the results are stored; ``announced`` says whether the
# game's ending (its last result and final standings) was posted: 0 from the settlement by a bot of
# this version until it has posted them, 1 after. A process killed between the two leaves 0, and the
# next start posts the ending (bot/tables/resuming.py). Additive only, so a process of the previous
# release keeps working while one of this release runs (a rolling restart): it never writes the
# column, and NULL (every game settled before v6 or by that process) counts as told.
_V6 = (
    "ALTER TABLE games ADD COLUMN announced INTEGER CHECK (announced IN (0, 1))",
    "CREATE INDEX games_unannounced ON games (id) WHERE announced = 0",
)

# v7: one game per place and one table per player in a server, enforced by the database (issue 26):
# a lobby or running game claims its place (its thread if it moved to one, else the channel it was
# opened in: the place the table layer's ``Directory.in_channel`` matches) in ``open_places``, and
# each person seated at it claims (server, person) in ``open_seats``. Both are keyed by the claim, so
# a second claim fails the write that makes it, in whatever process: two starts in one channel, or
# one person joining two tables, cannot both commit (``Storage`` turns the failure into
# ``AlreadyOpen``). Triggers on ``games`` keep the claims, so every writer keeps them, a process of
# the previous release included (during a rolling upgrade its own in-memory checks answer first; a
# clash it did not foresee fails its write as a plain StorageError, "couldn't save", nothing
# written). A game's claims go when it ends.
#
# Ruling, data that already breaks the rules (two open games in one place, or a person at two open
# tables, left by the bug this fixes): the migration never fails on it and closes no game. The
# oldest game keeps the claim; the other keeps going unclaimed until it ends (a trigger claims only
# what a write adds: a seat that is new to the game, a place that changed), so nothing it does fails.
# Damaged JSON (bot/storage/records.py) claims nothing rather than failing the write.
_OPEN_CLAIMS = "('lobby', 'running')"


def _place(row: str) -> str:
    """SQLite: the place of a ``games`` row (``NEW``, ``OLD``, ``g``): its thread, else its channel."""
    return (
        f"COALESCE(CASE WHEN json_valid({row}.meta) THEN "
        f"NULLIF(CAST(json_extract({row}.meta, '$.thread_id') AS INTEGER), 0) END, {row}.channel_id)"
    )


def _seated(row: str) -> str:
    """SQLite: the people seated at a ``games`` row, as rows of ``uid`` (AI seats have none)."""
    seats = f"{row}.seats"
    array = f"CASE WHEN NOT json_valid({seats}) THEN '[]' WHEN json_type({seats}) = 'array' THEN {seats} ELSE '[]' END"
    return (
        f"SELECT DISTINCT json_extract(s.value, '$.user_id') AS uid FROM json_each({array}) AS s "
        "WHERE s.type = 'object' AND json_type(s.value, '$.user_id') = 'integer'"
    )


_V7 = (
    """CREATE TABLE open_places (
        place_id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL
    )""",
    "CREATE INDEX open_places_by_game ON open_places (game_id)",
    """CREATE TABLE open_seats (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX open_seats_by_game ON open_seats (game_id)",
    f"""INSERT OR IGNORE INTO open_places (place_id, game_id)
        SELECT {_place("g")}, g.id FROM games g WHERE g.status IN {_OPEN_CLAIMS} ORDER BY g.id""",
    f"""INSERT OR IGNORE INTO open_seats (guild_id, user_id, game_id)
        SELECT g.guild_id, json_extract(s.value, '$.user_id'), g.id
        FROM games g, json_each(CASE WHEN NOT json_valid(g.seats) THEN '[]'
                                     WHEN json_type(g.seats) = 'array' THEN g.seats ELSE '[]' END) AS s
        WHERE g.status IN {_OPEN_CLAIMS} AND s.type = 'object' AND json_type(s.value, '$.user_id') = 'integer'
        ORDER BY g.id""",
    f"""CREATE TRIGGER games_claim_new AFTER INSERT ON games WHEN NEW.status IN {_OPEN_CLAIMS}
    BEGIN
        INSERT INTO open_places (place_id, game_id) VALUES ({_place("NEW")}, NEW.id);
        INSERT INTO open_seats (guild_id, user_id, game_id) SELECT NEW.guild_id, uid, NEW.id FROM ({_seated("NEW")});
    END""",
    f"""CREATE TRIGGER games_claim_changed AFTER UPDATE OF seats, status, meta ON games
        WHEN OLD.seats IS NOT NEW.seats OR OLD.status IS NOT NEW.status OR OLD.meta IS NOT NEW.meta
    BEGIN
        DELETE FROM open_places WHERE game_id = NEW.id
            AND (NEW.status NOT IN {_OPEN_CLAIMS} OR {_place("NEW")} IS NOT {_place("OLD")});
        DELETE FROM open_seats WHERE game_id = NEW.id
            AND (NEW.status NOT IN {_OPEN_CLAIMS} OR user_id NOT IN ({_seated("NEW")}));
        INSERT INTO open_places (place_id, game_id) SELECT {_place("NEW")}, NEW.id
            WHERE NEW.status IN {_OPEN_CLAIMS} AND OLD.status IN {_OPEN_CLAIMS}
            AND {_place("NEW")} IS NOT {_place("OLD")};
        INSERT INTO open_seats (guild_id, user_id, game_id) SELECT NEW.guild_id, uid, NEW.id FROM ({_seated("NEW")})
            WHERE NEW.status IN {_OPEN_CLAIMS} AND OLD.status IN {_OPEN_CLAIMS}
            AND uid NOT IN ({_seated("OLD")});
    END""",
)

_PG_V7 = (
    """CREATE TABLE open_places (
        place_id BIGINT PRIMARY KEY,
        game_id BIGINT NOT NULL
    )""",
    _V7[1],
    """CREATE TABLE open_seats (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        game_id BIGINT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )""",
    _V7[3],
    # Unreadable JSON claims nothing (the inner blocks); the outer checks skip parsing where the
    # text cannot hold a thread or a person (most writes of ``meta`` are a prompt's deadline).
    """CREATE FUNCTION game_place(channel BIGINT, meta TEXT) RETURNS BIGINT LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN
        IF position('thread_id' IN meta) = 0 THEN
            RETURN channel;
        END IF;
        BEGIN
            RETURN COALESCE(NULLIF((meta::jsonb ->> 'thread_id')::BIGINT, 0), channel);
        EXCEPTION WHEN others THEN
            RETURN channel;
        END;
    END $$""",
    """CREATE FUNCTION seated_users(seats TEXT) RETURNS BIGINT[] LANGUAGE plpgsql IMMUTABLE AS $$
    BEGIN
        IF position('user_id' IN seats) = 0 THEN
            RETURN '{}';
        END IF;
        BEGIN
            RETURN ARRAY(
                SELECT DISTINCT (e ->> 'user_id')::BIGINT FROM jsonb_array_elements(seats::jsonb) e
                WHERE jsonb_typeof(e) = 'object' AND jsonb_typeof(e -> 'user_id') = 'number' ORDER BY 1
            );  -- in order: two writes claiming the same people claim them in the same order
        EXCEPTION WHEN others THEN
            RETURN '{}';
        END;
    END $$""",
    f"""INSERT INTO open_places (place_id, game_id)
        SELECT game_place(g.channel_id, g.meta), g.id FROM games g WHERE g.status IN {_OPEN_CLAIMS}
        ORDER BY g.id ON CONFLICT DO NOTHING""",
    f"""INSERT INTO open_seats (guild_id, user_id, game_id)
        SELECT g.guild_id, u, g.id FROM games g, unnest(seated_users(g.seats)) u
        WHERE g.status IN {_OPEN_CLAIMS} ORDER BY g.id ON CONFLICT DO NOTHING""",
    f"""CREATE FUNCTION games_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        place BIGINT;
    BEGIN
        IF TG_OP = 'INSERT' THEN
            IF NEW.status IN {_OPEN_CLAIMS} THEN
                INSERT INTO open_places (place_id, game_id) VALUES (game_place(NEW.channel_id, NEW.meta), NEW.id);
                INSERT INTO open_seats (guild_id, user_id, game_id)
                    SELECT NEW.guild_id, u, NEW.id FROM unnest(seated_users(NEW.seats)) u;
            END IF;
            RETURN NULL;
        END IF;
        IF NEW.status NOT IN {_OPEN_CLAIMS} THEN
            DELETE FROM open_places WHERE game_id = NEW.id;
            DELETE FROM open_seats WHERE game_id = NEW.id;
            RETURN NULL;
        END IF;
        IF OLD.status NOT IN {_OPEN_CLAIMS} THEN
            RETURN NULL;
        END IF;
        IF NEW.meta IS DISTINCT FROM OLD.meta THEN
            place := game_place(NEW.channel_id, NEW.meta);
            IF place IS DISTINCT FROM game_place(OLD.channel_id, OLD.meta) THEN
                DELETE FROM open_places WHERE game_id = NEW.id;
                INSERT INTO open_places (place_id, game_id) VALUES (place, NEW.id);
            END IF;
        END IF;
        IF NEW.seats IS DISTINCT FROM OLD.seats THEN
            DELETE FROM open_seats WHERE game_id = NEW.id AND NOT (user_id = ANY (seated_users(NEW.seats)));
            INSERT INTO open_seats (guild_id, user_id, game_id)
                SELECT NEW.guild_id, u, NEW.id FROM unnest(seated_users(NEW.seats)) u
                WHERE NOT (u = ANY (seated_users(OLD.seats)));
        END IF;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER games_claim AFTER INSERT OR UPDATE OF seats, status, meta ON games
        FOR EACH ROW EXECUTE FUNCTION games_claim()""",
)

# v8: each game's token, made when it is created and carried in its buttons' ids (bot/tables/custom_ids.py),
# so a button of another game with the same number (a new or restored database numbers from 1 again)
# is told apart. Additive and nullable: a game created before has none (its buttons keep working), and
# a process of the previous release, which never names the column, goes on writing games during a
# rolling upgrade (they have none either).
_V8 = ("ALTER TABLE games ADD COLUMN token TEXT",)

# v9: ratings per game per server, and across games (issue 30; bot/ratings.py, bot/storage/ratings.py).
# ``ratings`` holds each person's current skill (kind '*' for across games); ``rated_games`` numbers
# the rated games per guild in the order they were rated, which a recomputation from the results
# replays; ``rating_changes`` holds each rated person's shown rating before and after each game (the
# trend on /stats). Additive: a process of the previous release settles games without rating them
# (they are not in ``rated_games``, so a recomputation leaves them out too). ``ratings_backfill`` holds
# one row until the games finished before this version are rated (``Storage.open``, once, in one
# transaction that also deletes the row).
_V9 = (
    """CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        shown INTEGER NOT NULL,
        PRIMARY KEY (guild_id, kind, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX ratings_board ON ratings (guild_id, kind, shown, games, user_id)",
    "CREATE INDEX ratings_by_player ON ratings (user_id)",
    """CREATE TABLE rated_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        n INTEGER NOT NULL
    )""",
    "CREATE INDEX rated_games_in_order ON rated_games (guild_id, n)",
    """CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        games INTEGER NOT NULL,
        shown_before INTEGER NOT NULL,
        shown_after INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, kind, user_id, games)",
    "CREATE INDEX rating_changes_by_user ON rating_changes (user_id)",
    "CREATE TABLE ratings_backfill (pending INTEGER PRIMARY KEY)",
    "INSERT INTO ratings_backfill (pending) VALUES (1)",
)

_PG_V9 = (
    """CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        shown INTEGER NOT NULL,
        PRIMARY KEY (guild_id, kind, user_id)
    )""",
    _V9[1],
    _V9[2],
    """CREATE TABLE rated_games (
        game_id BIGINT PRIMARY KEY REFERENCES games (id),
        guild_id BIGINT NOT NULL,
        n BIGINT NOT NULL
    )""",
    _V9[4],
    """CREATE TABLE rating_changes (
        game_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        guild_id BIGINT NOT NULL,
        games INTEGER NOT NULL,
        shown_before INTEGER NOT NULL,
        shown_after INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind, user_id)
    )""",
    _V9[6],
    _V9[7],
    _V9[8],
    _V9[9],
)

# v10: seasons (issue 30; bot/seasons.py, bot/storage/seasons.py). ``season_recaps`` holds one row per
# server and season whose end was claimed: the claim (written before the recap is posted, its key
# refusing a second one, taken over only once it is older than the claim's time) and ``posted_at``
# (written after), so two processes or a restart never post a recap twice and a crash between the two
# posts it once later. ``rating_resets`` holds each soft reset of a server's ratings (one per season
# start) and after which rated game (``rated_games.n``) it came, so a recomputation from the results
# applies it at the same place. Additive: an older release never reads them (it neither posts recaps
# nor resets ratings).
_V10 = (
    """CREATE TABLE season_recaps (
        guild_id INTEGER NOT NULL,
        season TEXT NOT NULL,
        since REAL NOT NULL,
        until REAL NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at REAL NOT NULL,
        posted_at REAL,
        message_id INTEGER,
        champion_id INTEGER,
        note TEXT,
        PRIMARY KEY (guild_id, season)
    )""",
    "CREATE INDEX season_recaps_last ON season_recaps (guild_id, until)",
    """CREATE TABLE rating_resets (
        guild_id INTEGER NOT NULL,
        season_start REAL NOT NULL,
        after_n INTEGER NOT NULL,
        made_at REAL NOT NULL,
        PRIMARY KEY (guild_id, season_start)
    )""",
)

_PG_V10 = (
    """CREATE TABLE season_recaps (
        guild_id BIGINT NOT NULL,
        season TEXT NOT NULL,
        since DOUBLE PRECISION NOT NULL,
        until DOUBLE PRECISION NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at DOUBLE PRECISION NOT NULL,
        posted_at DOUBLE PRECISION,
        message_id BIGINT,
        champion_id BIGINT,
        note TEXT,
        PRIMARY KEY (guild_id, season)
    )""",
    _V10[1],
    """CREATE TABLE rating_resets (
        guild_id BIGINT NOT NULL,
        season_start DOUBLE PRECISION NOT NULL,
        after_n BIGINT NOT NULL,
        made_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, season_start)
    )""",
)

# v11: spectator bets (issue 30): play chips, a wallet per person per guild, each bet stored before it is
# confirmed to its bettor; ``spectator_payouts``' key on the bet is its one settled mark (a second
# settlement of a bet inserts nothing, and the wallet moves only for the rows it inserted, in the
# same transaction). Chips in hundredths; ``day`` the UTC day of the wallet's last top-up.
_SPECTATORS = (
    """CREATE TABLE spectator_wallets (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        chips INTEGER NOT NULL,
        day TEXT NOT NULL,
        bets INTEGER NOT NULL DEFAULT 0,
        staked INTEGER NOT NULL DEFAULT 0,
        returned INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id)
    )""",
    """CREATE TABLE spectator_bets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        race INTEGER NOT NULL,
        frame INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        racer TEXT NOT NULL,
        stake INTEGER NOT NULL,
        price INTEGER NOT NULL,
        chance REAL NOT NULL,
        placed_at REAL NOT NULL
    )""",
    "CREATE INDEX spectator_bets_by_game ON spectator_bets (game_id, race)",
    "CREATE INDEX spectator_bets_by_user ON spectator_bets (user_id)",
    """CREATE TABLE spectator_payouts (
        bet_id INTEGER PRIMARY KEY REFERENCES spectator_bets (id),
        game_id INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'refunded')),
        payout INTEGER NOT NULL,
        settled_at REAL NOT NULL,
        told INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX spectator_payouts_untold ON spectator_payouts (game_id, told)",
)

_PG_SPECTATORS = (
    """CREATE TABLE spectator_wallets (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        chips BIGINT NOT NULL,
        day TEXT NOT NULL,
        bets INTEGER NOT NULL DEFAULT 0,
        staked BIGINT NOT NULL DEFAULT 0,
        returned BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id)
    )""",
    """CREATE TABLE spectator_bets (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        race INTEGER NOT NULL,
        frame INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        racer TEXT NOT NULL,
        stake INTEGER NOT NULL,
        price INTEGER NOT NULL,
        chance DOUBLE PRECISION NOT NULL,
        placed_at DOUBLE PRECISION NOT NULL
    )""",
    _SPECTATORS[2],
    _SPECTATORS[3],
    """CREATE TABLE spectator_payouts (
        bet_id BIGINT PRIMARY KEY REFERENCES spectator_bets (id),
        game_id BIGINT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'refunded')),
        payout BIGINT NOT NULL,
        settled_at DOUBLE PRECISION NOT NULL,
        told INTEGER NOT NULL DEFAULT 0
    )""",
    _SPECTATORS[5],
)

# v12 (PostgreSQL only): a batch of moves stored in one trip to the server (``bot.storage.action_log``).
# The same reads and checks as the batch made statement by statement (each statement here sees what
# was committed before it, as there: the games' rows locked ``FOR UPDATE`` first, then the actions
# counted and the leases locked ``FOR SHARE``, a row another transaction holds skipped, never waited
# on), then the moves that pass them inserted, in the batch's order. It returns each game's slot as
# read, before the inserts, and how many of its moves it stored; the Python side judges the batch
# again from those slots for its answers and checks that both agree. Called as one statement, it is
# its own transaction: one trip to the server where there were seven to nine (BEGIN, up to four reads,
# two writes, COMMIT).
_PG_V12 = (
    """CREATE FUNCTION store_actions(
        writer TEXT, open_statuses TEXT[], batch_games BIGINT[], batch_seqs INTEGER[],
        batch_texts TEXT[], batch_nows DOUBLE PRECISION[]
    ) RETURNS TABLE (
        slot_game BIGINT, slot_status TEXT, slot_count INTEGER, slot_holder TEXT, slot_live BOOLEAN,
        slot_locked BOOLEAN, slot_stored INTEGER
    ) LANGUAGE plpgsql AS $$
    DECLARE
        ids BIGINT[] := ARRAY(SELECT DISTINCT b FROM unnest(batch_games) AS b ORDER BY b);
        n INTEGER := cardinality(ids);
        statuses TEXT[] := array_fill(NULL::TEXT, ARRAY[n]);
        counts INTEGER[] := array_fill(0, ARRAY[n]);
        holders TEXT[] := array_fill(NULL::TEXT, ARRAY[n]);
        lives BOOLEAN[] := array_fill(TRUE, ARRAY[n]);
        busy BOOLEAN[] := array_fill(FALSE, ARRAY[n]);
        nexts INTEGER[];
        added INTEGER[] := array_fill(0, ARRAY[n]);
        latest DOUBLE PRECISION[] := array_fill(NULL::DOUBLE PRECISION, ARRAY[n]);
        mine BIGINT[];
        r RECORD;
        k INTEGER;
    BEGIN
        IF n = 0 THEN
            RETURN;
        END IF;
        FOR r IN SELECT g.id, g.status FROM games AS g WHERE g.id = ANY (ids) ORDER BY g.id
                FOR UPDATE SKIP LOCKED LOOP
            statuses[array_position(ids, r.id)] := r.status;
        END LOOP;
        IF array_position(statuses, NULL) IS NOT NULL THEN  -- locked by another transaction, or none
            FOR r IN SELECT g.id FROM games AS g WHERE g.id = ANY (ids) LOOP
                k := array_position(ids, r.id);
                IF statuses[k] IS NULL THEN
                    busy[k] := TRUE;
                END IF;
            END LOOP;
        END IF;
        mine := ARRAY(SELECT ids[i] FROM generate_subscripts(ids, 1) AS i WHERE statuses[i] IS NOT NULL);
        IF cardinality(mine) > 0 THEN
            FOR r IN SELECT a.game_id, MAX(a.seq) + 1 AS next_seq FROM actions AS a
                    WHERE a.game_id = ANY (mine) GROUP BY a.game_id LOOP
                counts[array_position(ids, r.game_id)] := r.next_seq;
            END LOOP;
            IF writer IS NOT NULL THEN
                FOR r IN SELECT l.game_id, l.owner,
                        l.expires_at >= EXTRACT(EPOCH FROM clock_timestamp())::float8 AS fresh
                        FROM leases AS l WHERE l.game_id = ANY (mine) ORDER BY l.game_id
                        FOR SHARE SKIP LOCKED LOOP
                    k := array_position(ids, r.game_id);
                    holders[k] := r.owner;
                    lives[k] := r.fresh;
                END LOOP;
                FOR r IN SELECT l.game_id FROM leases AS l WHERE l.game_id = ANY (mine) LOOP
                    k := array_position(ids, r.game_id);
                    IF holders[k] IS NULL THEN  -- another transaction holds it (a takeover under way)
                        busy[k] := TRUE;
                    END IF;
                END LOOP;
            END IF;
        END IF;
        nexts := counts;
        FOR i IN 1 .. cardinality(batch_games) LOOP
            k := array_position(ids, batch_games[i]);
            IF statuses[k] IS NOT NULL AND NOT busy[k] AND batch_seqs[i] = nexts[k]
                    AND statuses[k] = ANY (open_statuses)
                    AND (writer IS NULL OR (holders[k] = writer AND lives[k])) THEN
                INSERT INTO actions (game_id, seq, action, created_at)
                    VALUES (batch_games[i], batch_seqs[i], batch_texts[i], batch_nows[i]);
                nexts[k] := nexts[k] + 1;
                added[k] := added[k] + 1;
                latest[k] := batch_nows[i];
            END IF;
        END LOOP;
        FOR i IN 1 .. n LOOP
            IF added[i] > 0 THEN
                UPDATE games SET updated_at = latest[i] WHERE id = ids[i];
            END IF;
        END LOOP;
        RETURN QUERY SELECT ids[i], statuses[i], counts[i], holders[i], lives[i], busy[i], added[i]
            FROM generate_subscripts(ids, 1) AS i WHERE statuses[i] IS NOT NULL OR busy[i];
    END $$""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, actions, results, bets, totals", _V1, _PG_V1),
    Migration(2, "stakes in any game's words", _V2, _PG_V2),
    Migration(3, "server settings", _V3, _PG_V3),
    Migration(4, "leases and routed clicks, for several processes", _V4, _PG_V4),
    Migration(5, "results renamed by an erasure", _V5, _PG_V5),
    Migration(6, "endings told apart from results stored", _V6, _V6),
    Migration(7, "one open game per place, one open table per person in a server", _V7, _PG_V7),
    Migration(8, "a token per game for its buttons", _V8, _V8),
    Migration(9, "ratings per game and across games", _V9, _PG_V9),
    Migration(10, "season recaps claimed and posted once, soft resets of ratings", _V10, _PG_V10),
    Migration(11, "spectator bets", _SPECTATORS, _PG_SPECTATORS),
    Migration(12, "moves stored in one trip (PostgreSQL)", (), _PG_V12),
)
SCHEMA_VERSION = MIGRATIONS[-1].version


async def migrate(backend: Backend, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the schema up to the last of ``migrations`` in one transaction; return the version now.

    Refuses, changing nothing, a database made by a newer bot: running old code on a newer schema
    could corrupt what it does not understand. A failing statement leaves as ``StorageError``.
    """
    known = migrations[-1].version if migrations else 0
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.name!r} is numbered {migration.version}, expected {expected}"
            )
    async with backend.transaction("upgrade the database schema", write=True) as tx:
        if tx.dialect == POSTGRES:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        row = await tx.fetch_one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        current = int(row[0]) if row else 0
        if current > known:
            raise StorageError(
                f"database schema v{current} is newer than this bot (v{known}); upgrade the bot"
            )
        for migration in migrations[current:]:
            for statement in migration.for_dialect(tx.dialect):
                await tx.execute(statement)
            await tx.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time()),
            )
    return max(current, known)


async def schema_version(backend: Backend) -> int:
    """The version a database is at (0 for an empty one), without changing it."""
    async with backend.transaction("read the database schema version", write=False) as tx:
        if tx.dialect == POSTGRES:
            exists = await tx.fetch_one("SELECT to_regclass('schema_version') IS NOT NULL")
        else:
            exists = await tx.fetch_one("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'schema_version'")
        if not exists or not exists[0]:
            return 0
        row = await tx.fetch_one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(row[0]) if row else 0
