"""Persistence: games and their action logs, settled results, leaderboards, server settings.

SQLite (aiosqlite) by default, or PostgreSQL (asyncpg) when ``DATABASE_URL`` names one.

Every SQL statement of the bot lives in this package; everything else calls ``Storage``.
"""

from bot.storage.erasure import Erasure
from bot.storage.errors import StaleAction, StorageError
from bot.storage.leases import LeaseLost, RoutedClick
from bot.storage.ratings import ACROSS_GAMES, RatingRow
from bot.storage.records import (
    GameStats,
    HistoryRow,
    LeaderRow,
    PlayerResult,
    StakeRecord,
    StoredGame,
)
from bot.storage.standings import period_start
from bot.storage.store import Storage

__all__ = [
    "ACROSS_GAMES",
    "Erasure",
    "GameStats",
    "HistoryRow",
    "LeaderRow",
    "LeaseLost",
    "PlayerResult",
    "RatingRow",
    "RoutedClick",
    "StakeRecord",
    "StaleAction",
    "Storage",
    "StorageError",
    "StoredGame",
    "period_start",
]
