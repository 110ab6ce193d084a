"""Live odds, shared by every game: each racer's chance to win (and to place), from the public view only.

Each game module offers ``odds(view, *, budget=...) -> Odds`` (``bot.games.hotstreak.odds``,
``bot.games.horserace.odds``); the table and the presenters only ever see this one type, so a new
game plugs in by writing its own ``odds`` function and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Odds:
    """Chances in 0..1 keyed by racer id (Hot Streak: mascot ids; Horse Race: ``"2"`` .. ``"12"``).

    ``place`` is the chance to finish in the paid-to-place positions (Hot Streak: 1st or 2nd), ``None``
    where a game has no place. ``samples`` is how many simulated races the numbers rest on (``None`` when
    ``exact``). ``places`` (optional) gives each racer's chance of every paid place, 1st first, and
    ``events`` the chance of named game events (Hot Streak: ``"side_bet"``, the revealed side bet).
    """

    win: dict[str, float]
    place: dict[str, float] | None = None
    samples: int | None = None
    exact: bool = False
    places: dict[str, tuple[float, ...]] | None = None
    events: dict[str, float] = field(default_factory=dict)

    def percent(self, racer: str, what: str = "win") -> int:
        """A chance as a whole percentage; never shows 0% or 100% for an outcome that is merely unlikely."""
        table = self.win if what == "win" else (self.place or {})
        p = table.get(racer, 0.0)
        shown = round(p * 100)
        if shown == 0 and p > 0:
            return 1 if self.exact or p >= 0.005 else 0
        if shown == 100 and p < 1:
            return 99
        return shown

    def to_json(self) -> dict[str, object]:
        return {
            "win": dict(self.win),
            "place": dict(self.place) if self.place is not None else None,
            "samples": self.samples,
            "exact": self.exact,
            "places": {k: list(v) for k, v in self.places.items()} if self.places is not None else None,
            "events": dict(self.events),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Odds:
        """The inverse of ``to_json``: ``data`` is JSON as stored, so its values are taken as they come."""
        places = data.get("places")
        return cls(
            win=dict(data["win"]),
            place=dict(data["place"]) if data.get("place") is not None else None,
            samples=data.get("samples"),
            exact=bool(data.get("exact")),
            places={k: tuple(v) for k, v in places.items()} if places else None,
            events=dict(data.get("events") or {}),
        )


def error_points(pairs: Iterable[tuple[Mapping[str, float], Mapping[str, float]]]) -> tuple[float, float]:
    """The mean absolute and the worst difference, in percentage points, between the chances to win of
    each ``(got, reference)`` pair, over every racer of the reference (one ``got`` leaves out counts 0).
    How fast odds are held to their simulator (issue 31)."""
    diffs = [abs(got.get(r, 0.0) - p) * 100 for got, want in pairs for r, p in want.items()]
    return (sum(diffs) / len(diffs), max(diffs)) if diffs else (0.0, 0.0)


def odds_for(kind: str, view: dict[str, object], **options: object) -> Odds | None:
    """The odds of a game of ``kind`` from its public ``view``, or ``None`` for a game without odds.

    Looks for ``bot.games.<kind>.odds.odds``, so a new game gets odds on its frames by adding that one
    module; the table and the presenters never name a game.
    """
    import importlib

    if not kind.isidentifier():
        return None
    try:
        module = importlib.import_module(f"bot.games.{kind}.odds")
    except ModuleNotFoundError:
        return None
    compute = getattr(module, "odds", None)
    return compute(view, **options) if callable(compute) else None
