"""The channel permissions the bot uses: one list, read by the start check, the invite link, the
README and the operators' docs (``tests/bot/test_permissions_list.py`` keeps them equal).

Each entry says whether a game cannot be shown without it (``required``: a start is refused, a game
that loses it pauses, then closes) or only loses something (optional: no pictures without Attach
Files, the game in the channel without Create Public Threads). ``for_game`` says which are needed
where a game is shown: its channel, and its thread if it will have one.

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

import discord

from bot.i18n import N_


@dataclass(frozen=True)
class Needed:
    """One permission: its discord.py flag, Discord's name for it (as its settings show it, marked
    for translation), whether a game needs it, and why (the docs' words)."""

    flag: str
    name: str
    required: bool
    why: str


NEEDED: tuple[Needed, ...] = (
    Needed(
        "view_channel",
        N_("View Channel"),
        True,
        N_("to see the channel a game is started in, and its thread, and post there"),
    ),
    Needed(
        "send_messages",
        N_("Send Messages"),
        True,
        N_(
            "the lobby, prompts, race pictures and narration, results (and, for a game in a thread, the "
            "link to it and the final standings in the channel)"
        ),
    ),
    Needed(
        "send_messages_in_threads",
        N_("Send Messages in Threads"),
        True,
        N_("each game plays in a thread of its own by default (`/config set where thread`)"),
    ),
    Needed(
        "create_public_threads",
        N_("Create Public Threads"),
        False,
        N_(
            "to start that thread from the lobby message (without it the game plays in the channel, "
            "and the bot says why, once)"
        ),
    ),
    Needed(
        "embed_links",
        N_("Embed Links"),
        True,
        N_(
            "the lobby, prompts, results and standings are embeds (without it Discord drops them, and a "
            "message that is only an embed is refused)"
        ),
    ),
    Needed(
        "attach_files",
        N_("Attach Files"),
        False,
        N_(
            "race pictures, replays (GIF) and the leaderboard image (without it the game goes on without "
            "pictures)"
        ),
    ),
    Needed(
        "read_message_history",
        N_("Read Message History"),
        False,
        N_(
            "to read the game's earlier messages back (Discord refuses message look-ups and replies "
            "without it; no post of the bot fails without it)"
        ),
    ),
)


def permissions() -> discord.Permissions:
    """Every permission of the list, as the invite asks for them."""
    return discord.Permissions(**dict.fromkeys((n.flag for n in NEEDED), True))


PERMISSIONS = permissions()


def for_game(granted: discord.Permissions, *, in_thread: bool, want_thread: bool = False) -> list[Needed]:
    """The entries of the list that ``granted`` (the bot's permissions where the game is) lacks.

    ``in_thread``: the game plays in a thread already (a game's thread, or a start inside a thread):
    posts there need Send Messages in Threads, not Send Messages. ``want_thread``: the game will get a
    thread of its own (the server's ``where``), if the bot may create one; when it may not, the game
    plays in the channel and Send Messages in Threads is not needed."""
    thread = in_thread or (want_thread and granted.create_public_threads)
    lacking: list[Needed] = []
    for needed in NEEDED:
        if needed.flag == "create_public_threads" and (in_thread or not want_thread):
            continue
        if needed.flag == "send_messages_in_threads" and not thread:
            continue
        if needed.flag == "send_messages" and in_thread and not want_thread:
            continue
        if not getattr(granted, needed.flag):
            lacking.append(needed)
    return _causes(lacking)


def _causes(lacking: list[Needed]) -> list[Needed]:
    """Only what must be granted: without View Channel Discord takes every other permission of the
    channel away, and without the permission to post (Send Messages, or Send Messages in Threads) it
    takes Embed Links and Attach Files away, so those follow once the first is given back."""
    flags = {n.flag for n in lacking}
    if "view_channel" in flags:
        return [n for n in lacking if n.flag == "view_channel"]
    if flags & {"send_messages", "send_messages_in_threads"}:
        return [n for n in lacking if n.flag not in ("embed_links", "attach_files")]
    return lacking


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


def lacking(channel: object, *, want_thread: bool = False) -> list[Needed] | None:
    """What the bot lacks in ``channel`` for a game there (None: unknown)."""
    granted = granted_in(channel)
    if granted is None:
        return None
    return for_game(granted, in_thread=isinstance(channel, discord.Thread), want_thread=want_thread)


def required(entries: list[Needed]) -> list[Needed]:
    return [n for n in entries if n.required]


def docs_table() -> str:
    """The operators' table (``docs/operating.md``): one row per permission."""
    rows = ["| permission | needed | why |", "|---|---|---|"]
    for n in NEEDED:
        rows.append(f"| {n.name} | {'required' if n.required else 'optional'} | {n.why} |")
    return "\n".join(rows)


def invite_list() -> str:
    """The permissions in the README's invite step, in the list's order."""
    return ", ".join(n.name for n in NEEDED)
