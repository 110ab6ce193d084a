"""What can go wrong with the database, said so that a person running the bot knows what to do.

Every failure of the storage layer leaves as ``StorageError`` with a human message and the
original driver, network or OS error as ``__cause__``; callers catch one type and never
half-understand a driver error. Each backend turns its own driver's errors into these
(``bot.storage.sqlite.explain``, ``bot.storage.postgres.explain``).
"""

from __future__ import annotations


class StorageError(Exception):
    """The database could not do what was asked; nothing was half-written."""


class StaleAction(StorageError):
    """The action's sequence number is already taken: it was applied before (double click / replay)."""


class AlreadyOpen(StorageError):
    """Refused by the database, nothing written: the place already has an open game (``user_id`` is
    None), or the person ``user_id`` already sits at an open table of this server. ``game_id``,
    ``kind`` and ``place_id`` name that other game (its place: its thread, else its channel)."""

    def __init__(self, message: str, *, game_id: int, kind: str, place_id: int, user_id: int | None) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.kind = kind
        self.place_id = place_id
        self.user_id = user_id
