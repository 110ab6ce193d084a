"""Interactions a test user starts (slash commands, clicks, selects, modal submits): the record of each one
with everything the bot answered, and the INTERACTION_CREATE payloads discord.py expects.

Anything a real user could not do raises :class:`ImpossibleAction` in the test, before the bot hears of
it: invoking an unregistered or hidden command, a missing required option, a value outside the declared
choices or range, clicking a disabled or absent button, picking a value the select does not offer.
"""

# ruff: noqa: ASYNC109 -- the driver's waits take a plain timeout= (the API tests read), not asyncio.timeout.

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.fakediscord.model import (
    ADMINISTRATOR,
    BUTTON,
    EPHEMERAL,
    SELECT_TYPES,
    FakeChannel,
    FakeMessage,
    FakeRole,
    FakeUser,
    iter_components,
)
from bot.fakediscord.payloads import (
    channel_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from bot.fakediscord.snowflakes import random_token
from bot.fakediscord.text import text_of

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 5, 6, 7, 9


class ImpossibleAction(Exception):
    """The test asked a user to do something Discord's client would not let them do."""


@dataclass(frozen=True)
class InteractionCallback:
    """One POST to /interactions/{id}/{token}/callback: accepted (``error_code`` None) or refused."""

    type: int
    data: dict[str, Any]
    at: float
    status: int
    error_code: int | None = None

    @property
    def accepted(self) -> bool:
        return self.error_code is None

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)


class FakeInteraction:
    """Something a user did that the bot must answer within the fake's ``response_deadline``.

    ``original`` is the message the interaction's "original response" is: the reply it created (types 4 and
    5), or for a component, the clicked message once the bot answered with an update (6/7).
    ``followups`` are later webhook messages. ``callbacks`` has every callback attempt, refused ones too.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        type: int,
        user: FakeUser,
        channel: FakeChannel,
        *,
        command: str | None = None,
        options: dict[str, Any] | None = None,
        custom_id: str | None = None,
        values: list[str] | None = None,
        source_message: FakeMessage | None = None,
    ) -> None:
        self._fake = fake
        self.id = fake.mint.next()
        self.token = random_token(fake.mint, "interaction")
        self.type = type
        self.user = user
        self.channel = channel
        self.guild = channel.guild
        self.command = command
        self.options = options or {}
        self.custom_id = custom_id
        self.values = values or []
        self.source_message = source_message
        self.created_at = asyncio.get_running_loop().time()
        self.deadline = self.created_at + fake.response_deadline
        self.callbacks: list[InteractionCallback] = []
        self.original: FakeMessage | None = None
        self.followups: list[FakeMessage] = []
        self.modal: dict[str, Any] | None = None
        self.autocomplete_choices: list[dict[str, Any]] | None = None
        self.webhook_edits = 0
        self._source_versions = len(source_message.edits) if source_message is not None else 0

    def __repr__(self) -> str:
        what = f"/{self.command}" if self.command else f"{self.custom_id!r}"
        return f"<FakeInteraction {what} by {self.user.name} response={self.response_type}>"

    # ---- state ----------------------------------------------------------------------------------------
    @property
    def response(self) -> InteractionCallback | None:
        """The accepted initial response, if any."""
        return next((c for c in self.callbacks if c.accepted), None)

    @property
    def response_type(self) -> int | None:
        accepted = self.response
        return accepted.type if accepted else None

    @property
    def acknowledged(self) -> bool:
        return self.response is not None

    @property
    def late(self) -> bool:
        """The bot tried to answer after the deadline (and got 10062 Unknown interaction)."""
        return any(c.error_code == 10062 for c in self.callbacks)

    @property
    def ephemeral(self) -> bool:
        """Whether the answer is only visible to the user."""
        return self.original is not None and self.original.ephemeral

    @property
    def messages(self) -> list[FakeMessage]:
        """The reply this interaction created (if it did) and its followups, deleted ones left out."""
        created = [self.original] if self.original is not None and self.original.interaction is self else []
        return [m for m in created + self.followups if not m.deleted]

    @property
    def text(self) -> str:
        """Everything the user can read in this interaction's messages (see :func:`text_of`)."""
        return text_of(self.messages)

    # ---- waiting --------------------------------------------------------------------------------------
    async def wait_response(self, timeout: float = 5.0) -> InteractionCallback:
        """The first callback attempt (accepted or not)."""
        await self._fake.wait_for(
            lambda: bool(self.callbacks), timeout=timeout, what=f"a response to {self!r}"
        )
        return self.callbacks[0]

    async def reply(self, timeout: float = 5.0) -> FakeMessage:
        """The message holding the bot's answer once it has content: the reply (after a deferral, once
        edited or followed up), or for a component update, the clicked message once updated."""

        def answered() -> FakeMessage | None:
            kind = self.response_type
            if kind in (4, DEFERRED_MESSAGE) and self.original is not None and not self.original.loading:
                return self.original
            if kind == UPDATE_MESSAGE:
                return self.original
            if kind == DEFERRED_UPDATE:
                # Answered once the clicked message was edited (by any route) or a followup was sent.
                source = self.source_message
                if source is not None and (self.webhook_edits or len(source.edits) > self._source_versions):
                    return source
                return self.followups[0] if self.followups else None
            return None

        return await self._fake.wait_for(answered, timeout=timeout, what=f"a reply to {self!r}")

    async def followup(self, number: int = 1, timeout: float = 5.0) -> FakeMessage:
        """The ``number``-th followup message (1-based), waiting for it."""
        await self._fake.wait_for(
            lambda: len(self.followups) >= number, timeout=timeout, what=f"followup #{number} of {self!r}"
        )
        return self.followups[number - 1]


