"""What came of something asked of a table, and why a table ended: small values the table returns
and signals, and the layers above it read."""

from __future__ import annotations

import dataclasses

# Why a table ended (``Table.on_end``): its game is over; its channel or thread is gone; its engine
# broke; another process drives it now; its channel refused the bot for longer than the bot waits
# (a permission taken away: ``bot.discord_io.pause``).
OVER, GONE, BROKEN, LOST, BLOCKED = "over", "gone", "broken", "lost", "blocked"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What came of a person's request: the private answer they get, and whether it changed the game."""

    answer: str  # a marked constant (``answers``) or text already in the person's language
    applied: bool = False
