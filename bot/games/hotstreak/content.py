"""Load and check the Hot Streak edition in ``assets/hotstreak/`` (our own edition, tunable).

Files: ``mascots.json``, ``track.json``, ``cards.json``, ``tickets.json``,
``side_bets.json``. Every problem raises ``ContentError("<file>: <field>: <why>")`` at
load, so a broken edit fails when the bot starts, not in the middle of a race.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeGuard

from bot.games.base import JSON, ContentError
from bot.games.content_files import content_error, read_object
from bot.games.hotstreak.cards import MASCOTS, CardError, parse_card
from bot.games.hotstreak.sidebets import condition_problem
from bot.games.hotstreak.track import Track, track_problem
from bot.paths import ASSETS

FOLDER = ASSETS / "hotstreak"
PLAYER_COUNTS = range(2, 9)
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")


@dataclass(frozen=True)
class Content:
    """One edition of the game's components."""

    mascots: dict[str, dict[str, str]]  # id -> {"name", "animal", "colour"}, in lane order
    track: Track
    bordered: tuple[str, ...]  # one per mascot, in every race deck at setup
    cards: tuple[str, ...]  # every other race card, one entry per physical card
    tickets: dict[str, list[dict[str, list[int]]]]  # mascot -> stack, top (pays most) first
    side_bets: tuple[dict[str, JSON], ...]
    face_up: dict[int, int]  # player count -> random race cards laid face up at setup

    @property
    def deck_size(self) -> int:
        return len(self.bordered) + len(self.cards)


def load_content(folder: Path = FOLDER) -> Content:
    """Read and validate every file of an edition; raise ``ContentError`` on the first problem."""
    mascots = _load_mascots(folder)
    track = _load_track(folder)
    bordered, cards, face_up = _load_cards(folder)
    tickets = _load_tickets(folder)
    side_bets = _load_side_bets(folder)
    return Content(mascots, track, bordered, cards, tickets, side_bets, face_up)


@cache
def default_content() -> Content:
    """The shipped edition, loaded once per process."""
    return load_content(FOLDER)


# --- one loader per file ----------------------------------------------------


def _read(folder: Path, name: str) -> dict[str, JSON]:
    return read_object(folder / name, name)


def _fail(name: str, field: str, why: str) -> ContentError:
    return content_error(name, field, why)


def _int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _load_mascots(folder: Path) -> dict[str, dict[str, str]]:
    name = "mascots.json"
    data = _read(folder, name)
    items = data.get("mascots")
    if not isinstance(items, list) or [m.get("id") if isinstance(m, dict) else None for m in items] != list(
        MASCOTS
    ):
        raise _fail(
            name, "mascots", f"must list the mascots {', '.join(MASCOTS)} in that order, each with an id"
        )
    out: dict[str, dict[str, str]] = {}
    for i, item in enumerate(items):
        for key in ("name", "animal"):
            if not isinstance(item.get(key), str) or not item[key].strip():
                raise _fail(name, f"mascots[{i}].{key}", "must be a non-empty string")
        colour = item.get("colour")
        if not isinstance(colour, str) or not _COLOUR.match(colour):
            raise _fail(name, f"mascots[{i}].colour", "must be a colour like #a1b2c3 (lower case)")
        gender = item.get("gender")
        if gender not in ("female", "male"):
            raise _fail(
                name,
                f"mascots[{i}].gender",
                'must be "female" or "male" (how languages with genders speak of it)',
            )
        out[item["id"]] = {"name": item["name"], "animal": item["animal"], "colour": colour, "gender": gender}
    if len({m["colour"] for m in out.values()}) != len(out):
        raise _fail(name, "mascots.colour", "each mascot needs its own colour")
    return out


def _load_track(folder: Path) -> Track:
    name = "track.json"
    data = _read(folder, name)
    problem = track_problem(data)
    if problem is None and data["lanes"] != len(MASCOTS):
        problem = ("lanes", f"must be {len(MASCOTS)}, one starting lane per mascot")
    if problem:
        raise _fail(name, *problem)
    return Track.from_json(data)


def _load_cards(folder: Path) -> tuple[tuple[str, ...], tuple[str, ...], dict[int, int]]:
    name = "cards.json"
    data = _read(folder, name)
    bordered = data.get("bordered")
    if not isinstance(bordered, list) or len(bordered) != len(MASCOTS):
        raise _fail(name, "bordered", f"must list {len(MASCOTS)} cards, one per mascot")
    for i, text in enumerate(bordered):
        card = _card(name, f"bordered[{i}]", text)
        if card.mascot != MASCOTS[i]:
            raise _fail(
                name, f"bordered[{i}]", f"must be a {MASCOTS[i]} card (one per mascot, in lane order)"
            )
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise _fail(name, "cards", 'must be a list of {"card": notation, "count": n}')
    cards: list[str] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise _fail(name, f"cards[{i}]", 'must be {"card": notation, "count": n}')
        card = _card(name, f"cards[{i}].card", entry.get("card"))
        count = entry.get("count", 1)
        if not _int(count) or count < 1:
            raise _fail(name, f"cards[{i}].count", "must be a whole number >= 1")
        cards += [card.notation] * count
    total = data.get("total")
    if total is not None and total != len(bordered) + len(cards):
        raise _fail(name, "total", f"says {total} but the file holds {len(bordered) + len(cards)} cards")
    face_up_raw = data.get("face_up_by_players")
    if not isinstance(face_up_raw, dict):
        raise _fail(name, "face_up_by_players", "must map each player count 2..8 to a number of cards")
    face_up: dict[int, int] = {}
    for players in PLAYER_COUNTS:
        count = face_up_raw.get(str(players))
        # The box must hold the face-up cards plus every player's hand (4 each with 2 players).
        hand = 4 if players == 2 else 3
        room = len(cards) - players * hand
        if not _int(count) or not 0 <= count <= room:
            raise _fail(name, f"face_up_by_players.{players}", f"must be a whole number from 0 to {room}")
        face_up[players] = count
    return tuple(c.notation for c in (parse_card(b) for b in bordered)), tuple(cards), face_up


