"""Load and check the Downforce edition in ``assets/downforce/`` (our own cards and tracks).

Files: ``cards.json`` (42 speed cards and the 6 Speed-8 cards) and ``tracks/<name>.json``. Every
problem raises ``ContentError("<file>: <field>: <why>")`` at load, so a broken edit fails when the
bot starts, not in the middle of a race. The speed cards must be balanced: every colour on the
same number of lines with the same total speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.games.base import JSON, ContentError
from bot.games.content_files import content_error, read_object
from bot.games.downforce.cards import COLOURS, WILD, CardError, Line, parse_card, speed8_id
from bot.games.downforce.track import Track, track_problem
from bot.paths import ASSETS

FOLDER = ASSETS / "downforce"
SPEED_CARDS = 42
TRACKS = (
    "river-station",
    "marina-bay",
    "crosstown-speedway",
    "switchback-pass",
    "aloha-sands",
    "savanna-stretch",
)


@dataclass(frozen=True)
class Content:
    """One edition: every card by id (speed cards first, then the Speed-8 cards) and the tracks."""

    cards: dict[str, tuple[Line, ...]]
    speed_cards: tuple[str, ...]
    speed8: dict[str, str]  # colour -> card id
    tracks: dict[str, Track]


def load_content(folder: Path = FOLDER) -> Content:
    cards, speed_cards, speed8 = _load_cards(folder)
    tracks = {name: load_track(folder / "tracks" / f"{name}.json") for name in TRACKS}
    return Content(cards, speed_cards, speed8, tracks)


@cache
def default_content() -> Content:
    """The shipped edition, loaded once per process."""
    return load_content(FOLDER)


def _read(path: Path, name: str) -> dict[str, JSON]:
    return read_object(path, name)


def _fail(name: str, field: str, why: str) -> ContentError:
    return content_error(name, field, why)


def _edition(name: str, data: dict[str, JSON]) -> None:
    text = data.get("edition")
    if not isinstance(text, str) or "own edition" not in text.lower():
        raise _fail(name, "edition", "must say it is the project's own edition ('Our own edition ...')")


def _load_cards(folder: Path) -> tuple[dict[str, tuple[Line, ...]], tuple[str, ...], dict[str, str]]:
    name = "cards.json"
    data = _read(folder / name, name)
    _edition(name, data)
    entries = data.get("speed_cards")
    if not isinstance(entries, list) or len(entries) != SPEED_CARDS:
        raise _fail(
            name, "speed_cards", f'must list {SPEED_CARDS} cards like {{"id": "c01", "card": "red 4"}}'
        )
    cards: dict[str, tuple[Line, ...]] = {}
    for i, entry in enumerate(entries):
        ident, lines = _card(name, f"speed_cards[{i}]", entry, cards)
        cards[ident] = lines
    speed_cards = tuple(cards)
    count = dict.fromkeys(COLOURS, 0)
    total = dict.fromkeys(COLOURS, 0)
    for lines in cards.values():
        for colour, speed in lines:
            if colour != WILD:
                count[colour] += 1
                total[colour] += speed
    if len(set(count.values())) != 1 or len(set(total.values())) != 1:
        shown = ", ".join(f"{c} {count[c]} lines/{total[c]} speed" for c in COLOURS)
        raise _fail(name, "speed_cards", f"must be balanced (each colour the same lines and speed): {shown}")
    eights = data.get("speed8")
    if not isinstance(eights, list) or len(eights) != len(COLOURS):
        raise _fail(name, "speed8", "must list 6 Speed-8 cards, one per colour")
    speed8: dict[str, str] = {}
    for i, entry in enumerate(eights):
        field = f"speed8[{i}]"
        ident, lines = _card(name, field, entry, cards)
        if len(lines) != 1 or lines[0][1] != 8 or lines[0][0] == WILD:
            raise _fail(name, f"{field}.card", "must be one line of a colour at speed 8, like 'red 8'")
        colour = lines[0][0]
        if colour in speed8 or ident != speed8_id(colour):
            raise _fail(name, f"{field}.id", f"must be {speed8_id(colour)!r}, once per colour")
        speed8[colour] = ident
        cards[ident] = lines
    return cards, speed_cards, {c: speed8[c] for c in COLOURS}


def _card(
    name: str, field: str, entry: object, seen: dict[str, tuple[Line, ...]]
) -> tuple[str, tuple[Line, ...]]:
    if not isinstance(entry, dict) or set(entry) != {"id", "card"}:
        raise _fail(name, field, 'must be {"id": ..., "card": "red 4, blue 2"}')
    ident = entry["id"]
    if not isinstance(ident, str) or not ident or ident in seen:
        raise _fail(name, f"{field}.id", "must be a unique non-empty string")
    try:
        return ident, parse_card(entry["card"])
    except CardError as err:
        raise _fail(name, f"{field}.card", str(err)) from None


def load_track(path: Path) -> Track:
    name = f"tracks/{path.name}"
    data = _read(path, name)
    _edition(name, data)
    problem = track_problem(data, needs_grid=True)
    if problem:
        raise _fail(name, *problem)
    for key in ("name", "title"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise _fail(name, key, "must be a non-empty string")
    for i, item in enumerate(data["spaces"]):
        for key in ("x", "y", "angle"):
            if key not in item:
                raise _fail(name, f"spaces[{i}].{key}", "is needed to draw the track")
    return Track(data)
