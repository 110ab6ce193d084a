"""``Storage``: the one place that reads and writes the bot's SQLite database.

Why it is built this way:

* Every change is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) that either lands whole or
  not at all, and is committed (``synchronous=FULL``) before the call returns: the Discord layer
  announces a move only after ``append_action`` returned, so a crash can lose an announcement but
  never a move that was announced.
* One aiosqlite connection serves the bot; an ``asyncio.Lock`` keeps two coroutines from
  interleaving statements inside each other's transactions.
* Games are stored as their start (kind, seed, settings, seats) plus the action log, because the
  engine rebuilds a game exactly by replaying them (see bot/games/base.py).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.storage import standings
from bot.storage.errors import StaleAction, StorageError, explain, is_driver_error
from bot.storage.location import database_path
from bot.storage.migrations import migrate
from bot.storage.records import (
    ENDED_STATUSES,
    OPEN_STATUSES,
    GameStats,
    HistoryRow,
    LeaderRow,
    PlayerResult,
    StakeRecord,
    StoredGame,
)
from bot.storage.sql import fetch_all, fetch_one

DEFAULT_BUSY_TIMEOUT = 5.0  # seconds to wait for another writer before giving up with StorageError

_GAME_COLUMNS = "id, kind, guild_id, channel_id, seed, settings, seats, status, meta, created_at, updated_at"
_OPEN = "status IN ('lobby', 'running')"  # literal, so SQLite can use the partial indexes


class Storage:
    """The bot's persistent state: games and their action logs, results, leaderboards."""

    def __init__(self, db: aiosqlite.Connection, path: Path, clock: Callable[[], float]) -> None:
        # Use Storage.open(); this only wires an already-migrated connection.
        self._db: aiosqlite.Connection | None = db
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()

    # --- lifetime ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str | None,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        clock: Callable[[], float] = time.time,
    ) -> Self:
        """Open (creating if needed) and migrate the database ``DATABASE_URL`` names.

        ``busy_timeout``: seconds a write waits for another connection's lock. ``clock``: the time
        source for created/updated/finished stamps (tests pass a fake one).
        """
        path = database_path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise explain(error, "open the database", path) from error
        db: aiosqlite.Connection | None = None
        try:
            # A file that cannot be opened at all (a directory, no permission) is found by plain
            # sqlite3 first: aiosqlite's failed connect leaves its worker thread to finish after we
            # return, which can outlive the event loop and end in an error on another thread.
            await asyncio.to_thread(_probe_open, path)
            db = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
            await db.execute(f"PRAGMA busy_timeout = {max(int(busy_timeout * 1000), 0)}")
            # The first statement that reads the file: a garbage file fails here, clearly.
            async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                await cursor.fetchone()
            await db.execute("PRAGMA foreign_keys = ON")
            # FULL: a commit survives a power cut too, not only a crash of the bot. Writes are
            # human-paced (clicks), so the extra fsync costs nothing anyone notices.
            await db.execute("PRAGMA synchronous = FULL")
            await migrate(db)
        except BaseException as error:
            if db is not None:
                await _quietly_close(db)
            if is_driver_error(error):
                raise explain(error, "open the database", path) from error
            raise
        return cls(db, path, clock)

    async def close(self) -> None:
        """Close the database; calling it twice is harmless."""
        db, self._db = self._db, None
        if db is None:
            return
        async with self._lock:
            try:
                # Keeps the query planner's statistics fresh, cheaply (bounded analysis).
                await db.execute("PRAGMA analysis_limit = 1000")
                await db.execute("PRAGMA optimize")
            except Exception:  # noqa: BLE001 - closing must not fail on a housekeeping step
                pass
            await _quietly_close(db)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self, doing: str, *, write: bool) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction, serialised with every other use of the connection; errors become StorageError.

        Writes take the write lock at BEGIN (IMMEDIATE), so a busy database fails before anything
        is written rather than at COMMIT.
        """
        async with self._lock:
            db = self._db
            if db is None:
                raise StorageError(f"Could not {doing}: the storage at {self.path} is closed.")
            try:
                await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield db
                await db.execute("COMMIT")
            except BaseException as error:
                await _rollback(db)
                if is_driver_error(error):
                    raise explain(error, doing, self.path) from error
                raise

    # --- games and their action logs ---------------------------------------------------------

    async def create_game(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        seed: int,
        settings: dict[str, Any],
        seats: list[dict[str, Any]],
        status: str = "running",
        meta: dict[str, Any] | None = None,
    ) -> int:
        """Store a new game (no actions yet) and return its id."""
        _check_open_status(status)
        now = self._clock()
        async with self._transaction(f"create a {kind} game", write=True) as db:
            cursor = await db.execute(
                "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    str(int(seed)),
                    _dump(settings, "settings"),
                    _dump(seats, "seats"),
                    status,
                    _dump(meta or {}, "meta"),
                    now,
                    now,
                ),
            )
            game_id = cursor.lastrowid
            await cursor.close()
        assert game_id is not None
        return game_id

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        """Store action number ``seq`` (0-based: the number of actions before it), committed on return.

        Raises ``StaleAction`` when ``seq`` is already taken (a double click or a replay) or the game
        has ended (a click that came too late), and ``StorageError`` for a gap in the log or a missing
        game; in every case nothing is stored.
        """
        if seq < 0:
            raise ValueError(f"action sequence numbers start at 0, not {seq}")
        text = _dump(action, "action")
        now = self._clock()
        async with self._transaction(f"store action {seq} of game {game_id}", write=True) as db:
            row = await fetch_one(
                db,
                "SELECT status, (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = games.id) "
                "FROM games WHERE id = ?",
                (game_id,),
            )
            if row is None:
                raise StorageError(f"Game {game_id} does not exist; action {seq} was not stored.")
            status, count = row
            if seq < count:
                raise StaleAction(
                    f"Action {seq} of game {game_id} was already stored (a double click or a replay)."
                )
            if status not in OPEN_STATUSES:
                raise StaleAction(f"Game {game_id} has ended ({status}); action {seq} came too late.")
            if seq > count:
                raise StorageError(
                    f"Action {seq} of game {game_id} would leave a gap: only {count} actions are stored."
                )
            await db.execute(
                "INSERT INTO actions (game_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                (game_id, seq, text, now),
            )
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

    async def update_game(
        self,
        game_id: int,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        meta: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Change a game's seats, open status (lobby -> running), meta or settings (each replaces the whole value).

        Settings change only before the first action (a lobby fixes them when the host presses Start):
        afterwards they are part of what replays the game, so changing them raises StorageError.

        Ruling: ending a game goes through ``finish_game`` or ``close_game`` only, and an ended game
        cannot be reopened (StorageError); its seats and meta may still change (e.g. a message id).
        """
        if status is not None:
            _check_open_status(status)
        changes: dict[str, Any] = {}
        if seats is not None:
            changes["seats"] = _dump(seats, "seats")
        if status is not None:
            changes["status"] = status
        if meta is not None:
            changes["meta"] = _dump(meta, "meta")
        if settings is not None:
            changes["settings"] = _dump(settings, "settings")
        changes["updated_at"] = self._clock()
        async with self._transaction(f"update game {game_id}", write=True) as db:
            current = await self._status(db, game_id)
            if status is not None and current not in OPEN_STATUSES:
                raise StorageError(f"Game {game_id} has ended ({current}); it cannot be set to {status!r}.")
            if settings is not None:
                async with db.execute(
                    "SELECT 1 FROM actions WHERE game_id = ? LIMIT 1", (game_id,)
                ) as cursor:
                    if await cursor.fetchone() is not None:
                        raise StorageError(f"Game {game_id} has started; its settings can no longer change.")
            assignments = ", ".join(f"{column} = ?" for column in changes)
            await db.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*changes.values(), game_id))

    async def load_game(self, game_id: int) -> StoredGame | None:
        """The game with its whole action log, or None if there is no such game."""
        async with self._transaction(f"load game {game_id}", write=False) as db:
            return await _load(db, game_id)

    async def unfinished_games(self) -> list[StoredGame]:
        """Every game in the lobby or running (to resume at start), oldest first."""
        async with self._transaction("list unfinished games", write=False) as db:
            rows = await fetch_all(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE {_OPEN} ORDER BY id")
            actions = await fetch_all(
                db,
                f"SELECT game_id, seq, action FROM actions WHERE game_id IN (SELECT id FROM games WHERE {_OPEN}) "
                "ORDER BY game_id, seq",
            )
        logs: dict[int, list[tuple[Any, Any]]] = {}
        for game_id, seq, text in actions:
            logs.setdefault(game_id, []).append((seq, text))
        # One damaged game must not stop the others from resuming: it comes back marked, not raised.
        return [_read_game(row, logs.get(row[0], [])) for row in rows]

    async def active_game_in_channel(self, channel_id: int) -> StoredGame | None:
        """The lobby/running game in a channel (the newest, should there somehow be two)."""
        async with self._transaction(f"find the game in channel {channel_id}", write=False) as db:
            row = await fetch_one(
                db, f"SELECT id FROM games WHERE channel_id = ? AND {_OPEN} ORDER BY id DESC", (channel_id,)
            )
            return None if row is None else await _load(db, row[0])

    async def active_game_of_user(self, guild_id: int, user_id: int) -> StoredGame | None:
        """The lobby/running game in this guild where the user holds a seat (the newest, if several)."""
        async with self._transaction(f"find the game of user {user_id}", write=False) as db:
            row = await fetch_one(
                db,
                f"SELECT id FROM games WHERE guild_id = ? AND {_OPEN} AND EXISTS ("
                "SELECT 1 FROM json_each(games.seats) WHERE json_extract(value, '$.user_id') = ?"
                ") ORDER BY id DESC",
                (guild_id, user_id),
            )
            return None if row is None else await _load(db, row[0])

    # --- the end of a game ---------------------------------------------------------------------

    async def finish_game(self, game_id: int, results: list[PlayerResult], status: str = "finished") -> bool:
        """Settle a game: write its results and stakes and set its status, in ONE transaction.

        Returns False and writes nothing if the game was settled before (resuming or replaying a
        finished game never pays twice) or was closed without results (cancelled/abandoned: a
        closed game stays closed). Raises StorageError for a missing game.
        """
        if status not in ENDED_STATUSES:
            raise ValueError(f"a game ends as one of {ENDED_STATUSES}, not {status!r}")
        seats = [result.seat for result in results]
        if len(set(seats)) != len(seats):
            raise ValueError(f"results name a seat twice: {sorted(seats)}")
        now = self._clock()
        async with self._transaction(f"settle game {game_id}", write=True) as db:
            row = await fetch_one(
                db, "SELECT guild_id, kind, status, settled FROM games WHERE id = ?", (game_id,)
            )
            if row is None:
                raise StorageError(f"Game {game_id} does not exist; its results were not stored.")
            guild_id, kind, current, settled = row
            if settled or current not in OPEN_STATUSES:
                return False
            await db.executemany(
                "INSERT INTO results (game_id, seat, guild_id, kind, finished_at, user_id, name, cash, net, "
                "place, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        r.seat,
                        guild_id,
                        kind,
                        now,
                        r.user_id,
                        r.name,
                        r.cash,
                        r.net,
                        r.place,
                        int(r.won),
                    )
                    for r in results
                ],
            )
            await db.executemany(
                "INSERT INTO stakes (game_id, seat, n, label, outcome, amount) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, r.seat, n, stake.label, stake.outcome, stake.amount)
                    for r in results
                    for n, stake in enumerate(r.stakes)
                ],
            )
            await db.execute(
                "UPDATE games SET status = ?, settled = 1, ended_at = ?, updated_at = ? WHERE id = ?",
                (status, now, now, game_id),
            )
        return True

    async def close_game(self, game_id: int, status: str, reason: str) -> None:
        """End a game without results ("cancelled" or "abandoned"), noting why.

        Ruling: closing a game that has already ended changes nothing (a finished game keeps its
        status and results), so a late timeout cannot undo a settlement.
        """
        if status not in ("cancelled", "abandoned"):
            raise ValueError(f"close_game ends a game as 'cancelled' or 'abandoned', not {status!r}")
        now = self._clock()
        async with self._transaction(f"close game {game_id}", write=True) as db:
            if await self._status(db, game_id) not in OPEN_STATUSES:
                return
            await db.execute(
                "UPDATE games SET status = ?, end_reason = ?, ended_at = ?, updated_at = ? WHERE id = ?",
                (status, reason, now, now, game_id),
            )

    async def _status(self, db: aiosqlite.Connection, game_id: int) -> str:
        row = await fetch_one(db, "SELECT status FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise StorageError(f"Game {game_id} does not exist.")
        return str(row[0])

    # --- leaderboards and records ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, kind: str | None, since: float | None, page: int, per_page: int = 10
    ) -> tuple[list[LeaderRow], int]:
        """One page of the guild's board and the number of ranked players.

        ``kind`` None: all games together; ``since`` None: all time (see ``period_start``).
        ``page`` counts from 0 (as the stats cog pages: "page {page + 1} of N"); a negative page is
        the first page, a page past the end is empty.
        Players are ranked by net winnings (ties: more wins, then fewer games).
        """
        async with self._transaction("read the leaderboard", write=False) as db:
            return await standings.leaderboard(db, guild_id, kind, since, page, per_page)

    async def player_stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        """The player's record per game kind in this guild, most played first; empty for a newcomer."""
        async with self._transaction(f"read the record of user {user_id}", write=False) as db:
            return await standings.player_stats(db, guild_id, user_id)

    async def history(self, guild_id: int, limit: int = 10) -> list[HistoryRow]:
        """The guild's last finished games, newest first (cancelled/abandoned games are not listed)."""
        async with self._transaction("read the game history", write=False) as db:
            return await standings.history(db, guild_id, limit)

    async def game_results(self, game_id: int) -> list[PlayerResult]:
        """The stored outcome of one game, every seat (AI seats too) with its stakes, in seat order; [] if not settled."""
        async with self._transaction(f"read the results of game {game_id}", write=False) as db:
            rows = await fetch_all(
                db,
                "SELECT seat, user_id, name, cash, net, place, won FROM results WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
            stakes = await fetch_all(
                db,
                "SELECT seat, label, outcome, amount FROM stakes WHERE game_id = ? ORDER BY seat, n",
                (game_id,),
            )
        held: dict[int, list[StakeRecord]] = {}
        for seat, label, outcome, amount in stakes:
            held.setdefault(seat, []).append(StakeRecord(label=label, outcome=outcome, amount=amount))
        return [
            PlayerResult(
                seat=r[0],
                user_id=r[1],
                name=r[2],
                cash=r[3],
                net=r[4],
                place=r[5],
                won=bool(r[6]),
                stakes=held.get(r[0], []),
            )
            for r in rows
        ]

    async def lifetime_net(self, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, int]:
        """Each user's total net winnings at ``kind`` in this guild, over every game; 0 for a newcomer.

        The generic query a game's own statistics are built from (e.g. who goes first).
        """
        async with self._transaction("read lifetime winnings", write=False) as db:
            return await standings.lifetime_net(db, guild_id, kind, user_ids)


def _check_open_status(status: str) -> None:
    if status not in OPEN_STATUSES:
        raise ValueError(
            f"status {status!r} is not an open status {OPEN_STATUSES}; end games with finish_game or close_game"
        )


def _dump(value: Any, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{what} must be plain JSON (dict, list, str, int, float, bool, None): {error}"
        ) from error


async def _load(db: aiosqlite.Connection, game_id: int) -> StoredGame | None:
    row = await fetch_one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if row is None:
        return None
    actions = await fetch_all(
        db, "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )
    game = _read_game(row, actions)
    if game.damage is not None:
        # Someone asked for this one game to play it: a half-read game would replay wrongly.
        raise StorageError(
            f"Game {game_id} is stored with unreadable data ({game.damage}); the database is damaged."
        )
    return game


def _read_game(row: Sequence[Any], actions: Sequence[tuple[Any, Any]]) -> StoredGame:
    """The game a row and its ``(seq, action)`` rows hold; what cannot be read is named in ``damage``."""
    problems: list[str] = []

    def part(what: str, read: Callable[[], Any], empty: Any) -> Any:
        try:
            return read()
        except (ValueError, TypeError, OverflowError) as error:
            problems.append(f"{what}: {error}")
            return empty

    game = StoredGame(
        id=row[0],
        kind=str(row[1]),
        guild_id=part("guild_id", lambda: _whole(row[2]), 0),
        channel_id=part("channel_id", lambda: _whole(row[3]), 0),
        seed=part("seed", lambda: int(row[4]), 0),
        settings=part("settings", lambda: _json(row[5], dict), {}),
        seats=part("seats", lambda: _seat_list(_json(row[6], list)), []),
        actions=[],
        status=str(row[7]),
        meta=part("meta", lambda: _json(row[8], dict), {}),
        created_at=part("created_at", lambda: float(row[9]), 0.0),
        updated_at=part("updated_at", lambda: float(row[10]), 0.0),
    )
    for expected, (seq, text) in enumerate(actions):
        if seq != expected:
            problems.append(f"action {expected}: missing from the log (the next stored is {seq})")
            break
        action = part(f"action {seq}", lambda t=text: _json(t, dict), None)
        if action is None:
            break
        game.actions.append(action)
    if problems:
        game.damage = "; ".join(problems)
    return game


def _json(text: Any, shape: type) -> Any:
    value = json.loads(text)
    if not isinstance(value, shape):
        raise TypeError(
            f"expected a JSON {'object' if shape is dict else 'array'}, found {type(value).__name__}"
        )
    return value


def _whole(value: Any) -> int:
    if not isinstance(value, int):
        raise TypeError(f"expected a whole number, found {value!r}")
    return value


def _seat_list(seats: list[Any]) -> list[dict[str, Any]]:
    for n, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise TypeError(f"seat {n} is {type(seat).__name__}, not a JSON object")
    return seats


async def _rollback(db: aiosqlite.Connection) -> None:
    # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL); a failed rollback must
    # not hide the error that caused it.
    try:
        if db.in_transaction:
            await db.execute("ROLLBACK")
    except Exception:  # noqa: BLE001
        pass


def _probe_open(path: Path) -> None:
    sqlite3.connect(path).close()


async def _quietly_close(db: aiosqlite.Connection) -> None:
    try:
        await db.close()
    except Exception:  # noqa: BLE001
        pass
