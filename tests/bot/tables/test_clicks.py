"""Clicks on a game's components: which option a click picks; long menus turn their pages in place."""

from __future__ import annotations

from typing import Any

from bot.games.base import Decision
from bot.tables import custom_ids
from bot.tables.clicks import on_menu_page
from bot.tables.custom_ids import NOT_AN_OPTION, chosen
from bot.tables.presenter import Choice, Controls, Outgoing
from bot.tables.seats import Seat
from tests.bot.tables.quiet_host import quiet_table as a_table


def test_a_click_picks_the_option_at_its_index_or_the_old_ids_value() -> None:
    decision = Decision(0, "bet", ("ticket:a:safe", "ticket:b:risky", ["x", "y"]))
    assert chosen(decision, custom_ids.Decide(1, 0, 0, "bet", index=1)) == "ticket:b:risky"
    assert chosen(decision, custom_ids.Decide(1, 0, 0, "bet", choice=["x", "y"], legacy=True)) == ["x", "y"]
    assert chosen(decision, custom_ids.Decide(1, 0, 0, "bet", index=3)) is NOT_AN_OPTION
    assert chosen(decision, custom_ids.Decide(1, 0, 0, "bet", choice="gone", legacy=True)) is NOT_AN_OPTION


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
    table.presenter.private_prompt = lambda view, d: Outgoing(content="pick", controls=many)  # type: ignore[method-assign]

    async def prompt(view: object) -> tuple[str, Outgoing]:
        return "key", Outgoing(content="pick", controls=many)

    table.presenter.prompt = prompt  # type: ignore[method-assign]
    seat = decision.player
    assert seat is not None
    clicker = Answers(user_id=seat + 1)
    await on_menu_page(table, clicker, custom_ids.MenuPage(1, seat, 0, decision.kind, 2))  # type: ignore[arg-type]
    [edit] = clicker.edited
    [menu] = edit["view"].to_components()[0]["components"]  # what Discord is sent
    assert menu["options"][0]["label"] == "option 50"
    stale = Answers(user_id=seat + 1)
    await on_menu_page(table, stale, custom_ids.MenuPage(1, seat, 3, decision.kind, 1))  # type: ignore[arg-type]
    assert stale.edited == [] and "earlier step" in stale.said[0]
    stranger = Answers(user_id=99)
    await on_menu_page(table, stranger, custom_ids.MenuPage(1, seat, 0, decision.kind, 1))  # type: ignore[arg-type]
    assert stranger.edited == [] and "isn't yours" in stranger.said[0]


def test_a_decision_click_with_another_game_s_token_is_refused_before_anything_else() -> None:
    """The check every decision click passes, a click passed on by another process too
    (``bot.tables.routing``): the token its id carries must be the game's."""
    table = a_table("hotstreak", [Seat("alice", user_id=1), Seat("bob", user_id=2)], {})
    table.token = "k3x9q0ab"
    table.start_engine([])
    assert table.engine is not None
    decision = table.engine.pending()[0]
    assert decision.player is not None
    seat, kind = decision.player, decision.kind
    assert table.check_click(seat + 1, custom_ids.Decide(1, seat, 0, kind, 0, token="k3x9q0ab")) is None
    for other in (None, "zzzzzzzz"):  # a button from before tokens, another database's game 1
        refused = table.check_click(seat + 1, custom_ids.Decide(1, seat, 0, kind, 0, token=other))
        assert refused is not None and "belongs to another game" in refused.answer
