"""The Horse Race board's **Cards held** button: the board has room only for seat-number chips, so whoever
presses it (a player or someone watching: the cards are dealt face up) is shown, privately, the detailed
picture of who holds which cards; nothing in the channel changes."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, text_of
from bot.games.base import Action
from bot.games.catalog import entry
from bot.games.horserace.game import HorseRace
from bot.i18n import speaking
from bot.tables.view import TableView, sitters
from cogs.horserace.present import HorseRacePresenter
from tests.cogs.conftest import World, join, until_quiet
from tests.cogs.test_horserace import bot, open_lobby

__all__ = ["bot"]  # the horse-race-only bot fixture

CARDS = "Cards held"
ROLL_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):\d+:roll:")


def boards(world: World) -> list[FakeMessage]:
    """Each race's live board, oldest first."""
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ]


def roll_buttons(world: World) -> list[str]:
    found = boards(world)
    return [b.custom_id or "" for b in found[-1].buttons if ROLL_ID.match(b.custom_id or "")] if found else []


def cards_id(message: FakeMessage | Any) -> str | None:
    """The Cards held button's id on a message (or an earlier version of it), if it has one."""
    return next(
        (
            str(c.get("custom_id"))
            for row in message.components
            for c in row.get("components", [row])
            if c.get("label") == CARDS
        ),
        None,
    )


async def start_by_hand(world: World, races: int) -> None:
    """alice and bob, rolling by hand: the board waits for a press, so it holds still while asked."""
    lobby = await open_lobby(world, races=races, rolls="manual", pace=0.0)
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()


async def roll_until(world: World, bot: RaceBot, done: Callable[[], bool]) -> None:
    """The seat on turn presses Roll, and waits to see the board move on, until ``done()``."""
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    users = {user.id: user for user in world.users.values()}
    seats = {n: users[seat.user_id] for n, seat in enumerate(table.seats) if seat.user_id is not None}
    for _ in range(600):
        await world.fake.wait_for(lambda: done() or bool(roll_buttons(world)), timeout=20, what="a Roll")
        if done():
            return
        pressed = roll_buttons(world)[0]
        seat = int(ROLL_ID.match(pressed).group(1))  # type: ignore[union-attr]
        await (await world.fake.click(seats[seat], boards(world)[-1], pressed)).wait_response()
        await world.fake.wait_for(
            lambda pressed=pressed: done() or pressed not in roll_buttons(world),
            timeout=20,
            what="the board after a roll",
        )
    raise AssertionError("the game never got there")


async def cards_answer(world: World, user_name: str, board: FakeMessage, custom_id: str) -> FakeMessage:
    ix = await world.fake.click(world.users[user_name], board, custom_id)
    await world.fake.wait_for(
        lambda: any(m.ephemeral and not m.loading for m in ix.messages), timeout=20, what="the answer"
    )
    (answer,) = [m for m in ix.messages if m.ephemeral]
    return answer


async def test_a_player_and_a_watcher_each_see_who_holds_which_cards_privately_mid_race(
    world: World, bot: RaceBot
) -> None:
    await start_by_hand(world, races=1)
    await roll_until(world, bot, lambda: bool(boards(world)) and "They're off" in boards(world)[-1].content)
    (board,) = boards(world)
    await until_quiet(board)  # its picture lands by an edit after its text: read it as it stays
    custom_id = cards_id(board)
    assert custom_id is not None and custom_id.endswith(":ask:cards_1")
    channel = world.fake.channel_messages(world.channel)
    looked = (text_of(board), len(board.edits), [a.id for a in board.attachments])
    for name in ("alice", "dave"):  # a player, and someone only watching
        answer = await cards_answer(world, name, board, custom_id)
        (picture,) = answer.attachments
        assert picture.filename == "cards-race1.png"
        assert "Who holds which cards in race 1" in answer.content
        alt = picture.description or ""
        assert alt.startswith("Cards held, Race 1 of 1.") and "alice: " in alt and "bob: " in alt
        assert "x horse " in alt
        with Image.open(io.BytesIO(picture.data)) as image:
            assert image.format == "PNG"
            assert image.width == 800 and image.height <= 0.75 * image.width  # two rows: 178 px
    # Nothing public changed: no new message, the board neither edited nor redrawn.
    assert world.fake.channel_messages(world.channel) == channel
    assert (text_of(board), len(board.edits), [a.id for a in board.attachments]) == looked
    talk = world.fake.conversation.summary(world.channel)
    assert talk.acks["ask:cards_1"] == 2  # the two answers, only to the two who asked


