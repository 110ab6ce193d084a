"""``python -m bot`` as someone setting the bot up meets it: clear usage, clear errors, exit codes, no tracebacks."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import USAGE
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def clean_env(home: Path, **settings: str) -> dict[str, str]:
    """Only what Python needs to find the project: no DISCORD_* or other setting from this machine."""
    return {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), "HOME": str(home), **settings}


def bot_command(cwd: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(cwd, **settings),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_the_bot_exits_at_once_saying_how_to_get_one(tmp_path: Path) -> None:
    done = bot_command(tmp_path)  # a fresh directory: no .env to find
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: DISCORD_TOKEN is not set.")
    assert "https://discord.com/developers/applications" in done.stderr and "Bot tab" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # nothing was created before the settings were checked


def test_a_bad_setting_exits_with_one_line_naming_it(tmp_path: Path) -> None:
    done = bot_command(tmp_path, DISCORD_TOKEN="x", DATABASE_URL="mysql://db/bot")
    assert done.returncode == 2
    assert done.stderr.startswith("error: DATABASE_URL scheme 'mysql' is not supported")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_prints_the_usage(tmp_path: Path, flag: str) -> None:
    done = bot_command(tmp_path, flag)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.strip() == USAGE
    assert (
        "python -m bot demo GAME" in done.stdout and "hotstreak" in done.stdout and "horserace" in done.stdout
    )


@pytest.mark.parametrize("args", [["demo", "nosuchgame"], ["demo"], ["race", "hotstreak"]])
def test_an_unknown_tool_or_game_exits_2_with_the_usage(tmp_path: Path, args: list[str]) -> None:
    done = bot_command(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == USAGE


def test_the_horse_race_simulator_prints_json_win_rates_for_horses_2_to_12(tmp_path: Path) -> None:
    done = bot_command(tmp_path, "sim", "horserace", "--races", "200", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["races"] == 200 and figures["seed"] == 1
    win_rate = figures["win_rate"]
    assert sorted(win_rate, key=int) == [str(horse) for horse in range(2, 13)]
    assert all(0.0 <= rate <= 1.0 for rate in win_rate.values())
    assert sum(win_rate.values()) == pytest.approx(1.0, abs=1e-6)
    again = bot_command(tmp_path, "sim", "horserace", "--races", "200", "--seed", "1", "--json")
    assert json.loads(again.stdout) == figures  # the same seed, the same figures


async def run_bot(cwd: Path, **settings: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=clean_env(cwd, **settings),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_a_token_discord_refuses_exits_with_one_clear_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        process = await run_bot(
            tmp_path,
            DISCORD_TOKEN="not-the-token",
            DATABASE_URL=str(tmp_path / "bot.db"),
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            LOG_LEVEL="ERROR",
        )
        _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1
    assert err.decode().strip().startswith("error: Discord refused DISCORD_TOKEN (401 Unauthorized).")
    assert "Traceback" not in err.decode()


async def test_with_a_token_the_bot_connects_registers_its_commands_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        process = await run_bot(
            tmp_path,
            DISCORD_TOKEN=fake.token,
            DATABASE_URL="sqlite:///store/bot.db",  # relative to the working directory
            DISCORD_API_BASE=fake.api_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            LOG_LEVEL="WARNING",
        )
        try:
            await fake.wait_for(lambda: bool(fake.commands()), timeout=30, what="the commands to be synced")
        finally:
            process.send_signal(signal.SIGINT)  # Ctrl-C
            _, err = await asyncio.wait_for(process.communicate(), 30)
    assert {"leaderboard", "stats", "history", "hotstreak start", "horserace start"} <= fake.command_names()
    assert process.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert (tmp_path / "store" / "bot.db").is_file()
