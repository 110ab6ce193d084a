"""What one person sees, as the page's JSON: the server's channels and the threads the bot opened, their
messages (ephemeral ones only for whom they are for), the person's DMs, and any form (modal) the bot
opened for them. Built from the fake's own records on every request, so it cannot drift from them.

Pictures are not inlined: each message names its files by a URL of the playground's (``/files/...``),
which serves a file only to a person who can see its message."""

from __future__ import annotations

import copy
from typing import Any

from bot.fakediscord import FakeChannel, FakeMessage, FakeUser
from bot.fakediscord.interactions import FakeInteraction
from bot.playground.world import World


def seen_by(
    world: World, viewer: FakeUser, closed_forms: set[int], reading: int | None = None
) -> dict[str, Any]:
    """What ``viewer`` sees now: every channel they may open, with the messages of the one they are
    ``reading`` (None: the games channel) and only the newest message's id of the others (enough for an
    unread mark; a race edits its message card by card, and the page need not fetch every channel each
    time). ``closed_forms`` are the modals already submitted or dismissed."""
    fake = world.fake
    channels = [world.games, *sorted(fake.threads_in(world.games), key=lambda t: t.id)]
    shown = [c for c in channels if not c.deleted]
    dm = fake.dm_channel(viewer)
    return {
        "me": person(viewer),
        "people": [person(p) for p in world.people],
        "server": world.guild.name,
        "channels": [channel(c, viewer, c.id == (reading or world.games.id)) for c in [*shown, dm]],
        "names": names(world),
        "emojis": {str(e.id): e.name for e in fake.application_emojis.values()},
        "forms": [form(i) for i in fake.interactions.values() if _open_form(i, viewer, closed_forms)],
    }


def person(user: FakeUser) -> dict[str, Any]:
    return {"id": str(user.id), "name": user.name}


def names(world: World) -> dict[str, str]:
    """Every id a message may mention (``<@id>``, ``<#id>``) -> the name to show for it."""
    fake = world.fake
    shown = {str(u.id): u.name for u in fake.users.values()}
    shown.update({str(c.id): c.name for c in fake.channels.values()})
    shown.update({str(r.id): r.name for r in world.guild.roles.values()})
    return shown


def channel(where: FakeChannel, viewer: FakeUser, reading: bool) -> dict[str, Any]:
    kind = "dm" if where.is_dm else "thread" if where.is_thread else "text"
    messages = [m for m in where.messages if m.visible_to(viewer) and not m.loading]
    return {
        "id": str(where.id),
        "name": where.name,
        "kind": kind,
        "archived": where.archived,
        "newest": str(messages[-1].id) if messages else None,
        "messages": [message(m, viewer) for m in messages] if reading else None,
    }


def message(shown: FakeMessage, viewer: FakeUser) -> dict[str, Any]:
    files = {a.filename: f"/files/{viewer.id}/{shown.id}/{a.id}" for a in shown.attachments}
    by_id = {str(a.id): files[a.filename] for a in shown.attachments}
    embeds = [_embed(e, files, by_id) for e in shown.embeds]
    pictures_in_embeds = {e.get(k, {}).get("url") for e in embeds for k in ("image", "thumbnail")}
    used = shown.interaction
    return {
        "id": str(shown.id),
        "author": {"name": shown.author.name, "bot": shown.author.bot},
        "content": shown.content,
        "embeds": embeds,
        "files": [
            {"name": a.filename, "url": files[a.filename], "description": a.description}
            for a in shown.attachments
            if files[a.filename] not in pictures_in_embeds
        ],
        "components": _ids_as_text(shown.components),
        "ephemeral": shown.ephemeral,
        "edited": shown.edited_at is not None,
        "at": shown.created_at.isoformat(),
        "used": _used(used) if used is not None and used.command else None,
    }


def _ids_as_text(value: Any) -> Any:
    """``value`` with every integer too big for JavaScript's numbers written as text: a component's emoji
    id may be sent as a number, and the page would round it to another emoji's id."""
    if isinstance(value, dict):
        return {key: _ids_as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_ids_as_text(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return str(value)
    return value


def _used(interaction: FakeInteraction) -> dict[str, str]:
    """The line above a command's answer: who ran which command."""
    return {"name": interaction.user.name, "command": interaction.command or ""}


def _embed(embed: dict[str, Any], files: dict[str, str], by_id: dict[str, str]) -> dict[str, Any]:
    """The embed with its pictures pointed at the playground's file URLs (``attachment://name`` as the
    bot sent it, or the fake's own attachment URL once it stored the message)."""
    shown = copy.deepcopy(embed)
    for key in ("image", "thumbnail"):
        url = str((shown.get(key) or {}).get("url") or "")
        if url.startswith("attachment://"):
            shown[key]["url"] = files.get(url.removeprefix("attachment://"), "")
        elif "/attachments/" in url:
            attachment_id = url.split("/attachments/", 1)[1].split("/")[1]
            shown[key]["url"] = by_id.get(attachment_id, "")
    return shown


def _open_form(interaction: FakeInteraction, viewer: FakeUser, closed: set[int]) -> bool:
    return interaction.modal is not None and interaction.user is viewer and interaction.id not in closed


def form(interaction: FakeInteraction) -> dict[str, Any]:
    """A modal the bot answered ``interaction`` with: its title and its fields as the bot sent them."""
    modal = interaction.modal or {}
    return {
        "id": str(interaction.id),
        "title": modal.get("title", ""),
        "components": modal.get("components", []),
    }