# ---- payloads -----------------------------------------------------------------------------------------
def interaction_payload(
    fake: FakeDiscord, interaction: FakeInteraction, data: dict[str, Any]
) -> dict[str, Any]:
    channel, user, guild = interaction.channel, interaction.user, interaction.guild
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(fake.application_id),
        "type": interaction.type,
        "data": data,
        "token": interaction.token,
        "version": 1,
        "locale": user.locale,
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "channel_id": str(channel.id),
        "channel": channel_payload(channel),
    }
    if guild is not None:
        member = guild.member(user)
        if member is None:
            raise ImpossibleAction(f"{user.name} is not a member of {guild.name}")
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            guild_locale=guild.preferred_locale,
            member=member_payload(guild, member, with_permissions=True),
            app_permissions=str(guild.permissions_in(fake.bot_user, channel)),
            context=0,
            authorizing_integration_owners={"0": str(guild.id)},
        )
        payload["channel"]["permissions"] = str(guild.permissions_in(user, channel))
    else:
        payload.update(
            user=user_payload(user),
            app_permissions=str(fake.dm_app_permissions),
            context=1,
            authorizing_integration_owners={"0": "0"},
        )
    if interaction.source_message is not None:
        payload["message"] = message_payload(interaction.source_message)
    return payload


def find_command(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, path: list[str]) -> dict[str, Any]:
    """The registered command ``path[0]`` as this user sees it in this channel, with Discord's checks."""
    guild = channel.guild
    candidates = list(fake.guild_commands.get(guild.id, [])) if guild is not None else []
    candidates += fake.global_commands
    command = next((c for c in candidates if c["name"] == path[0] and c.get("type", 1) == 1), None)
    if command is None:
        names = sorted({c["name"] for c in candidates})
        raise ImpossibleAction(f"/{path[0]} is not registered here (registered: {names}); did the bot sync?")
    if guild is None:
        contexts = command.get("contexts")
        if (
            command.get("guild_id")
            or command.get("dm_permission") is False
            or (contexts is not None and 1 not in contexts)
        ):
            raise ImpossibleAction(f"/{path[0]} cannot be used in DMs")
    else:
        required = command.get("default_member_permissions")
        granted = guild.permissions_of(user)
        if required is not None and not granted & ADMINISTRATOR and granted & int(required) != int(required):
            raise ImpossibleAction(f"{user.name} lacks the permissions to see /{path[0]} (needs {required})")
    return command


