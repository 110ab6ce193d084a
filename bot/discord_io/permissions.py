"""The channel permissions the bot uses: one list, read by the start check, the invite link, the
README and the operators' docs (``tests/bot/discord_io/test_permissions.py`` keeps them equal).

Each entry says whether a game cannot be shown without it (``required``: a start is refused, a game
that loses it pauses, then closes) or only loses something (optional: no pictures without Attach
Files, the game in the channel without Create Public Threads). ``where`` says where it is needed:
in the channel, in the game's thread, or both.

Rulings, where Discord leaves a choice:

- Send Messages is needed in the channel even for a game in a thread: the channel gets the link to
  the thread and the game's final standings.
- Send Messages in Threads is needed only when the game will have a thread (the server's ``where`` is
  ``thread`` and the bot may create one); without Create Public Threads the game plays in the
  channel (the bot says why, once), so that permission is optional.
- Read Message History is asked for in the invite (Discord shows a member, the bot too, only the
  messages of a channel it may read back, and refuses replies and message look-ups without it) but
  no post of the bot fails without it, so it is optional and the start is not refused for it.
- Application emojis need no permission (they are the application's own), and the bot pings only
  people, so neither Use External Emojis nor Mention Everyone is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord

from bot.i18n import N_

Where = Literal["channel", "thread", "both"]


@dataclass(frozen=True)
class Needed:
    """One permission: its discord.py flag, Discord's name for it (as its settings show it, marked
    for translation), whether a game needs it, where, and why (the docs' words)."""

    flag: str
    name: str
    required: bool
    where: Where
    why: str

    @property
    def shown(self) -> str:
        """Discord's English name of the permission (docs, logs)."""
        return self.name


NEEDED: tuple[Needed, ...] = (
    Needed(
        "view_channel",
        N_("View Channel"),
        True,
        "both",
        "to see the channel a game is started in, and its thread, and post there",
    ),
    Needed(
        "send_messages",
        N_("Send Messages"),
        True,
        "channel",
        "the lobby, prompts, race pictures and narration, results (and, for a game in a thread, the "
        "link to it and the final standings in the channel)",
    ),
    Needed(
        "send_messages_in_threads",
        N_("Send Messages in Threads"),
        True,
        "thread",
        "each game plays in a thread of its own by default (`/config set where thread`)",
    ),
    Needed(
        "create_public_threads",
        N_("Create Public Threads"),
        False,
        "channel",
        "to start that thread from the lobby message (without it the game plays in the channel, "
        "and the bot says why, once)",
    ),
    Needed(
        "embed_links",
        N_("Embed Links"),
        True,
        "both",
        "the lobby, prompts, results and standings are embeds (without it Discord drops them, and a "
        "message that is only an embed is refused)",
    ),
    Needed(
        "attach_files",
        N_("Attach Files"),
        False,
        "both",
        "race pictures, replays (GIF) and the leaderboard image (without it the game goes on without "
        "pictures)",
    ),
    Needed(
        "read_message_history",
        N_("Read Message History"),
        False,
        "both",
        "to read the game's earlier messages back (Discord refuses message look-ups and replies "
        "without it; no post of the bot fails without it)",
    ),
)

BY_FLAG = {needed.flag: needed for needed in NEEDED}


def permissions() -> discord.Permissions:
    """Every permission of the list, as the invite asks for them."""
    return discord.Permissions(**dict.fromkeys((n.flag for n in NEEDED), True))


PERMISSIONS = permissions()


def wanted(*, thread: bool) -> list[Needed]:
    """What a game needs where it will be shown: its channel, and its thread if it will have one."""
    return [
        n for n in NEEDED if n.where == "both" or n.where == "channel" or (thread and n.where == "thread")
    ]


def missing(granted: discord.Permissions, *, thread: bool) -> list[Needed]:
    """The entries of the list that ``granted`` (the bot's permissions in the channel) lacks."""
    return [n for n in wanted(thread=thread) if not getattr(granted, n.flag)]


def granted_in(channel: object) -> discord.Permissions | None:
    """The bot's permissions in ``channel`` (a text channel or a thread) as the cache has them; None
    when they cannot be known (a DM, a channel or member not cached)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    try:
        return channel.permissions_for(me)
    except discord.ClientException:  # a thread whose parent is not cached
        return None


def lacking(channel: object, *, thread: bool) -> list[Needed] | None:
    """What the bot lacks in ``channel`` for a game there (None: unknown)."""
    granted = granted_in(channel)
    return None if granted is None else missing(granted, thread=thread)


def will_thread(channel: object, where: str) -> bool:
    """Whether a game opened in ``channel`` with the setting ``where`` will get a thread: the setting
    says so and the bot may create one (else the game falls back to the channel)."""
    if where != "thread" or not isinstance(channel, discord.TextChannel):
        return False
    granted = granted_in(channel)
    return granted is None or granted.create_public_threads


def names(entries: list[Needed]) -> list[str]:
    return [n.name for n in entries]


def docs_table() -> str:
    """The operators' table (``docs/operating.md``): one row per permission."""
    rows = ["| permission | needed | why |", "|---|---|---|"]
    for n in NEEDED:
        rows.append(f"| {n.shown} | {'required' if n.required else 'optional'} | {n.why} |")
    return "\n".join(rows)


def invite_list() -> str:
    """The permissions in the README's invite step, in the list's order."""
    return ", ".join(n.shown for n in NEEDED)
