"""Watching the Horse Race Game through the fake Discord: exact odds on the board, a replay per race
(added to the win's message once drawn: the win is never held up by it)."""

from __future__ import annotations

from bot.client import RaceBot
from tests.cogs.conftest import World, join
from tests.cogs.replays import assert_replay_came_after_the_results, wait_for_replays
from tests.cogs.test_horserace import bot, open_lobby, standings
from tests.fakediscord import text_of

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
