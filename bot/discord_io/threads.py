"""A game in a thread of its own: started from its lobby message, remembered, and let go when deleted.

The channel keeps the lobby (edited to say the game started), a link to the thread and the game's
last message (its final standings); everything else goes to the thread, so the channel is free for
another lobby. The thread's id is stored in the table's meta, so a restart resumes into it. Sending
to a thread that was archived for inactivity unarchives it (Discord does that for the bot's own
message); a deleted thread closes its game and the players are told in the channel (the registry
does that: ``bot.tables.registry``). Where the bot
may not create threads, the game stays in the channel and the channel is told why, once per channel
and process. Game-agnostic: the thread is named after the catalog title and the game number.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord

from bot.discord_io.outgoing import Outgoing
from bot.i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_io.place import Place

log = logging.getLogger(__name__)

WHERE = ("thread", "channel")
ARCHIVE_MINUTES: Literal[1440] = (
    1440  # a day of silence before Discord archives it (the next message unarchives it)
)
UNKNOWN_CHANNEL = 10003

_told_no_threads: set[int] = set()  # channels already told why their games stay in the channel


async def move_to_thread(place: Place, lobby: discord.Message, *, title: str) -> bool:
    """Start the game's thread from its lobby message, if the bot may: True once the game plays there
    (``place.thread_id`` is set; the caller stores it). ``title`` is the game's, in the server's
    language, which is spoken here (what the channel hears, whoever's click started the game)."""
    home = place.home
    why = _why_not(home)
    if why is None:
        assert isinstance(home, discord.TextChannel)
        try:
            async with place.wires.pacer.turn(place.channel_id):
                thread = await home.create_thread(
                    name=f"{title} #{place.game_id}"[:100],  # a name, not a sentence
                    message=lobby,
                    auto_archive_duration=ARCHIVE_MINUTES,
                )
        except discord.Forbidden:
            why = N_("I'm not allowed to create threads here")
        except discord.HTTPException as error:
            log.warning("Could not start a thread for game %s: %s", place.game_id, error)
            why = N_("Discord would not let me start a thread just now")
        else:
            place.use_thread(thread)
            await place.send_home(
                Outgoing(
                    content=_(
                        "🧵 {game} #{number} is on in {thread}.",
                        game=title,
                        number=place.game_id,
                        thread=thread.mention,
                    )
                )
            )
            return True
    if place.channel_id not in _told_no_threads:
        _told_no_threads.add(place.channel_id)
        await place.send(
            Outgoing(
                content=_(
                    "ℹ️ {why}, so games here are played in this channel. (A server manager can give me "
                    "**Create Public Threads**, or set `/config set where channel`.)",
                    why=_(why),
                )
            )
        )
    return False


def _why_not(channel: object) -> str | None:
    if not isinstance(channel, discord.TextChannel):
        return N_("Threads can't be started in this kind of channel")
    me = channel.guild.me
    if me is not None and not channel.permissions_for(me).create_public_threads:
        return N_("I don't have the **Create Public Threads** permission here")
    return None
