"""Watching Hot Streak through the fake Discord: odds on every picture, a replay per race, no needless pictures."""

from __future__ import annotations

import copy
import dataclasses
import io
import re

from PIL import Image

from bot.client import RaceBot
from bot.discord_io import later
from bot.fakediscord import FakeMessage, running_bot, text_of
from bot.games.base import Action
from bot.games.catalog import entry
from bot.games.hotstreak.narration import changes_track
from tests.cogs import live
from tests.cogs.conftest import World
from tests.cogs.replays import assert_replay_came_after_the_results, wait_for_replays
from tests.cogs.test_hotstreak import open_table

ODDS = re.compile(r"\w+ \d+% to win, \d+% to place")


async def test_a_game_in_its_own_thread_shows_odds_on_its_frames_and_posts_a_replay_with_each_races_results(
    world: World,
) -> None:
    world = dataclasses.replace(world, where="thread")  # the bot's own default: a thread per game
    replays_before = dict(later.figures)
    async with running_bot(world.fake, world.bot()):
        lobby, table = await open_table(world, "bob", ai=2)
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: world.fake.threads_in(world.channel), timeout=20, what="a thread")
        (thread,) = world.fake.threads_in(world.channel)
        table.world = dataclasses.replace(world, channel=thread)  # the players play in the thread
        await table.play_to_the_end()
        await world.fake.wait_for(
            lambda: "Final standings" in text_of(world.fake.channel_messages(world.channel)), timeout=10
        )
        channel = world.fake.channel_messages(thread)
        results = [m for m in channel if m.embeds and "results" in (m.embeds[0].get("title") or "")]
        assert len(results) == 3
        await wait_for_replays(world.fake, results)
        # The show's figures (bench_load's replays_share): three replays to follow, three posted (counted
        # once the bot hears its edit went through, a moment after the fake applied it).
        await world.fake.wait_for(lambda: later.figures["posted"] - replays_before["posted"] == 3, timeout=5)
        assert later.figures["offered"] - replays_before["offered"] == 3

    pictures = [f for f in live.frames(channel) if "**Card" in f.content or "**Deck dry" in f.content]
    assert pictures
    for frame in pictures:
        alt = frame.picture.description or ""
        assert ODDS.search(alt), alt
        # The alt text says how many races the odds rest on (a finished race's are certain) and who holds what.
        assert ("simulated races" in alt or "Odds (exact)" in alt) and "Tickets:" in alt

    for message in results:  # three replays, each added to its race's results after they were out
        assert_replay_came_after_the_results(message, "Animated replay of Hot Streak race")
    home = text_of(world.fake.channel_messages(world.channel))
    assert "Final standings" in home and "**Card" not in home


async def test_a_race_posts_one_picture_per_card_that_changes_the_track_plus_its_opening_picture(
    world: World, bot: RaceBot
) -> None:
    lobby, table = await open_table(world, "bob", ai=2)
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await table.play_to_the_end()

    # What the cards did, from the stored game replayed on a fresh engine.
    (row,) = [r for r in await bot.storage.history(world.guild.id)]
    stored = await bot.storage.load_game(row.game_id)
    assert stored is not None
    game = entry("hotstreak")
    engine = game.new_engine(len(stored.seats), stored.seed, game.stored_engine_settings(stored.settings))
    changing = quiet = alone = 0
    for raw in stored.actions:
        step = [e for e in engine.apply(Action.from_json(raw)) if e.kind in ("card_flipped", "bar_folded")]
        for i, event in enumerate(step):
            then = step[i + 1] if i + 1 < len(step) else None
            if (
                event.kind == "bar_folded"
                and then is not None
                and then.kind == "card_flipped"
                and changes_track(then)
            ):
                continue  # the deck ran dry and the next card came in one step: one picture of both
            alone += event.kind == "bar_folded"  # a fold with a picture of its own
            changing += changes_track(event)
            quiet += not changes_track(event)

    channel = world.fake.channel_messages(world.channel)
    races = live.live_messages(channel)
    assert len(races) == 3  # one live message per race
    frames = live.frames(channel)
    assert len(frames) == changing + 3  # the race's opening picture, then one per card that moves
    # A fold is told with the card that came with it, under that card's picture, when that card moves
    # the track: a picture whose newest line is a fold is a race's last, or one whose next card changes
    # nothing (that card is then a line under the fold's picture).
    assert sum("**Deck dry" in f.content.splitlines()[-1] for f in frames) == alone
    # A card that changes nothing on the track is its line of narration alone: an edit of the words,
    # the picture kept (pace 0: every card is an edit of its own).
    words_only = 0
    for race in races:
        versions = [*race.edits, race]
        for before, after in zip(versions, versions[1:], strict=False):
            words_only += [a.id for a in after.attachments] == [a.id for a in before.attachments]
    assert words_only == quiet


async def test_the_odds_button_tells_only_the_asker_what_each_bet_on_offer_is_worth(
    world: World, bot: RaceBot
) -> None:
    lobby, _ = await open_table(world, "bob", ai=1)
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()

    def betting_prompt() -> FakeMessage | None:
        found = [
            m for m in world.fake.channel_messages(world.channel) if any(b.label == "Odds" for b in m.buttons)
        ]
        return found[-1] if found else None

    await world.fake.wait_for(lambda: betting_prompt() is not None, timeout=30, what="the betting prompt")
    prompt = betting_prompt()
    assert prompt is not None
    before = len(world.fake.channel_messages(world.channel))
    for user in (world.users["alice"], world.users["dave"]):  # a player, and someone only watching
        ix = await world.fake.click_button(user, prompt, "Odds")
        await world.fake.wait_for(
            lambda ix=ix: "worth" in text_of([m for m in ix.messages if m.ephemeral]), timeout=30, what="odds"
        )
        answer = text_of([m for m in ix.messages if m.ephemeral])
        assert re.search(r"Gobbler\*\* \d+% to win · \d+% to place", answer), answer
        assert "Gobbler ticket (safe)" in answer and "Side bet YES (risky)" in answer
        assert "simulated races" in answer
    # Nothing new in the channel: the answers were private.
    assert all(not m.ephemeral for m in world.fake.channel_messages(world.channel)[before:])


