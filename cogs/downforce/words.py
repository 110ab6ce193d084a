"""Downforce in words for Discord: player names in the engine's narration, cars, cards and money."""

from __future__ import annotations

import re
from typing import Any

from discord.utils import escape_markdown

from bot.games.downforce.narration import colour_name, millions, narrate, seat_name
from bot.i18n import _
from bot.i18n.formatting import ordinal as place_of
from bot.i18n.formatting import signed as signed_money

CAR_EMOJI = {"black": "⚫", "blue": "🔵", "green": "🟢", "yellow": "🟡", "orange": "🟠", "red": "🔴"}


def _seat_pattern() -> re.Pattern[str]:
    """``Seat 2`` as the narration writes it in the current language (``{number}`` is the seat)."""
    marker = "\x00"
    text = re.escape(seat_name(0).replace("1", marker, 1)).replace(re.escape(marker), r"(\d+)")
    return re.compile(rf"\b{text}\b")


def named(text: str, names: list[str]) -> str:
    """The engine's narration says ``Seat 2``; the channel reads the player's name instead."""

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return f"**{escape_markdown(names[index])}**" if 0 <= index < len(names) else match.group(0)

    return _seat_pattern().sub(name, text)


def line(event: Any, names: list[str]) -> str:
    """One event in the engine's words, with names."""
    return named(narrate(event), names)


def car(colour: str) -> str:
    return f"{CAR_EMOJI.get(colour, '')} {colour_name(colour)}".strip()


def money(value: int) -> str:
    return millions(value)


def signed(value: int) -> str:
    """``+$5M``: a gain shows its sign."""
    return _("{amount}M", amount=signed_money(value))


def ordinal(place: int) -> str:
    return place_of(place)


def card_label(card: dict[str, Any]) -> str:
    """A card as a menu line: ``🔴 red 4 · 🔵 blue 2 · wild 3``."""
    parts = [
        car(c) + f" {n}" if c in CAR_EMOJI else _("{colour} {speed}", colour=colour_name(c), speed=n)
        for c, n in card["lines"]
    ]
    return " · ".join(parts)


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
        who = f" ({escape_markdown(names[owner])})" if owner is not None and owner < len(names) else ""
        rank = info["place"] or info["position"]
        rows.append(f"`{ordinal(rank)}` {car(colour)}{who} · {where(view, colour)}")
    return "\n".join(rows)
