"""The Horse Race Game in Discord: ``/horserace start|rules|status|cancel|leave``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.horserace.cog import HorseRaceCog

if TYPE_CHECKING:
    from bot.client import RaceBot


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(HorseRaceCog(bot))
