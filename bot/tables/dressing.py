"""A message's components, made at the last moment: a decision's buttons or menu, "My hand" and the
question buttons get ids that carry the game and the deciding seat's step (``custom_ids``), so a
click on a message from an earlier step is recognised as stale."""

from __future__ import annotations

import dataclasses

import discord

from bot.discord_io.outgoing import Outgoing
from bot.i18n import _, speaking
from bot.tables import custom_ids
from bot.tables.components import add_controls, button, frozen


def dressed(
    out: Outgoing, game_id: int, acted: list[int], *, page: int = 0, token: str | None = None
) -> Outgoing:
    """``out`` with its components made (``acted``: each seat's actions so far; ``token``: the game's),
    or ``out`` itself when it has none to make."""
    if out.controls is None and not out.hand_button and not out.asks:
        return out
    with speaking(out.language):  # the buttons speak the language of the message they are on
        view = out.view or discord.ui.View(timeout=None)
        if out.controls is not None:
            n = acted[out.controls.seat] if out.controls.seat < len(acted) else 0
            add_controls(view, game_id, n, out.controls, page, token=token)
        if out.hand_button:
            hand = custom_ids.hand(game_id, token=token)
            view.add_item(button(hand, _("My hand"), emoji="🃏", row=out.hand_row))
        for topic, label, emoji in out.asks:
            asked = custom_ids.ask(game_id, topic, token=token)
            view.add_item(button(asked, label, emoji=emoji, row=out.hand_row))
    # Only question buttons on a message that had no view: the same on every version of it (a live race's
    # **Bet**), so the outbox may queue and merge it like any race picture.
    fixed = out.view is None and out.controls is None and not out.hand_button
    if out.view is None:  # made here, for this message alone: sent as plain data (``Frozen``)
        view = frozen(view)
    return dataclasses.replace(out, view=view, controls=None, hand_button=False, asks=(), fixed_view=fixed)
