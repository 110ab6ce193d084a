"""bot.logs: plain text by default, one JSON object per line with LOG_FORMAT=json, the game's fields on the
lines a table writes, and never a token or a password, in either format."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs
from bot.config import ConfigError, Settings

TOKEN = "MTA0ODIwMzQ5ODIzMTIzNDU2Nw.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
PASSWORD = "s3cr#t pa55"
URL = "postgresql://bot:s3cr%23t%20pa55@db:5432/racing"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldA"


@pytest.fixture
def logged() -> Iterator[tuple[io.StringIO, list[str]]]:
    """A stream the root logger writes to, and the formats to set it up in (restored afterwards)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    shard_count = logs._shard_count[0]  # setup's, read by every later record in this process
    stream = io.StringIO()
    yield stream, []
    logs._shard_count[0] = shard_count
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def lines_in(log_format: str, emit: object, stream: io.StringIO) -> list[str]:
    logs.setup(
        "INFO", log_format, secrets=(TOKEN, PASSWORD, logs.password_of(URL)), shard_count=2, stream=stream
    )
    assert callable(emit)
    emit()
    return stream.getvalue().splitlines()


def secrets_everywhere() -> None:
    log = logging.getLogger("bot.test")
    log.info("logging in with %s", TOKEN)
    log.warning("could not reach %s", URL)
    log.info("POST /api/v10/interactions/123456789012345678/%s/callback failed", INTERACTION_TOKEN)
    log.info("headers {'Authorization': 'Bot %s'}", TOKEN)
    log.info("password=%s token=%s", PASSWORD.split()[0], "abc123")
    try:
        raise RuntimeError(f"connect failed for {URL} with token {TOKEN}")
    except RuntimeError:
        log.exception("the database refused")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_no_token_or_password_is_ever_written(logged: tuple[io.StringIO, list[str]], log_format: str) -> None:
    stream, _ = logged
    lines = lines_in(log_format, secrets_everywhere, stream)
    text = "\n".join(lines)
    for secret in (TOKEN, "GaBcDe.abcdefghij", "s3cr%23t", "s3cr#t", PASSWORD, INTERACTION_TOKEN, "abc123"):
        assert secret not in text, secret
    assert "[redacted]" in text
    assert "postgresql://bot:[redacted]@db:5432/racing" in text
    if log_format == "json":
        records = [json.loads(line) for line in lines]  # every line is one JSON object
        assert len(records) == 6
        assert "RuntimeError" in records[-1]["exc_info"]


def test_json_lines_name_the_game_server_shard_and_process_inside_a_table(
    logged: tuple[io.StringIO, list[str]],
) -> None:
    stream, _ = logged
    guild = (1234 << 22) + 7  # shard (guild >> 22) % 2 == 0

    async def a_table() -> None:
        async def its_step() -> None:
            logging.getLogger("bot.tables.table").info("a step")

        with logs.about_game(42, guild):
            task = asyncio.create_task(its_step())  # a task started inside keeps the game
        logging.getLogger("bot.client").info("outside")
        await task

        async def a_click() -> None:
            logs.set_game(43, guild + (1 << 22))
            logging.getLogger("bot.tables.clicks").info("a click")

        await asyncio.create_task(a_click())
        logging.getLogger("bot.client").info("after the click")  # the click's game stayed in its task

    lines = lines_in("json", lambda: asyncio.run(a_table()), stream)
    records = [json.loads(line) for line in lines]
    by_message = {r["message"]: r for r in records}
    step = by_message["a step"]
    assert (step["game_id"], step["guild_id"], step["shard"]) == (42, str(guild), 0)
    assert (
        step["level"] == "INFO" and step["logger"] == "bot.tables.table" and isinstance(step["process"], int)
    )
    assert {"time", "level", "logger", "message", "process", "game_id", "guild_id", "shard"} <= set(step)
    assert (by_message["a click"]["game_id"], by_message["a click"]["shard"]) == (43, 1)
    for outside in ("outside", "after the click"):
        assert by_message[outside]["game_id"] is None and by_message[outside]["shard"] is None


def test_plain_text_stays_the_default_and_names_the_game_too(
    logged: tuple[io.StringIO, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 30)
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    assert Settings.from_env(env_file=None).log_format == "text"
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    assert Settings.from_env(env_file=None).log_format == "json"
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ConfigError, match="LOG_FORMAT must be text or json"):
        Settings.from_env(env_file=None)

    stream, _ = logged

    def emit() -> None:
        with logs.about_game(7, 99 << 22):
            logging.getLogger("bot.tables.table").warning("slow")

    [line] = lines_in("text", emit, stream)
    assert " WARNING bot.tables.table: slow [game 7 server " in line and "shard 1 pid" in line
    with pytest.raises(json.JSONDecodeError):
        json.loads(line)


def test_discord_pys_dump_of_gateway_events_is_never_written(logged: tuple[io.StringIO, list[str]]) -> None:
    """Issue 26, point 15: at DEBUG discord.py logs every event it receives, an interaction's token
    (valid 15 minutes) and every message's text included; that dump is dropped, the rest is kept."""
    stream, _ = logged
    event = {
        "t": "INTERACTION_CREATE",
        "d": {"id": "1", "token": INTERACTION_TOKEN, "data": {"custom_id": "x"}},
    }

    def emit() -> None:
        gateway = logging.getLogger("discord.gateway")
        gateway.debug("For Shard ID %s: WebSocket Event: %s", 0, event)
        gateway.debug("Shard ID %s has sent the IDENTIFY payload.", 0)

    logs.setup("DEBUG", "text", stream=stream)
    emit()
    text = stream.getvalue()
    assert "IDENTIFY" in text  # discord.py's other DEBUG lines stay
    assert "WebSocket Event" not in text and "INTERACTION_CREATE" not in text


def test_a_database_password_holding_slashes_or_question_marks_is_never_written(
    logged: tuple[io.StringIO, list[str]],
) -> None:
    """Issue 26, point 11: a password with '/', '?' or '#' (not percent-encoded) is still found and
    redacted, by its value and by its place in any URL."""
    stream, _ = logged
    for password in ("s3cr3tPart/2ndHalf", "123/xyzSECRET", "a?b#c"):
        url = f"postgresql://bot:{password}@db:5432/racing"
        assert logs.password_of(url) == password
        logs.setup("INFO", "text", secrets=(logs.password_of(url),), stream=stream)
        logging.getLogger("bot.test").warning("could not reach %s", url)
        logging.getLogger("bot.test").warning("rejected %s", password)
        text = stream.getvalue()
        assert password not in text and password.split("/")[-1] not in text, text
