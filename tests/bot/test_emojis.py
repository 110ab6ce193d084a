"""The pieces' application emojis through the fake Discord: uploaded once, reused after a restart, Unicode when refused."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot import emojis
from bot.client import PERMISSIONS, RaceBot
from bot.config import Settings
from bot.fakediscord import FakeDiscord, running_bot
from bot.games.hotstreak.symbols import emoji_name, symbols
from bot.tables.components import Choice, Controls, add_controls
from cogs.hotstreak.words import cards_label


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        fake.add_guild("Test Server", bot_permissions=PERMISSIONS.value)
        yield fake


def bot(fake: FakeDiscord, tmp_path: Path) -> RaceBot:
    return RaceBot(Settings(token=fake.token, database_url=str(tmp_path / "bot.db")), extensions=())


def too_big() -> bytes:
    out = io.BytesIO()
    Image.frombytes("RGB", (400, 400), random.Random(1).randbytes(400 * 400 * 3)).save(out, format="PNG")
    return out.getvalue()


async def installed(running: RaceBot) -> None:
    await running._emoji_task  # noqa: SLF001 - the test waits for the start's upload to finish


async def test_the_pieces_are_uploaded_once_and_a_restart_reuses_them(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running_bot(fake, bot(fake, tmp_path)) as running:
        await installed(running)
    names = sorted(e.name for e in fake.application_emojis.values())
    assert names == sorted(emojis.wanted())
    ids = {e.id for e in fake.application_emojis.values()}
    async with running_bot(fake, bot(fake, tmp_path)) as running:
        await installed(running)
        gobbler = next(e for e in fake.application_emojis.values() if e.name == emoji_name("gobbler"))
        assert emojis.text(emoji_name("gobbler"), "?") == f"<:{gobbler.name}:{gobbler.id}>"
    assert {e.id for e in fake.application_emojis.values()} == ids  # nothing uploaded twice


async def test_an_emoji_discord_refuses_falls_back_to_unicode(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(fake, bot(fake, tmp_path)) as running:
        await running._emoji_task  # noqa: SLF001
        fake.application_emojis.clear()
        pieces = {emoji_name("mum"): too_big}  # Discord refuses an emoji image over 256 KiB
        assert await emojis.install(running, pieces) == 0
        mum = symbols()["mum"]
        assert emojis.text(emoji_name("mum"), mum.unicode) == mum.unicode


async def test_a_label_discord_shows_as_plain_text_has_the_unicode_symbol_not_the_emojis_markup(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Seen in the playground: a secret pick's menu read "<:hs_dangle:1579…> Dangle recover 3". Button and
    menu labels are plain text on Discord: an application emoji there is its Unicode symbol."""
    async with running_bot(fake, bot(fake, tmp_path)) as running:
        await installed(running)
        label = cards_label(["dangle recover 3", "hurley fall"])
        assert label.count("<:") == 2  # in a message, the application emojis
        view = discord.ui.View()
        menu = Controls(0, "submit", (Choice(0, label),), menu=True, placeholder=label)
        add_controls(view, 1, 0, menu)
        add_controls(view, 1, 0, Controls(0, "bet", (Choice(1, label),)))
        dangle, hurley = symbols()["dangle"].unicode, symbols()["hurley"].unicode
        shown = f"{dangle} Dangle recover 3 + {hurley} Hurley fall"
        select, button = (child.item for child in view.children)  # type: ignore[attr-defined]
        assert select.options[0].label == shown and select.placeholder == shown
        assert button.label == shown
