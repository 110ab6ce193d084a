"""The moving parts under the track and in the header: the card just flipped, podium, DQ box, counts."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import (
    DECK_ICON_X,
    DQ_TOKEN_D,
    HEADER_H,
    MARGIN,
    PANEL_TITLE_H,
    PODIUM_TOKEN_D,
    WIDTH,
    PanelLayout,
)
from bot.games.hotstreak.render.scene import Scene
from bot.games.hotstreak.render.style import RGB
from bot.games.hotstreak.render.tokens import paste_token
from bot.games.hotstreak.render.words import CardFace, card_colour, card_face
from bot.games.text_fit import fit_text, wrap_text
from bot.i18n import _, _n

_S = 2  # supersampling factor of the card's shapes
_BAND = 46  # height of the card's coloured band, which holds its title


def draw_header(frame: Image.Image, scene: Scene) -> None:
    draw = ImageDraw.Draw(frame)
    title = _("Race {race} of {races}", race=scene.race, races=scene.races)
    title_font = style.font(32, True)
    draw.text((20, HEADER_H // 2), title, font=title_font, fill=style.TEXT, anchor="lm")
    if all(scene.podium):
        x = 20 + draw.textlength(title, font=title_font) + 14
        draw.text(
            (x, HEADER_H // 2 + 1), _("race over"), font=style.font(22, True), fill=style.GOLD, anchor="lm"
        )
    cards = _n("{n} card left", "{n} cards left", scene.cards_left)
    x = DECK_ICON_X + 48
    room = WIDTH - MARGIN - x  # a translation may run longer than English: never off the picture
    draw.text((x, 8), fit_text(cards, style.font(26, True), room), font=style.font(26, True), fill=style.TEXT)
    burned = fit_text(_n("{n} burned", "{n} burned", scene.burned), style.font(22), room)
    draw.text((x, 42), burned, font=style.font(22), fill=style.TEXT_DIM)


def draw_card(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    x0, y0, x1, y1 = panels.card_face
    size = (x1 - x0, y1 - y0)
    if scene.last_card is None:
        card = card_back(size)
    else:
        face = card_face(scene.last_card, scene)
        colour = card_colour(face, scene, style.ALL_GREEN, style.UNKNOWN_COLOUR)
        card = card_front(face, colour, size)
    frame.paste(card, (x0, y0), card)


@lru_cache(maxsize=256)
def card_front(face: CardFace, colour: RGB, size: tuple[int, int]) -> Image.Image:
    """A face-up race card: a band in the mascot's colour (green for all) naming who it moves, a
    big mark, and what it does in a few words. The notation ("gobbler +3") is left off: the
    message above the picture gives it, and at Discord's size it would be too small to read."""
    w, h = size
    big = Image.new("RGBA", (w * _S, h * _S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * _S - 1, h * _S - 1), 12 * _S, fill=colour)
    d.rounded_rectangle((5 * _S, _BAND * _S, (w - 5) * _S, (h - 5) * _S), 8 * _S, fill=style.CARD_FACE)
    mark_box = (12, _BAND + 8, 108, h - 13)
    d.rounded_rectangle([v * _S for v in mark_box], 10 * _S, fill=style.shade(colour, 1.75))
    card = big.reduce(_S)
    draw = ImageDraw.Draw(card)
    ink = style.ink_on(colour)
    title_font = style.font(28, True)
    title = fit_text(face.title, title_font, w - 32)
    draw.text((16, _BAND // 2 + 1), title, font=title_font, fill=ink, anchor="lm")
    mark_colour = style.shade(colour, 0.55) if sum(colour) > 450 else style.shade(colour, 0.85)
    cx, cy = (mark_box[0] + mark_box[2]) / 2, (mark_box[1] + mark_box[3]) / 2
    draw.text(
        (cx, cy), face.symbol, font=style.font(_mark_size(face.symbol), True), fill=mark_colour, anchor="mm"
    )
    left = mark_box[2] + 14
    room, lines_max = w - left - 14, (h - _BAND - 12) // 28
    for size_px in (24, 22):
        words_font = style.font(size_px, True)
        lines = wrap_text(face.body, words_font, room)
        if len(lines) <= lines_max:
            break
    if len(lines) > lines_max:
        lines = [*lines[: lines_max - 1], fit_text(" ".join(lines[lines_max - 1 :]), words_font, room)]
    line_h = size_px + 5
    top = _BAND + (h - _BAND - 5 - line_h * len(lines)) / 2
    for i, line in enumerate(lines):
        draw.text((left, top + i * line_h), line, font=words_font, fill=style.CARD_INK)
    return card


def _mark_size(symbol: str) -> int:
    return 60 if len(symbol) <= 2 else 42


def card_back(size: tuple[int, int]) -> Image.Image:
    """The back of a race card, shown before the first card is flipped."""
    return _card_back(size, _("No card flipped yet"))


@lru_cache(maxsize=8)
def _card_back(size: tuple[int, int], caption: str) -> Image.Image:
    """The cached card back; the caption (in the reader's language) is part of the key."""
    w, h = size
    big = Image.new("RGBA", (w * _S, h * _S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * _S - 1, h * _S - 1), 12 * _S, fill=style.CARD_FACE)
    d.rounded_rectangle((5 * _S, 5 * _S, (w - 5) * _S, (h - 5) * _S), 9 * _S, fill=style.CARD_BACK)
    lattice = style.shade(style.CARD_BACK, 1.18)
    step = 18 * _S
    for k in range(-h * _S, w * _S + h * _S, step):
        d.line([(k, 5 * _S), (k + (h - 10) * _S, (h - 5) * _S)], fill=lattice, width=_S)
        d.line([(k, (h - 5) * _S), (k + (h - 10) * _S, 5 * _S)], fill=lattice, width=_S)
    # Re-clip the lattice to the inner rounded face by redrawing the cream rim over it.
    d.rounded_rectangle((0, 0, w * _S - 1, h * _S - 1), 12 * _S, outline=style.CARD_FACE, width=5 * _S)
    d.rounded_rectangle(
        (w * _S / 2 - 150 * _S, h * _S / 2 - 26 * _S, w * _S / 2 + 150 * _S, h * _S / 2 + 26 * _S),
        10 * _S,
        fill=style.CARD_BACK,
        outline=style.CARD_FACE,
        width=2 * _S,
    )
    card = big.reduce(_S)
    ImageDraw.Draw(card).text(
        (w / 2, h / 2),
        fit_text(caption, style.font(24, True), 290),
        font=style.font(24, True),
        fill=style.CARD_FACE,
        anchor="mm",
    )
    return card


def draw_podium(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    draw = ImageDraw.Draw(frame)
    name_font = style.font(22, True)
    for i, (x0, y0, x1, _y1) in enumerate(panels.steps):
        key = scene.podium[i]
        cx = (x0 + x1) // 2
        if key is None:
            draw.ellipse(
                (cx - PODIUM_TOKEN_D // 2, y0 - 6 - PODIUM_TOKEN_D, cx + PODIUM_TOKEN_D // 2, y0 - 6),
                outline=style.PANEL_EDGE,
                width=3,
            )
            continue
        m = scene.mascot(key)
        out = m.status == "out"
        paste_token(
            frame, (cx, y0 - 6 - PODIUM_TOKEN_D // 2), m.colour, m.initial, PODIUM_TOKEN_D, None, crossed=out
        )
        ink = style.ink_on(style.STEP_COLOURS[i])
        draw.text(
            (cx, y0 + 40), fit_text(m.name, name_font, x1 - x0 - 8), font=name_font, fill=ink, anchor="mt"
        )


def draw_disqualified(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    """Crossed-out tokens with their names. The place each was given is on the podium (and in the
    alt text), so it is not repeated here in type too small to read."""
    draw = ImageDraw.Draw(frame)
    out = [m for m in scene.mascots if m.status == "out"]
    out.sort(key=lambda m: m.place if m.place is not None else 99)
    x0, y0, x1, y1 = panels.dq
    if not out:
        draw.text(
            ((x0 + x1) / 2, (y0 + PANEL_TITLE_H + y1) / 2),
            _("Nobody yet"),
            font=style.font(22),
            fill=style.TEXT_DIM,
            anchor="mm",
        )
        return
    name_font = style.font(22, True)
    col_w = (x1 - x0) // 2
    for i, m in enumerate(out[:4]):
        cx, cy = panels.dq_slot(i)
        paste_token(frame, (cx, cy), m.colour, m.initial, DQ_TOKEN_D, None, crossed=True)
        draw.text(
            (cx, cy + DQ_TOKEN_D // 2 + 6),
            fit_text(m.name, name_font, col_w - 10),
            font=name_font,
            fill=style.TEXT,
            anchor="mt",
        )
