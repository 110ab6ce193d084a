"""The plain records the storage hands in and out; no SQL here, so callers can build them freely."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPEN_STATUSES = ("lobby", "running")
ENDED_STATUSES = ("finished", "cancelled", "abandoned")
STATUSES = OPEN_STATUSES + ENDED_STATUSES

SIDE_BET_PREFIX = "side:"
"""A bet whose ``subject`` starts with this is a side bet (``"side:<side bet id>"``); others back a racer."""


@dataclass
class StoredGame:
    """A game as stored: enough to rebuild it by replaying ``Game.new(...)`` and then ``actions`` in order."""

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


@dataclass
class BetRecord:
    """One bet a seat held when its game ended (a ticket on a racer, or a side-bet slip)."""

    race: int
    subject: str  # "gobbler", "7" (a horse), or "side:<side bet id>"
    side: str  # "safe" / "risky" / "yes:safe" ...
    payout: int
    won: bool


@dataclass
class StakeRecord:
    """One stake a seat held when its game ended, in any game's words (see ``bot.games.base.Stake``)."""

    label: str  # what it was on, as players read it: "Gobbler, risky", "horse 7"
    outcome: str  # "won" or "lost"
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
    bets: list[BetRecord] = field(default_factory=list)  # old shape; replaced by ``stakes``
    stakes: list[StakeRecord] = field(default_factory=list)


@dataclass
class LeaderRow:
    rank: int
    user_id: int
    name: str
    net: int
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
    favourite_subject: str | None  # the racer they bet on most
    side_bets_won: int
    side_bets_lost: int
    streak: int  # current run: > 0 wins in a row, < 0 losses in a row


@dataclass
class HistoryRow:
    game_id: int
    kind: str
    finished_at: float
    winners: list[str]
    players: int
