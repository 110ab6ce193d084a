"""A table without Discord: its messages are kept in a list, its results in a dict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.catalog import CATALOG
from bot.languages import Languages
from bot.tables.pacer import ChannelPacer
from bot.tables.presenter import Outgoing
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

    async def finish_game(self, game_id: int, results: list[Any]) -> None:
        self.results.setdefault(game_id, results)


@dataclass
class QuietHost:
    """Just enough of a bot for a table that announces into a list."""

    timing: Timing = field(default_factory=Timing)
    pacer: ChannelPacer = field(default_factory=lambda: ChannelPacer(5, 5.0))
    storage: KeptResults = field(default_factory=KeptResults)
    tables: Any = None
    languages: Languages = field(default_factory=lambda: Languages(None))

    def get_channel(self, channel_id: int) -> Any:
        return None

    def get_user(self, user_id: int) -> Any:
        return None

    async def fetch_user(self, user_id: int) -> Any:
        return None

    async def dispatch_page(self, interaction: Any, page: Any) -> None:
        return None


class RecordingTable(Table):
    """A table whose messages are kept instead of sent, and whose prompts are left alone."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[Outgoing] = []

    async def send(self, out: Outgoing) -> None:  # type: ignore[override]
        self.sent.append(out)

    async def refresh_prompts(self) -> None:
        return None


def quiet_table(kind: str, seats: list[Seat], settings: dict[str, Any]) -> RecordingTable:
    entry = CATALOG[kind]
    return RecordingTable(
        QuietHost(),  # type: ignore[arg-type]
        entry,
        entry.presenter_class()(entry),
        game_id=1,
        guild_id=1,
        channel_id=1,
        host_id=1,
        seed=5,
        seats=seats,
        settings=settings,
    )
