"""Persistence: games and their action logs, settled results, leaderboards (SQLite via aiosqlite).

Every SQL statement of the bot lives in this package; everything else calls ``Storage``.
"""

from bot.storage.errors import StaleAction, StorageError
from bot.storage.records import (
    BetRecord,
    GameStats,
    HistoryRow,
    LeaderRow,
    PlayerResult,
    StakeRecord,
    StoredGame,
)
from bot.storage.standings import period_start
from bot.storage.store import Storage
from bot.storage.unluckiest import choose_unluckiest

__all__ = [
    "BetRecord",
    "GameStats",
    "HistoryRow",
    "LeaderRow",
    "PlayerResult",
    "StakeRecord",
    "StaleAction",
    "Storage",
    "StorageError",
    "StoredGame",
    "choose_unluckiest",
    "period_start",
]
