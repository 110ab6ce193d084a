"""REST routes for threads and channel edits: start a thread from a message or bare, edit (archive, lock,
rename) or delete a channel or thread, list a guild's active threads, join and leave threads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.fakediscord.gateway import GUILDS
from bot.fakediscord.http_api import DiscordHTTPError, RequestBody, Route, route
from bot.fakediscord.payloads import channel_payload, thread_payload
from bot.fakediscord.rest_routes import channel_of, check_guild, message_in, no_content
from bot.fakediscord.threads import (
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    MISSING_PERMISSIONS,
    TEXT_CHANNEL_TYPES,
    THREAD_ARCHIVED,
    VIEW_CHANNEL,
    announce_update,
    check_thread_fields,
    delete_channel,
    may,
    set_archived,
    start_thread,
    thread_creation_permission,
)

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

WRONG_CHANNEL_TYPE = (400, 50024, "Cannot execute action on this channel type")


async def thread_from_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, message_id: str
) -> Any:
    channel = channel_of(fake, channel_id)
    if channel.type not in TEXT_CHANNEL_TYPES:
        raise DiscordHTTPError(*WRONG_CHANNEL_TYPE)
    message = message_in(channel, message_id)
    if not may(fake, fake.bot_user, channel, thread_creation_permission(private=False)):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    if message.thread is not None:
        raise DiscordHTTPError(400, 160004, "A thread has already been created for this message")
    payload = body.payload
    check_thread_fields(payload, creating=True)
    thread = start_thread(
        fake,
        channel,
        payload["name"],
        fake.bot_user,
        starter=message,
        auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
    )
    return thread_payload(thread, member_of=fake.bot_user)


async def thread_without_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str
) -> Any:
    channel = channel_of(fake, channel_id)
    if channel.type not in TEXT_CHANNEL_TYPES:
        raise DiscordHTTPError(*WRONG_CHANNEL_TYPE)
    payload = body.payload
    private = int(payload.get("type") or 12) == 12  # API v10's default is a private thread
    if not may(fake, fake.bot_user, channel, thread_creation_permission(private)):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    check_thread_fields(payload, creating=True)
    thread = start_thread(
        fake,
        channel,
        payload["name"],
        fake.bot_user,
        private=private,
        auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
    )
    return thread_payload(thread, member_of=fake.bot_user)


async def patch_channel(fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str) -> Any:
    channel = channel_of(fake, channel_id)
    payload = body.payload
    if channel.parent is None:
        if channel.is_dm or not may(fake, fake.bot_user, channel, MANAGE_CHANNELS):
            raise DiscordHTTPError(*MISSING_PERMISSIONS)
        channel.name = str(payload.get("name") or channel.name)
        channel.topic = payload.get("topic", channel.topic)
        assert channel.guild is not None
        fake.gateway.dispatch(
            "CHANNEL_UPDATE", channel_payload(channel), intent=GUILDS, guild_id=channel.guild.id
        )
        fake._touch()
        return channel_payload(channel)
    check_thread_fields(payload, creating=False)
    moderator = may(fake, fake.bot_user, channel, MANAGE_THREADS)
    owner = channel.owner is not None and channel.owner.id == fake.bot_user.id
    if not moderator and ("locked" in payload or not owner):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    if channel.archived and payload.get("archived") is not False:
        raise DiscordHTTPError(*THREAD_ARCHIVED)  # only unarchiving is allowed on an archived thread
    if channel.locked and not moderator:
        raise DiscordHTTPError(*THREAD_ARCHIVED)
    renamed = "name" in payload and payload["name"] != channel.name
    channel.name = str(payload.get("name") or channel.name)
    channel.auto_archive_duration = int(payload.get("auto_archive_duration") or channel.auto_archive_duration)
    if "archived" in payload or "locked" in payload:
        before = (channel.archived, channel.locked)
        set_archived(
            fake, channel, bool(payload.get("archived", channel.archived)), locked=payload.get("locked")
        )
        if before == (channel.archived, channel.locked) and renamed:
            announce_update(fake, channel)
    elif renamed or "auto_archive_duration" in payload:
        announce_update(fake, channel)
    return thread_payload(channel, member_of=fake.bot_user)


async def remove_channel(fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str) -> Any:
    channel = channel_of(fake, channel_id)
    if channel.is_dm:
        return channel_payload(channel)  # closing a DM: nothing changes for the fake
    needed = MANAGE_THREADS if channel.parent is not None else MANAGE_CHANNELS
    if not may(fake, fake.bot_user, channel, VIEW_CHANNEL | needed):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    delete_channel(fake, channel)
    return channel_payload(channel)


async def active_threads(fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str) -> Any:
    check_guild(fake, guild_id)
    threads = fake.guilds[int(guild_id)].active_threads
    members = [
        thread_payload(t, member_of=fake.bot_user)["member"]
        for t in threads
        if fake.bot_user.id in t.member_ids
    ]
    return {"threads": [thread_payload(t) for t in threads], "members": members}


def _thread(fake: FakeDiscord, channel_id: str) -> Any:
    thread = channel_of(fake, channel_id)
    if thread.parent is None:
        raise DiscordHTTPError(*WRONG_CHANNEL_TYPE)
    if thread.archived:
        raise DiscordHTTPError(*THREAD_ARCHIVED)
    return thread


async def add_thread_member(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, user_id: str
) -> Any:
    thread = _thread(fake, channel_id)
    member_id = fake.bot_user.id if user_id == "@me" else int(user_id) if user_id.isdigit() else 0
    if thread.guild is None or member_id not in thread.guild.members:
        raise DiscordHTTPError(404, 10013, "Unknown User")
    thread.member_ids.add(member_id)
    fake._touch()
    return no_content()


async def remove_thread_member(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, user_id: str
) -> Any:
    thread = _thread(fake, channel_id)
    member_id = fake.bot_user.id if user_id == "@me" else int(user_id) if user_id.isdigit() else 0
    if member_id != fake.bot_user.id and not may(fake, fake.bot_user, thread, MANAGE_THREADS):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    thread.member_ids.discard(member_id)
    fake._touch()
    return no_content()


ROUTES: list[Route] = [
    route("POST", "/channels/{channel_id}/messages/{message_id}/threads", thread_from_message),
    route("POST", "/channels/{channel_id}/threads", thread_without_message),
    route("PATCH", "/channels/{channel_id}", patch_channel),
    route("DELETE", "/channels/{channel_id}", remove_channel),
    route("GET", "/guilds/{guild_id}/threads/active", active_threads),
    route("PUT", "/channels/{channel_id}/thread-members/{user_id}", add_thread_member),
    route("DELETE", "/channels/{channel_id}/thread-members/{user_id}", remove_thread_member),
]
