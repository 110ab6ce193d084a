"""How a race swings: lead changes, when the winner is settled, short races and dead flips.

These are the figures the edition is tuned by (``tune.py``). A race is followed one step at a time
(a flipped card, or a fold of the yellow bar) from the mat as the public frame shows it
(``Race.mascots_view()`` and the bar).

Definitions (from the issue):

* The *leader* ranks finished mascots above runners, by their place; runners by how far
  along they are; mascots that are out do not count. A mascot already given a place (the
  last runner once three are placed) ranks by that place. The *sole* leader is the one
  mascot ranked first alone; a tie for first has no sole leader.
* A *lead change* is a different mascot becoming the sole leader. The first sole leader is
  not a change, and a tie in between does not reset it (A, tie, A is no change; A, tie, B is one).
* The winner is *settled* when first place is given (it crosses the finish, or is the last
  runner left); the flips after that only decide the other places: *flips after the winner*.
  (This is the measure whose figures the issue quotes: 7.9 flips, 44% after, in the old edition.
  Measured instead from when the winner took the lead for good, the old edition settles after
  6.4 flips, 54% after.)
* A *dead flip* is a flipped card after which the mat (every mascot's lane, space, facing,
  fall, status and place, and the bar) is exactly as before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.base import JSON

SHORT_RACE = 12
"""A race of fewer flips than this is short (a quick race, decided before it got going)."""


def sole_leader(mascots: dict[str, dict[str, JSON]]) -> str | None:
    """The mascot ranked first alone, or ``None`` (a tie for first, or nobody left)."""
    ranks: dict[str, tuple[int, int]] = {}
    for name, m in mascots.items():
        if m["status"] == "out":
            continue
        if m["place"] is not None:
            ranks[name] = (0, m["place"])
        else:
            ranks[name] = (1, -m["pos"])
    if not ranks:
        return None
    best = min(ranks.values())
    leaders = [name for name, rank in ranks.items() if rank == best]
    return leaders[0] if len(leaders) == 1 else None


def snapshot(mascots: dict[str, dict[str, JSON]], bar: int) -> tuple:
    """Everything a flip can change on the mat, comparable with ``==``."""
    return (
        bar,
        tuple(
            (m["lane"], m["pos"], m["facing"], m["fallen"], m["status"], m["place"])
            for _, m in sorted(mascots.items())
        ),
    )


@dataclass
class RaceSwings:
    """One race's figures."""

    flips: int
    lead_changes: int
    settled_at: int  # flips played when first place was given
    dead_flips: int

    @property
    def flips_after_winner(self) -> int:
        return self.flips - self.settled_at


class RaceWatch:
    """Follows one race step by step; ``finish()`` gives its ``RaceSwings``."""

    def __init__(self, mascots: dict[str, dict[str, JSON]], bar: int = 0) -> None:
        self.state = snapshot(mascots, bar)
        self.flips = 0
        self.dead = 0
        self.changes = 0
        self.leader: str | None = None  # last sole leader seen
        self.settled: int | None = None  # flips played when first place was given

    def step(self, mascots: dict[str, dict[str, JSON]], bar: int, *, flip: bool) -> None:
        """The mat after a flipped card (``flip``) or a fold of the bar."""
        state = snapshot(mascots, bar)
        if flip:
            self.flips += 1
            self.dead += state == self.state
        self.state = state
        if self.settled is None and any(m["place"] == 1 for m in mascots.values()):
            self.settled = self.flips
        leader = sole_leader(mascots)
        if leader is not None and leader != self.leader:
            self.changes += self.leader is not None
            self.leader = leader

    def finish(self) -> RaceSwings:
        # Mascots all put out together share the worst place: nobody is paid first, and the
        # winner (the podium's first slot) is settled only by the race's end.
        settled = self.flips if self.settled is None else self.settled
        return RaceSwings(self.flips, self.changes, settled, self.dead)


@dataclass
class Swings:
    """Figures over many races; merges across processes."""

    races: int = 0
    lead_changes: int = 0
    two_changes: int = 0
    flips: int = 0
    after_winner: int = 0
    short: int = 0
    dead: int = 0
    lengths: dict[int, int] = field(default_factory=dict)  # flips -> races

    def add(self, race: RaceSwings) -> None:
        self.races += 1
        self.lead_changes += race.lead_changes
        self.two_changes += race.lead_changes >= 2
        self.flips += race.flips
        self.after_winner += race.flips_after_winner
        self.short += race.flips < SHORT_RACE
        self.dead += race.dead_flips
        self.lengths[race.flips] = self.lengths.get(race.flips, 0) + 1

    def merge(self, other: Swings) -> None:
        for name in ("races", "lead_changes", "two_changes", "flips", "after_winner", "short", "dead"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for flips, count in other.lengths.items():
            self.lengths[flips] = self.lengths.get(flips, 0) + count

    def percentile(self, share: float) -> int:
        """The smallest race length at least ``share`` of races do not exceed."""
        seen = 0
        for flips in sorted(self.lengths):
            seen += self.lengths[flips]
            if seen >= share * self.races:
                return flips
        return 0

    def summary(self) -> dict[str, float]:
        races, flips = max(self.races, 1), max(self.flips, 1)
        return {
            "lead_changes": round(self.lead_changes / races, 3),
            "races_with_two_lead_changes": round(self.two_changes / races, 4),
            "flips_after_winner": round(self.after_winner / flips, 4),
            "winner_settled_after": round((self.flips - self.after_winner) / races, 2),
            "short_races": round(self.short / races, 4),
            "dead_flips": round(self.dead / flips, 4),
            "flips_p99": self.percentile(0.99),
        }
