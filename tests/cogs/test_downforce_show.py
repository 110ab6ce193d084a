"""Downforce's show through the fake Discord: every track picture of the race until a car finishes carries
each car's chance to win (drawn in the places panel, said in the alt text), and the final scores come with
a replay of the race."""

from __future__ import annotations

import re

from bot.client import RaceBot
from tests.cogs.conftest import World
from tests.cogs.replays import assert_replay_came_after_the_results, wait_for_replays
from tests.cogs.test_downforce import open_table


async def test_pictures_say_the_odds_and_the_final_scores_bring_a_replay(world: World, bot: RaceBot) -> None:
    _, table = await open_table(world, "bob", ai=1)
    await table.play_to_the_end()
    channel = table.channel()

    frames = [m for m in channel if m.attachments and m.content.startswith("**Card")]
    assert len(frames) >= 5
    # Once a car has finished, the win is decided: the pictures leave the odds out from then on.
    decided = [m for m in frames if "finished" in m.attachments[0].description]
    assert all("Chance to win" not in m.attachments[0].description for m in decided)
    racing = [m for m in frames if m not in decided]
    assert len(racing) >= 5
    for message in racing:
        (picture,) = message.attachments
        chances = re.findall(r"(\w+) (\d+)%", picture.description.split("Chance to win: ")[1])
        assert {car for car, _ in chances} == {"black", "blue", "green", "yellow", "orange", "red"}
        assert 94 <= sum(int(p) for _, p in chances) <= 106  # whole percentages of one race

    final = next(m for m in channel if "Final scores" in m.text)
    await wait_for_replays(world.fake, [final])
    assert_replay_came_after_the_results(final, "Animated replay of the Downforce race")
