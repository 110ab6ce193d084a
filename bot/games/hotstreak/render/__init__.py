"""The race picture players watch after every flipped card, and its alt text.

``render_race(view)`` turns the engine's public race view into a PNG; ``alt_text(view)`` says the
same in words for screen readers. Both are pure functions of the view (the only I/O is loading
the shipped DejaVu fonts once). The track runs left to right: start at the left, finish line at
the right, lane 0 (the leftmost lane for a mascot facing the finish) at the top.

The view keys read are: ``race``, ``races``, ``track`` (``lanes``, ``length``, ``stars``,
``white_lines``), ``bar``, ``mascots`` (``lane``, ``pos``, ``facing``, ``fallen``, ``status``,
``place``), ``mascot_info`` (``name``, ``colour``), ``last_card``, ``cards_left``, ``burned`` and
``podium``; anything else is ignored and missing optional keys get defaults. When the view also holds
``bets`` (and ``cash``), as the game's public view does, the picture lists each player's tickets; when
``odds`` are given it draws them as bars and the tickets say what they are worth at those odds.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.games.hotstreak.narration import bet_label
from bot.games.hotstreak.render.band import Holding, band_height, draw_band, signed_money
from bot.games.hotstreak.render.geometry import layout_for, panels_for, token_spots
from bot.games.hotstreak.render.palette import to_palette
from bot.games.hotstreak.render.panels import draw_card, draw_disqualified, draw_header, draw_podium
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.tokens import paste_halo, paste_token
from bot.games.hotstreak.render.track import background, background_key
from bot.games.hotstreak.render.words import alt_text as _scene_alt_text
from bot.games.odds import Odds
from bot.i18n import _, _n
from bot.i18n.formatting import money, percent

__all__ = ["alt_text", "render_race", "token_centre"]


def render_race(
    view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None
) -> bytes:
    """A PNG (at most 1200 px wide) of the race as it stands in ``view``.

    ``odds`` (from ``bot.games.hotstreak.odds.odds``) adds the odds bars; ``players`` names the seats
    in the tickets list (default "Seat 1", "Seat 2", ...).
    """
    return _png(race_image(view, odds=odds, players=players), view)


def race_image(
    view: dict[str, Any], *, odds: Odds | None = None, players: Sequence[str] | None = None
) -> Image.Image:
    """The frame as a palette image (what ``render_race`` encodes; replays reuse it)."""
    scene = read_scene(view)
    key = background_key(scene)
    base = background(key)
    holdings = _holdings(view, odds, players)
    extra = band_height(scene, odds, holdings)
    if extra:
        from bot.games.hotstreak.render import style

        frame = Image.new("RGB", (base.width, base.height + extra), style.FELT)
        frame.paste(base, (0, 0))
    else:
        frame = base.copy()
    panels = panels_for(layout_for(scene))
    spots = token_spots(scene)
    mover = scene.last_card.split()[0].lower() if scene.last_card else None
    if mover in spots:
        paste_halo(frame, spots[mover][:2], spots[mover][2])
    # Fallen mascots first, so a standing mascot sharing their space is drawn on top of them.
    for mascot in sorted(scene.on_track(), key=lambda m: not m.fallen):
        x, y, d = spots[mascot.key]
        paste_token(frame, (x, y), mascot.colour, mascot.initial, d, mascot.facing, fallen=mascot.fallen)
    draw_header(frame, scene)
    draw_card(frame, scene, panels)
    draw_podium(frame, scene, panels)
    draw_disqualified(frame, scene, panels)
    draw_band(frame, base.height - 16, scene, odds, holdings)
    # A palette image: a fraction of the size and of the encoding time of a true-colour one.
    return to_palette(frame, key)


def _png(image: Image.Image, view: dict[str, Any]) -> bytes:
    del view
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _holdings(view: dict[str, Any], odds: Odds | None, players: Sequence[str] | None) -> list[Holding]:
    """Each seat's bets from the public view (``bets``, ``cash``); none when the view has no bets."""
    bets = view.get("bets")
    if not isinstance(bets, list) or not any(bets):
        return []
    cash = view.get("cash") or []
    out = []
    for seat, held in enumerate(bets):
        name = (
            players[seat] if players is not None and seat < len(players) else _("Seat {seat}", seat=seat + 1)
        )
        expected = None
        if odds is not None:
            from bot.games.hotstreak.odds import bet_value

            expected = sum(bet_value(b, odds) for b in held)
        out.append(
            Holding(
                name=str(name),
                cash=cash[seat] if seat < len(cash) else None,
                bets=tuple(held),
                expected=expected,
            )
        )
    return out


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


def _tickets_words(view: dict[str, Any], odds: Odds | None, players: Sequence[str] | None) -> str:
    holdings = _holdings(view, odds, players)
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
