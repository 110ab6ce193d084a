"""Board layouts as data: how many moves each horse needs to reach the Champion Circle.

Layouts live in ``assets/horserace/<name>.json``. The numbers handicap the horses that are
rolled most often (6, 7, 8), and editions differ, so they are content, not code.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.base import ContentError
from bot.paths import ASSETS

HORSES: tuple[int, ...] = tuple(range(2, 13))
BOARDS_DIR = ASSETS / "horserace"
MAX_MOVES = 40
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class Board:
    """A layout: ``moves[horse]`` steps from the start line into the Champion Circle."""

    name: str
    title: str
    moves: dict[int, int]
    titles: dict[str, str] = field(default_factory=dict)  # the title in other languages ("pt-BR": ...)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "title": self.title}
        if self.titles:
            data["titles"] = dict(self.titles)
        return data | {"moves": {str(h): m for h, m in self.moves.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Board:
        return parse_board(data, source=f"stored board {data.get('name')!r}", expect_name=None)


def available_boards(directory: Path = BOARDS_DIR) -> list[str]:
    """Names of the layouts shipped in ``directory``."""
    return sorted(p.stem for p in directory.glob("*.json"))


def is_board_name(name: object) -> bool:
    return isinstance(name, str) and bool(_NAME.match(name))


def load_board(name: str, directory: Path = BOARDS_DIR) -> Board:
    """Load and validate ``<directory>/<name>.json``; a broken file raises ``ContentError``."""
    if not is_board_name(name):
        raise ContentError(f"horserace board name {name!r}: use lower-case letters, digits, '-' and '_'.")
    path = directory / f"{name}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError(
            f"{path}: no such board file (known: {', '.join(available_boards(directory))})"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ContentError(f"{path}: not valid JSON ({error})") from None
    return parse_board(data, source=str(path), expect_name=name)


def parse_board(data: Any, source: str, expect_name: str | None) -> Board:
    """Validate a layout; every error names ``source`` and the field at fault."""
    if not isinstance(data, dict):
        raise ContentError(f"{source}: the file must hold a JSON object")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ContentError(f"{source}: field 'name' must be a non-empty string")
    if expect_name is not None and name != expect_name:
        raise ContentError(f"{source}: field 'name' is {name!r} but the file is named {expect_name!r}")
    title = data.get("title", name)
    if not isinstance(title, str):
        raise ContentError(f"{source}: field 'title' must be a string")
    titles = data.get("titles", {})
    if not isinstance(titles, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in titles.items()
    ):
        raise ContentError(f"{source}: field 'titles' must map language codes to non-empty titles")
    moves_raw = data.get("moves")
    if not isinstance(moves_raw, dict):
        raise ContentError(f"{source}: field 'moves' must be an object mapping '2'..'12' to move counts")
    wanted = {str(h) for h in HORSES}
    missing = sorted(wanted - set(moves_raw), key=int)
    if missing:
        raise ContentError(f"{source}: field 'moves' lacks horse(s) {', '.join(missing)}")
    extra = sorted(set(moves_raw) - wanted)
    if extra:
        raise ContentError(
            f"{source}: field 'moves' has unknown horse(s) {', '.join(extra)}; horses are 2..12"
        )
    moves: dict[int, int] = {}
    for horse in HORSES:
        value = moves_raw[str(horse)]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_MOVES:
            raise ContentError(
                f"{source}: field 'moves.{horse}' must be a whole number from 1 to {MAX_MOVES}, got {value!r}"
            )
        moves[horse] = value
    return Board(name=name, title=title, moves=moves, titles=dict(titles))
