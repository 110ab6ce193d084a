"""Buttons and menus that survive a restart: one dynamic item reads every component's ``custom_id``.

Every click but a leaderboard page's and the privacy buttons' becomes the client's ``game_component`` event, which hands it
to ``Tables.on_component`` (ids are parsed by ``custom_ids``), so a click on a message from an
earlier step, from a game that has ended, or a forged id is answered there, privately, and never
applied twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot import emojis
from bot.i18n import _
from bot.tables import custom_ids

MENU_SIZE = 25  # Discord's most options in one select menu
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Component(discord.ui.DynamicItem[discord.ui.Item[Any]], template=custom_ids.NOT_A_COG_TEMPLATE):
    """Any component of the bot's messages, button or menu, whatever its id says (but a leaderboard
    page's, which ``cogs.stats`` answers, and the privacy buttons, which ``cogs.about`` answers)."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Component:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.languages.hear(interaction)  # type: ignore[attr-defined]
        data: Any = interaction.data or {}
        values = data.get("values") if isinstance(data, dict) else None
        values = [str(v) for v in values] if isinstance(values, list) else None
        # Signalled, not called: the client hands it to the registry (``RaceBot.on_game_component``).
        interaction.client.dispatch("game_component", interaction, self.custom_id, values)
        # discord.py made a View of the clicked message's components to find this item; nothing uses it
        # after this callback. Emptied, it and its items are freed at once rather than left as a cycle
        # for the garbage collector (see ``Frozen``).
        if self.view is not None:
            self.view.clear_items()


class Frozen(discord.ui.View):
    """A message's components as the JSON Discord is sent, taken from a view once (``frozen``).

    Why: a ``discord.ui.View`` and its items refer to each other, so reference counting never frees
    them and the garbage collector must. The table dresses every message it sends with a new view (every
    card of a live race carries **Bet**), and at 500 games those views were most of what the
    collections freed: 1.02 million objects in 180 s, and the young collections' pauses set the
    event loop's lag tail (``docs/scaling.md``). A frozen view holds plain dicts and no items, so it is
    freed as soon as its message is sent.

    It is finished from the start, so discord.py never stores it to dispatch clicks: the bot's clicks
    reach it through ``Component``, a dynamic item that reads any message's ids."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False


def frozen(view: discord.ui.View) -> Frozen:
    """``view``'s components, frozen; ``view`` itself is emptied (its items let go of it)."""
    rows = view.to_components()
    view.clear_items()
    return Frozen(rows)


def button(
    custom_id: str,
    label: str,
    *,
    style: str = "secondary",
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> Component:
    return Component(
        discord.ui.Button(
            label=emojis.plain(label)[:80],
            custom_id=custom_id,
            style=STYLES.get(style, discord.ButtonStyle.secondary),
            emoji=emoji,
            disabled=disabled,
            row=row,
        )
    )


def select(
    custom_id: str, options: list[discord.SelectOption], placeholder: str = "", row: int | None = None
) -> Component:
    return Component(
        discord.ui.Select(
            custom_id=custom_id,
            options=options[:MENU_SIZE],
            placeholder=emojis.plain(placeholder)[:150] or None,
            row=row,
        )
    )


# --- a decision's components, from the presenter's plain description -------------------


@dataclass(frozen=True)
class Choice:
    """One option of a pending decision, as a button or a menu line."""

    index: int  # the option's index in ``decision.options``
    label: str
    style: str = "secondary"  # primary | secondary | success | danger
    emoji: str | None = None
    row: int | None = None


@dataclass(frozen=True)
class Controls:
    """The components for one seat's decision; the table gives them their ids."""

    seat: int
    kind: str
    choices: tuple[Choice, ...]
    menu: bool = False  # a select menu (paged past 25 options) instead of buttons
    placeholder: str = ""


def pages(controls: Controls) -> int:
    return max(1, -(-len(controls.choices) // MENU_SIZE))


def add_controls(
    view: discord.ui.View,
    game_id: int,
    n: int,
    controls: Controls,
    page: int = 0,
    *,
    token: str | None = None,
) -> None:
    """Buttons, or a menu showing ``page`` with Previous/Next buttons when the options do not fit
    (``token``: the game's, carried by every id)."""
    seat, kind = controls.seat, controls.kind
    if not controls.menu:
        for choice in controls.choices:
            view.add_item(
                button(
                    custom_ids.decision(game_id, seat, n, kind, choice.index, token=token),
                    choice.label,
                    style=choice.style,
                    emoji=choice.emoji,
                    row=choice.row,
                )
            )
        return
    count = pages(controls)
    page = min(max(page, 0), count - 1)
    shown = controls.choices[page * MENU_SIZE : (page + 1) * MENU_SIZE]
    options = [
        discord.SelectOption(
            label=emojis.plain(c.label)[:100] or "—", value=custom_ids.menu_value(c.index), emoji=c.emoji
        )
        for c in shown
    ]
    placeholder = controls.placeholder + (f" ({page + 1}/{count})" if count > 1 else "")  # page/pages
    view.add_item(select(custom_ids.menu(game_id, seat, n, kind, token=token), options, placeholder, row=0))
    if count > 1:
        view.add_item(
            button(
                custom_ids.menu_page(game_id, seat, n, kind, page - 1, token=token),
                _("◀ Previous"),
                disabled=page == 0,
                row=1,
            )
        )
        view.add_item(
            button(
                custom_ids.menu_page(game_id, seat, n, kind, page + 1, token=token),
                _("Next ▶"),
                disabled=page + 1 >= count,
                row=1,
            )
        )