async def test_the_button_of_an_earlier_race_says_that_race_is_over_and_shows_the_one_running(
    world: World, bot: RaceBot
) -> None:
    await start_by_hand(world, races=2)
    await roll_until(world, bot, lambda: len(boards(world)) == 2)
    first, second = boards(world)
    assert cards_id(first) is None  # race 1's board lost its buttons when race 2 began
    assert (cards_id(second) or "").endswith(":ask:cards_2")
    # A client that still shows race 1's board with its button (the edit that took it away has not
    # reached it yet), as when someone presses just as the race changes.
    shown = next(version for version in reversed(first.edits) if cards_id(version) is not None)
    custom_id = cards_id(shown)
    assert custom_id is not None
    first.components = shown.components
    answer = await cards_answer(world, "dave", first, custom_id)
    assert answer.content.startswith("🃏 Race 1 is over. Who holds which cards now, in race 2")
    (picture,) = answer.attachments
    assert picture.filename == "cards-race2.png"
    assert (picture.description or "").startswith("Cards held, Race 2 of 2")


async def test_the_last_board_has_no_button_once_the_game_is_over(world: World, bot: RaceBot) -> None:
    def over() -> bool:
        return any("Final standings" in m.text for m in world.fake.channel_messages(world.channel))

    await start_by_hand(world, races=1)
    await roll_until(world, bot, over)
    (board,) = boards(world)
    # (The board is edited after the standings are out.)
    await world.fake.wait_for(
        lambda: cards_id(board) is None, timeout=10, what="the board without its button"
    )
    assert any(cards_id(version) for version in board.edits)  # it had one while the race was run


# --- what the button answers when there is no picture to show ----------------------------------


def view_of(game: HorseRace) -> TableView:
    return TableView(
        game_id=1,
        audience=None,
        seq=1,
        pace=0.0,
        deadline=None,
        settled=False,
        settings={},
        seats=sitters(tuple((name, None, None) for name in ("Ann", "Bob")), "en"),
        acted=(0, 0),
        waiting=(),
        deciders=(),
        decisions=(),
        read_state=lambda: game.view(None),
    )


async def test_before_the_deal_and_after_the_game_the_answer_is_a_sentence_not_an_empty_picture() -> None:
    presenter = HorseRacePresenter(entry("horserace"))
    game = HorseRace.new(2, seed=1, settings={"races": 1})
    with speaking("en"):
        before = await presenter.answer(view_of(game), None, "cards_1")
        while not game.is_over:
            decision = game.pending()[0]
            game.apply(Action(decision.player, decision.kind, decision.options[0]))
        after = await presenter.answer(view_of(game), 0, "cards_1")
        other = await presenter.answer(view_of(game), 0, "odds")
    assert before is not None and before.image is None
    assert before.content == "🃏 No cards are dealt yet: they are dealt face up when race 1 starts."
    assert after is not None and after.image is None and "The game is over" in after.content
    assert other is None  # not a question the board asks


async def test_between_races_the_finished_board_shows_the_cards_as_they_stood_at_the_finish() -> None:
    presenter = HorseRacePresenter(entry("horserace"))
    game = HorseRace.new(2, seed=1, settings={"races": 2})
    while game.view(None)["phase"] != "between" or not game.view(None)["race"]:
        decision = game.pending()[0]
        game.apply(Action(decision.player, decision.kind, decision.options[0]))
    winner = game.view(None)["winner"]
    with speaking("en"):
        answer = await presenter.answer(view_of(game), None, "cards_1")
    assert answer is not None and answer.image is not None
    assert answer.content == f"🃏 Who held which cards in race 1, won by horse {winner}:"
    assert answer.alt.startswith("Cards held, Race 1 of 2. Ann: ")
