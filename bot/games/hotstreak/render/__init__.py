"""The race picture players watch after every flipped card, and its alt text.

``render_race(view)`` turns the engine's public race view into a PNG; ``alt_text(view)`` says the
same in words for screen readers. Both are pure functions of the view (the only I/O is loading
the shipped DejaVu fonts once). The track runs left to right: start at the left, finish line at
the right, lane 0 (the leftmost lane for a mascot facing the finish) at the top.

The view keys read are: ``race``, ``races``, ``track`` (``lanes``, ``length``, ``stars``,
``white_lines``), ``bar``, ``mascots`` (``lane``, ``pos``, ``facing``, ``fallen``, ``status``,
``place``), ``mascot_info`` (``name``, ``colour``), ``last_card``, ``cards_left``, ``burned`` and
``podium``; anything else is ignored and missing optional keys get defaults. When the view also holds
``bets`` (and ``cash``), as the game's public view does, the picture gives each player one line (cash,
and what the bets are worth at ``odds`` when given) in place of the podium, and ``render_holdings``
draws the detail picture of every ticket and side bet; ``odds`` also give each mascot's chance to win.
Every picture is drawn for Discord's preview (``bot.games.fonts``): 800 px wide, at most 600 px tall,
no font under 20 px.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.games.hotstreak.narration import bet_label
from bot.games.hotstreak.render.columns import draw_mascots, draw_players
from bot.games.hotstreak.render.details import render_holdings
from bot.games.hotstreak.render.geometry import layout_for, letter_px, panels_for, token_spots
from bot.games.hotstreak.render.holdings import holdings_of, signed_money
from bot.games.hotstreak.render.palette import to_palette
from bot.games.hotstreak.render.panels import draw_card, draw_header, draw_podium
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.tokens import paste_halo, paste_token
from bot.games.hotstreak.render.track import background, background_key
from bot.games.hotstreak.render.words import alt_text as _scene_alt_text
from bot.games.odds import Odds
from bot.i18n import _, _n
from bot.i18n.formatting import money, percent

__all__ = ["alt_text", "holdings_alt_text", "render_holdings", "render_race", "token_centre"]


def render_race(
    view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None
) -> bytes:
    """An 800 x 600 PNG of the race as it stands in ``view``, readable at Discord's preview size.

    ``odds`` (from ``bot.games.hotstreak.odds.odds``) adds each mascot's chance to win; ``players``
    names the seats in the players column (default "Seat 1", "Seat 2", ...).
    """
    return _png(race_image(view, odds=odds, players=players))


def race_image(
    view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None
) -> Image.Image:
    """The frame as a palette image (what ``render_race`` encodes; replays reuse it)."""
    scene = read_scene(view)
    holdings = holdings_of(view, odds, players)
    steps = not holdings  # the right-hand panel: the players' lines, or the podium when nobody bets
    key = background_key(scene, steps)
    frame = background(key).copy()
    panels = panels_for(layout_for(scene))
    spots = token_spots(scene)
    mover = scene.last_card.split()[0].lower() if scene.last_card else None
    if mover in spots:
        paste_halo(frame, spots[mover][:2], spots[mover][2])
    # Fallen mascots first, so a standing mascot sharing their space is drawn on top of them.
    for mascot in sorted(scene.on_track(), key=lambda m: not m.fallen):
        x, y, d = spots[mascot.key]
        paste_token(
            frame,
            (x, y),
            mascot.colour,
            mascot.initial,
            d,
            mascot.facing,
            fallen=mascot.fallen,
            letter=letter_px(d),
        )
    draw_header(frame, scene)
    draw_card(frame, scene, panels)
    draw_mascots(frame, scene, panels, odds, steps)
    if steps:
        draw_podium(frame, scene, panels)
    else:
        draw_players(frame, panels, holdings)
    # A palette image: a fraction of the size and of the encoding time of a true-colour one.
    return to_palette(frame, key)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def token_centre(view: dict[str, Any], mascot: str) -> tuple[int, int]:
    """Pixel centre of ``mascot``'s token on the track; ValueError if it is not on the track."""
    scene = read_scene(view)
    spots = token_spots(scene)
    if mascot not in spots:
        raise ValueError(f"{mascot!r} is not on the track")
    x, y, _size = spots[mascot]
    return x, y


def alt_text(view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None) -> str:
    """A description of the race picture for screen readers, under 1000 characters; with ``odds``
    it starts with each mascot's chances ("Gobbler 41% to win, 63% to place")."""
    scene = read_scene(view)
    return _scene_alt_text(
        scene, odds_words(scene, odds) if odds else "", _tickets_words(view, odds, players)
    )


def odds_words(scene: Any, odds: Odds) -> str:
    parts = []
    for m in scene.mascots:
        win = percent(odds.percent(m.key) / 100)
        if odds.place is not None:
            place = percent(odds.percent(m.key, "place") / 100)
            parts.append(_("{name} {win} to win, {place} to place", name=m.name, win=win, place=place))
        else:
            parts.append(_("{name} {win} to win", name=m.name, win=win))
    if odds.exact or odds.samples is None:  # (exact odds have no samples)
        return _("Odds (exact): {odds}.", odds="; ".join(parts))
    return _n(
        "Odds (from {n} simulated race): {odds}.",
        "Odds (from {n} simulated races): {odds}.",
        odds.samples,
        odds="; ".join(parts),
    )


def holdings_alt_text(
    view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None
) -> str:
    """The alt text of the detail picture (``render_holdings``): every player's tickets in words."""
    return _tickets_words(view, odds, players)[:1000] or _("Tickets: nobody holds a bet.")


def _tickets_words(view: dict[str, Any], odds: Odds | None, players: Sequence[str] | None) -> str:
    holdings = holdings_of(view, odds, players)
    if not holdings:
        return ""
    names = {m: str(info.get("name") or m.title()) for m, info in (view.get("mascot_info") or {}).items()}
    parts = []
    for h in holdings:
        bets = ", ".join(bet_label(b, names) for b in h.bets) or _("no bets")
        values = {"name": h.name, "cash": money(h.cash or 0), "bets": bets}
        if h.expected is not None:
            parts.append(
                _(
                    "{name} ({cash}) holds {bets}, worth {worth} at these odds",
                    worth=signed_money(h.expected),
                    **values,
                )
            )
        else:
            parts.append(_("{name} ({cash}) holds {bets}", **values))
    return _("Tickets: {tickets}.", tickets="; ".join(parts))
