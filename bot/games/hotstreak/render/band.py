"""The band under the panels: live odds as small bars, and each player's tickets with what they are worth.

Drawn only when the caller passes odds or the view holds bets, so a frame without them looks as before.
Every size follows the rule in ``geometry``: text that matters is at least 20 px in the full picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

from bot.games.hotstreak.narration import answer_word
from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import CARD_PANEL_W, MARGIN, PANEL_TITLE_H, WIDTH
from bot.games.hotstreak.render.scene import Scene
from bot.games.hotstreak.render.tokens import paste_token
from bot.games.odds import Odds
from bot.games.text_fit import fit_text
from bot.i18n import _, _n, current
from bot.i18n.formatting import money, percent
from bot.i18n.languages import babel_locale

ODDS_ROW = 40
PLAYER_ROW = 32
BAND_GAP = 16
BAR_W = 120
CHIP_D = 24


@dataclass(frozen=True)
class Holding:
    """One seat's line in the tickets panel."""

    name: str
    cash: int | None
    bets: tuple[dict, ...]
    expected: float | None  # what their bets are expected to pay at the current odds


def signed_money(value: float) -> str:
    """``+$2.4``, ``-$0.8``, ``$0.0`` (``+$ 2,4`` in Portuguese)."""
    sign = "+" if value >= 0.05 else ("-" if value <= -0.05 else "")
    amount = format_decimal(round(abs(value), 1), format="#,##0.0", locale=babel_locale(current()))
    return sign + _("${amount}", amount=amount)


def band_height(scene: Scene, odds: Odds | None, holdings: list[Holding]) -> int:
    """The band's height: the same with or without odds, so a race's frames never jump in size."""
    if not odds and not holdings:
        return 0
    rows = max(len(scene.mascots) * ODDS_ROW, len(holdings) * PLAYER_ROW)
    return BAND_GAP + PANEL_TITLE_H + rows + 14


def draw_band(frame: Image.Image, top: int, scene: Scene, odds: Odds | None, holdings: list[Holding]) -> None:
    height = band_height(scene, odds, holdings)
    if not height:
        return
    draw = ImageDraw.Draw(frame)
    y0, y1 = top + BAND_GAP, top + height
    split = MARGIN + CARD_PANEL_W if odds and holdings else WIDTH - MARGIN
    if odds:
        box = (MARGIN, y0, split if holdings else WIDTH - MARGIN, y1)
        draw.rounded_rectangle(box, 14, fill=style.FELT_PANEL, outline=style.PANEL_EDGE, width=2)
        _odds(frame, draw, box, scene, odds)
    if holdings:
        box = (split + 16 if odds else MARGIN, y0, WIDTH - MARGIN, y1)
        draw.rounded_rectangle(box, 14, fill=style.FELT_PANEL, outline=style.PANEL_EDGE, width=2)
        _holdings(frame, draw, box, scene, holdings)


def _title(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, note: str = "") -> None:
    draw.text((box[0] + 16, box[1] + 10), text, font=style.font(22, True), fill=style.GOLD)
    if note:
        draw.text((box[2] - 16, box[1] + 13), note, font=style.font(18), fill=style.TEXT_DIM, anchor="ra")


