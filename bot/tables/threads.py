"""A game in a thread of its own: started from its lobby message, remembered, and let go when deleted.

The channel keeps the lobby (edited to say the game started), a link to the thread and the game's
last message (its final standings); everything else goes to the thread, so the channel is free for
another lobby. The thread's id is stored in the table's meta, so a restart resumes into it. Sending
to a thread that was archived for inactivity unarchives it (Discord does that for the bot's own
message); a deleted thread closes its game and the players are told in the channel. Where the bot
may not create threads, the game stays in the channel and the channel is told why, once per channel
and process. Game-agnostic: the thread is named after the catalog title and the game number.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import N_, _, speaking
from bot.storage import StorageError
from bot.tables.presenter import Outgoing

if TYPE_CHECKING:
    from bot.tables.table import Table

log = logging.getLogger(__name__)

WHERE = ("thread", "channel")
ARCHIVE_MINUTES = 1440  # a day of silence before Discord archives it (the next message unarchives it)
UNKNOWN_CHANNEL = 10003

_told_no_threads: set[int] = set()  # channels already told why their games stay in the channel


async def move_to_thread(table: Table, lobby: discord.Message | None) -> None:
    """Start the game's thread from its lobby message (if the table wants one and the bot may)."""
    if table.settings.get("where", "thread") != "thread" or lobby is None or table.thread_id is not None:
        return
    with speaking(table.language):  # what the channel hears, whoever's click started the game
        await _move(table, lobby)


async def _move(table: Table, lobby: discord.Message) -> None:
    home = table.home
    why = _why_not(home)
    if why is None:
        assert isinstance(home, discord.TextChannel)
        try:
            async with table.bot.pacer.turn(table.channel_id):
                thread = await home.create_thread(
                    name=f"{table.presenter.title} #{table.game_id}"[:100],  # a name, not a sentence
                    message=lobby,
                    auto_archive_duration=ARCHIVE_MINUTES,
                )
        except discord.Forbidden:
            why = N_("I'm not allowed to create threads here")
        except discord.HTTPException as error:
            log.warning("Could not start a thread for game %s: %s", table.game_id, error)
            why = N_("Discord would not let me start a thread just now")
        else:
            table.use_thread(thread)
            with contextlib.suppress(StorageError):
                await table.bot.storage.update_game(table.game_id, meta=table.meta)
            await table.send_home(
                Outgoing(
                    content=_(
                        "🧵 {game} game #{number} is on in {thread}.",
                        game=table.presenter.title,
                        number=table.game_id,
                        thread=thread.mention,
                    )
                )
            )
            return
    if table.channel_id not in _told_no_threads:
        _told_no_threads.add(table.channel_id)
        await table.send(
            Outgoing(
                content=_(
                    "ℹ️ {why}, so games here are played in this channel. (A server manager can give me "
                    "**Create Public Threads**, or set `/config set where channel`.)",
                    why=_(why),
                )
            )
        )


def _why_not(channel: object) -> str | None:
    if not isinstance(channel, discord.TextChannel):
        return N_("Threads can't be started in this kind of channel")
    me = channel.guild.me
    if me is not None and not channel.permissions_for(me).create_public_threads:
        return N_("I don't have the **Create Public Threads** permission here")
    return None


async def thread_gone(table: Table) -> None:
    """The game's thread was deleted: the game closes and the players hear it in the channel."""
    if table.closed:
        return
    await table.bot.tables.close(table, "abandoned", "Its thread was deleted.")
    players = [s for s in table.seats if s.user_id is not None]
    mentions = " ".join(s.mention() for s in players)
    with speaking(table.language):
        text = _(
            "🛑 {game} game #{number} was closed: its thread was deleted. {players}",
            game=table.presenter.title,
            number=table.game_id,
            players=mentions,
        )
    await table.send_home(Outgoing(content=text.strip(), ping=tuple(s.user_id for s in players if s.user_id)))
