"""Settings come from the environment, or a .env file that the environment overrides; bad values are refused
with a message that names the setting."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import TOKEN_HELP, ConfigError, Settings

KEYS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DEFAULT_WHERE",
    "DISCORD_GLOBAL_LIMIT",
    "WORK_PROCESSES",
    "DOCS_URL",
)


@pytest.fixture(autouse=True)
def clean_env() -> Iterator[None]:
    """No setting leaks in from the machine, and none leaks out (load_dotenv writes to os.environ)."""
    saved = dict(os.environ)
    for key in KEYS:
        os.environ.pop(key, None)
    yield
    os.environ.clear()
    os.environ.update(saved)


def no_env_file(tmp_path: Path) -> Path:
    return tmp_path / ".env"  # does not exist


def test_every_setting_is_read_from_the_environment(tmp_path: Path) -> None:
    os.environ.update(
        {
            "DISCORD_TOKEN": "  abc.def.ghi \n",
            "DATABASE_URL": "sqlite:///games/bot.db",
            "DISCORD_API_BASE": "http://proxy.local/api/v10",
            "DISCORD_GATEWAY_URL": "ws://proxy.local/gateway",
            "DEV_GUILD_ID": " 123456789012345678 ",
            "LOG_LEVEL": "debug",
        }
    )
    assert Settings.from_env(no_env_file(tmp_path)) == Settings(
        token="abc.def.ghi",
        database_url="sqlite:///games/bot.db",
        api_base="http://proxy.local/api/v10",
        gateway_url="ws://proxy.local/gateway",
        dev_guild_id=123456789012345678,
        log_level="DEBUG",
    )


def test_only_the_token_is_required_and_the_rest_has_defaults(tmp_path: Path) -> None:
    os.environ["DISCORD_TOKEN"] = "t"
    os.environ["DEV_GUILD_ID"] = ""  # set but empty counts as not set
    assert Settings.from_env(no_env_file(tmp_path)) == Settings(token="t")
    assert Settings(token="t").log_level == "INFO" and Settings(token="t").database_url is None


@pytest.mark.parametrize("token", [None, "", "   "])
def test_a_missing_token_says_how_to_get_one(tmp_path: Path, token: str | None) -> None:
    if token is not None:
        os.environ["DISCORD_TOKEN"] = token
    with pytest.raises(ConfigError) as error:
        Settings.from_env(no_env_file(tmp_path))
    assert str(error.value) == TOKEN_HELP
    assert "https://discord.com/developers/applications" in TOKEN_HELP and "Reset Token" in TOKEN_HELP


@pytest.mark.parametrize("guild", ["my-server", "12ab", "-5", "1.5", "0", "²³"])
def test_a_dev_guild_id_that_is_not_a_server_id_is_refused(tmp_path: Path, guild: str) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": guild})
    with pytest.raises(ConfigError, match="DEV_GUILD_ID must be a server id") as error:
        Settings.from_env(no_env_file(tmp_path))
    assert repr(guild) in str(error.value)


@pytest.mark.parametrize("level", ["verbose", "warn", "10"])
def test_an_unknown_log_level_is_refused_with_the_ones_that_exist(tmp_path: Path, level: str) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "LOG_LEVEL": level})
    with pytest.raises(ConfigError) as error:
        Settings.from_env(no_env_file(tmp_path))
    message = str(error.value)
    assert message.startswith("LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
    assert level.upper() in message


@pytest.mark.parametrize("level", ["critical", "Warning", " error "])
def test_every_log_level_logging_knows_is_accepted(tmp_path: Path, level: str) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "LOG_LEVEL": level})
    assert Settings.from_env(no_env_file(tmp_path)).log_level == level.strip().upper()


@pytest.mark.parametrize(
    "url, says",
    [
        ("mysql://db/bot", "scheme 'mysql' is not supported"),
        ("sqlite:///:memory:", "in-memory database"),
        ("sqlite://", "names no file"),
        ("sqlite:///bot.db?mode=ro", "query string"),
    ],
)
def test_a_database_url_the_storage_cannot_use_is_refused_before_starting(
    tmp_path: Path, url: str, says: str
) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    with pytest.raises(ConfigError, match="DATABASE_URL") as error:
        Settings.from_env(no_env_file(tmp_path))
    assert says in str(error.value)


def test_a_dot_env_file_is_read_but_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# settings for my bot\n"
        "DISCORD_TOKEN=from-file\n"
        "DATABASE_URL=sqlite:///from/file.db\n"
        'LOG_LEVEL="warning"\n'
        "DEV_GUILD_ID=42\n",
        encoding="utf-8",
    )
    os.environ["DATABASE_URL"] = "sqlite:///from/env.db"
    settings = Settings.from_env(env_file)
    assert settings.token == "from-file"
    assert settings.database_url == "sqlite:///from/env.db"  # the environment wins
    assert settings.log_level == "WARNING" and settings.dev_guild_id == 42


def test_the_default_dot_env_is_the_one_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-cwd\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert Settings.from_env().token == "from-cwd"


def test_no_env_file_means_the_environment_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-cwd\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError):
        Settings.from_env(env_file=None)


@pytest.mark.parametrize("value", ["fast", "-5", "inf", "nan"])
def test_a_global_limit_that_is_not_a_rate_is_refused_by_name(tmp_path: Path, value: str) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "DISCORD_GLOBAL_LIMIT": value})
    with pytest.raises(ConfigError, match="DISCORD_GLOBAL_LIMIT"):
        Settings.from_env(no_env_file(tmp_path))


@pytest.mark.parametrize("value", ["50", "120.5", "none", "0"])
def test_a_global_limit_may_be_a_rate_or_none(tmp_path: Path, value: str) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "DISCORD_GLOBAL_LIMIT": value})
    assert Settings.from_env(no_env_file(tmp_path)).token == "t"


@pytest.mark.parametrize(("value", "processes"), [("", None), ("auto", None), ("0", 0), ("3", 3)])
def test_work_processes_is_a_count_or_auto(tmp_path: Path, value: str, processes: int | None) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "WORK_PROCESSES": value})
    assert Settings.from_env(no_env_file(tmp_path)).work_processes == processes


@pytest.mark.parametrize("value", ["two", "-1", "1.5", "500"])
def test_work_processes_that_is_not_a_count_is_refused_by_name(tmp_path: Path, value: str) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "WORK_PROCESSES": value})
    with pytest.raises(ConfigError, match="WORK_PROCESSES"):
        Settings.from_env(no_env_file(tmp_path))


@pytest.mark.parametrize(
    ("value", "url"),
    [("", None), ("https://example.org/bot/blob/main/", "https://example.org/bot/blob/main")],
)
def test_docs_url_is_an_address_or_unset(tmp_path: Path, value: str, url: str | None) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "DOCS_URL": value})
    assert Settings.from_env(no_env_file(tmp_path)).docs_url == url


def test_docs_url_that_is_not_a_web_address_is_refused_by_name(tmp_path: Path) -> None:
    os.environ.update({"DISCORD_TOKEN": "t", "DOCS_URL": "example.org"})
    with pytest.raises(ConfigError, match="DOCS_URL"):
        Settings.from_env(no_env_file(tmp_path))


def test_the_bots_cap_on_games_at_once_is_read_and_checked(tmp_path: Path) -> None:
    os.environ["DISCORD_TOKEN"] = "t"
    assert Settings.from_env(no_env_file(tmp_path)).max_games_at_once == 500  # docs/scaling.md's most
    os.environ["MAX_GAMES_AT_ONCE"] = " 40 "
    assert Settings.from_env(no_env_file(tmp_path)).max_games_at_once == 40
    os.environ["MAX_GAMES_AT_ONCE"] = "none"
    assert Settings.from_env(no_env_file(tmp_path)).max_games_at_once is None
    for bad in ("0", "-3", "lots", "²"):
        os.environ["MAX_GAMES_AT_ONCE"] = bad
        with pytest.raises(ConfigError, match="MAX_GAMES_AT_ONCE must be a number of games"):
            Settings.from_env(no_env_file(tmp_path))
