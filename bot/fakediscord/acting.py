"""What the test's users do: slash commands, autocomplete, clicks, selects, modal submits, plain messages;
and the gateway nudges a test gives the bot (reconnect). Each returns once the bot has answered."""

# ruff: noqa: ASYNC109 -- the driver's waits take a plain timeout= (the API tests read), not asyncio.timeout.

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from bot.fakediscord.http_api import DiscordHTTPError
from bot.fakediscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
    ImpossibleAction,
    autocomplete_data,
    command_data,
    component_data,
    find_command,
    interaction_payload,
    modal_data,
)
from bot.fakediscord.model import FakeChannel, FakeMessage, FakeUser
from bot.fakediscord.threads import before_posting

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord
    from bot.fakediscord.gateway import Gateway
    from bot.fakediscord.snowflakes import SnowflakeMint

T = TypeVar("T")


class UserActions:
    """Mixed into :class:`~bot.fakediscord.FakeDiscord`: acting as users."""

    mint: SnowflakeMint
    gateway: Gateway
    shard_count: int
    messages: dict[int, FakeMessage]
    interactions: dict[int, FakeInteraction]
    interactions_by_token: dict[str, FakeInteraction]

    if TYPE_CHECKING:  # provided by FakeDiscord and UserViews

        async def wait_for(
            self, condition: Callable[[], T | None], *, timeout: float = 5.0, what: str | None = None
        ) -> T: ...

        def describe(self) -> str: ...

        def _touch(self) -> None: ...

        def _announce_message(
            self, event: str, message: FakeMessage, data: dict[str, Any] | None = None
        ) -> None: ...

    @property
    def _fake(self) -> FakeDiscord:
        """This mixin as the FakeDiscord it is mixed into (what an interaction is given)."""
        return cast("FakeDiscord", self)

    async def wait_ready(self, timeout: float = 5.0) -> None:
        """Until the bot has identified on the gateway and been sent READY and its guilds."""
        try:
            await asyncio.wait_for(self.gateway.identified.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"the bot did not identify within {timeout}s\n{self.describe()}") from None

    async def wait_for_shards(
        self, *shard_ids: int, shard_count: int | None = None, timeout: float = 10.0
    ) -> None:
        """Until a session is connected for each of ``shard_ids`` (of ``shard_count``, default the fake's)."""
        count = shard_count or self.shard_count
        wanted = {(i, count) for i in shard_ids}
        await self.wait_for(
            lambda: wanted <= set(self.gateway.connected_shards()), timeout=timeout, what=f"shards {wanted}"
        )

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        *,
        wait: bool = True,
        timeout: float = 5.0,
        **options: Any,
    ) -> FakeInteraction:
        """``user`` runs ``/command`` (``"game start"`` for subcommands) in ``channel`` with ``options``
        (str, int, float, bool, FakeUser, FakeChannel, FakeRole; a choice by value or name). Returns the
        interaction once the bot responded (``wait=False``: at once)."""
        path = command.strip().lstrip("/").split()
        schema = find_command(self._fake, user, channel, path)
        data = command_data(schema, path, options, channel.guild)
        interaction = FakeInteraction(
            self._fake, APPLICATION_COMMAND, user, channel, command=" ".join(path), options=options
        )
        return await self._send(interaction, data, wait, timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        focused: str,
        typed: str,
        *,
        timeout: float = 5.0,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """``user`` types ``typed`` into the option ``focused`` of ``/command``; returns the bot's choices."""
        path = command.strip().lstrip("/").split()
        schema = find_command(self._fake, user, channel, path)
        data = autocomplete_data(schema, path, focused, typed, options, channel.guild)
        interaction = FakeInteraction(
            self._fake, AUTOCOMPLETE, user, channel, command=" ".join(path), options=options
        )
        await self._send(interaction, data, True, timeout)
        if interaction.autocomplete_choices is None:
            raise AssertionError(f"the bot answered autocomplete with {interaction.callbacks}")
        return interaction.autocomplete_choices

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, *, wait: bool = True, timeout: float = 5.0
    ) -> FakeInteraction:
        """``user`` clicks the button ``custom_id`` on ``message``."""
        data = component_data(message, user, custom_id, None)
        interaction = FakeInteraction(
            self._fake, COMPONENT, user, message.channel, custom_id=custom_id, source_message=message
        )
        return await self._send(interaction, data, wait, timeout)

    async def click_button(
        self,
        user: FakeUser,
        message: FakeMessage,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """Click the one button with this label (or custom_id)."""
        button = message.button(label, custom_id=custom_id)
        if button.custom_id is None:
            raise ImpossibleAction(f"{label!r} is a link button; clicking it opens {button.url}")
        return await self.click(user, message, button.custom_id, wait=wait, timeout=timeout)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """``user`` picks ``values`` (option values, as strings) in the select ``custom_id``."""
        data = component_data(message, user, custom_id, list(values))
        interaction = FakeInteraction(
            self._fake,
            COMPONENT,
            user,
            message.channel,
            custom_id=custom_id,
            values=list(values),
            source_message=message,
        )
        return await self._send(interaction, data, wait, timeout)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: FakeInteraction,
        values: dict[str, Any],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot answered ``opened_by`` with (text inputs by custom_id)."""
        if opened_by.modal is None:
            raise ImpossibleAction(f"{opened_by!r} did not open a modal")
        data = modal_data(opened_by.modal, values)
        interaction = FakeInteraction(
            self._fake,
            MODAL_SUBMIT,
            user,
            opened_by.channel,
            custom_id=data["custom_id"],
            source_message=opened_by.source_message,
        )
        return await self._send(interaction, data, wait, timeout)

    async def say(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """``user`` posts a plain message (MESSAGE_CREATE for the bot, content per its intents)."""
        message = FakeMessage(self.mint.next(), channel, user, content=content)
        if not message.visible_to(user):
            raise ImpossibleAction(f"{user.name} cannot post in {channel!r}")
        if channel.is_thread:
            try:
                before_posting(self._fake, user, channel)
            except DiscordHTTPError as error:
                raise ImpossibleAction(f"{user.name} cannot post in {channel!r}: {error}") from None
        channel.messages.append(message)
        self.messages[message.id] = message
        self._announce_message("MESSAGE_CREATE", message)
        self._touch()
        return message

    async def force_reconnect(self, timeout: float = 5.0) -> None:
        """Tell the bot to reconnect (gateway op 7); returns once it has RESUMEd."""
        before = self.gateway.resume_count
        await self.gateway.reconnect_all()
        await self.wait_for(lambda: self.gateway.resume_count > before, timeout=timeout, what="a RESUME")

    async def _send(
        self, interaction: FakeInteraction, data: dict[str, Any], wait: bool, timeout: float
    ) -> FakeInteraction:
        if not self.gateway.connected:
            raise RuntimeError("the bot is not connected to the fake gateway")
        self.interactions[interaction.id] = interaction
        self.interactions_by_token[interaction.token] = interaction
        guild_id = interaction.guild.id if interaction.guild is not None else None
        self.gateway.dispatch(
            "INTERACTION_CREATE", interaction_payload(self._fake, interaction, data), guild_id=guild_id
        )
        if wait:
            await interaction.wait_response(timeout)
        return interaction

    def interaction_by_token(self, token: str) -> FakeInteraction | None:
        return self.interactions_by_token.get(token)
