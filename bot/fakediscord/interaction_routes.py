"""Where the bot answers interactions: the callback (within the deadline, once) and the followup webhook
(only after the callback; the first followup after a deferral fills in the "thinking" message, as on
Discord)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.fakediscord.http_api import DiscordHTTPError, RequestBody, Route, route, unknown
from bot.fakediscord.interactions import (
    APPLICATION_COMMAND,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    FakeInteraction,
    InteractionCallback,
)
from bot.fakediscord.model import EPHEMERAL, LOADING, FakeMessage
from bot.fakediscord.payloads import message_payload
from bot.fakediscord.posting import create_message, delete_message, edit_message

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

CHANNEL_MESSAGE = 4
AUTOCOMPLETE_RESULT = 8


async def callback(
    fake: FakeDiscord, request: web.Request, body: RequestBody, interaction_id: str, token: str
) -> Any:
    payload = body.payload
    kind = int(payload.get("type", 0))
    data = payload.get("data") or {}
    interaction = fake.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
    if interaction is None or interaction.token != token:
        raise DiscordHTTPError(404, 10062, "Unknown interaction")
    now = asyncio.get_running_loop().time()
    try:
        _respond(fake, interaction, kind, RequestBody(json=data, files=body.files), now)
    except DiscordHTTPError as error:
        interaction.callbacks.append(InteractionCallback(kind, data, now, error.status, error.body["code"]))
        fake._touch()
        raise
    with_response = request.query.get("with_response") in ("1", "true", "True")
    interaction.callbacks.append(InteractionCallback(kind, data, now, 200 if with_response else 204))
    fake._touch()
    if not with_response:
        return web.Response(status=204)
    return _callback_answer(interaction, kind)


def _respond(
    fake: FakeDiscord, interaction: FakeInteraction, kind: int, body: RequestBody, now: float
) -> None:
    """Apply one initial response, or raise the error Discord gives for it."""
    data = body.payload
    if interaction.acknowledged:
        raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
    if now > interaction.deadline:
        if interaction not in fake.late_interactions:
            fake.late_interactions.append(interaction)
        raise DiscordHTTPError(404, 10062, "Unknown interaction")
    source = interaction.source_message
    from_component = interaction.type == COMPONENT or (
        interaction.type == MODAL_SUBMIT and source is not None
    )
    message_type = 20 if interaction.type == APPLICATION_COMMAND else 0
    if kind == CHANNEL_MESSAGE:
        interaction.original = create_message(
            fake, interaction.channel, fake.bot_user, body, interaction=interaction, message_type=message_type
        )
    elif kind == DEFERRED_MESSAGE:
        flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
        interaction.original = create_message(
            fake,
            interaction.channel,
            fake.bot_user,
            RequestBody(json={}),
            interaction=interaction,
            message_type=message_type,
            extra_flags=flags,
            allow_empty=True,
        )
    elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and from_component and source is not None:
        if kind == UPDATE_MESSAGE:
            edit_message(fake, source, body)
        interaction.original = source
    elif kind == MODAL and interaction.type != MODAL_SUBMIT:
        if not data.get("custom_id") or not data.get("title") or not data.get("components"):
            raise DiscordHTTPError(400, 50035, "Invalid Form Body")
        interaction.modal = data
    elif kind == AUTOCOMPLETE_RESULT:
        interaction.autocomplete_choices = list(data.get("choices") or [])
    else:
        raise DiscordHTTPError(400, 50035, f"Interaction callback type {kind} is not valid here")


def _callback_answer(interaction: FakeInteraction, kind: int) -> dict[str, Any]:
    """The ``with_response`` body: what the response created (discord.py keys views on its message id)."""
    original = interaction.original
    answer: dict[str, Any] = {"interaction": {"id": str(interaction.id), "type": interaction.type}}
    if original is not None:
        answer["interaction"].update(
            response_message_id=str(original.id),
            response_message_loading=original.loading,
            response_message_ephemeral=original.ephemeral,
        )
    if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE, UPDATE_MESSAGE) and original is not None:
        answer["resource"] = {"type": kind, "message": message_payload(original)}
    elif kind != DEFERRED_UPDATE:
        answer["resource"] = {"type": kind}
    return answer


# ---- followup webhook -----------------------------------------------------------------------------------
def _interaction_for(fake: FakeDiscord, app_id: str, token: str) -> FakeInteraction:
    interaction = fake.interaction_by_token(token)
    if app_id != str(fake.application_id) or interaction is None or not interaction.acknowledged:
        raise unknown("Webhook", 10015)
    return interaction


def _webhook_message(interaction: FakeInteraction, message_id: str) -> FakeMessage:
    if message_id == "@original":
        found = interaction.original
    else:
        candidates = [interaction.original, *interaction.followups]
        found = next((m for m in candidates if m is not None and str(m.id) == message_id), None)
    if found is None or found.deleted:
        raise unknown("Message", 10008)
    return found


async def post_followup(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, token: str
) -> Any:
    interaction = _interaction_for(fake, app_id, token)
    original = interaction.original
    # As Discord: once the deferred placeholder is deleted, a followup is a new message (and may be ephemeral).
    placeholder = original if original is not None and original.loading and not original.deleted else None
    if interaction.response_type == DEFERRED_MESSAGE and placeholder is not None:
        message = edit_message(fake, placeholder, body)
    else:
        message = create_message(fake, interaction.channel, fake.bot_user, body, interaction=interaction)
        interaction.followups.append(message)
    fake._touch()
    if request.query.get("wait") in ("1", "true", "True"):
        return message_payload(message)
    return web.Response(status=204)


async def get_webhook_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, token: str, message_id: str
) -> Any:
    return message_payload(_webhook_message(_interaction_for(fake, app_id, token), message_id))


async def patch_webhook_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, token: str, message_id: str
) -> Any:
    interaction = _interaction_for(fake, app_id, token)
    message = _webhook_message(interaction, message_id)
    edit_message(fake, message, body)
    interaction.webhook_edits += 1
    fake._touch()
    return message_payload(message)


async def delete_webhook_message(
    fake: FakeDiscord, request: web.Request, body: RequestBody, app_id: str, token: str, message_id: str
) -> Any:
    message = _webhook_message(_interaction_for(fake, app_id, token), message_id)
    delete_message(fake, message)
    return web.Response(status=204)


ROUTES: list[Route] = [
    route("POST", "/interactions/{interaction_id}/{token}/callback", callback, needs_auth=False),
    route("POST", "/webhooks/{app_id}/{token}", post_followup, needs_auth=False),
    route("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", get_webhook_message, needs_auth=False),
    route(
        "PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", patch_webhook_message, needs_auth=False
    ),
    route(
        "DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", delete_webhook_message, needs_auth=False
    ),
]
