"""Blocks of a message body: block markdown (quotes, lists, headings, code), pictures and files."""

from __future__ import annotations

import io
import re
from dataclasses import replace

from PIL import Image, ImageDraw

from bot.fakediscord.model import FakeAttachment
from bot.fakediscord.screenshot.drawing import load_font, rounded, stack
from bot.fakediscord.screenshot.layout import TextStyle, draw_text
from bot.fakediscord.screenshot.markdown import Context, Span, Style, parse_inline
from bot.fakediscord.screenshot.theme import (
    BACKGROUND,
    DARKEST,
    EMBED_BACKGROUND,
    HEADER,
    LINK,
    MUTED,
    RGB,
    hex_rgb,
)


def markdown_block(text: str, base: TextStyle, width: int, context: Context) -> Image.Image:
    """Block markdown (quotes, lists, headings, code blocks) over inline markdown, one block per kind."""
    parts: list[Image.Image] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            parts.append(draw_text(parse_inline("\n".join(paragraph), context), base, width))
            paragraph.clear()

    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = re.match(r"(#{1,3}) (.*)", line)
        if line.startswith("```"):
            flush()
            end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), len(lines))
            parts.append(_code_block("\n".join(lines[index + 1 : end]), base, width))
            index = end + 1
            continue
        if line.startswith("> "):
            flush()
            inner = markdown_block(line[2:], base, width - 16, context)
            block = Image.new("RGB", (width, inner.height), base.background)
            block.paste(hex_rgb("#4e5058"), (0, 0, 4, inner.height))
            block.paste(inner, (16, 0))
            parts.append(block)
        elif heading:
            flush()
            size = {1: 24, 2: 20, 3: 16}[len(heading.group(1))]
            style = replace(base, size=size, line=round(size * 1.375), colour=HEADER, bold=True)
            parts.append(draw_text(parse_inline(heading.group(2), context), style, width))
        elif re.match(r"-# ", line):
            flush()
            style = replace(base, size=12, line=16, colour=MUTED)
            parts.append(draw_text(parse_inline(line[3:], context), style, width))
        elif re.match(r"\s*[-*] ", line):
            flush()
            inner = draw_text(parse_inline(re.sub(r"^\s*[-*] ", "", line), context), base, width - 22)
            block = Image.new("RGB", (width, inner.height), base.background)
            ImageDraw.Draw(block).text(
                (6, base.line // 2), "•", font=load_font(base.size), fill=base.colour, anchor="lm"
            )
            block.paste(inner, (22, 0))
            parts.append(block)
        else:
            paragraph.append(line)
        index += 1
    flush()
    return stack(parts, width, base.background, gap=0)


def _code_block(code: str, base: TextStyle, width: int) -> Image.Image:
    inner = draw_text(
        [Span(code, Style())], replace(base, size=base.size - 2, background=EMBED_BACKGROUND), width - 18
    )
    block = Image.new("RGB", (width, inner.height + 18), base.background)
    rounded(block, (0, 1, width, inner.height + 17), 4, DARKEST)
    rounded(block, (1, 2, width - 1, inner.height + 16), 4, EMBED_BACKGROUND)
    block.paste(inner, (9, 9))
    return block


def attachment_image(attachment: FakeAttachment, max_size: tuple[int, int]) -> Image.Image | None:
    """The attachment as a picture scaled to fit ``max_size``, or None if it is not a picture."""
    is_picture = (attachment.content_type or "").startswith("image/") or attachment.filename.lower().endswith(
        (".png", ".jpg", ".jpeg", ".gif", ".webp")
    )
    if not is_picture:
        return None
    try:
        opened = Image.open(io.BytesIO(attachment.data))
        opened.load()
    except (OSError, SyntaxError):
        return None
    picture = opened.convert("RGB")
    scale = min(max_size[0] / picture.width, max_size[1] / picture.height, 1.0)
    size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
    return picture.resize(size, Image.Resampling.LANCZOS) if size != picture.size else picture


def picture_block(picture: Image.Image, background: RGB, alt: bool) -> Image.Image:
    """A picture with Discord's rounded corners, and the ALT badge when it has a description."""
    block = Image.new("RGB", picture.size, background)
    mask = Image.new("L", (picture.width * 4, picture.height * 4), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), radius=32, fill=255)
    block.paste(picture, (0, 0), mask.resize(picture.size, Image.Resampling.LANCZOS))
    if alt:
        font = load_font(10, bold=True)
        badge = Image.new("RGB", (30, 18), hex_rgb("#111214"))
        ImageDraw.Draw(badge).text((15, 9), "ALT", font=font, fill=HEADER, anchor="mm")
        box = (6, picture.height - 24)
        region = block.crop((box[0], box[1], box[0] + 30, box[1] + 18))
        shade = Image.new("L", (30 * 4, 18 * 4), 0)
        ImageDraw.Draw(shade).rounded_rectangle((0, 0, 119, 71), radius=12, fill=220)
        block.paste(Image.composite(badge, region, shade.resize((30, 18), Image.Resampling.LANCZOS)), box)
    return block


def file_block(attachment: FakeAttachment, width: int) -> Image.Image:
    """A non-picture attachment: Discord's file box with name and size."""
    width = min(width, 432)
    block = Image.new("RGB", (width, 66), BACKGROUND)
    rounded(block, (0, 0, width, 66), 8, DARKEST)
    rounded(block, (1, 1, width - 1, 65), 8, EMBED_BACKGROUND)
    draw = ImageDraw.Draw(block)
    draw.rectangle((16, 17, 38, 47), fill=hex_rgb("#b5bac1"))
    draw.polygon([(31, 17), (38, 24), (31, 24)], fill=EMBED_BACKGROUND)
    draw.text((50, 30), attachment.filename, font=load_font(16), fill=LINK, anchor="ls")
    size = f"{attachment.size / 1024:.2f} KB" if attachment.size >= 1024 else f"{attachment.size} bytes"
    draw.text((50, 48), size, font=load_font(12), fill=MUTED, anchor="ls")
    return block
