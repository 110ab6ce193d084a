"""The 256 colours a race frame is stored with, chosen once per background rather than per frame.

A true-colour PNG of the frame takes ~35 ms to encode; a palette PNG takes ~5 ms. Choosing a fresh
palette for every frame (octree) costs ~12 ms more, so the palette is chosen once, from the
background plus every piece a frame can add on top of it (each mascot's tokens in every state, the
halo, cards in each colour), and frames are mapped onto it. That also keeps colours stable from one
frame to the next, so a mascot's colour does not flicker as the picture changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from PIL import Image

from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import (
    COLUMN_TOKEN_D,
    PODIUM_TOKEN_D,
    WIDTH,
    RaceLayout,
    crowd_d,
    letter_px,
    panels_for,
)
from bot.games.hotstreak.render.panels import card_back, card_front
from bot.games.hotstreak.render.style import RGB
from bot.games.hotstreak.render.tokens import paste_halo, paste_token, sprite_side
from bot.games.hotstreak.render.track import BackgroundKey, background
from bot.games.hotstreak.render.words import CardFace

_SAMPLE_FACES = (
    CardFace(None, "All mascots", "+2", "All mascots run 2 spaces the way they face"),
    CardFace(None, "Race card", "?", "unknown card"),
)
_SAMPLE_COLOURS = (style.ALL_GREEN, style.UNKNOWN_COLOUR)


@lru_cache(maxsize=16)
def frame_palette(key: BackgroundKey) -> Image.Image:
    """A "P" image whose palette every frame on background ``key`` is mapped to."""
    lanes, length, _, _, _, legend, _steps, _language = key
    layout = RaceLayout(lanes, length)
    bg = background(key)
    x0, y0, x1, y1 = panels_for(layout).card_face
    card_w, card_h = x1 - x0, y1 - y0

    tokens: list[Callable[[Image.Image, tuple[int, int]], None]] = []
    for initial, _, colour in legend:
        for d in (crowd_d(layout.token_d, n) for n in (1, 2, 3)):
            for facing in ("forward", "back"):
                for fallen in (False, True):
                    tokens.append(
                        partial(_token, colour=colour, initial=initial, d=d, facing=facing, fallen=fallen)
                    )
        tokens.append(
            partial(_token, colour=colour, initial=initial, d=layout.token_d, facing="forward", halo=True)
        )
        for d, crossed in (
            (PODIUM_TOKEN_D, False),
            (PODIUM_TOKEN_D, True),
            (COLUMN_TOKEN_D, False),
            (COLUMN_TOKEN_D, True),
        ):
            tokens.append(partial(_token, colour=colour, initial=initial, d=d, facing=None, crossed=crossed))
    cards = [card_back((card_w, card_h))]
    cards += [card_front(face, _SAMPLE_COLOURS[i], (card_w, card_h)) for i, face in enumerate(_SAMPLE_FACES)]
    for _, name, colour in legend:
        face = CardFace("m", name, "+3", f"{name} runs 3 spaces the way it faces")
        cards.append(card_front(face, colour, (card_w, card_h)))

    slot = sprite_side(layout.token_d) + 2
    per_row = WIDTH // slot
    token_rows = -(-len(tokens) // per_row)
    cards_per_row = WIDTH // (card_w + 4)
    card_rows = -(-len(cards) // cards_per_row)
    swatch = 24  # a strip of the flat colours drawn on top of the background: text, medals, their ink
    probe = Image.new(
        "RGB", (WIDTH, bg.height + token_rows * slot + card_rows * (card_h + 4) + swatch), style.FELT_PANEL
    )
    probe.paste(bg, (0, 0))
    # Tokens sit on a strip of track colour, which is what their soft edges blend into on the track.
    probe.paste(style.TRACK_A, (0, bg.height, WIDTH, bg.height + token_rows * slot))
    for i, draw_token in enumerate(tokens):
        row, col = divmod(i, per_row)
        draw_token(probe, (col * slot + slot // 2, bg.height + row * slot + slot // 2))
    top = bg.height + token_rows * slot
    for i, card in enumerate(cards):
        row, col = divmod(i, cards_per_row)
        probe.paste(card, (col * (card_w + 4), top + row * (card_h + 4)), card)
    top += card_rows * (card_h + 4)
    flat = (style.GOLD, style.TEXT, style.TEXT_DIM, *style.STEP_COLOURS, (20, 20, 20), (255, 255, 255))
    for i, colour in enumerate(flat):
        probe.paste(colour, (i * swatch, top, (i + 1) * swatch, top + swatch))
    return probe.quantize(256, method=Image.Quantize.FASTOCTREE)


def _token(
    img: Image.Image,
    centre: tuple[int, int],
    *,
    colour: RGB,
    initial: str,
    d: int,
    facing: str | None,
    fallen: bool = False,
    crossed: bool = False,
    halo: bool = False,
) -> None:
    if halo:
        paste_halo(img, centre, d)
    paste_token(img, centre, colour, initial, d, facing, fallen=fallen, crossed=crossed, letter=letter_px(d))


def to_palette(frame: Image.Image, key: BackgroundKey) -> Image.Image:
    """``frame`` mapped onto its background's palette (nearest colour, no dithering: flat areas stay flat)."""
    return frame.quantize(palette=frame_palette(key), dither=Image.Dither.NONE)
