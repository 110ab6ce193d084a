"""``/privacy erase``: what the bot stores about one person, replaced by a pseudonym or deleted.

* results (and the standings and ratings the database keeps from them): kept, for everyone else's standings and
  ratings, under a pseudonym: a negative ``user_id`` no Discord account has, and the name
  ``Erased player`` with a short code, the same on every row of that person, so others' boards still
  add up; the erased person's stakes carry no name and stay as they are;
* games (seats, settings such as the host, meta such as whose DMs were closed): the person's id and
  name are replaced by the same pseudonym, in finished and closed games;
* routed clicks (a click waiting a few seconds for the process that drives its game): deleted;
* the action logs name seats, never people, and stay.

Refused (nothing changes) while the person is seated at, hosts, or left to an AI a game in a lobby or
running: that game is still played with their id in memory, and would store it again.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from bot.storage import ratings, seasons
from bot.storage.backend import Tx

PSEUDONYM_NAME = "Erased player {code}"
OPEN = "status IN ('lobby', 'running')"  # literal, so the database can use the partial indexes
AI_SUFFIX = " (AI)"  # bot.tables.seats.AI_SUFFIX (storage imports no table code)


@dataclass(frozen=True)
class Erasure:
    """What one erasure changed; ``seated`` when it was refused (the person is at an open table)."""

    pseudonym: int = 0
    name: str = ""
    results: int = 0
    games: int = 0
    clicks: int = 0
    seated: bool = False


def pseudonym() -> tuple[int, str]:
    """A fresh pseudonym: a negative id (Discord's are positive) and its name."""
    number = secrets.randbelow(2**52) + 1
    return -number, PSEUDONYM_NAME.format(code=f"{number % 0xFFFFFF:06x}")


def _mentions(text: Any, user_id: int) -> bool:
    return isinstance(text, str) and str(user_id) in text


def _renamed(value: Any, user_id: int, new_id: int, new_name: str) -> Any:
    """``value`` with every occurrence of ``user_id`` replaced by ``new_id``, and the name next to it."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return new_id if value == user_id else value
    if isinstance(value, list):
        return [_renamed(item, user_id, new_id, new_name) for item in value]
    if isinstance(value, dict):
        out = {key: _renamed(item, user_id, new_id, new_name) for key, item in value.items()}
        if user_id in (value.get("user_id"), value.get("left_user_id")) and isinstance(
            value.get("name"), str
        ):
            # A seat an AI took over keeps its " (AI)" (bot.tables.seats.AI_SUFFIX) after the pseudonym.
            out["name"] = new_name + (AI_SUFFIX if value["name"].endswith(AI_SUFFIX) else "")
        return out
    return value


def _json(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _at_open_table(games: list[tuple[Any, ...]], user_id: int, open_status: tuple[str, ...]) -> bool:
    """Whether ``user_id`` holds a seat at, or hosts, one of ``games`` (id, seats, settings, ...,
    status last) that is open."""
    for game in games:
        if game[-1] not in open_status:
            continue
        seated = _json(game[1])
        # A seat they left counts too: the AI finishes it for them, and its result is theirs.
        if isinstance(seated, list) and any(
            isinstance(s, dict) and user_id in (s.get("user_id"), s.get("left_user_id")) for s in seated
        ):
            return True
        host = _json(game[2])
        if isinstance(host, dict) and host.get("host_id") == user_id:
            return True
    return False


async def at_open_table(tx: Tx, user_id: int, open_status: tuple[str, ...]) -> bool:
    """Whether ``user_id`` is seated at, or hosts, a game in a lobby or running."""
    games = await tx.fetch_all(
        f"SELECT id, seats, settings, status FROM games WHERE {OPEN} AND (seats LIKE ? OR settings LIKE ?)",
        (f"%{user_id}%", f"%{user_id}%"),
    )
    return _at_open_table(games, user_id, open_status)


async def erase(tx: Tx, user_id: int, open_status: tuple[str, ...]) -> Erasure:
    """Replace or delete, in one transaction, what ``tx``'s database holds about ``user_id``."""
    games = await tx.fetch_all(
        f"SELECT id, seats, settings, meta, status FROM games WHERE seats LIKE ? OR settings LIKE ? "
        f"OR meta LIKE ?{tx.for_update}",
        (f"%{user_id}%",) * 3,
    )
    if _at_open_table(games, user_id, open_status):
        return Erasure(seated=True)
    new_id, new_name = pseudonym()
    rows = await tx.fetch_all("SELECT COUNT(*) FROM results WHERE user_id = ?", (user_id,))
    results = int(rows[0][0]) if rows else 0
    await tx.execute(
        "UPDATE results SET user_id = ?, name = ? WHERE user_id = ?", (new_id, new_name, user_id)
    )
    await tx.execute("UPDATE player_totals SET user_id = ? WHERE user_id = ?", (new_id, user_id))
    await tx.execute("UPDATE player_months SET user_id = ? WHERE user_id = ?", (new_id, user_id))
    await tx.execute(
        "UPDATE player_names SET user_id = ?, name = ? WHERE user_id = ?", (new_id, new_name, user_id)
    )
    await ratings.rename(tx, user_id, new_id)
    # Spectator bets (issue 30): their wallets and bets become the pseudonym's, as their results do.
    await tx.execute(
        "UPDATE spectator_wallets SET user_id = ?, name = ? WHERE user_id = ?", (new_id, new_name, user_id)
    )
    await tx.execute("UPDATE spectator_bets SET user_id = ? WHERE user_id = ?", (new_id, user_id))
    await seasons.rename(tx, user_id, new_id)
    changed = 0
    for game_id, seats, settings, meta, _status in games:
        columns: dict[str, str] = {}
        for column, text in (("seats", seats), ("settings", settings), ("meta", meta)):
            value = _json(text)
            if not _mentions(text, user_id) or value is None:
                continue
            renamed = _renamed(value, user_id, new_id, new_name)
            if renamed != value:
                columns[column] = json.dumps(renamed, separators=(",", ":"))
        if columns:
            changed += 1
            assignments = ", ".join(f"{column} = ?" for column in columns)
            await tx.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*columns.values(), game_id))
    rows = await tx.fetch_all("SELECT COUNT(*) FROM routed_clicks WHERE user_id = ?", (user_id,))
    clicks = int(rows[0][0]) if rows else 0
    await tx.execute("DELETE FROM routed_clicks WHERE user_id = ?", (user_id,))
    return Erasure(new_id, new_name, results, changed, clicks)
