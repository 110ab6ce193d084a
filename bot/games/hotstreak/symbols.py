"""Each mascot's look in one place: the colour and letter the pictures draw, and the emoji text uses.

The Discord layer uploads ``emoji_png(key)`` as an application emoji named ``emoji_name(key)`` (so
text shows exactly the token the picture shows) and falls back to ``Symbol.unicode`` (the coloured
circle nearest the token's colour) where that fails. Everything is read from the loaded content,
so an edition with other colours or mascots gets matching symbols.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.render.style import RGB, hex_rgb, legible
from bot.games.hotstreak.render.tokens import token_sprite

# Unicode's coloured circles and roughly how they are drawn (Twemoji), for the fallback.
_CIRCLES: tuple[tuple[str, RGB], ...] = (
    ("🔴", (221, 46, 68)),
    ("🟠", (244, 144, 12)),
    ("🟡", (253, 203, 88)),
    ("🟢", (120, 177, 89)),
    ("🔵", (85, 172, 238)),
    ("🟣", (170, 142, 214)),
    ("🟤", (193, 105, 79)),
    ("⚫", (49, 55, 61)),
    ("⚪", (230, 231, 232)),
)


@dataclass(frozen=True)
class Symbol:
    key: str
    name: str
    letter: str
    rgb: RGB  # as drawn on the track (the content's colour, lightened if needed for contrast)
    unicode: str  # fallback emoji: the coloured circle nearest ``rgb``

    @property
    def colour(self) -> str:
        return "#{:02x}{:02x}{:02x}".format(*self.rgb)


def symbols(mascot_info: dict[str, dict[str, Any]] | None = None) -> dict[str, Symbol]:
    """Mascot id -> its symbol, in lane order; ``mascot_info`` as in a view (default: the content)."""
    info = mascot_info if mascot_info is not None else default_content().mascots
    out: dict[str, Symbol] = {}
    used: set[str] = set()
    for key, meta in info.items():
        name = str(meta.get("name") or key.title())
        rgb = legible(hex_rgb(meta.get("colour")))
        unicode = _nearest_circle(rgb, used)
        used.add(unicode)
        out[key] = Symbol(key, name, name[:1].upper(), rgb, unicode)
    return out


def emoji_name(key: str) -> str:
    """The application emoji's name (Discord allows 2-32 letters, digits and underscores)."""
    return f"hs_{''.join(ch for ch in key.lower() if ch.isalnum() or ch == '_')}"[:32]


def emoji_png(key: str, mascot_info: dict[str, dict[str, Any]] | None = None, size: int = 128) -> bytes:
    """The mascot's token (as on the track, without the arrow) as a square PNG for an application emoji."""
    symbol = symbols(mascot_info)[key]
    d = round(size / 1.9 * 1.8)  # the sprite adds room for a shadow; fill most of the square
    sprite = token_sprite(symbol.rgb, symbol.letter, d, None, False, False)
    left = (sprite.width - size) // 2
    image = sprite.crop((left, left, left + size, left + size))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _nearest_circle(rgb: RGB, used: set[str]) -> str:
    def distance(item: tuple[str, RGB]) -> int:
        return sum((a - b) ** 2 for a, b in zip(rgb, item[1], strict=True))

    free = [c for c in _CIRCLES if c[0] not in used] or list(_CIRCLES)
    return min(free, key=distance)[0]
