"""Pictures of what a user sees in Discord, drawn from the fake's messages: the README's screenshots.

    png = render_messages([lobby, (board, board.edits[3])], names={alice.id: "alice"}, title="# games")

Each item is a message as it is now, an earlier version (``message.edits[i]``, shown as the bot's), or a
``(message, version)`` pair: that message (author, command header, time) as it looked in that version.
The look follows Discord's dark theme at 100 % zoom (cozy mode): avatar, name, BOT tag and time; content
with simple markdown, mentions and timestamps; embeds with their colour bar, fields side by side and
images; image attachments; buttons coloured by style; select menus; the "Only you can see this" line.

Rulings, since Discord's own font and colour emoji are not ours to ship:
- Text uses the shipped DejaVu fonts. Common emoji are drawn as coloured stand-ins (a gold star for a
  trophy, a brown disc for a bear, a medal disc with its number); any other character the font lacks is
  dropped, never drawn as a tofu box.
- *Italic* is DejaVu Sans sheared by hand (no italic font is shipped); ``code`` gets Discord's dark chip.
- An embed image ``attachment://name`` shows that attachment inside the embed and not again below it,
  as Discord does. Images other than attachments (URLs) cannot be fetched and are left out.
"""

from __future__ import annotations

import datetime
import functools
import io
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.paths import FONT_BOLD, FONT_REGULAR
from tests.fakediscord.model import FakeAttachment, FakeMessage, MessageVersion

RGB = tuple[int, int, int]
Shown = FakeMessage | MessageVersion | tuple[FakeMessage, MessageVersion]
Names = Mapping[int, str] | Callable[[int], str | None] | None


# Discord's colours for the red, orange, yellow, green, blue, purple, brown, black and white emoji.
_EMOJI_COLOURS = (
    "#dd2e44",
    "#f4900c",
    "#fdcb58",
    "#78b159",
    "#55acee",
    "#aa8ed6",
    "#c1694f",
    "#292f33",
    "#e6e7e8",
)


def _hex(value: str) -> RGB:
    return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``b`` laid over ``a`` at opacity ``t``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# ---- Discord's dark theme -------------------------------------------------------------------------------
BACKGROUND = _hex("#313338")
EMBED_BACKGROUND = _hex("#2b2d31")
DARKEST = _hex("#1e1f22")
TEXT = _hex("#dbdee1")
HEADER = _hex("#f2f3f5")
MUTED = _hex("#949ba4")
LINK = _hex("#00a8fc")
BLURPLE = _hex("#5865f2")
MENTION_TEXT = _hex("#c9cdfb")
MENTION_BG = _mix(BACKGROUND, BLURPLE, 0.3)
HIGHLIGHT_BG = _mix(BACKGROUND, _hex("#f0b232"), 0.1)
HIGHLIGHT_BAR = _hex("#f0b232")
CHANNEL_BAR_LINE = _hex("#26282c")
BUTTON_COLOURS: dict[int, RGB] = {
    1: BLURPLE,  # primary
    2: _hex("#4e5058"),  # secondary
    3: _hex("#248046"),  # success
    4: _hex("#da373c"),  # danger
    5: _hex("#4e5058"),  # link
    6: BLURPLE,  # premium
}
#: Discord's default avatar colours, chosen by user id.
AVATAR_COLOURS = [_hex(c) for c in ("#5865f2", "#757e8a", "#3ba55c", "#faa61a", "#ed4245", "#eb459f")]

LEFT = 72  # where message text starts, right of the avatar
RIGHT_GAP = 48  # Discord keeps this clear for the hover toolbar
EMBED_MAX = 520
ATTACHMENT_MAX = (520, 400)
BOT_AVATAR_BG = _hex("#c0392b")


@functools.cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    path = FONT_BOLD if bold else FONT_REGULAR
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _has_glyph(char: str, bold: bool = False) -> bool:
    """Whether DejaVu draws ``char`` itself, rather than its .notdef box (the "tofu")."""
    font = _font(16, bold)
    if font.getlength(char) == 0:
        return False  # variation selectors, joiners: nothing to draw
    tofu = font.getmask("\U0010fffd")
    mask = font.getmask(char)
    return not (mask.size == tofu.size and bytes(mask) == bytes(tofu))


