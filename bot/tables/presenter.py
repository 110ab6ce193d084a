"""What a game must tell the table so Discord can show it: the only game-specific part of a table.

Each game's cog provides one ``Presenter``. Everything it builds comes from engine *views*
(``game.view(seat)`` or ``game.view(None)``), never from the raw state, so a hidden card cannot
reach a public message by accident.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import Action, Decision, Event, Game

if TYPE_CHECKING:
    from bot.storage import PlayerResult
    from bot.tables.table import Table


@dataclass
class Outgoing:
    """One message to send (or to edit into an existing message)."""

    content: str = ""
    embed: discord.Embed | None = None
    image: bytes | None = None
    image_name: str = "frame.png"
    alt: str = ""  # the image's description, read by screen readers
    view: discord.ui.View | None = None
    # Who may see it: None for the channel, or one seat (sent by DM, or ephemerally as a fallback).
    seat: int | None = None

    def file(self) -> discord.File | None:
        if self.image is None:
            return None
        import io

        return discord.File(
            io.BytesIO(self.image), filename=self.image_name, description=self.alt[:1024] or None
        )


class Presenter(ABC):
    kind: str
    title: str
    min_players: int
    max_players: int

    @abstractmethod
    def new_engine(self, seats: int, seed: int, settings: dict[str, Any]) -> Game: ...

    @abstractmethod
    def ai_choice(self, view: dict[str, Any], decision: Decision, level: str, rng: random.Random) -> Any:
        """What an AI seat (or the deadline, for a late player) chooses, from that seat's view only."""

    def is_automatic(self, table: Table, decision: Decision) -> bool:
        """A seat's decision the table takes by itself at its pace (e.g. auto-rolls)."""
        return False

    def delay(self, table: Table, decision: Decision) -> float:
        """Seconds to wait before the table takes an automatic step (the pace of the race)."""
        return table.pace

    def is_private(self, decision: Decision) -> bool:
        """A decision taken in secret (in a DM, or through "My hand")."""
        return False

    @abstractmethod
    async def prompt(self, table: Table) -> tuple[str, Outgoing] | None:
        """The live channel prompt for what is pending now: (key, message). Same key: edit in place."""

    @abstractmethod
    def private_prompt(self, table: Table, seat: int, decision: Decision) -> Outgoing:
        """The DM (or ephemeral) message with the components for a secret decision."""

    @abstractmethod
    def hand(self, table: Table, seat: int) -> Outgoing:
        """The seat's private information, for the "My hand" button."""

    @abstractmethod
    async def announce(self, table: Table, events: list[Event]) -> list[Outgoing]:
        """Messages for events, public or for one seat (rendering must run off the event loop)."""

    @abstractmethod
    async def snapshot(self, table: Table) -> list[Outgoing]:
        """Where the game stands, for a resumed game or ``status``."""

    @abstractmethod
    def choice_label(self, table: Table, seat: int, decision: Decision, choice: Any) -> str:
        """A short confirmation of a choice, shown only to the player who made it."""

    @abstractmethod
    def results(self, table: Table) -> list[PlayerResult]:
        """The rows the results table stores when the game ends."""

    @abstractmethod
    def rules_text(self) -> str: ...

    def status_lines(self, table: Table) -> list[str]:
        return []

    def due_action(self, table: Table) -> Action | None:
        """A table action the host's clock makes due now (e.g. "time is up"), if any."""
        return None

    def wake_at(self, table: Table) -> float | None:
        """When (unix time) the host's clock next needs a look, besides deadlines."""
        return None

    def lobby_fields(self, table: Table) -> list[tuple[str, str]]:
        """Extra lines for the lobby embed (pace, number of races...)."""
        return [("Pace", f"{table.pace:g} s")]

    async def starting_settings(self, table: Table) -> dict[str, Any]:
        """The engine's settings, fixed when the host presses Start (e.g. who bets first)."""
        return {}
