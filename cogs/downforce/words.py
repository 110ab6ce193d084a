"""Downforce in words for Discord: player names in the engine's narration, cars, cards and money.

``names`` here are the players' names as message text (``TableView.names``: markdown and mentions
escaped), written as they are.
"""

from __future__ import annotations

from typing import Any

from bot.games.downforce.narration import colour_name, millions, narrate
from bot.i18n import _
from bot.i18n.formatting import ordinal as place_of
from bot.i18n.formatting import signed as signed_money

CAR_EMOJI = {"black": "⚫", "blue": "🔵", "green": "🟢", "yellow": "🟡", "orange": "🟠", "red": "🔴"}


def line(event: Any, names: list[str]) -> str:
    """One event in the engine's words, each seat by its name in bold."""
    return narrate(event, [f"**{name}**" for name in names])


def car(colour: str) -> str:
    return f"{CAR_EMOJI.get(colour, '')} {colour_name(colour)}".strip()


def money(value: int) -> str:
    return millions(value)


def signed(value: int) -> str:
    """``+$5M``: a gain shows its sign; nothing is ``$0`` (not ``+$0M``)."""
    return _("{amount}M", amount=signed_money(value)) if value else millions(0)


def ordinal(place: int) -> str:
    return place_of(place)


def card_label(card: dict[str, Any]) -> str:
    """A card as a menu line: ``🔴 red 4 · 🔵 blue 2 · wild 3``."""
    parts = [
        car(c) + f" {n}" if c in CAR_EMOJI else _("{colour} {speed}", colour=colour_name(c), speed=n)
        for c, n in card["lines"]
    ]
    return " · ".join(parts)


def card_words(card: dict[str, Any]) -> str:
    """A card in words only, short: ``red 4 · blue 2 · wild 3`` (a menu line has no room for emojis,
    and the hand's picture shows the colours)."""
    return " · ".join(_("{colour} {speed}", colour=colour_name(c), speed=n) for c, n in card["lines"])


def hand_line(number: int, card: dict[str, Any]) -> str:
    """A card of the hand as the play menu lists it, numbered as on the hand's picture:
    ``3 · red 4 · blue 2 · wild 3``."""
    return f"{number} · {card_words(card)}"


def where(view: dict[str, Any], colour: str) -> str:
    """Where a car is, as the places panel says it: ``finished 1st`` or ``row 12``."""
    info = view["cars"][colour]
    if info["finished"]:
        return _("finished {place}", place=ordinal(info["place"]))
    if info["space"] is None:
        return _("off the track")
    space = next((s for s in view["track"]["spaces"] if s["id"] == info["space"]), None)
    return _("row {row}", row=space["row"]) if space else str(info["space"])


def places(view: dict[str, Any], names: list[str]) -> str:
    """Every car in race order with its owner and where it is."""
    rows = []
    for colour in view["standings"]:
        info = view["cars"][colour]
        owner = info["owner"]
        who = f" ({names[owner]})" if owner is not None and owner < len(names) else ""
        rank = info["place"] or info["position"]
        rows.append(f"`{ordinal(rank)}` {car(colour)}{who} · {where(view, colour)}")
    return "\n".join(rows)
