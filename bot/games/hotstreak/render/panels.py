"""The moving parts of the frame outside the track: the header's counts, the card just flipped, the podium.

Every text is at least ``MIN_FONT`` (20 px on the 800 px frame): what did not fit at that size was
taken out of the frame rather than shrunk (the burned count and the card's notation are in the alt
text and the message; every ticket is in the detail picture).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import (
    DECK_ICON_W,
    HEADER_H,
    MARGIN,
    MIN_FONT,
    PODIUM_TOKEN_D,
    WIDTH,
    Box,
    PanelLayout,
    letter_px,
)
from bot.games.hotstreak.render.scene import Scene
from bot.games.hotstreak.render.style import RGB
from bot.games.hotstreak.render.tokens import paste_token
from bot.games.hotstreak.render.track import deck_icon
from bot.games.hotstreak.render.words import CardFace, card_colour, card_face, deck_words
from bot.games.text_fit import draw_text, fit_text, wrap_text
from bot.i18n import _, current
from bot.i18n.languages import Language

_S = 2  # supersampling factor of the card's shapes
_BAND = 44  # height of the card's coloured band, which holds its title
_MARK_H = 60  # height of the box holding the card's big mark


@dataclass(frozen=True)
class Label:
    """One text of the header: where it is drawn, and the box it covers (for the no-overlap tests)."""

    xy: tuple[float, float]
    text: str
    font: ImageFont.FreeTypeFont
    fill: RGB
    box: Box


def _label(xy: tuple[float, float], text: str, font: ImageFont.FreeTypeFont, fill: RGB) -> Label:
    left, top, right, bottom = font.getbbox(text, anchor="lm")
    box = (int(xy[0] + left), int(xy[1] + top), int(xy[0] + right + 0.999), int(xy[1] + bottom + 0.999))
    return Label(xy, text, font, fill, box)


def header_labels(scene: Scene) -> tuple[Label, ...]:
    """The header's texts: the race's title, "race over" once every place is taken, and the deck's count
    at the right (after its icon). Each is cut to the room left by the others, in any language, so none
    runs into another."""
    return _header_labels(scene.race, scene.races, all(scene.podium), scene.cards_left, current())


@lru_cache(maxsize=64)
def _header_labels(
    race: int, races: int, over: bool, cards_left: int, language: Language
) -> tuple[Label, ...]:
    """(Cached: measuring the words costs more than drawing them; the language is part of the key.)"""
    del language  # the words below are in the current language, which the key names
    middle = HEADER_H / 2
    deck_font = style.font(MIN_FONT + 2, True)
    deck = deck_words(cards_left)
    deck = fit_text(deck, deck_font, WIDTH / 3)
    deck_x = WIDTH - MARGIN - deck_font.getlength(deck)
    title_font = style.font(MIN_FONT + 6, True)
    title_room = header_deck_left(deck_x) - 14 - MARGIN
    title = fit_text(_("Race {race} of {races}", race=race, races=races), title_font, title_room)
    labels = [_label((MARGIN, middle), title, title_font, style.TEXT)]
    if over:
        over_font = style.font(MIN_FONT + 2, True)
        x = labels[0].box[2] + 14
        room = header_deck_left(deck_x) - 14 - x
        if room > over_font.getlength("…") + 4:
            words = fit_text(_("race over"), over_font, room)
            labels.append(_label((x, middle + 1), words, over_font, style.GOLD))
    labels.append(_label((deck_x, middle), deck, deck_font, style.TEXT))
    return tuple(labels)


def header_deck_left(deck_x: float) -> float:
    """x where the deck icon starts, left of the count that starts at ``deck_x``."""
    return deck_x - 8 - DECK_ICON_W


def draw_header(frame: Image.Image, scene: Scene) -> None:
    draw = ImageDraw.Draw(frame)
    labels = header_labels(scene)
    for label in labels:
        draw_text(draw, label.xy, label.text, font=label.font, fill=label.fill, anchor="lm")
    deck_icon(frame, round(labels[-1].box[0]) - 8)


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
    mark_box = (14, _BAND + 8, w - 14, _BAND + 8 + _MARK_H)
    d.rounded_rectangle([v * _S for v in mark_box], 10 * _S, fill=style.shade(colour, 1.75))
    card = big.reduce(_S)
    draw = ImageDraw.Draw(card)
    ink = style.ink_on(colour)
    # A long title ("Todos os mascotes") takes a smaller font, never under MIN_FONT, before it is cut.
    title_font = next(
        (
            style.font(px, True)
            for px in (MIN_FONT + 4, MIN_FONT + 2)
            if style.font(px, True).getlength(face.title) <= w - 16
        ),
        style.font(MIN_FONT, True),
    )
    title = fit_text(face.title, title_font, w - 16)
    draw.text((w / 2, _BAND // 2 + 1), title, font=title_font, fill=ink, anchor="mm")
    mark_colour = style.shade(colour, 0.55) if sum(colour) > 450 else style.shade(colour, 0.85)
    cx, cy = (mark_box[0] + mark_box[2]) / 2, (mark_box[1] + mark_box[3]) / 2
    draw.text(
        (cx, cy), face.symbol, font=style.font(_mark_size(face.symbol), True), fill=mark_colour, anchor="mm"
    )
    left, top = 14, mark_box[3] + 8
    room = w - 2 * left
    for size_px in (MIN_FONT + 2, MIN_FONT):
        words_font = style.font(size_px, True)
        line_h = size_px + 5
        lines_max = max(1, (h - 10 - top) // line_h)
        lines = wrap_text(face.body, words_font, room)
        if len(lines) <= lines_max:
            break
    if len(lines) > lines_max:
        lines = [*lines[: lines_max - 1], fit_text(" ".join(lines[lines_max - 1 :]), words_font, room)]
    first = top + (h - 10 - top - line_h * len(lines)) / 2
    for i, line in enumerate(lines):
        draw.text((w / 2, first + i * line_h), line, font=words_font, fill=style.CARD_INK, anchor="ma")
    return card


def _mark_size(symbol: str) -> int:
    return 48 if len(symbol) <= 2 else 36


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
    caption_font = style.font(MIN_FONT, True)
    lines = wrap_text(caption, caption_font, w - 44)[:3]
    line_h = MIN_FONT + 6
    half_h = line_h * len(lines) / 2 + 12
    d.rounded_rectangle(
        (16 * _S, (h / 2 - half_h) * _S, (w - 16) * _S, (h / 2 + half_h) * _S),
        10 * _S,
        fill=style.CARD_BACK,
        outline=style.CARD_FACE,
        width=2 * _S,
    )
    card = big.reduce(_S)
    draw = ImageDraw.Draw(card)
    for i, line in enumerate(lines):
        draw.text(
            (w / 2, h / 2 - line_h * len(lines) / 2 + i * line_h + line_h / 2),
            fit_text(line, caption_font, w - 44),
            font=caption_font,
            fill=style.CARD_FACE,
            anchor="mm",
        )
    return card


def draw_podium(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    """The podium, in a frame without tickets: each placed mascot's token on its step (crossed out if it
    was disqualified); the names are in the mascots column beside it."""
    draw = ImageDraw.Draw(frame)
    x0, y0, _x1, _y1 = panels.podium
    draw_text(draw, (x0 + 14, y0 + 9), _("PODIUM"), font=style.font(MIN_FONT, True), fill=style.GOLD)
    d = PODIUM_TOKEN_D
    for i, (sx0, sy0, sx1, _sy1) in enumerate(panels.steps):
        key = scene.podium[i]
        cx = (sx0 + sx1) // 2
        if key is None:
            draw.ellipse((cx - d // 2, sy0 - 6 - d, cx + d // 2, sy0 - 6), outline=style.PANEL_EDGE, width=3)
            continue
        m = scene.mascot(key)
        paste_token(
            frame,
            (cx, sy0 - 6 - d // 2),
            m.colour,
            m.initial,
            d,
            None,
            crossed=m.status == "out",
            letter=letter_px(d),
        )
