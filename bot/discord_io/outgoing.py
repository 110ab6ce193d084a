"""One message a game sends, as data: what it says, its picture, who it is for, what it may ping.

The table and its presenter build these; the place where the game is shown (``bot.discord_io.place``)
turns them into requests. ``controls``, ``hand_button`` and ``asks`` are the table's to turn into
components (their ids carry the game and its step); everything else is sent as it is.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Language, current, in_language, speaking
from bot.tables.components import Controls

if TYPE_CHECKING:
    from bot.games.animation import Animation

log = logging.getLogger(__name__)


@dataclass
class Outgoing:
    """One message to send (or to edit into an existing message)."""

    content: str = ""
    embed: discord.Embed | None = None
    image: bytes | None = None
    image_name: str = "frame.png"
    alt: str = ""  # the image's description, read by screen readers
    view: discord.ui.View | None = None  # ready-made components (the lobby, leaderboards)
    # Its ``view`` is only question buttons (``asks``: a live race's **Bet**), the same whichever version
    # of the message shows them: nothing needs the message back, so a race picture with them may still
    # be queued and merged (``PictureOutbox.takes``). Set by the table as it makes the components.
    fixed_view: bool = False
    # Who may see it: None for the channel, or one seat (sent by DM, or ephemerally as a fallback).
    seat: int | None = None
    controls: Controls | None = None  # a decision's buttons or menu; the table gives them their ids
    hand_button: bool = False  # add the "My hand" button
    hand_row: int | None = None
    # Question buttons next to "My hand": (topic, label, emoji); a click gets ``Presenter.answer``, privately.
    asks: tuple[tuple[str, str, str | None], ...] = ()
    # Users this message means to ping (the player whose turn it is); nobody else is ever pinged.
    ping: tuple[int, ...] = ()
    # A picture drawn only when it is about to be sent (a race frame): one merged away as stale is never
    # drawn, so a busy bot draws fewer pictures instead of falling behind (bot.tables.global_pacer).
    render: Callable[[], bytes] | None = None
    # What is left to do before its picture is drawn, and only if it is (a race frame's odds): the outbox
    # awaits it once the picture has its drawing slot, and sends what it returns. A frame merged away as
    # stale or sent as its lines alone never pays for it (issue 31: at 500 games three quarters of the
    # picture worker's time went to the odds of frames nobody saw). On failure the message goes as it is.
    ready: Callable[[Outgoing], Awaitable[Outgoing]] | None = None
    # A race line with no picture of its own (a card that changed nothing on the track): it may join a
    # race picture still waiting to be sent, and it never makes the game wait for one (global_pacer).
    race_line: bool = False
    # Its picture shows the racers' odds (counted in the figures of how much of the show a busy bot gives).
    odds_shown: bool = False
    # A live message's key (a race: "race:2"): the first message with this key is posted, and each later
    # one edits it in place (its words replaced; its picture replaced when it brings one, else kept), so
    # a race is one message that moves instead of a message per card (``Place``). Its ``content`` is
    # the whole text to show (the presenter keeps the last few lines).
    live: str | None = None
    # A picture that follows this message (a race's replay): drawn off the event loop only after the
    # message is out, then added to it by an edit, or posted after it (bot.tables.later).
    later: Callable[[], Animation] | None = None
    # The language it was written in (the reader's: see bot.i18n); its buttons and its pictures, made
    # later, speak it too.
    language: Language = field(default_factory=current)

    def __post_init__(self) -> None:
        if self.render is not None:
            self.render = in_language(self.language, self.render)
        if self.later is not None:
            self.later = in_language(self.language, self.later)

    def file(self) -> discord.File | None:
        if self.image is None and self.render is not None:
            # Drawn by ``drawn`` before it is sent, off the event loop; here only when a caller sent it
            # some other way (a test, a tool): never on the bot's event loop.
            self.image = self.render()
        if self.image is None:
            return None
        return discord.File(
            io.BytesIO(self.image), filename=self.image_name, description=self.alt[:1024] or None
        )


def message_kwargs(out: Outgoing, *, editing: bool = False) -> dict[str, Any]:
    """What discord.py sends for ``out`` (its components already made): pings only ``out.ping``."""
    kwargs: dict[str, Any] = {"content": out.content or None, "embed": out.embed}
    if out.ping:  # the bot's default pings nobody (bot.client.QUIET)
        kwargs["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in out.ping]
        )
    file = out.file()
    if editing:
        kwargs["attachments"] = [file] if file else []
    elif file is not None:
        kwargs["file"] = file
    kwargs["view"] = out.view
    if not editing and out.view is None:
        kwargs.pop("view")
    return kwargs


async def drawn(out: Outgoing) -> Outgoing:
    """``out`` with its picture drawn (``Outgoing.render``) in a picture worker (``bot.workers``), as the
    outbox draws race pictures: a message that does not go through the outbox (a private choice's lettered
    spaces, a live race message the outbox cannot take) has its picture drawn when it is sent, never on
    the event loop. A hung worker (replaced now): the message goes without its picture."""
    from bot import workers

    if out.render is not None and out.image is None:
        out = await readied(out)
        render = out.render
        try:
            out.image = await workers.run(render) if render is not None else None
        except workers.WorkerTimeout:
            out.render = None
    return out


async def readied(out: Outgoing) -> Outgoing:
    """``out`` after its ``ready`` work (a frame's odds), or ``out`` as it is if that fails: the picture
    goes without what it would have added, never without the picture."""
    if out.ready is None:
        return out
    try:
        with speaking(out.language):  # its words (the picture's alt text) in the reader's language
            done = await out.ready(out)
    except Exception:
        log.warning("Could not finish a picture's extras (its odds); drawing it without them", exc_info=True)
        done = out
    done.ready = None
    return done
