"""A whole Downforce game in Brazilian Portuguese through the fake Discord: the server and every
player speak pt-BR; the lobby, the secret auctions by DM, the cards, the end spaces and wild colours,
the powers, the secret bets, My hand, /downforce status and rules and the final scores show no English
word (the players' names and the track's name excepted: names stay as they are)."""

from __future__ import annotations

import re

import pytest

from bot.fakediscord import FakeMessage, running_bot, text_of
from bot.i18n import speaking
from bot.tables.seats import AI_NAMES
from tests.cogs.conftest import World, private_answer
from tests.cogs.downforce_player import DownforceTable
from tests.english import english_in, vocabulary

LOBBY = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:lobby:(join|ai)")
TRACK = "Savanna Stretch"  # animals on the track; its name is a name, kept as the Portuguese rules keep it


def portuguese_words() -> dict[str, str]:
    """What the player reads to follow the game, as the bot writes it in Portuguese."""
    from bot.i18n import _

    with speaking("pt-BR"):
        return {
            "final": _("🏆 Final scores").removeprefix("🏆 "),
            "waiting": _("Waiting for"),
            "deadline": _("Deadline"),
            "to play": _("{player} to play", player="{mention}"),
        }


def everything_seen(world: World) -> list[tuple[str, str]]:
    """(where, text) of every message a player could see, every version of it."""
    fake = world.fake
    seen: list[tuple[str, str]] = []

    def add(where: str, messages: list[FakeMessage]) -> None:
        for message in messages:
            seen.append((where, message.text))
            seen.extend((where, text_of(version)) for version in message.edits)

    add("channel", fake.channel_messages(world.channel))
    for name, user in world.users.items():
        add(f"DM to {name}", fake.dm_messages(user))
        add(f"ephemeral to {name}", fake.ephemeral_for(user))
    return seen


@pytest.fixture
def warm_vocabulary() -> None:
    """Read the catalogs before the test's event loop runs (the slash-command strings are read by
    running the bot's command tree, which needs its own loop)."""
    vocabulary()


async def test_a_whole_game_in_portuguese_shows_no_english(world: World, warm_vocabulary: None) -> None:
    fake = world.fake
    world.guild.preferred_locale = "pt-BR"
    for user in world.users.values():
        user.locale = "pt-BR"
    users = world.users
    async with running_bot(fake, world.bot()) as bot:
        ix = await fake.slash(
            users["alice"], world.channel, "downforce start", players=4, pace=0.0, track="savanna-stretch",
            powers="all", betting="odds",
        )  # fmt: skip
        lobby = await ix.reply()
        for name in ("bob", "carol"):
            join = next(
                b for b in lobby.buttons if (m := LOBBY.fullmatch(b.custom_id or "")) and m[1] == "join"
            )
            await (await fake.click(users[name], lobby, join.custom_id or "")).wait_response()
            await fake.wait_for(lambda n=name: users[n].mention in lobby.text, timeout=5)
        add_ai = next(b for b in lobby.buttons if (m := LOBBY.fullmatch(b.custom_id or "")) and m[1] == "ai")
        await (await fake.click(users["alice"], lobby, add_ai.custom_id or "")).wait_response()
        await fake.wait_for(lambda: "(IA)" in lobby.text, timeout=5)
        await (
            await fake.click_button(users["alice"], lobby, "Começar")
        ).wait_response()  # Add AI starts nothing

        table = DownforceTable(
            world, {0: users["alice"], 1: users["bob"], 2: users["carol"]}, words=portuguese_words()
        )
        asked: list[str] = []

        async def ask(step: int) -> None:
            """Now and then a player asks for the status and the rules, as people do mid-game."""
            if step in (5, 60):
                for command in ("downforce status", "downforce rules"):
                    answer = await fake.slash(users["bob"], world.channel, command)
                    asked.append(await private_answer(fake, answer))

        await table.play_to_the_end(dm_less={"carol"}, between=ask)
        rows, total = await bot.storage.leaderboard(world.guild.id, "downforce", None, 0)
        assert total == 3  # the AI's results are not kept

    seen = everything_seen(world)
    public = "\n".join(text for where, text in seen if where == "channel")
    # The game really went through every part of it, in Portuguese.
    assert "Leilão 1 de 6" in public and "Começa a corrida" in public and "Resultado final" in public
    assert "Vem com o poder" in public  # powers came with the cars
    assert table.bets, "nobody bet"
    assert any("Posições:" in (a.description or "") for m in table.channel() for a in m.attachments)
    assert any("Minha mão" in text or "Sua mão" in text for where, text in seen if "carol" in where)
    assert len(asked) == 4 and any("Objetivo" in text for text in asked)
    assert table.clicked, "no end space, wild colour or power was chosen with a button"
    print(f"channel buttons pressed: {sorted(set(table.clicked))}")

    names = ["alice", "bob", "carol", "dave", "mod", TRACK, *AI_NAMES]
    assert len(seen) > 100
    leaks = []
    for where, text in seen + [("private answer", text) for text in asked]:
        found = english_in(text, allowed=names)
        if found:
            leaks.append(f"{where}: {found} in {text!r}")
    assert leaks == [], "\n".join(leaks[:20])
