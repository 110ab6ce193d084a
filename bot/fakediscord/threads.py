"""Threads: starting one (from a message or bare), archiving, unarchiving by a new message, deleting, and
the THREAD_CREATE / THREAD_UPDATE / THREAD_DELETE events the bot hears. Shared by the REST routes (the
bot acting) and the driver (a user or a moderator acting).

Discord's rules kept here: a thread started from a message has the message's id, and a message has at
most one thread; a public thread needs Create Public Threads, a private one Create Private Threads, and
posting in either needs Send Messages in Threads; a message sent to an archived thread unarchives it,
unless it is locked (then only Manage Threads may post, and Discord answers 50083); deleting a thread
needs Manage Threads. Auto-archiving after inactivity is not simulated by the clock: a test archives a
thread with ``fake.archive_thread`` when it wants that to have happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.fakediscord.gateway import GUILDS
from bot.fakediscord.http_api import DiscordHTTPError
from bot.fakediscord.model import PRIVATE_THREAD, PUBLIC_THREAD, FakeChannel, FakeMessage, FakeUser, now
from bot.fakediscord.payloads import channel_payload, thread_payload

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

VIEW_CHANNEL = 1 << 10
MANAGE_CHANNELS = 1 << 4
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
THREAD_CREATED_MESSAGE = 18
TEXT_CHANNEL_TYPES = (0, 5)

MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
THREAD_ARCHIVED = (400, 50083, "Thread is archived")


def may(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, permission: int) -> bool:
    """Whether ``user`` holds every bit of ``permission`` in ``channel`` (its overwrites applied)."""
    if channel.guild is None:
        return True
    return channel.guild.permissions_in(user, channel) & permission == permission


def form_error(field: str, code: str, message: str) -> DiscordHTTPError:
    return DiscordHTTPError(
        400, 50035, "Invalid Form Body", errors={field: {"_errors": [{"code": code, "message": message}]}}
    )


def check_thread_fields(payload: dict[str, Any], *, creating: bool) -> None:
    name = payload.get("name")
    if (creating or "name" in payload) and (not isinstance(name, str) or not 1 <= len(name) <= 100):
        raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    duration = payload.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        raise form_error(
            "auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {ARCHIVE_DURATIONS}."
        )


def start_thread(
    fake: FakeDiscord,
    parent: FakeChannel,
    name: str,
    owner: FakeUser,
    *,
    starter: FakeMessage | None = None,
    private: bool = False,
    auto_archive_duration: int = 1440,
) -> FakeChannel:
    """Make the thread (permissions already checked) and tell the bot (THREAD_CREATE, newly created)."""
    assert parent.guild is not None
    thread_id = starter.id if starter is not None else fake.mint.next()
    thread = FakeChannel(
        thread_id,
        name,
        PRIVATE_THREAD if private else PUBLIC_THREAD,
        guild=parent.guild,
        parent=parent,
        owner=owner,
    )
    thread.auto_archive_duration = auto_archive_duration
    thread.starter = starter
    thread.member_ids.add(owner.id)
    parent.guild.threads.append(thread)
    fake.channels[thread.id] = thread
    if starter is not None:
        starter.thread = thread
    elif not private:
        # Discord marks a bare public thread in its parent with a "started a thread" system message.
        notice = FakeMessage(fake.mint.next(), parent, owner, content=name, type=THREAD_CREATED_MESSAGE)
        parent.messages.append(notice)
        fake.messages[notice.id] = notice
        fake._announce_message("MESSAGE_CREATE", notice)
    event = {**thread_payload(thread, member_of=fake.bot_user), "newly_created": True}
    fake.gateway.dispatch("THREAD_CREATE", event, intent=GUILDS, guild_id=parent.guild.id)
    fake._touch()
    return thread


def set_archived(
    fake: FakeDiscord, thread: FakeChannel, archived: bool, *, locked: bool | None = None
) -> None:
    """Archive or unarchive (and lock or unlock) ``thread``; THREAD_UPDATE when anything changed."""
    changed = thread.archived != archived or (locked is not None and thread.locked != locked)
    thread.archived = archived
    if locked is not None:
        thread.locked = locked
    if changed:
        thread.archive_timestamp = now()
        announce_update(fake, thread)


def announce_update(fake: FakeDiscord, thread: FakeChannel) -> None:
    assert thread.guild is not None
    data = thread_payload(thread, member_of=fake.bot_user)
    fake.gateway.dispatch("THREAD_UPDATE", data, intent=GUILDS, guild_id=thread.guild.id)
    fake._touch()


def before_posting(fake: FakeDiscord, author: FakeUser, thread: FakeChannel) -> None:
    """What posting in a thread does first: refuse in a locked archived thread, else unarchive; join."""
    if thread.archived:
        if thread.locked and not may(fake, author, thread, MANAGE_THREADS):
            raise DiscordHTTPError(*THREAD_ARCHIVED)
        set_archived(fake, thread, False)
    thread.member_ids.add(author.id)


def delete_channel(fake: FakeDiscord, channel: FakeChannel) -> None:
    """Delete a thread (THREAD_DELETE) or a guild channel and its threads (CHANNEL_DELETE)."""
    if channel.deleted:
        return
    channel.deleted = True
    guild = channel.guild
    assert guild is not None, "DMs cannot be deleted"
    if channel.parent is not None:
        data = {
            "id": str(channel.id),
            "guild_id": str(guild.id),
            "parent_id": str(channel.parent.id),
            "type": channel.type,
        }
        fake.gateway.dispatch("THREAD_DELETE", data, intent=GUILDS, guild_id=guild.id)
    else:
        for thread in guild.threads:
            if thread.parent is channel:
                thread.deleted = True
        fake.gateway.dispatch("CHANNEL_DELETE", channel_payload(channel), intent=GUILDS, guild_id=guild.id)
    fake._touch()


def thread_creation_permission(private: bool) -> int:
    return VIEW_CHANNEL | (CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
