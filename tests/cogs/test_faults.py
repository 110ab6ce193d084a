"""When the database fails, with real SQLite files: the bot refuses to start on a file that is not a
database, and a click that cannot be saved is refused privately, applied nowhere, and works once the
database is free again."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord, running_bot
from bot.storage import StorageError
from bot.tables.answers import GAME_BROKE, SAVE_FAILED
from tests.cogs.conftest import FAST, World, join, private_answer
from tests.cogs.hotstreak_player import HotStreakTable

if TYPE_CHECKING:
    from bot.client import RaceBot
    from bot.fakediscord import FakeMessage
    from bot.tables.table import Table

ROOT = Path(__file__).resolve().parents[2]
BUSY = 0.2  # seconds the bot's storage waits for another connection's lock in these tests
LOCKABLE = dataclasses.replace(FAST, storage_busy_timeout=BUSY)


def garbage(path: Path) -> bytes:
    data = os.urandom(8192)
    path.write_bytes(data)
    return data


@contextlib.contextmanager
def write_lock(db: Path) -> Iterator[sqlite3.Connection]:
    """Another program holding the database's write lock (an open write transaction) until the block ends."""
    other = sqlite3.connect(db, isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield other
        other.execute("ROLLBACK")
    finally:
        other.close()


def stored_actions(lock: sqlite3.Connection, game_id: int) -> int:
    return lock.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]


# --- a file that is not a database -------------------------------------------------------------------


