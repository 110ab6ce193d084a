"""A table without Discord: its place records what it would send, its storage keeps its results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.discord_io.outgoing import Outgoing
from bot.discord_io.pacer import ChannelPacer
from bot.discord_io.place import Place, Wires
from bot.games.catalog import CATALOG
from bot.languages import Languages
from bot.tables.seats import Seat
from bot.tables.table import Table
from bot.tables.timing import Timing


class KeptResults:
    """Storage that keeps a game's actions and results in memory."""

    def __init__(self) -> None:
        self.results: dict[int, list[Any]] = {}
        self.actions: list[dict[str, Any]] = []

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        assert seq == len(self.actions)
        self.actions.append(action)

    async def update_game(self, game_id: int, **changes: Any) -> None:
        return None

    async def finish_game(self, game_id: int, results: list[Any], *, announced: bool = True) -> None:
        self.results.setdefault(game_id, results)

    async def mark_announced(self, game_id: int) -> None:
        return None


@dataclass
class QuietHost:
    """Just enough of a bot for a table: storage in memory, default timings, one language."""

    timing: Timing = field(default_factory=Timing)
    storage: KeptResults = field(default_factory=KeptResults)
    languages: Languages = field(default_factory=lambda: Languages(None))

    def get_channel(self, channel_id: int) -> Any:
        return None

    def get_guild(self, guild_id: int) -> Any:
        return None

    def get_user(self, user_id: int) -> Any:
        return None

    async def fetch_user(self, user_id: int) -> Any:
        return None

    async def fetch_channel(self, channel_id: int) -> Any:
        return None


class RecordingPlace(Place):
    """A place that keeps what the table sends (channel posts and DMs alike) instead of sending it."""

    def __init__(self, host: QuietHost) -> None:
        super().__init__(Wires(host, ChannelPacer(5, 5.0), None, host.timing), game_id=1, channel_id=1)
        self.sent: list[Outgoing] = []

    async def send(self, out: Outgoing, *, wait_for_pictures: bool = False) -> None:  # type: ignore[override]
        self.sent.append(out)

    async def dm(self, user_id: int, out: Outgoing) -> None:  # type: ignore[override]
        self.sent.append(out)

    async def edit(self, message: Any, **changes: Any) -> None:
        return None


def quiet_table(kind: str, seats: list[Seat], settings: dict[str, Any]) -> Table:
    """A table of ``kind`` whose place records (``table.place.sent``) and whose storage is memory."""
    entry = CATALOG[kind]
    host = QuietHost()
    return Table(
        host,  # type: ignore[arg-type]
        entry,
        entry.presenter_class()(entry),
        RecordingPlace(host),
        game_id=1,
        guild_id=1,
        host_id=1,
        seed=5,
        seats=seats,
        settings=settings,
    )
