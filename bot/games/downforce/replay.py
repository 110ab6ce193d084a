"""A replay of a whole Downforce race: one frame per card played, a pause on the finish.

The presenter keeps the public view after every card (``Downforce.view(None)``, with ``names`` if
it labels seats) and the odds it showed, and calls ``race_replay`` off the event loop at the end.
Each frame is the live picture (``track_image``: 1200 px wide, every text 30 px), at that width by
default: the race's GIF of the live palette frames is smaller (about 0.3 MB for 31 cards) and quicker
to make than one scaled to 800 px (1.3 MB: scaling blurs the flat colours into many). A ``width``
under the frames' scales them (an 800 px replay draws its text 20 px, the readable 1/40 of the width
(``bot.games.fonts``), so a narrower replay would need larger frames' fonts: ``width`` is not taken
below 800).

The live track is drawn with ``live_track``, which keeps its GIF block where it was drawn
(``bot.games.kept_frames``); ``race_replay`` given those blocks (``kept``) joins them and draws only
the frames nobody drew live.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.animation import Animation, Drawn, animate, sparse_count
from bot.games.downforce.narration import colour_name
from bot.games.downforce.render import WIDTH, track_image
from bot.games.kept_frames import Block, digest, keep
from bot.games.odds import Odds
from bot.i18n import _, _n


def race_replay(
    views: Sequence[dict[str, Any]],
    *,
    odds: Sequence[Odds | None] | None = None,
    width: int = WIDTH,
    fmt: str = "gif",
    frame_ms: int = 700,
    kept: Mapping[str, Block] | None = None,
    sparse: bool = False,
) -> Animation:
    """The race in ``views`` (oldest first) as an animation under 8 MB, with alt text."""
    if not views:
        raise ValueError("a replay needs at least one frame")
    if width < 800:
        raise ValueError("a replay narrower than 800 px would draw its words under 1/40 of its width")
    chances = list(odds) if odds is not None else [None] * len(views)
    chances += [None] * (len(views) - len(chances))
    images = Drawn(len(views), lambda i: track_image(views[i], chances[i]))
    digests = [digest(v, c) for v, c in zip(views, chances, strict=True)] if kept else None
    return animate(
        images,
        name="downforce-race",
        alt=replay_alt_text(views, pictures=sparse_count(digests, kept, len(views), sparse)),
        width=width,
        frame_ms=frame_ms,
        fmt=fmt,
        digests=digests,
        kept=kept,
        sparse=sparse,
    )


def live_track(race: str | None, view: dict[str, Any], odds: Odds | None = None) -> bytes:
    """``render_track``'s PNG of ``view``, its GIF block kept for the replay of ``race`` (a
    ``ReplayLog.key``; None: no replay) in the process that drew it."""
    image = track_image(view, odds)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)  # as render_track
    png = out.getvalue()
    keep(race, lambda: digest(view, odds), image, png)
    return png


def replay_alt_text(views: Sequence[dict[str, Any]], *, pictures: int | None = None) -> str:
    """How many cards (in how many ``pictures``, for a sparse replay), the finish order or the leader."""
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
        if pictures is None or pictures >= len(views)
        else _n(
            "Animated replay of the Downforce race on {track}: {n} card, shown in {pictures} pictures.",
            "Animated replay of the Downforce race on {track}: {n} cards, shown in {pictures} pictures.",
            cards,
            track=title,
            pictures=pictures,
        )
    ]
    finished = [c for c in last["standings"] if last["cars"][c]["finished"]]
    if finished:
        parts.append(_("Finish order: {cars}.", cars=", ".join(colour_name(c) for c in finished)))
    elif last.get("standings"):
        parts.append(_("{colour} leads.", colour=colour_name(last["standings"][0])).capitalize())
    return " ".join(parts)[:1000]
