"""Table settings, chosen when the game starts and validated once."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bot.games.base import GameError
from bot.games.horserace.board import available_boards, is_board_name

END_MODES = ("races", "broke", "minutes")
DEFAULT_MINUTES = 30
DEFAULT_BANK = 60
"""The smallest bank (in $5 steps) with which, at the other defaults, under 5% of the dollars owed
go unpaid over a game with 4 players and with 8 (``python -m bot sim horserace --games N``): at $20
a third of scratch penalties went unpaid, so after a race or two a penalty cost nothing."""


class BadSettings(GameError, ValueError):
    """A setting is missing its sense (unknown key, wrong type, out of range)."""


@dataclass(frozen=True)
class Settings:
    """``end`` picks how the game ends: after ``races`` races, when a player runs out of money
    (that race is the last), or at ``time_up`` after ``minutes`` minutes: a table step that is due
    at ``ends_at`` (unix time, fixed when the host starts the game; None: whenever the host says)."""

    bank: int = DEFAULT_BANK
    fee: int = 1
    races: int = 5
    end: str = "races"
    minutes: int | None = None
    board: str = "standard"
    dealer: int = 0
    ends_at: float | None = None

    @classmethod
    def parse(cls, raw: dict[str, Any] | None, seats: int) -> Settings:
        raw = dict(raw or {})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(raw) - known)
        if unknown:
            raise BadSettings(f"Unknown setting(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}.")
        bank = _whole(raw, "bank", DEFAULT_BANK, 1, 1_000_000)
        fee = _whole(raw, "fee", 1, 1, 100_000)
        races = _whole(raw, "races", 5, 1, 1000)
        end = raw.get("end", "races")
        if end not in END_MODES:
            raise BadSettings(f"Setting 'end' must be one of {', '.join(END_MODES)}, got {end!r}.")
        minutes = _whole(raw, "minutes", DEFAULT_MINUTES, 1, 24 * 60) if end == "minutes" else None
        board = raw.get("board", "standard")
        if not is_board_name(board) or board not in available_boards():
            raise BadSettings(
                f"Setting 'board' must be one of {', '.join(available_boards())}, got {board!r}."
            )
        dealer = _whole(raw, "dealer", 0, 0, seats - 1)
        ends_at = raw.get("ends_at")
        if ends_at is not None and (
            end != "minutes" or isinstance(ends_at, bool) or not isinstance(ends_at, int | float)
        ):
            raise BadSettings(f"Setting 'ends_at' is a unix time for end=minutes only, got {ends_at!r}.")
        return cls(
            bank=bank,
            fee=fee,
            races=races,
            end=end,
            minutes=minutes,
            board=board,
            dealer=dealer,
            ends_at=ends_at,
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(**data)  # a game stored before ``ends_at`` existed gets its default


def _whole(raw: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadSettings(f"Setting {key!r} must be a whole number from {low} to {high}, got {value!r}.")
    return value
