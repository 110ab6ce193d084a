"""Application emojis, as Discord's API has them: ``GET/POST /applications/{id}/emojis`` (the list is
``{"items": [...]}``), ``GET/PATCH/DELETE /applications/{id}/emojis/{emoji_id}``.

Discord's rules kept: a name is 2 to 32 letters, digits or underscores and unique within the application
(a second upload with a taken name is refused, 50035 ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``); the image
is a ``data:image/...;base64,`` URI of at most 256 KiB; at most 2,000 emojis (30008 beyond). A message whose
components use a custom emoji id the fake does not know is refused (50035, invalid emoji), as Discord does
(:func:`posting.check_component_emojis`).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.fakediscord.http_api import DiscordHTTPError, RequestBody, Route, route, unknown
from bot.fakediscord.model import FakeEmoji
from bot.fakediscord.payloads import emoji_payload
from bot.fakediscord.rest_routes import check_app, no_content
from bot.fakediscord.threads import form_error

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
IMAGE = re.compile(r"data:(image/(?:png|jpeg|gif|webp));base64,(.*)", re.DOTALL)
MAX_IMAGE = 256 * 1024
MAX_EMOJIS = 2000


def check_name(fake: FakeDiscord, name: Any, *, renaming: FakeEmoji | None = None) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise form_error("name", "STRING_TYPE_REGEX", "String value did not match validation regex.")
    taken = any(e.name == name and e is not renaming for e in fake.application_emojis.values())
    if taken:
        raise form_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")
    return name


def decode_image(data_uri: Any) -> tuple[bytes, str]:
    match = IMAGE.fullmatch(data_uri) if isinstance(data_uri, str) else None
    if match is None:
        raise form_error("image", "IMAGE_INVALID", "Invalid image data")
    try:
        image = base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise form_error("image", "IMAGE_INVALID", "Invalid image data") from None
    if len(image) > MAX_IMAGE:
        raise form_error("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    return image, match.group(1)


def add_emoji(fake: FakeDiscord, name: str, image: bytes, content_type: str) -> FakeEmoji:
    """Store a new application emoji (name already checked)."""
    if len(fake.application_emojis) >= MAX_EMOJIS:
        raise DiscordHTTPError(400, 30008, "Maximum number of emojis reached (2000)")
    emoji = FakeEmoji(fake.mint.next(), name, image, content_type, animated=content_type == "image/gif")
    fake.application_emojis[emoji.id] = emoji
    fake._touch()
    return emoji


def _emoji(fake: FakeDiscord, app_id: str, emoji_id: str) -> FakeEmoji:
    check_app(fake, app_id)
    emoji = fake.application_emojis.get(int(emoji_id)) if emoji_id.isdigit() else None
    if emoji is None:
        raise unknown("Emoji", 10014)
    return emoji


async def list_emojis(fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str) -> Any:
    check_app(fake, app_id)
    return {"items": [emoji_payload(e, fake.bot_user) for e in fake.application_emojis.values()]}


async def get_emoji(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, emoji_id: str
) -> Any:
    return emoji_payload(_emoji(fake, app_id, emoji_id), fake.bot_user)


async def create_emoji(fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str) -> Any:
    check_app(fake, app_id)
    name = check_name(fake, body.payload.get("name"))
    image, content_type = decode_image(body.payload.get("image"))
    return emoji_payload(add_emoji(fake, name, image, content_type), fake.bot_user)


async def rename_emoji(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, emoji_id: str
) -> Any:
    emoji = _emoji(fake, app_id, emoji_id)
    emoji.name = check_name(fake, body.payload.get("name"), renaming=emoji)
    fake._touch()
    return emoji_payload(emoji, fake.bot_user)


async def delete_emoji(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, emoji_id: str
) -> Any:
    emoji = _emoji(fake, app_id, emoji_id)
    del fake.application_emojis[emoji.id]
    fake._touch()
    return no_content()


ROUTES: list[Route] = [
    route("GET", "/applications/{app_id}/emojis", list_emojis),
    route("POST", "/applications/{app_id}/emojis", create_emoji),
    route("GET", "/applications/{app_id}/emojis/{emoji_id}", get_emoji),
    route("PATCH", "/applications/{app_id}/emojis/{emoji_id}", rename_emoji),
    route("DELETE", "/applications/{app_id}/emojis/{emoji_id}", delete_emoji),
]
