"""One message as Discord draws it: avatar, name and BOT tag, the line above a reply, the body,
"(edited)", "Only you can see this", and the gold highlight when it mentions the viewer."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from bot.fakediscord.model import FakeMessage, MessageVersion
from bot.fakediscord.screenshot.blocks import attachment_image, file_block, markdown_block, picture_block
from bot.fakediscord.screenshot.components import components_block
from bot.fakediscord.screenshot.drawing import load_font, rounded
from bot.fakediscord.screenshot.embeds import embed_block
from bot.fakediscord.screenshot.emoji import DARK_TEXT
from bot.fakediscord.screenshot.layout import TextStyle, drop_missing, text_pieces, wrap_lines
from bot.fakediscord.screenshot.markdown import Context, Names, parse_inline
from bot.fakediscord.screenshot.theme import (
    ATTACHMENT_MAX,
    AVATAR_COLOURS,
    BACKGROUND,
    BLURPLE,
    BOT_AVATAR_BG,
    HEADER,
    HIGHLIGHT_BAR,
    HIGHLIGHT_BG,
    LEFT,
    LINK,
    MUTED,
    RGB,
    RIGHT_GAP,
    TEXT,
    hex_rgb,
)

Shown = FakeMessage | MessageVersion | tuple[FakeMessage, MessageVersion]
CONTENT = TextStyle(16, 22, TEXT, BACKGROUND)


def _only_you_line(width: int) -> Image.Image:
    image = Image.new("RGB", (width, 22), BACKGROUND)
    draw = ImageDraw.Draw(image)
    # An eye: the icon Discord puts before this line.
    draw.ellipse((0, 6, 15, 16), outline=MUTED, width=2)
    draw.ellipse((5, 8, 10, 13), fill=MUTED)
    font = load_font(12)
    draw.text((22, 16), "Only you can see this • ", font=font, fill=MUTED, anchor="ls")
    draw.text(
        (22 + font.getlength("Only you can see this • "), 16),
        "Dismiss message",
        font=font,
        fill=LINK,
        anchor="ls",
    )
    return image


@dataclass(frozen=True)
class Seen:
    """One message as it is drawn: its version, who sent it, when, and the command it answers."""

    version: MessageVersion
    author_id: int | None
    author_name: str
    is_bot: bool
    sent: datetime.datetime
    command: tuple[str, int, str] | None  # (user name, user id, "/command") for a slash command reply
    reply_to: tuple[str, bool, int, str] | None  # (name, is bot, id, preview) of the clicked message
    edited: bool


def seen_as_drawn(item: Shown, bot_name: str) -> Seen:
    if isinstance(item, MessageVersion):
        return Seen(item, None, bot_name, True, item.at, None, None, False)
    message, version = item if isinstance(item, tuple) else (item, item.snapshot())
    interaction = message.interaction
    command = reply_to = None
    if interaction is not None and message.author.bot and interaction.command:
        command = (interaction.user.name, interaction.user.id, f"/{interaction.command}")
    elif interaction is not None and message.author.bot and interaction.source_message is not None:
        # A new message answering a click shows, like a reply, the message whose component was used.
        source = interaction.source_message
        if source is not message:
            name = bot_name if source.author.bot else source.author.name
            reply_to = (name, source.author.bot, source.author.id, _preview(source))
    name = bot_name if message.author.bot else message.author.name
    edited = version.at != message.created_at
    return Seen(
        version, message.author.id, name, message.author.bot, message.created_at, command, reply_to, edited
    )


def _preview(message: FakeMessage) -> str:
    """The one line Discord quotes of a replied-to message: its text without markdown, or its embed title."""
    text = message.content or next((str(e.get("title") or "") for e in message.embeds), "")
    text = re.sub(r"[*_~`]|<[@#][!&]?\d+>", "", text.split("\n")[0]).strip()
    return text or "Click to see attachment"


def _avatar(size: int, colour: RGB, letter: str | None) -> tuple[Image.Image, Image.Image]:
    """A round avatar and its mask. The bot's (``letter`` None) is a chequered flag on red."""
    scale = 4
    mask = Image.new("L", (size * scale, size * scale), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, size * scale - 1, size * scale - 1), fill=255)
    mask = mask.resize((size, size), Image.Resampling.LANCZOS)
    face = Image.new("RGB", (size, size), colour)
    draw = ImageDraw.Draw(face)
    if letter is None:
        cell = size // 8
        left, top = size // 2 - cell * 2, size // 2 - cell * 3 // 2 - 1
        draw.line((left, top, left, top + cell * 4 + 2), fill=HEADER, width=2)
        for row in range(3):
            for col in range(4):
                colour_cell = HEADER if (row + col) % 2 == 0 else DARK_TEXT
                x, y = left + 1 + col * cell, top + row * cell
                draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=colour_cell)
    else:
        draw.text(
            (size / 2, size / 2),
            letter.upper(),
            font=load_font(round(size * 0.5), bold=True),
            fill=HEADER,
            anchor="mm",
        )
    return face, mask


