"""Downforce in words for Discord: player names in the engine's narration, cars, cards and money."""

from __future__ import annotations

import re
from typing import Any

from discord.utils import escape_markdown

from bot.games.downforce.narration import narrate
from bot.games.downforce.scoring import ORDINALS

CAR_EMOJI = {"black": "⚫", "blue": "🔵", "green": "🟢", "yellow": "🟡", "orange": "🟠", "red": "🔴"}
SEAT = re.compile(r"\bSeat (\d+)\b")


def named(text: str, names: list[str]) -> str:
    """The engine's narration says ``Seat 2``; the channel reads the player's name instead."""

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return f"**{escape_markdown(names[index])}**" if 0 <= index < len(names) else match.group(0)

    return SEAT.sub(name, text)


def line(event: Any, names: list[str]) -> str:
    """One event in the engine's words, with names."""
    return named(narrate(event), names)


def car(colour: str) -> str:
    return f"{CAR_EMOJI.get(colour, '')} {colour}".strip()


def money(value: int) -> str:
    return f"-${-value}M" if value < 0 else f"${value}M"


def signed(value: int) -> str:
    return f"+${value}M" if value > 0 else money(value)


def ordinal(place: int) -> str:
    return ORDINALS[place - 1] if 1 <= place <= len(ORDINALS) else str(place)


def card_label(card: dict[str, Any]) -> str:
    """A card as a menu line: ``🔴 red 4 · 🔵 blue 2 · wild 3``."""
    parts = [car(c) + f" {n}" if c in CAR_EMOJI else f"{c} {n}" for c, n in card["lines"]]
    return " · ".join(parts)


def where(view: dict[str, Any], colour: str) -> str:
    """Where a car is, as the places panel says it: ``finished 1st`` or ``row 12``."""
    info = view["cars"][colour]
    if info["finished"]:
        return f"finished {ordinal(info['place'])}"
    if info["space"] is None:
        return "off the track"
    space = next((s for s in view["track"]["spaces"] if s["id"] == info["space"]), None)
    return f"row {space['row']}" if space else str(info["space"])


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
