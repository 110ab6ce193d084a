"""Downforce with every power card (powers=all) on each special track, through the fake Discord to the
final scores: powers come with the cars at auction, a player with several keeps one in secret, optional
powers are buttons for their owner, and the track's features (loops, ramps, cracks, animals) play out."""

from __future__ import annotations

import pytest

from bot.client import RaceBot
from tests.cogs.conftest import World
from tests.cogs.test_downforce import open_table

SPECIAL_TRACKS = ("crosstown-speedway", "switchback-pass", "aloha-sands", "savanna-stretch")


@pytest.mark.parametrize("track", SPECIAL_TRACKS)
async def test_a_whole_game_with_every_power_on_a_special_track(
    world: World, bot: RaceBot, track: str
) -> None:
    lobby, table = await open_table(world, "bob", "dave", track=track, powers="all")
    assert "six of all twelve powers" in lobby.text
    await table.play_to_the_end()
    public = table.public_text()
    assert "It comes with the" in public  # each car's power is shown at its auction
    final = next(m for m in table.channel() if "Final scores" in m.text)
    for name in ("alice", "bob", "dave"):
        assert name in final.text
    rows, total = await bot.storage.leaderboard(world.guild.id, "downforce", None, 0)
    assert total == 3
    print(f"{track}: channel buttons pressed: {sorted(set(table.clicked))}")
