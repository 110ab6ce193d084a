"""Downforce's show through the fake Discord: every track picture of the race until a car finishes carries
each car's chance to win (drawn in the places panel, said in the alt text), and the final scores come with
a replay of the race."""

from __future__ import annotations

import re

from bot.client import RaceBot
from tests.cogs import live
from tests.cogs.conftest import World
from tests.cogs.replays import assert_replay_came_after_the_results, wait_for_replays
from tests.cogs.test_downforce import open_table


async def test_pictures_say_the_odds_and_the_final_scores_bring_a_replay(world: World, bot: RaceBot) -> None:
    _, table = await open_table(world, "bob", ai=1)
    await table.play_to_the_end()
    channel = table.channel()

    frames = [f.picture for f in live.frames(channel) if "**Card" in f.content]
    assert len(frames) >= 5
    # Once a car has finished, the win is decided: the pictures leave the odds out from then on.
    decided = [p for p in frames if "finished" in (p.description or "")]
    assert all("Chance to win" not in (p.description or "") for p in decided)
    racing = [p for p in frames if p not in decided]
    assert len(racing) >= 5
    for picture in racing:
        assert picture.description is not None
        chances = re.findall(r"(\w+) (\d+)%", picture.description.split("Chance to win: ")[1])
        assert {car for car, _ in chances} == {"black", "blue", "green", "yellow", "orange", "red"}
        assert 94 <= sum(int(p) for _, p in chances) <= 106  # whole percentages of one race

    final = next(m for m in channel if "Final scores" in m.text)
    await wait_for_replays(world.fake, [final])
    assert_replay_came_after_the_results(final, "Animated replay of the Downforce race")
