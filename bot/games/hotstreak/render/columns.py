"""The two columns beside the card: the mascots (legend, odds and places in one) and the players.

The old frame had a legend in the header, an odds band, a podium with names and a box of the
disqualified, all in type too small for Discord's preview. Here each mascot gets one row, its token
(crossed out when disqualified), its name and one figure: its place once it has one (on a medal in the
podium's colours), else its chance to win. Each player gets one line: the name and what the bets
are worth at these odds (the cash when there are none); every ticket is in the detail picture
(``render_holdings``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.games.hotstreak.render import style
from bot.games.hotstreak.render.geometry import COLUMN_TOKEN_D, MIN_FONT, Box, PanelLayout, letter_px
from bot.games.hotstreak.render.holdings import Holding, best_worth, signed_money
from bot.games.hotstreak.render.scene import MascotState, Scene
from bot.games.hotstreak.render.tokens import paste_token
from bot.games.odds import Odds
from bot.games.text_fit import draw_text, fit_text
from bot.i18n import _
from bot.i18n.formatting import money, ordinal, percent

PAD = 12  # inner margin of a column
MEDAL_W, MEDAL_H = 52, 30


def race_over(scene: Scene) -> bool:
    return all(scene.podium)


def mascot_rows(scene: Scene) -> tuple[MascotState, ...]:
    """The mascots in the column's order: as the legend lists them, by place once the race is over."""
    if race_over(scene):
        return tuple(sorted(scene.mascots, key=lambda m: m.place if m.place is not None else 99))
    return scene.mascots


def _title(draw: ImageDraw.ImageDraw, box: Box, text: str, note: str = "") -> None:
    font = style.font(MIN_FONT, True)
    x0, y0, x1 = box[0], box[1], box[2]
    if note and font.getlength(text) + 10 + font.getlength(note) > x1 - x0 - 2 * PAD:
        note = ""  # the title comes first: "CHANCES" alone still says what the figures are
    note_w = font.getlength(note) if note else 0.0
    room = x1 - x0 - 2 * PAD - (note_w + 10 if note else 0)
    draw_text(draw, (x0 + PAD, y0 + 9), fit_text(text, font, room), font=font, fill=style.GOLD)
    if note:
        draw_text(draw, (x1 - PAD, y0 + 9), note, font=font, fill=style.TEXT_DIM, anchor="ra")


def mascot_token_centre(panels: PanelLayout, scene: Scene, index: int) -> tuple[int, int]:
    """Centre of the ``index``-th row's token in the mascots column (also the legend's token)."""
    x0 = panels.mascots[0]
    top, height = panels.row(panels.mascots, index, len(scene.mascots), most=50)
    return x0 + PAD + COLUMN_TOKEN_D // 2, top + height // 2


def draw_mascots(
    frame: Image.Image, scene: Scene, panels: PanelLayout, odds: Odds | None, steps: bool
) -> None:
    """The mascots column; ``steps``: the podium is drawn beside it (so the title need not say podium)."""
    draw = ImageDraw.Draw(frame)
    box = panels.mascots
    over = race_over(scene)
    if over and not steps:
        title = _("PODIUM")
    elif odds and not over:
        title = _("ODDS")
    else:
        title = _("MASCOTS")
    _title(draw, box, title, _("WIN") if odds and not over else "")
    name_font = figure_font = style.font(MIN_FONT, True)
    x1 = box[2]
    for i, m in enumerate(mascot_rows(scene)):
        cx, cy = mascot_token_centre(panels, scene, i)
        out = m.status == "out"
        paste_token(
            frame,
            (cx, cy),
            m.colour,
            m.initial,
            COLUMN_TOKEN_D,
            None,
            crossed=out,
            letter=letter_px(COLUMN_TOKEN_D),
        )
        right: float = x1 - PAD
        if m.place is not None:
            right = _medal(draw, (x1 - PAD - MEDAL_W, cy - MEDAL_H // 2), m.place)
        elif odds:
            figure = percent(odds.percent(m.key) / 100)
            draw_text(draw, (x1 - PAD, cy), figure, font=figure_font, fill=style.TEXT, anchor="rm")
            right = x1 - PAD - figure_font.getlength(figure)
        name_x = cx + COLUMN_TOKEN_D // 2 + 8
        name = fit_text(m.name, name_font, right - 8 - name_x)
        draw_text(
            draw, (name_x, cy), name, font=name_font, fill=style.TEXT_DIM if out else style.TEXT, anchor="lm"
        )


def _medal(draw: ImageDraw.ImageDraw, at: tuple[int, int], place: int) -> float:
    """A place as a little step in the podium's colour; returns its left x."""
    x, y = at
    colour = style.STEP_COLOURS[min(place, len(style.STEP_COLOURS)) - 1]
    draw.rounded_rectangle((x, y, x + MEDAL_W, y + MEDAL_H), 7, fill=colour)
    draw_text(
        draw,
        (x + MEDAL_W / 2, y + MEDAL_H / 2),
        ordinal(place),
        font=style.font(MIN_FONT, True),
        fill=style.ink_on(colour),
        anchor="mm",
    )
    return x


def draw_players(frame: Image.Image, panels: PanelLayout, holdings: Sequence[Holding]) -> None:
    """One line per player: the name and what the bets are worth at these odds (the best in gold), or
    the cash when there are no odds. Both would leave a name a few letters; the cash does not change
    during a race, and the detail picture gives it."""
    draw = ImageDraw.Draw(frame)
    box = panels.right
    worth = any(h.expected is not None for h in holdings)
    _title(draw, box, _("TICKETS"), _("WORTH") if worth else "")
    font, bold = style.font(MIN_FONT), style.font(MIN_FONT, True)
    best = best_worth(holdings)
    if worth:
        figures = [signed_money(h.expected) if h.expected is not None else "" for h in holdings]
    else:
        figures = [money(h.cash) if h.cash is not None else "" for h in holdings]
    figure_font = bold if worth else font
    figure_w = max((figure_font.getlength(f) for f in figures), default=0.0)
    x0, x1 = box[0], box[2]
    name_room = x1 - PAD - (figure_w + 12 if figure_w else 0) - (x0 + PAD)
    for i, h in enumerate(holdings):
        top, height = panels.row(box, i, len(holdings), most=34)
        cy = top + height // 2
        draw_text(
            draw, (x0 + PAD, cy), fit_text(h.name, bold, name_room), font=bold, fill=style.TEXT, anchor="lm"
        )
        if not figures[i]:
            continue
        colour = style.TEXT_DIM
        if worth:
            value = h.expected or 0.0
            colour = style.GOLD if best is not None and value == best and value > 0 else style.TEXT
        draw_text(draw, (x1 - PAD, cy), figures[i], font=figure_font, fill=colour, anchor="rm")
