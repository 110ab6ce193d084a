"""``python -m bot`` as someone setting the bot up meets it: clear usage, clear errors, exit codes, no tracebacks."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot import cli
from bot.fakediscord import FakeDiscord

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


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


# --- the bot itself ---------------------------------------------------------------------------------


def test_without_a_token_the_bot_exits_at_once_saying_how_to_get_one(tmp_path: Path) -> None:
    done = bot_command(tmp_path)  # a fresh directory: no .env to find
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: DISCORD_TOKEN is not set.")
    assert "https://discord.com/developers/applications" in done.stderr and "Bot tab" in done.stderr
    one_line(done.stderr)
    assert not (tmp_path / "data").exists()  # nothing was created before the settings were checked


def test_run_is_the_same_as_no_command(tmp_path: Path) -> None:
    done = bot_command(tmp_path, "run")
    assert done.returncode == 2 and one_line(done.stderr).startswith("error: DISCORD_TOKEN is not set.")


def test_a_bad_setting_exits_with_one_line_naming_it(tmp_path: Path) -> None:
    done = bot_command(tmp_path, DISCORD_TOKEN="x", DATABASE_URL="mysql://db/bot")
    assert done.returncode == 2
    assert one_line(done.stderr).startswith("error: DATABASE_URL scheme 'mysql' is not supported")


# --- help ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    assert cli.main([flag]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "usage: python -m bot" in out
    assert all(command in out for command in ("run", "demo", "sim"))


def test_sim_help_shows_the_options_of_every_games_simulator(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--help"]) == 0
    out = capsys.readouterr().out
    assert "python -m bot sim hotstreak" in out and "python -m bot sim horserace" in out
    assert "--games N" in out and "--workers N" in out and "--races N" in out


def test_a_tools_help_shows_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "hotstreak", "--help"]) == 0
    out = capsys.readouterr().out
    assert "(default: 1000)" in out  # --games
    assert "(default: easy)" in out  # --ai
    assert cli.main(["demo", "horserace", "--help"]) == 0
    assert "(default: standard)" in capsys.readouterr().out  # --board


def test_run_help_lists_the_settings_and_how_the_bot_stops(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--help"]) == 0
    out = capsys.readouterr().out
    assert "DISCORD_TOKEN" in out and "DATABASE_URL" in out and "SIGTERM" in out


# --- bad command lines: one line naming the problem, exit code 2 -------------------------------------

BAD_COMMAND_LINES = [
    (["demo", "horserace", "--players", "99"], "argument --players: must be from 2 to 15, not 99"),
    (["demo", "horserace", "--races", "0"], "argument --races: must be from 1 to 1000, not 0"),
    (["demo", "horserace", "--board", "nope"], "argument --board: no such board 'nope'; choose from"),
    (["demo", "hotstreak", "--players", "1"], "argument --players: must be from 2 to 8, not 1"),
    (["demo", "hotstreak", "--ai", "hard"], "argument --ai: unknown AI level hard; choose from easy, normal"),
    (["demo", "hotstreak", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
    (["demo", "hotstreak", "--bogus"], "unrecognized arguments: --bogus"),
    (["sim", "chess"], "unknown game 'chess'; games: hotstreak, horserace"),
    (["sim", "hotstreak", "--workers", "0"], "argument --workers: must be at least 1, not 0"),
    (["sim", "hotstreak", "--budget", "-5"], "argument --budget: must be at least 1, not -5"),
    (["sim", "hotstreak", "--games", "0"], "argument --games: must be at least 1, not 0"),
    (["sim", "hotstreak", "--games", "many"], "argument --games: expected a whole number, not 'many'"),
    (["sim", "horserace", "--races", "0"], "argument --races: must be at least 1, not 0"),
    (["sim"], "python -m bot sim: error: name a game: hotstreak, horserace"),
    (["demo"], "python -m bot demo: error: name a game: hotstreak, horserace"),
    (["race", "hotstreak"], "argument COMMAND: invalid choice: 'race'"),
]


@pytest.mark.parametrize(("argv", "says"), BAD_COMMAND_LINES, ids=" ".join)  # type: ignore[arg-type]
def test_a_bad_command_line_gets_one_line_naming_it_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert says in one_line(err)
    assert one_line(err).startswith("python -m bot")  # which command complained


def test_a_folder_that_cannot_be_written_is_named_before_any_game_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("not a folder")
    assert cli.main(["demo", "hotstreak", "--out", str(a_file / "frames")]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no game was played
    assert one_line(err).startswith(
        f"python -m bot demo hotstreak: error: argument --out: cannot write to {a_file}"
    )


def test_a_board_picture_that_cannot_be_written_is_named_before_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert cli.main(["demo", "horserace", "--png", str(tmp_path)]) == 2
    assert "argument --png: " in one_line(capsys.readouterr().err)
    assert cli.main(["demo", "horserace", "--png", str(tmp_path / "missing" / "board.png")]) == 2
    assert "argument --png: cannot write" in one_line(capsys.readouterr().err)


def test_the_real_command_prints_no_traceback_for_a_bad_argument(tmp_path: Path) -> None:
    done = bot_command(tmp_path, "demo", "horserace", "--players", "99")
    assert done.returncode == 2 and done.stdout == ""
    assert one_line(done.stderr) == (
        "python -m bot demo horserace: error: argument --players: must be from 2 to 15, not 99"
    )


# --- games found by name -----------------------------------------------------------------------------


def fake_game(monkeypatch: pytest.MonkeyPatch, kind: str, **tools: types.ModuleType) -> None:
    """A game the catalog lists, with only the given tool modules."""
    package = types.ModuleType(f"bot.games.{kind}")
    package.__path__ = []
    package.__spec__ = importlib.util.spec_from_loader(package.__name__, loader=None, is_package=True)
    monkeypatch.setitem(sys.modules, package.__name__, package)
    for module in tools.values():
        module.__spec__ = importlib.util.spec_from_loader(module.__name__, loader=None)
        monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(cli, "game_kinds", lambda: ["hotstreak", "horserace", kind])


def test_a_tool_with_only_main_gets_the_rest_of_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[list[str]] = []
    sim = types.ModuleType("bot.games.karts.sim", "Simulate many kart races.")
    sim.main = lambda argv: seen.append(argv) or 0  # type: ignore[attr-defined]
    fake_game(monkeypatch, "karts", sim=sim)
    assert cli.main(["sim", "karts", "--laps", "3"]) == 0
    assert seen == [["--laps", "3"]]
    assert cli.main(["sim", "--help"]) == 0
    out = capsys.readouterr().out
    assert "karts" in out and "Simulate many kart races." in out


def test_a_game_without_the_tool_is_named_as_such(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_game(monkeypatch, "karts")
    assert cli.main(["demo", "karts"]) == 2
    assert one_line(capsys.readouterr().err) == (
        "python -m bot demo: error: karts has no demo yet; games with one: hotstreak, horserace"
    )


# --- output for people --------------------------------------------------------------------------------


def test_the_horse_race_demo_prints_sentences_not_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "horserace", "--players", "3", "--races", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "{" not in out and "}" not in out  # no dicts
    assert "Final standings:" in out
    assert "  1. Seat 2: $70 (won 1 race; $15 won, $5 paid in fees and penalties)  <- winner" in out


def test_the_hot_streak_sim_names_mascots_and_side_bets(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "hotstreak", "--games", "4", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Mascot wins: Gobbler" in out
    assert "gobbler" not in out and "_out" not in out  # no internal ids
    assert "is disqualified." in out  # a side bet, by what it says


def test_progress_goes_to_stderr_only_when_asked_or_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "horserace", "--races", "2500", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "2500/2500 races (100%" in err
    assert "2500/2500" not in out
    assert cli.main(["sim", "horserace", "--races", "2500"]) == 0  # stderr is not a terminal here
    assert capsys.readouterr().err == ""


def test_the_simulator_spreads_games_over_processes_started_the_portable_way(tmp_path: Path) -> None:
    """Spawned workers re-import ``python -m bot``'s main module: it must not run the command again."""
    args = ["sim", "hotstreak", "--games", "6", "--players", "2", "--seed", "3", "--json"]
    two = bot_command(tmp_path, *args, "--workers", "2")
    assert two.returncode == 0, two.stderr
    one = bot_command(tmp_path, *args, "--workers", "1")
    figures = [json.loads(done.stdout) for done in (two, one)]
    for f in figures:
        f.pop("seconds")
    assert figures[0] == figures[1]


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


# --- against a fake Discord -------------------------------------------------------------------------------


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


async def stop_bot(process: asyncio.subprocess.Process, signum: int) -> bytes:
    """Send ``signum`` and return what the bot wrote on stderr; a bot that does not stop within 30 s is
    killed (and the test fails), so no stray process outlives its test and disturbs the next one."""
    process.send_signal(signum)
    try:
        _, err = await asyncio.wait_for(process.communicate(), 30)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    return err


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
    assert one_line(err.decode()).startswith("error: Discord refused DISCORD_TOKEN (401 Unauthorized).")


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
            err = await stop_bot(process, signal.SIGINT)  # Ctrl-C
    assert {"leaderboard", "stats", "history", "hotstreak start", "horserace start"} <= fake.command_names()
    assert process.returncode == 0, err.decode()
    # Nothing at all on stderr at WARNING: no voice-library warnings (the bot uses no voice), no traceback.
    assert err.decode() == ""
    assert (tmp_path / "store" / "bot.db").is_file()