# ---- emoji stand-ins --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StandIn:
    """How one emoji is drawn: ``glyph`` in ``colour``; with ``disc`` set, on a disc (or ``square``)."""

    glyph: str = ""
    colour: RGB = HEADER
    disc: RGB | None = None
    square: bool = False


GOLD, SILVER, BRONZE = _hex("#f1c40f"), _hex("#c0c4cc"), _hex("#cd7f32")
DARK_TEXT = _hex("#23272a")
EMOJI: dict[str, StandIn] = (
    {
        "🏁": StandIn("⚑", HEADER),
        "🚩": StandIn("⚑", _hex("#ed4245")),
        "🏆": StandIn("★", GOLD),
        "⭐": StandIn("★", GOLD),
        "🌟": StandIn("★", GOLD),
        "✨": StandIn("✦", GOLD),
        "🎉": StandIn("✦", _hex("#f9a62b")),
        "🎊": StandIn("✦", _hex("#eb459f")),
        "🏇": StandIn("♞", _hex("#c58f5e")),
        "🐎": StandIn("♞", _hex("#c58f5e")),
        "🐴": StandIn("♞", _hex("#c58f5e")),
        "🐻": StandIn(disc=_hex("#8d5a34")),
        "🌭": StandIn(disc=_hex("#e0533c")),
        "🐟": StandIn(disc=_hex("#3498db")),
        "🐠": StandIn(disc=_hex("#3498db")),
        "👑": StandIn("♛", GOLD),
        "🥇": StandIn("1", DARK_TEXT, GOLD),
        "🥈": StandIn("2", DARK_TEXT, SILVER),
        "🥉": StandIn("3", DARK_TEXT, BRONZE),
        "✅": StandIn("✔", HEADER, _hex("#3ba55c"), square=True),
        "☑": StandIn("✔", HEADER, _hex("#5865f2"), square=True),
        "❌": StandIn("✖", _hex("#ed4245")),
        "❎": StandIn("✖", HEADER, _hex("#3ba55c"), square=True),
        "✖": StandIn("✖", TEXT),
        "⚠": StandIn("⚠", _hex("#faa61a")),
        "❗": StandIn("!", _hex("#ed4245")),
        "❓": StandIn("?", _hex("#ed4245")),
        "🎲": StandIn("⚄", HEADER),
        "💰": StandIn("$", _hex("#f1c40f")),
        "💵": StandIn("$", _hex("#3ba55c")),
        "💸": StandIn("$", _hex("#3ba55c")),
        "➡": StandIn("→", HEADER),
        "⏳": StandIn("⧗", _hex("#faa61a")),
        "⌛": StandIn("⧗", _hex("#faa61a")),
        "⏰": StandIn("◷", _hex("#ed4245")),
        "⏱": StandIn("◷", HEADER),
        "🕒": StandIn("◷", HEADER),
        "🔥": StandIn("♨", _hex("#f57731")),
        "🚫": StandIn("⊘", _hex("#ed4245")),
        "👀": StandIn("◉", HEADER),
        "🃏": StandIn("🃏", HEADER),
    }
    | {
        # Die faces are in DejaVu, but at text size their pips are too small to count: draw them emoji-sized.
        face: StandIn(face, HEADER)
        for face in "⚀⚁⚂⚃⚄⚅"
    }
    | {
        square: StandIn(disc=_hex(colour), square=True)
        for square, colour in zip(
            "🟥🟧🟨🟩🟦🟪🟫⬛⬜",
            _EMOJI_COLOURS,
            strict=True,
        )
    }
    | {
        disc: StandIn(disc=_hex(colour))
        for disc, colour in zip(
            "🔴🟠🟡🟢🔵🟣🟤⚫⚪",
            _EMOJI_COLOURS,
            strict=True,
        )
    }
)
#: Characters that only modify an emoji (variation selectors, joiner, skin tones, keycap).
EMOJI_MODIFIERS = re.compile("[\ufe0e\ufe0f\u200d\u20e3\U0001f3fb-\U0001f3ff]")


