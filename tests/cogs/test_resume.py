"""What the bot does at start with the games it finds stored: carry on, or close them and say why."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sqlite3
import time
from contextlib import closing

import discord
import pytest

from bot.fakediscord import running_bot
from bot.storage import PlayerResult, Storage
from bot.tables.components import button
from bot.tables.resuming import Resuming
from cogs.stats import page_button
from tests.cogs.conftest import FAST, World, join, private_answer
from tests.cogs.hotstreak_player import BET_ID

SEATS = [
    {"name": "alice", "user_id": None, "ai": None},
    {"name": "Ada (AI)", "user_id": None, "ai": "normal"},
]


def seats_for(world: World, player: str = "alice") -> list[dict]:
    return [{**SEATS[0], "user_id": world.users[player].id}, SEATS[1]]


async def store_game(
    world: World, channel_id: int, *, age: float = 0.0, status: str = "running", player: str = "alice"
) -> int:
    storage = await Storage.open(str(world.db), clock=lambda: time.time() - age)
    try:
        settings = {
            "players": 2 if status == "running" else 3,
            "pace": 0.0,
            "host_id": world.users["alice"].id,
            "engine": {"first_better": 0},
        }
        return await storage.create_game(
            "hotstreak", world.guild.id, channel_id, 7, settings, seats_for(world, player), status=status
        )
    finally:
        await storage.close()


async def test_a_stored_game_carries_on_after_a_restart_with_working_buttons(world: World) -> None:
    game_id = await store_game(world, world.channel.id)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "carries on" in _channel_text(world), timeout=10)
        await world.fake.wait_for(lambda: _bet_buttons(world), timeout=10)
        message, custom_id = _bet_buttons(world)[-1]
        ix = await world.fake.click(world.users["alice"], message, custom_id)
        await ix.wait_response()
        await world.fake.wait_for(lambda: custom_id not in [c for _, c in _bet_buttons(world)], timeout=5)
        assert not any(m.ephemeral for m in ix.messages)  # taken: the prompt moved on, nothing to say
        async with await Storage.open(str(world.db), read_only=True) as storage:  # the bot holds the file
            game = await storage.load_game(game_id)
        assert game is not None and game.status == "running"
        assert (
            game.actions[0]["player"] == 0 and game.actions[0]["kind"] == "bet"
        )  # alice's click, stored first


async def test_a_game_whose_channel_is_gone_is_closed_and_its_players_told(world: World) -> None:
    game_id = await store_game(world, 987654321)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: bool(world.fake.dm_messages(world.users["alice"])), timeout=10)
    assert "channel is gone" in world.fake.dm_messages(world.users["alice"])[-1].text
    async with await Storage.open(str(world.db)) as storage:
        game = await storage.load_game(game_id)
    assert game is not None and game.status == "abandoned"


async def test_a_game_idle_for_more_than_a_day_is_closed_with_a_note_in_its_channel(world: World) -> None:
    game_id = await store_game(world, world.channel.id, age=25 * 3600)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "waited too long" in _channel_text(world), timeout=10)
    async with await Storage.open(str(world.db)) as storage:
        game = await storage.load_game(game_id)
    assert game is not None and game.status == "abandoned"


async def test_a_lobby_survives_a_restart(world: World) -> None:
    await store_game(world, world.channel.id, status="lobby")
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "here is the lobby again" in _channel_text(world), timeout=10)
        await world.fake.wait_for(lambda: _lobbies(world), timeout=10)
        lobby = _lobbies(world)[-1]
        await join(world.fake, lobby, world.users["bob"])
        await world.fake.wait_for(lambda: world.users["bob"].mention in lobby.text, timeout=5)


def _lobbies(world: World) -> list:
    return [m for m in world.fake.channel_messages(world.channel) if "lobby" in m.text and m.buttons]


async def test_the_unluckiest_player_bets_first(world: World) -> None:
    """bob has lost the most at Hot Streak in this server, so bob opens the betting."""
    async with await Storage.open(str(world.db)) as storage:
        past = await storage.create_game("hotstreak", world.guild.id, 1, 1, {}, [], status="running")
        await storage.finish_game(
            past,
            [
                PlayerResult(0, world.users["alice"].id, "alice", 20, 10, 1, True),
                PlayerResult(1, world.users["bob"].id, "bob", 2, -8, 2, False),
            ],
        )
    async with running_bot(world.fake, world.bot()):
        ix = await world.fake.slash(world.users["alice"], world.channel, "hotstreak start", pace=0.0)
        lobby = await ix.reply()
        await join(world.fake, lobby, world.users["bob"])
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: _bet_buttons(world), timeout=10)
        assert f"{world.users['bob'].mention} to bet" in _channel_text(world)
        assert BET_ID.match(_bet_buttons(world)[-1][1]).group(1) == "1"  # type: ignore[union-attr]


def _channel_text(world: World) -> str:
    return "\n".join(m.text for m in world.fake.channel_messages(world.channel))


def _bet_buttons(world: World) -> list:
    return [
        (m, b.custom_id)
        for m in world.fake.channel_messages(world.channel)
        for b in m.buttons
        if BET_ID.match(b.custom_id or "") and not b.disabled
    ]


# --- games and buttons from before the catalog and the custom_id module --------------------------


async def test_buttons_posted_before_the_update_keep_working_or_say_they_are_stale(world: World) -> None:
    """A bet button in Discord still carries the choice as JSON (today's ids before the update):
    clicking it takes that bet; once it is out of date, it says so and changes nothing."""
    game_id = await store_game(world, world.channel.id)
    async with running_bot(world.fake, world.bot()) as bot:
        await world.fake.wait_for(lambda: _bet_buttons(world), timeout=10)
        table = bot.tables.by_id[game_id]
        assert table.engine is not None
        option = table.engine.pending()[0].options[2]
        old_id = f'g:{game_id}:d:0:0:bet:"{option}"'  # exactly as the bot built it before
        channel = bot.get_channel(world.channel.id)
        view = discord.ui.View(timeout=None)
        view.add_item(button(old_id, "An old bet button"))
        await channel.send("(a message from before the update)", view=view)  # type: ignore[union-attr]
        await world.fake.wait_for(lambda: _with_button(world, old_id) is not None, timeout=5)
        old = _with_button(world, old_id)
        assert old is not None

        taken = await world.fake.click(world.users["alice"], old, old_id)
        await taken.wait_response()
        await world.fake.wait_for(lambda: table.seq == 1, timeout=5)  # stored, then applied
        assert not any(m.ephemeral for m in taken.messages)  # applied: the prompt moves on
        async with await Storage.open(str(world.db), read_only=True) as storage:
            stored = await storage.load_game(game_id)
        assert stored is not None and stored.actions[0] == {"player": 0, "kind": "bet", "choice": option}

        again = await world.fake.click(world.users["alice"], old, old_id)
        assert "already decided" in await private_answer(world.fake, again)
        assert table.seq == 1 or table.acted[0] == 1


async def test_a_forged_or_foreign_button_gets_a_private_answer_and_changes_nothing(world: World) -> None:
    game_id = await store_game(world, world.channel.id)
    async with running_bot(world.fake, world.bot()) as bot:
        bot.rate_limit = None  # ten forged clicks back to back, faster than any person (test_rate_limit)
        await world.fake.wait_for(lambda: _bet_buttons(world), timeout=10)
        table = bot.tables.by_id[game_id]
        before = table.engine.dumps() if table.engine else ""
        forged = {
            "not-ours": "couldn't read",
            f"g:{game_id}:d:0:0:bet:i999": "already decided",  # no such option
            f'g:{game_id}:d:0:0:bet:"ticket:nobody:safe"': "already decided",
            f"g:{game_id}:d:0:0:bet:{{broken": "couldn't read",
            "g:999999:hand": "has ended",
            "g:0:page:lb:chess:week:0": "not valid",
            "g:0:page:lb:all:week:99999999999999999999": "couldn't read",
            "g:0:page:lb:all:week": "couldn't read",
            "g:0:page:lb:all:week:x": "couldn't read",
            "g:0:page:lb:all:year:1": "not valid",
        }
        channel = bot.get_channel(world.channel.id)
        view = discord.ui.View(timeout=None)
        for custom_id in forged:
            board = custom_id.startswith("g:0:page:lb:")  # a leaderboard page's item is the stats cog's
            view.add_item(
                page_button(custom_id, custom_id[:20], False) if board else button(custom_id, custom_id[:20])
            )
        await channel.send("buttons", view=view)  # type: ignore[union-attr]
        await world.fake.wait_for(lambda: _with_button(world, "not-ours") is not None, timeout=5)
        message = _with_button(world, "not-ours")
        assert message is not None
        for custom_id, answer in forged.items():
            ix = await world.fake.click(world.users["alice"], message, custom_id)
            assert answer in await private_answer(world.fake, ix), custom_id
        assert table.engine is not None and table.engine.dumps() == before and table.seq == 0


@pytest.mark.parametrize(
    "time_up_stored", [False, True], ids=["clock-ran-out-while-down", "time-up-in-the-log"]
)
async def test_a_horse_race_on_the_clock_stored_by_the_old_bot_still_ends_on_time(
    world: World, time_up_stored: bool
) -> None:
    """Before the end time was an engine setting, the bot kept it in the table's settings and sent
    ``time_up`` as an action outside the pending decisions; such a game resumes and ends as it should."""
    settings = {
        "players": 2,
        "races": 5,
        "bank": 20,
        "fee": 1,
        "rolls": "auto",
        "end": "minutes",
        "minutes": 30,
        "pace": 0.0,
        "host_id": world.users["alice"].id,
        "engine": {"bank": 20, "fee": 1, "races": 5, "end": "minutes", "minutes": 30, "dealer": 0},
        "ends_at": time.time() + (3600 if time_up_stored else -5),
    }
    actions = [{"player": None, "kind": "next_race", "choice": "next_race"}]
    if time_up_stored:
        actions.append({"player": None, "kind": "time_up", "choice": None})
    async with await Storage.open(str(world.db)) as storage:
        game_id = await storage.create_game(
            "horserace", world.guild.id, world.channel.id, 11, settings, seats_for(world), status="running"
        )
        for seq, action in enumerate(actions):
            await storage.append_action(game_id, seq, action)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "Final standings" in _channel_text(world), timeout=60)
        assert "after 1 race" in _channel_text(world)
    async with await Storage.open(str(world.db)) as storage:
        game = await storage.load_game(game_id)
        assert game is not None and game.status == "finished"
        assert [a["kind"] for a in game.actions].count("time_up") == 1


async def test_a_stored_game_of_an_unknown_kind_is_reported_and_the_others_resume(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    other = world.guild.add_text_channel("other")
    async with await Storage.open(str(world.db)) as storage:
        unknown = await storage.create_game(
            "chess", world.guild.id, other.id, 1, {"host_id": 1}, seats_for(world, "bob"), status="running"
        )
    await store_game(world, world.channel.id)
    with caplog.at_level(logging.ERROR):
        async with running_bot(world.fake, world.bot()):
            await world.fake.wait_for(lambda: "carries on" in _channel_text(world), timeout=10)
            await world.fake.wait_for(
                lambda: any("don't know its game" in m.text for m in world.fake.channel_messages(other)),
                timeout=10,
            )
    assert any(f"{unknown}" in r.getMessage() and "unknown kind" in r.getMessage() for r in caplog.records)


async def test_a_damaged_stored_game_is_reported_and_the_others_resume(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    other = world.guild.add_text_channel("other")
    damaged = await store_game(world, other.id, player="bob")  # one open table per person (migration 7)
    await store_game(world, world.channel.id)
    with closing(sqlite3.connect(world.db)) as db, db:
        db.execute("UPDATE games SET settings = '{not json' WHERE id = ?", (damaged,))
    with caplog.at_level(logging.ERROR):
        async with running_bot(world.fake, world.bot()):
            await world.fake.wait_for(lambda: "carries on" in _channel_text(world), timeout=10)
            await world.fake.wait_for(
                lambda: any("damaged" in m.text for m in world.fake.channel_messages(other)), timeout=10
            )
    assert any(
        f"game {damaged}" in r.getMessage() and "could not be read" in r.getMessage() for r in caplog.records
    )


def _with_button(world: World, custom_id: str):  # noqa: ANN202 - a FakeMessage or None
    return next(
        (
            m
            for m in world.fake.channel_messages(world.channel)
            for b in m.buttons
            if b.custom_id == custom_id
        ),
        None,
    )


async def test_a_command_before_the_stored_games_are_back_is_told_to_wait(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store_game(world, world.channel.id)
    back = asyncio.Event()
    original = Resuming._resume_stored

    async def slow_resume(self: Resuming) -> None:
        await back.wait()
        await original(self)

    monkeypatch.setattr(Resuming, "_resume_stored", slow_resume)
    async with running_bot(world.fake, world.bot(timing=dataclasses.replace(FAST, startup_wait=0.2))) as bot:
        early = await world.fake.slash(world.users["bob"], world.channel, "hotstreak start")
        assert await private_answer(world.fake, early) == "I'm starting up; try again in a few seconds."
        status = await world.fake.slash(world.users["alice"], world.channel, "hotstreak status")
        assert "starting up" in await private_answer(world.fake, status)
        assert not bot.tables.by_id and len(world.fake.channel_messages(world.channel)) == 0
        back.set()
        await world.fake.wait_for(lambda: "carries on" in _channel_text(world), timeout=10)
        await world.fake.wait_for(bot.tables.resumed.is_set, timeout=10)
        again = await world.fake.slash(world.users["bob"], world.channel, "hotstreak start")
        assert "already being played here" in await private_answer(world.fake, again)
        assert len(bot.tables.by_id) == 1


async def test_a_deadline_that_passed_while_the_bot_was_down_leaves_a_short_grace(world: World) -> None:
    game_id = await store_game(world, world.channel.id)
    with closing(sqlite3.connect(world.db)) as db, db:  # alice's bet was due an hour ago
        db.execute(
            "UPDATE games SET meta = ? WHERE id = ?", (f'{{"deadline": {time.time() - 3600}}}', game_id)
        )
    grace = dataclasses.replace(FAST, resume_grace_seconds=1.5)
    async with running_bot(world.fake, world.bot(timing=grace)):
        await world.fake.wait_for(
            lambda: "deadline passed while I was away" in _channel_text(world), timeout=10
        )
        assert "alice, you get 1.5 more seconds" in _channel_text(world)
        await asyncio.sleep(0.5)
        assert "Time's up" not in _channel_text(world)  # not the instant it started
        await world.fake.wait_for(lambda: "Time's up for alice" in _channel_text(world), timeout=10)
