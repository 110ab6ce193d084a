"""The table's own rules: timed steps, who is waited for, which option a click picks, result rows."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_io.outgoing import Outgoing
from bot.games.base import Action
from bot.tables import clock
from bot.tables import table as table_module
from bot.tables.seats import Seat
from bot.tables.table import Table
from tests.bot.tables.quiet_host import RecordingPlace
from tests.bot.tables.quiet_host import quiet_table as a_table

END = 1_900_000_000.0
NEXT_RACE = Action(None, "next_race", "next_race")


def clock_game(rolls: str = "auto", pace: float = 0.0) -> Table:
    seats = [Seat("alice", user_id=1), Seat("bob", user_id=2)]
    settings = {"rolls": rolls, "pace": pace, "engine": {"end": "minutes", "minutes": 30, "ends_at": END}}
    table = a_table("horserace", seats, settings)
    table.start_engine([])
    return table


async def test_a_timed_step_waits_for_its_time_while_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = clock_game()
    monkeypatch.setattr(clock, "now", lambda: END - 60)
    for _ in range(5):
        await table._step()
    kinds = [a["kind"] for a in table.host.storage.actions]
    assert kinds[0] == "next_race" and "time_up" not in kinds and kinds.count("roll") == 4
    monkeypatch.setattr(clock, "now", lambda: END + 1)
    await table._step()
    assert table.host.storage.actions[-1] == {"player": None, "kind": "time_up", "choice": None}
    assert table.view().state["time_up"]


async def test_the_pace_is_from_one_step_to_the_next_announcing_included(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A step that took 0.2 s to announce (its odds, its picture) leaves 0.2 s of a 0.4 s pace to wait:
    the cards come at the pace, not at the pace plus the time to show them."""
    table = clock_game(pace=0.4)
    monkeypatch.setattr(clock, "now", lambda: END - 60)
    real_sleep = asyncio.sleep
    paused: list[float] = []

    async def slow_announcement(events: list) -> None:
        await real_sleep(0.2)

    async def sleep(delay: float, result: object = None) -> object:
        paused.append(delay)
        return result

    monkeypatch.setattr(table, "publish", slow_announcement)
    monkeypatch.setattr(table_module.asyncio, "sleep", sleep)
    for _ in range(3):
        await table._step()
    assert paused[0] == pytest.approx(0.4)  # the first step has nothing before it to count
    assert all(0.0 <= p < 0.25 for p in paused[1:]), paused


def test_people_are_not_waited_for_on_steps_the_table_or_an_ai_takes() -> None:
    auto = clock_game("auto")
    auto.engine.apply(NEXT_RACE)  # type: ignore[union-attr]
    assert auto.human_pending() == []
    manual = clock_game("manual")
    manual.engine.apply(NEXT_RACE)  # type: ignore[union-attr]
    [waiting] = manual.human_pending()
    assert waiting.kind == "roll"
    manual.seats[waiting.player] = Seat("Ada (AI)", ai="normal")  # type: ignore[index]
    assert manual.human_pending() == []


def test_result_rows_come_from_the_engine_and_a_leavers_loss_stays_theirs() -> None:
    seats = [
        Seat("alice", user_id=1),
        Seat("bob (AI)", ai="normal", left_user_id=2),
        Seat("Ada (AI)", ai="easy"),
    ]
    table = a_table("horserace", seats, {"engine": {"races": 1}})
    table.start_engine([])
    engine = table.engine
    assert engine is not None
    while not engine.is_over:
        decision = engine.pending()[0]
        engine.apply(Action(decision.player, decision.kind, decision.options[0]))
    rows = table.ledger.results(table.seats)
    assert [(r.user_id, r.name) for r in rows] == [(1, "alice"), (2, "bob"), (None, "Ada (AI)")]
    for row, result in zip(rows, engine.results(), strict=True):
        assert (row.cash, row.net, row.place, row.won) == (result.cash, result.net, result.place, result.won)
        assert [(s.label, s.outcome, s.amount) for s in row.stakes] == [
            (s.label, s.outcome, s.amount) for s in result.stakes
        ]


async def test_a_persons_time_counts_from_when_their_prompt_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load a prompt's post may wait for its channel's turn (40 s here, on the table's clock); the
    deadline is counted again once it is out, so the person still gets their whole turn."""
    moment = [END]
    monkeypatch.setattr(clock, "now", lambda: moment[0])
    seats = [Seat("alice", user_id=1), Seat("bob", user_id=2), Seat("carol", user_id=3)]
    table = a_table("hotstreak", seats, {"pace": 0.0})
    table.start_engine([])
    while not table.human_pending():  # the table's own steps before the first bet (if any)
        await table._step()
    place: RecordingPlace = table.place  # type: ignore[assignment]

    async def slow_send(out: Outgoing, *, wait_for_pictures: bool = False) -> None:
        moment[0] += 40.0  # waiting behind the channel's other messages
        place.sent.append(out)

    monkeypatch.setattr(place, "send", slow_send)
    await table.show_prompts()
    assert place.sent, "the bet prompt was posted"
    assert table.deadline == END + 40.0 + table.host.timing.turn_seconds
    assert table.meta["deadline"] == table.deadline  # what a restart goes on from


def test_a_game_only_the_ai_plays_keeps_a_least_pace() -> None:
    """Issue 26, point 10: a game at pace 0 whose people all left (the AI plays every seat) goes on at
    ``Timing.ai_only_pace``, not as fast as the bot can send; a game with a person keeps its pace."""
    settings = {"rolls": "auto", "pace": 0.0, "engine": {"end": "minutes", "minutes": 30, "ends_at": END}}
    people = a_table("horserace", [Seat("alice", user_id=1), Seat("bob", user_id=2)], dict(settings))
    assert people.pace == 0.0
    left = [Seat("alice (AI)", ai="normal", left_user_id=1), Seat("bob (AI)", ai="normal", left_user_id=2)]
    alone = a_table("horserace", left, dict(settings))
    assert alone.pace == alone.host.timing.ai_only_pace == 1.0
    slow = a_table("horserace", left, {**settings, "pace": 4.0})
    assert slow.pace == 4.0  # a slower pace stays


async def test_a_steps_view_is_made_once_shared_by_its_readers_and_made_again_when_the_game_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = clock_game()
    monkeypatch.setattr(clock, "now", lambda: END - 60)
    first = table.view().state
    assert table.view().state is first and table.ledger.view(None) is first  # one copy per step
    assert table.view(0).state is not first  # each audience its own
    await table._step()
    moved = table.view().state
    assert moved is not first and moved == table.engine.view(None)  # type: ignore[union-attr]


def test_a_reader_that_changes_a_shared_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.tables import ledger

    monkeypatch.setattr(ledger, "CHECK_VIEWS", True)
    table = clock_game()
    table.view().state["race"] = 99  # a presenter must never do this: others read the same view
    with pytest.raises(RuntimeError, match="changed the shared view"):
        table.ledger.forget_views()
