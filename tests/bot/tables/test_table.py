"""The table's own rules: timed steps, who is waited for, which option a click picks, result rows."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.base import Action, Decision
from bot.games.catalog import CATALOG
from bot.tables import custom_ids
from bot.tables import table as table_module
from bot.tables.presenter import Choice, Controls, Outgoing
from bot.tables.seats import Seat
from bot.tables.table import _STALE_CHOICE, _chosen
from tests.bot.tables.quiet_host import QuietHost, RecordingTable

END = 1_900_000_000.0
NEXT_RACE = Action(None, "next_race", "next_race")


def a_table(kind: str, seats: list[Seat], settings: dict[str, Any]) -> RecordingTable:
    entry = CATALOG[kind]
    return RecordingTable(
        QuietHost(),  # type: ignore[arg-type]
        entry,
        QuietHost.presenter_for(entry),
        game_id=1,
        guild_id=1,
        channel_id=1,
        host_id=1,
        seed=5,
        seats=seats,
        settings=settings,
    )


def clock_game(rolls: str = "auto") -> RecordingTable:
    seats = [Seat("alice", user_id=1), Seat("bob", user_id=2)]
    settings = {"rolls": rolls, "pace": 0.0, "engine": {"end": "minutes", "minutes": 30, "ends_at": END}}
    table = a_table("horserace", seats, settings)
    table.start_engine([])
    return table


async def test_a_timed_step_waits_for_its_time_while_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = clock_game()
    monkeypatch.setattr(table_module, "now", lambda: END - 60)
    for _ in range(5):
        await table._step()
    kinds = [a["kind"] for a in table.bot.storage.actions]
    assert kinds[0] == "next_race" and "time_up" not in kinds and kinds.count("roll") == 4
    monkeypatch.setattr(table_module, "now", lambda: END + 1)
    await table._step()
    assert table.bot.storage.actions[-1] == {"player": None, "kind": "time_up", "choice": None}
    assert table.public_view()["time_up"]


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


def test_a_click_picks_the_option_at_its_index_or_the_old_ids_value() -> None:
    decision = Decision(0, "bet", ("ticket:a:safe", "ticket:b:risky", ["x", "y"]))
    assert _chosen(decision, custom_ids.Decide(1, 0, 0, "bet", index=1)) == "ticket:b:risky"
    assert _chosen(decision, custom_ids.Decide(1, 0, 0, "bet", choice=["x", "y"], legacy=True)) == ["x", "y"]
    assert _chosen(decision, custom_ids.Decide(1, 0, 0, "bet", index=3)) is _STALE_CHOICE
    assert _chosen(decision, custom_ids.Decide(1, 0, 0, "bet", choice="gone", legacy=True)) is _STALE_CHOICE


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
    rows = table.results()
    assert [(r.user_id, r.name) for r in rows] == [(1, "alice"), (2, "bob"), (None, "Ada (AI)")]
    for row, result in zip(rows, engine.results(), strict=True):
        assert (row.cash, row.net, row.place, row.won) == (result.cash, result.net, result.place, result.won)
        assert [(s.label, s.outcome, s.amount) for s in row.stakes] == [
            (s.label, s.outcome, s.amount) for s in result.stakes
        ]


class Answers:
    """What a clicked component was answered: messages, and edits of the clicked message."""

    def __init__(self, user_id: int) -> None:
        self.user = type("User", (), {"id": user_id})()
        self.said: list[str] = []
        self.edited: list[dict[str, Any]] = []
        self.response = self
        self.followup = self

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str = "", **kwargs: Any) -> None:
        self.said.append(text)

    async def send(self, text: str = "", **kwargs: Any) -> None:
        self.said.append(text)

    async def edit_message(self, **kwargs: Any) -> None:
        self.edited.append(kwargs)


async def test_a_long_menu_turns_its_pages_in_place_and_an_old_page_button_is_stale() -> None:
    table = a_table("hotstreak", [Seat("alice", user_id=1), Seat("bob", user_id=2)], {})
    table.start_engine([])
    assert table.engine is not None
    decision = table.engine.pending()[0]
    many = Controls(
        decision.player, decision.kind, tuple(Choice(i % 3, f"option {i}") for i in range(60)), menu=True
    )
    table.presenter.private_prompt = lambda t, seat, d: Outgoing(content="pick", controls=many)  # type: ignore[method-assign]

    async def prompt(t: object) -> tuple[str, Outgoing]:
        return "key", Outgoing(content="pick", controls=many)

    table.presenter.prompt = prompt  # type: ignore[method-assign]
    seat = decision.player
    assert seat is not None
    clicker = Answers(user_id=seat + 1)
    await table.on_menu_page(clicker, custom_ids.MenuPage(1, seat, 0, decision.kind, 2))  # type: ignore[arg-type]
    [edit] = clicker.edited
    menu = edit["view"].children[0]
    assert [o.label for o in menu.item.options][0] == "option 50"
    stale = Answers(user_id=seat + 1)
    await table.on_menu_page(stale, custom_ids.MenuPage(1, seat, 3, decision.kind, 1))  # type: ignore[arg-type]
    assert stale.edited == [] and "earlier step" in stale.said[0]
    stranger = Answers(user_id=99)
    await table.on_menu_page(stranger, custom_ids.MenuPage(1, seat, 0, decision.kind, 1))  # type: ignore[arg-type]
    assert stranger.edited == [] and "isn't yours" in stranger.said[0]