# ---- inline markdown -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    underline: bool = False
    colour: RGB | None = None
    chip: RGB | None = None  # a mention or timestamp: one unbreakable piece on a tinted background


@dataclass(frozen=True)
class Span:
    text: str
    style: Style


# The bold and italic patterns are simple-markdown's (Discord's parser): an italic may hold a bold pair.
INLINE = re.compile(
    r"(?P<code>`+)(?P<code_text>.+?)(?P=code)"
    r"|\*\*(?P<bold>.+?)\*\*(?!\*)"
    r"|__(?P<underline>.+?)__"
    r"|~~(?P<strike>.+?)~~"
    r"|\*(?=\S)(?P<italic>(?:\*\*|\s+(?:[^\s*]|\*\*)|[^\s*])+?)\*(?!\*)"
    r"|(?<!\w)_(?P<italic2>[^_\s](?:.*?[^_\s])?)_(?!\w)"
    r"|<@!?(?P<user>\d+)>|<@&(?P<role>\d+)>|<#(?P<channel>\d+)>"
    r"|<t:(?P<time>-?\d+)(?::(?P<time_style>[tTdDfFR]))?>"
    r"|<a?:(?P<emoji_name>\w+):\d+>"
    r"|\[(?P<link_text>[^\]]+)\]\((?P<link_url>[^)\s]+)\)"
    r"|(?P<url>https?://[^\s<>]+)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Context:
    """What inline markdown needs to know: who the ids are, and when the message was sent."""

    names: Names
    sent: datetime.datetime

    def name_of(self, snowflake: int) -> str | None:
        if self.names is None:
            return None
        if callable(self.names):
            return self.names(snowflake)
        return self.names.get(snowflake)


def parse_inline(text: str, context: Context, style: Style = Style()) -> list[Span]:
    """Discord's inline markdown as styled spans (nesting allowed, code spans taken literally)."""
    spans: list[Span] = []
    position = 0
    for match in INLINE.finditer(text):
        if match.start() > position:
            spans.append(Span(text[position : match.start()], style))
        position = match.end()
        groups = match.groupdict()
        if groups["code_text"] is not None:
            spans.append(Span(groups["code_text"], replace(style, code=True)))
        elif groups["bold"] is not None:
            spans += parse_inline(groups["bold"], context, replace(style, bold=True))
        elif groups["underline"] is not None:
            spans += parse_inline(groups["underline"], context, replace(style, underline=True))
        elif groups["strike"] is not None:
            spans += parse_inline(groups["strike"], context, replace(style, strike=True))
        elif groups["italic"] is not None or groups["italic2"] is not None:
            inner = groups["italic"] if groups["italic"] is not None else groups["italic2"]
            spans += parse_inline(inner, context, replace(style, italic=True))
        elif groups["user"] is not None or groups["role"] is not None:
            name = context.name_of(int(groups["user"] or groups["role"])) or "unknown-user"
            spans.append(Span(f"@{name}", replace(style, colour=MENTION_TEXT, chip=MENTION_BG)))
        elif groups["channel"] is not None:
            name = context.name_of(int(groups["channel"])) or "unknown"
            spans.append(Span(f"#{name}", replace(style, colour=MENTION_TEXT, chip=MENTION_BG)))
        elif groups["time"] is not None:
            shown = format_timestamp(int(groups["time"]), groups["time_style"] or "f", context.sent)
            spans.append(Span(shown, replace(style, chip=_mix(BACKGROUND, (255, 255, 255), 0.06))))
        elif groups["emoji_name"] is not None:
            spans.append(Span(f":{groups['emoji_name']}:", style))
        elif groups["link_text"] is not None:
            spans += parse_inline(groups["link_text"], context, replace(style, colour=LINK))
        else:
            assert groups["url"] is not None
            spans.append(Span(groups["url"], replace(style, colour=LINK)))
    if position < len(text):
        spans.append(Span(text[position:], style))
    return spans


def format_timestamp(seconds: int, style: str, sent: datetime.datetime) -> str:
    """``<t:...>`` as Discord shows it; relative ones are relative to when the message was sent."""
    when = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    if style == "R":
        delta = (when - sent).total_seconds()
        amount = abs(delta)
        for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
            if amount >= size or unit == "second":
                count = round(amount / size)
                words = f"{count} {unit}{'' if count == 1 else 's'}"
                return f"in {words}" if delta >= 0 else f"{words} ago"
    formats = {
        "t": "%H:%M",
        "T": "%H:%M:%S",
        "d": "%d/%m/%Y",
        "D": "{day} %B %Y",
        "f": "{day} %B %Y %H:%M",
        "F": "%A, {day} %B %Y %H:%M",
    }
    return when.strftime(formats.get(style, formats["f"])).format(day=when.day)  # %-d is not portable


# ---- laying out and drawing text --------------------------------------------------------------------------
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


def _pieces(spans: list[Span], base: TextStyle) -> Iterator[Piece | None]:
    """Pieces in reading order; None is a line break."""
    for span in spans:
        font = _font(base.size, base.bold or span.style.bold)
        if span.style.chip or span.style.code:
            text = _drop_missing(span.text, base.bold or span.style.bold)
            yield Piece(text, span.style, font.getlength(text) + 8)
            continue
        for token in re.findall(r"\n|[ \t]+|[^\s]+", span.text):
            if token == "\n":
                yield None
            elif token.isspace():
                yield Piece(" ", span.style, font.getlength(" "), space=True)
            else:
                yield from _word_pieces(token, span.style, base)


def _word_pieces(word: str, style: Style, base: TextStyle) -> Iterator[Piece]:
    font = _font(base.size, base.bold or style.bold)
    text = ""
    for char in EMOJI_MODIFIERS.sub("", word):
        stand_in = EMOJI.get(char)
        if stand_in is None and _has_glyph(char, base.bold or style.bold):
            text += char
            continue
        if text:
            yield Piece(text, style, font.getlength(text))
            text = ""
        if stand_in is not None:
            yield Piece(char, style, round(base.size * 1.25) + 2, emoji=stand_in)
    if text:
        yield Piece(text, style, font.getlength(text))


def _drop_missing(text: str, bold: bool) -> str:
    return "".join(c for c in EMOJI_MODIFIERS.sub("", text) if _has_glyph(c, bold) or c == " ")


def _lines(pieces: Iterator[Piece | None], width: int) -> list[list[Piece]]:
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
    lines = _lines(_pieces(spans, base), width)
    return max((round(sum(p.width for p in line)) for line in lines), default=0)


def draw_text(spans: list[Span], base: TextStyle, width: int) -> Image.Image:
    """The spans laid out within ``width`` on ``base.background``, cropped to the lines they fill."""
    lines = _lines(_pieces(spans, base), width)
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
    font = _font(base.size, base.bold or piece.style.bold)
    ascent, descent = font.getmetrics()
    baseline = top + round((base.line + ascent - descent) / 2)
    colour = piece.style.colour or base.colour
    if piece.emoji is not None:
        _draw_stand_in(
            image, piece.emoji, round(x + 1), top + (base.line - (piece.width - 2)) / 2, piece.width - 2
        )
        return
    if piece.space:
        return
    left = round(x)
    if piece.style.chip or piece.style.code:
        chip = piece.style.chip or (DARKEST if base.background != BACKGROUND else EMBED_BACKGROUND)
        box = (left, top + 1, left + round(piece.width) - 1, top + base.line - 1)
        _rounded(image, box, 3, chip)
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


def _draw_stand_in(image: Image.Image, emoji: StandIn, x: int, top: float, size: float) -> None:
    box = (x, round(top), x + round(size), round(top + size))
    if emoji.disc is not None:
        inset = 1 if emoji.square else 0
        inner = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        _rounded(image, inner, round(size * 0.2) if emoji.square else round(size / 2), emoji.disc)
    if emoji.glyph:
        scale = 0.62 if emoji.disc is not None else 0.95
        font = _font(max(8, round(size * scale)), bold=emoji.disc is not None)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + (1 if emoji.disc is not None else 0))
        ImageDraw.Draw(image).text(centre, emoji.glyph, font=font, fill=emoji.colour, anchor="mm")


