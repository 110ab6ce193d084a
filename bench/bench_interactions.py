"""How fast the bot acknowledges clicks and commands (Discord allows 3 s), measured on the fake Discord.

Plays Hot Streak games between two people (betting clicks, secret picks) with the real bot and a real
SQLite file, and prints the time from each interaction to the bot's first response: median, p95, max.

    python bench/bench_interactions.py [--games 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.fakediscord import FakeDiscord, running_bot  # noqa: E402
from tests.cogs.conftest import FAST, World, join  # noqa: E402
from tests.cogs.hotstreak_player import HotStreakTable  # noqa: E402


async def play(games: int) -> list[float]:
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
            guild = fake.add_guild("Bench")
            users = {name: fake.add_user(name, guild=guild) for name in ("alice", "bob")}
            for number in range(games):
                channel = guild.add_text_channel(f"bench-{number}")
                world = World(fake, guild, channel, Path(folder) / "bot.db", users)
                async with running_bot(fake, world.bot()):
                    ix = await fake.slash(users["alice"], channel, "hotstreak start", pace=0.0)
                    lobby = await ix.reply()
                    await join(fake, lobby, users["bob"])
                    await (await fake.click_button(users["alice"], lobby, "Start")).wait_response()
                    await HotStreakTable(world, {0: users["alice"], 1: users["bob"]}).play_to_the_end()
                for interaction in fake.interactions.values():
                    if interaction.callbacks:
                        latencies.append(interaction.callbacks[0].at - interaction.created_at)
                fake.interactions.clear()
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    latencies = sorted(asyncio.run(play(args.games)))
    ms = [x * 1000 for x in latencies]
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(f"interactions: {len(ms)} in {args.games} games ({time.perf_counter() - started:.1f} s)")
    print(f"first response: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")
    print("Discord's limit: 3000 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
