"""The JSON shapes Discord sends for each object, as far as discord.py 2.7 reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.fakediscord.model import (
    FakeAttachment,
    FakeChannel,
    FakeEmoji,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)

if TYPE_CHECKING:
    from bot.fakediscord.interactions import FakeInteraction

HAS_THREAD = 1 << 5


def iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def user_payload(user: FakeUser) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
    }


def role_payload(role: FakeRole) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }


def member_payload(guild: FakeGuild, member: FakeMember, *, with_permissions: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user": user_payload(member.user),
        "nick": member.nick,
        "roles": [str(r.id) for r in member.roles],
        "joined_at": iso(member.joined_at),
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if with_permissions:
        data["permissions"] = str(guild.permissions_of(member.user))
    return data


def channel_payload(channel: FakeChannel) -> dict[str, Any]:
    if channel.is_dm:
        assert channel.recipient is not None
        return {
            "id": str(channel.id),
            "type": 1,
            "last_message_id": None,
            "recipients": [user_payload(channel.recipient)],
        }
    assert channel.guild is not None
    if channel.parent is not None:
        return thread_payload(channel)
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild.id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": [
            {
                "id": str(target),
                "type": 0 if target in channel.guild.roles else 1,
                "allow": str(allow),
                "deny": str(deny),
            }
            for target, (allow, deny) in channel.overwrites.items()
        ],
        "topic": channel.topic,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }


def thread_payload(thread: FakeChannel, *, member_of: FakeUser | None = None) -> dict[str, Any]:
    """A thread channel; ``member_of``: include that user's thread member object (the bot's, in events)."""
    assert thread.guild is not None and thread.parent is not None
    owner_id = thread.owner.id if thread.owner is not None else thread.guild.owner_id
    sent = [m for m in thread.messages if not m.ephemeral]
    data: dict[str, Any] = {
        "id": str(thread.id),
        "type": thread.type,
        "guild_id": str(thread.guild.id),
        "parent_id": str(thread.parent.id),
        "owner_id": str(owner_id),
        "name": thread.name,
        "last_message_id": str(sent[-1].id) if sent else None,
        "rate_limit_per_user": 0,
        "message_count": len([m for m in sent if not m.deleted]),
        "total_message_sent": len(sent),
        "member_count": min(len(thread.member_ids), 50),
        "flags": 0,
        "thread_metadata": {
            "archived": thread.archived,
            "auto_archive_duration": thread.auto_archive_duration,
            "archive_timestamp": iso(thread.archive_timestamp),
            "locked": thread.locked,
            "create_timestamp": iso(thread.created_at),
        },
    }
    if thread.type == 12:
        data["thread_metadata"]["invitable"] = True
    if member_of is not None and member_of.id in thread.member_ids:
        data["member"] = {
            "id": str(thread.id),
            "user_id": str(member_of.id),
            "join_timestamp": iso(thread.created_at),
            "flags": 0,
        }
    return data


def emoji_payload(emoji: FakeEmoji, owner: FakeUser) -> dict[str, Any]:
    return {
        "id": str(emoji.id),
        "name": emoji.name,
        "roles": [],
        "user": user_payload(owner),
        "require_colons": True,
        "managed": False,
        "animated": emoji.animated,
        "available": True,
    }


def guild_payload(guild: FakeGuild, *, full: bool = True) -> dict[str, Any]:
    """A guild as GUILD_CREATE carries it (``full``), or as REST GET /guilds/{id} returns it."""
    data: dict[str, Any] = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": guild.preferred_locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }
    if full:
        data.update(
            unavailable=False,
            large=False,
            member_count=len(guild.members),
            joined_at=iso(next(iter(guild.members.values())).joined_at) if guild.members else None,
            members=[member_payload(guild, m) for m in guild.members.values()],
            channels=[channel_payload(c) for c in guild.channels],
            threads=[thread_payload(t) for t in guild.active_threads],
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
    return data


def attachment_payload(attachment: FakeAttachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": attachment.size,
        "url": attachment.url,
        "proxy_url": attachment.url,
        "content_type": attachment.content_type,
    }
    if attachment.description is not None:
        data["description"] = attachment.description
    if attachment.content_type is None:
        del data["content_type"]
    return data


def message_payload(message: FakeMessage) -> dict[str, Any]:
    channel = message.channel
    data: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(channel.id),
        "type": message.type,
        "author": user_payload(message.author),
        "content": message.content,
        "timestamp": iso(message.created_at),
        "edited_timestamp": iso(message.edited_at),
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment_payload(a) for a in message.attachments],
        "embeds": message.embeds,
        "components": message.components,
        "pinned": False,
        "flags": message.flags
        | (HAS_THREAD if message.thread is not None and not message.thread.deleted else 0),
        "reactions": [],
    }
    if channel.guild is not None:
        data["guild_id"] = str(channel.guild.id)
        member = channel.guild.member(message.author)
        if member is not None:
            member_data = member_payload(channel.guild, member)
            del member_data["user"]
            data["member"] = member_data
    if message.webhook_id is not None:
        data["webhook_id"] = str(message.webhook_id)
        data["application_id"] = str(message.webhook_id)
    if message.interaction is not None:
        data["interaction_metadata"] = interaction_metadata(message.interaction)
    if message.nonce is not None:
        data["nonce"] = message.nonce
    if message.thread is not None and not message.thread.deleted:
        data["thread"] = thread_payload(message.thread)
    if message.reference is not None:
        data["message_reference"] = {
            "type": 0,
            "message_id": str(message.reference.id),
            "channel_id": str(message.reference.channel.id),
        }
        if message.reference.channel.guild is not None:
            data["message_reference"]["guild_id"] = str(message.reference.channel.guild.id)
    return data


def interaction_metadata(interaction: FakeInteraction) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": user_payload(interaction.user),
        "authorizing_integration_owners": {},
    }
    if interaction.command is not None:
        data["name"] = interaction.command
    if interaction.source_message is not None:
        data["interacted_message_id"] = str(interaction.source_message.id)
    return data