def _rounded(image: Image.Image, box: tuple[float, float, float, float], radius: int, fill: RGB) -> None:
    """A rounded rectangle with smooth edges (drawn 4x larger, then scaled down as a mask)."""
    left, top, right, bottom = (round(v) for v in box)
    width, height = right - left, bottom - top
    if width <= 0 or height <= 0:
        return
    scale = 4
    mask = Image.new("L", (width * scale, height * scale), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, width * scale - 1, height * scale - 1), radius=radius * scale, fill=255
    )
    image.paste(fill, (left, top, right, bottom), mask.resize((width, height), Image.Resampling.LANCZOS))


# ---- blocks: markdown lines, embeds, attachments, components ----------------------------------------------
CONTENT = TextStyle(16, 22, TEXT, BACKGROUND)


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
            block.paste(_hex("#4e5058"), (0, 0, 4, inner.height))
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
                (6, base.line // 2), "•", font=_font(base.size), fill=base.colour, anchor="lm"
            )
            block.paste(inner, (22, 0))
            parts.append(block)
        else:
            paragraph.append(line)
        index += 1
    flush()
    return _stack(parts, width, base.background, gap=0)


def _code_block(code: str, base: TextStyle, width: int) -> Image.Image:
    inner = draw_text(
        [Span(code, Style())], replace(base, size=base.size - 2, background=EMBED_BACKGROUND), width - 18
    )
    block = Image.new("RGB", (width, inner.height + 18), base.background)
    _rounded(block, (0, 1, width, inner.height + 17), 4, DARKEST)
    _rounded(block, (1, 2, width - 1, inner.height + 16), 4, EMBED_BACKGROUND)
    block.paste(inner, (9, 9))
    return block


