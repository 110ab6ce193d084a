"""Clicks on a running game's components: a decision, "My hand", a menu's page.

Every answer to a click that changes nothing is private; a click is applied only if it comes
from the seat it is for, at the step it was posted for, with an option that is pending now.
"""

from __future__ import annotations

import contextlib
import json
import logging

import discord

from bot.games.base import JSON, Action, Decision, IllegalAction
from bot.i18n import N_, _, speaking
from bot.storage import StaleAction, StorageError
from bot.tables import custom_ids
from bot.tables.presenter import Outgoing
from bot.tables.table import SAVE_FAILED, STALE, UNREADABLE, EngineFailed, Table, followup, reply

log = logging.getLogger(__name__)

GAME_BROKE = N_("That move broke the game's rules engine (a bug on our side), so the game was closed.")


async def on_decision(table: Table, interaction: discord.Interaction, click: custom_ids.Decide) -> None:
    """A decision button or menu: checked against the clicker, the step and the options, then applied."""
    seat, n, kind = click.seat, click.n, click.kind
    mine = table.seat_of(interaction.user.id)
    if mine is None:
        await reply(interaction, _("You're not playing in this game."))
        return
    if table.engine is None:
        await reply(interaction, _("The game hasn't started yet."))
        return
    if not 0 <= seat < len(table.seats):
        await reply(interaction, UNREADABLE)
        return
    if mine != seat:
        await reply(interaction, _("That's for {name}, not you.", name=table.seats[seat].shown))
        return
    if n != table.acted[seat] or not any(d.player == seat and d.kind == kind for d in table.human_pending()):
        await reply(interaction, STALE)
        return
    if click.index is None and not click.legacy:
        await reply(interaction, _("Pick an option first."))
        return
    await interaction.response.defer()
    async with table.lock:
        decision = table.engine.decision_for(seat, kind) if table.engine else None
        if table.closed or n != table.acted[seat] or decision is None:
            await followup(interaction, STALE)
            return
        choice = _chosen(decision, click)
        if choice is _STALE_CHOICE:
            await followup(interaction, STALE)
            return
        try:
            events = await table.commit(Action(seat, kind, choice))
        except IllegalAction as error:
            await followup(interaction, _("Not allowed: {reason}", reason=error))
            return
        except (StaleAction, StorageError):
            log.exception("Could not store an action of game %s", table.game_id)
            await followup(interaction, SAVE_FAILED)
            return
        except EngineFailed:
            await followup(interaction, GAME_BROKE)
            return
        await followup(interaction, table.presenter.choice_label(table, seat, decision, choice))
        await table.publish(events)
    table.wake.set()


def private_message(table: Table, seat: int) -> Outgoing:
    """The seat's secret prompt if it has a private decision pending, else its hand."""
    private = [d for d in table.human_pending() if d.player == seat and table.is_private(d)]
    if private:
        return table.presenter.private_prompt(table, seat, private[0])
    return table.presenter.hand(table, seat)


async def show_hand(table: Table, interaction: discord.Interaction) -> None:
    seat = table.seat_of(interaction.user.id)
    if seat is None or table.engine is None:
        await reply(interaction, _("You're not playing in this game."))
        return
    out = private_message(table, seat)
    await interaction.response.send_message(**table.message_kwargs(out), ephemeral=True)


async def on_ask(table: Table, interaction: discord.Interaction, topic: str) -> None:
    """A question button (a game's odds...): answered privately, to players and watchers alike."""
    if table.engine is None:
        await reply(interaction, _("The game hasn't started yet."))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    out = await table.presenter.answer(table, table.seat_of(interaction.user.id), topic)
    if out is None:
        await followup(interaction, _("There's nothing to show for that right now."))
        return
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(**table.message_kwargs(out), ephemeral=True)


async def on_menu_page(table: Table, interaction: discord.Interaction, click: custom_ids.MenuPage) -> None:
    """Turn a long menu to another page, in the message that holds it."""
    seat = table.seat_of(interaction.user.id)
    if seat is None or table.engine is None or seat != click.seat:
        await reply(interaction, _("This menu isn't yours."))
        return
    decision = table.engine.decision_for(seat, click.kind)
    if click.n != table.acted[seat] or decision is None:
        await reply(interaction, STALE)
        return
    if table.is_private(decision):
        out = private_message(table, seat)
    else:  # a menu in the channel's prompt
        with speaking(table.language):  # the channel's prompt, paged for the clicker: still public
            prompt = await table.presenter.prompt(table)
        if prompt is None:
            await reply(interaction, STALE)
            return
        out = prompt[1]
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.edit_message(**table.message_kwargs(out, editing=True, page=click.page))


_STALE_CHOICE = object()


def _chosen(decision: Decision, click: custom_ids.Decide) -> JSON:
    """The option a click picked, or ``_STALE_CHOICE`` when it is not among the options now."""
    if click.legacy:  # an id posted before choices were indexes: the option itself, as JSON
        canon = json.dumps(click.choice, sort_keys=True)
        found = [o for o in decision.options if json.dumps(o, sort_keys=True) == canon]
        return found[0] if found else _STALE_CHOICE
    if click.index is None or not 0 <= click.index < len(decision.options):
        return _STALE_CHOICE
    return decision.options[click.index]
