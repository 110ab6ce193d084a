"""Downforce through the fake Discord, as players see it: lobby, secret auctions, cards by DM, end spaces
with buttons, a picture per card, secret bets, final scores and the leaderboard."""

from __future__ import annotations

import dataclasses
import re

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, FakeUser, running_bot, text_of
from tests.cogs import live
from tests.cogs.conftest import FAST, World, join
from tests.cogs.downforce_player import CHANNEL_ID, DownforceTable


async def open_table(
    world: World, *joiners: str, ai: int = 0, **options: object
) -> tuple[FakeMessage, DownforceTable]:
    fake, users = world.fake, world.users
    players = 1 + len(joiners) + ai
    ix = await fake.slash(
        users["alice"], world.channel, "downforce start", players=players, pace=0.0, **options
    )
    lobby = await ix.reply()
    for name in joiners:  # one at a time, as people do, so seats follow the joining order
        await join(fake, lobby, users[name])
    for count in range(ai):
        await (await fake.click_button(users["alice"], lobby, "Add AI")).wait_response()
        await fake.wait_for(lambda c=count: lobby.text.count("(AI") >= c + 1, timeout=5)
    if ai:  # Add AI never starts a game: the host does
        await (await fake.click_button(users["alice"], lobby, "Start")).wait_response()
    seats = {0: users["alice"]} | {i + 1: users[name] for i, name in enumerate(joiners)}
    return lobby, DownforceTable(world, seats)


async def test_four_humans_play_a_whole_game_and_nothing_secret_is_shown_before_its_reveal(
    world: World, bot: RaceBot
) -> None:
    lobby, table = await open_table(world, "bob", "carol", "dave", track="marina-bay", betting="odds")
    assert "Downforce" in lobby.text and "Marina Bay" in lobby.text and "odds" in lobby.text
    await table.play_to_the_end(dm_less={"carol"})
    public = table.public_text()
    channel = table.channel()

    # The grid first, then six auctions revealed together, then the race with a picture after every card.
    assert "The grid, pole first" in public
    assert (
        len(set(re.findall(r"wins the \w+ car for", public))) == 6
    )  # each auction revealed (on its message)
    shown = live.frames(channel)
    assert len(live.live_messages(channel)) == 1  # the race is one message, edited card by card
    assert len([f for f in shown if "**Card" in f.content]) >= 10
    assert all(f.picture.description and "Places:" in f.picture.description for f in shown)
    assert any("plays" in f.content for f in shown)  # the played card is shown publicly

    # Nothing secret was public before its reveal.
    before_race, _, _ = public.partition("The race starts")
    before_end, _, _ = public.partition("Final scores")
    assert "Your hand" not in public and "Your secret" not in public and "Your bid card" not in public
    for name, labels in table.bids.items():
        for label in labels:
            card = label.split(": ", 1)[1]
            assert card not in before_race, f"{name}'s bid card {card} was shown before the race"
    assert table.bets, "nobody bet: the race never crossed a yellow line"
    assert not re.search(r"\d(st|nd|rd) bet", before_end), "a bet was shown before the end"
    for name in ("alice", "bob", "carol", "dave"):
        dms = world.fake.dm_messages(world.users[name])
        if name == "carol":
            assert dms == []  # closed DMs: she played from the ephemeral My hand answers
        else:  # the hand dealt comes with the auctions' prompts, in private: a picture, said in its alt text
            first = next(m for m in dms if m.embeds and "Your hand" in m.text)
            hand = next(a for a in first.attachments if a.filename == "hand.png").description or ""
            assert hand.startswith("Your hand, ") and hand.split(": ", 1)[1] not in public

    # carol's DMs are closed: the channel says so, and she played through My hand.
    assert "can't send you direct messages" in public
    assert any(m.selects for m in world.fake.ephemeral_for(world.users["carol"]))
    # (with her hand's picture, drawn off the event loop once the click is acknowledged)
    assert any(
        a.filename == "hand.png"
        for m in world.fake.ephemeral_for(world.users["carol"])
        for a in m.attachments
    )

    # Final scores broken down, bets revealed, results written once for the leaderboard.
    final = next(m for m in channel if "Final scores" in m.text)
    for word in ("prizes", "bets", "spent", "1st bet"):
        assert word in final.text
    assert "`" not in final.embeds[0]["description"]  # "4th" as text, not as code
    for line in final.embeds[0]["description"].splitlines():  # a medal, or "4th" as plain text
        assert re.match(r"(🥇|🥈|🥉|\d+th) \*\*", line), line
    assert "$0M" not in public and "$0M" not in final.text  # nothing is $0
    # Each auction, once sold, is a record: it no longer says whom it waits for.
    # The six auctions are one message, edited from one to the next.
    auctions = [
        m for m in channel if re.match(r"(Auction \d of 6|Powers — keep one|Auctions — every)", m.text)
    ]
    assert len(auctions) == 1
    shown = {re.match(r"Auction (\d) of 6", text_of(v)) for v in [*auctions[0].edits, auctions[0]]}
    assert len({m.group(1) for m in shown if m}) >= 5  # (an auction with one bidder left is not waited for)
    record = auctions[0].text
    assert "every car sold" in record and "Waiting for" not in record and "Deadline" not in record, record
    assert record.count(" → ") == 6, record
    for name in ("alice", "bob", "carol", "dave"):
        assert name in final.text
    rows, total = await bot.storage.leaderboard(world.guild.id, "downforce", None, 0)
    assert total == 4 and {r.name for r in rows} == {"alice", "bob", "carol", "dave"}
    game = await bot.storage.active_game_in_channel(world.channel.id)
    assert game is None


async def test_end_spaces_are_asked_where_the_card_was_played_with_a_lettered_picture(
    world: World, bot: RaceBot
) -> None:
    """A card's end spaces (and wild colours) are asked in its player's DM, in the same message as the
    card they played: one notification for the card and its choices."""
    lobby, table = await open_table(world, "bob")

    def choice() -> tuple[FakeUser, FakeMessage] | None:
        for user in table.seats.values():
            for message in world.fake.dm_messages(user):
                if any(CHANNEL_ID.match(b.custom_id or "") and not b.disabled for b in message.buttons):
                    return user, message
        return None

    for _ in range(600):
        if choice() is not None or table.finished():
            break
        before = table.signature()
        if not await table.step(set()):
            await world.fake.wait_for(lambda b=before: table.signature() != b or table.finished(), timeout=30)
    found = choice()
    assert found is not None, "no end-space or wild-colour choice came up"
    user, message = found
    assert message.edits, "the choice is the card's own prompt, edited (not a new message)"
    assert message.attachments or "wild" in message.text  # an end-space choice comes with a lettered picture
    assert not any(CHANNEL_ID.match(b.custom_id or "") for m in table.channel() for b in m.buttons)


async def test_a_late_player_is_played_by_the_ai_at_the_deadline(world: World) -> None:
    quick = dataclasses.replace(FAST, turn_seconds=0.2, phase_seconds=0.2)
    async with running_bot(world.fake, world.bot(timing=quick)):
        _, table = await open_table(world, ai=1, track="savanna-stretch", powers="all")
        # alice never clicks: every decision of hers (bids, cards, end spaces, optional powers, bets) is
        # taken by the AI at its deadline, through the same decisions.
        await world.fake.wait_for(table.finished, timeout=120)
    public = table.public_text()
    assert "Time's up for alice" in public
    assert "Final scores" in public
