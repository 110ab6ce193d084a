"""Hot Streak in Discord: ``/hotstreak start|rules|status|cancel|leave``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.hotstreak.cog import HotStreakCog

if TYPE_CHECKING:
    from bot.client import RaceBot


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(HotStreakCog(bot))