async def test_the_tickets_button_shows_everyones_bets_in_a_detailed_picture_privately(
    world: World, bot: RaceBot
) -> None:
    """The race pictures show one line per player; every ticket and side bet is a second, detailed
    picture, given only to whoever asks (a player or a watcher), readable at Discord's size."""
    lobby, table = await open_table(world, "bob", ai=1)
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()

    def prompt() -> FakeMessage | None:
        found = [
            m
            for m in world.fake.channel_messages(world.channel)
            if any(b.label == "Tickets" for b in m.buttons)
        ]
        return found[-1] if found else None

    await world.fake.wait_for(lambda: bool(table.bet_buttons()), timeout=30, what="the betting prompt")
    await table.step(set())  # one bet taken, so there is something to show
    await world.fake.wait_for(lambda: prompt() is not None, timeout=10, what="the Tickets button")
    message = prompt()
    assert message is not None
    before = len(world.fake.channel_messages(world.channel))
    ix = await world.fake.click_button(world.users["dave"], message, "Tickets")  # only watching
    await world.fake.wait_for(lambda: any(m.ephemeral and m.attachments for m in ix.messages), timeout=30)
    (answer,) = [m for m in ix.messages if m.ephemeral and m.attachments]
    (picture,) = answer.attachments
    assert picture.filename == "tickets.png" and "tickets and side bets" in answer.text
    assert picture.description and "ticket" in picture.description.lower()
    with Image.open(io.BytesIO(picture.data)) as image:
        assert image.width == 800 and image.height <= 0.75 * image.width
    assert all(not m.ephemeral for m in world.fake.channel_messages(world.channel)[before:])


def test_the_odds_answer_lists_every_bet_on_offer_even_with_long_emojis(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Application emojis make each line about 35 characters longer: the bets then need two embed
    fields (1,024 characters each), and none may be cut off."""
    from bot.games.hotstreak.game import HotStreak
    from bot.games.odds import odds_for
    from cogs.hotstreak import present

    monkeypatch.setattr(present, "emoji", lambda key: f"<:hs_{key}:1577235060052983808>")
    view = HotStreak.new(4, 7).view(None)
    chances = odds_for("hotstreak", view, budget_ms=None)
    assert chances is not None
    embed = present.odds_embed(view, chances)
    fields = "\n".join(field.value or "" for field in embed.fields)
    assert all(len(field.value or "") <= 1024 for field in embed.fields)
    for name in ("Gobbler", "Hurley", "Dangle", "Mum"):
        assert f"{name} ticket (safe)" in fields and f"{name} ticket (risky)" in fields
    assert "Side bet YES (risky)" in fields and "Side bet NO (safe)" in fields


async def test_a_late_odds_press_says_where_the_odds_are_now(world: World, bot: RaceBot) -> None:
    """The Odds button of a betting message pressed once the bets are in: not "nothing to show", but
    where the odds went (the race picture)."""
    # Two cards a second: the race is still on when the press comes (at pace 0 it could end first, and the
    # press then met the next race's betting, which has odds to show).
    lobby, table = await open_table(world, "bob", ai=0, pace=0.5)
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await world.fake.wait_for(lambda: bool(table.bet_buttons()), timeout=30, what="the betting prompt")
    prompt = table.bet_buttons()[-1][0]
    odds_id = next(b.custom_id or "" for b in prompt.buttons if (b.custom_id or "").endswith(":ask:odds"))
    shown = copy.deepcopy(prompt.components)

    def racing() -> bool:
        return any(m.content.startswith("**Card") for m in world.fake.channel_messages(world.channel))

    for _ in range(100):  # everyone bets and picks a card; the race starts
        if racing():
            break
        before = table.signature()
        if not await table.step(set()):
            await world.fake.wait_for(lambda b=before: racing() or table.signature() != b, timeout=30)
    assert racing()
    # A press from a client that still shows the betting message's buttons (the edit that took them
    # away has not reached it yet), as happens when someone presses just as the table moves on.
    prompt.components = shown
    ix = await world.fake.click(world.users["dave"], prompt, odds_id)
    await world.fake.wait_for(
        lambda: "📊" in text_of([m for m in ix.messages if m.ephemeral]) or "nothing" in text_of(ix.messages),
        timeout=10,
        what="the answer",
    )
    answer = text_of([m for m in ix.messages if m.ephemeral])
    assert "nothing to show" not in answer
    assert "The betting is over" in answer and "race picture" in answer


async def test_a_frame_whose_odds_fail_is_still_drawn_and_described(
    world: World, bot: RaceBot, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A frame's odds and its picture's description are worked out only when it is drawn (``with_odds``):
    odds that fail leave the picture, and its description of the race, without them."""
    from bot import workers  # (not the cog's module: an extension reloaded by another test is a new one)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the odds worker fell over")

    monkeypatch.setattr(workers, "odds", broken)
    lobby, table = await open_table(world, "bob", ai=2)
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await table.play_to_the_end()
    pictures = [f for f in live.frames(world.fake.channel_messages(world.channel)) if "**Card" in f.content]
    assert pictures
    for frame in pictures:
        alt = frame.picture.description or ""
        assert "Gobbler" in alt and "Tickets:" in alt and not ODDS.search(alt), alt
