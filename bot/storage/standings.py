"""Leaderboards, player records and history: read-only queries over settled results.

Everything is per guild, and AI seats (``user_id`` NULL) are never ranked. Why the queries are
shaped this way (figures in bench/bench_leaderboard.py):

* all-time boards read ``player_totals`` (one row per guild, kind and player, kept by a trigger),
  so they cost the number of players, not the number of games;
* boards since the start of a calendar month read ``player_months`` (per guild, month, kind and
  player, kept by the same trigger);
* boards for any other period (``since``, e.g. this week) group ``results`` through covering
  indexes that start with (guild, finish time) or (guild, kind, finish time), so they read only
  that period's rows;
* a player's record sums that player's rows per kind through the (guild, user) index and reads
  their newest games only until the current streak breaks.
"""

from __future__ import annotations

import calendar
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from bot.storage.backend import SQLITE, Tx, marks
from bot.storage.records import GameStats, HistoryRow, LeaderRow

# Ruling: ties on net go to more wins, then to fewer games (the same money in fewer games), then to
# the lower user id so pages never shuffle. Rank is the position (1, 2, 3, ...), not shared on ties.
_ORDER = "ORDER BY net DESC, wins DESC, games ASC, user_id ASC"
# Ruling: the games count money in different currencies (Downforce in millions, the others in
# dollars), so a board across games never adds them up: its rows have no net (NULL) and rank by
# wins, then fewer games (the same wins in fewer games), then user id: wins are the one thing every
# game counts the same way. (Ranked by rating, the board across games reads the rating every game
# updates: bot/storage/ratings.py.)
_ORDER_ACROSS_GAMES = "ORDER BY wins DESC, games ASC, user_id ASC"


def period_start(period: str, now: float | None = None) -> float | None:
    """The ``since`` for a named period: "all" -> None, "month" -> the 1st of this month, "week" -> Monday.

    Ruling: calendar periods in UTC (a board "this week" restarts on Monday 00:00 UTC), so every
    member of a guild sees the same board whatever their time zone. A month start is also what
    lets the board read the monthly totals instead of the month's results.
    """
    moment = time.gmtime(time.time() if now is None else now)
    if period == "all":
        return None
    midnight = calendar.timegm((moment.tm_year, moment.tm_mon, moment.tm_mday, 0, 0, 0))
    if period == "week":
        return float(midnight - moment.tm_wday * 86400)
    if period == "month":
        return float(calendar.timegm((moment.tm_year, moment.tm_mon, 1, 0, 0, 0)))
    raise ValueError(f"unknown period {period!r}; expected 'all', 'month' or 'week'")


def _board_source(
    dialect: str, guild_id: int, kind: str | None, since: float | None
) -> tuple[str, tuple[Any, ...]]:
    """A query giving one row (user_id, net, games, wins) per ranked player.

    INDEXED BY (SQLite only): left alone, SQLite prefers the (guild, user) index because it yields
    the groups in order, and then reads the guild's whole history to keep one week of it
    (measured: a week cost as much as all time). The period indexes read only the period's rows.
    PostgreSQL's planner weighs the period by its statistics and picks them by itself.
    """
    if since is None and kind is not None:
        return (
            "SELECT user_id, net, games, wins FROM player_totals WHERE guild_id = ? AND kind = ?",
            (guild_id, kind),
        )
    if since is None:
        return (
            "SELECT user_id, NULL AS net, SUM(games) AS games, SUM(wins) AS wins "
            "FROM player_totals WHERE guild_id = ? GROUP BY user_id",
            (guild_id,),
        )
    month = _month_key(since)
    if month is not None:
        net = "SUM(net)" if kind is not None else "NULL"
        return (
            f"SELECT user_id, {net} AS net, SUM(games) AS games, SUM(wins) AS wins FROM player_months "
            "WHERE guild_id = ? AND month >= ?"
            + (" AND kind = ?" if kind is not None else "")
            + " GROUP BY user_id",
            (guild_id, month) if kind is None else (guild_id, month, kind),
        )
    if kind is not None:
        return (
            "SELECT user_id, SUM(net) AS net, COUNT(*) AS games, SUM(won) AS wins "
            f"FROM results{_hint(dialect, 'results_by_kind_period')} "
            "WHERE guild_id = ? AND kind = ? AND finished_at >= ? AND user_id IS NOT NULL GROUP BY user_id",
            (guild_id, kind, since),
        )
    return (
        "SELECT user_id, NULL AS net, COUNT(*) AS games, SUM(won) AS wins "
        f"FROM results{_hint(dialect, 'results_by_period')} "
        "WHERE guild_id = ? AND finished_at >= ? AND user_id IS NOT NULL GROUP BY user_id",
        (guild_id, since),
    )


def _hint(dialect: str, index: str) -> str:
    return f" INDEXED BY {index}" if dialect == SQLITE else ""


def _month_key(since: float) -> str | None:
    """``"YYYY-MM"`` when ``since`` is exactly the start of a UTC calendar month, else None."""
    moment = time.gmtime(since)
    if since != calendar.timegm((moment.tm_year, moment.tm_mon, 1, 0, 0, 0)):
        return None
    return f"{moment.tm_year:04d}-{moment.tm_mon:02d}"


