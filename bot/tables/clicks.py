"""Clicks on a running game's components: a decision, "My hand", a question, a menu's page.

The table decides (``Table.decide``); this module turns what came of it into the clicker's answer.
Every answer to a click that changes nothing is private.
"""

from __future__ import annotations

import contextlib

import discord

from bot.discord_io.outgoing import Outgoing
from bot.i18n import speaking
from bot.tables import answers, custom_ids
from bot.tables.answers import followup, reply
from bot.tables.table import Outcome, Table


async def on_decision(table: Table, interaction: discord.Interaction, click: custom_ids.Decide) -> None:
    """A decision button or menu: refused at once if it can be, else acknowledged, then decided."""
    refused = table.check_click(interaction.user.id, click)
    if refused is not None:
        await reply(interaction, refused.answer)
        return
    await interaction.response.defer()

    async def told(outcome: Outcome) -> None:
        await followup(interaction, outcome.answer)

    await table.decide(interaction.user.id, click, told)


def private_message(table: Table, seat: int) -> Outgoing:
    """The seat's secret prompt if it has a private decision pending, else its hand."""
    private = [d for d in table.human_pending() if d.player == seat and table.is_private(d)]
    if private:
        return table.presenter.private_prompt(table.view(seat), private[0])
    return table.presenter.hand(table.view(seat))


async def show_hand(table: Table, interaction: discord.Interaction) -> None:
    seat = table.seat_of(interaction.user.id)
    if seat is None or table.engine is None:
        await reply(interaction, answers.NOT_PLAYING)
        return
    out = private_message(table, seat)
    await interaction.response.send_message(**table.voice.dress(out), ephemeral=True)


async def on_ask(table: Table, interaction: discord.Interaction, topic: str) -> None:
    """A question button (a game's odds...): answered privately, to players and watchers alike."""
    if table.engine is None:
        await reply(interaction, answers.NOT_STARTED)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    out = await table.presenter.answer(table.view(), table.seat_of(interaction.user.id), topic)
    if out is None:
        await followup(interaction, answers.NOTHING_TO_SHOW)
        return
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(**table.voice.dress(out), ephemeral=True)


async def on_menu_page(table: Table, interaction: discord.Interaction, click: custom_ids.MenuPage) -> None:
    """Turn a long menu to another page, in the message that holds it."""
    seat = table.seat_of(interaction.user.id)
    if seat is None or table.engine is None or seat != click.seat:
        await reply(interaction, answers.NOT_YOUR_MENU)
        return
    decision = table.engine.decision_for(seat, click.kind)
    if click.n != table.acted[seat] or decision is None:
        await reply(interaction, answers.STALE)
        return
    if table.is_private(decision):
        out = private_message(table, seat)
    else:  # a menu in the channel's prompt
        with speaking(table.language):  # the channel's prompt, paged for the clicker: still public
            prompt = await table.presenter.prompt(table.view())
        if prompt is None:
            await reply(interaction, answers.STALE)
            return
        out = prompt[1]
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.edit_message(**table.voice.dress(out, editing=True, page=click.page))
