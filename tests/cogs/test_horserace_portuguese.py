"""The Horse Race Game in Brazilian Portuguese: a server and players in pt-BR see no English word in the
channel (every version of every message), the DMs or the private answers, horse and player names apart."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, ImpossibleAction, running_bot, text_of
from bot.i18n import speaking
from tests.cogs.conftest import World, private_answer
from tests.english import english_in, vocabulary

ROLL_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):\d+:roll:")
PLAYERS = ("alice", "bob")


@pytest.fixture
async def bot(world: World) -> AsyncIterator[RaceBot]:
    world.guild.preferred_locale = "pt-BR"
    for user in world.users.values():
        user.locale = "pt-BR"
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace", "cogs.stats"))) as running:
        yield running


def boards(world: World) -> list[FakeMessage]:
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if any(a.filename == "board.png" for a in m.attachments)
    ]


def standings(world: World) -> FakeMessage | None:
    return next((m for m in world.fake.channel_messages(world.channel) if "🏁" in m.text), None)


def everything_seen(world: World) -> dict[str, str]:
    """Every text a player could read: channel messages and their earlier versions, DMs, ephemerals."""
    seen: dict[str, str] = {}
    for message in world.fake.channel_messages(world.channel):
        for n, version in enumerate([*message.edits, message]):
            seen[f"channel {message.id} v{n}"] = text_of(version)
    for name in PLAYERS:
        user = world.users[name]
        for message in world.fake.dm_messages(user) + world.fake.ephemeral_for(user):
            seen[f"{name} private {message.id}"] = text_of(message)
    return seen


def names_allowed() -> list[str]:
    """Player names: everything else a Portuguese player reads is Portuguese."""
    return [*PLAYERS]


async def play_by_hand(world: World, bot: RaceBot, hands: list[str]) -> None:
    """The seat on turn presses Rolar until the game ends; once, the wrong player and a double click."""
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    users = {user.id: user for user in world.users.values()}
    seats = {n: users[seat.user_id] for n, seat in enumerate(table.seats) if seat.user_id is not None}
    tried = False
    for _turn in range(600):
        if standings(world) is not None:
            return
        await world.fake.wait_for(
            lambda: (
                standings(world) is not None
                or bool(
                    boards(world) and any(ROLL_ID.match(b.custom_id or "") for b in boards(world)[-1].buttons)
                )
            ),
            timeout=20,
        )
        buttons = (
            [b for b in boards(world)[-1].buttons if ROLL_ID.match(b.custom_id or "")]
            if boards(world)
            else []
        )
        if not buttons:
            continue
        board = boards(world)[-1]
        seat = int(ROLL_ID.match(buttons[0].custom_id).group(1))  # type: ignore[union-attr]
        if not tried:
            other = next(user for n, user in seats.items() if n != seat)
            await private_answer(world.fake, await world.fake.click(other, board, buttons[0].custom_id))
        pressed = buttons[0].custom_id
        ix = await world.fake.click(seats[seat], board, pressed)
        if not tried:  # a double click, answered in private (when the board has not moved on yet)
            with contextlib.suppress(ImpossibleAction):
                await private_answer(world.fake, await world.fake.click(seats[seat], board, pressed))
        await ix.wait_response()
        await world.fake.wait_for(
            lambda pressed=pressed: (
                standings(world) is not None or all(b.custom_id != pressed for b in boards(world)[-1].buttons)
            ),
            timeout=20,
        )
        if not tried:
            # A player's own horses, as the presenter tells them in private (the hand of the game).
            with speaking("pt-BR"):
                hands.append(table.presenter.hand(table.view(seat)).content or "")
            status = await world.fake.slash(world.users["alice"], world.channel, "horserace status")
            await private_answer(world.fake, status)
            rules = await world.fake.slash(world.users["bob"], world.channel, "horserace rules")
            await private_answer(world.fake, rules)
            # Who holds which cards: the board's button, a picture with its alt text, privately.
            board = boards(world)[-1]
            cards = next(b.custom_id or "" for b in board.buttons if ":ask:cards_" in (b.custom_id or ""))
            asked = await world.fake.click(world.users["alice"], board, cards)
            await world.fake.wait_for(lambda a=asked: any(m.attachments for m in a.messages if m.ephemeral))
            tried = True


async def test_a_whole_game_in_portuguese_shows_no_english(world: World, bot: RaceBot) -> None:
    ix = await world.fake.slash(
        world.users["alice"], world.channel, "horserace start", races=2, rolls="manual", pace=0.0
    )
    lobby = await ix.reply()
    lobby_ids = (lobby.buttons[0].custom_id or "").rsplit(":", 1)[0]  # g:<game>.<token>:lobby
    await (await world.fake.click(world.users["bob"], lobby, f"{lobby_ids}:join")).wait_response()
    await world.fake.wait_for(lambda: world.users["bob"].mention in lobby.text, timeout=5)
    await (await world.fake.click(world.users["alice"], lobby, f"{lobby_ids}:ai")).wait_response()
    await (await world.fake.click(world.users["alice"], lobby, f"{lobby_ids}:start")).wait_response()
    hands: list[str] = []
    await play_by_hand(world, bot, hands)
    final = standings(world)
    assert final is not None and "Classificação final depois de 2 corridas" in final.text
    seen = everything_seen(world)
    # The players saw the game in Portuguese: the setup, the board and its alt text, the wins, the rules.
    everything = "\n".join(seen.values())
    for words in (
        "Corrida 1",
        "Cartas (abertas)",
        "vence a corrida",
        "Pote de",
        "Rolar",
        "**Objetivo:**",
        "Cartas de cada um",
        "Quem tem quais cartas na corrida 1",
        "Cartas na mão, Corrida 1 de 2.",
    ):
        assert words in everything, words
    assert any("rola" in text for text in seen.values())
    await asyncio.to_thread(vocabulary)  # built once, outside the event loop (it walks the commands)
    leaks = {where: english_in(text, allowed=names_allowed()) for where, text in seen.items()}
    leaked = {where: words for where, words in leaks.items() if words}
    assert not leaked, "\n\n".join(f"{where}: {words}\n{seen[where]}" for where, words in leaked.items())
    assert hands and "Dinheiro" in hands[0] and english_in(hands[0], allowed=names_allowed()) == []