async def leaderboard(
    tx: Tx, guild_id: int, kind: str | None, since: float | None, page: int, per_page: int
) -> tuple[list[LeaderRow], int]:
    if per_page < 1:
        raise ValueError(f"per_page must be at least 1, not {per_page}")
    offset = max(page, 0) * per_page
    source, params = _board_source(tx.dialect, guild_id, kind, None if since is None else float(since))
    order = _ORDER if kind is not None else _ORDER_ACROSS_GAMES
    rows = await tx.fetch_all(
        f"SELECT user_id, net, games, wins, COUNT(*) OVER () FROM ({source}) AS board {order} LIMIT ? OFFSET ?",
        (*params, per_page, offset),
    )
    if rows:
        total = int(rows[0][4])
    else:
        total = int((await tx.fetch_all(f"SELECT COUNT(*) FROM ({source}) AS board", params))[0][0])
    names = await names_of(tx, guild_id, [row[0] for row in rows])
    board = [
        LeaderRow(
            rank=offset + i + 1,
            user_id=user_id,
            name=names.get(user_id, str(user_id)),
            net=None if net is None else int(net),
            games=int(games),
            wins=int(wins),
            win_rate=int(wins) / int(games) if games else 0.0,
        )
        for i, (user_id, net, games, wins, _total) in enumerate(rows)
    ]
    return board, total


async def player_stats(tx: Tx, guild_id: int, user_id: int) -> list[GameStats]:
    totals = await tx.fetch_all(
        "SELECT kind, COUNT(*), SUM(won), SUM(net), MAX(net) FROM results "
        "WHERE guild_id = ? AND user_id = ? GROUP BY kind",
        (guild_id, user_id),
    )
    stakes = await tx.fetch_all(
        "SELECT r.kind, s.label, s.outcome, COUNT(*) FROM results AS r "
        "JOIN stakes AS s ON s.game_id = r.game_id AND s.seat = r.seat "
        "WHERE r.guild_id = ? AND r.user_id = ? GROUP BY r.kind, s.label, s.outcome",
        (guild_id, user_id),
    )
    chosen: dict[str, Counter[str]] = defaultdict(Counter)
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    for kind, label, outcome, count in stakes:
        chosen[kind][label] += count
        outcomes[kind][outcome] += count
    stats = [
        GameStats(
            kind=kind,
            games=int(games),
            wins=int(wins),
            total_net=int(total),
            best_net=int(best),
            favourite_stake=_favourite(chosen[kind]),
            stakes_won=outcomes[kind]["won"],
            stakes_lost=outcomes[kind]["lost"],
            streak=await _streak(tx, guild_id, user_id, kind),
        )
        for kind, games, wins, total, best in totals
    ]
    stats.sort(key=lambda s: (-s.games, s.kind))
    return stats


async def _streak(tx: Tx, guild_id: int, user_id: int, kind: str) -> int:
    """The current run, reading newest games first, a page at a time, only until it breaks."""
    streak = 0
    offset, page = 0, 32
    while True:
        rows = await tx.fetch_all(
            "SELECT won FROM results WHERE guild_id = ? AND user_id = ? AND kind = ? "
            "ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?",
            (guild_id, user_id, kind, page, offset),
        )
        for (won,) in rows:
            if streak != 0 and (streak > 0) != bool(won):
                return streak
            streak += 1 if won else -1
        if len(rows) < page:
            return streak
        offset, page = offset + page, page * 4


def _favourite(counts: Counter[str]) -> str | None:
    # Ruling: the stake label chosen most often, won or lost; on a tie, the first in alphabetical
    # order (stable, not random).
    if not counts:
        return None
    return min(counts, key=lambda label: (-counts[label], label))


async def history(tx: Tx, guild_id: int, limit: int) -> list[HistoryRow]:
    games = await tx.fetch_all(
        "SELECT id, kind, ended_at FROM games WHERE guild_id = ? AND status = 'finished' "
        "ORDER BY ended_at DESC, id DESC LIMIT ?",
        (guild_id, max(limit, 0)),
    )
    if not games:
        return []
    ids = [row[0] for row in games]
    seats = await tx.fetch_all(
        f"SELECT game_id, name, won FROM results WHERE game_id IN ({marks(ids)}) ORDER BY game_id, seat",
        ids,
    )
    winners: dict[int, list[str]] = defaultdict(list)
    players: Counter[int] = Counter()
    for game_id, name, won in seats:
        players[game_id] += 1
        if won:
            winners[game_id].append(name)
    return [
        HistoryRow(game_id=gid, kind=kind, finished_at=ended_at, winners=winners[gid], players=players[gid])
        for gid, kind, ended_at in games
    ]


async def lifetime_net(tx: Tx, guild_id: int, kind: str, user_ids: Sequence[int]) -> dict[int, int]:
    winnings = dict.fromkeys(user_ids, 0)
    known = [uid for uid in winnings if uid is not None]
    if known:
        rows = await tx.fetch_all(
            f"SELECT user_id, net FROM player_totals WHERE guild_id = ? AND kind = ? AND user_id IN ({marks(known)})",
            (guild_id, kind, *known),
        )
        winnings.update({user_id: int(net) for user_id, net in rows})
    return winnings


async def names_of(tx: Tx, guild_id: int, user_ids: list[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = await tx.fetch_all(
        f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks(user_ids)})",
        (guild_id, *user_ids),
    )
    return dict(rows)
