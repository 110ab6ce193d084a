"""How a table talks: its own notes in the server's language, its messages with their components
made (``dressing``), and its DMs, with the fallback for a person who does not take them: told once,
in the channel, to use **My hand**, and remembered with the game (``meta["dm_closed"]``)."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_io.outgoing import Outgoing, drawn, message_kwargs
from bot.discord_io.place import DMClosed, Place
from bot.i18n import N_, Language, _, speaking
from bot.tables.dressing import dressed
from bot.tables.seats import Seat

CANNOT_DM = N_(
    "📪 {player}, I can't send you direct messages. "
    "Press **My hand** in this channel to see your cards and make your picks."
)


class Speaker(Protocol):
    """What a voice reads of its table (``bot.tables.table.Table``) when it speaks."""

    seats: list[Seat]
    token: str | None  # the game's token, carried by its buttons' ids (``custom_ids``)

    @property
    def acted(self) -> list[int]: ...

    @property
    def language(self) -> Language: ...

    @property
    def pace(self) -> float: ...


class Voice:
    def __init__(self, place: Place, game_id: int, meta: dict[str, Any], table: Speaker) -> None:
        self.place, self.game_id, self.meta, self.table = place, game_id, meta, table
        self.dm_closed: set[int] = set(meta.get("dm_closed", []))

    async def say(
        self, message: str, /, *, ping: tuple[int, ...] = (), **values: Any
    ) -> discord.Message | None:
        """A note of the table's own where it plays, in the server's language (``message`` marked with
        ``N_``, its placeholders filled from ``values``), pinging only ``ping``."""
        with speaking(self.table.language):
            out = Outgoing(content=_(message, **values), ping=ping)
        return await self.send(out)

    async def send(self, out: Outgoing) -> discord.Message | None:
        """Where the game plays, or to one seat by DM (``out.seat``). At pace 0 ("as fast as the
        messages go") a race picture is waited for, so none is merged away."""
        if out.seat is not None:
            return await self.dm(out.seat, out)
        return await self.place.send(self._dressed(out), wait_for_pictures=self.table.pace <= 0)

    async def dm(self, seat: int, out: Outgoing) -> discord.Message | None:
        out.seat = seat
        person = self.table.seats[seat]
        if person.user_id is None or seat in self.dm_closed:
            return None
        await drawn(out)
        try:
            return await self.place.dm(person.user_id, self._dressed(out))
        except DMClosed:
            self.dm_closed.add(seat)
            self.meta["dm_closed"] = sorted(self.dm_closed)
            await self.say(CANNOT_DM, player=person.mention(), ping=(person.user_id,))
            return None

    async def edit(self, message: discord.Message, **changes: Any) -> bool:
        """False if the message is gone (deleted)."""
        return await self.place.edit(message, **changes)

    def dress(self, out: Outgoing, *, editing: bool = False, page: int = 0) -> dict[str, Any]:
        """What discord.py sends for ``out``, its components made."""
        return message_kwargs(self._dressed(out, page=page), editing=editing)

    def _dressed(self, out: Outgoing, *, page: int = 0) -> Outgoing:
        return dressed(out, self.game_id, self.table.acted, page=page, token=self.table.token)
