"""Downforce in Discord: ``/downforce start|rules|status|cancel|leave``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.downforce.cog import DownforceCog

if TYPE_CHECKING:
    from bot.client import RaceBot


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(DownforceCog(bot))
