"""Ratings as stored: updated in the transaction that stores a game's results, and recomputable from them.

* ``ratings``: each person's current skill per guild and game kind, and across games (kind ``*``);
* ``rated_games``: every game that rated people, numbered per guild in the order it was rated, so a
  recomputation replays them in that order (ratings depend on the order of games);
* ``rating_changes``: each rated person's shown rating before and after each game, for trends.

Exactly once: ``rate_game`` runs inside ``Storage.finish_game``'s transaction, which settles a game
only once; ``rated_games``' key on the game refuses a second rating even so.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import ratings
from bot.storage import seasons as season_store
from bot.storage.backend import Tx, marks
from bot.storage.standings import names_of

ACROSS_GAMES = "*"  # the kind of the rating every game a person finishes updates
TREND_GAMES = 5  # a trend is the change over a person's last five rated games


@dataclass(frozen=True)
class RatingRow:
    """A line of a rating board, or one rating on a person's record."""

    kind: str
    user_id: int
    shown: int
    games: int
    trend: int  # the change of ``shown`` over the last ``TREND_GAMES`` games (fewer if they played fewer)
    name: str = ""  # on a board: the name they last played under in the guild


def ai_levels(seats_json: Any) -> dict[int, str]:
    """Seat number -> AI level, from a game's stored seats (unreadable seats: none known)."""
    try:
        seats = json.loads(seats_json)
    except (TypeError, ValueError):
        return {}
    if not isinstance(seats, list):
        return {}
    return {
        i: str(seat["ai"])
        for i, seat in enumerate(seats)
        if isinstance(seat, dict) and seat.get("ai") is not None
    }


def finishes(rows: Sequence[tuple[int, int | None, int]], levels: dict[int, str]) -> list[ratings.Finish]:
    """The (seat, user_id, place) rows of a game's results as ``Finish``es, AI seats with their level."""
    return [
        ratings.Finish(user_id, place, None if user_id is not None else levels.get(seat))
        for seat, user_id, place in rows
    ]


async def rate_game(
    tx: Tx,
    game_id: int,
    guild_id: int,
    kind: str,
    game_finishes: list[ratings.Finish],
    now: float | None = None,
) -> None:
    """Update the ratings of the people of one settled game, at its kind and across games; nothing
    if it rates nobody (fewer than two people) or was rated before.

    ``now`` (the settling's time): a season that started since the guild's last soft reset has its
    reset made first (``bot.storage.seasons``), so the game counts in the new season."""
    people = ratings.rated_people(game_finishes)
    if not people or await tx.fetch_one("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)):
        return
    if now is not None:
        await season_store.reset_if_due(tx, guild_id, now)
    # Lock the people's rows in one order, (kind, user id), the same in both statements (two games
    # sharing people wait for each other, and never deadlock), creating a newcomer's first: a row that
    # does not exist cannot be locked.
    ids = sorted(int(p) for p in people if isinstance(p, int))
    await tx.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, shown) VALUES (?, ?, ?, ?, ?, 0, ?) "
        "ON CONFLICT (guild_id, kind, user_id) DO NOTHING",
        [
            (guild_id, k, uid, ratings.MU, ratings.SIGMA, ratings.START)
            for k in sorted((kind, ACROSS_GAMES))
            for uid in ids
        ],
    )
    rows = await tx.fetch_all(
        f"SELECT kind, user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind IN (?, ?) "
        f"AND user_id IN ({marks(ids)}) ORDER BY kind, user_id{tx.for_update}",
        (guild_id, kind, ACROSS_GAMES, *ids),
    )
    # Numbered after the locks: a game that shares a person with this one and was rated first is
    # committed by now, so it has the lower number (games sharing nobody give the same ratings in
    # either order).
    row = await tx.fetch_one(
        "SELECT COALESCE(MAX(n), 0) + 1 FROM rated_games WHERE guild_id = ?", (guild_id,)
    )
    n = int(row[0]) if row else 1
    await tx.execute(
        "INSERT INTO rated_games (game_id, guild_id, n) VALUES (?, ?, ?)", (game_id, guild_id, n)
    )
    for scope in (kind, ACROSS_GAMES):
        before: dict[Hashable, ratings.Skill] = {
            uid: ratings.Skill(float(mu), float(sigma), int(games))
            for k, uid, mu, sigma, games in rows
            if k == scope
        }
        after = ratings.rate(game_finishes, before)
        await tx.executemany(
            "UPDATE ratings SET mu = ?, sigma = ?, games = ?, shown = ? WHERE guild_id = ? AND kind = ? "
            "AND user_id = ?",
            [(s.mu, s.sigma, s.games, s.shown, guild_id, scope, uid) for uid, s in after.items()],
        )
        await tx.executemany(
            "INSERT INTO rating_changes (game_id, kind, user_id, guild_id, games, shown_before, shown_after) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, scope, uid, guild_id, s.games, before.get(uid, ratings.NEWCOMER).shown, s.shown)
                for uid, s in after.items()
            ],
        )


