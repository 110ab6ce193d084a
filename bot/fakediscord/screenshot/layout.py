"""Laying out styled text: pieces, word wrap, and drawing the lines (emoji stand-ins, chips, italics)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.fakediscord.screenshot.drawing import has_glyph, load_font, rounded
from bot.fakediscord.screenshot.emoji import EMOJI, EMOJI_MODIFIERS, StandIn, custom_emoji, draw_stand_in
from bot.fakediscord.screenshot.markdown import Span, Style
from bot.fakediscord.screenshot.theme import BACKGROUND, DARKEST, EMBED_BACKGROUND, RGB


@dataclass(frozen=True)
class TextStyle:
    """One kind of text block: font size, line height, colour, and the background it sits on."""

    size: int
    line: int
    colour: RGB
    background: RGB
    bold: bool = False


@dataclass
class Piece:
    """An unbreakable run of one style: a word part, a space, an emoji stand-in or a whole chip."""

    text: str
    style: Style
    width: float
    emoji: StandIn | None = None
    space: bool = False


def text_pieces(spans: list[Span], base: TextStyle) -> Iterator[Piece | None]:
    """Pieces in reading order; None is a line break."""
    for span in spans:
        font = load_font(base.size, base.bold or span.style.bold)
        if span.style.picture is not None:
            stand_in = custom_emoji(span.text, span.style.picture)
            yield Piece(span.text, span.style, round(base.size * 1.25) + 2, emoji=stand_in)
            continue
        if span.style.chip or span.style.code:
            text = drop_missing(span.text, base.bold or span.style.bold)
            yield Piece(text, span.style, font.getlength(text) + 8)
            continue
        for token in re.findall(r"\n|[ \t]+|[^\s]+", span.text):
            if token == "\n":
                yield None
            elif token.isspace():
                yield Piece(" ", span.style, font.getlength(" "), space=True)
            else:
                yield from word_pieces(token, span.style, base)


def word_pieces(word: str, style: Style, base: TextStyle) -> Iterator[Piece]:
    font = load_font(base.size, base.bold or style.bold)
    text = ""
    for char in EMOJI_MODIFIERS.sub("", word):
        stand_in = EMOJI.get(char)
        if stand_in is None and has_glyph(char, base.bold or style.bold):
            text += char
            continue
        if text:
            yield Piece(text, style, font.getlength(text))
            text = ""
        if stand_in is not None:
            yield Piece(char, style, round(base.size * 1.25) + 2, emoji=stand_in)
    if text:
        yield Piece(text, style, font.getlength(text))


def drop_missing(text: str, bold: bool) -> str:
    return "".join(c for c in EMOJI_MODIFIERS.sub("", text) if has_glyph(c, bold) or c == " ")


def wrap_lines(pieces: Iterator[Piece | None], width: int) -> list[list[Piece]]:
    """Greedy word wrap: a line breaks at spaces only, unless one word alone is wider than the line."""
    lines: list[list[Piece]] = [[]]
    word: list[Piece] = []

    def line_width(line: list[Piece]) -> float:
        return sum(p.width for p in line)

    def place(word: list[Piece]) -> None:
        if not word:
            return
        if lines[-1] and line_width(lines[-1]) + line_width(word) > width:
            while lines[-1] and lines[-1][-1].space:
                lines[-1].pop()
            lines.append([])
        lines[-1].extend(word)

    for piece in pieces:
        if piece is None:
            place(word)
            word = []
            lines.append([])
        elif piece.space:
            place(word)
            word = []
            if lines[-1]:
                lines[-1].append(piece)
        else:
            word.append(piece)
    place(word)
    while lines and not lines[-1]:
        lines.pop()
    return [line[:-1] if line and line[-1].space else line for line in lines]


def measure_text(spans: list[Span], base: TextStyle, width: int) -> int:
    """The width the text takes when laid out within ``width``."""
    lines = wrap_lines(text_pieces(spans, base), width)
    return max((round(sum(p.width for p in line)) for line in lines), default=0)


def draw_text(spans: list[Span], base: TextStyle, width: int) -> Image.Image:
    """The spans laid out within ``width`` on ``base.background``, cropped to the lines they fill."""
    lines = wrap_lines(text_pieces(spans, base), width)
    image = Image.new("RGB", (max(width, 1), max(len(lines) * base.line, 1)), base.background)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        x, top = 0.0, row * base.line
        for piece in line:
            _draw_piece(image, draw, piece, base, x, top)
            x += piece.width
    return image


def _draw_piece(
    image: Image.Image, draw: ImageDraw.ImageDraw, piece: Piece, base: TextStyle, x: float, top: int
) -> None:
    font = load_font(base.size, base.bold or piece.style.bold)
    ascent, descent = font.getmetrics()
    baseline = top + round((base.line + ascent - descent) / 2)
    colour = piece.style.colour or base.colour
    if piece.emoji is not None:
        draw_stand_in(
            image, piece.emoji, round(x + 1), top + (base.line - (piece.width - 2)) / 2, piece.width - 2
        )
        return
    if piece.space:
        return
    left = round(x)
    if piece.style.chip or piece.style.code:
        chip = piece.style.chip or (DARKEST if base.background != BACKGROUND else EMBED_BACKGROUND)
        box = (left, top + 1, left + round(piece.width) - 1, top + base.line - 1)
        rounded(image, box, 3, chip)
        left += 4
    if piece.style.italic:
        _draw_italic(image, (left, baseline), piece.text, font, colour)
    else:
        draw.text((left, baseline), piece.text, font=font, fill=colour, anchor="ls")
    end = left + round(font.getlength(piece.text))
    if piece.style.strike:
        middle = baseline - round(ascent * 0.32)
        draw.line((left, middle, end, middle), fill=colour, width=1)
    if piece.style.underline:
        draw.line((left, baseline + 2, end, baseline + 2), fill=colour, width=1)


def _draw_italic(
    image: Image.Image, at: tuple[int, int], text: str, font: ImageFont.FreeTypeFont, colour: RGB
) -> None:
    """DejaVu Sans slanted by 12 degrees around the baseline (no italic font is shipped)."""
    ascent, descent = font.getmetrics()
    width, height = round(font.getlength(text)) + 8, ascent + descent
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((2, ascent), text, font=font, fill=255, anchor="ls")
    slant = 0.21
    mask = mask.transform(
        mask.size, Image.Transform.AFFINE, (1, slant, -slant * ascent, 0, 1, 0), Image.Resampling.BICUBIC
    )
    image.paste(colour, (at[0] - 2, at[1] - ascent), mask)
