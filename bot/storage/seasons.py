"""Seasons as stored: each season's end claimed once and marked posted, soft resets of ratings, recap data.

Exactly once (issue 30): a recap is claimed by inserting its row (key: server and season) *before* it
is posted, and marked ``posted_at`` after, like a game's ending (``games.announced``). A second process
(or the same one after a restart) finds the row and leaves it; a claim that was never marked posted
(the process died between the two) is taken over once it is older than the claim's time, and posted
then. The recap's post carries a nonce made from the server and the season, which Discord enforces, so
a slow first poster whose claim was taken over in the meantime is refused by Discord rather than
posting a second recap (within the minutes Discord keeps nonces).

Soft resets (bot/ratings.py ``soft_reset``): one per server and season start, recorded with the number of
the last game rated before it, so a recomputation from the results (``bot.storage.ratings.recompute``)
applies it at the same place. Made by whichever comes first after a season starts: the season check of
the process that owns the server, or the rating of a game (in the transaction that settles it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import ratings, seasons
from bot.storage.backend import POSTGRES, Tx
from bot.storage.standings import names_of

SETTING = "season"  # the server setting (bot/server_settings.py declares it; storage reads it raw)


@dataclass(frozen=True)
class Placed:
    user_id: int
    name: str
    net: int
    games: int
    wins: int


@dataclass(frozen=True)
class GameSeason:
    """One game's season in a server: its top three by winnings, its biggest single win, and the person
    who lost the most over the season (money compared only within one game: each counts its own)."""

    kind: str
    games: int
    top: list[Placed]
    best_win: Placed | None  # ``net`` of that one game, ``games`` its game id
    unluckiest: Placed | None  # their season's net (negative), or None if nobody lost over the season


@dataclass(frozen=True)
class SeasonRecap:
    """What a recap says, read from the stored results of ``since <= finished_at < until``."""

    guild_id: int
    season: str
    since: float
    until: float
    per_game: list[GameSeason] = field(default_factory=list)
    champion: Placed | None = None  # most wins across games (ties: fewer games, then lower user id)
    finished_games: list[tuple[int, str]] = field(default_factory=list)  # (game id, kind), newest first
    last_channel: int | None = None  # the channel of the season's last game


async def guild_lock(tx: Tx, guild_id: int) -> None:
    """PostgreSQL: one guild's ratings are changed by one transaction at a time (a soft reset touches
    every rating of the guild, so a game rated at the same moment must come wholly before or after it).
    SQLite writes one transaction at a time anyway."""
    if tx.dialect == POSTGRES:
        await tx.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"ratings:{guild_id}",))


async def season_kind(tx: Tx, guild_id: int) -> str:
    row = await tx.fetch_one(
        "SELECT value FROM server_settings WHERE guild_id = ? AND key = ?", (guild_id, SETTING)
    )
    try:
        value = json.loads(row[0]) if row else seasons.DEFAULT
    except (TypeError, ValueError):
        value = seasons.DEFAULT
    return value if value in seasons.KINDS else seasons.DEFAULT


async def reset_if_due(tx: Tx, guild_id: int, now: float) -> bool:
    """Shrink every rating of the guild towards a newcomer's if a season started since the last soft
    reset; record it. Whether it did."""
    await guild_lock(tx, guild_id)
    current = seasons.season_at(await season_kind(tx, guild_id), now)
    if current is None:
        return False
    last = await tx.fetch_one(
        "SELECT season_start, after_n FROM rating_resets WHERE guild_id = ? ORDER BY season_start DESC LIMIT 1",
        (guild_id,),
    )
    if not seasons.reset_due(current, float(last[0]) if last else None):
        return False
    # Ruling: only when a game was rated since the last reset and played before this season (a first
    # season has nothing to shrink; a server that stopped playing is not shrunk again season after
    # season).
    since = int(last[1]) if last else 0
    played_before = await tx.fetch_one(
        "SELECT 1 FROM rated_games AS r JOIN games AS g ON g.id = r.game_id "
        "WHERE r.guild_id = ? AND r.n > ? AND g.ended_at < ? LIMIT 1",
        (guild_id, since, current.start),
    )
    if not played_before:
        return False
    rated = await tx.fetch_one("SELECT MAX(n) FROM rated_games WHERE guild_id = ?", (guild_id,))
    if not rated or rated[0] is None:
        return False
    made = await tx.fetch_one(
        "INSERT INTO rating_resets (guild_id, season_start, after_n, made_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, season_start) DO NOTHING RETURNING 1",
        (guild_id, current.start, int(rated[0]), now),
    )
    if not made:
        return False
    rows = await tx.fetch_all(
        "SELECT kind, user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND games > 0 "
        f"ORDER BY kind, user_id{tx.for_update}",
        (guild_id,),
    )
    shrunk = [
        (k, uid, ratings.soft_reset(ratings.Skill(float(mu), float(sigma), int(g))))
        for k, uid, mu, sigma, g in rows
    ]
    await tx.executemany(
        "UPDATE ratings SET mu = ?, sigma = ?, shown = ? WHERE guild_id = ? AND kind = ? AND user_id = ?",
        [(s.mu, s.sigma, s.shown, guild_id, k, uid) for k, uid, s in shrunk],
    )
    return True


async def resets(tx: Tx, guild_id: int) -> list[int]:
    """After which rated game (``rated_games.n``) each soft reset of the guild came, in order."""
    rows = await tx.fetch_all(
        "SELECT after_n FROM rating_resets WHERE guild_id = ? ORDER BY after_n, season_start", (guild_id,)
    )
    return [int(r[0]) for r in rows]


async def last_recap_end(tx: Tx, guild_id: int) -> float | None:
    row = await tx.fetch_one("SELECT MAX(until) FROM season_recaps WHERE guild_id = ?", (guild_id,))
    return None if not row or row[0] is None else float(row[0])


async def claim(
    tx: Tx, guild_id: int, season: str, since: float, until: float, owner: str, now: float, stale: float
) -> bool:
    """Claim the recap of ``season``: a new row, or the takeover of a claim never posted and older than
    ``stale`` seconds. Whether this caller may post it now."""
    made = await tx.fetch_one(
        "INSERT INTO season_recaps (guild_id, season, since, until, claimed_by, claimed_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, season) DO NOTHING RETURNING 1",
        (guild_id, season, since, until, owner, now),
    )
    if made:
        return True
    taken = await tx.fetch_one(
        "UPDATE season_recaps SET claimed_by = ?, claimed_at = ? WHERE guild_id = ? AND season = ? "
        "AND posted_at IS NULL AND claimed_at < ? RETURNING 1",
        (owner, now, guild_id, season, now - stale),
    )
    return bool(taken)


async def due(tx: Tx, guild_id: int, now: float, stale: float) -> list[tuple[str, float, float]]:
    """The recaps this guild is due now, (season, since, until): a claim never posted and gone stale
    (its poster died), or the season that ended last if no recap covered it and it had games."""
    out = [(s, a, b) for s, a, b, at in await unposted(tx, guild_id) if at < now - stale]
    ended = seasons.season_before(await season_kind(tx, guild_id), now)
    if ended is None or any(s == ended.key for s, _a, _b in out):
        return out
    if await tx.fetch_one(
        "SELECT 1 FROM season_recaps WHERE guild_id = ? AND season = ?", (guild_id, ended.key)
    ):
        return out
    window = seasons.recap_window(ended, await last_recap_end(tx, guild_id))
    if window is not None and await had_games(tx, guild_id, *window):
        out.append((ended.key, *window))
    return out


async def unposted(tx: Tx, guild_id: int) -> list[tuple[str, float, float, float]]:
    """The guild's claimed recaps not posted yet: (season, since, until, claimed_at)."""
    rows = await tx.fetch_all(
        "SELECT season, since, until, claimed_at FROM season_recaps WHERE guild_id = ? AND posted_at IS NULL",
        (guild_id,),
    )
    return [(str(s), float(a), float(b), float(c)) for s, a, b, c in rows]