async def backfill(tx: Tx) -> int:
    """Rate, once, every game finished before ratings existed (migration 9 leaves a row in
    ``ratings_backfill`` until this ran), oldest first; how many games it looked at.

    Ruling: they are rated in the order they were played (their finish time, then id), as if they had
    been rated when they ended, so a server that upgrades keeps its history in its ratings."""
    if not await tx.fetch_one(f"SELECT pending FROM ratings_backfill{tx.for_update}"):
        return 0  # done before (by this process or, on PostgreSQL, another that started with it)
    games = await tx.fetch_all(
        "SELECT id, guild_id, kind, seats FROM games WHERE status = 'finished' AND settled = 1 "
        "AND id NOT IN (SELECT game_id FROM rated_games) ORDER BY ended_at, id"
    )
    seats = await tx.fetch_all(
        "SELECT game_id, seat, user_id, place FROM results WHERE game_id NOT IN "
        "(SELECT game_id FROM rated_games) ORDER BY game_id, seat"
    )
    by_game = _by_game(seats)
    for game_id, guild_id, kind, seats_json in games:
        await rate_game(
            tx, game_id, guild_id, kind, finishes(by_game.get(game_id, []), ai_levels(seats_json))
        )
    await tx.execute("DELETE FROM ratings_backfill")
    return len(games)


def _by_game(rows: Sequence[tuple[Any, ...]]) -> dict[int, list[tuple[int, int | None, int]]]:
    """Results rows (game, seat, user id, place) grouped by game, in seat order."""
    out: dict[int, list[tuple[int, int | None, int]]] = {}
    for game_id, seat, user_id, place in rows:
        out.setdefault(game_id, []).append((seat, user_id, place))
    return out


async def recompute(tx: Tx, guild_id: int) -> dict[tuple[str, int], ratings.Skill]:
    """Every rating of a guild, (kind, user id) -> skill, computed again from the stored results of the
    games it rated, in the order they were rated, with each season's soft reset where it was made:
    what ``ratings`` must hold (a check, and the repair if it ever does not)."""
    pending_resets = await season_store.resets(tx, guild_id)
    games = await tx.fetch_all(
        "SELECT r.game_id, g.kind, g.seats, r.n FROM rated_games AS r JOIN games AS g ON g.id = r.game_id "
        "WHERE r.guild_id = ? ORDER BY r.n, r.game_id",
        (guild_id,),
    )
    seats = await tx.fetch_all(
        "SELECT game_id, seat, user_id, place FROM results WHERE game_id IN "
        "(SELECT game_id FROM rated_games WHERE guild_id = ?) ORDER BY game_id, seat",
        (guild_id,),
    )
    by_game = _by_game(seats)
    skills: dict[tuple[str, int], ratings.Skill] = {}
    for game_id, kind, seats_json, n in games:
        while pending_resets and pending_resets[0] < int(n):
            pending_resets.pop(0)
            skills = {key: ratings.soft_reset(skill) for key, skill in skills.items()}
        game_finishes = finishes(by_game.get(game_id, []), ai_levels(seats_json))
        for scope in (kind, ACROSS_GAMES):
            before: dict[Hashable, ratings.Skill] = {
                uid: skill for (k, uid), skill in skills.items() if k == scope
            }
            for uid, skill in ratings.rate(game_finishes, before).items():
                skills[(scope, int(uid))] = skill  # type: ignore[call-overload]
    for _reset in pending_resets:  # made after the last rated game
        skills = {key: ratings.soft_reset(skill) for key, skill in skills.items()}
    return skills


