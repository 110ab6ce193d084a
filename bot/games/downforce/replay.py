"""A replay of a whole Downforce race: one frame per card played, a pause on the finish.

The presenter keeps the public view after every card (``Downforce.view(None)``, with ``names`` if
it labels seats) and the odds it showed, and calls ``race_replay`` off the event loop at the end.
Each frame is the live picture (``track_image``: 1200 px wide, every text 30 px) scaled to ``width``;
at the default 800 px every text is 20 px, the readable 1/40 of the width (``bot.games.fonts``), so a
narrower replay would need larger frames' fonts: ``width`` is not taken below 800.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.animation import Animation, Drawn, animate
from bot.games.downforce.narration import colour_name
from bot.games.downforce.render import track_image
from bot.games.odds import Odds
from bot.i18n import _, _n


def race_replay(
    views: Sequence[dict[str, Any]],
    *,
    odds: Sequence[Odds | None] | None = None,
    width: int = 800,
    fmt: str = "gif",
    frame_ms: int = 700,
) -> Animation:
    """The race in ``views`` (oldest first) as an animation under 8 MB, with alt text."""
    if not views:
        raise ValueError("a replay needs at least one frame")
    if width < 800:
        raise ValueError("a replay narrower than 800 px would draw its words under 1/40 of its width")
    chances = list(odds) if odds is not None else [None] * len(views)
    chances += [None] * (len(views) - len(chances))
    images = Drawn(len(views), lambda i: track_image(views[i], chances[i]))
    return animate(
        images,
        name="downforce-race",
        alt=replay_alt_text(views),
        width=width,
        frame_ms=frame_ms,
        fmt=fmt,
    )


def replay_alt_text(views: Sequence[dict[str, Any]]) -> str:
    last = views[-1]
    title = last["track"].get("title", _("the track"))
    cards = last.get("cards_played", len(views))
    parts = [
        _n(
            "Animated replay of the Downforce race on {track}: {n} card, one picture each.",
            "Animated replay of the Downforce race on {track}: {n} cards, one picture each.",
            cards,
            track=title,
        )
    ]
    finished = [c for c in last["standings"] if last["cars"][c]["finished"]]
    if finished:
        parts.append(_("Finish order: {cars}.", cars=", ".join(colour_name(c) for c in finished)))
    elif last.get("standings"):
        parts.append(_("{colour} leads.", colour=colour_name(last["standings"][0])).capitalize())
    return " ".join(parts)[:1000]
