"""Hot Streak for a Brazilian server: a whole game, and everything the players read is Portuguese.

The server's Discord locale is pt-BR and so is every player's client. Players use everything a game
offers: the betting buttons, the DMs (hand, secret pick), **My hand** for a player whose DMs are
closed, the **Odds** button, ``/hotstreak rules`` and ``status``. Every channel message (each of
its versions), DM and private answer is checked for English (``tests/english.py``): only the
players', the AI's and the mascots' names may be.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot, text_of
from bot.fakediscord.screenshot import render_messages
from bot.i18n import _, speaking
from tests.cogs.conftest import World, private_answer
from tests.cogs.hotstreak_player import HotStreakTable
from tests.cogs.test_screenshots import WIDTH, names_of, save
from tests.english import english_in, vocabulary

MASCOTS = ("Gobbler", "Hurley", "Dangle", "Mum")
LOBBY = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:lobby:(join|ai|start)")


@pytest.fixture
async def brazil(world: World) -> AsyncIterator[RaceBot]:
    """The bot on a server whose Discord speaks Portuguese, with players who do too."""
    world.guild.preferred_locale = "pt-BR"
    for user in world.users.values():
        user.locale = "pt-BR"
    async with running_bot(world.fake, world.bot()) as bot:
        yield bot


def lobby_button(lobby: FakeMessage, op: str) -> str:
    """A lobby button by what it does (its label is in the server's language)."""
    return next(
        b.custom_id or "" for b in lobby.buttons if (m := LOBBY.search(b.custom_id or "")) and m[1] == op
    )


def every_version(messages: list[FakeMessage]) -> list[str]:
    return [text for m in messages for text in (*(text_of(v) for v in m.edits), m.text)]


async def test_a_whole_game_in_portuguese_shows_no_english(
    world: World, brazil: RaceBot, tmp_path: Path
) -> None:
    fake, users = world.fake, world.users
    alice, carol = users["alice"], users["carol"]  # carol's DMs are closed: she plays through My hand
    lobby = await (await fake.slash(alice, world.channel, "hotstreak start", pace=0.0)).reply()
    await (await fake.click(carol, lobby, lobby_button(lobby, "join"))).wait_response()
    await fake.wait_for(lambda: carol.mention in lobby.text, timeout=5)
    await (await fake.click(alice, lobby, lobby_button(lobby, "ai"))).wait_response()
    await fake.wait_for(lambda: "(AI" in lobby.text or "(IA" in lobby.text, timeout=5)
    # The lobby's kick menu lists the AI seat in the reader's language.
    assert any(label == "Ada (IA)" for menu in lobby.selects for label in menu.labels)
    with speaking("pt-BR"):
        words = {
            "prompts": (_("secret picks"), _("Race 3 — pick your double")),
            "waiting": (_("Waiting for"), _("Deadline")),
            "final": _("🏁 Final standings").lstrip("🏁 "),
        }
    table = HotStreakTable(world, {0: alice, 1: carol}, **words)
    await (await fake.click(alice, lobby, lobby_button(lobby, "start"))).wait_response()

    # While the first bets are taken: the odds, a look at the hand, the rules and the status.
    await fake.wait_for(lambda: bool(table.bet_buttons()), timeout=10)
    betting = table.bet_buttons()[-1][0]
    odds_id = next(b.custom_id or "" for b in betting.buttons if (b.custom_id or "").endswith(":ask:odds"))
    asked = await fake.click(carol, betting, odds_id)
    await fake.wait_for(lambda: "%" in text_of([m for m in asked.messages if m.ephemeral]), timeout=30)
    hand_id = next(b.custom_id or "" for b in betting.buttons if (b.custom_id or "").endswith(":hand"))
    await private_answer(fake, await fake.click(carol, betting, hand_id))
    rules = await (await fake.slash(users["dave"], world.channel, "hotstreak rules")).reply()
    status = await (await fake.slash(users["dave"], world.channel, "hotstreak status")).reply()
    assert "Hot Streak" in rules.text + status.text

    await table.play_to_the_end(dm_less={"carol"})
    assert fake.dm_messages(carol) == [] and fake.dm_messages(alice)
    assert any(m.selects for m in fake.ephemeral_for(carol))  # her secret picks, through My hand

    channel = fake.channel_messages(world.channel)
    frames = [m for m in channel if m.attachments and m.attachments[0].filename.startswith("race")]
    assert frames and all(a.description for m in frames for a in m.attachments)  # alt text, checked below
    # The Portuguese screenshots (docs/languages.md; written to docs/screenshots/ with
    # UPDATE_SCREENSHOTS=1, like the English ones), drawn as a Brazilian Discord client shows them.
    every = [(m, v) for m in channel for v in (*m.edits, m.snapshot())]

    def draw(shown: list, name: str, viewer: str | None = None) -> None:  # type: ignore[type-arg]
        png = render_messages(
            shown,
            names=names_of(world),
            viewer_name=viewer,
            width=WIDTH,
            title="# jogos",
            emojis=fake.application_emojis,
            language="pt-BR",  # Discord's own words ("Hoje às", "em 19 segundos"), as a Brazilian client shows them
        )
        assert save(png, name, tmp_path).height > 200

    # The first betting prompt, as its player sees it (mentioned, so highlighted).
    prompt = next(
        (m, v)
        for m, v in every
        if any(
            b.get("custom_id", "").endswith(":ask:odds")
            for row in v.components
            for b in row.get("components", [])
        )
    )
    draw(
        [prompt],
        "hotstreak-pt-BR-betting.png",
        viewer=alice.name if alice.mention in text_of(prompt[1]) else carol.name,
    )
    # A look of race 1's live message from the middle of the race, with its picture.
    moving = [
        (m, v)
        for m, v in every
        if any(a.filename.startswith("race1-") for a in v.attachments) and "corre da casa" in v.content
    ]
    assert moving
    draw([moving[len(moving) // 2]], "hotstreak-pt-BR.png")
    draw([next(m for m in channel if "Resultado da corrida 1" in m.text)], "hotstreak-pt-BR-results.png")
    draw([next(m for m in channel if words["final"] in m.text)], "hotstreak-pt-BR-standings.png")

    seen: dict[str, list[str]] = {"channel": every_version(channel)}
    for user in (alice, carol, users["dave"]):
        seen[f"{user.name}'s DMs"] = every_version(fake.dm_messages(user))
        seen[f"{user.name}'s private answers"] = every_version(fake.ephemeral_for(user))
    await asyncio.to_thread(vocabulary)  # built once, outside the event loop (it reads the commands)
    allowed = [*MASCOTS, "Hot Streak", "Ada", *(u.name for u in users.values())]
    leaks = {
        where: [(english_in(text, allowed), text) for text in texts if english_in(text, allowed)]
        for where, texts in seen.items()
    }
    assert not any(leaks.values()), leaks
    # And it is Portuguese: the words a player meets at every step.
    everything = "\n".join(text for texts in seen.values() for text in texts)
    for word in ("Corrida", "Aposta paralela", "Classificação final", "Sua mão", "Chances", "Objetivo"):
        assert word in everything, word
