"""A request from the page, turned into what a person does in the fake Discord: run a slash command,
click a button, choose in a select menu, submit or dismiss a form (modal).

Every request is checked before anything happens: an unknown person, message or component, a command
the bot did not register, an option of the wrong kind, is a :class:`BadAct` (answered 400) and changes
nothing. The act is sent and not waited for: what the bot answers reaches the page as a live update."""

from __future__ import annotations

from typing import Any

from bot.fakediscord import FakeChannel, FakeUser, ImpossibleAction
from bot.fakediscord.interactions import FakeInteraction, find_command
from bot.playground.world import World, id_number

USER, CHANNEL = 6, 7  # option types whose values the page sends as ids


class BadAct(ValueError):
    """The request cannot be done by this person now; the message says why."""


async def act(world: World, request: dict[str, Any], closed_forms: set[int]) -> FakeInteraction:
    """Do what ``request`` asks (see the module's docstring); :class:`BadAct` if it cannot be done."""
    if not isinstance(request, dict):
        raise BadAct("send a JSON object")
    who = world.person(request.get("as"))
    if who is None:
        raise BadAct(f"nobody here has the id {request.get('as')!r}")
    kind = request.get("kind")
    try:
        if kind == "command":
            return await _command(world, who, request)
        if kind in ("button", "select"):
            message = world.fake.messages.get(id_number(request.get("message")))
            if message is None or not message.visible_to(who):
                raise BadAct(f"{who.name} sees no message {request.get('message')!r}")
            custom_id = str(request.get("custom_id", ""))
            if kind == "button":
                return await world.fake.click(who, message, custom_id, wait=False)
            values = request.get("values")
            if not isinstance(values, list):
                raise BadAct("a select needs 'values', a list")
            return await world.fake.select(who, message, custom_id, [str(v) for v in values], wait=False)
        if kind in ("form", "dismiss"):
            opened = world.fake.interactions.get(id_number(request.get("form")))
            if opened is None or opened.modal is None or opened.user is not who or opened.id in closed_forms:
                raise BadAct(f"{who.name} has no open form {request.get('form')!r}")
            closed_forms.add(opened.id)
            if kind == "dismiss":
                return opened
            values = request.get("values")
            if not isinstance(values, dict):
                closed_forms.discard(opened.id)
                raise BadAct("a form needs 'values', an object")
            try:
                return await world.fake.submit_modal(who, opened, values, wait=False)
            except BaseException:
                closed_forms.discard(opened.id)
                raise
    except ImpossibleAction as refused:
        raise BadAct(str(refused)) from None
    raise BadAct(f"unknown kind {kind!r}: command, button, select, form or dismiss")


async def _command(world: World, who: FakeUser, request: dict[str, Any]) -> FakeInteraction:
    where = _channel(world, who, request.get("channel"))
    path = str(request.get("command", "")).strip().lstrip("/").split()
    if not path:
        raise BadAct("name a command, e.g. 'hotstreak start'")
    given = request.get("options") or {}
    if not isinstance(given, dict):
        raise BadAct("'options' is an object: option name -> value")
    schema = _options_of(find_command(world.fake, who, where, path), path)
    options: dict[str, Any] = {}
    for name, value in given.items():
        kind = next((o["type"] for o in schema if o["name"] == name), None)
        if kind == USER:
            value = world.person(value)
            if value is None:
                raise BadAct(f"{name}: nobody here has that id")
        elif kind == CHANNEL:
            value = _channel(world, who, value)
        options[name] = value
    return await world.fake.slash(who, where, " ".join(path), wait=False, **options)


def _options_of(command: dict[str, Any], path: list[str]) -> list[dict[str, Any]]:
    schema = command.get("options") or []
    for word in path[1:]:
        schema = next((o.get("options") or [] for o in schema if o["name"] == word), [])
    return list(schema)


def _channel(world: World, who: FakeUser, channel_id: object) -> FakeChannel:
    found = world.fake.channels.get(id_number(channel_id))
    if found is None or found.deleted:
        raise BadAct(f"no channel {channel_id!r}")
    if found.is_dm and found.recipient is not who:
        raise BadAct(f"{who.name} cannot write in someone else's DMs")
    if found.guild is not None and found.guild.member(who) is None:
        raise BadAct(f"{who.name} is not in that server")
    return found
