"""Race cards and their text notation (``gobbler +3``, ``all +2``, ``mum swerve-left 2``).

The notation is the one language for cards everywhere: the content files, the game
state, events, logs, the scenario runner and the tests. A card is parsed once into a
``Card`` and printed back to exactly the same text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.base import GameError

MASCOTS: tuple[str, ...] = ("gobbler", "hurley", "dangle", "mum")
"""The four mascots, in their starting lane order (lane 0 is the leftmost)."""

# kind -> does the card carry a number?
KINDS: dict[str, bool] = {
    "number": True,
    "star": False,
    "fall": False,
    "turn": False,
    "swerve-left": True,
    "swerve-right": True,
    "recover": True,
    "all": True,
}

_NUMBER = re.compile(r"^[+-][1-9][0-9]?$")
_SIZE = re.compile(r"^[1-9][0-9]?$")


class CardError(GameError, ValueError):
    """A card notation that does not name a card."""


@dataclass(frozen=True)
class Card:
    """One race card. ``mascot`` is ``None`` for a green multi card (``all +n``)."""

    kind: str
    mascot: str | None = None
    n: int = 0

    @property
    def notation(self) -> str:
        if self.kind == "all":
            return f"all {self.n:+d}"
        if self.kind == "number":
            return f"{self.mascot} {self.n:+d}"
        if KINDS[self.kind]:
            return f"{self.mascot} {self.kind} {self.n}"
        return f"{self.mascot} {self.kind}"

    def __str__(self) -> str:
        return self.notation


def parse_card(text: object, mascots: tuple[str, ...] = MASCOTS) -> Card:
    """Parse a card notation; raise ``CardError`` naming the bad text (or a value that is not text)."""
    if not isinstance(text, str):
        raise CardError(f"a card notation must be text, not {text!r}")
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] == "all":
        if not _NUMBER.match(words[1]):
            raise CardError(f"unknown card {text!r}: 'all' takes a signed number like +2")
        return Card("all", None, int(words[1]))
    if not words or words[0] not in mascots:
        raise CardError(f"unknown card {text!r}: it must start with a mascot ({', '.join(mascots)}) or 'all'")
    mascot = words[0]
    if len(words) == 2 and _NUMBER.match(words[1]):
        return Card("number", mascot, int(words[1]))
    if len(words) == 2 and words[1] in KINDS and not KINDS[words[1]]:
        return Card(words[1], mascot)
    if len(words) == 3 and words[1] in KINDS and KINDS[words[1]] and words[1] not in ("number", "all"):
        if not _SIZE.match(words[2]):
            raise CardError(f"unknown card {text!r}: {words[1]} takes a size like 2")
        return Card(words[1], mascot, int(words[2]))
    raise CardError(f"unknown card {text!r}")


def card_sort_key(notation: str) -> tuple[int, str]:
    """Hands and options list mascot cards in mascot order, green cards last."""
    card = parse_card(notation)
    rank = MASCOTS.index(card.mascot) if card.mascot in MASCOTS else len(MASCOTS)
    return (rank, notation)