def _stack(parts: Sequence[Image.Image], width: int, background: RGB, gap: int) -> Image.Image:
    height = sum(p.height for p in parts) + gap * max(len(parts) - 1, 0)
    image = Image.new("RGB", (width, max(height, 1)), background)
    y = 0
    for part in parts:
        image.paste(part, (0, y))
        y += part.height + gap
    return image


def _attachment_image(attachment: FakeAttachment, max_size: tuple[int, int]) -> Image.Image | None:
    """The attachment as a picture scaled to fit ``max_size``, or None if it is not a picture."""
    is_picture = (attachment.content_type or "").startswith("image/") or attachment.filename.lower().endswith(
        (".png", ".jpg", ".jpeg", ".gif", ".webp")
    )
    if not is_picture:
        return None
    try:
        picture = Image.open(io.BytesIO(attachment.data))
        picture.load()
    except (OSError, SyntaxError):
        return None
    picture = picture.convert("RGB")
    scale = min(max_size[0] / picture.width, max_size[1] / picture.height, 1.0)
    size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
    return picture.resize(size, Image.Resampling.LANCZOS) if size != picture.size else picture


def _picture_block(picture: Image.Image, background: RGB, alt: bool) -> Image.Image:
    """A picture with Discord's rounded corners, and the ALT badge when it has a description."""
    block = Image.new("RGB", picture.size, background)
    mask = Image.new("L", (picture.width * 4, picture.height * 4), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), radius=32, fill=255)
    block.paste(picture, (0, 0), mask.resize(picture.size, Image.Resampling.LANCZOS))
    if alt:
        font = _font(10, bold=True)
        badge = Image.new("RGB", (30, 18), _hex("#111214"))
        ImageDraw.Draw(badge).text((15, 9), "ALT", font=font, fill=HEADER, anchor="mm")
        box = (6, picture.height - 24)
        region = block.crop((box[0], box[1], box[0] + 30, box[1] + 18))
        shade = Image.new("L", (30 * 4, 18 * 4), 0)
        ImageDraw.Draw(shade).rounded_rectangle((0, 0, 119, 71), radius=12, fill=220)
        block.paste(Image.composite(badge, region, shade.resize((30, 18), Image.Resampling.LANCZOS)), box)
    return block


