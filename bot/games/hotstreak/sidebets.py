"""Side-bet conditions: machine-checkable statements decided from a race's own record.

Each side-bet card in ``assets/hotstreak/side_bets.json`` carries a ``condition`` such
as ``{"type": "mascot_out", "mascot": "mum"}``. A condition is decided only from the
finished race (its podium, its mascots' status and its tally of what happened), so a
side bet is settled without replaying anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from bot.games.base import JSON
from bot.games.hotstreak.cards import MASCOTS


class _RunnerRecord(Protocol):
    @property
    def status(self) -> str: ...


class RaceRecord(Protocol):
    """What a condition reads of a finished race: a ``Race``, or the odds' lighter outcome of one."""

    @property
    def runners(self) -> Mapping[str, _RunnerRecord]: ...

    @property
    def tally(self) -> Mapping[str, int]: ...

    def place_of(self, mascot: str) -> int | None: ...


# type -> (fields it needs, how to decide it)
_Check = Callable[[dict[str, JSON], RaceRecord], bool]


def _count(race: RaceRecord, status: str) -> int:
    return sum(1 for r in race.runners.values() if r.status == status)


def _ahead(c: dict[str, JSON], race: RaceRecord) -> bool:
    mine, other = race.place_of(c["mascot"]), race.place_of(c["other"])
    return mine is not None and other is not None and mine < other


CONDITIONS: dict[str, tuple[tuple[str, ...], _Check]] = {
    # the mascot is disqualified (any cause: knocked out, off the back, swerved off, behind the bar)
    "mascot_out": (("mascot",), lambda c, r: r.runners[c["mascot"]].status == "out"),
    # the mascot is paid as 1st
    "mascot_wins": (("mascot",), lambda c, r: r.place_of(c["mascot"]) == 1),
    # the mascot is paid a strictly better place than the other (shared places are not ahead)
    "mascot_ahead": (("mascot", "other"), _ahead),
    # at least n mascots cross the finish line (the last runner placed without finishing does not count)
    "finishers_at_least": (("n",), lambda c, r: _count(r, "finished") >= c["n"]),
    "outs_at_least": (("n",), lambda c, r: _count(r, "out") >= c["n"]),
    # the race deck runs dry at least once
    "bar_folds": ((), lambda c, r: r.tally["folds"] >= 1),
    # a fallen mascot falls again (a fall card or a collision) and is knocked out
    "knockouts_at_least": (("n",), lambda c, r: r.tally["knockouts"] >= c["n"]),
    # mascots knocked over by another mascot moving into their space, counted per victim
    "knock_overs_at_least": (("n",), lambda c, r: r.tally["knock_overs"] >= c["n"]),
    "swerve_off": ((), lambda c, r: r.tally["swerve_offs"] >= 1),
    # a mascot moves below the back of the track (not counting mascots put out by the bar)
    "run_off_back": ((), lambda c, r: r.tally["run_offs"] >= 1),
    # the race is decided within n flipped cards (burned cards and folds are not flips)
    "flips_at_most": (("n",), lambda c, r: r.tally["flips"] <= c["n"]),
}


def condition_problem(condition: object) -> tuple[str, str] | None:
    """The first (field, problem) making ``condition`` unusable, or ``None``."""
    if not isinstance(condition, dict):
        return ("condition", "must be an object")
    kind = condition.get("type")
    if kind not in CONDITIONS:
        return ("condition.type", f"must be one of {', '.join(sorted(CONDITIONS))}")
    needed, _ = CONDITIONS[kind]
    for name in needed:
        value = condition.get(name)
        if name in ("mascot", "other") and value not in MASCOTS:
            return (f"condition.{name}", f"must be one of {', '.join(MASCOTS)}")
        if name == "n" and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            return ("condition.n", "must be a whole number >= 1")
    extra = set(condition) - set(needed) - {"type"}
    if extra:
        return (f"condition.{sorted(extra)[0]}", f"is not a field of {kind}")
    if kind == "mascot_ahead" and condition["mascot"] == condition["other"]:
        return ("condition.other", "must differ from mascot")
    return None


def condition_holds(condition: dict[str, JSON], race: RaceRecord) -> bool:
    """Did it happen? Only meaningful once the race has ended."""
    return CONDITIONS[condition["type"]][1](condition, race)
