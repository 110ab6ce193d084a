"""Clicks on a running game's components: a decision, "My hand", a question, a menu's page.

The table decides (``Table.decide``); this module turns what came of it into the clicker's answer.
Every answer to a click that changes nothing is private.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.discord_io.outgoing import Outgoing, drawn
from bot.discord_io.place import answering_click
from bot.games.base import Decision
from bot.i18n import speaking
from bot.tables import answers, custom_ids
from bot.tables.answers import followup, reply
from bot.tables.table import Outcome, Table

log = logging.getLogger(__name__)


async def on_decision(table: Table, interaction: discord.Interaction, click: custom_ids.Decide) -> None:
    """A decision button or menu: refused at once if it can be, else acknowledged, then decided."""
    refused = table.check_click(interaction.user.id, click)
    if refused is not None:
        await reply(interaction, refused.answer)
        return
    try:
        await interaction.response.defer()
    except discord.NotFound:
        # Discord gave up on the click before the bot could answer it (3 s; a bot far behind its load):
        # the clicker sees "This interaction failed" and the same buttons, so the click is not applied,
        # and a second click works. Applying it would leave them unsure whether it counted.
        log.warning("A click in game %s came too late to answer; not applied", table.game_id)
        return

    async def told(outcome: Outcome) -> None:
        if not outcome.applied or _routed(interaction):
            # A refusal, or "I couldn't save that"; or a click another process passed on, whose
            # message this one cannot tell apart (a DM or a public prompt): said privately.
            await followup(interaction, outcome.answer)
        elif _private(interaction):
            await collapse(interaction, outcome.answer)
        # A decision in the channel answers for itself: the public message it changes (the deferred
        # update acknowledged the click), with no private "✅ done" besides.

    if _private(interaction) or _routed(interaction):
        await table.decide(interaction.user.id, click, told)
    else:
        with answering_click(interaction):  # the prompt it changes is edited through the click
            await table.decide(interaction.user.id, click, told)
    following = table.prompts.take_continued(click.seat)
    if following is not None:
        await go_on(table, interaction, click.seat, following)


async def go_on(table: Table, interaction: discord.Interaction, seat: int, decision: Decision) -> None:
    """The same wait goes on with a private decision: shown where they clicked (a private prompt is
    edited into it; after a click in the channel, a private answer holds it), so it does not notify
    them a second time for one wait. If that fails, their DM (which notifies) is the way left."""
    with speaking(table.seat_language(seat)):
        out = table.presenter.private_prompt(table.view(seat), decision)
    await drawn(out)
    try:
        if _private(interaction) and not _routed(interaction):
            await interaction.edit_original_response(**table.voice.dress(out, editing=True))
        else:
            await interaction.followup.send(**table.voice.dress(out), ephemeral=True)
    except discord.HTTPException:
        await table.voice.dm(seat, out)


def _routed(interaction: discord.Interaction) -> bool:
    """A click another process acknowledged and passed on (``bot.tables.routing``)."""
    return bool(getattr(interaction, "routed", False))


def _private(interaction: discord.Interaction) -> bool:
    """Whether the click was on a message only the clicker sees (a DM, or a private answer)."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


async def collapse(interaction: discord.Interaction, label: str) -> None:
    """An answered private prompt becomes the record of what was chosen: its controls go, its words
    say the choice (an edit of the clicked message: nothing new to read, nothing that notifies)."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.edit_original_response(content=label, view=None)


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
    if out.render is not None:  # a picture to draw first (off the event loop): acknowledged now
        await interaction.response.defer(ephemeral=True, thinking=True)
        await drawn(out)
        with contextlib.suppress(discord.HTTPException):
            await interaction.followup.send(**table.voice.dress(out), ephemeral=True)
        return
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
    await drawn(out)  # a private choice's picture goes with its page (in a thread: tens of ms)
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.edit_message(**table.voice.dress(out, editing=True, page=click.page))
