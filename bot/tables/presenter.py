"""What a game shows in Discord: the only game-specific part of a table, and it only presents.

A presenter turns views and events into messages. It is never handed what it may not show: the
table splits every batch of events before calling it (``viewing.split``), so ``announce`` gets
public events only and ``tell`` gets one seat's own events for that seat's DM. Public messages
are built from ``table.public_view()``; a seat's messages from ``table.seat_view(seat)``.
Everything else (the engine, AI, clocks, pacing, results) is the table's and the catalog's.
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import Decision, Event
from bot.i18n import Language, _, current, in_language
from bot.tables.components import Choice, Controls

if TYPE_CHECKING:
    from bot.games.animation import Animation
    from bot.games.catalog import Entry
    from bot.tables.table import Table

__all__ = ["Choice", "Controls", "Outgoing", "Presenter"]


@dataclass
class Outgoing:
    """One message to send (or to edit into an existing message)."""

    content: str = ""
    embed: discord.Embed | None = None
    image: bytes | None = None
    image_name: str = "frame.png"
    alt: str = ""  # the image's description, read by screen readers
    view: discord.ui.View | None = None  # ready-made components (the lobby, leaderboards)
    # Who may see it: None for the channel, or one seat (sent by DM, or ephemerally as a fallback).
    seat: int | None = None
    controls: Controls | None = None  # a decision's buttons or menu; the table gives them their ids
    hand_button: bool = False  # add the "My hand" button
    hand_row: int | None = None
    # Question buttons next to "My hand": (topic, label, emoji); a click gets ``Presenter.answer``, privately.
    asks: tuple[tuple[str, str, str | None], ...] = ()
    # Users this message means to ping (the player whose turn it is); nobody else is ever pinged.
    ping: tuple[int, ...] = ()
    # A picture drawn only when it is about to be sent (a race frame): one merged away as stale is never
    # drawn, so a busy bot draws fewer pictures instead of falling behind (bot.tables.global_pacer).
    render: Callable[[], bytes] | None = None
    # A race line with no picture of its own (a card that changed nothing on the track): it may join a
    # race picture still waiting to be sent, and it never makes the game wait for one (global_pacer).
    race_line: bool = False
    # A picture that follows this message (a race's replay): drawn off the event loop only after the
    # message is out, then added to it by an edit, or posted after it (bot.tables.later).
    later: Callable[[], Animation] | None = None
    # The language it was written in (the reader's: see bot.i18n); its buttons and its pictures, made
    # later, speak it too.
    language: Language = field(default_factory=current)

    def __post_init__(self) -> None:
        if self.render is not None:
            self.render = in_language(self.language, self.render)
        if self.later is not None:
            self.later = in_language(self.language, self.later)

    def file(self) -> discord.File | None:
        if self.image is None and self.render is not None:
            self.image = self.render()  # sent some other way than the outbox: drawn here
        if self.image is None:
            return None
        return discord.File(
            io.BytesIO(self.image), filename=self.image_name, description=self.alt[:1024] or None
        )


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
    async def prompt(self, table: Table) -> tuple[str, Outgoing] | None:
        """The live channel prompt for what is pending now: (key, message). Same key: edit in place."""

    @abstractmethod
    def private_prompt(self, table: Table, seat: int, decision: Decision) -> Outgoing:
        """The DM (or ephemeral) message with the controls for a decision taken in private."""

    @abstractmethod
    def hand(self, table: Table, seat: int) -> Outgoing:
        """The seat's private information, for the "My hand" button."""

    @abstractmethod
    async def announce(self, table: Table, events: list[Event]) -> list[Outgoing]:
        """Channel messages for public events (rendering must run off the event loop)."""

    def tell(self, table: Table, seat: int, events: list[Event]) -> list[Outgoing]:
        """Messages for ``seat`` alone about its own private events (a dealt card); sent by DM."""
        return []

    async def answer(self, table: Table, seat: int | None, topic: str) -> Outgoing | None:
        """The private answer to a question button (``Outgoing.asks``); ``seat`` is None for a watcher."""
        return None

    @abstractmethod
    async def snapshot(self, table: Table) -> list[Outgoing]:
        """Where the game stands, for a resumed game (``table.seq`` > 0) or a new one."""

    @abstractmethod
    def choice_label(self, table: Table, seat: int, decision: Decision, choice: Any) -> str:
        """A short confirmation of a choice, shown only to the player who made it."""

    @abstractmethod
    def rules_text(self) -> str: ...

    def status_lines(self, table: Table) -> list[str]:
        return []

    def lobby_fields(self, table: Table) -> list[tuple[str, str]]:
        """Extra lines for the lobby embed (pace, number of races...)."""
        from bot.i18n.formatting import number

        return [(_("Pace"), _("{seconds} s", seconds=number(table.pace)))]