def _card(name: str, field: str, text: object):
    try:
        return parse_card(text)
    except CardError as err:
        raise _fail(name, field, str(err)) from None


def _load_tickets(folder: Path) -> dict[str, list[dict[str, list[int]]]]:
    name = "tickets.json"
    data = _read(folder, name)
    stacks = data.get("tickets")
    if not isinstance(stacks, dict) or sorted(stacks) != sorted(MASCOTS):
        raise _fail(name, "tickets", f"must hold one stack for each of {', '.join(MASCOTS)}")
    out: dict[str, list[dict[str, list[int]]]] = {}
    for mascot in MASCOTS:
        stack = stacks[mascot]
        if not isinstance(stack, list) or not stack:
            raise _fail(name, f"tickets.{mascot}", "must be a non-empty list, top ticket first")
        out[mascot] = []
        for i, ticket in enumerate(stack):
            field = f"tickets.{mascot}[{i}]"
            if not isinstance(ticket, dict):
                raise _fail(name, field, 'must be {"safe": [1st, 2nd, 3rd], "risky": [1st, 2nd, 3rd]}')
            sides = {}
            for side in ("safe", "risky"):
                values = ticket.get(side)
                if (
                    not isinstance(values, list)
                    or len(values) != 3
                    or not all(_int(v) and v >= 0 for v in values)
                ):
                    raise _fail(
                        name, f"{field}.{side}", "must be 3 whole numbers >= 0 (pay for 1st, 2nd, 3rd)"
                    )
                sides[side] = list(values)
            safe, risky = sides["safe"], sides["risky"]
            if not (risky[0] >= safe[0] and risky[1] <= safe[1] and risky[2] <= safe[2]):
                raise _fail(
                    name, f"{field}.risky", "must pay at least the safe side for 1st, at most for 2nd/3rd"
                )
            if i and safe[0] > out[mascot][-1]["safe"][0]:
                raise _fail(
                    name, f"{field}.safe", "a lower ticket must not pay more for 1st than the one above"
                )
            out[mascot].append(sides)
    return out


def _load_side_bets(folder: Path) -> tuple[dict[str, JSON], ...]:
    name = "side_bets.json"
    data = _read(folder, name)
    cards = data.get("side_bets")
    if not isinstance(cards, list) or len(cards) < 3:
        raise _fail(name, "side_bets", "must list at least 3 side-bet cards (one per race, never repeated)")
    out: list[dict[str, JSON]] = []
    seen: set[str] = set()
    for i, card in enumerate(cards):
        field = f"side_bets[{i}]"
        if not isinstance(card, dict):
            raise _fail(name, field, "must be an object")
        ident, text = card.get("id"), card.get("text")
        if not isinstance(ident, str) or not ident or ident in seen:
            raise _fail(name, f"{field}.id", "must be a unique non-empty string")
        seen.add(ident)
        if not isinstance(text, str) or not text.strip():
            raise _fail(name, f"{field}.text", "must be a non-empty string")
        problem = condition_problem(card.get("condition"))
        if problem:
            raise _fail(name, f"{field}.{problem[0]}", problem[1])
        slips = card.get("slips")
        if not isinstance(slips, dict) or set(slips) != {"yes", "no"}:
            raise _fail(name, f"{field}.slips", 'must hold "yes" and "no" stacks')
        clean: dict[str, list[dict[str, JSON]]] = {}
        for answer in ("yes", "no"):
            stack = slips[answer]
            if not isinstance(stack, list) or len(stack) != 3:
                raise _fail(name, f"{field}.slips.{answer}", "must hold 3 slips, top first")
            clean[answer] = []
            for j, slip in enumerate(stack):
                sfield = f"{field}.slips.{answer}[{j}]"
                safe = slip.get("safe") if isinstance(slip, dict) else None
                risky = slip.get("risky") if isinstance(slip, dict) else None
                if not _int(safe) or safe < 1:
                    raise _fail(name, f"{sfield}.safe", "must be a whole number >= 1 (paid when right)")
                if (
                    not isinstance(risky, list)
                    or len(risky) != 2
                    or not all(_int(v) for v in risky)
                    or risky[0] < safe
                    or risky[1] >= 0
                ):
                    raise _fail(
                        name,
                        f"{sfield}.risky",
                        "must be [win, loss]: win >= the safe win, loss < 0 (paid when wrong)",
                    )
                clean[answer].append({"safe": safe, "risky": list(risky)})
        out.append({"id": ident, "text": text, "condition": dict(card["condition"]), "slips": clean})
    return tuple(out)
