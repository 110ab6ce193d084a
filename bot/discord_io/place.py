"""Where one game is shown: its channel or its thread, the channel it was opened in, its players' DMs.

A ``Place`` sends what the table hands it, paced (``pacer``, the picture ``outbox``) and retried with a
nonce (``delivery``), so nothing is posted twice and nothing is lost to a hiccup. It knows nothing of
games: a channel that is gone for good is reported through the ``on_gone`` callback its owner gave
it, once, and a DM that cannot be delivered raises ``DMClosed`` for its owner to handle.

A channel that refuses the bot (a permission taken away) pauses the place (``pause``): the refused
message waits and is tried again until the permission is back or the wait is over. Where only Attach
Files is missing, the game goes on without pictures: the message is sent without its file, and its
owner is told once (``on_pictures_off``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.discord_io import later, permissions
from bot.discord_io.delivery import TRANSIENT, deliver, is_gone, is_refused, new_run, nonce
from bot.discord_io.outbox import PictureOutbox
from bot.discord_io.outgoing import Outgoing, drawn, message_kwargs
from bot.discord_io.pacer import ChannelPacer, Kind
from bot.discord_io.pause import Pause
from bot.tables.timing import Timing

log = logging.getLogger(__name__)

CANNOT_DM = 50007  # Discord's "Cannot send messages to this user"


class Client(Protocol):
    """What a place needs of the bot: its cache and two fetches."""

    def get_channel(self, channel_id: int, /) -> Any: ...

    def get_guild(self, guild_id: int, /) -> Any: ...

    def get_user(self, user_id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...


figures = {"edits_merged": 0, "edits_answering": 0}
"""Edits that joined a newer edit of their message while waiting: never sent on their own; edits made
through the click they answer (``answering``). For the bench."""

answering: contextvars.ContextVar[discord.Interaction | None] = contextvars.ContextVar(
    "answering", default=None
)
"""The click on a public message being handled now (set by ``bot.tables.clicks``): an edit of that
message is made through the click itself (``Place.edit``)."""


@contextlib.contextmanager
def answering_click(interaction: discord.Interaction) -> Any:
    """Within this block, edits of ``interaction``'s message go through the interaction."""
    token = answering.set(interaction)
    try:
        yield
    finally:
        answering.reset(token)


