"""Fixtures shared by every test that needs a Discord: a started FakeDiscord, stopped afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.fakediscord import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord on a free local port (no guilds or users yet). Run the bot inside
    ``async with running_bot(fake_discord, bot):`` so the bot stops before the fake does."""
    async with FakeDiscord() as fake:
        yield fake
