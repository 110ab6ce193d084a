"""Watching the Horse Race Game through the fake Discord: exact odds on the board, a replay per race."""

from __future__ import annotations

from bot.client import RaceBot
from tests.cogs.conftest import World, join
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
    for message in wins:
        (replay,) = message.attachments
        assert replay.filename.endswith(".gif") and replay.size < 8 * 1024 * 1024
        assert (replay.description or "").startswith("Animated replay of Horse Race race")
        assert message.embeds[0]["image"]["url"] == f"attachment://{replay.filename}"
