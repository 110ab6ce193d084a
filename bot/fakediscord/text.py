"""Everything a user reads on a message, flattened to one string for ``in`` assertions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.fakediscord.model import FakeMessage, MessageVersion, iter_components


def text_of(message: FakeMessage | MessageVersion | Iterable[FakeMessage]) -> str:
    """Content, embed author/title/description/fields/footer, component labels and texts, attachment names
    and alt texts, one piece per line. Also takes an earlier version (``message.edits[i]``). Given several messages, joins them with a blank line."""
    if not isinstance(message, FakeMessage | MessageVersion):
        return "\n\n".join(text_of(m) for m in message)
    parts: list[str] = [message.content] if message.content else []
    for embed in message.embeds:
        parts += _embed_text(embed)
    for component in iter_components(message.components):
        parts += _component_text(component)
    for attachment in message.attachments:
        parts.append(attachment.filename)
        if attachment.description:
            parts.append(attachment.description)
    return "\n".join(p for p in parts if p)


def _embed_text(embed: dict[str, Any]) -> list[str]:
    parts = [
        (embed.get("author") or {}).get("name"),
        embed.get("title"),
        embed.get("description"),
    ]
    for embed_field in embed.get("fields") or []:
        parts += [embed_field.get("name"), embed_field.get("value")]
    parts.append((embed.get("footer") or {}).get("text"))
    return [str(p) for p in parts if p]


def _component_text(component: dict[str, Any]) -> list[str]:
    parts = [component.get("label"), component.get("placeholder"), component.get("content")]
    for option in component.get("options") or []:
        parts += [option.get("label"), option.get("description")]
    emoji = component.get("emoji") or {}
    if component.get("type") == 2 and not component.get("label") and emoji.get("name"):
        parts.append(emoji["name"])
    return [str(p) for p in parts if p]
