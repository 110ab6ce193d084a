"""One race on the mat: the mascots, the yellow bar, and how each flipped card moves them.

``Race.resolve(card)`` plays one flipped card to the end (its move, its swerve, every
knock-over) and only then hands out podium places; ``Race.fold()`` is the deck running
dry. Both return a plain dict describing what happened, which the game puts into its
events and the scenario runner prints.

Rulings beyond the printed rules (each also tested by name):

* Direction: a number card ``n`` moves ``|n|`` spaces toward the finish when the sign of
  ``n`` and the facing agree (``+n`` facing forward, ``-n`` facing back), away otherwise.
* A crawling (fallen) mascot moves at most 1 space per card, in that same direction,
  for every kind of move (number, star, swerve, green card).
* Star with no star ahead in the mascot's lane (in the way it faces): no move.
* Swerve left is lane-1 facing forward, lane+1 facing back; right is the opposite. A
  mascot that finished or went out during the move does not swerve.
* Collisions happen where a single-mascot card's move ends (if it moved at all) and
  again where a swerve puts it; passing through a space does nothing.
* A mascot that finished keeps ``pos == length``; one that went out keeps the lane and
  space it last stood on (its ``status`` says it is gone).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.games.base import JSON, GameError
from bot.games.hotstreak.cards import MASCOTS, Card
from bot.games.hotstreak.podium import Podium
from bot.games.hotstreak.track import Track

TALLY_KEYS = ("flips", "folds", "knock_overs", "knockouts", "falls", "swerve_offs", "run_offs", "bar_outs")
"""What a race counts as it goes, so side bets are decided from the race's own record."""


@dataclass
class Runner:
    """A mascot on the mat."""

    lane: int
    pos: int
    facing: str = "forward"
    fallen: bool = False
    status: str = "racing"

    @property
    def racing(self) -> bool:
        return self.status == "racing"


class _Outcome:
    """What one card (or one fold) did, collected while it resolves."""

    def __init__(self) -> None:
        self.steps: list[dict[str, JSON]] = []
        self.finished: list[str] = []
        self.outs: list[dict[str, JSON]] = []


