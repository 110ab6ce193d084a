"""The Horse Race Game through the fake Discord: lobby, manual and auto rolls, one live board."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import AsyncIterator

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot
from bot.games.base import Action
from bot.games.catalog import entry
from bot.storage import Storage
from bot.tables import clock
from tests.cogs.conftest import FAST, World, join, private_answer

ROLL_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):\d+:roll:")


@pytest.fixture
async def bot(world: World) -> AsyncIterator[RaceBot]:
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace", "cogs.stats"))) as running:
        yield running


def standings(world: World) -> FakeMessage | None:
    return next((m for m in world.fake.channel_messages(world.channel) if "Final standings" in m.text), None)


async def open_lobby(world: World, **options: object) -> FakeMessage:
    ix = await world.fake.slash(world.users["alice"], world.channel, "horserace start", **options)
    return await ix.reply()


async def test_auto_rolls_play_a_whole_game_on_one_live_board(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world, races=2, pace=0.0)  # rolls: auto is the default
    assert "auto · 0 s pace" in lobby.text
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await world.fake.wait_for(lambda: standings(world) is not None, timeout=60)
    messages = world.fake.channel_messages(world.channel)
    boards = [m for m in messages if any(a.filename == "board.png" for a in m.attachments)]
    # One board message per race, edited after each roll instead of a new message per roll.
    assert len(boards) == 2
    assert all(len(board.edits) >= 5 for board in boards)
    assert all(a.description for board in boards for a in board.attachments)  # alt text for screen readers
    wins = [m for m in messages if "wins race" in m.text]
    assert len(wins) == 2
    final = standings(world)
    assert final is not None and "alice" in final.text and "bob" in final.text
    assert not any(ROLL_ID.match(b.custom_id or "") for m in messages for b in m.buttons)  # nobody pressed


async def test_manual_rolls_only_the_player_on_turn_may_roll(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world, races=1, rolls="manual", pace=0.0)
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    seats = {0: world.users["alice"], 1: world.users["bob"]}
    wrong_user_checked = False
    for _ in range(400):
        if standings(world) is not None:
            break
        await world.fake.wait_for(
            lambda: (
                standings(world) is not None
                or any(ROLL_ID.match(b.custom_id or "") for b in _board_buttons(world))
            ),
            timeout=10,
        )
        buttons = [b for b in _board_buttons(world) if ROLL_ID.match(b.custom_id or "")]
        if not buttons:
            continue
        board = _board(world)
        seat = int(ROLL_ID.match(buttons[0].custom_id).group(1))  # type: ignore[union-attr]
        if not wrong_user_checked:
            other = seats[1 - seat]
            before = board.text
            ix = await world.fake.click(other, board, buttons[0].custom_id)
            assert "not you" in await private_answer(world.fake, ix)
            assert board.text == before
            wrong_user_checked = True
        ix = await world.fake.click(seats[seat], board, buttons[0].custom_id)
        await ix.wait_response()
        # The same button again (a double click) changes nothing and says why.
        again = await world.fake.click(seats[seat], board, buttons[0].custom_id)
        assert "already decided" in await private_answer(world.fake, again)
    assert standings(world) is not None
    assert wrong_user_checked


def _board(world: World) -> FakeMessage:
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ][-1]


def _board_buttons(world: World) -> list:
    boards = [
        m
        for m in world.fake.channel_messages(world.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ]
    return boards[-1].buttons if boards else []


async def test_a_game_on_the_clock_ends_after_the_race_in_progress_when_time_is_up(
    world: World, bot: RaceBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await open_lobby(world, end="minutes", minutes=30, rolls="auto", pace=0.05)
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await world.fake.wait_for(
        lambda: any("Race 1" in m.text for m in world.fake.channel_messages(world.channel))
    )
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None and table.engine is not None
    # The end is an ordinary pending step, timed for 30 minutes after the start.
    [time_up] = [d for d in table.engine.pending() if d.kind == "time_up"]
    assert time_up.player is None and time_up.not_before is not None
    assert time.time() + 29 * 60 < time_up.not_before <= time.time() + 30 * 60
    # The host's clock says the 30 minutes are over.
    monkeypatch.setattr(clock, "now", lambda: time.time() + 31 * 60)
    table.wake.set()
    await world.fake.wait_for(lambda: standings(world) is not None, timeout=60)
    messages = world.fake.channel_messages(world.channel)
    assert len([m for m in messages if "wins race" in m.text]) == 1  # race 1 was finished, no race 2
    final = standings(world)
    assert final is not None and "after 1 race" in final.text


async def test_a_player_who_misses_a_roll_is_rolled_for_for_the_rest_of_the_game(world: World) -> None:
    quick = dataclasses.replace(FAST, turn_seconds=0.4)
    alice, bob = world.users["alice"], world.users["bob"]
    async with running_bot(world.fake, world.bot(timing=quick, extensions=("cogs.horserace",))) as running:
        lobby = await open_lobby(world, races=1, rolls="manual", pace=0.0)
        await join(world.fake, lobby, bob)
        await (await world.fake.click_button(alice, lobby, "Start")).wait_response()
        table = running.tables.in_channel(world.channel.id)
        assert table is not None
        seat_of = {table.seats[i].user_id: i for i in range(2)}
        alice_rolled_by_hand = 0
        for _ in range(600):  # bob rolls on his turns; alice never does
            await world.fake.wait_for(
                lambda: standings(world) is not None or bool(_roll_buttons(world)), timeout=10
            )
            if standings(world) is not None:
                break
            for seat, custom_id in _roll_buttons(world):
                if seat == seat_of[alice.id]:
                    alice_rolled_by_hand += 1  # a Roll button for alice: she is still waited for
                    await world.fake.wait_for(lambda c=custom_id: c not in _ids(world), timeout=5)
                else:
                    await (await world.fake.click(bob, _board(world), custom_id)).wait_response()
                    await world.fake.wait_for(lambda c=custom_id: c not in _ids(world), timeout=5)
        assert standings(world) is not None
    messages = world.fake.channel_messages(world.channel)
    switched = [m for m in messages if "From now on the bot rolls for" in m.text]
    assert len(switched) == 1 and alice.mention in switched[0].text  # told once, in the channel
    assert world.fake.pings(switched[0]).users == {alice.id}  # and it pings her, nobody else
    assert sum("Time's up for" in m.text for m in messages) == 1  # her one missed roll, never again
    assert alice_rolled_by_hand == 1  # the button she let pass; none after it
    async with await Storage.open(str(world.db), read_only=True) as storage:
        game = await storage.load_game(table.game_id)
    assert game is not None
    # The switch is in the action log (so a restart keeps it): her first roll chose "auto", and so
    # did every roll of hers after it, taken by the table.
    hers = [a["choice"] for a in game.actions if a["kind"] == "roll" and a["player"] == seat_of[alice.id]]
    assert hers and set(hers) == {"auto"}
    assert {a["choice"] for a in game.actions if a["kind"] == "roll" and a["player"] == seat_of[bob.id]} == {
        "roll"
    }


def _roll_buttons(world: World) -> list[tuple[int, str]]:
    return [
        (int(found.group(1)), b.custom_id)
        for b in _board_buttons(world)
        if (found := ROLL_ID.match(b.custom_id or ""))
    ]


def _ids(world: World) -> set[str]:
    return {b.custom_id for b in _board_buttons(world)}


async def test_rolls_gone_automatic_stay_automatic_after_a_restart(world: World) -> None:
    """A stored manual game whose two players both missed a roll: back up, the bot rolls for both at
    once, never waiting for the 20 s deadline of a manual roll."""
    engine_settings = {"bank": 60, "fee": 1, "races": 1, "end": "races", "dealer": 0}
    engine = entry("horserace").new_engine(2, 11, engine_settings)
    actions = [Action(None, "next_race", "next_race")]
    engine.apply(actions[0])
    while len(engine.view(None)["auto_rolls"]) < 2:
        decision = engine.pending()[0]
        assert decision.kind == "roll"
        choice = "auto" if decision.player not in engine.view(None)["auto_rolls"] else decision.options[0]
        actions.append(Action(decision.player, "roll", choice))
        engine.apply(actions[-1])
    assert not engine.is_over
    seats = [
        {"name": "alice", "user_id": world.users["alice"].id, "ai": None},
        {"name": "bob", "user_id": world.users["bob"].id, "ai": None},
    ]
    settings = {
        "players": 2, "races": 1, "bank": 60, "fee": 1, "rolls": "manual", "end": "races", "pace": 0.0,
        "host_id": world.users["alice"].id, "engine": engine_settings,
    }  # fmt: skip
    async with await Storage.open(str(world.db)) as storage:
        game_id = await storage.create_game(
            "horserace", world.guild.id, world.channel.id, 11, settings, seats, status="running"
        )
        for seq, action in enumerate(actions):
            await storage.append_action(game_id, seq, action.to_json())
    started = time.monotonic()
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace",))):
        await world.fake.wait_for(lambda: standings(world) is not None, timeout=15)
    assert time.monotonic() - started < FAST.turn_seconds  # no roll was waited for
    text = "\n".join(m.text for m in world.fake.channel_messages(world.channel))
    assert "Time's up" not in text and "From now on" not in text  # already told before the restart
    assert not any(
        ROLL_ID.match(b.custom_id or "")
        for m in world.fake.channel_messages(world.channel)
        for b in m.buttons
    )
