"""What a table needs from the bot it runs in: its storage, its timings and who reads which language.

A small protocol, so ``bot/tables`` never imports the client. Sending is the table's ``Place``
(``bot.discord_io.place``); closing, leases and leaderboards are the registry's and the client's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.languages import Languages
    from bot.storage import Storage
    from bot.tables.timing import Timing


class Host(Protocol):
    storage: Storage
    timing: Timing
    languages: Languages  # the server's language for public messages, each member's for private ones
