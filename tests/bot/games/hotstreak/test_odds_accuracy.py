"""Hot Streak's odds during a race, held to 20,000-race references of the simulator (issue 31).

The fixture ``odds_references.json`` holds 60 public views of twelve seeded games (the start, early,
middle and late of their races, two to eight seats) with each mascot's chance to win from 20,000
simulated races, made once by ``bench/odds_references.py``: the suite never runs them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.games.hotstreak.odds import RACE_SAMPLES, SAMPLES, odds
from bot.games.odds import error_points

STATES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "odds_references.json").read_text())[
    "states"
]


def _spread(view: dict[str, Any]) -> int:
    at = [m["pos"] for m in view["mascots"].values() if m["status"] == "racing"]
    return max(at) - min(at)


def test_the_fixture_states_are_races_of_every_kind() -> None:
    assert len(STATES) >= 50
    assert {s["view"]["seats"] for s in STATES} == set(range(2, 9))
    assert {s["view"]["race"] for s in STATES} == {1, 2, 3}
    flips = [len(s["view"]["flipped"] or []) for s in STATES]
    assert min(flips) == 0 and max(flips) >= 20  # from the start to late in a race
    started = [s["view"] for s in STATES if s["view"]["flipped"]]
    assert min(map(_spread, started)) <= 2 and max(map(_spread, started)) >= 10  # close and spread fields
    assert any(m["status"] == "out" for s in STATES for m in s["view"]["mascots"].values())


def test_a_busy_bots_quick_race_odds_are_within_three_points_of_the_references_on_average() -> None:
    # The fallback: 1.5 points on average (and 3 at worst) is not had at about 2 ms a state
    # (RACE_SAMPLES races; see its docstring). The worst case is held where it stands, so it cannot slip.
    mae, worst = error_points((odds(s["view"], budget_ms=0).win, s["win"]) for s in STATES)
    assert odds(STATES[0]["view"], budget_ms=0).samples == RACE_SAMPLES
    assert mae <= 3.0
    assert worst <= 20.0


def test_a_free_bots_race_odds_are_within_one_and_a_half_points_of_the_references() -> None:
    # Every third state (a second of simulation): 2,000 races, as a frame gets while its worker is free.
    mae, worst = error_points((odds(s["view"]).win, s["win"]) for s in STATES[::3])
    assert odds(STATES[0]["view"]).samples == SAMPLES
    assert mae <= 1.5
    assert worst <= 4.0


@pytest.mark.parametrize("index", range(0, 60, 7))
def test_race_odds_sum_to_one_at_most_and_a_mascot_out_has_none(index: int) -> None:
    # They sum to less than 1 by the chance that no mascot wins (all put out together at a fold).
    view = STATES[index]["view"]
    chances = odds(view)
    assert 0.0 < sum(chances.win.values()) <= 1.0 + 1e-9
    for mascot, where in view["mascots"].items():
        if where["status"] == "out":
            assert chances.win[mascot] == 0.0
    assert odds(json.loads(json.dumps(view))).win == chances.win  # the same state, the same numbers
