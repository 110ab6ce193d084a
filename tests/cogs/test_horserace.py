"""The Horse Race Game through the fake Discord: lobby, manual and auto rolls, one live board."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator

import pytest

from bot.client import RaceBot
from bot.tables import clock
from tests.cogs.conftest import World, join, private_answer
from tests.fakediscord import FakeMessage, running_bot

ROLL_ID = re.compile(r"g:\d+:d:(\d+):\d+:roll:")


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
    lobby = await open_lobby(world, races=2, rolls="auto", pace=0.0)
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