def _file_block(attachment: FakeAttachment, width: int) -> Image.Image:
    """A non-picture attachment: Discord's file box with name and size."""
    width = min(width, 432)
    block = Image.new("RGB", (width, 66), BACKGROUND)
    _rounded(block, (0, 0, width, 66), 8, DARKEST)
    _rounded(block, (1, 1, width - 1, 65), 8, EMBED_BACKGROUND)
    draw = ImageDraw.Draw(block)
    draw.rectangle((16, 17, 38, 47), fill=_hex("#b5bac1"))
    draw.polygon([(31, 17), (38, 24), (31, 24)], fill=EMBED_BACKGROUND)
    draw.text((50, 30), attachment.filename, font=_font(16), fill=LINK, anchor="ls")
    size = f"{attachment.size / 1024:.2f} KB" if attachment.size >= 1024 else f"{attachment.size} bytes"
    draw.text((50, 48), size, font=_font(12), fill=MUTED, anchor="ls")
    return block


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
        picture = _attachment_image(attachment, (limit, 300))
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
        parts.append((_picture_block(picture, EMBED_BACKGROUND, alt=False), 16))
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
    _rounded(block, (0, 0, width, height), 4, bar)
    _rounded(block, (4, 0, width, height), 4, EMBED_BACKGROUND)
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


def components_block(components: list[dict[str, Any]], width: int) -> Image.Image | None:
    """Action rows of buttons and select menus, 8 px apart, as Discord lays them out."""
    rows = []
    for row in components:
        children = row.get("components", []) if row.get("type") == 1 else [row]
        items = [c for c in children if c.get("type") in (2, 3, 5, 6, 7, 8)]
        if not items:
            continue
        if items[0].get("type") == 2:
            rows.append(_button_row(items, width))
        else:
            rows.append(_select(items[0], width))
    return _stack(rows, width, BACKGROUND, gap=8) if rows else None


