"""Speed cards and their text notation: ``"red 4, blue 2, wild 3"`` (lines top to bottom).

A line is ``[colour, speed]``; a wild line has the colour ``"wild"`` until the player on turn
names a colour for it. The notation is used in the data files, the tests, the logs and the
scenario runner, so a rule test reads like a card on the table.
"""

from __future__ import annotations

from bot.games.base import GameError

COLOURS = ("black", "blue", "green", "yellow", "orange", "red")
WILD = "wild"
MAX_LINES = 6
MAX_SPEED = 8

Line = tuple[str, int]


class CardError(GameError, ValueError):
    """A card that cannot be read."""


def parse_card(text: object) -> tuple[Line, ...]:
    """``"red 4, blue 2, wild 3"`` -> ``(("red", 4), ("blue", 2), ("wild", 3))``."""
    if not isinstance(text, str) or not text.strip():
        raise CardError("a card must be text like 'red 4, blue 2, wild 3'")
    lines: list[Line] = []
    for part in text.split(","):
        words = part.split()
        if len(words) != 2 or not words[1].isdigit():
            raise CardError(f"{part.strip()!r} is not a line like 'red 4'")
        colour, speed = words[0].lower(), int(words[1])
        lines.append(_line(colour, speed))
    return check_lines(lines)


def check_lines(lines: list[Line] | tuple[Line, ...]) -> tuple[Line, ...]:
    """The lines of one card, checked: 1 to 6 lines, no colour twice (wilds may repeat)."""
    out = tuple(_line(c, s) for c, s in lines)
    if not 1 <= len(out) <= MAX_LINES:
        raise CardError(f"a card has 1 to {MAX_LINES} lines, not {len(out)}")
    named = [c for c, _ in out if c != WILD]
    if len(named) != len(set(named)):
        raise CardError("a card names each colour at most once")
    return out


def _line(colour: object, speed: object) -> Line:
    if colour not in COLOURS and colour != WILD:
        raise CardError(f"unknown colour {colour!r}; expected one of {', '.join(COLOURS)} or wild")
    if not isinstance(speed, int) or isinstance(speed, bool) or not 1 <= speed <= MAX_SPEED:
        raise CardError(f"speed {speed!r} must be a whole number from 1 to {MAX_SPEED}")
    return (str(colour), speed)


def card_text(lines: list[Line] | tuple[Line, ...]) -> str:
    """The notation of a card (the inverse of ``parse_card``)."""
    return ", ".join(f"{colour} {speed}" for colour, speed in lines)


def bid_value(lines: tuple[Line, ...], colour: str) -> int:
    """What a card bids in the auction of ``colour``: that colour's speed, 0 if absent (wilds count 0)."""
    return next((speed for c, speed in lines if c == colour), 0)


def speed8_id(colour: str) -> str:
    return f"s8-{colour}"
