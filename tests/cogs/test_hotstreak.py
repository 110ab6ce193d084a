"""Hot Streak through the fake Discord, as players see it: lobby, bets, secret picks, races, standings."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot, text_of
from bot.storage import StorageError
from tests.cogs import live
from tests.cogs.conftest import FAST, World, join, private_answer, until_quiet
from tests.cogs.hotstreak_player import BET_ID, HotStreakTable


async def open_table(
    world: World, *joiners: str, ai: int = 1, pace: float = 0.0
) -> tuple[FakeMessage, HotStreakTable]:
    fake, users = world.fake, world.users
    ix = await fake.slash(users["alice"], world.channel, "hotstreak start", pace=pace)
    lobby = await ix.reply()
    for name in joiners:  # one at a time, as people do, so seats follow the joining order
        await join(fake, lobby, users[name])
        await fake.wait_for(lambda n=name: users[n].mention in lobby.text, timeout=5)
    for count in range(ai):
        await (await fake.click_button(users["alice"], lobby, "Add AI")).wait_response()
        await fake.wait_for(lambda c=count: lobby.text.count("(AI") >= c + 1, timeout=5)
    seats = {0: users["alice"]} | {i + 1: users[name] for i, name in enumerate(joiners)}
    return lobby, HotStreakTable(world, seats)


def _dollars(text: str) -> int:
    """``+$12`` -> 12, ``-$3`` -> -3, ``$0`` -> 0."""
    text = text.strip()
    return -int(text[2:]) if text.startswith(("-$", "−$")) else int(text.lstrip("+$") or 0)


def public_text(world: World) -> str:
    """Everything anyone in the channel could ever read there, every edit included."""
    parts = []
    for message in world.fake.channel_messages(world.channel):
        parts.append(message.text)
        parts.extend(text_of(version) for version in message.edits)
    return "\n".join(parts)


async def test_three_humans_and_an_ai_play_a_whole_game_to_the_final_standings(
    world: World, bot: RaceBot
) -> None:
    lobby, table = await open_table(world, "bob", "carol")
    assert world.users["alice"].mention in lobby.text and "Hot Streak" in lobby.text
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await table.play_to_the_end(dm_less={"carol"})

    channel = world.fake.channel_messages(world.channel)
    assert len(live.live_messages(channel)) == 3  # one live message per race, edited card by card
    frames = live.frames(channel)
    assert len([f for f in frames if "**Card" in f.content]) >= 3 * 5  # a picture after every card
    assert all(f.picture.description and "Gobbler" in f.picture.description for f in frames)
    results = [m for m in channel if "Race" in m.text and "results" in m.text]
    assert len(results) == 3
    doubled = 0
    for message in results:
        for seat in message.embeds[0]["fields"]:
            *lines, total = seat["value"].splitlines()
            if "paid all they had" in total:
                continue
            # Each line says what the bet paid (a doubled bet: twice its value), so they add up.
            paid = [_dollars(line.rpartition(": ")[2].split(" (")[0]) for line in lines if "→" in line]
            assert sum(paid) == _dollars(total.strip("*").split(" → ")[0]), seat["value"]
            for line in lines:
                if "doubled" in line:
                    doubled += 1
                    amount, value = line.rpartition(": ")[2].split(" (")
                    assert _dollars(amount) == 2 * _dollars(value.removesuffix(" doubled)"))
    assert doubled >= 3  # everyone doubled one bet in race 3
    final = next(m for m in channel if "Final standings" in m.text)
    for name in ("alice", "bob", "carol"):
        assert name in final.text
    # carol's DMs are closed: the channel says so without naming her cards, and she played through My hand.
    assert any(
        "can't send you direct messages" in m.text and "carol" in m.text.lower() or "<@" in m.text
        for m in channel
    )
    assert world.fake.dm_messages(world.users["carol"]) == []
    assert any(m.selects for m in world.fake.ephemeral_for(world.users["carol"]))
    # Results were written once, for the leaderboard.
    rows, total = await bot.storage.leaderboard(world.guild.id, "hotstreak", None, 0)
    assert total == 3 and {r.name for r in rows} == {"alice", "bob", "carol"}


async def test_no_public_message_reveals_a_hand_or_a_secret_pick(world: World, bot: RaceBot) -> None:
    lobby, table = await open_table(world, "bob")
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    # Bet until the secret picks are due, then pick, and look at the channel before any card is flipped.
    while not any(table.open_selects(u) for u in table.seats.values()):
        await table.step(set())
        await asyncio.sleep(0.01)
    # The pick menus go out one after the other (a DM, or where the last bettor clicked): both must be
    # there before the two picks. Each shows its player's hand, dealt for this race.
    await world.fake.wait_for(lambda: all(table.open_selects(u) for u in table.seats.values()), timeout=5)
    hands = {u.name: table.open_selects(u)[0][0].embeds[0]["description"] for u in table.seats.values()}
    assert all(hand.strip() for hand in hands.values())
    for _ in range(2):
        await table.step(set())
    await world.fake.wait_for(lambda: "Three cards burned" in public_text(world), timeout=10)
    before_race = public_text(world).split("Three cards burned")[0]
    for hand in hands.values():
        assert hand not in before_race
        assert "Your hand" not in before_race and "secret pick is in" not in before_race
    # The race's prompt, its wait over, stays as a record that waits for nobody.
    (record,) = [m for m in world.fake.channel_messages(world.channel) if "secret picks" in m.text]
    await world.fake.wait_for(lambda: not record.components, timeout=5, what="the prompt without buttons")
    assert "Waiting for" not in record.text and "Deadline" not in record.text, record.text
    assert "No DM?" not in record.text and "face down" in record.text  # what was asked stays
    face_up = next(  # the betting's version of the race's prompt (it is edited on to the secret picks)
        text
        for m in world.fake.channel_messages(world.channel)
        for text in [*(text_of(v) for v in m.edits), m.text]
        if "Face-up race cards" in text
    )
    for name, labels in table.picks.items():
        for label in labels:
            if label not in face_up:
                assert label not in before_race, (
                    f"{name}'s secret pick {label} was shown before it was flipped"
                )


async def test_wrong_user_and_stale_clicks_get_a_private_answer_and_change_nothing(
    world: World, bot: RaceBot
) -> None:
    lobby, table = await open_table(world, "bob", ai=0)
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await world.fake.wait_for(lambda: bool(table.bet_buttons()), timeout=5)
    message, custom_id, seat = table.bet_buttons()[-1]
    on_turn, other = table.seats[seat], table.seats[1 - seat]
    await until_quiet(message)  # its picture lands by an edit after its text: read it as it stays
    before = message.text
    stranger = await world.fake.click(world.users["dave"], message, custom_id)
    assert "not playing" in await private_answer(world.fake, stranger)
    wrong = await world.fake.click(other, message, custom_id)
    assert "not you" in await private_answer(world.fake, wrong)
    assert message.text == before
    first = await world.fake.click(on_turn, message, custom_id)
    await first.wait_response()
    assert not any(m.ephemeral for m in first.messages)  # the prompt moving on is the answer
    stale = await world.fake.click(on_turn, message, custom_id)
    assert "already decided" in await private_answer(world.fake, stale)
    game = await bot.storage.active_game_in_channel(world.channel.id)
    assert game is not None and len(game.actions) == 1  # the double click was not applied twice
    # An answered private prompt becomes the record of the choice: its menu is gone, so it cannot be
    # clicked again, and it says what was chosen.
    await table.play_to_the_end()
    answered = [m for m in world.fake.dm_messages(world.users["alice"]) if any(v.components for v in m.edits)]
    assert answered and all(not m.selects and not m.buttons for m in answered)
    assert any("secret pick is in" in m.text for m in answered)
    assert BET_ID.match(custom_id)


async def test_a_late_player_is_played_by_the_ai_at_the_deadline(world: World) -> None:
    quick = dataclasses.replace(FAST, turn_seconds=0.3, phase_seconds=0.3)
    async with running_bot(world.fake, world.bot(timing=quick)):
        lobby, table = await open_table(world, ai=1)
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        # alice never clicks: every decision of hers is taken at its deadline, and the channel is told.
        await world.fake.wait_for(table.finished, timeout=60)
    channel = public_text(world)
    assert "Time's up for alice" in channel
    assert "Final standings" in channel


async def test_time_is_up_is_said_only_once_the_ais_move_is_saved(world: World) -> None:
    quick = dataclasses.replace(FAST, turn_seconds=0.3, phase_seconds=0.3, storage_retry_seconds=0.1)
    async with running_bot(world.fake, world.bot(timing=quick)) as bot:
        lobby, table = await open_table(world, ai=1)
        saving = {"down": True}
        original = bot.storage.append_action

        async def append_action(*args: Any, **kwargs: Any) -> None:
            if saving["down"]:
                raise StorageError("the database is locked")
            await original(*args, **kwargs)

        bot.storage.append_action = append_action  # type: ignore[method-assign]
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: "can't save the game" in public_text(world), timeout=10)
        await asyncio.sleep(1.0)  # several deadlines' worth, with saving down
        assert "Time's up" not in public_text(world)
        saving["down"] = False
        await world.fake.wait_for(table.finished, timeout=60)
    assert "Time's up for alice" in public_text(world)
