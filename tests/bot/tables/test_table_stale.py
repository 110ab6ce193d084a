"""A table whose stored log moved on without it (a move the game's previous owner stored just before the
takeover, issue 26 point 1) reads the game again and carries on; a game ended elsewhere is let go. It
never retries the same refused step forever (the new owner froze that way)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

from bot.games.base import Action
from bot.games.catalog import CATALOG
from bot.storage import Storage
from bot.tables.seats import Seat
from bot.tables.table import LOST, Table
from bot.tables.timing import Timing
from tests.bot.tables.quiet_host import QuietHost, RecordingPlace

WAIT = 10.0  # seconds a condition may take to come true
NEXT_RACE = Action(None, "next_race", "next_race")


async def until(condition: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while not condition():
        assert loop.time() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def a_table_on(storage: Storage, channel: int) -> Table:
    seats = [Seat("alice", user_id=1), Seat("bob", user_id=2)]
    settings = {"rolls": "auto", "pace": 0.0, "engine": {"races": 1}}
    game_id = await storage.create_game("horserace", 1, channel, 5, settings, [s.to_json() for s in seats])
    host = QuietHost(timing=dataclasses.replace(Timing(), storage_retry_seconds=0.05))
    host.storage = storage  # type: ignore[assignment]
    entry = CATALOG["horserace"]
    table = Table(
        host,  # type: ignore[arg-type]
        entry,
        entry.presenter_class()(entry),
        RecordingPlace(host),
        game_id=game_id,
        guild_id=1,
        host_id=1,
        seed=5,
        seats=seats,
        settings=settings,
    )
    table.start_engine([])
    return table


async def test_a_table_behind_its_stored_log_catches_up_and_one_ended_elsewhere_is_let_go(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(str(tmp_path / "bot.db"))
    try:
        behind = await a_table_on(storage, 1)
        # The previous owner's last move landed after this table loaded the game.
        await storage.append_action(behind.game_id, 0, NEXT_RACE.to_json())
        behind.run()
        await until(lambda: behind.seq >= 4, "the table to catch up and move on")
        await behind.stop()
        stored = await storage.load_game(behind.game_id)
        assert stored is not None and len(stored.actions) == behind.seq
        assert [a["kind"] for a in stored.actions].count("next_race") == 1  # the late move, not a second

        await storage.close_game(behind.game_id, "cancelled", "Done here.")  # its players may sit again
        ended = await a_table_on(storage, 2)
        endings: list[str] = []
        ended.on_end = lambda table, why: endings.append(why)
        await storage.close_game(ended.game_id, "cancelled", "Cancelled in another process.")
        ended.run()
        await until(lambda: endings, "the table to let the game go")
        assert endings == [LOST]
        await ended.stop()
    finally:
        await storage.close()
