"""REST routes the bot calls with its token: itself, the gateway, its application and commands, guilds,
channels, DMs and messages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.fakediscord.http_api import DiscordHTTPError, RequestBody, Route, route, unknown
from bot.fakediscord.model import FakeChannel, FakeMessage
from bot.fakediscord.payloads import (
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from bot.fakediscord.posting import (
    check_nonce,
    create_message,
    delete_message,
    earlier_by_nonce,
    edit_message,
)
from bot.fakediscord.threads import before_posting

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38

MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
MISSING_ACCESS = (403, 50001, "Missing Access")


def no_content() -> web.Response:
    return web.Response(status=204)


# ---- the bot, the gateway, the application ------------------------------------------------------------
async def get_me(fake: FakeDiscord, request: web.Request, body: RequestBody) -> Any:
    return {**user_payload(fake.bot_user), "verified": True, "mfa_enabled": False, "email": None}


async def get_user(fake: FakeDiscord, request: web.Request, body: RequestBody, user_id: str) -> Any:
    user = fake.users.get(int(user_id)) if user_id.isdigit() else None
    if user is None:
        raise unknown("User", 10013)
    return user_payload(user)


async def get_gateway(fake: FakeDiscord, request: web.Request, body: RequestBody) -> Any:
    return {"url": fake.gateway_url}


async def get_gateway_bot(fake: FakeDiscord, request: web.Request, body: RequestBody) -> Any:
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    return {"url": fake.gateway_url, "shards": fake.shard_count, "session_start_limit": limit}


async def get_application(fake: FakeDiscord, request: web.Request, body: RequestBody) -> Any:
    return {
        "id": str(fake.application_id),
        "name": fake.bot_user.name,
        "icon": None,
        "description": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(fake.owner_user),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "rpc_origins": [],
        "bot": user_payload(fake.bot_user),
    }


# ---- application commands -----------------------------------------------------------------------------
def check_app(fake: FakeDiscord, app_id: str) -> None:
    if app_id != str(fake.application_id):
        raise unknown("Application", 10002)


def check_guild(fake: FakeDiscord, guild_id: str) -> None:
    if not guild_id.isdigit() or int(guild_id) not in fake.guilds:
        raise unknown("Guild", 10004)


def _stored_commands(fake: FakeDiscord, payload: Any, guild_id: str | None) -> list[dict[str, Any]]:
    if not isinstance(payload, list):
        raise DiscordHTTPError(400, 50035, "Invalid Form Body")
    stored = []
    for command in payload:
        entry = {
            "id": str(fake.mint.next()),
            "application_id": str(fake.application_id),
            "version": str(fake.mint.next()),
            "type": 1,
            "description": "",
            "default_member_permissions": None,
            "nsfw": False,
            **command,
        }
        if guild_id is not None:
            entry["guild_id"] = guild_id
        stored.append(entry)
    return stored


async def put_global_commands(fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str) -> Any:
    check_app(fake, app_id)
    fake.global_commands = _stored_commands(fake, body.json, None)
    return fake.global_commands


async def get_global_commands(fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str) -> Any:
    check_app(fake, app_id)
    return fake.global_commands


async def post_global_command(fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str) -> Any:
    check_app(fake, app_id)
    (command,) = _stored_commands(fake, [body.payload], None)
    fake.global_commands = [c for c in fake.global_commands if c["name"] != command["name"]] + [command]
    return command


async def put_guild_commands(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, guild_id: str
) -> Any:
    check_app(fake, app_id)
    check_guild(fake, guild_id)
    fake.guild_commands[int(guild_id)] = _stored_commands(fake, body.json, guild_id)
    return fake.guild_commands[int(guild_id)]


async def get_guild_commands(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, guild_id: str
) -> Any:
    check_app(fake, app_id)
    check_guild(fake, guild_id)
    return fake.guild_commands.get(int(guild_id), [])


# ---- guilds -------------------------------------------------------------------------------------------
async def get_guild(fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str) -> Any:
    check_guild(fake, guild_id)
    return guild_payload(fake.guilds[int(guild_id)], full=False)


async def get_guild_channels(
    fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str
) -> Any:
    check_guild(fake, guild_id)
    return [channel_payload(c) for c in fake.guilds[int(guild_id)].channels]


async def get_guild_roles(fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str) -> Any:
    check_guild(fake, guild_id)
    return [role_payload(r) for r in fake.guilds[int(guild_id)].roles.values()]


async def get_member(
    fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str, user_id: str
) -> Any:
    check_guild(fake, guild_id)
    guild = fake.guilds[int(guild_id)]
    member = guild.members.get(int(user_id)) if user_id.isdigit() else None
    if member is None:
        raise unknown("Member", 10007)
    return member_payload(guild, member)


MANAGE_ROLES = 1 << 28


async def member_role(
    fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str, user_id: str, role_id: str
) -> Any:
    """Give (PUT) or take (DELETE) a member's role, Discord's way: the bot needs Manage Roles and the role
    below its own highest role (50013 otherwise); an unknown member or role is 10007 or 10011."""
    check_guild(fake, guild_id)
    guild = fake.guilds[int(guild_id)]
    member = guild.members.get(int(user_id)) if user_id.isdigit() else None
    role = guild.roles.get(int(role_id)) if role_id.isdigit() else None
    if member is None:
        raise unknown("Member", 10007)
    if role is None:
        raise unknown("Role", 10011)
    bot = guild.members[fake.bot_user.id]
    top = max((r.position for r in bot.roles), default=0)
    if not guild.permissions_of(fake.bot_user) & MANAGE_ROLES or role.position >= top or role.managed:
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    if request.method == "PUT" and role not in member.roles:
        member.roles.append(role)
    elif request.method == "DELETE" and role in member.roles:
        member.roles.remove(role)
    return no_content()


async def get_members(fake: FakeDiscord, request: web.Request, body: RequestBody, guild_id: str) -> Any:
    check_guild(fake, guild_id)
    guild = fake.guilds[int(guild_id)]
    limit = int(request.query.get("limit", 1))
    return [member_payload(guild, m) for m in list(guild.members.values())[:limit]]


# ---- channels and messages ----------------------------------------------------------------------------
def channel_of(fake: FakeDiscord, channel_id: str) -> FakeChannel:
    channel = fake.channels.get(int(channel_id)) if channel_id.isdigit() else None
    if channel is None or channel.deleted:
        raise unknown("Channel", 10003)
    return channel


def _bot_may(fake: FakeDiscord, channel: FakeChannel, permission: int) -> bool:
    """Whether the bot holds every bit of ``permission`` in ``channel`` (its overwrites applied)."""
    if channel.guild is None:
        return True
    granted = channel.guild.permissions_in(fake.bot_user, channel)
    return granted & permission == permission


def _bot_sees(fake: FakeDiscord, channel: FakeChannel) -> None:
    """Discord answers 403 Missing Access (50001), not Missing Permissions, where the bot cannot see."""
    if not _bot_may(fake, channel, VIEW_CHANNEL):
        raise DiscordHTTPError(*MISSING_ACCESS)


def _drop_embeds_unless_allowed(fake: FakeDiscord, channel: FakeChannel, body: RequestBody) -> None:
    """Discord drops a bot's embeds silently without Embed Links (a message left empty is then refused
    with 50006, Cannot send an empty message)."""
    if body.payload.get("embeds") and not _bot_may(fake, channel, EMBED_LINKS):
        body.payload["embeds"] = []


def message_in(channel: FakeChannel, message_id: str) -> FakeMessage:
    for message in channel.messages:
        if str(message.id) == message_id and not message.deleted and not message.ephemeral:
            return message
    raise unknown("Message", 10008)


async def get_channel(fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str) -> Any:
    channel = channel_of(fake, channel_id)
    _bot_sees(fake, channel)
    return channel_payload(channel)


async def open_dm(fake: FakeDiscord, request: web.Request, body: RequestBody) -> Any:
    recipient = str(body.payload.get("recipient_id", ""))
    user = fake.users.get(int(recipient)) if recipient.isdigit() else None
    if user is None:
        raise unknown("User", 10013)
    return channel_payload(fake.dm_channel(user))


async def post_message(fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str) -> Any:
    channel = channel_of(fake, channel_id)
    if channel.is_dm:
        if channel.recipient is None or not channel.recipient.dms_open:
            raise DiscordHTTPError(403, 50007, "Cannot send messages to this user")
    else:
        _bot_sees(fake, channel)
        if not _bot_may(fake, channel, SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
            raise DiscordHTTPError(*MISSING_PERMISSIONS)
    if body.files and not _bot_may(fake, channel, ATTACH_FILES):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    _drop_embeds_unless_allowed(fake, channel, body)
    check_nonce(body.payload)
    earlier = earlier_by_nonce(fake, fake.bot_user, body.payload)
    if earlier is not None:
        # A retry of a post that already happened: nothing new, so nothing counts against the rate limit.
        return message_payload(earlier)
    fake._check_rate("create", channel)
    if channel.is_thread:
        before_posting(fake, fake.bot_user, channel)
    reply = "message_reference" in body.payload
    message = create_message(fake, channel, fake.bot_user, body, message_type=19 if reply else 0)
    return message_payload(message)


async def get_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, message_id: str
) -> Any:
    return message_payload(message_in(channel_of(fake, channel_id), message_id))


async def get_messages(fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str) -> Any:
    channel = channel_of(fake, channel_id)
    limit = int(request.query.get("limit", 50))
    before = int(request.query.get("before", 0)) or None
    after = int(request.query.get("after", 0)) or None
    found = [
        m
        for m in channel.messages
        if not m.deleted
        and not m.ephemeral
        and (before is None or m.id < before)
        and (after is None or m.id > after)
    ]
    newest_first = sorted(found, key=lambda m: m.id, reverse=True)
    if after is not None and before is None:
        newest_first = newest_first[-limit:]
    return [message_payload(m) for m in newest_first[:limit]]


async def patch_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, message_id: str
) -> Any:
    channel = channel_of(fake, channel_id)
    message = message_in(channel, message_id)
    if message.author.id != fake.bot_user.id:
        raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
    # Ruling (Discord's documentation is silent): editing one's own message needs only to see the
    # channel, but a new file needs Attach Files, and embeds are dropped without Embed Links.
    _bot_sees(fake, channel)
    if body.files and not _bot_may(fake, channel, ATTACH_FILES):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    _drop_embeds_unless_allowed(fake, channel, body)
    fake._check_rate("edit", channel)
    return message_payload(edit_message(fake, message, body))


async def delete_channel_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, message_id: str
) -> Any:
    channel = channel_of(fake, channel_id)
    message = message_in(channel, message_id)
    if message.author.id != fake.bot_user.id and not _bot_may(fake, channel, MANAGE_MESSAGES):
        raise DiscordHTTPError(*MISSING_PERMISSIONS)
    delete_message(fake, message)
    return no_content()


async def add_reaction(
    fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str, message_id: str, emoji: str
) -> Any:
    message = message_in(channel_of(fake, channel_id), message_id)
    message.reactions.append(emoji)
    fake._touch()
    return no_content()


async def typing(fake: FakeDiscord, request: web.Request, body: RequestBody, channel_id: str) -> Any:
    channel_of(fake, channel_id)
    return no_content()


ROUTES: list[Route] = [
    route("GET", "/users/@me", get_me),
    route("GET", "/users/{user_id}", get_user),
    route("POST", "/users/@me/channels", open_dm),
    route("GET", "/gateway", get_gateway, needs_auth=False),
    route("GET", "/gateway/bot", get_gateway_bot),
    route("GET", "/oauth2/applications/@me", get_application),
    route("GET", "/applications/{app_id}/commands", get_global_commands),
    route("PUT", "/applications/{app_id}/commands", put_global_commands),
    route("POST", "/applications/{app_id}/commands", post_global_command),
    route("GET", "/applications/{app_id}/guilds/{guild_id}/commands", get_guild_commands),
    route("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", put_guild_commands),
    route("GET", "/guilds/{guild_id}", get_guild),
    route("GET", "/guilds/{guild_id}/channels", get_guild_channels),
    route("GET", "/guilds/{guild_id}/roles", get_guild_roles),
    route("GET", "/guilds/{guild_id}/members", get_members),
    route("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
    route("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", member_role),
    route("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", member_role),
    route("GET", "/channels/{channel_id}", get_channel),
    route("GET", "/channels/{channel_id}/messages", get_messages),
    route("POST", "/channels/{channel_id}/messages", post_message),
    route("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    route("PATCH", "/channels/{channel_id}/messages/{message_id}", patch_message),
    route("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_channel_message),
    route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", add_reaction),
    route("POST", "/channels/{channel_id}/typing", typing),
]
