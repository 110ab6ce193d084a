"""Players' display names are theirs to choose: a game of players called ``@everyone``, ``@here``, ``<@&1234>``
and ``**bold**`` pings nobody but the player whose turn it is, and shows each name as typed."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot
from tests.cogs.conftest import World, join

ROLL_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):\d+:roll:")
NAMES = ("@everyone", "@here", "<@&1234>", "**bold**")


@pytest.fixture
async def bot(world: World) -> AsyncIterator[RaceBot]:
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace", "cogs.stats"))) as running:
        yield running


def standings(world: World) -> FakeMessage | None:
    return next((m for m in world.fake.channel_messages(world.channel) if "Final standings" in m.text), None)


def roll_button(world: World) -> tuple[FakeMessage, str, int] | None:
    for message in reversed(world.fake.channel_messages(world.channel)):
        for button in message.buttons:
            found = ROLL_ID.match(button.custom_id or "")
            if found:
                return message, button.custom_id, int(found.group(1))  # type: ignore[return-value]
    return None


async def test_hostile_names_ping_nobody_but_the_player_on_turn(world: World, bot: RaceBot) -> None:
    fake = world.fake
    role = world.guild.add_role("racers", mentionable=True)
    players = [fake.add_user(name, guild=world.guild, roles=[role]) for name in NAMES]
    lobby = await (
        await fake.slash(players[0], world.channel, "horserace start", races=1, rolls="manual", pace=0.0)
    ).reply()
    for player in players[1:]:
        await join(fake, lobby, player)
    if standings(world) is None and not roll_button(world):
        await (await fake.click_button(players[0], lobby, "Start")).wait_response()
    by_seat = {}
    for _ in range(400):
        await fake.wait_for(
            lambda: standings(world) is not None or roll_button(world) is not None, timeout=10
        )
        if standings(world) is not None:
            break
        found = roll_button(world)
        if found is None:
            continue
        message, custom_id, seat = found
        table = bot.tables.in_channel(world.channel.id)
        assert table is not None
        by_seat[seat] = next(p for p in players if p.id == table.seats[seat].user_id)
        ix = await fake.click(by_seat[seat], message, custom_id)
        await ix.wait_response()
        await fake.wait_for(
            lambda before=found: roll_button(world) != before or standings(world) is not None, timeout=10
        )
    assert standings(world) is not None
    ids = {p.id for p in players}
    pinged: set[int] = set()
    messages = fake.channel_messages(world.channel)
    for message in messages:
        pings = fake.pings(message, permissions=False)  # as if the bot could mention everyone
        assert not pings.everyone and not pings.here and not pings.roles, message.text
        assert pings.users <= ids, message.text
    # Who each new message notified when it was made (an edit notifies nobody): only players on turn,
    # by the board's first version (the first roller) and by DM (each roll after it).
    for said in fake.conversation.said:
        assert said.notified <= ids, said.message.text
        first = said.message.edits[0] if said.message.edits else said.message
        if said.notified and said.message.channel.recipient is None:
            assert re.search(r"to roll", first.content), first.content  # only the prompt pings
        pinged |= said.notified
    assert pinged  # the player on turn was pinged
    # As markdown renders (an image's alt text is plain text, not markdown).
    everything = "\n".join(f"{m.content}\n{m.embeds}" for m in messages)
    assert "\\*\\*bold\\*\\*" in everything.replace("\\\\", "\\")
    assert "**bold**" not in everything.replace("\\*\\*bold\\*\\*", "")

    # The game was rated (four people): its rating board shows the names as typed and pings nobody.
    board = await (
        await fake.slash(players[0], world.channel, "leaderboard", game="horserace", by="rating")
    ).reply()
    assert board.embeds[0]["footer"]["text"] == "page 1 of 1 · 4 players"
    pings = fake.pings(board, permissions=False)
    assert not pings.everyone and not pings.here and not pings.roles and not pings.users
    assert "\\*\\*bold\\*\\*" in board.embeds[0]["description"].replace("\\\\", "\\")
    card = await (await fake.slash(players[1], world.channel, "stats")).reply()
    assert "Rating **" in card.text and not fake.pings(card, permissions=False).everyone
