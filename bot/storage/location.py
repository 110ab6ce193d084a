"""Where the database file lives, from ``DATABASE_URL`` (the forms people already write for SQLite)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_PATH = Path("data") / "bot.db"


def database_path(url: str | None) -> Path:
    """The file a ``DATABASE_URL`` names.

    * ``None`` or ``""``: ``./data/bot.db`` (relative to the working directory).
    * ``sqlite:///relative/path.db``: a path relative to the working directory (three slashes, as in
      SQLAlchemy); ``sqlite:////abs/path.db``: an absolute path (four slashes).
    * anything without ``://``: a plain file path, taken literally (``~`` expanded).

    Another scheme, a query string or an in-memory database raises ``ValueError``: the bot must never
    run on a store that silently loses games at restart.
    """
    if url is None or url.strip() == "":
        return DEFAULT_PATH
    url = url.strip()
    if "://" not in url:
        return Path(url).expanduser()
    scheme, _, rest = url.partition("://")
    if scheme.lower() != "sqlite":
        raise ValueError(
            f"DATABASE_URL scheme {scheme!r} is not supported; use sqlite:///relative/path.db, "
            "sqlite:////absolute/path.db or a plain file path"
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
