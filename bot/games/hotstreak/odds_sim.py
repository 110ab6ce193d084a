"""A lean copy of the race rules (``race.py``) on plain lists and ints, fast enough for live odds.

The engine's ``Race`` builds a dict per step so the game can narrate it; the odds only need where
the mascots end, so this plays the same rules on parallel lists with no objects at all (about
20 times faster). ``tests/bot/games/hotstreak/test_odds_sim.py`` plays thousands of random card
sequences through both and checks they agree on every position, status, place and tally.

A card is a tuple ``(kind, mascot index, n)``; a race state is a ``LeanRace`` whose lists are indexed
by mascot (the order of ``mascots``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.games.base import JSON
from bot.games.hotstreak.cards import parse_card
from bot.games.hotstreak.race import TALLY_KEYS
from bot.games.hotstreak.sidebets import condition_holds

NUMBER, STAR, FALL, TURN, SWERVE_LEFT, SWERVE_RIGHT, RECOVER, ALL = range(8)
_KIND = {
    "number": NUMBER,
    "star": STAR,
    "fall": FALL,
    "turn": TURN,
    "swerve-left": SWERVE_LEFT,
    "swerve-right": SWERVE_RIGHT,
    "recover": RECOVER,
    "all": ALL,
}
RACING, FINISHED, OUT = 0, 1, 2
_STATUS = {"racing": RACING, "finished": FINISHED, "out": OUT}
STATUS_NAMES = ("racing", "finished", "out")
# Tally slots, in the order of race.TALLY_KEYS.
FLIPS, FOLDS, KNOCK_OVERS, KNOCKOUTS, FALLS, SWERVE_OFFS, RUN_OFFS, BAR_OUTS = range(8)

Card = tuple[int, int, int]


def encode(notation: str, mascots: Sequence[str]) -> Card:
    """A card notation as ``(kind, mascot index, n)``; a mascot not in the race gets index -1."""
    card = _parsed(notation)
    index = mascots.index(card.mascot) if card.mascot in mascots else -1
    return (_KIND[card.kind], index, card.n)


# Every state's odds parse the same few dozen notations (a ``Card`` is frozen, so one copy serves all).
_parsed = lru_cache(maxsize=1024)(parse_card)


@dataclass(slots=True)
class LeanRace:
    """One race on plain lists (mutated in place by ``play``)."""

    lanes: int
    length: int
    stars: list[list[int]]
    white_lines: list[int]
    lane: list[int]
    pos: list[int]
    face: list[int]  # +1 facing the finish, -1 facing back
    fallen: list[bool]
    status: list[int]
    paid: list[int]  # paid place, 0 while unplaced
    slots: list[int]  # podium: mascot index per place, -1 free
    bar: int
    tally: list[int]

    @classmethod
    def from_race_json(cls, race: dict[str, JSON], mascots: Sequence[str]) -> LeanRace:
        """From ``Race.to_json()`` (what the engine stores)."""
        track = race["track"]
        runners = race["runners"]
        slots = race["podium"]["slots"]
        paid = race["podium"]["paid"]
        tally = race["tally"]
        return cls(
            lanes=int(track["lanes"]),
            length=int(track["length"]),
            stars=[sorted(lane) for lane in track["stars"]],
            white_lines=sorted(track["white_lines"]),
            lane=[runners[m]["lane"] for m in mascots],
            pos=[runners[m]["pos"] for m in mascots],
            face=[1 if runners[m]["facing"] == "forward" else -1 for m in mascots],
            fallen=[bool(runners[m]["fallen"]) for m in mascots],
            status=[_STATUS[runners[m]["status"]] for m in mascots],
            paid=[paid.get(m, 0) or 0 for m in mascots],
            slots=[mascots.index(s) if s is not None else -1 for s in slots],
            bar=int(race["bar"]),
            tally=[
                tally[k]
                for k in (
                    "flips",
                    "folds",
                    "knock_overs",
                    "knockouts",
                    "falls",
                    "swerve_offs",
                    "run_offs",
                    "bar_outs",
                )
            ],
        )

    @classmethod
    def from_view(
        cls, view: dict[str, JSON], mascots: Sequence[str], tally: list[int] | None = None
    ) -> LeanRace:
        """From a public view or frame (``track``, ``bar``, ``mascots``, ``podium``); the view has no tally."""
        track = view["track"]
        ms = view["mascots"]
        podium = list(view.get("podium") or [])
        podium += [None] * (len(mascots) - len(podium))
        return cls(
            lanes=int(track["lanes"]),
            length=int(track["length"]),
            stars=[sorted(lane) for lane in track["stars"]],
            white_lines=sorted(track["white_lines"]),
            lane=[ms[m]["lane"] for m in mascots],
            pos=[ms[m]["pos"] for m in mascots],
            face=[1 if ms[m]["facing"] == "forward" else -1 for m in mascots],
            fallen=[bool(ms[m]["fallen"]) for m in mascots],
            status=[_STATUS[ms[m]["status"]] for m in mascots],
            paid=[ms[m].get("place") or 0 for m in mascots],
            slots=[mascots.index(s) if s in mascots else -1 for s in podium],
            bar=int(view["bar"]),
            tally=list(tally) if tally is not None else [0] * 8,
        )

    def copy(self) -> LeanRace:
        return LeanRace(
            self.lanes,
            self.length,
            self.stars,
            self.white_lines,
            self.lane[:],
            self.pos[:],
            self.face[:],
            self.fallen[:],
            self.status[:],
            self.paid[:],
            self.slots[:],
            self.bar,
            self.tally[:],
        )

    @property
    def ended(self) -> bool:
        return 0 not in self.paid


def play(race: LeanRace, pile: Sequence[Card], refill: Callable[[], Sequence[Card]] | None) -> bool:
    """Play ``pile`` top first; when it runs dry fold the bar and, unless that ends the race, play
    ``refill()`` (the reshuffled deck after its burn). Stops when the race ends and returns True, or
    returns False when the cards run out and ``refill`` is None.

    Mirrors ``Race.resolve`` / ``Race.fold`` rule for rule (see the rulings in ``race.py``).
    """
    lanes, length, stars = race.lanes, race.length, race.stars
    lane, pos, face, fallen, status = race.lane, race.pos, race.face, race.fallen, race.status
    paid, slots, tally = race.paid, race.slots, race.tally
    n = len(pos)
    everyone = range(n)
    bar = race.bar
    i = 0
    size = len(pile)
    while True:
        fin: list[int] = []
        outs: list[int] = []
        if i >= size:
            if refill is None:
                race.bar = bar
                return False
            race.bar = bar
            if fold(race):
                return True
            bar = race.bar
            # The race goes on with the reshuffled deck, after its burn.
            pile = refill()
            size = len(pile)
            i = 0
            continue
        kind, m, num = pile[i]
        i += 1
        tally[FLIPS] += 1
        if kind == ALL:
            # Everyone racing moves at once: no collisions, nobody finishes.
            for j in everyone:
                if status[j] == RACING:
                    step = face[j] if num > 0 else -face[j]
                    t = pos[j] + step * (1 if fallen[j] else abs(num))
                    if t >= length:
                        t = length - 1
                    if t < bar:
                        tally[RUN_OFFS] += 1
                        status[j] = OUT
                        outs.append(j)
                    else:
                        pos[j] = t
        elif m >= 0 and status[m] == RACING:
            # The move part of the card, as (step, distance); step 0 is no move.
            step = 0
            dist = 0
            if kind == NUMBER or kind == SWERVE_LEFT or kind == SWERVE_RIGHT:
                step = face[m] if num > 0 else -face[m]
                dist = 1 if fallen[m] else abs(num)
            elif kind == RECOVER:
                fallen[m] = False
                face[m] = 1
                step = 1 if num > 0 else -1
                dist = abs(num)
            elif kind == STAR:
                p = pos[m]
                best = -1
                if face[m] > 0:
                    for s in stars[lane[m]]:
                        if s > p and s >= bar:
                            best = s
                            break
                else:
                    for s in reversed(stars[lane[m]]):
                        if s < p and s >= bar:
                            best = s
                            break
                if best >= 0:
                    step = face[m]
                    dist = 1 if fallen[m] else abs(best - p)
            elif kind == FALL:
                if fallen[m]:
                    tally[KNOCKOUTS] += 1
                    status[m] = OUT
                    outs.append(m)
                else:
                    tally[FALLS] += 1
                    fallen[m] = True
            elif kind == TURN:
                face[m] = -face[m]
            if step:
                t = pos[m] + step * dist
                if t >= length:
                    pos[m] = length
                    status[m] = FINISHED
                    fin.append(m)
                elif t < bar:
                    tally[RUN_OFFS] += 1
                    status[m] = OUT
                    outs.append(m)
                else:
                    if t != pos[m]:
                        pos[m] = t
                        _collide(m, lane, pos, fallen, status, tally, outs, everyone)
                    if kind == SWERVE_LEFT or kind == SWERVE_RIGHT:
                        shift = -1 if kind == SWERVE_LEFT else 1
                        if face[m] < 0:
                            shift = -shift
                        nl = lane[m] + shift
                        if 0 <= nl < lanes:
                            lane[m] = nl
                            _collide(m, lane, pos, fallen, status, tally, outs, everyone)
                        else:
                            tally[SWERVE_OFFS] += 1
                            status[m] = OUT
                            outs.append(m)
        if (fin or outs) and _close(fin, outs, slots, paid, n):
            race.bar = bar
            return True


def fold(race: LeanRace) -> bool:
    """The deck ran dry: fold the bar to the next white line (else the finish); everyone racing
    behind it is out together. True when that ends the race."""
    bar = race.bar
    for w in race.white_lines:
        if w > bar:
            bar = w
            break
    else:
        bar = race.length
    race.bar = bar
    race.tally[FOLDS] += 1
    outs = []
    status, pos = race.status, race.pos
    for m in range(len(pos)):
        if status[m] == RACING and pos[m] < bar:
            status[m] = OUT
            outs.append(m)
            race.tally[BAR_OUTS] += 1
    return bool(outs) and _close([], outs, race.slots, race.paid, len(pos))


def _close(fin: list[int], outs: list[int], slots: list[int], paid: list[int], n: int) -> bool:
    """Places after a whole card (see ``Race._close``); True when every mascot has one."""
    for f in fin:
        s = slots.index(-1)
        slots[s] = f
        paid[f] = s + 1
    if outs:
        free = [s for s in range(n) if slots[s] == -1][-len(outs) :]
        worst = free[-1] + 1
        for f, s in zip(outs, free, strict=True):
            slots[s] = f
            paid[f] = worst
    if paid.count(0) == 1:
        last = paid.index(0)
        s = slots.index(-1)
        slots[s] = last
        paid[last] = s + 1
    return 0 not in paid


def _collide(
    m: int,
    lane: list[int],
    pos: list[int],
    fallen: list[bool],
    status: list[int],
    tally: list[int],
    outs: list[int],
    everyone: range,
) -> None:
    """Everyone racing on the mover's space is knocked over (out if already fallen)."""
    la, p = lane[m], pos[m]
    for j in everyone:
        if j != m and status[j] == RACING and pos[j] == p and lane[j] == la:
            tally[KNOCK_OVERS] += 1
            if fallen[j]:
                tally[KNOCKOUTS] += 1
                status[j] = OUT
                outs.append(j)
            else:
                tally[FALLS] += 1
                fallen[j] = True


def side_bet_holds(
    condition: dict[str, Any],
    mascots: Sequence[str],
    status: Sequence[int],
    paid: Sequence[int],
    tally: Sequence[int],
) -> bool:
    """Whether the side bet's ``condition`` held in an ended lean race (its ``status``, ``paid`` and
    ``tally``), judged by the one rule book (``sidebets.condition_holds``)."""
    return condition_holds(condition, _Outcome(mascots, status, paid, tally))


class _Outcome:
    """Just enough of a ``Race`` for ``condition_holds``."""

    def __init__(
        self, mascots: Sequence[str], status: Sequence[int], paid: Sequence[int], tally: Sequence[int]
    ):
        self.runners = {m: _Runner(STATUS_NAMES[s]) for m, s in zip(mascots, status, strict=True)}
        self._paid = {m: p for m, p in zip(mascots, paid, strict=True) if p}
        self.tally = dict(zip(TALLY_KEYS, tally, strict=True))

    def place_of(self, mascot: str) -> int | None:
        return self._paid.get(mascot)


class _Runner:
    def __init__(self, status: str) -> None:
        self.status = status