async def test_python_m_bot_refuses_a_garbage_database_before_contacting_discord(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    before = garbage(db)
    async with FakeDiscord() as fake:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env={
                "PATH": os.environ.get("PATH", ""),
                "PYTHONPATH": str(ROOT),
                "HOME": str(tmp_path),
                "DISCORD_TOKEN": "x",
                "DATABASE_URL": str(db),
                "DISCORD_API_BASE": fake.api_base,
                "DISCORD_GATEWAY_URL": fake.gateway_url,
            },
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(process.communicate(), 30)
    stderr = err.decode()
    assert process.returncode == 1
    assert stderr.strip() == (
        f"error: Could not open the database: the database at {db} is not a SQLite database "
        "(the file is corrupt or is another kind of file)."
    )
    assert fake.requests == [] and fake.gateway.identify_count == 0  # it never logged in
    assert db.read_bytes() == before  # the file was left exactly as it was


@pytest.mark.parametrize("kind", ["garbage", "directory"])
async def test_the_bot_fails_to_start_with_a_storage_error_naming_the_file(world: World, kind: str) -> None:
    if kind == "garbage":
        garbage(world.db)
        says = "is not a SQLite database"
    else:
        world.db.mkdir()
        says = "cannot be opened"
    with pytest.raises(StorageError, match=says) as error:
        async with running_bot(world.fake, world.bot()):
            pass
    assert str(world.db) in str(error.value)
    assert world.fake.command_names() == set()  # nothing was registered with a half-started bot


# --- a database locked by another program -----------------------------------------------------------


async def test_a_bet_that_cannot_be_saved_is_refused_privately_and_works_once_the_lock_is_gone(
    world: World,
) -> None:
    fake, users = world.fake, world.users
    async with running_bot(fake, world.bot(timing=LOCKABLE)) as bot:
        lobby = await (await fake.slash(users["alice"], world.channel, "hotstreak start", players=2)).reply()
        await join(fake, lobby, users["bob"])
        table = HotStreakTable(world, {0: users["alice"], 1: users["bob"]})
        await fake.wait_for(lambda: bool(table.bet_buttons()), timeout=5)
        message, custom_id, seat = table.bet_buttons()[-1]
        player, other = table.seats[seat], table.seats[1 - seat]
        running = bot.tables.in_channel(world.channel.id)
        assert running is not None
        prompt_before = (message.text, len(message.edits))

        with write_lock(world.db) as lock:
            refused = await fake.click(player, message, custom_id)
            assert await private_answer(fake, refused) == SAVE_FAILED
            assert "couldn't save that, so it was not applied" in SAVE_FAILED
            assert stored_actions(lock, running.game_id) == 0  # nothing reached the action log
            assert running.seq == 0 and running.acted == [0, 0]  # nor the game in memory
            assert (message.text, len(message.edits)) == prompt_before
            assert custom_id in {c for _, c, _ in table.bet_buttons()}  # the same button is still live

            # Leaving the game can't be saved either: the seat stays a person's.
            leave = await fake.slash(other, world.channel, "hotstreak leave")
            assert SAVE_FAILED in (await leave.reply()).text
            assert running.seats[1 - seat].user_id == other.id

            # Reading is not blocked by another program's write lock.
            board = await (await fake.slash(users["dave"], world.channel, "leaderboard")).reply()
            assert "No finished games yet." in board.text

        accepted = await fake.click(player, message, custom_id)
        await accepted.wait_response()
        # The answer is the public prompt moving on (the click's acknowledgement is a silent update).
        await fake.wait_for(lambda: running.seq == 1, timeout=5)
        assert not any(m.ephemeral for m in accepted.messages)
        game = await bot.storage.load_game(running.game_id)
        assert game is not None and len(game.actions) == 1 and game.actions[0]["player"] == seat
        assert fake.late_interactions == []


async def test_a_lobby_click_is_answered_in_time_even_when_saving_waits_longer_than_discord_allows(
    tmp_path: Path,
) -> None:
    # Discord's 3 s for an answer and the default 5 s wait for a lock, both scaled down.
    async with FakeDiscord(response_deadline=0.4, rate_limit=(5, 0.25)) as fake:
        guild = fake.add_guild("Test Server")
        channel = guild.add_text_channel("games")
        alice, bob = fake.add_user("alice", guild=guild), fake.add_user("bob", guild=guild)
        world = World(fake, guild, channel, tmp_path / "bot.db", {"alice": alice, "bob": bob})
        slow = dataclasses.replace(FAST, storage_busy_timeout=0.8)
        async with running_bot(fake, world.bot(timing=slow)) as bot:
            lobby = await (await fake.slash(alice, channel, "hotstreak start", players=3)).reply()
            with write_lock(world.db):
                join = await fake.click_button(bob, lobby, "Join")
                assert await private_answer(fake, join) == SAVE_FAILED
            assert not join.late and fake.late_interactions == []
            assert "bob" not in lobby.text
            stored = await bot.storage.active_game_in_channel(channel.id)
            assert stored is not None and [s["name"] for s in stored.seats] == ["alice"]

            again = await fake.click_button(bob, lobby, "Join")
            await again.reply()
            await fake.wait_for(lambda: bob.mention in lobby.text, timeout=5)
            stored = await bot.storage.active_game_in_channel(channel.id)
            assert stored is not None and [s["name"] for s in stored.seats] == ["alice", "bob"]
        assert fake.rate_limit_violations == []


async def first_bet(world: World, bot: RaceBot) -> tuple[Table, HotStreakTable, tuple[FakeMessage, str, int]]:
    """alice's two-player Hot Streak table with bob, on its first bet: the running table, the players'
    view of it, and the last bet button offered (its message, custom id and seat)."""
    fake, users = world.fake, world.users
    lobby = await (await fake.slash(users["alice"], world.channel, "hotstreak start", players=2)).reply()
    await join(fake, lobby, users["bob"])
    table = HotStreakTable(world, {0: users["alice"], 1: users["bob"]})
    await fake.wait_for(lambda: bool(table.bet_buttons()), timeout=5)
    running = bot.tables.in_channel(world.channel.id)
    assert running is not None
    return running, table, table.bet_buttons()[-1]


# --- an engine that breaks on an action it accepted -------------------------------------------------


async def test_a_move_that_breaks_the_engine_closes_the_game_and_says_so(world: World) -> None:
    """A bug in a game's rules (the engine raises on an action it had accepted and that is stored) can
    not be carried on from, nor replayed after a restart: the clicker is told, the channel is told, the
    game is stored as abandoned, and the channel is free for a new game."""
    fake, users = world.fake, world.users
    async with running_bot(fake, world.bot()) as bot:
        running, table, (message, custom_id, seat) = await first_bet(world, bot)
        assert running.engine is not None

        def broken(action: object, decision: object) -> list[object]:
            raise KeyError("a bug in the rules")

        running.engine._apply = broken  # type: ignore[method-assign]
        clicked = await fake.click(table.seats[seat], message, custom_id)
        assert await private_answer(fake, clicked) == GAME_BROKE
        await fake.wait_for(
            lambda: any("hit an error in its rules and was closed" in m.text for m in world.channel.messages),
            timeout=5,
        )
        game = await bot.storage.load_game(running.game_id)
        assert game is not None and game.status == "abandoned" and len(game.actions) == 1
        assert bot.tables.in_channel(world.channel.id) is None
        again = await (await fake.slash(users["alice"], world.channel, "hotstreak start", players=2)).reply()
        assert any(b.label == "Join" for b in again.buttons)
        assert fake.late_interactions == []


# --- a click Discord gave up on before the bot answered ------------------------------------------------


async def test_a_click_discord_gave_up_on_is_not_applied_and_the_same_button_works_again(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot far behind its load may reach a click after Discord's 3 s: Discord then shows the clicker
    "This interaction failed" and refuses any answer. The click is not applied (they still see the same
    buttons), the bot says so in one warning line rather than an unhandled error, and clicking again works."""
    fake = world.fake
    async with running_bot(fake, world.bot()) as bot:
        running, table, (message, custom_id, seat) = await first_bet(world, bot)

        deadline, fake.response_deadline = fake.response_deadline, -1.0  # every answer comes too late
        with caplog.at_level("WARNING"):
            late = await fake.click(table.seats[seat], message, custom_id)
            await fake.wait_for(lambda: late.late, timeout=5)
            await asyncio.sleep(0.2)
        fake.response_deadline = deadline
        assert any("came too late to answer; not applied" in r.getMessage() for r in caplog.records)
        assert not any(r.exc_info for r in caplog.records if r.name == "discord.client")
        game = await bot.storage.load_game(running.game_id)
        assert game is not None and game.actions == []

        again = await fake.click(table.seats[seat], message, custom_id)
        await fake.wait_for(lambda: bool(again.callbacks), timeout=5)
        await fake.wait_for(lambda: running.seq == 1, timeout=5)
        game = await bot.storage.load_game(running.game_id)
        assert game is not None and len(game.actions) == 1 and game.actions[0]["player"] == seat
