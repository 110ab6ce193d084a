"""Where the database lives, from ``DATABASE_URL``: a SQLite file, or a PostgreSQL server."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_PATH = Path("data") / "bot.db"
POSTGRES_SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True)
class PostgresUrl:
    """A PostgreSQL server and database: ``dsn`` is handed to the driver, ``shown`` goes into messages."""

    dsn: str
    shown: str  # the URL without its password, safe for logs and error messages


def database_location(url: str | None) -> Path | PostgresUrl:
    """The SQLite file or the PostgreSQL database a ``DATABASE_URL`` names.

    * ``None`` or ``""``: ``./data/bot.db`` (relative to the working directory).
    * ``sqlite:///relative/path.db``: a path relative to the working directory (three slashes, as in
      SQLAlchemy); ``sqlite:////abs/path.db``: an absolute path (four slashes).
    * ``postgresql://user:password@host:5432/dbname`` (or ``postgres://``): a PostgreSQL server; the
      query string may carry libpq-style options the driver knows (``sslmode=require``).
    * anything without ``://``: a plain file path, taken literally (``~`` expanded).

    Another scheme, a SQLite query string or an in-memory database raises ``ValueError``: the bot
    must never run on a store that silently loses games at restart.
    """
    if url is not None and url.strip().split("://", 1)[0].lower() in POSTGRES_SCHEMES and "://" in url:
        return _postgres(url.strip())
    return database_path(url)


def database_path(url: str | None) -> Path:
    """The SQLite file a ``DATABASE_URL`` names (see ``database_location``); ValueError for anything else."""
    if url is None or url.strip() == "":
        return DEFAULT_PATH
    url = url.strip()
    if "://" not in url:
        return Path(url).expanduser()
    scheme, _, rest = url.partition("://")
    if scheme.lower() != "sqlite":
        raise ValueError(
            f"DATABASE_URL scheme {scheme!r} is not supported; use sqlite:///relative/path.db, "
            "sqlite:////absolute/path.db, a plain file path, or postgresql://user:password@host/dbname"
        )
    if not rest.startswith("/") or rest == "/":
        raise ValueError(
            f"DATABASE_URL {url!r} names no file; use sqlite:///relative/path.db or sqlite:////abs/path.db"
        )
    if "?" in rest:
        raise ValueError(
            f"DATABASE_URL {url!r} has a query string; options are not supported, give the path only"
        )
    path = rest[1:]  # "sqlite:///x.db" -> "x.db"; "sqlite:////abs/x.db" -> "/abs/x.db"
    if path in (":memory:", "") or path.startswith("file:"):
        raise ValueError(f"DATABASE_URL {url!r} is not a file; an in-memory database would lose every game")
    return Path(path)


def _postgres(url: str) -> PostgresUrl:
    """Issue 26, point 11: no message made here holds the password. The user info (everything between
    ``://`` and the last ``@``, as a password may hold any character) is cut out before anything is
    parsed, a password holding ``/``, ``?`` or ``#`` (which end a URL's host part, so every parser,
    asyncpg's too, would read the rest of it as a host, a port or a database) is refused with a hint to
    percent-encode it, and a parser's own error, which may quote any part of the URL, is never echoed."""
    shown = redacted(url)
    scheme, _, rest = url.partition("://")
    userinfo, at, _hostpart = rest.rpartition("@")
    user, colon, password = userinfo.partition(":")
    # Ruling: only a password is looked at (a URL without one may hold '@' in its query's options).
    if at and colon and not any(c in user for c in "/?#") and any(c in password for c in "/?#"):
        raise ValueError(
            "DATABASE_URL's user name or password holds '/', '?' or '#', which end a URL's server part; "
            f"write them percent-encoded (%2F, %3F, %23): {shown}"
        )
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise ValueError(
            f"DATABASE_URL is not a valid PostgreSQL URL (is its port a number?): {shown}"
        ) from None
    database = parts.path.lstrip("/")
    if not database:
        raise ValueError(
            "DATABASE_URL names no PostgreSQL database; use postgresql://user:password@host:5432/dbname"
        )
    netloc = parts.netloc.rpartition("@")[2]
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    return PostgresUrl(dsn=url, shown=urlunsplit((parts.scheme, netloc, parts.path, "", "")))


def redacted(url: str) -> str:
    """``url`` with the password of its user info (up to the last ``@``) replaced by ``***``, and without
    its query string and fragment (options such as ``password=`` may sit there)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "***"
    userinfo, at, hostpart = rest.rpartition("@")
    hostpart = re.split(r"[?#]", hostpart, maxsplit=1)[0]
    if not at:
        return f"{scheme}://{hostpart}"
    user, colon, _password = userinfo.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}@{hostpart}"
