"""The detail picture: every player's tickets and side bets, for whoever asks for it (a button).

The race frame gives each player one line (cash and what the bets are worth), because every ticket
could not be drawn there at a size Discord's preview can read. This picture has the room: one row per
player with each bet as a chip, a ticket as its mascot's token and what it pays for 1st/2nd/3rd, a
side bet as its YES/NO answer and what it pays if right/if wrong, "x2" when doubled. The same rules
hold (``bot.games.fonts``): 800 px wide, no font under 20 px, at most 600 px tall (eight players of
three bets each take 466 px). A player whose chips would not fit in the row gets an ellipsis rather
than a smaller font (no seat holds more than three bets, so it does not happen in a real game).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.games.hotstreak.narration import answer_word
from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import HEADER_H, MARGIN, MIN_FONT, WIDTH, letter_px
from bot.games.hotstreak.render.holdings import Holding, best_worth, holdings_of, signed_money
from bot.games.hotstreak.render.scene import MascotState, read_scene
from bot.games.hotstreak.render.tokens import paste_token
from bot.games.odds import Odds
from bot.games.text_fit import fit_text
from bot.i18n import _
from bot.i18n.formatting import money

ROW_H = 48
HEADINGS_H = 34
CHIP_D = 30
NAME_W = 170
CASH_W = 84
WORTH_W = 84


def render_holdings(
    view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None
) -> bytes:
    """A PNG of every player's tickets and side bets in ``view`` (the public view, with ``bets`` and
    ``cash``), with what each player's bets are worth at ``odds`` when given; ``players`` names the
    seats as ``render_race`` does. A view without bets draws a picture that says nobody holds one."""
    scene = read_scene(view)
    holdings = holdings_of(view, odds, players)
    rows = max(1, len(holdings))
    height = HEADER_H + HEADINGS_H + rows * ROW_H + MARGIN
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=style.FELT_DARK)
    draw.rectangle((0, HEADER_H - 3, WIDTH, HEADER_H), fill=style.GOLD)
    title_font, font, bold = style.font(MIN_FONT + 6, True), style.font(MIN_FONT), style.font(MIN_FONT, True)
    title = fit_text(_("Race {race}: tickets", race=scene.race), title_font, WIDTH - 2 * MARGIN)
    draw.text((MARGIN, HEADER_H // 2), title, font=title_font, fill=style.TEXT, anchor="lm")
    worth = any(h.expected is not None for h in holdings)
    heading_y = HEADER_H + HEADINGS_H // 2 + 2
    if worth:
        note = fit_text(_("worth at these odds"), bold, WIDTH / 2)
        draw.text((WIDTH - MARGIN, heading_y), note, font=bold, fill=style.TEXT_DIM, anchor="rm")
    if not holdings:
        draw.text(
            (MARGIN, HEADER_H + HEADINGS_H + ROW_H // 2),
            _("Nobody holds a bet yet."),
            font=font,
            fill=style.TEXT_DIM,
            anchor="lm",
        )
    mascots = {m.key: m for m in scene.mascots}
    best = best_worth(holdings)
    for i, holding in enumerate(holdings):
        top = HEADER_H + HEADINGS_H + i * ROW_H
        if i % 2 == 0:
            draw.rectangle((MARGIN - 6, top, WIDTH - MARGIN + 6, top + ROW_H - 4), fill=style.FELT_PANEL)
        _row(image, draw, holding, top + (ROW_H - 4) // 2, mascots, best)
    quiet = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quiet.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    holding: Holding,
    cy: int,
    mascots: dict[str, MascotState],
    best: float | None,
) -> None:
    font, bold = style.font(MIN_FONT), style.font(MIN_FONT, True)
    x = MARGIN
    draw.text((x, cy), fit_text(holding.name, bold, NAME_W), font=bold, fill=style.TEXT, anchor="lm")
    x += NAME_W + 10
    if holding.cash is not None:
        cash = fit_text(money(holding.cash), font, CASH_W)
        draw.text((x + CASH_W, cy), cash, font=font, fill=style.TEXT_DIM, anchor="rm")
    x += CASH_W + 16
    right = WIDTH - MARGIN - (WORTH_W + 12 if holding.expected is not None else 0)
    if not holding.bets:
        draw.text((x, cy), _("no bets"), font=font, fill=style.TEXT_DIM, anchor="lm")
    for bet in holding.bets:
        width = chip_width(bet, mascots)
        if x + width > right:
            draw.text((x, cy), "…", font=bold, fill=style.TEXT, anchor="lm")
            break
        _chip(image, draw, (x, cy), bet, mascots)
        x += width + 14
    if holding.expected is not None:
        value = holding.expected
        colour = style.GOLD if best is not None and value == best and value > 0 else style.TEXT
        draw.text((WIDTH - MARGIN, cy), signed_money(value), font=bold, fill=colour, anchor="rm")


def _chip_parts(bet: dict, mascots: dict[str, MascotState]) -> tuple[MascotState | None, str, str]:
    """(the ticket's mascot or None, the side bet's answer word or "", the values drawn after it)."""
    values = bet.get("values") or []
    if bet.get("kind") == "ticket" and bet.get("mascot") in mascots:
        mascot, answer = mascots[str(bet["mascot"])], ""
        text = "/".join(str(v) for v in values)
    else:
        mascot = None
        answer = answer_word(str(bet.get("answer"))) if bet.get("answer") in ("yes", "no") else "?"
        text = "/".join(str(v) for v in values[:2])
    if bet.get("doubled"):
        text += " x2"
    return mascot, answer, text


def chip_width(bet: dict, mascots: dict[str, MascotState]) -> int:
    bold = style.font(MIN_FONT, True)
    mascot, answer, text = _chip_parts(bet, mascots)
    lead = CHIP_D if mascot is not None else int(bold.getlength(answer)) + 12
    return lead + 6 + int(bold.getlength(text))


def _chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    bet: dict,
    mascots: dict[str, MascotState],
) -> None:
    """One bet: its mascot's token (or its YES/NO answer on a card-coloured badge), then its values."""
    x, cy = at
    bold = style.font(MIN_FONT, True)
    mascot, answer, text = _chip_parts(bet, mascots)
    if mascot is not None:
        paste_token(
            image,
            (x + CHIP_D // 2, cy),
            mascot.colour,
            mascot.initial,
            CHIP_D,
            None,
            letter=letter_px(CHIP_D),
        )
        x += CHIP_D + 6
    else:
        w = bold.getlength(answer) + 12
        draw.rounded_rectangle((x, cy - 15, x + w, cy + 15), 6, fill=style.CARD_FACE)
        draw.text((x + w / 2, cy), answer, font=bold, fill=style.CARD_INK, anchor="mm")
        x += int(w) + 6
    draw.text((x, cy), text, font=bold, fill=style.TEXT, anchor="lm")
