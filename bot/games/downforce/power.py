"""A power card as a record: its name, its texts, how much the AI wants it, when it works and what
it does. The twelve records, how they are dealt and the rulings common to all: ``powers.py``.

The engine, the AI and the presenters ask a power's record (``when``, ``effect``, ``extra``, its
conditions) and never compare power names, so a power is described in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.games.downforce.track import Track


class When(Enum):
    """The moment a power works at."""

    BEFORE_THE_CARD = "before the card's first line moves"
    NAMING_A_WILD = "when a wild line is given its colour"
    CHOOSING_AN_END = "when someone chooses where the owner's car ends"
    AFTER_ITS_CARS_MOVE = "after a line has moved one of the owner's cars"
    AFTER_A_CAR_LEAVES_AHEAD = "after a car leaves the space straight ahead of the owner's car"
    AFTER_THE_CARD = "after the card's last line"


class Effect(Enum):
    """What a power does when it works."""

    IGNORE_A_COLOUR = "one colour of the card does nothing"
    REVERSE_THE_CARD = "the card moves bottom line first"
    ANY_WILD_COLOUR = "a wild line may take a colour already on the card"
    OWNER_CHOOSES_ENDS = "the owner chooses where its cars end"
    EXTRA_MOVE = "the owner's car moves ``extra`` more spaces"
    TAKE_THE_SPACE_LEFT = "the owner's car moves into the space the other car left"


@dataclass(frozen=True)
class LineMove:
    """One line's move of a car, as a power's condition reads it."""

    track: Track
    line: int  # the card's line that moved the car, as printed (0: the top line)
    start: str
    end: str  # never FINISH: a finished car sets off no power
    path: tuple[str, ...]  # the spaces stepped into, FINISH left out
    steps: int


def _always_on_a_card(printed: Sequence[str]) -> bool:
    return True


def _always_after_a_move(move: LineMove) -> bool:
    return True


@dataclass(frozen=True)
class Power:
    """One power card.

    ``title`` and ``summary`` are marked for translation (``_`` them where shown); ``used`` is the
    line narrated when the power is used (placeholders ``{seat}``, ``{power}``, ``{colour}``), or
    ``None`` for the plain "moves {n} more". ``keep_rank``: the normal AI keeps the lowest.
    ``own_turn``: works only on its owner's turn. ``automatic``: applies without asking its owner.
    ``extra``: the spaces of its extra move; ``in_all``: counting the spaces the line already moved
    the car (daring's "3 in all"). ``on_card`` (before the card: the card's printed colours) and
    ``after_move`` (after its car's move) are the conditions it needs besides its moment.
    """

    name: str
    title: str
    summary: str
    keep_rank: int
    when: When
    effect: Effect
    own_turn: bool
    automatic: bool = False
    extra: int = 0
    in_all: bool = False
    used: str | None = None
    on_card: Callable[[Sequence[str]], bool] = _always_on_a_card
    after_move: Callable[[LineMove], bool] = _always_after_a_move

    def extra_speed(self, steps: int) -> int:
        """The speed of its extra move after a line moved the car ``steps`` spaces."""
        return self.extra - steps if self.in_all else self.extra
