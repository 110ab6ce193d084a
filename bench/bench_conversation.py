"""How the bot talks in one game of each kind, as players feel it: three people and an AI seat, pace 0,
DMs open, played to the end through the fake Discord (``tests/cogs/conversation_game.py``).

Prints per game: the bot's messages made and still there at the end in the game's channel and threads,
edits, pictures, notifications per person (mentions that ring, and DMs), channel mentions per person,
private acknowledgements per click kind, requests that count against the global limit and requests per
decision made. Run: ``python bench/bench_conversation.py [--json] [--games hotstreak,horserace,downforce]``.
The budgets (``tests/cogs/test_conversation.py``) and the figures before and after are in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.client import PERMISSIONS, RaceBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.fakediscord import FakeDiscord, running_bot  # noqa: E402
from tests.cogs.conversation_game import START, play_one  # noqa: E402
from tests.cogs.timings import FAST  # noqa: E402


async def one(kind: str, folder: Path) -> dict[str, Any]:
    async with FakeDiscord(rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guild = fake.add_guild("Bench Server", bot_permissions=PERMISSIONS.value)
        channel = guild.add_text_channel("games")
        people = [fake.add_user(name, guild=guild) for name in ("alice", "bob", "carol")]
        settings = Settings(token=fake.token, database_url=str(folder / f"{kind}.db"), default_where="thread")
        async with running_bot(fake, RaceBot(settings, timing=FAST)) as bot:
            played = await play_one(fake, bot.storage, channel, kind, people)
        return {"game": kind} | played.figures({p.id: p.name for p in people})


async def main(kinds: list[str]) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        return [await one(kind, Path(folder)) for kind in kinds]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--games", default=",".join(START), help="which games, comma-separated")
    args = parser.parse_args()
    results = asyncio.run(main(args.games.split(",")))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for row in results:
            print(f"{row.pop('game')}:")
            for key, value in row.items():
                print(f"  {key}: {value}")
