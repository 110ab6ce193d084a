"""What a game shows in Discord: the only game-specific part of a table, and it only presents.

A presenter turns views and events into messages. It is handed a ``TableView`` (``bot.tables.view``)
and nothing else: the channel's view for public messages, one seat's view for that seat's DM, and
the events that audience may see (the table splits every batch first, ``viewing.split``). The
engine, the AI, the clocks, the pacing and the results are the table's and the catalog's.

A table has a presenter of its own, so a game's scratch state (the running race's replay, the
lines of a live board) is typed fields on its presenter, made when the table is.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from bot.discord_io.outgoing import Outgoing
from bot.games.base import Decision, Event
from bot.i18n import _
from bot.i18n.formatting import number
from bot.tables.components import Choice, Controls
from bot.tables.view import TableView

if TYPE_CHECKING:
    from bot.games.catalog import Entry

__all__ = ["Choice", "Controls", "Outgoing", "Presenter", "TableView"]


class Presenter(ABC):
    def __init__(self, entry: Entry) -> None:
        self.entry = entry

    @property
    def kind(self) -> str:
        return self.entry.kind

    @property
    def title(self) -> str:
        """The game's title in the current language (the catalog's English is marked there)."""
        return _(self.entry.title)

    @abstractmethod
    async def prompt(self, view: TableView) -> tuple[str, Outgoing] | None:
        """The live channel prompt for what is pending now (the channel's view): (key, message).
        The same key as the prompt on show: edited in place."""

    @abstractmethod
    def private_prompt(self, view: TableView, decision: Decision) -> Outgoing:
        """The DM (or ephemeral) message with the controls for a decision taken in private (the
        deciding seat's view)."""

    @abstractmethod
    def hand(self, view: TableView) -> Outgoing:
        """The seat's private information, for the "My hand" button (that seat's view)."""

    @abstractmethod
    async def announce(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        """Channel messages for public events (the channel's view; rendering runs off the event loop)."""

    def retired(self, key: str, out: Outgoing) -> Outgoing | None:
        """The live prompt ``out`` (shown under ``key``) as it should read once its wait is over, kept
        as a record; None: as it was shown (the table takes its buttons away either way)."""
        return None

    def tell(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        """Messages for one seat alone about its own private events (a dealt card); sent by DM."""
        return []

    async def answer(self, view: TableView, seat: int | None, topic: str) -> Outgoing | None:
        """The private answer to a question button (``Outgoing.asks``), from the channel's view;
        ``seat`` is the asker's seat, None for a watcher."""
        return None

    @abstractmethod
    async def snapshot(self, view: TableView) -> list[Outgoing]:
        """Where the game stands, for a resumed game (``view.seq`` > 0) or a new one."""

    @abstractmethod
    def choice_label(self, view: TableView, decision: Decision, choice: Any) -> str:
        """A short confirmation of a choice, shown only to the player who made it (their view)."""

    @abstractmethod
    def rules_text(self) -> str: ...

    def status_lines(self, view: TableView) -> list[str]:
        return []

    def lobby_fields(self, view: TableView) -> list[tuple[str, str]]:
        """Extra lines for the lobby embed (pace, number of races...); the lobby has no game state yet."""
        return [(_("Pace"), _("{seconds} s", seconds=number(view.pace)))]
