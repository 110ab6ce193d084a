"""Adding a file to a message already posted, through the real discord.py client: the edit lists the
files the message keeps (by id) and the new upload with its alt text; the old file stays byte for byte."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import discord
import pytest

from bot.fakediscord import FakeChannel, FakeDiscord, running_bot

PICTURE = b"\x89PNG\r\n\x1a\n" + b"final picture" * 10
REPLAY = b"GIF89a" + b"replay" * 50


class Poster(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())


@pytest.fixture
async def posted(fake_discord: FakeDiscord) -> AsyncIterator[tuple[FakeDiscord, FakeChannel, Poster]]:
    guild = fake_discord.add_guild("Test Server")
    games = guild.add_text_channel("games")
    async with running_bot(fake_discord, Poster()) as bot:
        yield fake_discord, games, bot


def _file(data: bytes, name: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name, description=alt)


async def test_an_edit_adds_a_file_and_keeps_the_one_already_there(posted) -> None:
    fake, games, bot = posted
    channel = bot.get_channel(games.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Race 1 results", file=_file(PICTURE, "final.png", "The finish"))
    edited = await sent.edit(attachments=[*sent.attachments, _file(REPLAY, "replay.gif", "The whole race")])
    kept, added = fake.messages[sent.id].attachments
    assert (kept.filename, kept.data, kept.description) == ("final.png", PICTURE, "The finish")
    assert (added.filename, added.data, added.description) == ("replay.gif", REPLAY, "The whole race")
    assert kept.id == sent.attachments[0].id
    assert [a.filename for a in edited.attachments] == ["final.png", "replay.gif"]
    assert fake.messages[sent.id].content == "Race 1 results"


async def test_an_edit_adds_a_file_to_a_message_that_had_none(posted) -> None:
    fake, games, bot = posted
    channel = bot.get_channel(games.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Race 2 results")
    await sent.edit(attachments=[_file(REPLAY, "replay.gif", "The whole race")])
    (added,) = fake.messages[sent.id].attachments
    assert (added.filename, added.data, added.description) == ("replay.gif", REPLAY, "The whole race")


async def test_editing_a_deleted_message_is_refused_with_not_found(posted) -> None:
    fake, games, bot = posted
    channel = bot.get_channel(games.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Race 3 results")
    await sent.delete()
    with pytest.raises(discord.NotFound):
        await sent.edit(attachments=[_file(REPLAY, "replay.gif", "The whole race")])
