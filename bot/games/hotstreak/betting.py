"""The bookie: ticket and side-bet stacks, the snake draft, and paying out a race.

Option notation (what a player picks in a ``bet`` decision):
``ticket:<mascot>:safe|risky`` takes the top ticket of that mascot's stack;
``side:yes|no:safe|risky`` takes the top slip of that answer's stack.

A bet is a plain dict: ``label``, ``option``, ``kind`` ("ticket"/"side"), ``risk``
("safe"/"risky"), ``number`` (1 = the top of its stack, which pays the most),
``values`` and ``doubled``, plus ``mascot`` (tickets) or ``answer`` and ``side_bet``
(side bets). ``values`` is ``[1st, 2nd, 3rd]`` for a ticket (4th pays 0) and
``[if right, if wrong]`` for a side bet (the wrong value of a risky slip is negative).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from bot.games.base import JSON, fresh
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.sidebets import condition_holds

RISKS = ("safe", "risky")
ANSWERS = ("yes", "no")


def bets_each(seats: int) -> int:
    """Two bets each; three in a two-player game."""
    return 3 if seats == 2 else 2


def draft_order(seats: int, first: int) -> list[int]:
    """Snake order from ``first``: round 1 clockwise, round 2 back, round 3 (2 players) clockwise again.

    With 2 players seated A, B that is A B B A A B.
    """
    clockwise = [(first + i) % seats for i in range(seats)]
    order: list[int] = []
    for round_no in range(bets_each(seats)):
        order += clockwise if round_no % 2 == 0 else clockwise[::-1]
    return order


class Book:
    """The stacks for one race. Ruling: a taken ticket or slip is gone for the race, so the
    options simply shrink; a player facing only empty stacks (impossible with the shipped
    12 tickets + 6 slips and at most 16 picks) passes their pick."""

    def __init__(
        self,
        tickets: dict[str, list[dict[str, list[int]]]],
        side_bet: dict[str, JSON],
        taken: dict[str, int] | None = None,
    ) -> None:
        self.tickets = copy.deepcopy(tickets)
        self.side_bet = copy.deepcopy(side_bet)
        self.taken = dict(taken) if taken else {key: 0 for key in [*self.tickets, *ANSWERS]}

    def options(self) -> list[str]:
        out = [f"ticket:{m}:{risk}" for m, stack in self.tickets.items() if stack for risk in RISKS]
        out += [f"side:{a}:{risk}" for a in ANSWERS if self.side_bet["slips"][a] for risk in RISKS]
        return out

    def take(self, option: str, names: dict[str, str]) -> dict[str, JSON]:
        """Take the top ticket/slip named by a legal ``option`` and return the bet."""
        kind, what, risk = option.split(":")
        self.taken[what] += 1
        number = self.taken[what]
        if kind == "ticket":
            ticket = self.tickets[what].pop(0)
            return {
                "label": f"{names[what]} ticket {number} ({risk})",
                "option": option,
                "kind": "ticket",
                "mascot": what,
                "risk": risk,
                "number": number,
                "values": list(ticket[risk]),
                "doubled": False,
            }
        slip = self.side_bet["slips"][what].pop(0)
        values = [slip["safe"], 0] if risk == "safe" else list(slip["risky"])
        return {
            "label": f"Side bet {what.upper()} {number} ({risk}): {self.side_bet['text']}",
            "option": option,
            "kind": "side",
            "answer": what,
            "side_bet": self.side_bet["id"],
            "risk": risk,
            "number": number,
            "values": values,
            "doubled": False,
        }

    def public(self, kept: Callable[[str, Any], Any] | None = None) -> dict[str, JSON]:
        """What everyone sees of the stacks: copies, or ``kept`` ones (``Game.kept_copy``, for views)."""

        def copied(part: str, value: Any) -> Any:
            return kept(part, value) if kept is not None else fresh(value)

        return {
            "tickets": copied("tickets", self.tickets),
            "side_bet": {
                "id": self.side_bet["id"],
                "text": self.side_bet["text"],
                "condition": dict(self.side_bet["condition"]),
                "slips": copied("slips", self.side_bet["slips"]),
            },
        }

    def to_json(self) -> dict[str, JSON]:
        return {
            "tickets": fresh(self.tickets),
            "side_bet": fresh(self.side_bet),
            "taken": dict(self.taken),
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Book:
        return cls(data["tickets"], data["side_bet"], data["taken"])


def bet_line(bet: dict[str, JSON], race: Race, side_bet: dict[str, JSON]) -> dict[str, JSON]:
    """What one bet pays once the race is over (doubled bets pay, or lose, twice)."""
    line: dict[str, JSON] = {k: bet[k] for k in ("label", "option", "kind", "risk", "values", "doubled")}
    if bet["kind"] == "ticket":
        place = race.place_of(bet["mascot"])
        line["mascot"] = bet["mascot"]
        line["place"] = place
        value = bet["values"][place - 1] if place is not None and place <= 3 else 0
    else:
        happened = condition_holds(side_bet["condition"], race)
        right = (bet["answer"] == "yes") == happened
        line.update(
            {"answer": bet["answer"], "side_bet": bet["side_bet"], "happened": happened, "right": right}
        )
        value = bet["values"][0] if right else bet["values"][1]
    line["value"] = value
    line["paid"] = value * 2 if bet["doubled"] else value
    return line


def settle(
    seat: int, bets: list[dict[str, JSON]], race: Race, side_bet: dict[str, JSON], cash: int
) -> dict[str, JSON]:
    """One seat's payout for a race: lines summed; a net loss takes at most the cash held."""
    lines = [bet_line(bet, race, side_bet) for bet in bets]
    net = sum(line["paid"] for line in lines)
    after = max(0, cash + net)
    return {
        "seat": seat,
        "lines": lines,
        "net": net,
        "cash_before": cash,
        "cash_after": after,
        "change": after - cash,
        "capped": cash + net < 0,
    }
