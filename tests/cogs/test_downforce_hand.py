"""A Downforce player's hand in their DMs, as they see it on a phone: a picture of the cards, numbered,
in the prompt's embed; the cards in words once, in the menu they pick from, numbered alike; a short
message around them."""

from __future__ import annotations

import re

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, FakeUser
from tests.cogs.conftest import World
from tests.cogs.downforce_player import MENU_ID
from tests.cogs.test_downforce import open_table

MOST_TEXT = 500
"""A play prompt's words but its menu and its picture: the turn, the six cars' places, the player's cars
(up to five of them in a two-player game) and money; 370 to 480 characters with a 23-card hand, without
powers. The embed listed the cards again before, about 800 characters more."""


def open_menu(messages: list[FakeMessage], kind: str) -> FakeMessage | None:
    for message in reversed(messages):
        for menu in message.selects:
            match = MENU_ID.match(menu.custom_id)
            if match and match.group(3) == kind:
                return message
    return None


def words(message: FakeMessage) -> str:
    """What the message says in words, but its menu and its picture's alt text."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


def assert_hand_picture(message: FakeMessage, cards: int) -> None:
    picture = next(a for a in message.attachments if a.filename == "hand.png")
    assert message.embeds[0]["image"]["url"] == "attachment://hand.png"  # in the embed, not below it
    assert picture.data.startswith(b"\x89PNG")
    assert picture.description is not None
    assert picture.description.startswith(f"Your hand, {cards} cards: 1: ")  # the alt text says the cards


async def test_the_play_prompt_shows_the_hand_as_a_picture_and_its_menu_lists_each_card_once(
    world: World, bot: RaceBot
) -> None:
    _lobby, table = await open_table(world, "bob")
    alice: FakeUser = world.users["alice"]

    # The first bid: the hand's picture, and a menu whose lines name the cards' numbers on it.
    await world.fake.wait_for(lambda: open_menu(world.fake.dm_messages(alice), "bid") is not None, timeout=30)
    bid = open_menu(world.fake.dm_messages(alice), "bid")
    assert bid is not None
    assert_hand_picture(bid, 21)
    labels = bid.selects[0].labels
    assert all(re.match(r"\d+ · bid \d: ", label) for label in labels), labels
    assert sorted(int(label.split(" · ")[0]) for label in labels) == list(range(1, 22))

    for _ in range(400):
        play = open_menu(world.fake.dm_messages(alice), "play")
        if play is not None:
            break
        before = table.signature()
        if not await table.step(set()):
            await world.fake.wait_for(lambda b=before: table.signature() != b, timeout=30)
    else:
        raise AssertionError("alice was never asked to play a card")

    menu = play.selects[0]
    shown = len(menu.labels)
    alt = next(a.description or "" for a in play.attachments if a.filename == "hand.png")
    cards = int(alt.split(" cards:", 1)[0].rsplit(" ", 1)[-1])
    assert cards >= 21  # the hand dealt and each car's Speed-8 card
    # A menu holds 25 cards: a bigger hand (26, with all five Speed-8 cards won) pages its menu.
    assert shown == cards or (shown == 25 and cards > 25), (shown, cards)
    assert_hand_picture(play, cards)
    # The menu lists the hand in its order, numbered as the picture, in words (a colour is never only
    # an emoji): "3 · red 4 · blue 2 · wild 3".
    for number, label in enumerate(menu.labels, start=1):
        assert re.fullmatch(rf"{number} · \w+ \d( · \w+ \d)*", label), label
    # The cards are not listed again in the message: it says whose turn, the places, the player's cars.
    text = words(play)
    for label in menu.labels:
        assert label.split(" · ", 1)[1] not in text
    assert "Your turn" in text and "Your cars" in text
    assert len(text) <= MOST_TEXT, f"{len(text)} characters:\n{text}"
