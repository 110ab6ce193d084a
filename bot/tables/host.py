"""What the table layer needs from the bot it runs in: a small protocol, so ``bot/tables`` never
imports the client (the client imports the tables, not the other way round)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import discord

    from bot.languages import Languages
    from bot.storage import Storage
    from bot.tables.custom_ids import BoardPage
    from bot.tables.global_pacer import PictureOutbox
    from bot.tables.lease import LeaseKeeper
    from bot.tables.pacer import ChannelPacer
    from bot.tables.registry import Tables
    from bot.tables.timing import Timing


class Host(Protocol):
    storage: Storage
    timing: Timing
    pacer: ChannelPacer
    outbox: PictureOutbox  # race pictures, paced under the global limit and merged when stale
    tables: Tables
    leases: LeaseKeeper  # which games this process drives (several processes on one database)
    stopping: bool  # shutting down: take no new games
    languages: Languages  # the server's language for public messages, each member's for private ones

    def get_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, user_id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    async def dispatch_page(self, interaction: discord.Interaction, page: BoardPage) -> None:
        """A leaderboard page button (owned by whichever cog registered it)."""
