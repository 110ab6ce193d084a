"""Buttons and menus that survive a restart: their ``custom_id`` carries the game and the step.

Every game component funnels into ``RaceBot.tables.on_component``; a click on a message from an
earlier step, or from a game that has ended, is recognised there and answered, never applied twice.

custom_id forms (all under Discord's 100 characters):
  ``g:<game>:lobby:<op>``                        lobby buttons (join, leave, ai, start, cancel)
  ``g:<game>:hand``                              "My hand": the clicker's private view, ephemeral
  ``g:<game>:d:<seat>:<n>:<kind>:<choice json>`` a decision button for ``seat`` after its n-th action
  ``gs:<game>:<seat>:<n>:<kind>``                a decision menu; each value is an option as JSON
  ``g:<game>:page:<...>``                        paging for leaderboards and the like
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.client import RaceBot

BUTTON_TEMPLATE = r"g:(?P<game>\d+):(?P<rest>.+)"
SELECT_TEMPLATE = r"gs:(?P<game>\d+):(?P<rest>.+)"


def decision_id(game_id: int, seat: int, n: int, kind: str, choice: Any) -> str:
    return f"g:{game_id}:d:{seat}:{n}:{kind}:{json.dumps(choice, separators=(',', ':'))}"


def select_id(game_id: int, seat: int, n: int, kind: str) -> str:
    return f"gs:{game_id}:{seat}:{n}:{kind}"


def option_value(choice: Any) -> str:
    return json.dumps(choice, separators=(",", ":"))


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(
        self,
        custom_id: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], custom_id=custom_id, style=style, emoji=emoji, disabled=disabled, row=row
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> GameButton:
        return cls(item.custom_id or "", item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction[RaceBot]) -> None:  # type: ignore[override]
        match = self.template.match(self.custom_id)
        assert match is not None
        await interaction.client.tables.on_component(interaction, int(match["game"]), match["rest"], None)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str = "") -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id, options=options[:25], placeholder=placeholder[:150] or None
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> GameSelect:
        return cls(item.custom_id or "", list(item.options))

    async def callback(self, interaction: discord.Interaction[RaceBot]) -> None:  # type: ignore[override]
        match = self.template.match(self.custom_id)
        assert match is not None
        values = list(self.item.values)
        await interaction.client.tables.on_component(
            interaction, int(match["game"]), "s:" + match["rest"], values
        )