def _rewound(changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` with its new files rewound: a retried upload starts from the first byte again."""
    for file in changes.get("attachments") or []:
        if isinstance(file, discord.File):
            file.reset(seek=True)
    return changes


@dataclass
class _Edit:
    """An edit waiting for its channel's turn; newer edits of its message join it until it starts."""

    changes: dict[str, Any]
    done: asyncio.Future[None]
    started: bool = False


@dataclass
class Wires:
    """What every place of a bot shares: the client, the pacers and the timings."""

    client: Client
    pacer: ChannelPacer
    outbox: PictureOutbox | None
    timing: Timing


class DMClosed(Exception):
    """The person does not accept the bot's direct messages (a setting of theirs, or no shared server)."""


class Place:
    def __init__(
        self,
        wires: Wires,
        *,
        game_id: int,
        channel_id: int,
        thread_id: int | None = None,
        on_gone: Any = None,
    ) -> None:
        self.wires = wires
        self.game_id = game_id
        self.channel_id = channel_id
        self.thread_id = thread_id
        self.on_gone = on_gone  # called once, with no argument, when the place is gone for good
        self.gone = False
        self.posts = 0  # posts and DMs so far in this run: each one's nonce
        self.run_id = new_run()  # this run of the bot (a restart makes a new Place): part of each nonce
        self.drawing: set[asyncio.Task[None]] = set()  # pictures being drawn for messages already out
        self._thread: discord.abc.Messageable | None = None  # kept while the cache drops it
        self._guild_id: int | None = None  # the server of its channel, once known (``_cached``)
        self._users: dict[int, Any] = {}  # people fetched for DMs, once per game
        self._dms: dict[int, discord.DMChannel] = {}  # their DM channels, opened once per game
        self.pause = Pause(wires.timing, self.lacking)  # its owner sets on_paused, on_back, on_over
        self.pictures_off = False  # Attach Files is missing: messages go without their pictures
        self.on_pictures_off: Any = None  # called once, with no argument, when pictures are turned off
        self._live: dict[str, discord.Message] = {}  # the live message (``Outgoing.live``) on show
        self._edits: dict[int, _Edit] = {}  # message id -> its edit waiting for the channel's turn

    @property
    def place_id(self) -> int:
        """Where the game's messages go: its thread, else its channel."""
        return self.thread_id or self.channel_id

    @property
    def channel(self) -> discord.abc.Messageable | None:
        """Where the game plays (its thread, or its channel); None if it is not in the cache."""
        found = self._cached(self.place_id) or (self._thread if self.thread_id else None)
        return found if isinstance(found, discord.abc.Messageable) else None

    @property
    def home(self) -> discord.abc.Messageable | None:
        """The channel the game was opened in (its lobby, its thread's link, its final standings)."""
        found = self._cached(self.channel_id)
        return found if isinstance(found, discord.abc.Messageable) else None

    def _cached(self, channel_id: int) -> Any:
        """The channel or thread ``channel_id`` from discord.py's cache, looked up in its server first.

        Why: ``Client.get_channel`` tries every server the bot is in, one after the other; at 500
        games (one server each) that was 3.5% of the event loop, asked several times a card. A
        channel never moves to another server, so its server, once known, is asked directly."""
        client = self.wires.client
        if self._guild_id is not None:
            guild = client.get_guild(self._guild_id)
            found = guild.get_channel_or_thread(channel_id) if guild is not None else None
            if found is not None:
                return found
        found = client.get_channel(channel_id)
        guild = getattr(found, "guild", None)
        if guild is not None:
            self._guild_id = guild.id
        return found

    def use_thread(self, thread: discord.Thread) -> None:
        self.thread_id = thread.id
        self._thread = thread

    # --- sending ------------------------------------------------------------------

    async def send(self, out: Outgoing, *, wait_for_pictures: bool = False) -> discord.Message | None:
        """Post ``out`` where the game plays, paced; a race picture may wait for its drawing slot and
        merge into the next (``outbox``), so it returns None, or with ``wait_for_pictures`` once sent.

        A failure in transit is retried with the same nonce; a place gone for good is reported
        (``on_gone``); a place that refuses the bot pauses, and this message waits to be tried again
        (``pause``); anything else loses this one message (logged), never the game.
        """
        if self.gone:
            return None
        channel = self.channel or await self._fetch_channel()
        if channel is None:
            return None
        outbox = self.wires.outbox
        if outbox is not None and outbox.takes(out):
            await outbox.post(
                self.place_id, out, self._post_picture, wait=wait_for_pictures, kind=self._kind_of
            )
            return None
        if outbox is not None:
            outbox.close(self.place_id)
        out = await drawn(out)  # its picture, if it brings one to draw: off the event loop, before its turn
        async with self.wires.pacer.turn(self.place_id, kind=None) as turn:
            await turn.ready(self._kind_of(out))
            return await self._post(out)

    def _kind_of(self, out: Outgoing) -> Kind:
        """What sending ``out`` will be: an edit of the live message on show, else a new message."""
        return "edit" if out.live is not None and out.live in self._live else "create"

    async def _post(self, out: Outgoing, *, patient: bool = True) -> discord.Message | None:
        """Post ``out`` (within the channel's turn); a live message's later versions edit the first."""
        channel = self.channel or await self._fetch_channel()
        if channel is None:
            return None
        if out.live is not None:
            message = self._live.get(out.live)
            if message is not None and await self._edit_live(message, out, patient=patient):
                return message
        posted = await self._deliver(channel, self.place_id, out, patient=patient)
        if out.live is not None and posted is not None:
            self._live = {out.live: posted}  # one live message at a time: an older one is done
        return posted

    async def _edit_live(self, message: discord.Message, out: Outgoing, *, patient: bool) -> bool:
        """The live message edited into ``out`` (within the channel's turn, like a post); False when it
        is gone (deleted by someone), so that a fresh one is posted."""
        changes = message_kwargs(out, editing=True)
        if out.image is None and out.render is None:
            changes.pop("attachments")  # the words moved on, the picture stays
        return await self._edit(message, changes, paced=False, patient=patient)

    async def _post_picture(self, out: Outgoing) -> discord.Message | None:
        """Ruling: a race picture (the outbox) does not wait out a pause: it holds a slot of the bot's
        global pacer while it is sent, and it would be stale by then; the game's next message waits."""
        return await self._post(out, patient=False)

    async def send_home(self, out: Outgoing) -> discord.Message | None:
        """Send to the channel the game was opened in, even while it plays in a thread.

        Ruling: a refusal there (a permission taken away in the channel only) loses this one message
        (logged) and does not pause the game, which plays in its thread; the channel only hears of it."""
        channel = self.home
        if channel is None:
            return None
        async with self.wires.pacer.turn(self.channel_id):
            return await self._deliver(channel, self.channel_id, out, home=True)

    async def _deliver(
        self,
        channel: discord.abc.Messageable,
        place: int,
        out: Outgoing,
        *,
        home: bool = False,
        patient: bool = True,
    ) -> discord.Message | None:
        self.posts += 1
        tag = nonce(self.game_id, self.run_id, self.posts)
        while not self.gone:
            if self.pictures_off and not home:
                out = without_picture(out)
            if not home and out.embed is not None and _embeds_dropped(channel):
                if await self._refused(channel, False, patient=patient):
                    continue
                return None

            async def attempt(sending: Outgoing = out) -> discord.Message:
                return await channel.send(nonce=tag, **message_kwargs(sending))

            try:
                message = await deliver(attempt, self.wires.timing, f"A post of game {self.game_id}")
            except (discord.HTTPException, *TRANSIENT) as error:
                if is_gone(error):
                    self.lost()
                elif is_refused(error) and not home:
                    if await self._refused(channel, has_picture(out), patient=patient):
                        continue  # without its picture, or the permission is back: the same post again
                else:
                    log.exception("Could not post in channel %s for game %s", place, self.game_id)
                return None
            if not home:
                self.pause.went_through()
            return message
        return None

    async def _refused(self, channel: object, picture: bool, *, patient: bool = True) -> bool:
        """Discord refused a post or an edit where the game plays: True to try it again (without its
        picture, if Attach Files is all that is missing; or once the pause is over), False to give
        it up (the pause is over for good: the owner closes the game)."""
        if picture and not self.pictures_off and self._only_pictures_missing(channel):
            self.pictures_off = True
            log.warning("Game %s: no Attach Files permission; it goes on without pictures", self.game_id)
            if self.on_pictures_off is not None:
                self.on_pictures_off()
            return True
        if not self.pause.paused:
            log.warning(
                "Game %s: Discord refuses the bot where it plays (%s); paused", self.game_id, self.lacking()
            )
        self.pause.begin()
        return patient and await self.pause.wait()

    def lacking(self) -> list[str] | None:
        """The required permissions the bot lacks where the game plays, by the cache (None: unknown)."""
        found = permissions.lacking(self.channel)
        return None if found is None else [n.name for n in permissions.required(found)]

    def _only_pictures_missing(self, channel: object) -> bool:
        granted = permissions.granted_in(channel)
        return (
            granted is not None
            and not granted.attach_files
            and not permissions.required(permissions.lacking(channel) or [])
        )

    async def dm(self, user_id: int, out: Outgoing) -> discord.Message | None:
        """A direct message to one person. Raises ``DMClosed`` if they do not accept it; any other
        failure loses this one message (logged)."""
        self.posts += 1
        tag = nonce(self.game_id, self.run_id, self.posts, "d")
        client = self.wires.client

        async def attempt() -> discord.Message:
            # The DM channel is kept once per game: discord.py keeps only 128 of them, so a busy bot
            # asked Discord to open the same DM again and again (1,591 times in 200 games).
            channel = self._dms.get(user_id)
            if channel is None:
                # Fetched once per game (the bot has no member cache to find players in).
                user = (
                    client.get_user(user_id) or self._users.get(user_id) or await client.fetch_user(user_id)
                )
                self._users[user_id] = user
                channel = user.dm_channel or await user.create_dm()
                self._dms[user_id] = channel
            message: discord.Message = await channel.send(nonce=tag, **message_kwargs(out))
            return message

        try:
            return await deliver(attempt, self.wires.timing, f"A DM of game {self.game_id}")
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden) or error.code == CANNOT_DM:
                raise DMClosed(user_id) from error
            log.exception("Could not DM user %s for game %s", user_id, self.game_id)
        except TRANSIENT:
            log.exception("Could not DM user %s for game %s", user_id, self.game_id)
        return None

    async def edit(self, message: discord.Message, **changes: Any) -> bool:
        """Edit one of the game's messages, paced like a new one (and retried like one: an edit sets
        the whole message, so doing it twice is harmless). False if the message is gone (deleted).

        An edit still waiting for the channel's turn takes in a newer edit of the same message (the
        newer changes over the older): one request shows the latest look. Why: a betting prompt is
        edited after every pick; when the channel's edits are at Discord's limit, each waited for the one
        before, and the prompt that showed the next person their buttons came seconds late."""
        waiting = self._edits.get(message.id)
        if waiting is not None and not waiting.started:
            waiting.changes.update(changes)
            figures["edits_merged"] += 1
            await asyncio.shield(waiting.done)
            return True
        if await self._edit_answering(message, changes):
            return True
        entry = _Edit(dict(changes), asyncio.get_running_loop().create_future())
        self._edits[message.id] = entry
        try:
            return await self._edit(message, entry.changes, paced=True, merging=entry)
        finally:
            if self._edits.get(message.id) is entry:
                del self._edits[message.id]
            if not entry.done.done():
                entry.done.set_result(None)

    async def _edit_answering(self, message: discord.Message, changes: dict[str, Any]) -> bool:
        """Edit ``message`` through the click on it being handled now, if there is one: True if done.

        Why: Discord counts a channel's edits in one bucket (5 per 5 s), but not an interaction's own
        answer. A betting prompt is edited after every pick; at a pick a second the channel's bucket was
        full, and the edit after an AI's pick, the one that shows the next person their buttons, waited
        2-3 s for room (docs/scaling.md). Editing through the click halves the channel's edits in a draft.
        Ruling: only while nothing is amiss (no pause, pictures on, no required permission missing); any
        failure falls back to the channel's edit, which handles refusals and retries."""
        interaction = answering.get()
        if interaction is None or interaction.message is None or interaction.message.id != message.id:
            return False
        if self.gone or self.pictures_off or self.pause.paused or self.lacking():
            # (A click's answer needs no channel permission: a game whose channel refuses the bot must
            # find out by its own edit and pause, not play on through clicks alone.)
            return False

        async def attempt() -> None:
            await interaction.edit_original_response(**_rewound(changes))

        try:
            await deliver(attempt, self.wires.timing, f"An edit of game {self.game_id} through a click")
        except (discord.HTTPException, *TRANSIENT) as error:
            log.info(
                "Game %s: an edit through a click failed (%r); editing in the channel", self.game_id, error
            )
            return False  # (the channel's edit rewinds its files before each try)
        figures["edits_answering"] += 1
        return True

    async def _edit(
        self,
        message: discord.Message,
        changes: dict[str, Any],
        *,
        paced: bool,
        patient: bool = True,
        merging: _Edit | None = None,
    ) -> bool:
        """``edit``; ``paced`` False within the channel's turn already. False if the message is gone
        (Unknown Message: someone deleted it). ``merging``: the waiting edit newer ones join until its
        turn comes."""
        while not self.gone:
            if self.pictures_off:
                changes = _without_new_files(changes)
            embeds = changes.get("embed") is not None or bool(changes.get("embeds"))
            if embeds and message.channel.id == self.place_id and _embeds_dropped(message.channel):
                if await self._refused(message.channel, False, patient=patient):
                    continue
                return True

            async def attempt(editing: dict[str, Any] = changes) -> None:
                _rewound(editing)
                if paced:
                    async with self.wires.pacer.turn(message.channel.id, "edit"):
                        if merging is not None and not merging.started:
                            merging.started = True  # newer edits wait for a turn of their own
                            if self._edits.get(message.id) is merging:
                                del self._edits[message.id]
                            editing = merging.changes
                            if self.pictures_off:
                                editing = _without_new_files(editing)
                        await message.edit(**editing)
                else:
                    await message.edit(**editing)

            try:
                await deliver(attempt, self.wires.timing, f"An edit of game {self.game_id}")
            except (discord.HTTPException, *TRANSIENT) as error:
                if is_gone(error):
                    self.lost()
                elif is_refused(error) and message.channel.id == self.place_id:
                    new_files = any(isinstance(f, discord.File) for f in changes.get("attachments") or [])
                    if await self._refused(message.channel, new_files, patient=patient):
                        continue
                elif isinstance(error, discord.NotFound):
                    return False
                else:
                    log.warning("Could not edit a message of game %s: %r", self.game_id, error)
                return True
            if message.channel.id == self.place_id:
                self.pause.went_through()
            return True
        return True

    # --- pictures that follow a message ------------------------------------------------

    def follow(self, message: discord.Message | None, out: Outgoing) -> None:
        """Draw ``out.later`` off the event loop and add it to ``message`` (``later``)."""
        later.attach(self, message, out)

    async def finish_drawing(self) -> None:
        """Wait for the pictures still being drawn (a finished game's last replay)."""
        await later.finish(self)

    def stop(self) -> None:
        """Stop drawing (a replay still being drawn is skipped) and stop waiting for permissions."""
        for task in list(self.drawing):
            task.cancel()
        self.pause.stop()

    # --- a place that is gone ------------------------------------------------------------

    async def _fetch_channel(self) -> discord.abc.Messageable | None:
        """Where the game plays is not in the bot's cache (a thread archived or not yet seen after a
        restart; a channel deleted or hidden from the bot): ask Discord."""
        place = self.place_id
        try:
            found = await deliver(
                lambda: self.wires.client.fetch_channel(place), self.wires.timing, "Finding a channel"
            )
        except (discord.HTTPException, *TRANSIENT) as error:
            if is_refused(error):  # hidden from the bot: paused like a refused post (this one is lost)
                log.warning("Game %s: its channel is hidden from the bot; paused", self.game_id)
                self.pause.begin()
            elif is_gone(error) or isinstance(error, discord.NotFound | discord.Forbidden):
                self.lost()
            else:
                log.warning("Could not find the channel of game %s: %r", self.game_id, error)
            return None
        channel = found if isinstance(found, discord.abc.Messageable) else None
        if self.thread_id:
            self._thread = channel
        return channel

    def lost(self) -> None:
        """The channel (or the thread) was deleted or the bot lost access: say so once to the owner."""
        if self.gone:
            return
        self.gone = True
        log.warning("The channel of game %s is gone", self.game_id)
        if self.on_gone is not None:
            self.on_gone()


def has_picture(out: Outgoing) -> bool:
    return out.image is not None or out.render is not None


def without_picture(out: Outgoing) -> Outgoing:
    """``out`` with no file: no picture, no replay to follow, and its embed without the picture it
    pointed at (``attachment://``)."""
    if not has_picture(out) and out.later is None:
        return out
    embed = out.embed
    if embed is not None and embed.image and str(embed.image.url or "").startswith("attachment://"):
        embed = embed.copy()
        embed.set_image(url=None)
    return dataclasses.replace(out, image=None, render=None, later=None, embed=embed)


def _embeds_dropped(channel: object) -> bool:
    """Without Embed Links Discord drops a bot's embeds without a word (and refuses a message left
    empty, 50006): the cache is asked first, so such a post pauses the game like a refused one."""
    granted = permissions.granted_in(channel)
    return granted is not None and granted.view_channel and not granted.embed_links


def _without_new_files(changes: dict[str, Any]) -> dict[str, Any]:
    """An edit's changes without the files it would upload (the files already on the message stay)."""
    if "attachments" not in changes:
        return changes
    kept = [a for a in changes["attachments"] or [] if not isinstance(a, discord.File)]
    return {**changes, "attachments": kept}
