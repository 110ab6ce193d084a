"""A game's message edited again while its last edit still waits for the channel: one request, the
latest look (a betting prompt edited after every pick must not fall seconds behind the picks)."""

from __future__ import annotations

import asyncio

import discord

from bot.discord_io import place as places
from bot.discord_io.pacer import ChannelPacer
from bot.discord_io.place import Place, Wires
from bot.fakediscord import FakeDiscord, running_bot
from bot.tables.timing import Timing


async def test_edits_waiting_for_the_channel_join_into_one_showing_the_latest_look() -> None:
    async with FakeDiscord(rate_limit=(1, 0.4)) as fake:
        games = fake.add_guild("G").add_text_channel("games")
        async with running_bot(fake, discord.Client(intents=discord.Intents.default())) as client:
            channel = client.get_channel(games.id)
            assert isinstance(channel, discord.TextChannel)
            prompt = await channel.send("Race 1: alice to bet")
            place = Place(Wires(client, ChannelPacer(1, 0.4), None, Timing()), game_id=1, channel_id=games.id)
            merged = places.figures["edits_merged"]

            first = asyncio.create_task(place.edit(prompt, content="Race 1: bob to bet"))
            await asyncio.sleep(0.05)  # sent: the channel's one edit in this window
            waiting = [
                asyncio.create_task(place.edit(prompt, content=f"Race 1: pick {n}")) for n in (2, 3, 4)
            ]
            await asyncio.sleep(0)
            last = asyncio.create_task(place.edit(prompt, embed=discord.Embed(title="Tickets")))
            await asyncio.gather(first, *waiting, last)  # every caller returns once its look is shown

        edits = [r for r in fake.requests if r.method == "PATCH" and str(prompt.id) in r.path]
        assert len(edits) == 2  # the first, then the four that waited as one
        shown = fake.channel_messages(games)[0]
        assert shown.content == "Race 1: pick 4" and shown.embeds[0]["title"] == "Tickets"
        assert places.figures["edits_merged"] - merged == 3
        assert fake.rate_limit_violations == []


async def test_a_picture_that_does_not_go_through_the_outbox_is_drawn_off_the_event_loop() -> None:
    """A message the outbox cannot take (here: a picture with a decision's view) has its picture drawn
    before it is sent, in a worker (a thread when there are no worker processes), never on the loop."""
    import threading

    from bot.discord_io.outgoing import Outgoing

    drawn_on: list[str] = []

    def render() -> bytes:
        drawn_on.append(threading.current_thread().name)
        return b"\x89PNG\r\n\x1a\n"

    async with FakeDiscord() as fake:
        games = fake.add_guild("G").add_text_channel("games")
        async with running_bot(fake, discord.Client(intents=discord.Intents.default())) as client:
            place = Place(Wires(client, ChannelPacer(5, 5.0), None, Timing()), game_id=1, channel_id=games.id)
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Pick", custom_id="x"))
            await place.send(Outgoing(content="Pick a card", render=render, image_name="hand.png", view=view))
        assert drawn_on and drawn_on[0] != threading.main_thread().name
        shown = fake.channel_messages(games)[0]
        assert [a.filename for a in shown.attachments] == ["hand.png"]