def command_data(
    command: dict[str, Any],
    path: list[str],
    values: dict[str, Any],
    guild: Any,
    *,
    check_required: bool = True,
) -> dict[str, Any]:
    """``data`` of a slash-command interaction: subcommand nesting, typed option values, resolved objects."""
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    level = data
    schema = command.get("options") or []
    for word in path[1:]:
        sub = next(
            (o for o in schema if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None
        )
        if sub is None:
            have = [o["name"] for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise ImpossibleAction(f"/{' '.join(path)}: no subcommand {word!r} (have {have})")
        entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
        level.setdefault("options", []).append(entry)
        level, schema = entry, sub.get("options") or []
    nested = [o["name"] for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if nested:
        raise ImpossibleAction(f"/{' '.join(path)} needs a subcommand: one of {nested}")
    resolved: dict[str, dict[str, Any]] = {}
    given: list[dict[str, Any]] = []
    for key, value in values.items():
        option = next((o for o in schema if o["name"] in (key, key.replace("_", "-"))), None)
        if option is None:
            raise ImpossibleAction(
                f"/{' '.join(path)} has no option {key!r} (has {[o['name'] for o in schema]})"
            )
        given.append(
            {
                "name": option["name"],
                "type": option["type"],
                "value": _option_value(option, value, resolved, guild),
            }
        )
    missing = [o["name"] for o in schema if o.get("required") and o["name"] not in {g["name"] for g in given}]
    if missing and check_required:
        raise ImpossibleAction(f"/{' '.join(path)} is missing required options {missing}")
    level.setdefault("options", []).extend(given)
    if resolved:
        data["resolved"] = resolved
    return data


def autocomplete_data(
    command: dict[str, Any], path: list[str], focused: str, typed: str, values: dict[str, Any], guild: Any
) -> dict[str, Any]:
    """``data`` of an autocomplete request: the other options as given, ``focused`` as partial text."""
    data = command_data(command, path, values, guild, check_required=False)
    level = data
    while level.get("options") and level["options"][0]["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
        level = level["options"][0]
    schema = command.get("options") or []
    for word in path[1:]:
        schema = next(o for o in schema if o["name"] == word).get("options") or []
    option = next((o for o in schema if o["name"] in (focused, focused.replace("_", "-"))), None)
    if option is None or not option.get("autocomplete"):
        raise ImpossibleAction(f"/{' '.join(path)} has no autocompleted option {focused!r}")
    level.setdefault("options", []).append(
        {"name": option["name"], "type": option["type"], "value": typed, "focused": True}
    )
    return data


def _option_value(option: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], guild: Any) -> Any:
    kind, name = option["type"], option["name"]
    choices = option.get("choices")
    if choices:
        for choice in choices:
            if value == choice["value"] or value == choice["name"]:
                return choice["value"]
        raise ImpossibleAction(f"{value!r} is not a choice of {name!r}: {[c['name'] for c in choices]}")
    if kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
        member = guild.member(value) if guild is not None else None
        if member is not None:
            member_data = member_payload(guild, member, with_permissions=True)
            del member_data["user"]
            resolved.setdefault("members", {})[str(value.id)] = member_data
        return str(value.id)
    if kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        return str(value.id)
    if kind == CHANNEL and isinstance(value, FakeChannel):
        data = channel_payload(value)
        data["permissions"] = str((1 << 53) - 1)
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    if kind == STRING and isinstance(value, str):
        return _in_range(option, value, len(value), "length", "min_length", "max_length")
    if kind == INTEGER and isinstance(value, int) and not isinstance(value, bool):
        return _in_range(option, value, value, "value", "min_value", "max_value")
    if kind == NUMBER and isinstance(value, int | float) and not isinstance(value, bool):
        return _in_range(option, value, value, "value", "min_value", "max_value")
    if kind == BOOLEAN and isinstance(value, bool):
        return value
    raise ImpossibleAction(f"option {name!r} (type {kind}) cannot take {value!r}")


def _in_range(option: dict[str, Any], value: Any, measure: float, what: str, low: str, high: str) -> Any:
    if (low in option and measure < option[low]) or (high in option and measure > option[high]):
        raise ImpossibleAction(
            f"{option['name']!r} {what} must be within {option.get(low)}..{option.get(high)}: {value!r}"
        )
    return value


def component_data(
    message: FakeMessage, user: FakeUser, custom_id: str, values: list[str] | None
) -> dict[str, Any]:
    """``data`` of a click (``values`` None) or a select, after checking the user could do it."""
    if not message.visible_to(user):
        raise ImpossibleAction(f"{user.name} cannot see {message!r}")
    component = next(
        (c for c in iter_components(message.components) if c.get("custom_id") == custom_id), None
    )
    if component is None:
        have = [c.get("custom_id") for c in iter_components(message.components) if c.get("custom_id")]
        raise ImpossibleAction(f"{message!r} has no component {custom_id!r} (has {have})")
    if component.get("disabled"):
        raise ImpossibleAction(f"{custom_id!r} is disabled")
    kind = component["type"]
    if values is None:
        if kind != BUTTON:
            raise ImpossibleAction(f"{custom_id!r} is not a button; use select()")
        return {"custom_id": custom_id, "component_type": BUTTON}
    if kind not in SELECT_TYPES:
        raise ImpossibleAction(f"{custom_id!r} is not a select menu")
    low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
    if not low <= len(values) <= high:
        raise ImpossibleAction(f"{custom_id!r} takes {low}..{high} values, not {len(values)}")
    if kind == 3:
        offered = [str(o["value"]) for o in component.get("options", [])]
        stray = [v for v in values if v not in offered]
        if stray:
            raise ImpossibleAction(f"{custom_id!r} does not offer {stray} (offers {offered})")
    return {"custom_id": custom_id, "component_type": kind, "values": [str(v) for v in values]}


def modal_data(modal: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """``data`` of a modal submit: each text input's value, in the modal's own layout (rows or labels);
    a select's value is one or a list of its option values."""
    unused = dict(values)

    def answer(component: dict[str, Any]) -> dict[str, Any]:
        custom_id = component.get("custom_id", "")
        if component.get("type") == 4:
            if custom_id not in unused and component.get("required", True):
                raise ImpossibleAction(f"modal field {custom_id!r} is required")
            return {"type": 4, "custom_id": custom_id, "value": str(unused.pop(custom_id, ""))}
        chosen = unused.pop(custom_id, [])
        return {
            "type": component["type"],
            "custom_id": custom_id,
            "values": list(chosen) if isinstance(chosen, list | tuple) else [chosen],
        }

    layout: list[dict[str, Any]] = []
    for top in modal.get("components", []):
        if top.get("type") == 1:
            layout.append({"type": 1, "components": [answer(c) for c in top.get("components", [])]})
        elif top.get("type") == 18 and isinstance(top.get("component"), dict):
            layout.append({"type": 18, "component": answer(top["component"])})
    if unused:
        raise ImpossibleAction(f"the modal has no fields {sorted(unused)}")
    return {"custom_id": modal["custom_id"], "components": layout}
