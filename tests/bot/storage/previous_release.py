"""A storage client of the previous release, run in its own process by test_storage_upgrade.

Started with the previous release's ``bot`` package first on ``sys.path``; reads one command per line on
stdin and answers one JSON line on stdout, so the test can run new migrations between its steps while
it stays connected (a shard of the old release during a rolling restart):

  open <url> <owner>   open the storage (the schema as that release knew it) and hold leases as owner
  play                 create a game, store two actions, change its seats, settle it, read a board
  quit
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


async def main() -> None:
    from bot.storage import Storage
    from bot.storage.records import PlayerResult

    storage: Any = None
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        command, *args = line.split()
        try:
            if command == "open":
                storage = await Storage.open(args[0])
                if storage.shared:
                    storage.hold_leases_as(args[1], 30.0)
                answer: dict[str, Any] = {"ok": True}
            elif command == "play":
                seats = [{"user_id": 901, "name": "old"}, {"user_id": None, "name": "Ada"}]
                game = await storage.create_game("horserace", 77, 7701, 5, {}, seats, status="lobby")
                await storage.update_game(game, seats=seats, status="running")
                await storage.append_action(game, 0, {"type": "roll"})
                await storage.append_action(game, 1, {"type": "roll"})
                results = [
                    PlayerResult(0, 901, "old", 130, 30, 1, True),
                    PlayerResult(1, None, "Ada", 70, -30, 2, False),
                ]
                settled = await storage.finish_game(game, results)
                rows, ranked = await storage.leaderboard(77, "horserace", None, 0)
                answer = {
                    "ok": True,
                    "game": game,
                    "settled": settled,
                    "board": [[r.user_id, r.net] for r in rows],
                    "ranked": ranked,
                }
            else:
                break
        except Exception as error:  # the test shows it
            answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)
    if storage is not None:
        await storage.close()


if __name__ == "__main__":
    asyncio.run(main())