def _odds(
    frame: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], scene: Scene, odds: Odds
) -> None:
    note = _("exact") if odds.exact or odds.samples is None else _n("{n} race", "{n} races", odds.samples)
    title = _("ODDS")
    _title(draw, box, title)
    note_x = box[0] + 16 + max(80, int(draw.textlength(title, font=style.font(22, True))) + 12)
    x0 = box[0] + 16
    bar_x = x0 + 140
    win_x, place_x = bar_x + BAR_W + 66, bar_x + BAR_W + 140
    heads = style.font(16, True)
    # The note sits between the title and the WIN heading; a longer translation gets smaller type.
    room = win_x - int(draw.textlength(_("WIN"), font=heads)) - 10 - note_x
    size = next((px for px in (18, 17, 16, 15) if draw.textlength(note, font=style.font(px)) <= room), 15)
    note = fit_text(note, style.font(size), room)
    draw.text((note_x, box[1] + 13 + (18 - size) // 2), note, font=style.font(size), fill=style.TEXT_DIM)
    draw.text((win_x, box[1] + 23), _("WIN"), font=heads, fill=style.TEXT_DIM, anchor="rm")
    if odds.place is not None:
        draw.text((place_x, box[1] + 23), _("PLACE"), font=heads, fill=style.TEXT_DIM, anchor="rm")
    for i, m in enumerate(scene.mascots):
        cy = box[1] + PANEL_TITLE_H + i * ODDS_ROW + ODDS_ROW // 2
        paste_token(frame, (x0 + 14, cy), m.colour, m.initial, 28, None, fallen=False)
        draw.text(
            (x0 + 34, cy),
            fit_text(m.name, style.font(20, True), 110),
            font=style.font(20, True),
            fill=style.TEXT,
            anchor="lm",
        )
        win = odds.win.get(m.key, 0.0)
        place = (odds.place or {}).get(m.key, win)
        # Place (lighter, behind) and win (the mascot's colour, in front) on one track.
        draw.rounded_rectangle((bar_x, cy - 10, bar_x + BAR_W, cy + 10), 5, fill=style.FELT_DARK)
        if place > 0:
            draw.rounded_rectangle(
                (bar_x, cy - 10, bar_x + max(6, round(BAR_W * place)), cy + 10),
                5,
                fill=style.shade(m.colour, 0.5),
            )
        if win > 0:
            draw.rounded_rectangle(
                (bar_x, cy - 10, bar_x + max(6, round(BAR_W * win)), cy + 10), 5, fill=m.colour
            )
        draw.text(
            (win_x, cy),
            percent(odds.percent(m.key) / 100),
            font=style.font(22, True),
            fill=style.TEXT,
            anchor="rm",
        )
        if odds.place is not None:
            draw.text(
                (place_x, cy),
                percent(odds.percent(m.key, "place") / 100),
                font=style.font(20),
                fill=style.TEXT_DIM,
                anchor="rm",
            )


def _holdings(
    frame: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    scene: Scene,
    holdings: list[Holding],
) -> None:
    worth = any(h.expected is not None for h in holdings)
    _title(draw, box, _("TICKETS"), _("worth at these odds") if worth else "")
    colours = {m.key: m for m in scene.mascots}
    best = max((h.expected for h in holdings if h.expected is not None), default=None)
    for i, h in enumerate(holdings):
        cy = box[1] + PANEL_TITLE_H + i * PLAYER_ROW + PLAYER_ROW // 2
        x = box[0] + 16
        name = fit_text(h.name, style.font(20, True), 140)
        draw.text((x, cy), name, font=style.font(20, True), fill=style.TEXT, anchor="lm")
        x += 148
        if h.cash is not None:
            draw.text((x, cy), money(h.cash), font=style.font(20), fill=style.TEXT_DIM, anchor="lm")
        x += 56
        right = box[2] - 16 - (96 if worth else 0)
        for bet in h.bets:
            if x > right - 60:
                break
            x = _chip(frame, draw, (x, cy), bet, colours, right)
        if h.expected is not None:
            value = h.expected
            colour = style.GOLD if best is not None and value == best and value > 0 else style.TEXT
            draw.text(
                (box[2] - 16, cy),
                signed_money(value),
                font=style.font(20, True),
                fill=colour,
                anchor="rm",
            )


def _chip(
    frame: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    bet: dict,
    mascots: dict,
    right: int,
) -> int:
    """One bet as a small token (or YES/NO badge) and its values; returns the x after it."""
    x, cy = at
    values = bet.get("values") or []
    font = style.font(18, True)
    if bet.get("kind") == "ticket" and bet.get("mascot") in mascots:
        m = mascots[bet["mascot"]]
        paste_token(frame, (x + CHIP_D // 2, cy), m.colour, m.initial, CHIP_D, None, fallen=False)
        x += CHIP_D + 4
        text = "/".join(str(v) for v in values)
    else:
        answer = answer_word(str(bet.get("answer"))) if bet.get("answer") in ("yes", "no") else "?"
        w = draw.textlength(answer, font=font) + 10
        draw.rounded_rectangle((x, cy - 12, x + w, cy + 12), 6, fill=style.CARD_FACE)
        draw.text((x + w / 2, cy), answer, font=font, fill=style.CARD_INK, anchor="mm")
        x += int(w) + 4
        text = "/".join(f"{v:+d}" if v < 0 else str(v) for v in values[:2])
    if bet.get("doubled"):
        text += " x2"
    draw.text((x, cy), text, font=font, fill=style.TEXT, anchor="lm")
    return x + int(draw.textlength(text, font=font)) + 14
