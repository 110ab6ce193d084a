"""The race deck during a race: the draw pile, the burned cards and the flipped cards.

Cards are kept as notations; the top of the pile is ``pile[0]``. Burned cards stay face
down (their notations never leave the engine's state); flipped cards are public.
"""

from __future__ import annotations

import random

from bot.games.base import JSON
from bot.games.rng import GameRng

BURN = 3


class RaceDeck:
    def __init__(
        self,
        pile: list[str] | None = None,
        burned: list[str] | None = None,
        flipped: list[str] | None = None,
        started: bool = False,
    ) -> None:
        self.pile = list(pile or [])
        self.burned = list(burned or [])
        self.flipped = list(flipped or [])
        self.started = started

    @classmethod
    def shuffled(cls, cards: list[str], rng: GameRng | random.Random) -> RaceDeck:
        """``cards`` in a random order; ``rng`` is the game's, or a plain ``random.Random`` for the races
        that the AI and the tuning tool imagine."""
        pile = list(cards)
        rng.shuffle(pile)
        return cls(pile)

    def burn(self) -> int:
        """Burn 3 face down. Ruling: never the last card of the pile, so a flip always follows
        (only matters for a deck under 4 cards, which the shipped edition cannot make)."""
        count = max(0, min(BURN, len(self.pile) - 1))
        self.burned += self.pile[:count]
        del self.pile[:count]
        self.started = True
        return count

    def flip(self) -> str:
        card = self.pile.pop(0)
        self.flipped.append(card)
        return card

    def reshuffle(self, rng: GameRng | random.Random) -> None:
        """The pile ran dry: every card of this race (flipped and burned) makes the new pile."""
        self.pile = self.flipped + self.burned + self.pile
        self.flipped, self.burned = [], []
        rng.shuffle(self.pile)

    def all_cards(self) -> list[str]:
        return self.pile + self.burned + self.flipped

    def to_json(self) -> dict[str, JSON]:
        return {
            "pile": list(self.pile),
            "burned": list(self.burned),
            "flipped": list(self.flipped),
            "started": self.started,
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> RaceDeck:
        return cls(data["pile"], data["burned"], data["flipped"], data["started"])
