"""Action rows: buttons coloured by style (wrapping like Discord's) and select menus."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.fakediscord.screenshot.drawing import load_font, rounded, stack
from bot.fakediscord.screenshot.emoji import custom_emoji, draw_stand_in
from bot.fakediscord.screenshot.layout import Piece, TextStyle, drop_missing, word_pieces
from bot.fakediscord.screenshot.markdown import Style
from bot.fakediscord.screenshot.theme import (
    BACKGROUND,
    BUTTON_COLOURS,
    DARKEST,
    HEADER,
    MUTED,
    TEXT,
    hex_rgb,
    mix,
)


def components_block(
    components: list[dict[str, Any]], width: int, emojis: Mapping[int, bytes] | None = None
) -> Image.Image | None:
    """Action rows of buttons and select menus, 8 px apart, as Discord lays them out."""
    rows = []
    for row in components:
        children = row.get("components", []) if row.get("type") == 1 else [row]
        items = [c for c in children if c.get("type") in (2, 3, 5, 6, 7, 8)]
        if not items:
            continue
        if items[0].get("type") == 2:
            rows.append(_button_row(items, width, emojis or {}))
        else:
            rows.append(_select(items[0], width))
    return stack(rows, width, BACKGROUND, gap=8) if rows else None


def _button_row(buttons: list[dict[str, Any]], width: int, emojis: Mapping[int, bytes]) -> Image.Image:
    font = load_font(14, bold=True)
    drawn = []
    for button in buttons:
        label = drop_missing(str(button.get("label") or ""), bold=True)
        emoji = button.get("emoji") or {}
        emoji_name = str(emoji.get("name") or "")
        picture = emojis.get(int(emoji["id"])) if emoji.get("id") else None
        if picture is not None:
            emoji_pieces = [Piece(emoji_name, Style(), 20, emoji=custom_emoji(emoji_name, picture))]
        else:
            emoji_pieces = [
                p for p in word_pieces(emoji_name, Style(), TextStyle(14, 32, HEADER, BACKGROUND)) if p
            ]
        emoji_width = sum(p.width for p in emoji_pieces)
        style = int(button.get("style", 1))
        link_icon = style == 5
        content = (
            emoji_width
            + (6 if emoji_width and label else 0)
            + font.getlength(label)
            + (16 if link_icon else 0)
        )
        button_width = max(round(content) + 32, 60)
        image = Image.new("RGB", (button_width, 32), BACKGROUND)
        fill = BUTTON_COLOURS.get(style, BUTTON_COLOURS[2])
        text_colour = HEADER
        if button.get("disabled"):
            fill, text_colour = mix(BACKGROUND, fill, 0.5), mix(BACKGROUND, HEADER, 0.5)
        rounded(image, (0, 0, button_width, 32), 4, fill)
        x = (button_width - content) / 2
        for piece in emoji_pieces:
            if piece.emoji is not None:
                draw_stand_in(image, piece.emoji, round(x + 1), 16 - (piece.width - 2) / 2, piece.width - 2)
            else:
                ImageDraw.Draw(image).text(
                    (x, 21), piece.text, font=load_font(14), fill=text_colour, anchor="ls"
                )
            x += piece.width
        if emoji_width and label:
            x += 6
        ImageDraw.Draw(image).text((x, 21), label, font=font, fill=text_colour, anchor="ls")
        if link_icon:
            ImageDraw.Draw(image).text(
                (x + font.getlength(label) + 6, 21), "↗", font=font, fill=text_colour, anchor="ls"
            )
        drawn.append(image)
    rows: list[list[Image.Image]] = [[]]
    for image in drawn:  # Discord keeps a row on one line; a narrow picture wraps rather than clips
        if rows[-1] and sum(i.width + 8 for i in rows[-1]) + image.width > width:
            rows.append([])
        rows[-1].append(image)
    lines = []
    for row in rows:
        line = Image.new("RGB", (width, 32), BACKGROUND)
        x = 0
        for image in row:
            line.paste(image, (x, 0))
            x += image.width + 8
        lines.append(line)
    return stack(lines, width, BACKGROUND, gap=8)


def _select(menu: dict[str, Any], width: int) -> Image.Image:
    box_width = min(width, 400)
    image = Image.new("RGB", (width, 40), BACKGROUND)
    rounded(image, (0, 0, box_width, 40), 4, DARKEST)
    chosen = [str(o.get("label", "")) for o in menu.get("options", []) if o.get("default")]
    text = ", ".join(chosen) if chosen else str(menu.get("placeholder") or "Make a selection")
    colour = TEXT if chosen else MUTED
    if menu.get("disabled"):
        colour = mix(DARKEST, colour, 0.5)
    pieces = list(word_pieces(text.replace(" ", "\u00a0"), Style(), TextStyle(16, 40, colour, DARKEST)))
    x = 12.0
    draw = ImageDraw.Draw(image)
    for piece in pieces:
        if x + piece.width > box_width - 40:
            break
        if piece.emoji is not None:
            draw_stand_in(image, piece.emoji, round(x + 1), 20 - (piece.width - 2) / 2, piece.width - 2)
        else:
            draw.text(
                (x, 26), piece.text.replace("\u00a0", " "), font=load_font(16), fill=colour, anchor="ls"
            )
        x += piece.width
    chevron_x, chevron_y = box_width - 22, 17
    draw.line(
        [(chevron_x - 6, chevron_y), (chevron_x, chevron_y + 6), (chevron_x + 6, chevron_y)],
        fill=hex_rgb("#b5bac1"),
        width=2,
        joint="curve",
    )
    return image
