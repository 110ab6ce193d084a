"""Rich embeds: colour bar, author, title, description, fields side by side, image, footer."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PIL import Image

from bot.fakediscord.model import FakeAttachment
from bot.fakediscord.screenshot.blocks import attachment_image, markdown_block, picture_block
from bot.fakediscord.screenshot.drawing import rounded
from bot.fakediscord.screenshot.layout import TextStyle, draw_text, measure_text
from bot.fakediscord.screenshot.markdown import Context, parse_inline
from bot.fakediscord.screenshot.theme import (
    BACKGROUND,
    DARKEST,
    EMBED_BACKGROUND,
    EMBED_MAX,
    HEADER,
    LINK,
    TEXT,
)

EMBED_TEXT = TextStyle(14, 18, TEXT, EMBED_BACKGROUND)
FIELD_NAME = TextStyle(14, 18, HEADER, EMBED_BACKGROUND, bold=True)
EMBED_TITLE = TextStyle(16, 22, HEADER, EMBED_BACKGROUND, bold=True)
FOOTER = TextStyle(12, 16, TEXT, EMBED_BACKGROUND)


def embed_block(
    embed: dict[str, Any], attachments: Mapping[str, FakeAttachment], max_width: int, context: Context
) -> Image.Image:
    """A rich embed: colour bar, author, title, description, fields (inline ones side by side), image, footer."""
    padding_left, padding_right = 12, 16
    limit = min(max_width, EMBED_MAX) - 4 - padding_left - padding_right
    picture = None
    image_url = str((embed.get("image") or {}).get("url") or "")
    if image_url.startswith("attachment://") and image_url[13:] in attachments:
        attachment = attachments[image_url[13:]]
        picture = attachment_image(attachment, (limit, 300))
    rows = _field_rows(embed.get("fields") or [])
    # Discord sizes an embed to its content, up to the maximum; fields and images ask for their width.
    natural = [picture.width if picture else 0]
    author = (embed.get("author") or {}).get("name")
    for text, style in (
        (author, FIELD_NAME),
        (embed.get("title"), EMBED_TITLE),
        (embed.get("description"), EMBED_TEXT),
        ((embed.get("footer") or {}).get("text"), FOOTER),
    ):
        if text:
            natural.append(measure_text(parse_inline(str(text), context), style, limit))
    for row in rows:
        widths = [
            max(
                measure_text(parse_inline(str(f.get("name", "")), context), FIELD_NAME, limit),
                measure_text(parse_inline(str(f.get("value", "")), context), EMBED_TEXT, limit),
            )
            for f in row
        ]
        natural.append(max(widths) * len(row) + 8 * (len(row) - 1))
    inner = max(min(max(natural), limit), 120)

    parts: list[tuple[Image.Image, int]] = []  # (block, gap above it)
    if author:
        parts.append((draw_text(parse_inline(str(author), context), FIELD_NAME, inner), 0))
    if embed.get("title"):
        title_style = replace(EMBED_TITLE, colour=LINK) if embed.get("url") else EMBED_TITLE
        parts.append((draw_text(parse_inline(str(embed["title"]), context), title_style, inner), 4))
    if embed.get("description"):
        parts.append((markdown_block(str(embed["description"]), EMBED_TEXT, inner, context), 6))
    for row in rows:
        parts.append((_field_row(row, inner, context), 8))
    if picture is not None:
        parts.append((picture_block(picture, EMBED_BACKGROUND, alt=False), 16))
    footer = (embed.get("footer") or {}).get("text")
    stamp = embed.get("timestamp")
    if footer or stamp:
        text = " • ".join(str(p) for p in (footer, _embed_time(stamp)) if p)
        parts.append((draw_text(parse_inline(text, context), FOOTER, inner), 8))

    height = 8 + sum(p.height + gap for p, gap in parts) - (parts[0][1] if parts else 0) + 16
    width = 4 + padding_left + inner + padding_right
    block = Image.new("RGB", (width, height), BACKGROUND)
    colour = embed.get("color")
    bar = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255) if isinstance(colour, int) else DARKEST
    rounded(block, (0, 0, width, height), 4, bar)
    rounded(block, (4, 0, width, height), 4, EMBED_BACKGROUND)
    block.paste(EMBED_BACKGROUND, (4, 0, 8, height))
    y = 8
    for index, (part, gap) in enumerate(parts):
        y += gap if index else 0
        block.paste(part, (4 + padding_left, y))
        y += part.height
    return block


def _embed_time(stamp: object) -> str | None:
    if not stamp:
        return None
    try:
        when = datetime.datetime.fromisoformat(str(stamp))
    except ValueError:
        return None
    return f"Today at {when:%H:%M}"


def _field_rows(fields: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Inline fields share a row, three at most; any other field takes a row of its own."""
    rows: list[list[dict[str, Any]]] = []
    for field in fields:
        if field.get("inline") and rows and rows[-1][-1].get("inline") and len(rows[-1]) < 3:
            rows[-1].append(field)
        else:
            rows.append([field])
    return rows


def _field_row(row: list[dict[str, Any]], width: int, context: Context) -> Image.Image:
    gap = 8
    column = (width - gap * (len(row) - 1)) // len(row)
    cells = []
    for field in row:
        name = draw_text(parse_inline(str(field.get("name", "")), context), FIELD_NAME, column)
        value = markdown_block(str(field.get("value", "")), EMBED_TEXT, column, context)
        cell = Image.new("RGB", (column, name.height + 2 + value.height), EMBED_BACKGROUND)
        cell.paste(name, (0, 0))
        cell.paste(value, (0, name.height + 2))
        cells.append(cell)
    block = Image.new("RGB", (width, max(c.height for c in cells)), EMBED_BACKGROUND)
    for index, cell in enumerate(cells):
        block.paste(cell, (index * (column + gap), 0))
    return block
