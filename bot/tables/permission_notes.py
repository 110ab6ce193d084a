"""What a table says when the place it plays in refuses the bot (``bot.discord_io.pause``): the host is
told the game is paused and what is missing (by DM, since the game's channel is what refuses; if
their DMs are closed, in the channel the game was opened in when the game plays in a thread), the
game says when it goes on, and that it goes on without pictures where only Attach Files is missing.
The closing, if the permission does not come back, is an ending (``bot.tables.endings``).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Coroutine
from typing import Any, Protocol

import discord

from bot.discord_io.outgoing import Outgoing
from bot.discord_io.place import DMClosed, Place
from bot.i18n import N_, Language, _, _n, speaking
from bot.i18n.formatting import number
from bot.tables.answers import HOW_TO_GRANT, permission_names
from bot.tables.host import Host
from bot.tables.outcome import BLOCKED
from bot.tables.presenter import Presenter
from bot.tables.prompts import Prompts


class Table(Protocol):
    """What the notes read of their table (``bot.tables.table.Table``)."""

    host: Host
    place: Place
    presenter: Presenter
    prompts: Prompts
    wake: asyncio.Event
    game_id: int
    guild_id: int
    host_id: int

    @property
    def thread_id(self) -> int | None: ...

    @property
    def language(self) -> Language: ...

    def end(self, why: str) -> None: ...

    async def say(
        self, message: str, /, *, ping: tuple[int, ...] = (), **values: Any
    ) -> discord.Message | None: ...


log = logging.getLogger(__name__)

BACK = N_("▶️ I can post here again: the game goes on. Its clock was stopped while it was paused.")
NO_PICTURES = N_(
    "🖼️ I don't have the **Attach Files** permission here, so this game goes on without pictures."
)

_tasks: set[asyncio.Task[None]] = set()


def wire(table: Table) -> None:
    """Give the table's place what to do when it is refused, paused, back, or out of time."""
    pause = table.place.pause
    pause.on_paused = lambda lacking: _aside(tell_host(table, lacking), table)
    pause.on_back = lambda seconds: back(table, seconds)
    pause.on_over = lambda _lacking: table.end(BLOCKED)
    table.place.on_pictures_off = lambda: _aside(table.say(NO_PICTURES), table)


def back(table: Table, seconds: float) -> None:
    """The pause ended: the deadline moves on by its length (nobody loses time to it), the table's loop
    wakes to look again, and the game says it goes on."""
    if table.prompts.deadline is not None:
        table.prompts.deadline += seconds
    table.wake.set()
    _aside(table.say(BACK), table)


def minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


def paused_text(table: Table, lacking: list[str]) -> str:
    """The host's note, in the current language."""
    timing = table.host.timing
    wait = minutes(timing.permission_wait_seconds)
    where = f"<#{table.place.place_id}>"
    if lacking:
        why = _n(
            "I'm missing the {permissions} permission there.",
            "I'm missing these permissions there: {permissions}.",
            len(lacking),
            permissions=permission_names(lacking),
        )
    else:
        why = _("Discord refuses my messages there (a permission was taken away).")
    head = _(
        "⏸️ Your {game} game #{number} in {channel} is paused: {why}",
        game=table.presenter.title,
        number=table.game_id,
        channel=where,
        why=why,
    )
    then = _n(
        "I'll look again every {seconds} seconds; if it is not back within {n} minute, the game is "
        "closed without results.",
        "I'll look again every {seconds} seconds; if it is not back within {n} minutes, the game is "
        "closed without results.",
        wait,
        seconds=number(timing.permission_retry_seconds),
    )
    return " ".join((head, then, _(HOW_TO_GRANT)))


async def tell_host(table: Table, lacking: list[str]) -> None:
    """Once per pause: the host hears it by DM (or, with closed DMs, in the channel the game was opened
    in, when the game plays in a thread of it). Ruling: with neither, it is logged, and the players
    hear of it when the game goes on or is closed."""
    host = table.host_id
    with speaking(table.host.languages.person(host, table.guild_id)):
        out = Outgoing(content=paused_text(table, lacking))
    try:
        if await table.place.dm(host, out) is not None:
            return
    except DMClosed:
        pass
    if table.thread_id:
        with speaking(table.language):
            home = Outgoing(content=paused_text(table, lacking), ping=(host,))
        if await table.place.send_home(home) is not None:
            return
    log.warning("Game %s is paused and its host could not be told", table.game_id)


def _aside(work: Coroutine[Any, Any, Any], table: Table) -> None:
    task = asyncio.create_task(work, name=f"permissions-{table.game_id}")
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