async def mark_posted(
    tx: Tx, guild_id: int, season: str, now: float, message_id: int | None, champion: int | None, note: str
) -> None:
    await tx.execute(
        "UPDATE season_recaps SET posted_at = ?, message_id = ?, champion_id = ?, note = ? "
        "WHERE guild_id = ? AND season = ?",
        (now, message_id, champion, note, guild_id, season),
    )


async def last_champion(tx: Tx, guild_id: int) -> int | None:
    """Who was given the champion role by the guild's last posted recap (to take it back)."""
    row = await tx.fetch_one(
        "SELECT champion_id FROM season_recaps WHERE guild_id = ? AND posted_at IS NOT NULL "
        "AND champion_id IS NOT NULL ORDER BY until DESC LIMIT 1",
        (guild_id,),
    )
    return None if not row else int(row[0])


async def had_games(tx: Tx, guild_id: int, since: float, until: float) -> bool:
    row = await tx.fetch_one(
        "SELECT 1 FROM results WHERE guild_id = ? AND finished_at >= ? AND finished_at < ? "
        "AND user_id IS NOT NULL LIMIT 1",
        (guild_id, since, until),
    )
    return bool(row)


def _one(row: tuple[Any, ...] | None, names: dict[int, str]) -> Placed | None:
    return _placed([row], names)[0] if row else None


