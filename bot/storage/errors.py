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
