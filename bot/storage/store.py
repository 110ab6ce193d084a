"""``Storage``: the one place that reads and writes the bot's database (SQLite or PostgreSQL).

Why it is built this way:

* Every change is one transaction that either lands whole or not at all, and is committed (to
  disk) before the call returns: the Discord layer announces a move only after ``append_action``
  returned, so a crash can lose an announcement but never a move that was announced.
* Games are stored as their start (kind, seed, settings, seats) plus the action log, because the
  engine rebuilds a game exactly by replaying them (see bot/games/base.py).
* The same methods and SQL serve both databases (``bot.storage.backend``); SQLite is one bot
  process per file, PostgreSQL lets several processes share a database (a game's rows are locked
  by each write that reads them, so two processes never both store action 5 or settle twice).
"""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

from bot.ratings import Skill
from bot.storage import erasure, standings
from bot.storage import ratings as rating_store
from bot.storage import seasons as season_store
from bot.storage.action_log import ActionLog
from bot.storage.backend import SQLITE, Backend, TimedBackend, Tx, marks
from bot.storage.erasure import Erasure
from bot.storage.errors import AlreadyOpen, StorageError
from bot.storage.leases import Leases, fence, take_new_game
from bot.storage.location import database_location
from bot.storage.migrations import SCHEMA_VERSION, migrate, schema_version
from bot.storage.ratings import RatingRow
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
from bot.storage.seasons import SeasonRecap
from bot.storage.spectators import SpectatorStore

DEFAULT_BUSY_TIMEOUT = 5.0  # seconds to wait for another writer before giving up with StorageError

_GAME_COLUMNS = (
    "id, kind, guild_id, channel_id, seed, settings, seats, status, meta, created_at, updated_at, token"
)
_OPEN = "status IN ('lobby', 'running')"  # literal, so the database can use the partial indexes


