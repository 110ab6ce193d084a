"""DATABASE_URL forms: the file or server each names, and the ones refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.storage import Storage
from bot.storage.location import PostgresUrl, database_location, database_path


@pytest.mark.parametrize("url", [None, "", "  "])
def test_no_url_means_data_bot_db(url: str | None) -> None:
    assert database_path(url) == Path("data/bot.db")


def test_three_slashes_is_relative_four_is_absolute() -> None:
    assert database_path("sqlite:///relative/path.db") == Path("relative/path.db")
    assert database_path("sqlite:////abs/path.db") == Path("/abs/path.db")
    assert database_path("SQLITE:///x.db") == Path("x.db")


def test_plain_path_is_taken_literally() -> None:
    assert database_path("/var/lib/bot/bot.db") == Path("/var/lib/bot/bot.db")
    assert database_path("games.db") == Path("games.db")


def test_another_scheme_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="scheme 'postgresql' is not supported"):
        database_path("postgresql://user@host/db")


@pytest.mark.parametrize("url", ["sqlite:///:memory:", "sqlite://", "sqlite:///", "sqlite:///x.db?mode=ro"])
def test_urls_naming_no_plain_file_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match="DATABASE_URL"):
        database_path(url)


async def test_default_location_creates_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    storage = await Storage.open(None)
    await storage.close()
    assert (tmp_path / "data" / "bot.db").is_file()


async def test_sqlite_url_creates_missing_folders(tmp_path: Path) -> None:
    storage = await Storage.open(f"sqlite:///{tmp_path}/deep/er/bot.db")  # four slashes: absolute
    await storage.close()
    assert (tmp_path / "deep" / "er" / "bot.db").is_file()


def test_a_postgresql_url_names_a_server_and_its_password_is_never_shown() -> None:
    location = database_location("postgresql://bot:s3cret@db.example:5433/racing?sslmode=require")
    assert isinstance(location, PostgresUrl)
    assert location.dsn == "postgresql://bot:s3cret@db.example:5433/racing?sslmode=require"
    assert location.shown == "postgresql://bot@db.example:5433/racing"
    assert database_location("postgres://db/racing") == PostgresUrl(
        "postgres://db/racing", "postgres://db/racing"
    )
    assert database_location("sqlite:///x.db") == Path("x.db")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://bot@db:5432", "names no PostgreSQL database"),
        ("postgresql://bot@db:port/racing", "not a valid PostgreSQL URL"),
        ("mysql://db/bot", "scheme 'mysql' is not supported"),
    ],
)
def test_bad_database_urls_are_refused_clearly(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        database_location(url)


@pytest.mark.parametrize(
    ("password", "hidden"),
    [
        ("s3cr3tPart/2ndHalf", "s3cr3tPart"),  # was "...cast to integer value as 's3cr3tPart'"
        ("123/xyzSECRET", "xyzSECRET"),  # was the whole URL, password included
        ("abc?SECRETxyz", "SECRETxyz"),
        ("abc#SECRETxyz", "SECRETxyz"),
    ],
)
def test_a_password_holding_slashes_or_question_marks_is_never_in_the_message(
    password: str, hidden: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26, point 11: such a password is refused with a hint to percent-encode it, and neither
    it nor a parser's error quoting it is in the message (the one ``python -m bot`` prints)."""
    url = f"postgresql://bot:{password}@db:5432/racing"
    with pytest.raises(ValueError) as refused:
        database_location(url)
    assert hidden not in str(refused.value) and "%2F" in str(refused.value)
    assert "postgresql://bot:***@db:5432/racing" in str(refused.value)
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 30)
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ConfigError) as config:
        Settings.from_env(env_file=None)
    assert hidden not in str(config.value)
    encoded = url.replace(password, password.replace("/", "%2F").replace("?", "%3F").replace("#", "%23"))
    location = database_location(encoded)  # percent-encoded, as the message says: accepted
    assert isinstance(location, PostgresUrl) and location.shown == "postgresql://bot@db:5432/racing"


def test_a_port_that_is_not_a_number_is_refused_without_echoing_the_parser() -> None:
    with pytest.raises(ValueError) as refused:
        database_location("postgresql://bot:hunter22@db:port/racing")
    assert "hunter22" not in str(refused.value) and "postgresql://bot:***@db:port/racing" in str(
        refused.value
    )
