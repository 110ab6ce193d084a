"""What can go wrong with the database, said so that a person running the bot knows what to do.

Every failure of the storage layer leaves as ``StorageError`` with a human message and the
original ``sqlite3`` (or OS) error as ``__cause__``; callers catch one type and never
half-understand a driver error.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


class StorageError(Exception):
    """The database could not do what was asked; nothing was half-written."""


class StaleAction(StorageError):
    """The action's sequence number is already taken: it was applied before (double click / replay)."""


def explain(error: BaseException, doing: str, path: Path) -> StorageError:
    """Turn a driver/OS error met while ``doing`` something into a ``StorageError`` with a clear message."""
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    lowered = text.lower()
    where = f"the database at {path}"
    if name == "SQLITE_NOTADB" or "file is not a database" in lowered:
        message = f"{where} is not a SQLite database (the file is corrupt or is another kind of file)"
    elif name.startswith("SQLITE_CORRUPT") or "malformed" in lowered:
        message = f"{where} is corrupt ({text}); restore it from a backup"
    elif name.startswith("SQLITE_FULL") or "disk is full" in lowered:
        message = f"{where} is full (the disk or the database's size limit); free some space"
    elif name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED") or "locked" in lowered:
        message = f"{where} is locked by another program or connection and stayed locked past the wait"
    elif name.startswith("SQLITE_READONLY") or "readonly" in lowered or "read-only" in lowered:
        message = f"{where} is read-only; the bot needs to write to it (check file and folder permissions)"
    elif name.startswith("SQLITE_CANTOPEN") or "unable to open" in lowered:
        message = f"{where} cannot be opened (missing folder, a directory in its place, or no permission)"
    elif name.startswith("SQLITE_IOERR") or isinstance(error, OSError):
        message = f"{where} could not be read or written (I/O error: {text})"
    elif isinstance(error, ValueError) and "no active connection" in lowered:
        message = f"{where} is closed; the storage was used after close()"
    else:
        message = f"{where} failed ({text})"
    return StorageError(f"Could not {doing}: {message}.")


def is_driver_error(error: BaseException) -> bool:
    """Errors that come from the database or the file system rather than from our own logic."""
    return isinstance(error, sqlite3.Error | OSError)
