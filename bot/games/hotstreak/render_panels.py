"""The moving parts under the track and in the header: the card just flipped, podium, DQ box, counts."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.hotstreak import render_style as style
from bot.games.hotstreak.render_geometry import (
    DECK_ICON_X,
    DQ_TOKEN_D,
    PODIUM_TOKEN_D,
    PanelLayout,
)
from bot.games.hotstreak.render_scene import Scene
from bot.games.hotstreak.render_style import RGB
from bot.games.hotstreak.render_tokens import paste_token
from bot.games.hotstreak.render_words import CardFace, card_colour, card_face

_S = 2  # supersampling factor of the card's shapes
_ORDINALS = ("1st", "2nd", "3rd", "4th")


def draw_header(frame: Image.Image, scene: Scene) -> None:
    draw = ImageDraw.Draw(frame)
    title = f"Race {scene.race} of {scene.races}"
    draw.text((20, 32), title, font=style.font(28, True), fill=style.TEXT)
    if all(scene.podium):
        x = 20 + draw.textlength(title, font=style.font(28, True)) + 14
        draw.text((x, 46), "race over", font=style.font(16, True), fill=style.GOLD, anchor="ls")
    cards = f"{scene.cards_left} card{'s' if scene.cards_left != 1 else ''} left"
    draw.text((DECK_ICON_X + 44, 14), cards, font=style.font(20, True), fill=style.TEXT)
    draw.text((DECK_ICON_X + 44, 42), f"{scene.burned} burned", font=style.font(14), fill=style.TEXT_DIM)


def draw_card(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    x0, y0, x1, y1 = panels.card_face
    size = (x1 - x0, y1 - y0)
    if scene.last_card is None:
        card = card_back(size)
    else:
        face = card_face(scene.last_card, scene)
        colour = card_colour(face, scene, style.ALL_GREEN, style.UNKNOWN_COLOUR)
        card = card_front(face, scene.last_card, colour, size)
    frame.paste(card, (x0, y0), card)


@lru_cache(maxsize=256)
def card_front(face: CardFace, notation: str, colour: RGB, size: tuple[int, int]) -> Image.Image:
    """A face-up race card: a band in the mascot's colour (green for all), a big mark, plain words."""
    w, h = size
    band = 36
    big = Image.new("RGBA", (w * _S, h * _S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * _S - 1, h * _S - 1), 12 * _S, fill=colour)
    d.rounded_rectangle((5 * _S, band * _S, (w - 5) * _S, (h - 5) * _S), 8 * _S, fill=style.CARD_FACE)
    mark_box = (12, band + 8, 104, h - 13)
    d.rounded_rectangle([v * _S for v in mark_box], 10 * _S, fill=style.shade(colour, 1.75))
    card = big.reduce(_S)
    draw = ImageDraw.Draw(card)
    ink = style.ink_on(colour)
    draw.text((14, band // 2 + 1), face.title, font=style.font(19, True), fill=ink, anchor="lm")
    draw.text((w - 14, band // 2 + 1), notation, font=style.font(12), fill=ink, anchor="rm")
    mark_colour = style.shade(colour, 0.55) if sum(colour) > 450 else style.shade(colour, 0.85)
    cx, cy = (mark_box[0] + mark_box[2]) / 2, (mark_box[1] + mark_box[3]) / 2
    draw.text(
        (cx, cy), face.symbol, font=style.font(_mark_size(face.symbol), True), fill=mark_colour, anchor="mm"
    )
    lines = _wrap(face.words, style.font(16, True), w - 104 - 24)[:4]
    line_h = 21
    top = band + (h - band - line_h * len(lines)) / 2 + 1
    for i, line in enumerate(lines):
        draw.text((116, top + i * line_h), line, font=style.font(16, True), fill=style.CARD_INK)
    return card


def _mark_size(symbol: str) -> int:
    return 46 if len(symbol) <= 2 else 34


@lru_cache(maxsize=4)
def card_back(size: tuple[int, int]) -> Image.Image:
    """The back of a race card, shown before the first card is flipped."""
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
        (w * _S / 2 - 90 * _S, h * _S / 2 - 20 * _S, w * _S / 2 + 90 * _S, h * _S / 2 + 20 * _S),
        10 * _S,
        fill=style.CARD_BACK,
        outline=style.CARD_FACE,
        width=2 * _S,
    )
    card = big.reduce(_S)
    ImageDraw.Draw(card).text(
        (w / 2, h / 2), "No card flipped yet", font=style.font(15, True), fill=style.CARD_FACE, anchor="mm"
    )
    return card


def _wrap(text: str, font: object, width: float) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and font.getlength(trial) > width:  # type: ignore[attr-defined]
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def _fit(text: str, font: object, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels."""
    if font.getlength(text) <= width:  # type: ignore[attr-defined]
        return text
    while text and font.getlength(text + "…") > width:  # type: ignore[attr-defined]
        text = text[:-1]
    return text + "…"


def draw_podium(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    draw = ImageDraw.Draw(frame)
    name_font = style.font(14, True)
    for i, (x0, y0, x1, _) in enumerate(panels.steps):
        key = scene.podium[i]
        cx = (x0 + x1) // 2
        if key is None:
            draw.ellipse(
                (cx - PODIUM_TOKEN_D // 2, y0 - 8 - PODIUM_TOKEN_D, cx + PODIUM_TOKEN_D // 2, y0 - 8),
                outline=style.PANEL_EDGE,
                width=2,
            )
            continue
        m = scene.mascot(key)
        out = m.status == "out"
        paste_token(
            frame, (cx, y0 - 8 - PODIUM_TOKEN_D // 2), m.colour, m.initial, PODIUM_TOKEN_D, None, crossed=out
        )
        ink = style.ink_on(style.STEP_COLOURS[i])
        draw.text((cx, y0 + 32), _fit(m.name, name_font, x1 - x0 - 8), font=name_font, fill=ink, anchor="mt")


def draw_disqualified(frame: Image.Image, scene: Scene, panels: PanelLayout) -> None:
    draw = ImageDraw.Draw(frame)
    out = [m for m in scene.mascots if m.status == "out"]
    out.sort(key=lambda m: m.place if m.place is not None else 99)
    if not out:
        x0, y0, x1, y1 = panels.dq
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2 + 10),
            "Nobody yet",
            font=style.font(16),
            fill=style.TEXT_DIM,
            anchor="mm",
        )
        return
    col_w = (panels.dq[2] - panels.dq[0]) // 2
    for i, m in enumerate(out[:4]):
        cx, cy = panels.dq_slot(i)
        x_end = panels.dq[0] + (i % 2 + 1) * col_w - 8
        paste_token(frame, (cx, cy), m.colour, m.initial, DQ_TOKEN_D, None, crossed=True)
        left = cx + DQ_TOKEN_D // 2 + 8
        draw.text(
            (left, cy - 2),
            _fit(m.name, style.font(16, True), x_end - left),
            font=style.font(16, True),
            fill=style.TEXT,
            anchor="ls",
        )
        if m.place:
            draw.text(
                (left, cy + 16),
                f"placed {_ORDINALS[m.place - 1] if m.place <= 4 else m.place}",
                font=style.font(13),
                fill=style.TEXT_DIM,
                anchor="ls",
            )
