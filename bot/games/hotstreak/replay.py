"""A replay of a whole Hot Streak race: one frame per flipped card (and fold), a pause on the finish.

The host collects the ``frame`` carried by each ``card_flipped`` and ``bar_folded`` event of a race
(adding the race's ``bets`` and ``cash`` if it wants the tickets shown) and calls ``race_replay`` off
the event loop. Pure: the same frames always give the same bytes.

The frames are drawn 800 px wide for Discord's preview (``bot.games.fonts``), and the replay keeps
that width (``width`` defaults to it), so its text is as readable as the live frames'. Only a replay
that would pass Discord's 8 MB is scaled down (``bot.games.animation``); a Hot Streak race of 800 x 600
palette frames stays far under it (a whole race is well under 1 MB).

A race's live pictures are drawn with ``live_picture``, which keeps each one's GIF block where it was
drawn (``bot.games.kept_frames``); ``race_replay`` given those blocks (``kept``) joins them and draws
only the frames nobody drew live (a card that changed nothing on the track gets no picture of its own).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.animation import Animation, Drawn, animate, sparse_count
from bot.games.hotstreak.render import race_image
from bot.games.hotstreak.render.geometry import WIDTH
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.words import podium_words
from bot.games.kept_frames import Block, digest, keep
from bot.games.odds import Odds
from bot.i18n import _, _n
from bot.i18n.formatting import percent


def race_replay(
    frames: Sequence[dict[str, Any]],
    *,
    odds: Sequence[Odds | None] | None = None,
    players: Sequence[str] | None = None,
    width: int = WIDTH,
    fmt: str = "gif",
    kept: Mapping[str, Block] | None = None,
    sparse: bool = False,
) -> Animation:
    """The race in ``frames`` (oldest first) as an animation under 8 MB, with alt text.

    ``odds``, if given, has one entry per frame (``None`` where there are none) and draws the bars;
    ``kept``: the blocks ``live_picture`` kept for this race; ``sparse``: a busy bot's replay, of the
    kept frames alone (``bot.games.animation.shown_frames``).
    """
    if not frames:
        raise ValueError("a replay needs at least one frame")
    chances = list(odds) if odds is not None else [None] * len(frames)
    chances += [None] * (len(frames) - len(chances))
    images = Drawn(len(frames), lambda i: race_image(frames[i], odds=chances[i], players=players))
    last = frames[-1]
    race = last.get("race", 1)
    digests = [frame_key(f, c, players) for f, c in zip(frames, chances, strict=True)] if kept else None
    return animate(
        images,
        name=f"hotstreak-race-{race}",
        alt=replay_alt_text(frames, chances, pictures=sparse_count(digests, kept, len(frames), sparse)),
        width=width,
        fmt=fmt,
        digests=digests,
        kept=kept,
        sparse=sparse,
    )


def frame_key(frame: dict[str, Any], odds: Odds | None, players: Sequence[str] | None) -> str:
    """What the picture of ``frame`` shows (``bot.games.kept_frames.digest``)."""
    return digest(frame, odds, list(players) if players is not None else None)


def live_picture(
    race: str | None,
    frame: dict[str, Any],
    *,
    odds: Odds | None = None,
    players: Sequence[str] | None = None,
) -> bytes:
    """``render_race``'s PNG of ``frame``, its GIF block kept for the replay of ``race`` (a
    ``ReplayLog.key``; None: no replay) in the process that drew it."""
    image = race_image(frame, odds=odds, players=players)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)  # as render_race
    png = out.getvalue()
    keep(race, lambda: frame_key(frame, odds, players), image, png)
    return png


def replay_alt_text(
    frames: Sequence[dict[str, Any]], odds: Sequence[Odds | None] = (), *, pictures: int | None = None
) -> str:
    """What the replay shows, in words: how many cards (in how many ``pictures``, for a sparse one), the
    podium, and who was favourite at the start."""
    last = frames[-1]
    info = last.get("mascot_info") or {}

    def name(key: str | None) -> str:
        return str((info.get(key) or {}).get("name") or (key.title() if key else _("nobody")))

    flips = sum(1 for f in frames if f.get("last_card"))
    parts = [
        _n(
            "Animated replay of Hot Streak race {race}: {n} card, one picture each.",
            "Animated replay of Hot Streak race {race}: {n} cards, one picture each.",
            flips,
            race=last.get("race", 1),
        )
        if pictures is None or pictures >= len(frames)
        else _n(
            "Animated replay of Hot Streak race {race}: {n} card, shown in {pictures} pictures.",
            "Animated replay of Hot Streak race {race}: {n} cards, shown in {pictures} pictures.",
            flips,
            race=last.get("race", 1),
            pictures=pictures,
        )
    ]
    scene = read_scene(last)
    if any(scene.podium):
        # Told as the results embed tells it: paid places, shared ones once, the disqualified marked.
        parts.append(_("Result: {places}.", places=podium_words(scene, empty_steps=False)))
    first = next((o for o in odds if o is not None), None)
    if first is not None and first.win:
        fav = max(first.win, key=lambda k: first.win[k])
        parts.append(
            _(
                "Favourite at the start: {name} ({chance} to win).",
                name=name(fav),
                chance=percent(first.percent(fav) / 100),
            )
        )
    return " ".join(parts)[:1000]
