"""The bot in Brazilian Portuguese: Discord shows its commands in the member's language, a server set to
Portuguese gets Portuguese public messages whatever its Discord locale, and each member's private
answers stay in their own language. Hot Streak's lobby stands in for any game (the games' own words
are checked by each game's tests)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, FakeUser, running_bot, text_of
from bot.storage import PlayerResult, Storage
from bot.tables.presenter import Presenter
from tests.cogs.conftest import World, private_answer
from tests.english import english_in


@pytest.fixture(autouse=True)
def shared_lobby_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby's game-specific lines are the game's words (its helper's tests check them): here the
    lobby shows the shared default lines only."""
    from bot.games.catalog import entry

    # The class the tables use (discord.py drops an extension's modules when it unloads one, so an
    # import here could find a newer copy of the module than the catalog's).
    monkeypatch.setattr(entry("hotstreak").presenter_class(), "lobby_fields", Presenter.lobby_fields)


def all_commands(bot_commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every command, subcommand and option of the synced payloads."""
    found: list[dict[str, Any]] = []
    todo = list(bot_commands)
    while todo:
        item = todo.pop()
        found.append(item)
        todo.extend(item.get("options") or [])
    return found


async def test_the_registered_commands_carry_portuguese_names_and_descriptions(
    world: World, bot: RaceBot
) -> None:
    synced = world.fake.global_commands
    by_name = {c["name"]: c for c in synced}
    assert {"hotstreak", "config", "leaderboard", "stats", "history"} <= set(by_name)
    shared = [by_name[n] for n in ("config", "leaderboard", "stats", "history")]
    for item in all_commands(shared):
        # A name the same in both ("config", "status") needs no localization: Discord shows it as is.
        assert item.get("description_localizations", {}).get("pt-BR"), item["name"]
    localized = {
        item["name"]: item.get("name_localizations", {}).get("pt-BR") for item in all_commands(shared)
    }
    assert localized["leaderboard"] == "ranking" and localized["history"] == "historico"
    assert localized["period"] == "periodo" and localized["value"] == "valor"
    names = {o["name"]: o for o in by_name["config"]["options"]}
    assert names["set"]["name_localizations"]["pt-BR"] == "definir"
    assert names["set"]["description_localizations"]["pt-BR"] == "Muda uma configuração do servidor"
    game = {o["name"]: o for o in by_name["hotstreak"]["options"]}
    shown = [
        game[n].get("name_localizations", {}).get("pt-BR", n) for n in ("rules", "status", "cancel", "leave")
    ]
    assert shown == ["regras", "status", "cancelar", "sair"]
    where = next(o for o in game["start"]["options"] if o["name"] == "where")
    assert [c["name_localizations"]["pt-BR"] for c in where["choices"]] == [
        "num tópico só dela",
        "neste canal",
    ]


async def join(world: World, lobby: FakeMessage, user: FakeUser) -> None:
    """``user`` presses Entrar (Join) and waits to see their name in the lobby."""
    await (await world.fake.click_button(user, lobby, "Entrar")).wait_response()
    await world.fake.wait_for(lambda: user.mention in lobby.text, timeout=5, what=f"{user.name} in the lobby")


async def private(ix: Any) -> str:
    answer = await ix.reply()
    assert answer.ephemeral
    return answer.text


async def open_lobby(world: World, host: FakeUser, channel: Any = None) -> FakeMessage:
    lobby = await (await world.fake.slash(host, channel or world.channel, "hotstreak start")).reply()
    assert not lobby.ephemeral
    return lobby


async def test_a_server_set_to_portuguese_gets_portuguese_in_public_and_each_member_their_own_in_private(
    world: World, bot: RaceBot
) -> None:
    assert world.guild.preferred_locale == "en-US"
    mod, alice, bob = world.users["mod"], world.users["alice"], world.users["bob"]
    bob.locale = "pt-BR"
    ix = await world.fake.slash(mod, world.channel, "config set", setting="language", value="pt-br")
    assert "`language` is now **pt-br**" in await private(ix)  # the admin's own language: English
    lobby = await open_lobby(world, alice)
    assert "Hot Streak — sala de espera" in lobby.text and "Entrar" in lobby.text
    assert english_in(text_of(lobby), allowed=["alice", "Hot Streak"]) == [], text_of(lobby)
    # alice's client is in English: her private answers are too; bob's are in Portuguese.
    again = await world.fake.click_button(alice, lobby, "Entrar")
    assert await private_answer(world.fake, again) == "You're already in this game."
    await join(world, lobby, bob)  # the lobby edited on bob's click speaks the server's language
    assert (
        "Lugares" in lobby.text and english_in(text_of(lobby), allowed=["alice", "bob", "Hot Streak"]) == []
    )
    again = await world.fake.click_button(bob, lobby, "Entrar")
    assert await private_answer(world.fake, again) == "Você já está nesta partida."
    cancel = await world.fake.click_button(bob, lobby, "Cancelar")
    assert "Só o anfitrião" in await private_answer(world.fake, cancel)
    # "auto" follows the server's Discord language again.
    await private(await world.fake.slash(mod, world.channel, "config set", setting="language", value="auto"))
    ix = await world.fake.slash(alice, world.channel, "hotstreak cancel")
    notice = await ix.reply()
    assert "was cancelled by" in notice.text  # the server's Discord language is English
    world.guild.preferred_locale = "pt-BR"
    lobby = await open_lobby(world, alice)
    assert "sala de espera" in lobby.text


@pytest.fixture
async def portuguese(world: World) -> AsyncIterator[RaceBot]:
    """A Brazilian server (its Discord locale is pt-BR) with finished games, every member in pt-BR."""
    world.guild.preferred_locale = "pt-BR"
    for user in world.users.values():
        user.locale = "pt-BR"
    alice, bob = world.users["alice"], world.users["bob"]
    async with await Storage.open(str(world.db)) as storage:
        for won in (True, True, False):
            seats = [{"name": "alice", "user_id": alice.id}, {"name": "bob", "user_id": bob.id}]
            game = await storage.create_game("hotstreak", world.guild.id, world.channel.id, 1, {}, seats)
            results = [
                PlayerResult(
                    0, alice.id, "alice", 130 if won else 70, 30 if won else -30, 1 if won else 2, won, []
                ),
                PlayerResult(1, bob.id, "bob", 90, -10, 2 if won else 1, not won, []),
            ]
            assert await storage.finish_game(game, results)
    async with running_bot(world.fake, world.bot()) as running:
        yield running


async def test_in_portuguese_the_shared_commands_and_the_lobby_show_no_english(
    world: World, portuguese: RaceBot
) -> None:
    # Besides names: the games' command names and a setting's values are what an admin types, the same
    # in every language (each shown with its meaning in Portuguese).
    fake, names = world.fake, ["alice", "bob", "carol", "dave", "mod", "Hot Streak", "horserace", "thread"]
    alice, bob, mod = world.users["alice"], world.users["bob"], world.users["mod"]
    seen: list[str] = []

    async def answer(ix: Any) -> str:
        text = text_of(await ix.reply())
        seen.append(text)
        return text

    lobby = await open_lobby(world, alice)
    await fake.click_button(alice, lobby, "Adicionar IA")
    await fake.wait_for(lambda: "(IA)" in lobby.text, timeout=5, what="an AI seat")
    await join(world, lobby, bob)
    await fake.click_button(bob, lobby, "Sair")
    await fake.wait_for(lambda: bob.mention not in lobby.text, timeout=5, what="bob gone")
    seen.append(await private_answer(fake, await fake.click_button(bob, lobby, "Sair")))
    seen.append(await private_answer(fake, await fake.click_button(bob, lobby, "Começar")))
    status = await answer(await fake.slash(bob, world.channel, "hotstreak status"))
    assert "Na sala de espera" in status
    await answer(await fake.slash(bob, world.channel, "hotstreak leave"))
    await answer(await fake.slash(bob, world.channel, "horserace status"))
    await answer(await fake.slash(bob, world.channel, "hotstreak cancel"))
    cancelled = await answer(await fake.slash(alice, world.channel, "hotstreak cancel"))
    assert "foi cancelada por" in cancelled
    board = await answer(await fake.slash(bob, world.channel, "leaderboard"))
    assert "Ranking — todos os jogos" in board and "3 partidas" in board
    await answer(await fake.slash(bob, world.channel, "leaderboard", game="hotstreak", period="week"))
    await answer(await fake.slash(bob, world.channel, "stats"))
    record = await answer(await fake.slash(bob, world.channel, "stats", user=alice))
    assert "Histórico de alice" in record and "Sequência atual" in record
    await answer(await fake.slash(bob, world.channel, "stats", user=world.users["dave"]))
    await answer(await fake.slash(bob, world.channel, "history"))
    shown = await answer(await fake.slash(mod, world.channel, "config show"))
    assert "Configurações do servidor" in shown and "/config definir" in shown
    await answer(
        await fake.slash(mod, world.channel, "config set", setting="max_hosted_tables", value="lots")
    )
    await answer(await fake.slash(mod, world.channel, "config set", setting="where", value="channel"))
    await answer(await fake.slash(mod, world.channel, "config reset", setting="where"))
    suggestions = await fake.autocomplete(mod, world.channel, "config set", "value", "", setting="where")
    assert [s["name"] for s in suggestions] == ["thread — num tópico só dela", "channel — no próprio canal"]
    seen += [text_of(lobby), *(text_of(version) for version in lobby.edits)]
    seen += [text_of(m) for m in fake.channel_messages(world.channel, include_ephemeral=True)]
    leaks = {text: english_in(text, allowed=names) for text in seen}
    leaked = {text: words for text, words in leaks.items() if words}
    assert leaked == {}, "\n\n".join(f"{words}: {text}" for text, words in leaked.items())


async def test_public_messages_caused_by_an_english_members_click_speak_the_servers_portuguese(
    world: World,
) -> None:
    """The start an English-speaking host presses: the lobby's last edit, the thread's link in the
    channel and the note that a player's DMs are closed are all public, so all in Portuguese."""
    world = dataclasses.replace(world, where="thread")
    world.guild.preferred_locale = "pt-BR"
    alice, carol = world.users["alice"], world.users["carol"]  # carol's DMs are closed
    async with running_bot(world.fake, world.bot()):
        lobby = await open_lobby(world, alice)
        await join(world, lobby, carol)
        await (await world.fake.click_button(alice, lobby, "Começar")).wait_response()
        await world.fake.wait_for(lambda: world.fake.threads_in(world.channel), timeout=20, what="the thread")
        thread = world.fake.threads_in(world.channel)[0]
        # carol is told when a DM to her first fails (her turn's note, or her secret pick): both bet.
        seats = {"0": alice, "1": carol}

        def closed_note() -> FakeMessage | None:
            return next((m for m in world.fake.channel_messages(thread) if "📪" in m.text), None)

        loop = asyncio.get_running_loop()
        ends = loop.time() + 20
        while closed_note() is None and loop.time() < ends:
            prompt = next((m for m in world.fake.channel_messages(thread) if m.buttons), None)
            bets = [b for b in prompt.buttons if ":d:" in (b.custom_id or "")] if prompt else []
            if prompt is None or not bets:
                await asyncio.sleep(0.05)
                continue
            chosen = bets[0].custom_id or ""
            who = seats[chosen.split(":")[3]]
            await (await world.fake.click(who, prompt, chosen)).wait_response()
            # Like a person: wait to see the prompt move on before looking for the next turn.
            await world.fake.wait_for(
                lambda p=prompt, c=chosen: (
                    closed_note() is not None or all(b.custom_id != c for b in p.buttons)
                ),
                timeout=10,
            )
        closed = await world.fake.wait_for(closed_note, timeout=20)
        assert closed.text.startswith(f"📪 {carol.mention}, não consigo te mandar mensagem direta.")
        channel = text_of(world.fake.channel_messages(world.channel))
        assert "A partida começou." in channel
        assert f"🧵 A partida #1 de Hot Streak está rolando em <#{thread.id}>." in channel
        # An English member's private answer stays English, and names the command as their Discord does.
        ix = await world.fake.slash(world.users["bob"], world.channel, "hotstreak status")
        assert await private(ix) == "No Hot Streak game in this channel. Start one with `/hotstreak start`."
        world.users["bob"].locale = "pt-BR"
        ix = await world.fake.slash(world.users["bob"], world.channel, "hotstreak status")
        assert "Comece uma com `/hotstreak iniciar`." in await private(ix)
