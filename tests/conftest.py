"""Fixtures shared by every test that needs a Discord: a started FakeDiscord, stopped afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.fakediscord import FakeDiscord
from bot.games import base
from bot.tables import ledger


@pytest.fixture(autouse=True)
def views_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader (a presenter, the prompts) that changes a table's shared view fails the test
    (``bot.tables.ledger.Ledger.view``)."""
    monkeypatch.setattr(ledger, "CHECK_VIEWS", True)
    monkeypatch.setattr(base, "CHECK_COPIES", True)  # and a part shared between views (Game.kept_copy)


@pytest.fixture(autouse=True)
def no_season_check(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's season check (cogs/seasons.py) posts a recap of a past season that had games; most tests
    store games dated in the past (their clocks start in January 2026), so it runs only where tested."""
    if "seasons" not in request.node.path.name:
        monkeypatch.setattr("bot.seasons.CHECKING", False)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord on a free local port (no guilds or users yet). Run the bot inside
    ``async with running_bot(fake_discord, bot):`` so the bot stops before the fake does."""
    async with FakeDiscord() as fake:
        yield fake
