"""What the bot does at start with the games it finds stored: carry on, or close them and say why."""

from __future__ import annotations

import time

from bot.storage import PlayerResult, Storage
from tests.cogs.conftest import World, join, private_answer
from tests.cogs.hotstreak_player import BET_ID
from tests.fakediscord import running_bot

SEATS = [
    {"name": "alice", "user_id": None, "ai": None},
    {"name": "Ada (AI)", "user_id": None, "ai": "normal"},
]


def seats_for(world: World) -> list[dict]:
    return [{**SEATS[0], "user_id": world.users["alice"].id}, SEATS[1]]


async def store_game(world: World, channel_id: int, *, age: float = 0.0, status: str = "running") -> int:
    storage = await Storage.open(str(world.db), clock=lambda: time.time() - age)
    try:
        settings = {
            "players": 2 if status == "running" else 3,
            "pace": 0.0,
            "host_id": world.users["alice"].id,
            "engine": {"first_better": 0},
        }
        return await storage.create_game(
            "hotstreak", world.guild.id, channel_id, 7, settings, seats_for(world), status=status
        )
    finally:
        await storage.close()


async def test_a_stored_game_carries_on_after_a_restart_with_working_buttons(world: World) -> None:
    game_id = await store_game(world, world.channel.id)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "carries on" in _channel_text(world), timeout=10)
        await world.fake.wait_for(lambda: _bet_buttons(world), timeout=10)
        message, custom_id = _bet_buttons(world)[-1]
        ix = await world.fake.click(world.users["alice"], message, custom_id)
        assert "You took" in await private_answer(world.fake, ix)
        async with await Storage.open(str(world.db), read_only=True) as storage:  # the bot holds the file
            game = await storage.load_game(game_id)
        assert game is not None and game.status == "running"
        assert (
            game.actions[0]["player"] == 0 and game.actions[0]["kind"] == "bet"
        )  # alice's click, stored first


async def test_a_game_whose_channel_is_gone_is_closed_and_its_players_told(world: World) -> None:
    game_id = await store_game(world, 987654321)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: bool(world.fake.dm_messages(world.users["alice"])), timeout=10)
    assert "channel is gone" in world.fake.dm_messages(world.users["alice"])[-1].text
    async with await Storage.open(str(world.db)) as storage:
        game = await storage.load_game(game_id)
    assert game is not None and game.status == "abandoned"


async def test_a_game_idle_for_more_than_a_day_is_closed_with_a_note_in_its_channel(world: World) -> None:
    game_id = await store_game(world, world.channel.id, age=25 * 3600)
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "waited too long" in _channel_text(world), timeout=10)
    async with await Storage.open(str(world.db)) as storage:
        game = await storage.load_game(game_id)
    assert game is not None and game.status == "abandoned"


async def test_a_lobby_survives_a_restart(world: World) -> None:
    await store_game(world, world.channel.id, status="lobby")
    async with running_bot(world.fake, world.bot()):
        await world.fake.wait_for(lambda: "here is the lobby again" in _channel_text(world), timeout=10)
        await world.fake.wait_for(lambda: _lobbies(world), timeout=10)
        lobby = _lobbies(world)[-1]
        await join(world.fake, lobby, world.users["bob"])
        await world.fake.wait_for(lambda: world.users["bob"].mention in lobby.text, timeout=5)


def _lobbies(world: World) -> list:
    return [m for m in world.fake.channel_messages(world.channel) if "lobby" in m.text and m.buttons]


async def test_the_unluckiest_player_bets_first(world: World) -> None:
    """bob has lost the most at Hot Streak in this server, so bob opens the betting."""
    async with await Storage.open(str(world.db)) as storage:
        past = await storage.create_game("hotstreak", world.guild.id, 1, 1, {}, [], status="running")
        await storage.finish_game(
            past,
            [
                PlayerResult(0, world.users["alice"].id, "alice", 20, 10, 1, True),
                PlayerResult(1, world.users["bob"].id, "bob", 2, -8, 2, False),
            ],
        )
    async with running_bot(world.fake, world.bot()):
        ix = await world.fake.slash(world.users["alice"], world.channel, "hotstreak start", pace=0.0)
        lobby = await ix.reply()
        await join(world.fake, lobby, world.users["bob"])
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: "bets first" in _channel_text(world), timeout=10)
        assert "**bob** bets first" in _channel_text(world)
        await world.fake.wait_for(lambda: _bet_buttons(world), timeout=10)
        assert BET_ID.match(_bet_buttons(world)[-1][1]).group(1) == "1"  # type: ignore[union-attr]


def _channel_text(world: World) -> str:
    return "\n".join(m.text for m in world.fake.channel_messages(world.channel))


def _bet_buttons(world: World) -> list:
    return [
        (m, b.custom_id)
        for m in world.fake.channel_messages(world.channel)
        for b in m.buttons
        if BET_ID.match(b.custom_id or "") and not b.disabled
    ]
