"""A replay of a whole Horse Race race: one frame per roll, a pause on the winner.

The host keeps the public view after every roll of a race (``HorseRace.view(None)``, with
``names`` if it labels seats) and calls ``race_replay`` off the event loop once the race is won.
Its frames are the board itself (``board_image``), drawn at the width the replay is sent at
(``WIDTH``, 800 px), so a frame is as readable as the board: no type under 1/40 of the width. Were
an animation scaled down to stay under 8 MB, its type would shrink with its width and stay readable.

The live board is drawn with ``live_board``, which keeps its GIF block where it was drawn
(``bot.games.kept_frames``); ``race_replay`` given those blocks (``kept``) joins them and draws only
the boards nobody drew live.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.animation import Animation, Drawn, animate, sparse_count
from bot.games.horserace.render import WIDTH, board_image
from bot.games.kept_frames import Block, digest, keep
from bot.games.odds import Odds
from bot.i18n import _, _n


def race_replay(
    views: Sequence[dict[str, Any]],
    *,
    odds: Sequence[Odds | None] | None = None,
    width: int = WIDTH,
    fmt: str = "gif",
    frame_ms: int = 350,
    kept: Mapping[str, Block] | None = None,
    sparse: bool = False,
) -> Animation:
    """The race in ``views`` (oldest first) as an animation under 8 MB, with alt text. Rolls go by
    faster than Hot Streak's cards (a race is about 55 rolls), the winner stays on screen."""
    if not views:
        raise ValueError("a replay needs at least one frame")
    chances = list(odds) if odds is not None else [None] * len(views)
    chances += [None] * (len(views) - len(chances))
    images = Drawn(len(views), lambda i: board_image(views[i], odds=chances[i]))
    last = views[-1]
    digests = [digest(v, c) for v, c in zip(views, chances, strict=True)] if kept else None
    return animate(
        images,
        name=f"horserace-race-{last.get('race', 1)}",
        alt=replay_alt_text(views, pictures=sparse_count(digests, kept, len(views), sparse)),
        width=width,
        frame_ms=frame_ms,
        fmt=fmt,
        digests=digests,
        kept=kept,
        sparse=sparse,
    )


def live_board(race: str | None, view: dict[str, Any], *, odds: Odds | None = None) -> bytes:
    """``render_board``'s PNG of ``view``, its GIF block kept for the replay of ``race`` (a
    ``ReplayLog.key``; None: no replay) in the process that drew it."""
    image = board_image(view, odds=odds)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)  # as render_board
    png = out.getvalue()
    keep(race, lambda: digest(view, odds), image, png)
    return png


def replay_alt_text(views: Sequence[dict[str, Any]], *, pictures: int | None = None) -> str:
    """How many rolls (in how many ``pictures``, for a sparse replay), the scratches, the winner."""
    last = views[-1]
    rolls = sum(1 for v in views if v.get("last_roll"))
    parts = [
        _n(
            "Animated replay of Horse Race race {race}: {n} roll, one picture each.",
            "Animated replay of Horse Race race {race}: {n} rolls, one picture each.",
            rolls,
            race=last.get("race", 1),
        )
        if pictures is None or pictures >= len(views)
        else _n(
            "Animated replay of Horse Race race {race}: {n} roll, shown in {pictures} pictures.",
            "Animated replay of Horse Race race {race}: {n} rolls, shown in {pictures} pictures.",
            rolls,
            race=last.get("race", 1),
            pictures=pictures,
        )
    ]
    scratched = [str(e["horse"]) for e in last.get("scratched") or []]
    if scratched:
        parts.append(_("Scratched: {horses}.", horses=", ".join(scratched)))
    if last.get("winner") is not None:
        parts.append(_("Horse {horse} wins.", horse=last["winner"]))
    return " ".join(parts)[:1000]
