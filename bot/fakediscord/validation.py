"""Discord's limits on a message body, checked the way the real API refuses them (400, code 50035/50006).

A bot that passes against the fake but breaks a limit would fail on Discord, so the fake refuses too.
"""

from __future__ import annotations

from typing import Any

from bot.fakediscord.model import BUTTON, SELECT_TYPES, iter_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ATTACHMENTS = 10
MAX_ACTION_ROWS = 5
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}
MAX_FIELDS = 25

Problem = tuple[tuple[str, ...], str, str]


class InvalidBody(Exception):
    """A Discord error body to send back as 400."""

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(body["message"])
        self.body = body


def check_message(
    content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]], files: int
) -> None:
    """Raise :class:`InvalidBody` if Discord would refuse a message in this final state."""
    problems: list[Problem] = []
    if len(content) > MAX_CONTENT:
        problems.append((("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."))
    problems += _embed_problems(embeds)
    problems += _component_problems(components)
    if files > MAX_ATTACHMENTS:
        problems.append(
            (("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ATTACHMENTS} or fewer in length.")
        )
    if problems:
        raise InvalidBody(_form_error(problems))
    if not content and not embeds and not components and not files:
        raise InvalidBody({"code": 50006, "message": "Cannot send an empty message"})


def _too_long(limit: int) -> str:
    return f"Must be {limit} or fewer in length."


def _embed_problems(embeds: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append((("embeds",), "BASE_TYPE_MAX_LENGTH", _too_long(MAX_EMBEDS)))
    total = 0
    for i, embed in enumerate(embeds):
        at = ("embeds", str(i))
        for key, limit in EMBED_LIMITS.items():
            text = str(embed.get(key) or "")
            total += len(text)
            if len(text) > limit:
                problems.append(((*at, key), "BASE_TYPE_MAX_LENGTH", _too_long(limit)))
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        fields = embed.get("fields") or []
        if len(fields) > MAX_FIELDS:
            problems.append(((*at, "fields"), "BASE_TYPE_MAX_LENGTH", _too_long(MAX_FIELDS)))
        for j, embed_field in enumerate(fields):
            for key, limit in FIELD_LIMITS.items():
                text = str(embed_field.get(key) or "")
                total += len(text)
                if not text:
                    problems.append(
                        ((*at, "fields", str(j), key), "BASE_TYPE_REQUIRED", "This field is required")
                    )
                elif len(text) > limit:
                    problems.append(((*at, "fields", str(j), key), "BASE_TYPE_MAX_LENGTH", _too_long(limit)))
    if total > MAX_EMBED_TOTAL:
        problems.append((("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"))
    return problems


def _component_problems(components: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    rows = [c for c in components if c.get("type") == 1]
    if len(rows) > MAX_ACTION_ROWS:
        problems.append((("components",), "BASE_TYPE_MAX_LENGTH", _too_long(MAX_ACTION_ROWS)))
    for i, row in enumerate(rows):
        children = row.get("components", [])
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children or len(children) > 5 or (selects and len(children) > 1):
            problems.append(
                (
                    ("components", str(i), "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
    seen: set[str] = set()
    for component in iter_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if len(custom_id) > 100:
                problems.append((("components", "custom_id"), "BASE_TYPE_MAX_LENGTH", _too_long(100)))
            if custom_id in seen:
                problems.append(
                    (
                        ("components", "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(custom_id)
        if component.get("type") == BUTTON:
            if len(component.get("label") or "") > 80:
                problems.append((("components", "label"), "BASE_TYPE_MAX_LENGTH", _too_long(80)))
            if component.get("style") == 5 and not component.get("url"):
                problems.append((("components", "url"), "BASE_TYPE_REQUIRED", "This field is required"))
            if component.get("style") not in (5, 6) and custom_id is None:
                problems.append((("components", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
        if component.get("type") == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                problems.append(
                    (("components", "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
                )
            for option in options:
                for key in ("label", "value", "description"):
                    if len(str(option.get(key) or "")) > 100:
                        problems.append(
                            (("components", "options", key), "BASE_TYPE_MAX_LENGTH", _too_long(100))
                        )
            if len(component.get("placeholder") or "") > 150:
                problems.append((("components", "placeholder"), "BASE_TYPE_MAX_LENGTH", _too_long(150)))
    return problems


def _form_error(problems: list[Problem]) -> dict[str, Any]:
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}
