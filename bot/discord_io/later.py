"""A picture that follows a message already posted: a race's replay after its results.

The results go out at once (text and embed); the replay is drawn off the event loop afterwards
(1-6 s) and added to that same message by an edit that keeps the files already on it. If the edit
is impossible (the message was deleted, the files would pass Discord's limit, the edit is refused)
the replay is posted after it, with its alt text. The results never wait for the replay and are
never lost with it.

Ruling on restarts: the results are posted by the table's normal flow before any drawing starts, so
a restart in between neither loses them nor posts them twice (the action log holds the game, and a
resumed game posts where it stands, not old results). The replay itself lives only in this process:
a restart while it is drawn skips it (``Place.stop`` cancels the drawing), a loss we accept.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot import workers
from bot.discord_io.delivery import TRANSIENT, deliver
from bot.discord_io.outgoing import Outgoing
from bot.games.animation import LIMIT, Animation
from bot.i18n import _, speaking

if TYPE_CHECKING:
    from bot.discord_io.pacer import ChannelPacer
    from bot.tables.timing import Timing


class _Wires(Protocol):
    pacer: ChannelPacer
    timing: Timing


class Place(Protocol):
    """What a picture that follows a message needs of the place it is shown in (``place.Place``)."""

    game_id: int
    gone: bool
    pictures_off: bool  # no Attach Files where the game plays: no replay is drawn
    drawing: set[asyncio.Task[None]]

    @property
    def wires(self) -> _Wires: ...

    async def send(self, out: Outgoing, *, wait_for_pictures: bool = False) -> discord.Message | None: ...


log = logging.getLogger(__name__)

figures = {"offered": 0, "posted": 0}
"""Replays to follow their results, and those posted (how much of the show a busy bot gives)."""


def attach(place: Place, message: discord.Message | None, out: Outgoing) -> None:
    """Start drawing ``out.later`` for ``message`` (None: the post failed; the picture is posted alone)."""
    figures["offered"] += 1
    task = asyncio.create_task(_follow(place, message, out), name=f"replay-{place.game_id}")
    place.drawing.add(task)
    task.add_done_callback(place.drawing.discard)


async def finish(place: Place) -> None:
    """Wait for the pictures still being drawn (a finished game's last replay)."""
    if place.drawing:
        await asyncio.gather(*list(place.drawing), return_exceptions=True)


async def _follow(place: Place, message: discord.Message | None, out: Outgoing) -> None:
    assert out.later is not None
    if place.pictures_off:  # Ruling: a game going on without pictures skips its replays too
        return
    try:
        drawn = await workers.replay(out.later)  # from the frames kept live
    except workers.Busy:
        # Ruling: a bot so far behind that several replays wait already skips this one; the results stand.
        log.info("Game %s: replay skipped, the replay worker is busy", place.game_id)
        return
    except Exception:
        # Ruling: a replay that cannot be drawn is left out (logged); the results already stand.
        log.exception("Could not draw the replay of game %s", place.game_id)
        return
    if message is not None and await _add_to(place, message, out, drawn):
        figures["posted"] += 1
        return
    if place.pictures_off:
        return
    with speaking(out.language):  # the language of the results it follows
        title = out.embed.title if out.embed is not None and out.embed.title else _("the race")
        follow = Outgoing(
            content=_("🎞️ Replay of {title}", title=title),
            image=drawn.data,
            image_name=drawn.filename,
            alt=drawn.alt,
        )
    if await place.send(follow) is not None:
        figures["posted"] += 1


async def _add_to(place: Place, message: discord.Message, out: Outgoing, drawn: Animation) -> bool:
    """Add ``drawn`` to ``message`` by an edit; False if it cannot be (then it is posted on its own)."""
    if place.gone:
        return False
    kept = list(message.attachments)
    if sum(a.size for a in kept) + len(drawn.data) > LIMIT:
        return False
    file = discord.File(io.BytesIO(drawn.data), filename=drawn.filename, description=drawn.alt[:1024] or None)
    changes: dict[str, Any] = {"attachments": [*kept, file]}
    if out.embed is not None and not out.embed.image:
        embed = out.embed.copy()  # the embed shows the replay where it had no picture of its own
        embed.set_image(url=f"attachment://{drawn.filename}")
        changes["embed"] = embed

    async def attempt() -> None:
        file.reset(seek=True)  # a retried upload starts from the first byte again
        async with place.wires.pacer.turn(message.channel.id, "edit"):
            await message.edit(**changes)

    try:
        await deliver(attempt, place.wires.timing, f"Adding a replay to game {place.game_id}")
    except (discord.HTTPException, *TRANSIENT) as error:
        # A deleted message is no reason to close the game: the replay is posted after it instead.
        log.warning("Could not add the replay to a message of game %s: %r", place.game_id, error)
        return False
    return True