class Race:
    def __init__(
        self,
        track: Track,
        runners: dict[str, Runner],
        bar: int = 0,
        podium: Podium | None = None,
        tally: dict[str, int] | None = None,
    ) -> None:
        self.track = track
        self.runners = runners
        self.bar = bar
        self.podium = podium or Podium(len(runners))
        self.tally = dict(tally) if tally else dict.fromkeys(TALLY_KEYS, 0)

    @classmethod
    def start(cls, track: Track) -> Race:
        """Every mascot on space 0 of its own lane (gobbler, hurley, dangle, mum from the left)."""
        return cls(track, {m: Runner(lane=i, pos=0) for i, m in enumerate(MASCOTS)})

    # --- state -------------------------------------------------------------

    @property
    def ended(self) -> bool:
        return len(self.podium.paid) == len(self.runners)

    def place_of(self, mascot: str) -> int | None:
        return self.podium.paid.get(mascot)

    def racing(self) -> list[str]:
        return [m for m, r in self.runners.items() if r.racing]

    # --- cards -------------------------------------------------------------

    def resolve(self, card: Card) -> dict[str, JSON]:
        """Play one flipped card completely, then give places; see the module rulings."""
        if self.ended:
            raise GameError("The race is over; no more cards are played.")
        self.tally["flips"] += 1
        out = _Outcome()
        if card.kind == "all":
            self._green(card.n, out)
        elif card.mascot not in self.runners or not self.runners[card.mascot].racing:
            # Ruling: a card naming a mascot that finished or is out does nothing.
            out.steps.append({"type": "no_effect", "mascot": card.mascot, "reason": "not racing"})
        else:
            self._single(card, out)
        return self._close(card.notation, out)

    def fold(self) -> dict[str, JSON]:
        """The deck ran dry: fold the bar to the next white line; everyone behind it is out together."""
        if self.ended:
            raise GameError("The race is over; the bar does not fold.")
        before = self.bar
        self.bar = self.track.next_white_line(self.bar)
        self.tally["folds"] += 1
        out = _Outcome()
        out.steps.append({"type": "bar_fold", "from": before, "to": self.bar})
        for name in self.racing():
            if self.runners[name].pos < self.bar:
                self._put_out(name, "behind the bar", out)
                self.tally["bar_outs"] += 1
        result = self._close("dry", out)
        result.update({"bar_from": before, "bar_to": self.bar})
        return result

    def _single(self, card: Card, out: _Outcome) -> None:
        name = card.mascot
        assert name is not None
        runner = self.runners[name]
        if card.kind == "number":
            self._run(name, card.n, out)
        elif card.kind == "star":
            step = 1 if runner.facing == "forward" else -1
            star = self.track.next_star(runner.lane, runner.pos, step, self.bar)
            if star is None:
                out.steps.append({"type": "no_effect", "mascot": name, "reason": "no star ahead"})
            else:
                distance = 1 if runner.fallen else abs(star - runner.pos)
                self._go(name, step, distance, out, green=False)
        elif card.kind == "fall":
            self._knock(name, None, out)
        elif card.kind == "turn":
            runner.facing = "back" if runner.facing == "forward" else "forward"
            out.steps.append({"type": "turn", "mascot": name, "facing": runner.facing})
        elif card.kind in ("swerve-left", "swerve-right"):
            self._run(name, card.n, out)
            if runner.racing:
                self._swerve(name, card.kind.removeprefix("swerve-"), out)
        elif card.kind == "recover":
            out.steps.append(
                {"type": "recover", "mascot": name, "was_fallen": runner.fallen, "was_facing": runner.facing}
            )
            runner.fallen, runner.facing = False, "forward"
            self._run(name, card.n, out)
        else:  # pragma: no cover - parse_card only makes the kinds above
            raise GameError(f"unknown card kind {card.kind!r}")

    def _run(self, name: str, n: int, out: _Outcome) -> None:
        """A number move (also the move part of swerve and recover)."""
        runner = self.runners[name]
        step = 1 if (n > 0) == (runner.facing == "forward") else -1
        distance = min(abs(n), 1) if runner.fallen else abs(n)
        self._go(name, step, distance, out, green=False)

    def _green(self, n: int, out: _Outcome) -> None:
        """All racing mascots move at once: no collisions, nobody finishes (stop at length-1)."""
        for name in self.racing():
            runner = self.runners[name]
            step = 1 if (n > 0) == (runner.facing == "forward") else -1
            distance = min(abs(n), 1) if runner.fallen else abs(n)
            self._go(name, step, distance, out, green=True)

    def _go(self, name: str, step: int, distance: int, out: _Outcome, *, green: bool) -> None:
        runner = self.runners[name]
        start = [runner.lane, runner.pos]
        target = runner.pos + step * distance
        move: dict[str, JSON] = {
            "type": "move",
            "mascot": name,
            "from": start,
            "to": [runner.lane, target],
            "spaces": distance,
            "toward": "finish" if step > 0 else "back",
            "crawling": runner.fallen,
        }
        out.steps.append(move)
        if target >= self.track.length:
            if green:
                target = self.track.length - 1
                move["to"] = [runner.lane, target]
                move["stopped_at_line"] = True
            else:
                runner.pos = self.track.length
                runner.status = "finished"
                out.finished.append(name)
                return
        if target < self.bar:
            self.tally["run_offs"] += 1
            self._put_out(name, "ran off the back", out)
            return
        runner.pos = target
        if not green and target != start[1]:
            self._collide(name, out)

    def _swerve(self, name: str, side: str, out: _Outcome) -> None:
        runner = self.runners[name]
        shift = -1 if side == "left" else 1
        if runner.facing == "back":
            shift = -shift
        lane = runner.lane + shift
        out.steps.append(
            {
                "type": "swerve",
                "mascot": name,
                "side": side,
                "from": [runner.lane, runner.pos],
                "to": [lane, runner.pos],
            }
        )
        if not 0 <= lane < self.track.lanes:
            self.tally["swerve_offs"] += 1
            self._put_out(name, "swerved off the track", out)
            return
        runner.lane = lane
        self._collide(name, out)

    def _collide(self, mover: str, out: _Outcome) -> None:
        here = self.runners[mover]
        for name, other in self.runners.items():
            if name != mover and other.racing and (other.lane, other.pos) == (here.lane, here.pos):
                self.tally["knock_overs"] += 1
                self._knock(name, mover, out)

    def _knock(self, name: str, by: str | None, out: _Outcome) -> None:
        """Fall down (``by`` None: a fall card) or be knocked over by ``by``; fallen twice is out."""
        runner = self.runners[name]
        kind = "fall" if by is None else "knock_over"
        step: dict[str, JSON] = {"type": kind, "mascot": name, "at": [runner.lane, runner.pos]}
        if by is not None:
            step["by"] = by
        if runner.fallen:
            step["result"] = "out"
            out.steps.append(step)
            self.tally["knockouts"] += 1
            self._put_out(name, "knocked out", out)
        else:
            step["result"] = "fell"
            out.steps.append(step)
            self.tally["falls"] += 1
            runner.fallen = True

    def _put_out(self, name: str, cause: str, out: _Outcome) -> None:
        self.runners[name].status = "out"
        out.outs.append({"mascot": name, "cause": cause})

    def _close(self, card: str, out: _Outcome) -> dict[str, JSON]:
        """Places only after the whole card: finishers best free, outs worst free together."""
        places = [self.podium.place_finisher(m) for m in out.finished]
        places += self.podium.place_outs([o["mascot"] for o in out.outs])
        unplaced = [m for m in self.runners if m not in self.podium.paid]
        if len(unplaced) == 1:
            # Three have places: the race is decided and the last runner takes the place left.
            places.append(self.podium.place_last_runner(unplaced[0]))
            places[-1]["last_runner"] = True
        return {
            "card": card,
            "steps": out.steps,
            "finished": out.finished,
            "outs": out.outs,
            "places": places,
            "ended": self.ended,
        }

    # --- views and storage --------------------------------------------------

    def mascots_view(self) -> dict[str, dict[str, JSON]]:
        return {
            m: {
                "lane": r.lane,
                "pos": r.pos,
                "facing": r.facing,
                "fallen": r.fallen,
                "status": r.status,
                "place": self.podium.paid.get(m),
            }
            for m, r in self.runners.items()
        }

    def to_json(self) -> dict[str, JSON]:
        return {
            "track": self.track.to_json(),
            "runners": {m: asdict(r) for m, r in self.runners.items()},
            "bar": self.bar,
            "podium": self.podium.to_json(),
            "tally": dict(self.tally),
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Race:
        return cls(
            Track.from_json(data["track"]),
            # In the mascots' own order, not the stored one: a canonical dump sorts keys, and the
            # order decides who takes a place left over (``unplaced``) when a race is decided.
            {m: Runner(**data["runners"][m]) for m in sorted(data["runners"], key=MASCOTS.index)},
            data["bar"],
            Podium.from_json(data["podium"]),
            data["tally"],
        )
