"""``SHARD_COUNT`` and ``SHARD_IDS``: which shards this process runs; a bad value stops the bot with one line
naming the setting (exit code 2)."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, shard_settings
from tests.bot.test_cli import bot_command, one_line


def test_unsharded_by_default() -> None:
    assert shard_settings("", "") == (None, None)


def test_a_count_alone_runs_every_shard_in_this_process() -> None:
    assert shard_settings("4", "") == (4, None)


def test_ids_are_read_sorted() -> None:
    assert shard_settings("4", "3, 1") == (4, (1, 3))


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("0", "", "SHARD_COUNT must be a whole number from 1 to 4096, not '0'"),
        ("two", "", "SHARD_COUNT must be a whole number"),
        ("", "0", "SHARD_IDS is set ('0') but SHARD_COUNT is not"),
        ("2", "0;1", "SHARD_IDS must be shard numbers separated by commas"),
        ("2", "2", "SHARD_IDS '2' names a shard outside SHARD_COUNT=2 (shards are 0 to 1)"),
        ("2", "1,1", "SHARD_IDS '1,1' names a shard twice"),
        ("2", "-1", "SHARD_IDS must be shard numbers"),
    ],
)
def test_bad_shard_settings_are_refused_naming_the_setting(count: str, ids: str, says: str) -> None:
    with pytest.raises(ConfigError, match="^" + says.replace("(", r"\(").replace(")", r"\)")):
        shard_settings(count, ids)


def test_the_bot_exits_with_code_2_and_one_line_on_a_bad_shard_setting(tmp_path) -> None:  # noqa: ANN001
    done = bot_command(tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="5")
    assert done.returncode == 2
    assert one_line(done.stderr) == (
        "error: SHARD_IDS '5' names a shard outside SHARD_COUNT=2 (shards are 0 to 1)."
    )
