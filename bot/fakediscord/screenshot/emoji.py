"""Emoji stand-ins: how common emoji are drawn, since Discord's colour emoji are not ours to ship."""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.fakediscord.screenshot.drawing import load_font, rounded
from bot.fakediscord.screenshot.theme import HEADER, RGB, TEXT, hex_rgb

# Discord's colours for the red, orange, yellow, green, blue, purple, brown, black and white emoji.
EMOJI_COLOURS = (
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


@dataclass(frozen=True)
class StandIn:
    """How one emoji is drawn: ``glyph`` in ``colour``; with ``disc`` set, on a disc (or ``square``).
    A custom emoji carries its uploaded ``picture`` (image bytes), drawn instead when it decodes."""

    glyph: str = ""
    colour: RGB = HEADER
    disc: RGB | None = None
    square: bool = False
    picture: bytes | None = None


def custom_emoji(name: str, picture: bytes) -> StandIn:
    """A custom emoji: its picture, or if that cannot be read, its initial on a grey tile."""
    return StandIn(name[:1].upper(), HEADER, hex_rgb("#4e5058"), square=True, picture=picture)


@functools.lru_cache(maxsize=256)
def _decoded(picture: bytes, size: int) -> Image.Image | None:
    try:
        decoded = Image.open(io.BytesIO(picture))
        decoded.load()
    except (OSError, SyntaxError, ValueError):
        return None
    return decoded.convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)


GOLD, SILVER, BRONZE = hex_rgb("#f1c40f"), hex_rgb("#c0c4cc"), hex_rgb("#cd7f32")
DARK_TEXT = hex_rgb("#23272a")
EMOJI: dict[str, StandIn] = (
    {
        "🏁": StandIn("⚑", HEADER),
        "🚩": StandIn("⚑", hex_rgb("#ed4245")),
        "🏆": StandIn("★", GOLD),
        "⭐": StandIn("★", GOLD),
        "🌟": StandIn("★", GOLD),
        "✨": StandIn("✦", GOLD),
        "🎉": StandIn("✦", hex_rgb("#f9a62b")),
        "🎊": StandIn("✦", hex_rgb("#eb459f")),
        "🏇": StandIn("♞", hex_rgb("#c58f5e")),
        "🐎": StandIn("♞", hex_rgb("#c58f5e")),
        "🐴": StandIn("♞", hex_rgb("#c58f5e")),
        "🐻": StandIn(disc=hex_rgb("#8d5a34")),
        "🌭": StandIn(disc=hex_rgb("#e0533c")),
        "🐟": StandIn(disc=hex_rgb("#3498db")),
        "🐠": StandIn(disc=hex_rgb("#3498db")),
        "👑": StandIn("♛", GOLD),
        "🥇": StandIn("1", DARK_TEXT, GOLD),
        "🥈": StandIn("2", DARK_TEXT, SILVER),
        "🥉": StandIn("3", DARK_TEXT, BRONZE),
        "✅": StandIn("✔", HEADER, hex_rgb("#3ba55c"), square=True),
        "☑": StandIn("✔", HEADER, hex_rgb("#5865f2"), square=True),
        "❌": StandIn("✖", hex_rgb("#ed4245")),
        "❎": StandIn("✖", HEADER, hex_rgb("#3ba55c"), square=True),
        "✖": StandIn("✖", TEXT),
        "⚠": StandIn("⚠", hex_rgb("#faa61a")),
        "❗": StandIn("!", hex_rgb("#ed4245")),
        "❓": StandIn("?", hex_rgb("#ed4245")),
        "🎲": StandIn("⚄", HEADER),
        "💰": StandIn("$", hex_rgb("#f1c40f")),
        "💵": StandIn("$", hex_rgb("#3ba55c")),
        "💸": StandIn("$", hex_rgb("#3ba55c")),
        "➡": StandIn("→", HEADER),
        "⏳": StandIn("⧗", hex_rgb("#faa61a")),
        "⌛": StandIn("⧗", hex_rgb("#faa61a")),
        "⏰": StandIn("◷", hex_rgb("#ed4245")),
        "⏱": StandIn("◷", HEADER),
        "🕒": StandIn("◷", HEADER),
        "🔥": StandIn("♨", hex_rgb("#f57731")),
        "🚫": StandIn("⊘", hex_rgb("#ed4245")),
        "👀": StandIn("◉", HEADER),
        "🃏": StandIn("🃏", HEADER),
    }
    | {
        # Die faces are in DejaVu, but at text size their pips are too small to count: draw them emoji-sized.
        face: StandIn(face, HEADER)
        for face in "⚀⚁⚂⚃⚄⚅"
    }
    | {
        square: StandIn(disc=hex_rgb(colour), square=True)
        for square, colour in zip(
            "🟥🟧🟨🟩🟦🟪🟫⬛⬜",
            EMOJI_COLOURS,
            strict=True,
        )
    }
    | {
        disc: StandIn(disc=hex_rgb(colour))
        for disc, colour in zip(
            "🔴🟠🟡🟢🔵🟣🟤⚫⚪",
            EMOJI_COLOURS,
            strict=True,
        )
    }
)
#: Characters that only modify an emoji (variation selectors, joiner, skin tones, keycap).
EMOJI_MODIFIERS = re.compile("[\ufe0e\ufe0f\u200d\u20e3\U0001f3fb-\U0001f3ff]")


def draw_stand_in(image: Image.Image, emoji: StandIn, x: int, top: float, size: float) -> None:
    box = (x, round(top), x + round(size), round(top + size))
    if emoji.picture is not None and (picture := _decoded(emoji.picture, max(round(size), 1))) is not None:
        image.paste(picture, box[:2], picture)
        return
    if emoji.disc is not None:
        inset = 1 if emoji.square else 0
        inner = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        rounded(image, inner, round(size * 0.2) if emoji.square else round(size / 2), emoji.disc)
    if emoji.glyph:
        scale = 0.62 if emoji.disc is not None else 0.95
        font = load_font(max(8, round(size * scale)), bold=emoji.disc is not None)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + (1 if emoji.disc is not None else 0))
        ImageDraw.Draw(image).text(centre, emoji.glyph, font=font, fill=emoji.colour, anchor="mm")
