"""A decision's controls: buttons or a menu, ids given by the table, long menus paged."""

from __future__ import annotations

import discord

from bot.tables import custom_ids
from bot.tables.components import MENU_SIZE, Choice, Controls, add_controls, pages


def menu_of(count: int) -> Controls:
    return Controls(
        1, "pick", tuple(Choice(i, f"option {i}") for i in range(count)), menu=True, placeholder="Pick"
    )


def test_buttons_carry_their_choice_index_and_the_seats_step() -> None:
    view = discord.ui.View(timeout=None)
    controls = Controls(0, "bet", (Choice(0, "A", style="danger", emoji="🦃", row=1), Choice(3, "B")))
    add_controls(view, 44, 5, controls)
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == [custom_ids.decision(44, 0, 5, "bet", 0), custom_ids.decision(44, 0, 5, "bet", 3)]


def test_a_menu_of_up_to_25_options_is_one_menu_without_paging() -> None:
    view = discord.ui.View(timeout=None)
    add_controls(view, 1, 0, menu_of(MENU_SIZE))
    [menu] = view.children
    assert isinstance(menu.item, discord.ui.Select)  # type: ignore[attr-defined]
    assert len(menu.item.options) == 25  # type: ignore[attr-defined]


def test_a_menu_of_more_than_25_options_pages_and_no_option_is_lost() -> None:
    controls = menu_of(60)
    assert pages(controls) == 3
    seen: list[str] = []
    for page in range(3):
        view = discord.ui.View(timeout=None)
        add_controls(view, 1, 0, controls, page)
        menu, previous, following = view.children
        seen += [o.value for o in menu.item.options]  # type: ignore[attr-defined]
        assert previous.item.disabled == (page == 0)  # type: ignore[attr-defined]
        assert following.item.disabled == (page == 2)  # type: ignore[attr-defined]
        assert custom_ids.parse(following.custom_id) == custom_ids.MenuPage(1, 1, 0, "pick", page + 1)  # type: ignore[attr-defined]
        assert f"({page + 1}/3)" in (menu.item.placeholder or "")  # type: ignore[attr-defined]
    assert seen == [custom_ids.menu_value(i) for i in range(60)]


def test_a_page_out_of_range_shows_the_nearest_page() -> None:
    view = discord.ui.View(timeout=None)
    add_controls(view, 1, 0, menu_of(30), page=9)
    assert view.children[0].item.options[0].value == "i25"  # type: ignore[attr-defined]