def _button_row(buttons: list[dict[str, Any]], width: int) -> Image.Image:
    font = _font(14, bold=True)
    drawn = []
    for button in buttons:
        label = _drop_missing(str(button.get("label") or ""), bold=True)
        emoji_name = str((button.get("emoji") or {}).get("name") or "")
        emoji_pieces = [
            p for p in _word_pieces(emoji_name, Style(), TextStyle(14, 32, HEADER, BACKGROUND)) if p
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
            fill, text_colour = _mix(BACKGROUND, fill, 0.5), _mix(BACKGROUND, HEADER, 0.5)
        _rounded(image, (0, 0, button_width, 32), 4, fill)
        x = (button_width - content) / 2
        for piece in emoji_pieces:
            if piece.emoji is not None:
                _draw_stand_in(image, piece.emoji, round(x + 1), 16 - (piece.width - 2) / 2, piece.width - 2)
            else:
                ImageDraw.Draw(image).text((x, 21), piece.text, font=_font(14), fill=text_colour, anchor="ls")
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
    return _stack(lines, width, BACKGROUND, gap=8)


def _select(menu: dict[str, Any], width: int) -> Image.Image:
    box_width = min(width, 400)
    image = Image.new("RGB", (width, 40), BACKGROUND)
    _rounded(image, (0, 0, box_width, 40), 4, DARKEST)
    chosen = [str(o.get("label", "")) for o in menu.get("options", []) if o.get("default")]
    text = ", ".join(chosen) if chosen else str(menu.get("placeholder") or "Make a selection")
    colour = TEXT if chosen else MUTED
    if menu.get("disabled"):
        colour = _mix(DARKEST, colour, 0.5)
    pieces = list(_word_pieces(text.replace(" ", "\u00a0"), Style(), TextStyle(16, 40, colour, DARKEST)))
    x = 12.0
    draw = ImageDraw.Draw(image)
    for piece in pieces:
        if x + piece.width > box_width - 40:
            break
        if piece.emoji is not None:
            _draw_stand_in(image, piece.emoji, round(x + 1), 20 - (piece.width - 2) / 2, piece.width - 2)
        else:
            draw.text((x, 26), piece.text.replace("\u00a0", " "), font=_font(16), fill=colour, anchor="ls")
        x += piece.width
    chevron_x, chevron_y = box_width - 22, 17
    draw.line(
        [(chevron_x - 6, chevron_y), (chevron_x, chevron_y + 6), (chevron_x + 6, chevron_y)],
        fill=_hex("#b5bac1"),
        width=2,
        joint="curve",
    )
    return image


def _only_you_line(width: int) -> Image.Image:
    image = Image.new("RGB", (width, 22), BACKGROUND)
    draw = ImageDraw.Draw(image)
    # An eye: the icon Discord puts before this line.
    draw.ellipse((0, 6, 15, 16), outline=MUTED, width=2)
    draw.ellipse((5, 8, 10, 13), fill=MUTED)
    font = _font(12)
    draw.text((22, 16), "Only you can see this • ", font=font, fill=MUTED, anchor="ls")
    draw.text(
        (22 + font.getlength("Only you can see this • "), 16),
        "Dismiss message",
        font=font,
        fill=LINK,
        anchor="ls",
    )
    return image


# ---- messages ------------------------------------------------------------------------------------------
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


def _seen(item: Shown, bot_name: str) -> Seen:
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
            font=_font(round(size * 0.5), bold=True),
            fill=HEADER,
            anchor="mm",
        )
    return face, mask


def _header(seen: Seen, width: int) -> Image.Image:
    height = 22
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    name_font = _font(16, bold=True)
    draw.text((LEFT, 17), seen.author_name, font=name_font, fill=HEADER, anchor="ls")
    x = LEFT + name_font.getlength(seen.author_name) + 6
    if seen.is_bot:
        _rounded(image, (x, 3, x + 30, 18), 3, BLURPLE)
        draw.text((x + 15, 11), "BOT", font=_font(10, bold=True), fill=(255, 255, 255), anchor="mm")
        x += 36
    draw.text((x, 16), f"Today at {seen.sent:%H:%M}", font=_font(12), fill=MUTED, anchor="ls")
    return image


