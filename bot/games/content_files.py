"""Reading a game's data files: every problem is a ``ContentError`` naming the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

from bot.games.base import JSON, ContentError


def read_object(path: Path, name: str) -> dict[str, JSON]:
    """The JSON object in ``path`` (``name`` is how errors call the file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{name}: (file): missing at {path}") from None
    except json.JSONDecodeError as err:
        raise ContentError(f"{name}: (file): not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise ContentError(f"{name}: (file): must hold a JSON object")
    return data


def content_error(name: str, field: str, why: str) -> ContentError:
    return ContentError(f"{name}: {field}: {why}")
