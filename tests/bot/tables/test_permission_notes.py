"""A table whose place Discord refuses (``bot.tables.permission_notes``): while paused it takes no step
and answers clicks "paused"; when the pause ends its deadline moves on by the pause and it says it
goes on; a pause that is over for good ends the table (``BLOCKED``)."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables import answers, clock, custom_ids
from bot.tables.outcome import BLOCKED
from bot.tables.seats import Seat
from bot.tables.table import Table
from tests.bot.tables.quiet_host import RecordingPlace
from tests.bot.tables.quiet_host import quiet_table as a_table

START = 1_900_000_000.0


async def waiting_table(moment: list[float], monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setattr(clock, "now", lambda: moment[0])
    seats = [Seat("alice", user_id=1), Seat("bob", user_id=2)]
    table = a_table("hotstreak", seats, {"pace": 0.0})
    table.start_engine([])
    while not table.human_pending():
        await table._step()
    await table.show_prompts()
    return table


async def test_a_pause_stops_the_clock_and_the_table_says_when_it_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moment = [START]
    table = await waiting_table(moment, monkeypatch)
    place: RecordingPlace = table.place  # type: ignore[assignment]
    deadline = table.deadline
    assert deadline is not None
    pause = place.pause
    pause.begin()
    # A click meanwhile is answered "paused", and nothing is applied.
    decision = table.human_pending()[0]
    assert decision.player is not None
    click = custom_ids.Decide(table.game_id, decision.player, table.acted[decision.player], decision.kind, 0)
    refused = table.check_click(table.seats[decision.player].user_id or 0, click)
    assert refused is not None and refused.answer == answers.PAUSED
    # The table's loop takes no step while paused.
    stepping = asyncio.create_task(table._step())
    await asyncio.sleep(0.05)
    assert not stepping.done()
    moment[0] += 300.0  # five minutes paused
    pause.went_through()
    await asyncio.wait_for(stepping, 1.0)
    assert table.deadline == deadline + 300.0  # nobody lost time to the pause
    await asyncio.sleep(0)
    assert any("I can post here again" in out.content for out in place.sent)
    pause.stop()


async def test_a_pause_that_is_over_for_good_ends_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    table = await waiting_table([START], monkeypatch)
    ended: list[str] = []
    table.on_end = lambda _table, why: ended.append(why)
    assert table.place.pause.on_over is not None
    table.place.pause.on_over(["Send Messages"])
    assert ended == [BLOCKED] and table.closed


async def test_a_pause_that_begins_while_the_table_waits_for_its_deadline_expires_nobodys_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seen once in CI: the loop was already waiting for the deadline when the pause began (outside the
    table's lock); its wait ran out mid-pause and the turn expired ("Time's up") though the clock was
    stopped. The wait that runs out while paused changes nothing; the pause's end moves the deadline on."""
    moment = [START]
    table = await waiting_table(moment, monkeypatch)
    place: RecordingPlace = table.place  # type: ignore[assignment]
    deadline = table.deadline
    assert deadline is not None
    moment[0] = deadline - 0.05  # the loop's wait runs out in 50 ms
    seq = table.seq
    stepping = asyncio.create_task(table._step())
    await asyncio.sleep(0.01)  # the loop is in its wait
    assert not stepping.done()
    place.pause.begin()
    moment[0] = deadline + 30.0  # the deadline passes while paused
    assert await asyncio.wait_for(stepping, 1.0) is False
    assert table.seq == seq and table.human_pending()  # nobody's turn expired
    assert not any("Time" in out.content for out in place.sent)
    # The next pass waits for the pause's end, however long it takes.
    stepping = asyncio.create_task(table._step())
    await asyncio.sleep(0.1)
    assert not stepping.done() and table.seq == seq
    place.pause.went_through()
    await asyncio.wait_for(stepping, 1.0)
    assert table.deadline == pytest.approx(deadline + 30.05)  # moved on by the pause
    assert table.seq == seq
    place.pause.stop()
