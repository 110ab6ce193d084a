"""The settings of a Downforce game, checked: the track and the betting variant."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import JSON
from bot.games.downforce.content import TRACKS
from bot.games.downforce.scoring import BETTING


class BadSettings(ValueError):
    """Settings a game cannot start with; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    track: str = "river-station"
    betting: str = "standard"

    @classmethod
    def parse(cls, data: dict[str, JSON] | None) -> Settings:
        data = dict(data or {})
        unknown = set(data) - {"track", "betting"}
        if unknown:
            raise BadSettings(f"unknown setting {sorted(unknown)[0]!r}; Downforce takes track and betting")
        out = cls(**data)
        if out.track not in TRACKS:
            raise BadSettings(f"track must be one of {', '.join(TRACKS)}, not {out.track!r}")
        if out.betting not in BETTING:
            raise BadSettings(f"betting must be one of {', '.join(BETTING)}, not {out.betting!r}")
        return out

    def to_json(self) -> dict[str, JSON]:
        return {"track": self.track, "betting": self.betting}
