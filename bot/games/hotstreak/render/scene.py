"""The public race view read once into plain typed values, so the drawing code never guesses at dict keys.

The renderer is coded against the view the engine publishes (see ``render.py``); optional or missing
keys get a sensible default here, so a half-filled view still draws instead of raising.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.games.hotstreak.render.style import RGB, hex_rgb, legible


@dataclass(frozen=True)
class MascotState:
    key: str
    name: str
    colour: RGB
    lane: int
    pos: int
    facing: str  # "forward" (towards the finish) or "back"
    fallen: bool
    status: str  # "racing", "finished" or "out"
    place: int | None

    @property
    def initial(self) -> str:
        return (self.name or self.key or "?")[:1].upper()


@dataclass(frozen=True)
class Scene:
    race: int
    races: int
    lanes: int
    length: int
    stars: tuple[tuple[int, ...], ...]  # per lane, only positions on the track
    white_lines: tuple[int, ...]
    bar: int
    mascots: tuple[MascotState, ...]
    last_card: str | None
    cards_left: int
    burned: int
    podium: tuple[str | None, ...]  # mascot keys, index 0 = 1st place; always 4 long

    def mascot(self, key: str) -> MascotState:
        for m in self.mascots:
            if m.key == key:
                return m
        raise KeyError(key)

    def on_track(self) -> tuple[MascotState, ...]:
        """Mascots still drawn on the track: finished ones stand on the podium, out ones in the DQ box."""
        # The last runner is placed without finishing: it stands on the podium, not on the track.
        return tuple(m for m in self.mascots if m.status == "racing" and m.place is None)


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def read_scene(view: dict[str, Any]) -> Scene:
    """The drawable facts of ``view``; unknown keys are ignored, missing optional ones defaulted."""
    track = view.get("track") or {}
    lanes = max(1, _int(track.get("lanes"), 4))
    length = max(1, _int(track.get("length"), 16))
    raw_stars = list(track.get("stars") or [])
    stars = tuple(
        tuple(sorted({_int(p, -1) for p in (raw_stars[lane] if lane < len(raw_stars) else []) or []} - {-1}))
        for lane in range(lanes)
    )
    stars = tuple(tuple(p for p in lane if 0 <= p < length) for lane in stars)
    white_lines = tuple(
        sorted({p for p in (_int(w, -1) for w in track.get("white_lines") or []) if 0 < p <= length})
    )
    info = view.get("mascot_info") or {}
    mascots = []
    for key, raw in (view.get("mascots") or {}).items():
        raw = raw or {}
        meta = info.get(key) or {}
        place = _int(raw.get("place"), 0)
        mascots.append(
            MascotState(
                key=str(key),
                name=str(meta.get("name") or str(key).title()),
                colour=legible(hex_rgb(meta.get("colour"))),
                lane=_int(raw.get("lane"), 0),
                pos=_int(raw.get("pos"), 0),
                facing="back" if raw.get("facing") == "back" else "forward",
                fallen=bool(raw.get("fallen")),
                status=str(raw.get("status") or "racing"),
                place=place if place > 0 else None,
            )
        )
    keys = {m.key for m in mascots}
    by_name = {m.name.lower(): m.key for m in mascots}
    podium: list[str | None] = []
    for entry in list(view.get("podium") or [])[:4]:
        # The engine may list keys ("gobbler") or display names ("Gobbler"); accept both.
        text = str(entry) if entry is not None else ""
        podium.append(text if text in keys else by_name.get(text.lower()))
    podium += [None] * (4 - len(podium))
    card = view.get("last_card")
    return Scene(
        race=_int(view.get("race"), 1),
        races=_int(view.get("races"), 3),
        lanes=lanes,
        length=length,
        stars=stars,
        white_lines=white_lines,
        bar=min(max(_int(view.get("bar"), 0), 0), length),
        mascots=tuple(mascots),
        last_card=str(card) if card else None,
        cards_left=max(0, _int(view.get("cards_left"), 0)),
        burned=max(0, _int(view.get("burned"), 0)),
        podium=tuple(podium),
    )
