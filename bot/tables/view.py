"""What one audience may see of a table: the only thing a presenter is ever handed.

Built in one place (``TableView.of``), the way boardgame.io's ``playerView`` filters every payload
before it leaves the server: the channel gets the engine's public view and the decisions taken in
public; one seat gets its own view and its own decisions. A presenter that holds a public view
cannot reach a hand, because nothing in it leads to one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bot.games.base import Decision
from bot.i18n import Language, _, current
from bot.tables.seats import Seat


@dataclass(frozen=True)
class Sitter:
    """A seat as anyone at the table may know it: names and a mention, never a hand."""

    name: str  # the display name in the reader's language, for pictures ("Ada (IA)")
    shown: str  # the same as message text: markdown and mentions escaped
    mention: str  # pings a person (``<@id>``) where a message allows it; an AI's name in bold
    is_ai: bool
    user_id: int | None

    @classmethod
    def of(cls, seat: Seat) -> Sitter:
        return cls(seat.display_name, seat.shown, seat.mention(), seat.is_ai, seat.user_id)


@functools.lru_cache(maxsize=4096)
def sitters(seats: tuple[tuple[str, int | None, str | None], ...], language: Language) -> tuple[Sitter, ...]:
    """The seats as anyone may know them, in ``language`` (an AI's name is translated): made once per
    seating and language, since a table asks for a view several times a card."""
    return tuple(Sitter.of(Seat(name, user_id, ai)) for name, user_id, ai in seats)


@dataclass(frozen=True)
class TableView:
    """One audience's view of a table at one moment; ``audience`` is None for the channel, else a seat.

    ``state`` is the engine's view for that audience, read when first used (a prompt that finds
    nothing to show never pays for it). It is the presenter's own copy: changing it changes nothing
    at the table, but later uses of the same ``TableView`` see the change, so copy before changing.
    """

    game_id: int
    audience: int | None
    seq: int
    pace: float
    deadline: float | None
    settled: bool
    settings: Mapping[str, Any]
    seats: tuple[Sitter, ...]
    acted: tuple[int, ...]
    waiting: tuple[int, ...]  # the people the table waits for now (seats), whatever they decide
    deciders: tuple[int, ...]  # every seat with a decision due, AI seats included
    decisions: tuple[Decision, ...]  # the decisions due that this audience may see, options included
    read_state: Callable[[], dict[str, Any]] = field(repr=False, compare=False, default=dict)

    @functools.cached_property
    def state(self) -> dict[str, Any]:
        return self.read_state()

    @property
    def names(self) -> list[str]:
        """Each seat's name as message text (escaped)."""
        return [s.shown for s in self.seats]

    @property
    def picture_names(self) -> list[str]:
        """Each seat's name as a picture draws it (not escaped: a picture pings nobody)."""
        return [s.name for s in self.seats]

    def decision(self, seat: int, kind: str | None = None) -> Decision | None:
        """The decision ``seat`` must take now (of ``kind``), if this audience may see it."""
        return next(
            (d for d in self.decisions if d.player == seat and (kind is None or d.kind == kind)), None
        )

    def deadline_mark(self) -> str:
        """The deadline as a Discord relative timestamp ("in 2 minutes"), which each reader sees live."""
        return f"<t:{int(self.deadline)}:R>" if self.deadline else _("soon")

    @staticmethod
    def of(
        *,
        game_id: int,
        audience: int | None,
        seq: int,
        pace: float,
        deadline: float | None,
        settled: bool,
        settings: Mapping[str, Any],
        seats: list[Seat],
        acted: list[int],
        pending: list[Decision],
        waiting: list[Decision],
        private: Callable[[Decision], bool],
        read_state: Callable[[], dict[str, Any]],
    ) -> TableView:
        """The view for ``audience``: the channel sees the decisions taken in public; a seat its own."""
        if audience is None:
            shown = tuple(d for d in pending if not private(d))
        else:
            shown = tuple(d for d in pending if d.player == audience)
        return TableView(
            game_id=game_id,
            audience=audience,
            seq=seq,
            pace=pace,
            deadline=deadline,
            settled=settled,
            settings=MappingProxyType(settings) if isinstance(settings, dict) else settings,
            seats=sitters(tuple((s.name, s.user_id, s.ai) for s in seats), current()),
            acted=tuple(acted),
            waiting=tuple(sorted({d.player for d in waiting if d.player is not None})),
            deciders=tuple(sorted({d.player for d in pending if d.player is not None})),
            decisions=shown,
            read_state=read_state,
        )
