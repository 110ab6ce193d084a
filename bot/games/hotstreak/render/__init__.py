"""The race picture players watch after every flipped card, and its alt text.

``render_race(view)`` turns the engine's public race view into a PNG; ``alt_text(view)`` says the
same in words for screen readers. Both are pure functions of the view (the only I/O is loading
the shipped DejaVu fonts once). The track runs left to right: start at the left, finish line at
the right, lane 0 (the leftmost lane for a mascot facing the finish) at the top.

The view keys read are: ``race``, ``races``, ``track`` (``lanes``, ``length``, ``stars``,
``white_lines``), ``bar``, ``mascots`` (``lane``, ``pos``, ``facing``, ``fallen``, ``status``,
``place``), ``mascot_info`` (``name``, ``colour``), ``last_card``, ``cards_left``, ``burned`` and
``podium``; anything else is ignored and missing optional keys get defaults.
"""

from __future__ import annotations

import io
from typing import Any

from bot.games.hotstreak.render.geometry import layout_for, panels_for, token_spots
from bot.games.hotstreak.render.palette import to_palette
from bot.games.hotstreak.render.panels import draw_card, draw_disqualified, draw_header, draw_podium
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.tokens import paste_halo, paste_token
from bot.games.hotstreak.render.track import background, background_key
from bot.games.hotstreak.render.words import alt_text as _scene_alt_text

__all__ = ["alt_text", "render_race", "token_centre"]


def render_race(view: dict[str, Any]) -> bytes:
    """A PNG (at most 1200 px wide) of the race as it stands in ``view``."""
    scene = read_scene(view)
    key = background_key(scene)
    frame = background(key).copy()
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
    out = io.BytesIO()
    # A palette PNG: a fraction of the size and of the encoding time of a true-colour one.
    to_palette(frame, key).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def token_centre(view: dict[str, Any], mascot: str) -> tuple[int, int]:
    """Pixel centre of ``mascot``'s token on the track; ValueError if it is not on the track."""
    scene = read_scene(view)
    spots = token_spots(scene)
    if mascot not in spots:
        raise ValueError(f"{mascot!r} is not on the track")
    x, y, _ = spots[mascot]
    return x, y


def alt_text(view: dict[str, Any]) -> str:
    """A description of the race picture for screen readers, under 1000 characters."""
    return _scene_alt_text(read_scene(view))