def _line_above(seen: Seen, width: int) -> Image.Image:
    """The line above a reply, with Discord's curved spine: 'alice used /hotstreak start' for a slash
    command, or the quoted first line of the message whose button or menu was used."""
    image = Image.new("RGB", (width, 22), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.arc((36, 9, 36 + 40, 9 + 30), 180, 270, fill=_hex("#4e5058"), width=2)
    font, bold = _font(14), _font(14, bold=True)
    if seen.command is not None:
        user, user_id, command = seen.command
        face, mask = _avatar(16, AVATAR_COLOURS[(user_id >> 22) % len(AVATAR_COLOURS)], user[:1])
        words = [(user, bold, HEADER), ("used", font, MUTED), (command, font, LINK)]
    else:
        assert seen.reply_to is not None
        name, is_bot, user_id, preview = seen.reply_to
        colour = AVATAR_COLOURS[(user_id >> 22) % len(AVATAR_COLOURS)]
        face, mask = _avatar(16, BOT_AVATAR_BG, None) if is_bot else _avatar(16, colour, name[:1])
        words = [(f"@{name}", bold, MUTED), (_drop_missing(preview, False), font, MUTED)]
    image.paste(face, (LEFT, 3), mask)
    x = LEFT + 20.0
    for text, word_font, colour in words:
        while text and x + word_font.getlength(text) > width - RIGHT_GAP:
            text = text[:-2] + "…"
        draw.text((x, 16), text, font=word_font, fill=colour, anchor="ls")
        x += word_font.getlength(text) + 4
    return image


def message_block(
    seen: Seen, *, width: int, first_in_group: bool, names: Names, viewer_name: str | None
) -> Image.Image:
    """One message, with its header when it opens a group, highlighted if it mentions the viewer."""
    version = seen.version
    context = Context(names, seen.sent)
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
        picture = _attachment_image(attachment, max_size)
        if picture is not None:
            parts.append((_picture_block(picture, BACKGROUND, alt=bool(attachment.description)), 6))
        else:
            parts.append((_file_block(attachment, body_width), 6))
    components = components_block(version.components, body_width)
    if components is not None:
        parts.append((components, 8))
    if version.flags & 64:
        parts.append((_only_you_line(body_width), 4))

    head: list[Image.Image] = []
    if seen.command is not None or seen.reply_to is not None:
        head.append(_line_above(seen, width))
    if head or first_in_group:
        head.append(_header(seen, width))
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
    last_line = _lines(_pieces(spans, CONTENT), width)[-1] if content.strip() else []
    used = round(sum(p.width for p in last_line))
    font = _font(10)
    mark_width = round(font.getlength("(edited)")) + 4
    if used + mark_width <= width:
        draw = ImageDraw.Draw(text)
        draw.text((used + 4, text.height - 6), "(edited)", font=font, fill=MUTED, anchor="ls")
        return text
    extended = Image.new("RGB", (text.width, text.height + 14), BACKGROUND)
    extended.paste(text, (0, 0))
    ImageDraw.Draw(extended).text((0, text.height + 11), "(edited)", font=font, fill=MUTED, anchor="ls")
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


def _title_bar(title: str, width: int) -> Image.Image:
    image = Image.new("RGB", (width, 49), BACKGROUND)
    draw = ImageDraw.Draw(image)
    symbol, _, name = title.partition(" ")
    draw.text((16, 31), symbol, font=_font(22), fill=_hex("#80848e"), anchor="ls")
    draw.text(
        (16 + _font(22).getlength(symbol) + 8, 30), name, font=_font(16, bold=True), fill=HEADER, anchor="ls"
    )
    draw.line((0, 48, width, 48), fill=CHANNEL_BAR_LINE, width=1)
    return image


def render_messages(
    messages: Sequence[Shown],
    *,
    viewer_name: str | None = None,
    width: int = 900,
    names: Names = None,
    bot_name: str = "Racing Bot",
    title: str | None = None,
) -> bytes:
    """The messages as one PNG, top to bottom, the way Discord's dark theme shows them.

    ``names`` turns ``<@id>`` (and ``<#id>``, ``<@&id>``) into names, as a dict or a function.
    ``viewer_name`` is who is looking: messages mentioning them get Discord's gold highlight.
    ``title`` ("# games", "@ Racing Bot") draws the channel's header bar above the messages.
    Consecutive messages from one author share one header, as in Discord.
    """
    blocks: list[Image.Image] = []
    if title:
        blocks.append(_title_bar(title, width))
    previous: Seen | None = None
    for item in messages:
        seen = _seen(item, bot_name)
        first = (
            previous is None
            or previous.author_name != seen.author_name
            or seen.command is not None
            or seen.reply_to is not None
        )
        if first and blocks:
            blocks.append(Image.new("RGB", (width, 12), BACKGROUND))
        blocks.append(
            message_block(seen, width=width, first_in_group=first, names=names, viewer_name=viewer_name)
        )
        previous = seen
    image = _stack(
        [Image.new("RGB", (width, 8), BACKGROUND), *blocks, Image.new("RGB", (width, 16), BACKGROUND)],
        width,
        BACKGROUND,
        gap=0,
    )
    return _png(image)


#: README pictures stay below this size; bigger ones are reduced to a 256-colour palette.
PNG_BUDGET = 300_000


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    if out.tell() <= PNG_BUDGET:
        return out.getvalue()
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, "PNG", optimize=True
    )
    return out.getvalue()
