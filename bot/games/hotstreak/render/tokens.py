"""Mascot tokens as cached RGBA sprites, drawn large and shrunk so their edges are smooth.

A standing token is a disc in the mascot's colour with its initial and an arrow on the side it
faces (white towards the finish, amber when turned around). A fallen token is tipped over: a
flat disc with a white rim, so a crawling mascot shows at a glance.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.style import RGB

_SS = 4  # supersampling factor
SUPERSAMPLE = _SS  # (the initial's font is drawn at this many times its size, then shrunk)


def sprite_side(d: int) -> int:
    """Side of the square sprite for a token of diameter ``d``: room for the arrow, shadow and halo."""
    return int(d * 1.9) | 1  # odd, so the token centre falls on a pixel


@lru_cache(maxsize=512)
def token_sprite(
    colour: RGB, initial: str, d: int, facing: str | None, fallen: bool, crossed: bool, letter: int = 0
) -> Image.Image:
    """A token of diameter ``d`` centred in a ``sprite_side(d)`` square; ``facing`` None draws no arrow.

    ``crossed`` adds a red cross, used for disqualified mascots off the track. ``letter`` is the font
    size (px, in the sprite as pasted) of the initial; 0 scales it with the token, as the emojis do
    (``bot.games.hotstreak.symbols``); the race picture asks for one readable where Discord shows it.
    """
    side = sprite_side(d)
    big = side * _SS
    c = big / 2
    r = d * _SS / 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))

    # Soft shadow, offset down-right: drawn big, shrunk, then blurred small (blurring big is slow).
    shadow = Image.new("L", (big, big), 0)
    sdraw = ImageDraw.Draw(shadow)
    if fallen:
        sdraw.ellipse((c - 1.14 * r, c - 0.5 * r, c + 1.28 * r, c + 0.98 * r), fill=120)
    else:
        sdraw.ellipse((c - 0.92 * r, c - 0.86 * r, c + 1.08 * r, c + 1.14 * r), fill=120)
    shadow = shadow.reduce(_SS).filter(ImageFilter.GaussianBlur(d * 0.06))

    draw = ImageDraw.Draw(img)
    line = max(1, round(r * 0.09))
    # A fallen token lies flat: a wide, low disc whose middle sits a little below the space's centre.
    # Tall enough that its letter stays as big as most of a standing token's (a legible "M", not a smudge).
    body_cy = c + 0.14 * r if fallen else c
    half_w, half_h = (1.16 * r, 0.74 * r) if fallen else (r, r)
    if facing in ("forward", "back"):
        sign = 1 if facing == "forward" else -1
        fill = style.ARROW_FORWARD if facing == "forward" else style.ARROW_BACK
        base, tip, half = half_w - 0.25 * r, half_w + 0.62 * r, 0.5 * r
        draw.polygon(
            [(c + sign * base, body_cy - half), (c + sign * tip, body_cy), (c + sign * base, body_cy + half)],
            fill=fill,
            outline=style.OUTLINE,
            width=line,
        )
    body = (c - half_w, body_cy - half_h, c + half_w, body_cy + half_h)
    draw.ellipse(body, fill=style.OUTLINE)
    if fallen:
        # A white ring inside the dark edge: it reads on every mascot colour and on the red track.
        ring = (body[0] + line, body[1] + line, body[2] - line, body[3] - line)
        draw.ellipse(ring, fill=style.FALLEN_RING)
        body = ring
    inset = 1.6 * line if fallen else line
    draw.ellipse((body[0] + inset, body[1] + inset, body[2] - inset, body[3] - inset), fill=colour)
    if fallen:
        _initial(img, initial, colour, (c, body_cy), letter * _SS if letter else r * 0.98)
    else:
        # A faint highlight near the top gives the disc some body.
        glow = Image.new("L", (big, big), 0)
        ImageDraw.Draw(glow).ellipse((c - 0.62 * r, c - 0.82 * r, c + 0.62 * r, c - 0.2 * r), fill=70)
        img.paste((*style.shade(colour, 1.6), 255), (0, 0), glow)
        _initial(img, initial, colour, (c, c), letter * _SS if letter else r * 1.05)
    if crossed:
        k = 0.72 * r
        for a, b in (((c - k, c - k), (c + k, c + k)), ((c - k, c + k), (c + k, c - k))):
            draw.line([a, b], fill=(255, 255, 255), width=round(line * 3.2))
            draw.line([a, b], fill=style.DQ_RED, width=round(line * 2))
    # Shrink with premultiplied alpha so the transparent surround does not darken the edges.
    token = img.convert("RGBa").reduce(_SS).convert("RGBA")
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    sprite.putalpha(shadow)
    return Image.alpha_composite(sprite, token)


def _initial(img: Image.Image, letter: str, colour: RGB, centre: tuple[float, float], size: float) -> None:
    """The mascot's initial centred on ``centre``; kept upright even on a fallen token, where a
    letter on its side stops reading as a letter (M turns into a sigma)."""
    f = style.font(max(4, int(size)), bold=True)
    left, top, right, bottom = f.getbbox(letter)
    w, h = right - left, bottom - top
    glyph = Image.new("L", (int(w) + 4, int(h) + 4), 0)  # (whole pixels already)
    ImageDraw.Draw(glyph).text((2 - left, 2 - top), letter, font=f, fill=255)
    x = round(centre[0] - glyph.width / 2)
    y = round(centre[1] - glyph.height / 2)
    img.paste((*style.ink_on(colour), 255), (x, y), glyph)


def paste_token(
    frame: Image.Image,
    centre: tuple[int, int],
    colour: RGB,
    initial: str,
    d: int,
    facing: str | None,
    fallen: bool = False,
    crossed: bool = False,
    letter: int = 0,
) -> None:
    sprite = token_sprite(colour, initial, d, facing, fallen, crossed, letter)
    half = sprite.width // 2
    frame.paste(sprite, (centre[0] - half, centre[1] - half), sprite)


@lru_cache(maxsize=32)
def halo_sprite(d: int) -> Image.Image:
    """A soft gold glow, drawn under the token the last card named so the eye finds who just moved."""
    side = sprite_side(d)
    big = side * _SS
    c, r = big / 2, d * _SS / 2
    mask = Image.new("L", (big, big), 0)
    ImageDraw.Draw(mask).ellipse((c - 1.3 * r, c - 1.3 * r, c + 1.3 * r, c + 1.3 * r), fill=200)
    img = Image.new("RGBA", (side, side), (*style.GOLD, 0))
    img.putalpha(mask.reduce(_SS).filter(ImageFilter.GaussianBlur(d * 0.045)))
    return img


def paste_halo(frame: Image.Image, centre: tuple[int, int], d: int) -> None:
    sprite = halo_sprite(d)
    half = sprite.width // 2
    frame.paste(sprite, (centre[0] - half, centre[1] - half), sprite)