def _placed(rows: Sequence[tuple[Any, ...]], names: dict[int, str]) -> list[Placed]:
    return [
        Placed(int(uid), names.get(int(uid), str(uid)), int(net), int(games), int(wins))
        for uid, net, games, wins in rows
    ]


async def recap(tx: Tx, guild_id: int, season: str, since: float, until: float) -> SeasonRecap:
    """The recap of one season's window, from the stored results (AI seats are never named)."""
    window = "guild_id = ? AND finished_at >= ? AND finished_at < ? AND user_id IS NOT NULL"
    params = (guild_id, since, until)
    kinds = await tx.fetch_all(
        f"SELECT kind, COUNT(DISTINCT game_id) FROM results WHERE {window} GROUP BY kind ORDER BY kind",
        params,
    )
    tops: dict[str, list[tuple[Any, ...]]] = {}
    wins: dict[str, tuple[Any, ...] | None] = {}
    losers: dict[str, tuple[Any, ...] | None] = {}
    for kind, _games in kinds:
        totals = (
            "SELECT user_id, SUM(net) AS net, COUNT(*) AS games, SUM(won) AS wins FROM results "
            f"WHERE {window} AND kind = ? GROUP BY user_id"
        )
        tops[kind] = await tx.fetch_all(
            f"SELECT * FROM ({totals}) AS t ORDER BY net DESC, wins DESC, games ASC, user_id ASC LIMIT 3",
            (*params, kind),
        )
        losers[kind] = await tx.fetch_one(
            f"SELECT * FROM ({totals}) AS t WHERE net < 0 ORDER BY net ASC, games DESC, user_id ASC LIMIT 1",
            (*params, kind),
        )
        wins[kind] = await tx.fetch_one(
            f"SELECT user_id, net, game_id, won FROM results WHERE {window} AND kind = ? AND net > 0 "
            "ORDER BY net DESC, finished_at ASC, user_id ASC LIMIT 1",
            (*params, kind),
        )
    champion = await tx.fetch_one(
        "SELECT user_id, 0, COUNT(*) AS games, SUM(won) AS wins FROM results "
        f"WHERE {window} GROUP BY user_id HAVING SUM(won) > 0 ORDER BY wins DESC, games ASC, user_id ASC LIMIT 1",
        params,
    )
    games = await tx.fetch_all(
        "SELECT id, kind, channel_id FROM games WHERE guild_id = ? AND status = 'finished' "
        "AND ended_at >= ? AND ended_at < ? ORDER BY ended_at DESC, id DESC",
        params,
    )
    people = {int(r[0]) for rows in tops.values() for r in rows}
    people |= {int(r[0]) for r in [*wins.values(), *losers.values(), champion] if r}
    names = await names_of(tx, guild_id, sorted(people))
    per_game = [
        GameSeason(
            kind,
            int(count),
            _placed(tops[kind], names),
            _one(wins[kind], names),
            _one(losers[kind], names),
        )
        for kind, count in kinds
    ]
    return SeasonRecap(
        guild_id,
        season,
        since,
        until,
        per_game,
        _one(champion, names),
        [(int(i), str(k)) for i, k, _c in games],
        int(games[0][2]) if games else None,
    )


async def rename(tx: Tx, user_id: int, new_id: int) -> None:
    """An erasure: a champion of a past season is remembered under the person's pseudonym."""
    await tx.execute("UPDATE season_recaps SET champion_id = ? WHERE champion_id = ?", (new_id, user_id))
