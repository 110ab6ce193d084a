"""``/help``, ``/invite`` and ``/privacy show|erase`` as a member sees them: private answers on the real
client and the fake Discord, and an erasure on the bot's real SQLite file."""

from __future__ import annotations

import asyncio
import urllib.parse
from pathlib import Path

from bot.client import PERMISSIONS, RaceBot
from bot.discord_io.permissions import NEEDED
from bot.fakediscord import FakeInteraction, FakeMessage, text_of
from bot.games.catalog import ENTRIES
from bot.storage import PlayerResult
from cogs import about
from tests.cogs.conftest import World


async def private(ix: FakeInteraction) -> FakeMessage:
    await ix._fake.wait_for(lambda: any(m.ephemeral and not m.loading for m in ix.messages), what="an answer")
    assert all(m.ephemeral for m in ix.messages)
    return [m for m in ix.messages if m.ephemeral][-1]


async def test_help_lists_every_command_and_each_game_with_its_rules(world: World, bot: RaceBot) -> None:
    shown = text_of([await private(await world.fake.slash(world.users["alice"], world.channel, "help"))])
    for command in bot.tree.get_commands():
        subs = getattr(command, "commands", None)
        for name in [f"/{command.name} {s.name}" for s in subs] if subs else [f"/{command.name}"]:
            assert f"`{name}` — " in shown, name
    assert "`/privacy erase` — " in shown and "`/help` — " in shown
    for game in ENTRIES:
        assert game.summary.split("\n")[1] in shown and f"`/{game.command} rules`" in shown


async def test_invite_gives_the_link_with_exactly_the_needed_permissions_and_why(
    world: World, bot: RaceBot
) -> None:
    answer = await private(await world.fake.slash(world.users["alice"], world.channel, "invite"))
    shown = text_of([answer])
    for needed in NEEDED:
        assert f"**{needed.name}**" in shown and " ".join(needed.why.split()) in " ".join(shown.split())
    url = answer.embeds[0]["url"]
    query = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
    assert query["permissions"] == [str(PERMISSIONS.value)]
    assert query["client_id"] == [str(bot.application_id)]


async def test_privacy_show_states_each_kind_of_data_and_its_retention(world: World, bot: RaceBot) -> None:
    shown = text_of(
        [await private(await world.fake.slash(world.users["alice"], world.channel, "privacy show"))]
    )
    for words in (
        "**Results**",
        "**Games**",
        "15 minutes",
        "in memory only",
        "`/privacy erase`",
        "PRIVACY.md",
    ):
        assert words in shown


async def settle(bot: RaceBot, world: World, host: int) -> int:
    alice, bob = world.users["alice"].id, world.users["bob"].id
    seats = [{"user_id": alice, "name": "alice", "ai": None}, {"user_id": bob, "name": "bob", "ai": None}]
    game_id = await bot.storage.create_game(
        "hotstreak", world.guild.id, world.channel.id, 1, {"host_id": host}, seats
    )
    results = [
        PlayerResult(seat=0, user_id=alice, name="alice", cash=15, net=5, place=1, won=True, stakes=[]),
        PlayerResult(seat=1, user_id=bob, name="bob", cash=7, net=-3, place=2, won=False, stakes=[]),
    ]
    assert await bot.storage.finish_game(game_id, results)
    return game_id


async def test_privacy_erase_asks_first_then_keeps_the_results_under_a_pseudonym(
    world: World, bot: RaceBot
) -> None:
    alice = world.users["alice"]
    game_id = await settle(bot, world, alice.id)
    question = await private(await world.fake.slash(alice, world.channel, "privacy erase"))
    assert "cannot be undone" in question.text
    cancel = await world.fake.click_button(alice, question, "Cancel")
    await world.fake.wait_for(lambda: "Nothing was erased." in question.text, what="the cancel")
    await asyncio.sleep(0.1)  # a second answer (the tables' catch-all) would come now
    assert [c.accepted for c in cancel.callbacks] == [True]
    assert not question.buttons
    assert [r.user_id for r in await bot.storage.game_results(game_id)] == [alice.id, world.users["bob"].id]

    question = await private(await world.fake.slash(alice, world.channel, "privacy erase"))
    confirm = await world.fake.click_button(alice, question, "Erase my data")
    await world.fake.wait_for(lambda: "Done." in question.text, what="the erasure")
    assert [c.accepted for c in confirm.callbacks] == [True]
    results = await bot.storage.game_results(game_id)
    assert results[0].user_id is not None and results[0].user_id < 0
    assert f"**{results[0].name}**" in question.text and results[0].name.startswith("Erased player ")
    assert (results[1].user_id, results[1].name) == (world.users["bob"].id, "bob")
    game = await bot.storage.load_game(game_id)
    assert game is not None and str(alice.id) not in repr((game.seats, game.settings, game.meta))


async def test_privacy_erase_is_refused_at_an_open_table(world: World, bot: RaceBot) -> None:
    alice = world.users["alice"]
    game_id = await settle(bot, world, alice.id)
    seats = [{"user_id": alice.id, "name": "alice", "ai": None}]
    await bot.storage.create_game("hotstreak", world.guild.id, world.channel.id, 2, {}, seats, status="lobby")
    answer = await private(await world.fake.slash(alice, world.channel, "privacy erase"))
    assert "still open" in answer.text and not answer.buttons
    assert (await bot.storage.game_results(game_id))[0].user_id == alice.id


async def test_a_portuguese_member_reads_help_invite_and_privacy_in_portuguese(
    world: World, bot: RaceBot
) -> None:
    alice = world.users["alice"]
    alice.locale = "pt-BR"
    shown = text_of([await private(await world.fake.slash(alice, world.channel, "help"))])
    assert "Comandos" in shown and "`/ajuda` — Todos os comandos" in shown
    assert (
        "`/privacidade apagar` — " in shown
        and "`/hotstreak regras`" in shown
        or "Regras: `/hotstreak" in shown
    )
    shown = text_of([await private(await world.fake.slash(alice, world.channel, "invite"))])
    assert "**Ver canal** — para ver o canal" in shown and "[Link de convite](" in shown
    question = await private(await world.fake.slash(alice, world.channel, "privacy erase"))
    assert "Não dá para desfazer" in question.text
    assert [b.label for b in question.buttons] == ["Apagar meus dados", "Cancelar"]


def test_the_policy_and_the_terms_are_in_the_repository_and_linked() -> None:
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "[PRIVACY.md](PRIVACY.md)" in readme and "[TERMS.md](TERMS.md)" in readme
    assert len(readme.splitlines()) <= 200
    policy = " ".join((root / "PRIVACY.md").read_text(encoding="utf-8").split())
    for words in (
        "`/privacy erase`",
        "15 minutes",
        "never written down",
        "pseudonym",
        "until you erase them",
    ):
        assert words in policy
    assert (root / "TERMS.md").is_file()
    assert "[PRIVACY.md](https://example.org/bot/PRIVACY.md)" in about._files("https://example.org/bot")
    assert "[TERMS.md](https://example.org/bot/TERMS.md)" in about._files("https://example.org/bot")
