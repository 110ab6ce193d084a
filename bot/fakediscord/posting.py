"""Creating, editing and deleting messages: shared by the channel routes, interaction callbacks and
followup webhooks, so every way of posting obeys the same limits and records the same way."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.fakediscord.http_api import DiscordHTTPError, RequestBody, UploadedFile
from bot.fakediscord.mentions import check_allowed_mentions
from bot.fakediscord.model import (
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeUser,
    iter_components,
    now,
)
from bot.fakediscord.validation import InvalidBody, check_message

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord
    from bot.fakediscord.interactions import FakeInteraction

# Flags a sender may set; Discord ignores the rest (4 suppress embeds, 64 ephemeral, 4096 silent, 32768 v2).
SETTABLE_FLAGS = 4 | EPHEMERAL | 4096 | (1 << 15)
MAX_NONCE = 25


def _refuse(error: InvalidBody) -> DiscordHTTPError:
    body = error.body
    return DiscordHTTPError(
        400, body["code"], body["message"], **{k: v for k, v in body.items() if k not in ("code", "message")}
    )


def _new_attachment(
    fake: FakeDiscord, channel: FakeChannel, upload: UploadedFile, description: str | None
) -> FakeAttachment:
    attachment_id = fake.mint.next()
    url = f"{fake.cdn_base}/attachments/{channel.id}/{attachment_id}/{upload.filename}"
    return FakeAttachment(attachment_id, upload.filename, upload.data, description, upload.content_type, url)


def attachments_from(
    fake: FakeDiscord,
    channel: FakeChannel,
    payload: dict[str, Any],
    files: list[UploadedFile],
    existing: list[FakeAttachment],
) -> list[FakeAttachment] | None:
    """The attachments after this request, or None when the request leaves them alone.

    ``payload["attachments"]`` lists what the message keeps: ``{"id": <existing id>}`` keeps an old file,
    ``{"id": <n>, "filename", "description"}`` adds ``files[n]``. Without that list, uploads are appended.
    """
    by_index = {f.index: f for f in files}
    if "attachments" not in payload:
        if not files:
            return None
        return existing + [_new_attachment(fake, channel, f, None) for f in files]
    kept_by_id = {a.id: a for a in existing}
    result: list[FakeAttachment] = []
    for entry in payload["attachments"] or []:
        key = int(entry["id"])
        if key in kept_by_id:
            result.append(kept_by_id[key])
        elif key in by_index:
            result.append(_new_attachment(fake, channel, by_index[key], entry.get("description")))
        else:
            raise DiscordHTTPError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "attachments": {
                        "_errors": [
                            {"code": "ATTACHMENT_NOT_FOUND", "message": f"Attachment {key} not found"}
                        ]
                    }
                },
            )
    return result


@dataclass(frozen=True)
class NonceReplay:
    """A POST whose enforced nonce matched an earlier message: Discord answered with that message."""

    nonce: str
    message: FakeMessage
    at: float


def check_nonce(payload: dict[str, Any]) -> None:
    nonce = payload.get("nonce")
    if nonce is not None and (not isinstance(nonce, str | int) or len(str(nonce)) > MAX_NONCE):
        raise DiscordHTTPError(
            400,
            50035,
            "Invalid Form Body",
            errors={
                "nonce": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be 25 or fewer."}]}
            },
        )


def earlier_by_nonce(fake: FakeDiscord, author: FakeUser, payload: dict[str, Any]) -> FakeMessage | None:
    """The message this author already created with this nonce within ``fake.nonce_window`` seconds, if
    the request enforces its nonce (Discord: "that message will be returned and no new message will be
    created"). Ruling: nonces are per author, across channels, as Discord's documentation words it."""
    nonce = payload.get("nonce")
    if nonce is None or not payload.get("enforce_nonce"):
        return None
    seen = fake.nonces.get((author.id, str(nonce)))
    now = time.monotonic()
    if seen is None or now - seen[0] > fake.nonce_window:
        return None
    fake.nonce_replays.append(NonceReplay(str(nonce), seen[1], now))
    return seen[1]


def check_component_emojis(fake: FakeDiscord, components: list[dict[str, Any]]) -> None:
    """Refuse components whose emoji names a custom emoji id that does not exist (Discord: 50035)."""
    for component in iter_components(components):
        emojis = [component.get("emoji")] + [o.get("emoji") for o in component.get("options") or []]
        for emoji in emojis:
            if (
                isinstance(emoji, dict)
                and emoji.get("id")
                and int(emoji["id"]) not in fake.application_emojis
            ):
                raise DiscordHTTPError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={
                        "components": {
                            "_errors": [{"code": "COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]
                        }
                    },
                )


def create_message(
    fake: FakeDiscord,
    channel: FakeChannel,
    author: FakeUser,
    body: RequestBody,
    *,
    interaction: FakeInteraction | None = None,
    message_type: int = 0,
    extra_flags: int = 0,
    allow_empty: bool = False,
) -> FakeMessage:
    """Validate and store a new message from ``body``; ephemeral ones are visible to the interaction's user."""
    payload = body.payload
    content = payload.get("content") or ""
    embeds = copy.deepcopy(payload.get("embeds") or [])
    components = copy.deepcopy(payload.get("components") or [])
    flags = (int(payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
    if interaction is None:
        flags &= ~EPHEMERAL
    attachments = attachments_from(fake, channel, payload, body.files, []) or []
    try:
        check_allowed_mentions(payload.get("allowed_mentions"))
        if not allow_empty:
            check_message(content, embeds, components, len(attachments))
    except InvalidBody as error:
        raise _refuse(error) from None
    check_component_emojis(fake, components)
    reference = payload.get("message_reference") or {}
    referenced = fake.messages.get(int(reference["message_id"])) if reference.get("message_id") else None
    message = FakeMessage(
        id=fake.mint.next(),
        channel=channel,
        author=author,
        content=content,
        embeds=embeds,
        components=components,
        attachments=attachments,
        flags=flags,
        type=message_type,
        interaction=interaction,
        webhook_id=fake.application_id if interaction is not None else None,
        ephemeral_to=interaction.user if interaction is not None and flags & EPHEMERAL else None,
        allowed_mentions=copy.deepcopy(payload.get("allowed_mentions")),
        nonce=str(payload["nonce"]) if payload.get("nonce") is not None else None,
        reference=referenced,
    )
    channel.messages.append(message)
    fake.messages[message.id] = message
    if message.ephemeral_to is not None:
        fake.ephemerals.setdefault(message.ephemeral_to.id, []).append(message)
    if message.nonce is not None and payload.get("enforce_nonce"):
        fake.nonces[(author.id, message.nonce)] = (time.monotonic(), message)
    fake.conversation.made(message)
    if not message.ephemeral:
        fake._announce_message("MESSAGE_CREATE", message)
    fake._touch()
    return message


def edit_message(fake: FakeDiscord, message: FakeMessage, body: RequestBody) -> FakeMessage:
    """Apply an edit: fields present replace, absent ones stay; the old version goes to ``message.edits``.

    Editing a deferred "thinking" placeholder fills it in: that is its first real version, not an edit.
    """
    payload = body.payload
    content = message.content
    if "content" in payload:
        content = payload["content"] or ""
    embeds = copy.deepcopy(payload["embeds"] or []) if "embeds" in payload else message.embeds
    components = copy.deepcopy(payload["components"] or []) if "components" in payload else message.components
    attachments = attachments_from(fake, message.channel, payload, body.files, message.attachments)
    if attachments is None:
        attachments = message.attachments
    try:
        check_allowed_mentions(payload.get("allowed_mentions"))
        check_message(content, embeds, components, len(attachments))
    except InvalidBody as error:
        raise _refuse(error) from None
    check_component_emojis(fake, components)
    fake.conversation.changed(
        message, files=len(body.files or []), was_loading=message.loading, controls=bool(components)
    )
    if not message.loading:
        message.edits.append(message.snapshot())
        message.edited_at = now()
    message.content, message.embeds, message.components, message.attachments = (
        content,
        embeds,
        components,
        attachments,
    )
    if "flags" in payload and payload["flags"] is not None:
        keep = message.flags & (EPHEMERAL | LOADING)
        message.flags = (int(payload["flags"]) & SETTABLE_FLAGS & ~EPHEMERAL) | keep
    message.flags &= ~LOADING
    if payload.get("allowed_mentions") is not None:
        message.allowed_mentions = copy.deepcopy(payload["allowed_mentions"])
    if not message.ephemeral:
        fake._announce_message("MESSAGE_UPDATE", message)
    fake._touch()
    return message


def delete_message(fake: FakeDiscord, message: FakeMessage) -> None:
    message.deleted = True
    if not message.ephemeral:
        data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
        if message.channel.guild is not None:
            data["guild_id"] = str(message.channel.guild.id)
        fake._announce_message("MESSAGE_DELETE", message, data=data)
    fake._touch()
