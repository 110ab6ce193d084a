"""The plain records the storage hands in and out; no SQL here, so callers can build them freely."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPEN_STATUSES = ("lobby", "running")
ENDED_STATUSES = ("finished", "cancelled", "abandoned")
STATUSES = OPEN_STATUSES + ENDED_STATUSES


@dataclass
class StoredGame:
    """A game as stored: enough to rebuild it by replaying ``Game.new(...)`` and then ``actions`` in order.

    ``damage`` is None for a sound game. For a game whose stored row cannot be read whole (text that
    is not JSON, a seed that is not a number, a gap in the action log), ``unfinished_games`` still
    returns it, with ``damage`` saying what is wrong: id, kind, guild and channel are always read
    (so the bot can tell that channel), the unreadable fields hold empty values, and ``actions``
    holds the readable actions before the first bad one.
    """

    id: int
    kind: str
    guild_id: int
    channel_id: int
    seed: int
    settings: dict[str, Any]
    seats: list[dict[str, Any]]  # {"user_id": int | None, "name": str, "ai": str | None}
    actions: list[dict[str, Any]]  # Action.to_json() dicts, in order
    status: str  # "lobby" | "running" | "finished" | "cancelled" | "abandoned"
    meta: dict[str, Any]  # free JSON for the Discord layer
    created_at: float
    updated_at: float
    damage: str | None = None
    token: str | None = None  # what its buttons carry besides its id; None for a game from before tokens


@dataclass
class StakeRecord:
    """One stake a seat held when its game ended, in any game's words (see ``bot.games.base.Stake``)."""

    label: str  # what it was on, in the game's own words as players read them (stored in English)
    outcome: str  # "won" or "lost" (anything else is stored, and counted as neither in stats)
    amount: int  # what it paid (0 when lost)


@dataclass
class PlayerResult:
    """One seat's outcome, written once when its game ends."""

    seat: int
    user_id: int | None  # None for an AI seat, which is never ranked
    name: str
    cash: int
    net: int  # cash - starting cash
    place: int
    won: bool
    stakes: list[StakeRecord] = field(default_factory=list)


@dataclass
class LeaderRow:
    rank: int
    user_id: int
    name: str
    net: int | None  # None on a board across games: their currencies are never added up
    games: int
    wins: int
    win_rate: float  # wins / games, 0..1


@dataclass
class GameStats:
    """One player's record at one game kind in one guild."""

    kind: str
    games: int
    wins: int
    total_net: int
    best_net: int
    favourite_stake: str | None  # the stake label they chose most often (ties: alphabetical)
    stakes_won: int
    stakes_lost: int
    streak: int  # current run: > 0 wins in a row, < 0 losses in a row


@dataclass
class HistoryRow:
    game_id: int
    kind: str
    finished_at: float
    winners: list[str]
    players: int
