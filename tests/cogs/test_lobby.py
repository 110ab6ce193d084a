"""The lobby and the commands every game has, as people in a server meet them (Hot Streak as the example):
one game per channel, one game per player, only the host or a server manager runs the table."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeChannel, FakeMessage, running_bot
from bot.storage import StorageError
from tests.cogs.conftest import FAST, World, private_answer


async def open_lobby(
    world: World, host: str = "alice", channel: FakeChannel | None = None, **options: object
) -> FakeMessage:
    ix = await world.fake.slash(
        world.users[host], channel or world.channel, "hotstreak start", pace=0.0, **options
    )
    return await ix.reply()


async def click(world: World, user: str, message: FakeMessage, label: str) -> str:
    """Click and return what only the clicker was told, or "" if the answer was an update of the message."""
    ix = await world.fake.click_button(world.users[user], message, label)
    answer = await ix.reply()
    return answer.text if answer.ephemeral else ""


async def stored_seats(bot: RaceBot, world: World, channel: FakeChannel | None = None) -> list[str]:
    game = await bot.storage.active_game_in_channel((channel or world.channel).id)
    assert game is not None
    return [seat["name"] for seat in game.seats]


def seats_on(lobby: FakeMessage) -> list[str]:
    """The seat lines of the lobby embed (``1. <@id> — host`` ...)."""
    return lobby.embeds[0]["description"].splitlines()


async def test_one_game_per_channel(world: World, bot: RaceBot) -> None:
    await open_lobby(world)
    again = await world.fake.slash(world.users["bob"], world.channel, "hotstreak start")
    assert "already being played here" in await private_answer(world.fake, again)
    other_game = await world.fake.slash(world.users["bob"], world.channel, "horserace start")
    assert "Hot Streak is already being played here" in await private_answer(world.fake, other_game)
    assert len(world.fake.channel_messages(world.channel)) == 1
    assert len(bot.tables.by_id) == 1


async def test_a_player_is_in_one_game_per_server(world: World, bot: RaceBot) -> None:
    first = await open_lobby(world)
    second_channel = world.guild.add_text_channel("more-games")
    await world.fake.wait_for(lambda: bot.get_channel(second_channel.id) is not None, timeout=5)
    second = await open_lobby(world, host="bob", channel=second_channel)
    answer = await click(world, "alice", second, "Join")
    assert "You're already playing in" in answer and world.channel.mention in answer
    assert await stored_seats(bot, world, second_channel) == ["bob"]
    third_channel = world.guild.add_text_channel("even-more")
    await world.fake.wait_for(lambda: bot.get_channel(third_channel.id) is not None, timeout=5)
    refused = await world.fake.slash(world.users["alice"], third_channel, "hotstreak start")
    assert "finish or leave that game first" in await private_answer(world.fake, refused)
    # Joining twice in the same lobby is refused too.
    assert "already in this game" in await click(world, "alice", first, "Join")


async def test_only_the_host_or_a_manager_can_start_cancel_add_ai_or_kick(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world)
    assert await click(world, "bob", lobby, "Join") == ""
    assert await click(world, "dave", lobby, "Join") == ""
    before, versions = lobby.text, len(lobby.edits)
    for label in ("Start", "Cancel", "Add AI"):
        assert "Only the host or someone with Manage Server" in await click(world, "bob", lobby, label)
    menu = lobby.select_menu()
    dave_option = menu.values[menu.labels.index("dave")]
    kick = await world.fake.select(world.users["bob"], lobby, menu.custom_id, [dave_option])
    assert "Only the host or someone with Manage Server" in await private_answer(world.fake, kick)
    assert lobby.text == before and len(lobby.edits) == versions  # nothing changed
    assert await stored_seats(bot, world) == ["alice", "bob", "dave"]
    assert bot.tables.in_channel(world.channel.id) is not None

    # Someone with Manage Server may, without being seated; and the host may kick.
    assert await click(world, "mod", lobby, "Add AI") == ""
    assert await stored_seats(bot, world) == ["alice", "bob", "dave", "Ada (AI)"]
    kick = await world.fake.select(world.users["alice"], lobby, menu.custom_id, [dave_option])
    await kick.wait_response()
    await world.fake.wait_for(lambda: "dave" not in lobby.text, timeout=5)
    assert await stored_seats(bot, world) == ["alice", "bob", "Ada (AI)"]
    assert all("alice" not in label for label in lobby.select_menu().labels)  # the host can't be kicked
    assert await click(world, "mod", lobby, "Cancel") == ""
    assert "Cancelled by mod" in lobby.text and not lobby.buttons
    assert bot.tables.in_channel(world.channel.id) is None


async def test_the_host_leaving_hands_the_lobby_to_the_next_human(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world, bots=1)
    await click(world, "bob", lobby, "Join")
    alice, bob = world.users["alice"], world.users["bob"]
    assert seats_on(lobby)[0].endswith(f"{alice.mention} — host")
    assert await click(world, "alice", lobby, "Leave") == ""
    assert [line.split(" ", 1)[1] for line in seats_on(lobby)] == [
        "**Ada (AI)** *(AI, normal)*",
        f"{bob.mention} — host",
    ]
    # bob is the host now: he may start; alice, who left, may not cancel.
    assert "Only the host" in await click(world, "alice", lobby, "Cancel")
    assert await click(world, "bob", lobby, "Start") == ""
    await world.fake.wait_for(lambda: "The game has started." in lobby.text, timeout=5)


async def test_the_last_human_leaving_closes_the_lobby(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world, bots=1)
    assert await click(world, "alice", lobby, "Leave") == ""
    assert "The host left and nobody else had joined" in lobby.text
    assert bot.tables.in_channel(world.channel.id) is None
    assert await bot.storage.active_game_in_channel(world.channel.id) is None


async def test_start_needs_enough_players_and_a_full_lobby_starts_by_itself(
    world: World, bot: RaceBot
) -> None:
    lobby = await open_lobby(world, players=3)
    assert "At least 2 players are needed" in await click(world, "alice", lobby, "Start")
    assert bot.tables.in_channel(world.channel.id).engine is None  # type: ignore[union-attr]
    await click(world, "bob", lobby, "Join")
    assert "The game has started." not in lobby.text
    await click(world, "dave", lobby, "Join")  # the third seat: full
    await world.fake.wait_for(lambda: "The game has started." in lobby.text, timeout=5)
    assert not lobby.buttons
    game = await bot.storage.active_game_in_channel(world.channel.id)
    assert game is not None and game.status == "running" and len(game.seats) == 3


async def test_the_host_can_cancel_a_running_game_and_no_results_are_recorded(
    world: World, bot: RaceBot
) -> None:
    lobby = await open_lobby(world, players=2)
    await click(world, "bob", lobby, "Join")
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    await world.fake.wait_for(lambda: table.engine is not None, timeout=5)
    refused = await world.fake.slash(world.users["bob"], world.channel, "hotstreak cancel")
    assert "Only the host or someone with Manage Server" in await private_answer(world.fake, refused)
    assert not table.closed

    ix = await world.fake.slash(world.users["alice"], world.channel, "hotstreak cancel")
    answer = await ix.reply()
    assert not answer.ephemeral
    assert (
        f"Hot Streak #{table.game_id} was cancelled" in answer.text
        and "No results were recorded" in answer.text
    )
    stored = await bot.storage.load_game(table.game_id)
    assert stored is not None and stored.status == "cancelled"
    assert await bot.storage.game_results(table.game_id) == []
    assert await bot.storage.history(world.guild.id) == []
    # The channel is free again, and alice may start another game.
    assert (await open_lobby(world)).embeds[0]["title"] == "Hot Streak — lobby"


async def test_leaving_a_running_game_hands_the_seat_to_an_ai_and_the_game_finishes(
    world: World, bot: RaceBot
) -> None:
    ix = await world.fake.slash(
        world.users["alice"], world.channel, "hotstreak start", pace=0.0, players=2, bots=1
    )
    await ix.reply()
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    await world.fake.wait_for(lambda: table.engine is not None, timeout=5)
    outsider = await world.fake.slash(world.users["bob"], world.channel, "hotstreak leave")
    assert "You're not in a Hot Streak game" in await private_answer(world.fake, outsider)

    left = await world.fake.slash(world.users["alice"], world.channel, "hotstreak leave")
    answer = await left.reply()
    assert answer.ephemeral and "You left the game; an AI plays your seat" in answer.text
    await world.fake.wait_for_message(
        lambda m: f"{world.users['alice'].mention} left; an AI plays their seat" in m.text,
        channel=world.channel,
    )
    await world.fake.wait_for(
        lambda: any("Final standings" in m.text for m in world.fake.channel_messages(world.channel)),
        timeout=30,
    )
    await world.fake.wait_for(lambda: table.closed, timeout=5)
    results = await bot.storage.game_results(table.game_id)
    # alice still owns the seat the AI finished for her: leaving does not hide a loss from the leaderboard.
    assert [r.name for r in results] == ["alice", "Ada (AI)"]
    assert [r.user_id for r in results] == [world.users["alice"].id, None]
    assert (await bot.storage.load_game(table.game_id)).status == "finished"  # type: ignore[union-attr]


async def test_status_says_who_the_game_waits_for_and_rules_answer_privately(
    world: World, bot: RaceBot
) -> None:
    fake = world.fake
    nothing = await fake.slash(world.users["bob"], world.channel, "hotstreak status")
    assert "No Hot Streak game in this channel" in await private_answer(fake, nothing)
    lobby = await open_lobby(world, players=2)
    waiting = await (await fake.slash(world.users["dave"], world.channel, "hotstreak status")).reply()
    assert waiting.ephemeral and "Waiting in the lobby for the host to start." in waiting.text
    await click(world, "bob", lobby, "Join")
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    await fake.wait_for(lambda: table.human_pending() and table.deadline, timeout=5)
    [turn] = table.human_pending()
    on_turn = table.seats[turn.player].name  # type: ignore[index]
    status = await (await fake.slash(world.users["dave"], world.channel, "hotstreak status")).reply()
    assert status.ephemeral
    assert (
        f"Waiting for: {on_turn}" in status.text
        and "Race 1 of 3" in status.text
        and "Deadline" in status.text
    )

    rules = await (await fake.slash(world.users["dave"], world.channel, "hotstreak rules")).reply()
    assert rules.ephemeral
    assert rules.embeds[0]["title"] == "How to play Hot Streak" and "Goal:" in rules.text


async def test_people_joining_at_the_same_moment_all_get_their_seat(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world, players=5)
    names = ["bob", "carol", "dave", "mod"]
    for name in names:  # four clicks sent at once; the bot handles them concurrently
        await world.fake.click_button(world.users[name], lobby, "Join", wait=False)
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    # The fifth seat fills the table and starts the game; a lost join would leave it waiting.
    await world.fake.wait_for(lambda: table.engine is not None or table.closed, timeout=5)
    assert sorted(seat.name for seat in table.seats) == sorted(["alice", *names])
    game = await bot.storage.load_game(table.game_id)
    assert game is not None and sorted(s["name"] for s in game.seats) == sorted(["alice", *names])
    await world.fake.wait_for(lambda: "The game has started." in lobby.text, timeout=5)


async def test_a_join_then_a_quick_leave_never_starts_a_game_of_one(world: World, bot: RaceBot) -> None:
    for _ in range(3):  # the race is timing-dependent: a few tries, each must leave a lobby of one
        lobby = await open_lobby(world, players=2)
        joined = await world.fake.click_button(world.users["bob"], lobby, "Join", wait=False)
        left = await world.fake.click_button(world.users["bob"], lobby, "Leave", wait=False)
        await joined.wait_response()
        await left.wait_response()
        table = bot.tables.in_channel(world.channel.id)
        assert table is not None
        async with table.lock:
            pass  # until both clicks (and any start they caused) are done
        await asyncio.sleep(0.1)
        async with table.lock:
            if table.engine is not None:  # the join won outright and the game started with two
                assert len(table.seats) == 2
            else:
                assert [s.user_id for s in table.seats] == [world.users["alice"].id]
                stored = await bot.storage.active_game_in_channel(world.channel.id)
                assert stored is not None and stored.status == "lobby"
        await bot.tables.close(table, "cancelled", "test")


async def test_a_cancel_that_could_not_be_saved_says_so_and_the_game_goes_on(
    world: World, bot: RaceBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await open_lobby(world, players=2)
    await click(world, "bob", lobby, "Join")
    table = bot.tables.in_channel(world.channel.id)
    assert table is not None
    await world.fake.wait_for(lambda: table.engine is not None, timeout=5)

    async def locked(*args: object, **kwargs: object) -> None:
        raise StorageError("the database is locked")

    monkeypatch.setattr(bot.storage, "close_game", locked)
    answer = await (await world.fake.slash(world.users["alice"], world.channel, "hotstreak cancel")).reply()
    assert "couldn't save the cancellation, so the game goes on" in answer.text
    assert "No results were recorded" not in answer.text
    assert not table.closed and bot.tables.in_channel(world.channel.id) is table
    stored = await bot.storage.load_game(table.game_id)
    assert stored is not None and stored.status == "running"
    monkeypatch.undo()
    answer = await (await world.fake.slash(world.users["alice"], world.channel, "hotstreak cancel")).reply()
    assert "was cancelled" in answer.text and table.closed


async def test_a_lobby_whose_answer_was_lost_is_posted_anyway_and_still_closes_by_itself(
    world: World,
) -> None:
    quick = dataclasses.replace(FAST, lobby_seconds=1.0)
    async with running_bot(world.fake, world.bot(timing=quick)) as bot:
        world.fake.faults.drop_next(method="POST", route="/webhooks/{app_id}/{token}")
        await world.fake.slash(world.users["alice"], world.channel, "hotstreak start", wait=False)
        await world.fake.wait_for(
            lambda: any("lobby" in m.text for m in world.fake.channel_messages(world.channel)), timeout=10
        )
        await world.fake.wait_for(
            lambda: any(
                "nobody started it in time" in m.text for m in world.fake.channel_messages(world.channel)
            ),
            timeout=10,
        )
        assert not bot.tables.by_id


async def test_add_ai_never_starts_the_game_the_host_does(world: World, bot: RaceBot) -> None:
    lobby = await open_lobby(world, players=3)
    await click(world, "bob", lobby, "Join")
    await click(world, "alice", lobby, "Add AI")  # the third seat: full, with an AI
    await world.fake.wait_for(lambda: "(AI" in lobby.text, timeout=5)
    await asyncio.sleep(0.2)
    assert "The game has started." not in lobby.text
    assert bot.tables.in_channel(world.channel.id).engine is None  # type: ignore[union-attr]
    game = await bot.storage.active_game_in_channel(world.channel.id)
    assert game is not None and game.status == "lobby" and len(game.seats) == 3
    assert await click(world, "alice", lobby, "Start") == ""
    await world.fake.wait_for(lambda: "The game has started." in lobby.text, timeout=5)
