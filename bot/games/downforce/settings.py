"""The settings of a Downforce game, checked: the track, the betting variant and the powers."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import JSON
from bot.games.downforce.content import TRACKS
from bot.games.downforce.powers import SETTINGS as POWERS
from bot.games.downforce.scoring import BETTING


class BadSettings(ValueError):
    """Settings a game cannot start with; the message says which and why."""


WILD_RULES = ("racing", "any")
"""Which cars a wild line may name: ``racing`` (only cars still racing: a finished car cannot use
it), or ``any`` (the first edition's rule, any colour not on the card, kept for games stored before
the change so their action logs replay as they were played)."""


@dataclass(frozen=True)
class Settings:
    track: str = "river-station"
    betting: str = "standard"
    powers: str = "off"
    wild: str = "racing"

    @classmethod
    def parse(cls, data: dict[str, JSON] | None) -> Settings:
        data = dict(data or {})
        unknown = set(data) - {"track", "betting", "powers", "wild"}
        if unknown:
            raise BadSettings(
                f"unknown setting {sorted(unknown)[0]!r}; Downforce takes track, betting, powers and wild"
            )
        out = cls(**data)
        if out.track not in TRACKS:
            raise BadSettings(f"track must be one of {', '.join(TRACKS)}, not {out.track!r}")
        if out.betting not in BETTING:
            raise BadSettings(f"betting must be one of {', '.join(BETTING)}, not {out.betting!r}")
        if out.powers not in POWERS:
            raise BadSettings(f"powers must be one of {', '.join(POWERS)}, not {out.powers!r}")
        if out.wild not in WILD_RULES:
            raise BadSettings(f"wild must be one of {', '.join(WILD_RULES)}, not {out.wild!r}")
        return out

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"track": self.track, "betting": self.betting}
        if self.powers != "off":  # games saved before powers existed read back unchanged
            out["powers"] = self.powers
        out["wild"] = self.wild  # always written: a stored game without it played the "any" rule
        return out