class Storage(Leases):
    """The bot's persistent state: games and their action logs, results, leaderboards, server settings."""

    def __init__(
        self, backend: Backend, clock: Callable[[], float], busy_timeout: float = DEFAULT_BUSY_TIMEOUT
    ) -> None:
        # Use Storage.open(); this only wires an already-migrated backend.
        backend = TimedBackend(backend)  # every transaction timed and its failures counted (bot.metrics)
        self._backend = backend
        self._clock = clock
        self._actions = ActionLog(backend, lambda: self.lease_owner, busy_timeout)
        self.spectators = SpectatorStore(self._transaction, clock)  # spectator bets (issue 30)

    # --- lifetime ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str | None,
        *,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        clock: Callable[[], float] = time.time,
        read_only: bool = False,
    ) -> Self:
        """Open (creating if needed) and migrate the database ``DATABASE_URL`` names.

        ``busy_timeout``: seconds a write waits for another connection's lock. ``clock``: the time
        source for created/updated/finished stamps (tests pass a fake one). ``read_only``: for a
        tool that only looks (a test watching a running bot, a report): no upgrade, no writes, and
        no claim on a SQLite file, so it may open one a bot is using.
        """
        location = database_location(url)
        backend: Backend
        if isinstance(location, Path):
            from bot.storage.sqlite import SqliteBackend

            backend = await SqliteBackend.open(location, busy_timeout=busy_timeout, read_only=read_only)
        else:
            from bot.storage.postgres import PostgresBackend

            backend = await PostgresBackend.open(location, busy_timeout=busy_timeout, read_only=read_only)
        try:
            if read_only:
                version = await schema_version(backend)
                if version != SCHEMA_VERSION:
                    raise StorageError(
                        f"Could not open {backend.where} read-only: its schema is v{version}, this bot's is "
                        f"v{SCHEMA_VERSION} (open it once with a bot of this version to upgrade it)."
                    )
            else:
                await migrate(backend)
                async with backend.transaction("rate the games finished before ratings", write=True) as tx:
                    await rating_store.backfill(tx)
                if backend.dialect == SQLITE:
                    # One process per SQLite file (it holds the file's lock): every lease in it was
                    # held by a process that is gone, so this one may take its games at once.
                    async with backend.transaction("clear the leases of stopped processes", write=True) as tx:
                        await tx.execute("DELETE FROM leases")
        except BaseException:
            await backend.close()
            raise
        return cls(backend, clock, busy_timeout)

    @property
    def action_figures(self) -> dict[str, int]:
        """Actions stored since opening, and in how many transactions (``bot.storage.action_log``)."""
        return {"actions": self._actions.stored, "transactions": self._actions.transactions}

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self._backend.dialect

    @property
    def shared(self) -> bool:
        """Whether other bot processes may use this database at the same time (PostgreSQL; a SQLite
        file is one process's, by its lock)."""
        return self._backend.dialect != SQLITE

    @property
    def where(self) -> str:
        """The database, as messages name it (never with a password)."""
        return self._backend.where

    async def ping(self) -> None:
        """One trivial read: raises StorageError if the database does not answer (``/healthz``)."""
        async with self._transaction("answer a health check", write=False) as tx:
            await tx.fetch_one("SELECT 1")

    async def close(self) -> None:
        """Close the database; calling it twice is harmless."""
        await self._backend.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _transaction(self, doing: str, *, write: bool, aside: bool = False) -> AsyncIterator[Tx]:
        async with self._backend.transaction(doing, write=write, aside=aside) as tx:
            yield tx

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
        token: str | None = None,
    ) -> int:
        """Store a new game (no actions yet) and return its id.

        ``token``: the random text its buttons carry besides its id (``bot.tables.custom_ids``), kept
        with it; the table layer makes one for every game it opens.
        """
        _check_open_status(status)
        now = self._clock()
        try:
            async with self._transaction(f"create a {kind} game", write=True) as tx:
                row = await tx.fetch_one(
                    "INSERT INTO games (kind, guild_id, channel_id, seed, settings, seats, status, meta, "
                    "created_at, updated_at, token) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        kind,
                        guild_id,
                        channel_id,
                        str(int(seed)),
                        _dump(settings, "settings"),
                        _dump(seats, "seats"),
                        status,
                        _dump(meta or {}, "meta"),
                        float(now),
                        float(now),
                        token,
                    ),
                )
                assert row is not None
                await take_new_game(tx, int(row[0]), self.lease_owner, self.lease_seconds, float(now))
        except StorageError as error:
            # Refused by the database's one-per rules (migration 7): say which game is in the way.
            thread = (meta or {}).get("thread_id")
            place = int(thread) if isinstance(thread, int) and thread else channel_id
            in_the_way = await self._in_the_way_of(error, guild_id, place, _people(seats), None)
            if in_the_way is None:
                raise
            raise in_the_way from error
        return int(row[0])

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        """Store action number ``seq`` (0-based: the number of actions before it), committed on return.

        Raises ``StaleAction`` when ``seq`` is already taken (a double click or a replay) or the game
        has ended (a click that came too late), and ``StorageError`` for a gap in the log or a missing
        game; in every case nothing is stored.
        """
        if seq < 0:
            raise ValueError(f"action sequence numbers start at 0, not {seq}")
        text = _dump(action, "action")
        now = float(self._clock())
        # Stored with whatever other actions wait (a group commit: bot.storage.action_log).
        await self._actions.append(game_id, seq, text, now)

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

        Fenced (``bot.storage.leases.fence``): a change to an open game is refused with ``LeaseLost``
        unless this process holds its live lease. Ruling: a change to an ended game is not fenced (no
        process drives it any more, its lease is let go, and its status can no longer change).
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
        changes["updated_at"] = float(self._clock())
        try:
            await self._update_game(game_id, changes, status, settings)
        except StorageError as error:
            # New seats (a Join) or a new place (a thread) may be taken by another open game.
            people = [] if seats is None else _people(seats)
            thread = (meta or {}).get("thread_id")
            place = int(thread) if isinstance(thread, int) and thread else None
            in_the_way = await self._in_the_way_of(error, None, place, people, game_id)
            if in_the_way is None:
                raise
            raise in_the_way from error

    async def _update_game(
        self, game_id: int, changes: dict[str, Any], status: str | None, settings: dict[str, Any] | None
    ) -> None:
        async with self._transaction(f"update game {game_id}", write=True) as tx:
            current = await _status(tx, game_id)
            if status is not None and current not in OPEN_STATUSES:
                raise StorageError(f"Game {game_id} has ended ({current}); it cannot be set to {status!r}.")
            if current in OPEN_STATUSES:
                await fence(tx, game_id, self.lease_owner)
            if settings is not None:
                if await tx.fetch_one("SELECT 1 FROM actions WHERE game_id = ? LIMIT 1", (game_id,)):
                    raise StorageError(f"Game {game_id} has started; its settings can no longer change.")
            assignments = ", ".join(f"{column} = ?" for column in changes)
            await tx.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*changes.values(), game_id))

    async def _in_the_way_of(
        self,
        error: StorageError,
        guild_id: int | None,
        place_id: int | None,
        people: list[int],
        game_id: int | None,
    ) -> AlreadyOpen | None:
        """What ``error`` means when it is the database refusing a second claim (migration 7: one
        open game per place, one open table per person in a server): the game in the way; else None."""
        if not _claim_refused(error):
            return None
        try:
            async with self._transaction("find the open game in the way", write=False) as tx:
                if guild_id is None and game_id is not None:
                    row = await tx.fetch_one("SELECT guild_id FROM games WHERE id = ?", (game_id,))
                    guild_id = None if row is None else int(row[0])
                in_the_way = await _in_the_way(tx, guild_id, place_id, people, game_id)
        except StorageError:
            return None
        return in_the_way

    async def load_game(self, game_id: int) -> StoredGame | None:
        """The game with its whole action log, or None if there is no such game.

        A game stored with unreadable data raises StorageError naming what is wrong.
        """
        async with self._transaction(f"load game {game_id}", write=False) as tx:
            return await _load(tx, game_id)

    async def unfinished_games(self) -> list[StoredGame]:
        """Every game in the lobby or running (to resume at start), oldest first.

        Never raises because of one damaged game: that one comes back with ``damage`` saying what
        is wrong (see ``StoredGame``), and the others come back whole.
        """
        async with self._transaction("list unfinished games", write=False) as tx:
            rows = await tx.fetch_all(f"SELECT {_GAME_COLUMNS} FROM games WHERE {_OPEN} ORDER BY id")
            actions = await tx.fetch_all(
                f"SELECT game_id, seq, action FROM actions WHERE game_id IN (SELECT id FROM games WHERE {_OPEN}) "
                "ORDER BY game_id, seq",
            )
        logs: dict[int, list[tuple[Any, Any]]] = {}
        for game_id, seq, text in actions:
            logs.setdefault(game_id, []).append((seq, text))
        return [_read_game(row, logs.get(row[0], [])) for row in rows]

    async def active_game_in_channel(self, channel_id: int) -> StoredGame | None:
        """The lobby/running game in a channel (the newest, should there somehow be two)."""
        async with self._transaction(f"find the game in channel {channel_id}", write=False) as tx:
            row = await tx.fetch_one(
                f"SELECT id FROM games WHERE channel_id = ? AND {_OPEN} ORDER BY id DESC", (channel_id,)
            )
            return None if row is None else await _load(tx, row[0])

    async def active_game_of_user(self, guild_id: int, user_id: int) -> StoredGame | None:
        """The lobby/running game in this guild where the user holds a seat (the newest, if several)."""
        async with self._transaction(f"find the game of user {user_id}", write=False) as tx:
            for game_id, seats, _settings in await _open_games_of_guild(tx, guild_id):
                if any(isinstance(seat, dict) and seat.get("user_id") == user_id for seat in _listed(seats)):
                    return await _load(tx, game_id)
        return None

    async def count_open_tables_hosted(self, guild_id: int, user_id: int) -> int:
        """How many lobby or running games in this guild the user hosts, seated or not.

        The host is the ``host_id`` in a game's settings, as the table layer writes it. A host who
        left a running game still hosts it (its settings are fixed at the start), so leaving one's
        own tables does not make room for more of them.
        """
        async with self._transaction(f"count the tables user {user_id} hosts", write=False) as tx:
            games = await _open_games_of_guild(tx, guild_id)
        return sum(1 for _id, _seats, settings in games if _mapping(settings).get("host_id") == user_id)

    async def count_running_games(self, guild_id: int) -> int:
        """How many games in this guild are in the lobby or running (a lobby holds a table too)."""
        async with self._transaction("count the open games", write=False) as tx:
            row = await tx.fetch_one(
                f"SELECT COUNT(*) FROM games WHERE guild_id = ? AND {_OPEN}", (guild_id,)
            )
        return int(row[0]) if row else 0

    # --- the end of a game ---------------------------------------------------------------------

    async def finish_game(
        self,
        game_id: int,
        results: list[PlayerResult],
        status: str = "finished",
        *,
        announced: bool = True,
    ) -> bool:
        """Settle a game: write its results and stakes and set its status, in ONE transaction.

        ``announced``: whether its ending was posted already, or needs no posting (a game settled
        late, after its final standings went out; a tool's or a test's game). False (a table that
        settles, then posts): the game is listed by ``unannounced_games`` until ``mark_announced``,
        so a process killed in between still has its ending told at the next start.

        Returns False and writes nothing if the game was settled before (resuming or replaying a
        finished game never pays twice) or was closed without results (cancelled/abandoned: a
        closed game stays closed). Raises StorageError for a missing game.

        Fenced: raises ``LeaseLost`` and writes nothing unless this process holds the game's live
        lease (a process that lost it must not settle a game with results of its own).

        Any open game can be settled, however old (a game that ended just before a crash is
        settled at the next start, even days later). Ruling: its results count from when it was
        played, the time of its last stored action, so a game that ended last week is on last
        week's board, not this week's; a game without actions counts from now.
        """
        if status not in ENDED_STATUSES:
            raise ValueError(f"a game ends as one of {ENDED_STATUSES}, not {status!r}")
        seats = [result.seat for result in results]
        if len(set(seats)) != len(seats):
            raise ValueError(f"results name a seat twice: {sorted(seats)}")
        now = float(self._clock())
        async with self._transaction(f"settle game {game_id}", write=True) as tx:
            row = await tx.fetch_one(
                f"SELECT guild_id, kind, status, settled, seats FROM games WHERE id = ?{tx.for_update}",
                (game_id,),
            )
            if row is None:
                raise StorageError(f"Game {game_id} does not exist; its results were not stored.")
            guild_id, kind, current, settled, seats_json = row
            if settled or current not in OPEN_STATUSES:
                return False
            await fence(tx, game_id, self.lease_owner)
            last = await tx.fetch_one("SELECT MAX(created_at) FROM actions WHERE game_id = ?", (game_id,))
            played = float(last[0]) if last and last[0] is not None else now
            # In user id order, not seat order: each row's trigger locks its person's standings rows, and
            # two games sharing people (a person who left one table for another) settled at once by two
            # processes must lock them in one order, or they deadlock (found by the ratings' test).
            by_person = sorted(results, key=lambda r: (r.user_id is None, r.user_id or 0, r.seat))
            await tx.executemany(
                "INSERT INTO results (game_id, seat, guild_id, kind, finished_at, user_id, name, cash, net, "
                "place, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        r.seat,
                        guild_id,
                        kind,
                        played,
                        r.user_id,
                        r.name,
                        r.cash,
                        r.net,
                        r.place,
                        int(r.won),
                    )
                    for r in by_person
                ],
            )
            await tx.executemany(
                "INSERT INTO stakes (game_id, seat, n, label, outcome, amount) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, r.seat, n, stake.label, stake.outcome, stake.amount)
                    for r in results
                    for n, stake in enumerate(r.stakes)
                ],
            )
            await tx.execute(
                "UPDATE games SET status = ?, settled = 1, announced = ?, ended_at = ?, updated_at = ? "
                "WHERE id = ?",
                (status, int(announced), played, now, game_id),
            )
            if status == "finished":
                # In this transaction: a game's results and its ratings are stored together, or not at all.
                finishes = rating_store.finishes(
                    [(r.seat, r.user_id, r.place) for r in results], rating_store.ai_levels(seats_json)
                )
                await rating_store.rate_game(tx, game_id, guild_id, kind, finishes, now)
        return True

    async def mark_announced(self, game_id: int) -> None:
        """The ending of a settled game was posted: it is no longer listed by ``unannounced_games``, and
        this process's lease on it, kept until now (``renew_leases``), is let go."""
        async with self._transaction(f"note that game {game_id} was announced", write=True) as tx:
            await tx.execute("UPDATE games SET announced = 1 WHERE id = ? AND announced = 0", (game_id,))
            if self.lease_owner is not None:
                await tx.execute(
                    "DELETE FROM leases WHERE game_id = ? AND owner = ?", (game_id, self.lease_owner)
                )

    async def unannounced_games(self) -> list[StoredGame]:
        """Every settled game whose ending was never posted (its process stopped in between), oldest
        first, with its action log: the next start posts the ending."""
        async with self._transaction("list the endings not yet told", write=False) as tx:
            rows = await tx.fetch_all(f"SELECT {_GAME_COLUMNS} FROM games WHERE announced = 0 ORDER BY id")
            actions = await tx.fetch_all(
                "SELECT game_id, seq, action FROM actions WHERE game_id IN "
                "(SELECT id FROM games WHERE announced = 0) ORDER BY game_id, seq",
            )
        logs: dict[int, list[tuple[Any, Any]]] = {}
        for game_id, seq, text in actions:
            logs.setdefault(game_id, []).append((seq, text))
        return [_read_game(row, logs.get(row[0], [])) for row in rows]

    async def close_game(self, game_id: int, status: str, reason: str) -> None:
        """End a game without results ("cancelled" or "abandoned"), noting why.

        Ruling: closing a game that has already ended changes nothing (a finished game keeps its
        status and results), so a late timeout cannot undo a settlement. Closing an open game is
        fenced: ``LeaseLost`` unless this process holds its live lease.
        """
        if status not in ("cancelled", "abandoned"):
            raise ValueError(f"close_game ends a game as 'cancelled' or 'abandoned', not {status!r}")
        now = float(self._clock())
        async with self._transaction(f"close game {game_id}", write=True) as tx:
            if await _status(tx, game_id) not in OPEN_STATUSES:
                return
            await fence(tx, game_id, self.lease_owner)
            await tx.execute(
                "UPDATE games SET status = ?, end_reason = ?, ended_at = ?, updated_at = ? WHERE id = ?",
                (status, reason, now, now, game_id),
            )

    # --- leaderboards and records ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, kind: str | None, since: float | None, page: int, per_page: int = 10
    ) -> tuple[list[LeaderRow], int]:
        """One page of the guild's board and the number of ranked players.

        ``kind`` None: all games together; ``since`` None: all time (see ``period_start``).
        ``page`` counts from 0 (as the stats cog pages: "page {page + 1} of N"); a negative page is
        the first page, a page past the end is empty.
        Players are ranked by net winnings (ties: more wins, then fewer games); across all games
        (``kind`` None) by wins, with no net, since the games' currencies differ.
        """
        async with self._transaction("read the leaderboard", write=False) as tx:
            return await standings.leaderboard(tx, guild_id, kind, since, page, per_page)

    async def player_stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        """The player's record per game kind in this guild, most played first; empty for a newcomer."""
        async with self._transaction(f"read the record of user {user_id}", write=False) as tx:
            return await standings.player_stats(tx, guild_id, user_id)

    async def rating_board(
        self, guild_id: int, kind: str | None, page: int, per_page: int = 10
    ) -> tuple[list[RatingRow], int]:
        """One page of the guild's rating board at ``kind`` (None: across games), and how many are on it.

        Ratings are all time: every rated game counts (docs/ratings.md)."""
        scope = rating_store.ACROSS_GAMES if kind is None else kind
        async with self._transaction("read the rating board", write=False) as tx:
            return await rating_store.board(tx, guild_id, scope, page, per_page)

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, RatingRow]:
        """The person's ratings per kind, and across games under ``"*"``; empty if never rated."""
        async with self._transaction(f"read the ratings of user {user_id}", write=False) as tx:
            return await rating_store.of_player(tx, guild_id, user_id)

    async def recompute_ratings(self, guild_id: int) -> dict[tuple[str, int], Skill]:
        """Every rating of the guild computed again from its stored results ((kind, user id) -> skill),
        without changing anything; equal to ``stored_ratings`` unless something is wrong."""
        async with self._transaction("recompute the ratings", write=False) as tx:
            return await rating_store.recompute(tx, guild_id)

    async def stored_ratings(self, guild_id: int) -> dict[tuple[str, int], Skill]:
        async with self._transaction("read the ratings", write=False) as tx:
            return await rating_store.stored(tx, guild_id)

    # --- seasons (bot/storage/seasons.py) -----------------------------------------------------------

    async def season_reset(self, guild_id: int, now: float) -> bool:
        """The guild's soft reset of ratings if a season started since the last one; whether it was made."""
        async with self._transaction(f"reset the ratings of server {guild_id}", write=True) as tx:
            return await season_store.reset_if_due(tx, guild_id, now)

    async def due_recaps(self, guild_id: int, now: float, stale: float) -> list[tuple[str, float, float]]:
        """The season recaps the guild is due, (season, since, until), without claiming them."""
        async with self._transaction(f"look for season ends of server {guild_id}", write=False) as tx:
            return await season_store.due(tx, guild_id, now, stale)

    async def claim_recap(
        self, guild_id: int, season: str, since: float, until: float, now: float, stale: float
    ) -> bool:
        """Claim a season's recap for this process (``lease_owner``) before posting it; False if another
        claim holds it (or it was posted)."""
        owner = self.lease_owner or "single"
        async with self._transaction(f"claim the recap of {season} in server {guild_id}", write=True) as tx:
            return await season_store.claim(tx, guild_id, season, since, until, owner, now, stale)

    async def season_recap(self, guild_id: int, season: str, since: float, until: float) -> SeasonRecap:
        async with self._transaction(f"read the recap of {season} in server {guild_id}", write=False) as tx:
            return await season_store.recap(tx, guild_id, season, since, until)

    async def mark_recap_posted(
        self, guild_id: int, season: str, message_id: int | None, champion: int | None, note: str = ""
    ) -> None:
        now = float(self._clock())
        async with self._transaction(f"mark the recap of {season} posted", write=True) as tx:
            await season_store.mark_posted(tx, guild_id, season, now, message_id, champion, note)

    async def last_champion(self, guild_id: int) -> int | None:
        async with self._transaction("read the last champion", write=False) as tx:
            return await season_store.last_champion(tx, guild_id)

    async def history(self, guild_id: int, limit: int = 10) -> list[HistoryRow]:
        """The guild's last finished games, newest first (cancelled/abandoned games are not listed)."""
        async with self._transaction("read the game history", write=False) as tx:
            return await standings.history(tx, guild_id, limit)

    async def game_results(self, game_id: int) -> list[PlayerResult]:
        """The stored outcome of one game, every seat (AI seats too) with its stakes, in seat order; [] if not settled."""
        async with self._transaction(f"read the results of game {game_id}", write=False) as tx:
            rows = await tx.fetch_all(
                "SELECT seat, user_id, name, cash, net, place, won FROM results WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
            stakes = await tx.fetch_all(
                "SELECT seat, label, outcome, amount FROM stakes WHERE game_id = ? ORDER BY seat, n",
                (game_id,),
            )
        held: dict[int, list[StakeRecord]] = {}
        for seat, label, outcome, amount in stakes:
            held.setdefault(seat, []).append(StakeRecord(label=label, outcome=outcome, amount=int(amount)))
        return [
            PlayerResult(
                seat=r[0],
                user_id=r[1],
                name=r[2],
                cash=int(r[3]),
                net=int(r[4]),
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
        async with self._transaction("read lifetime winnings", write=False) as tx:
            return await standings.lifetime_net(tx, guild_id, kind, user_ids)

    # --- server settings -------------------------------------------------------------------------

    async def at_open_table(self, user_id: int) -> bool:
        """Whether the user is seated at, or hosts, a game in a lobby or running, in any server."""
        async with self._transaction(f"find the tables of user {user_id}", write=False) as tx:
            return await erasure.at_open_table(tx, user_id, OPEN_STATUSES)

    async def erase_player(self, user_id: int) -> Erasure:
        """Replace what is stored about ``user_id`` with a pseudonym, or delete it (``bot.storage.erasure``).

        Refused (``seated``, nothing changed) while they are seated at, or host, an open game.
        """
        async with self._transaction(f"erase user {user_id}", write=True) as tx:
            return await erasure.erase(tx, user_id, OPEN_STATUSES)

    async def get_server_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting a server has changed, key -> value; a key never set is absent (use its default).

        Ruling: a value that is no longer readable JSON (a damaged row) is left out, so the
        setting falls back to its default rather than making every command of the server fail.
        """
        async with self._transaction(f"read the settings of server {guild_id}", write=False) as tx:
            rows = await tx.fetch_all(
                "SELECT key, value FROM server_settings WHERE guild_id = ?", (guild_id,)
            )
        settings: dict[str, Any] = {}
        for key, text in rows:
            try:
                settings[key] = json.loads(text)
            except (TypeError, ValueError):
                continue
        return settings

    async def set_server_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one setting of a server (any plain JSON value), replacing what it was."""
        if not isinstance(key, str) or not key:
            raise ValueError(f"a setting's key is a non-empty string, not {key!r}")
        text = _dump(value, f"setting {key!r}")
        now = float(self._clock())
        async with self._transaction(f"save setting {key!r} of server {guild_id}", write=True) as tx:
            await tx.execute(
                "INSERT INTO server_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (guild_id, key, text, now),
            )

    async def clear_server_setting(self, guild_id: int, key: str) -> None:
        """Forget one setting of a server, so it is back at its default; harmless if it was never set."""
        async with self._transaction(f"reset setting {key!r} of server {guild_id}", write=True) as tx:
            await tx.execute("DELETE FROM server_settings WHERE guild_id = ? AND key = ?", (guild_id, key))


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


async def _open_games_of_guild(tx: Tx, guild_id: int) -> list[tuple[int, str, str]]:
    """(id, seats, settings) of the guild's open games, newest first.

    Looked into here rather than with the database's JSON functions: a guild has a handful of open
    games, and one of them stored with damaged JSON must not make the query fail for all of them.
    """
    rows = await tx.fetch_all(
        f"SELECT id, seats, settings FROM games WHERE guild_id = ? AND {_OPEN} ORDER BY id DESC", (guild_id,)
    )
    return [(row[0], row[1], row[2]) for row in rows]


def _listed(text: str) -> list[Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return []
    return value if isinstance(value, list) else []


def _mapping(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _people(seats: list[dict[str, Any]]) -> list[int]:
    """The people seated (AI seats have no ``user_id``)."""
    return [s["user_id"] for s in seats if isinstance(s, dict) and isinstance(s.get("user_id"), int)]


def _claim_refused(error: BaseException) -> bool:
    """Whether the database refused a write for a duplicate key (a claim of migration 7's tables)."""
    cause = error.__cause__
    if isinstance(cause, sqlite3.IntegrityError):
        return "UNIQUE constraint failed: open_" in str(cause)
    return getattr(cause, "sqlstate", None) == "23505" and getattr(cause, "table_name", None) in (
        "open_places",
        "open_seats",
    )


async def _in_the_way(
    tx: Tx, guild_id: int | None, place_id: int | None, people: list[int], game_id: int | None
) -> AlreadyOpen | None:
    """The open game holding the place, or the seat of one of ``people`` in this server, other than
    ``game_id`` itself; None if there is none (any more)."""
    own = -1 if game_id is None else game_id
    if place_id is not None:
        row = await tx.fetch_one(
            "SELECT game_id FROM open_places WHERE place_id = ? AND game_id <> ?", (place_id, own)
        )
        if row is not None:
            return await _named(tx, int(row[0]), None, f"Place {place_id} already has an open game")
    if people and guild_id is not None:
        row = await tx.fetch_one(
            f"SELECT user_id, game_id FROM open_seats WHERE guild_id = ? AND user_id IN ({marks(people)}) "
            "AND game_id <> ? ORDER BY game_id",
            (guild_id, *people, own),
        )
        if row is not None:
            user = int(row[0])
            return await _named(tx, int(row[1]), user, f"User {user} already sits at an open table here")
    return None


async def _named(tx: Tx, game_id: int, user_id: int | None, what: str) -> AlreadyOpen:
    row = await tx.fetch_one("SELECT kind, channel_id, meta FROM games WHERE id = ?", (game_id,))
    kind, channel, meta = (str(row[0]), int(row[1]), _mapping(row[2])) if row else ("", 0, {})
    thread = meta.get("thread_id")
    place = int(thread) if isinstance(thread, int) and thread else channel
    return AlreadyOpen(
        f"{what} (game {game_id}); nothing was written.",
        game_id=game_id,
        kind=kind,
        place_id=place,
        user_id=user_id,
    )


async def _status(tx: Tx, game_id: int) -> str:
    row = await tx.fetch_one(f"SELECT status FROM games WHERE id = ?{tx.for_update}", (game_id,))
    if row is None:
        raise StorageError(f"Game {game_id} does not exist.")
    return str(row[0])


async def _load(tx: Tx, game_id: int) -> StoredGame | None:
    row = await tx.fetch_one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if row is None:
        return None
    actions = await tx.fetch_all("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
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
        token=row[11] if isinstance(row[11], str) else None,
    )
    for expected, (seq, text) in enumerate(actions):
        if seq != expected:
            problems.append(f"action {expected}: missing from the log (the next stored is {seq})")
            break
        action = part(f"action {seq}", functools.partial(_json, text, dict), None)
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