def _header(seen: Seen, width: int, today: str = "Today at") -> Image.Image:
    height = 22
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    name_font = load_font(16, bold=True)
    draw.text((LEFT, 17), seen.author_name, font=name_font, fill=HEADER, anchor="ls")
    x = LEFT + name_font.getlength(seen.author_name) + 6
    if seen.is_bot:
        rounded(image, (x, 3, x + 30, 18), 3, BLURPLE)
        draw.text((x + 15, 11), "BOT", font=load_font(10, bold=True), fill=(255, 255, 255), anchor="mm")
        x += 36
    draw.text((x, 16), f"{today} {seen.sent:%H:%M}", font=load_font(12), fill=MUTED, anchor="ls")
    return image


def _line_above(seen: Seen, width: int) -> Image.Image:
    """The line above a reply, with Discord's curved spine: 'alice used /hotstreak start' for a slash
    command, or the quoted first line of the message whose button or menu was used."""
    image = Image.new("RGB", (width, 22), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.arc((36, 9, 36 + 40, 9 + 30), 180, 270, fill=hex_rgb("#4e5058"), width=2)
    font, bold = load_font(14), load_font(14, bold=True)
    if seen.command is not None:
        user, user_id, command = seen.command
        face, mask = _avatar(16, AVATAR_COLOURS[(user_id >> 22) % len(AVATAR_COLOURS)], user[:1])
        words = [(user, bold, HEADER), ("used", font, MUTED), (command, font, LINK)]
    else:
        assert seen.reply_to is not None
        name, is_bot, user_id, preview = seen.reply_to
        colour = AVATAR_COLOURS[(user_id >> 22) % len(AVATAR_COLOURS)]
        face, mask = _avatar(16, BOT_AVATAR_BG, None) if is_bot else _avatar(16, colour, name[:1])
        words = [(f"@{name}", bold, MUTED), (drop_missing(preview, False), font, MUTED)]
    image.paste(face, (LEFT, 3), mask)
    x = LEFT + 20.0
    for text, word_font, colour in words:
        while text and x + word_font.getlength(text) > width - RIGHT_GAP:
            text = text[:-2] + "…"
        draw.text((x, 16), text, font=word_font, fill=colour, anchor="ls")
        x += word_font.getlength(text) + 4
    return image


def message_block(
    seen: Seen,
    *,
    width: int,
    first_in_group: bool,
    names: Names,
    viewer_name: str | None,
    emojis: Mapping[int, bytes] | None = None,
    today: str = "Today at",
    language: str = "en",
) -> Image.Image:
    """One message, with its header when it opens a group, highlighted if it mentions the viewer.
    ``today`` is how the client's language says "Today at" before the time ("Hoje às")."""
    version = seen.version
    context = Context(names, seen.sent, emojis or {}, language)
    body_width = width - LEFT - RIGHT_GAP
    parts: list[tuple[Image.Image, int]] = []
    if version.content:
        text = markdown_block(version.content, CONTENT, body_width, context)
        if seen.edited:
            text = _with_edited_mark(text, version.content, body_width, context)
        parts.append((text, 0))
    attachments = {a.filename: a for a in version.attachments}
    in_embeds = set()
    for embed in version.embeds:
        url = str((embed.get("image") or {}).get("url") or "")
        if url.startswith("attachment://"):
            in_embeds.add(url[13:])
        parts.append((embed_block(embed, attachments, body_width, context), 4))
    for attachment in version.attachments:
        if attachment.filename in in_embeds:
            continue
        max_size = (min(ATTACHMENT_MAX[0], body_width), ATTACHMENT_MAX[1])
        picture = attachment_image(attachment, max_size)
        if picture is not None:
            parts.append((picture_block(picture, BACKGROUND, alt=bool(attachment.description)), 6))
        else:
            parts.append((file_block(attachment, body_width), 6))
    components = components_block(version.components, body_width, context.emojis)
    if components is not None:
        parts.append((components, 8))
    if version.flags & 64:
        parts.append((_only_you_line(body_width), 4))

    head: list[Image.Image] = []
    if seen.command is not None or seen.reply_to is not None:
        head.append(_line_above(seen, width))
    if head or first_in_group:
        head.append(_header(seen, width, today))
    top = sum(h.height for h in head)
    body_height = sum(p.height + gap for p, gap in parts) - (parts[0][1] if parts and not head else 0)
    height = top + body_height
    if head:
        height = max(height, top - 22 + 44)  # never shorter than the avatar
    image = Image.new("RGB", (width, 2 + height + 2), BACKGROUND)
    y = 2
    for piece in head:
        image.paste(piece, (0, y))
        y += piece.height
    if head:
        face, mask = (
            _avatar(40, BOT_AVATAR_BG, None)
            if seen.is_bot
            else _avatar(
                40, AVATAR_COLOURS[((seen.author_id or 0) >> 22) % len(AVATAR_COLOURS)], seen.author_name[:1]
            )
        )
        image.paste(face, (16, y - 22 + 2), mask)
    for index, (part, gap) in enumerate(parts):
        y += gap if (index or head) else 0
        image.paste(part, (LEFT, y))
        y += part.height
    if viewer_name is not None and _mentions(version, viewer_name, context):
        image = _highlight(image, HIGHLIGHT_BG)
    return image


def _with_edited_mark(text: Image.Image, content: str, width: int, context: Context) -> Image.Image:
    """Discord's small '(edited)' after the last line, or on a line of its own when that one is full."""
    spans = parse_inline(content, context)
    last_line = wrap_lines(text_pieces(spans, CONTENT), width)[-1] if content.strip() else []
    used = round(sum(p.width for p in last_line))
    font = load_font(10)
    mark = "(editado)" if context.language == "pt-BR" else "(edited)"  # the reader's client's word
    mark_width = round(font.getlength(mark)) + 4
    if used + mark_width <= width:
        draw = ImageDraw.Draw(text)
        draw.text((used + 4, text.height - 6), mark, font=font, fill=MUTED, anchor="ls")
        return text
    extended = Image.new("RGB", (text.width, text.height + 14), BACKGROUND)
    extended.paste(text, (0, 0))
    ImageDraw.Draw(extended).text((0, text.height + 11), mark, font=font, fill=MUTED, anchor="ls")
    return extended


def _mentions(version: MessageVersion, viewer_name: str, context: Context) -> bool:
    texts = [version.content] + [str(e.get("description") or "") for e in version.embeds]
    for match in re.finditer(r"<@!?(\d+)>", "\n".join(texts)):
        if context.name_of(int(match.group(1))) == viewer_name:
            return True
    return False


def _highlight(image: Image.Image, colour: RGB) -> Image.Image:
    """Repaint the message's background in the mention colour, with the gold bar on the left.

    Only pixels of exactly the plain background change; anti-aliased edges keep their blend, which is
    invisible at a 10 % tint."""
    same = ImageChops.difference(image, Image.new("RGB", image.size, BACKGROUND)).convert("L")
    mask = same.point(lambda v: 255 if v == 0 else 0)
    highlighted = image.copy()
    highlighted.paste(colour, (0, 0, image.width, image.height), mask)
    highlighted.paste(HIGHLIGHT_BAR, (0, 0, 2, image.height))
    return highlighted