async def stored(tx: Tx, guild_id: int) -> dict[tuple[str, int], ratings.Skill]:
    """Every rating of a guild as stored, in ``recompute``'s shape."""
    rows = await tx.fetch_all(
        "SELECT kind, user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND games > 0", (guild_id,)
    )
    return {
        (k, int(uid)): ratings.Skill(float(mu), float(sigma), int(games)) for k, uid, mu, sigma, games in rows
    }


async def _trends(tx: Tx, guild_id: int, kind: str, user_ids: list[int]) -> dict[int, int]:
    """Each person's change of shown rating over their last ``TREND_GAMES`` games at ``kind``."""
    if not user_ids:
        return {}
    rows = await tx.fetch_all(
        "SELECT c.user_id, c.shown_before FROM rating_changes AS c JOIN ratings AS r "
        "ON r.guild_id = c.guild_id AND r.kind = c.kind AND r.user_id = c.user_id "
        f"WHERE c.guild_id = ? AND c.kind = ? AND c.user_id IN ({marks(user_ids)}) AND c.games = "
        f"CASE WHEN r.games > {TREND_GAMES} THEN r.games - {TREND_GAMES} + 1 ELSE 1 END",
        (guild_id, kind, *user_ids),
    )
    return {int(uid): int(before) for uid, before in rows}


async def board(tx: Tx, guild_id: int, kind: str, page: int, per_page: int) -> tuple[list[RatingRow], int]:
    """One page of a guild's rating board at ``kind`` (or ``ACROSS_GAMES``) and how many are on it.

    Ruling: highest shown rating first; ties to more games (the number rests on more), then the lower
    user id, so pages never shuffle."""
    rows = await tx.fetch_all(
        "SELECT user_id, shown, games, COUNT(*) OVER () FROM ratings "
        "WHERE guild_id = ? AND kind = ? AND games > 0 ORDER BY shown DESC, games DESC, user_id ASC "
        "LIMIT ? OFFSET ?",
        (guild_id, kind, per_page, max(page, 0) * per_page),
    )
    if rows:
        total = int(rows[0][3])
    else:
        count = await tx.fetch_one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND kind = ? AND games > 0", (guild_id, kind)
        )
        total = int(count[0]) if count else 0
    ids = [int(r[0]) for r in rows]
    firsts = await _trends(tx, guild_id, kind, ids)
    called = await names_of(tx, guild_id, ids)
    return [
        RatingRow(
            kind,
            int(uid),
            int(now),
            int(games),
            int(now) - firsts.get(int(uid), int(now)),
            called.get(int(uid), str(uid)),
        )
        for uid, now, games, _total in rows
    ], total


async def of_player(tx: Tx, guild_id: int, user_id: int) -> dict[str, RatingRow]:
    """A person's ratings in a guild, per kind (and ``ACROSS_GAMES``); none for a kind never rated."""
    rows = await tx.fetch_all(
        "SELECT kind, shown, games FROM ratings WHERE guild_id = ? AND user_id = ? AND games > 0",
        (guild_id, user_id),
    )
    out: dict[str, RatingRow] = {}
    for kind, now, games in rows:
        first = (await _trends(tx, guild_id, kind, [user_id])).get(user_id, int(now))
        out[kind] = RatingRow(kind, user_id, int(now), int(games), int(now) - first)
    return out


async def rename(tx: Tx, user_id: int, new_id: int) -> None:
    """An erasure: the person's ratings go on under their pseudonym (as their results do), so every
    rating recomputed from the results stays as it was."""
    await tx.execute("UPDATE ratings SET user_id = ? WHERE user_id = ?", (new_id, user_id))
    await tx.execute("UPDATE rating_changes SET user_id = ? WHERE user_id = ?", (new_id, user_id))
