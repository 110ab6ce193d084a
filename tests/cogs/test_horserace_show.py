"""Watching the Horse Race Game through the fake Discord: exact odds on the board, a replay per race
(added to the win's message once drawn: the win is never held up by it)."""

from __future__ import annotations

import time

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot, text_of
from tests.cogs.conftest import World, join
from tests.cogs.replays import assert_replay_came_after_the_results, has_replay, wait_for_replays
from tests.cogs.test_horserace import bot, open_lobby, standings

__all__ = ["bot"]  # the horse-race-only bot fixture


async def test_the_board_shows_exact_odds_and_each_win_comes_with_its_replay(
    world: World, bot: RaceBot
) -> None:
    lobby = await open_lobby(world, races=2, rolls="auto", pace=0.0)
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    await world.fake.wait_for(lambda: standings(world) is not None, timeout=90)
    messages = world.fake.channel_messages(world.channel)
    boards = [m for m in messages if any(a.filename == "board.png" for a in m.attachments)]
    seen = "\n".join(text_of(version) for board in boards for version in [board, *board.edits])
    assert "Odds (exact): horse" in seen and "% to win" in seen

    wins = [m for m in messages if "wins race" in m.text]
    assert len(wins) == 2
    await wait_for_replays(world.fake, wins)
    for message in wins:
        assert_replay_came_after_the_results(message, "Animated replay of Horse Race race")


async def test_a_restart_while_a_replay_is_drawn_keeps_the_win_once_and_skips_only_that_replay(
    world: World, monkeypatch
) -> None:
    """Ruling: the results are what matters. They are out before the replay is drawn, so a restart in
    between neither loses them nor posts them again; that one replay is skipped, the next race's is not."""
    from cogs.horserace import present

    draw = present.race_replay

    def slow_draw(frames, **options):  # noqa: ANN001, ANN003, ANN202
        time.sleep(1.5)  # long enough for the bot to be stopped while it draws
        return draw(frames, **options)

    monkeypatch.setattr(present, "race_replay", slow_draw)

    def wins() -> list[FakeMessage]:
        return [m for m in world.fake.channel_messages(world.channel) if "wins race" in m.text]

    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace",))):
        lobby = await open_lobby(world, races=2, rolls="auto", pace=0.0)
        await join(world.fake, lobby, world.users["bob"])
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: wins(), timeout=90, what="race 1 won")
    (first,) = wins()
    assert not has_replay(first)  # the bot stopped while drawing it
    monkeypatch.setattr(present, "race_replay", draw)
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace",))):
        await world.fake.wait_for(lambda: standings(world) is not None, timeout=90)
        first_again, second = wins()
        assert first_again is first and "race 1" in first.text and "race 2" in second.text
        await wait_for_replays(world.fake, [second])
    assert not has_replay(first)


async def test_a_replay_whose_results_message_was_deleted_is_posted_after_it_with_its_alt_text(
    world: World, monkeypatch
) -> None:
    from bot.fakediscord.posting import delete_message
    from cogs.horserace import present

    draw = present.race_replay

    def slow_draw(frames, **options):  # noqa: ANN001, ANN003, ANN202
        time.sleep(1.0)  # the message is deleted meanwhile
        return draw(frames, **options)

    monkeypatch.setattr(present, "race_replay", slow_draw)
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace",))):
        lobby = await open_lobby(world, races=1, rolls="auto", pace=0.0)
        await join(world.fake, lobby, world.users["bob"])
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        win = await world.fake.wait_for_message(lambda m: "wins race 1" in m.text, timeout=60)
        delete_message(world.fake, win)
        follow = await world.fake.wait_for_message(lambda m: "Replay of" in m.text, timeout=30)
    (replay,) = follow.attachments
    assert replay.filename.endswith(".gif") and "wins race 1" in follow.text
    assert (replay.description or "").startswith("Animated replay of Horse Race race 1")
    assert not win.edits  # the deleted message was left alone


async def test_a_replay_that_cannot_be_drawn_leaves_the_results_as_they_are(
    world: World, monkeypatch
) -> None:
    from cogs.horserace import present

    def broken(frames, **options):  # noqa: ANN001, ANN003, ANN202
        raise OSError("no space left for the frames")

    monkeypatch.setattr(present, "race_replay", broken)
    async with running_bot(world.fake, world.bot(extensions=("cogs.horserace",))):
        lobby = await open_lobby(world, races=1, rolls="auto", pace=0.0)
        await join(world.fake, lobby, world.users["bob"])
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        await world.fake.wait_for(lambda: standings(world) is not None, timeout=60)
    (win,) = [m for m in world.fake.channel_messages(world.channel) if "wins race" in m.text]
    assert "Jackpot split" in win.text and not win.attachments and not win.edits
    assert not any("Replay of" in m.text for m in world.fake.channel_messages(world.channel))
