"""Where the database lives, from ``DATABASE_URL``: a SQLite file, or a PostgreSQL server."""

from __future__ import annotations

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
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as error:
        raise ValueError(f"DATABASE_URL is not a valid PostgreSQL URL ({error})") from None
    database = parts.path.lstrip("/")
    if not database:
        raise ValueError(
            "DATABASE_URL names no PostgreSQL database; use postgresql://user:password@host:5432/dbname"
        )
    netloc = parts.netloc.rpartition("@")[2]
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    shown = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    return PostgresUrl(dsn=url, shown=shown)
