"""The track picture with the spaces a car may end on marked A, B, C..., for a choice of end space.

The engine's renderer draws the labels (``render_track``'s ``marks``); this only chooses them, so the
buttons or menu options ("A · row 12, lane 1") point at places a player can see. Plain Pillow: call
it in a thread.
"""

from __future__ import annotations

import string
from typing import Any

from bot.games.downforce.render import render_track

LETTERS = string.ascii_uppercase


def marked_spaces(options: list[str], spaces: set[str]) -> dict[str, str]:
    """space -> its letter, for the options that are spaces on the track (not the finish). Two
    ways to one end (``"14a"`` and ``"14a~13b"``, ruling (c) of issue 27) share its letter."""
    on_track = list(dict.fromkeys(o.split("~")[0] for o in options if o.split("~")[0] in spaces))
    return dict(zip(on_track, LETTERS, strict=False))


def render_choice(view: dict[str, Any], options: list[str]) -> bytes:
    """``render_track(view)`` with each space option lettered in a white disc."""
    spaces = {s["id"] for s in view["track"]["spaces"]}
    return render_track(view, marks=marked_spaces(options, spaces))
