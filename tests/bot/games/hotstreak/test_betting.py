"""The bookie: snake draft, ticket and slip values, side-bet conditions, payouts."""

from __future__ import annotations

import pytest

from bot.games.hotstreak.betting import Book, bet_line, draft_order, settle
from bot.games.hotstreak.content import load_content
from bot.games.hotstreak.sidebets import condition_holds

NAMES = {"gobbler": "Gobbler", "hurley": "Hurley", "dangle": "Dangle", "mum": "Mum"}
SIDE = {
    "id": "mum_out",
    "text": "Mum is disqualified.",
    "condition": {"type": "mascot_out", "mascot": "mum"},
    "slips": {
        "yes": [{"safe": 3, "risky": [5, -2]}, {"safe": 2, "risky": [4, -2]}, {"safe": 1, "risky": [3, -1]}],
        "no": [{"safe": 2, "risky": [3, -3]}, {"safe": 1, "risky": [2, -2]}, {"safe": 1, "risky": [2, -1]}],
    },
}


def book() -> Book:
    return Book(load_content().tickets, SIDE)


def test_draft_is_a_snake_from_the_first_better():
    assert draft_order(4, 1) == [1, 2, 3, 0, 0, 3, 2, 1]


def test_two_player_draft_is_a_b_b_a_a_b():
    assert draft_order(2, 0) == [0, 1, 1, 0, 0, 1]
    assert draft_order(2, 1) == [1, 0, 0, 1, 1, 0]


def test_taking_a_ticket_takes_the_top_of_the_stack_which_pays_most():
    b = book()
    first = b.take("ticket:gobbler:safe", NAMES)
    second = b.take("ticket:gobbler:risky", NAMES)
    stack = load_content().tickets["gobbler"]
    assert first["values"] == stack[0]["safe"] and first["number"] == 1
    assert second["values"] == stack[1]["risky"] and second["number"] == 2


def test_an_empty_stack_is_no_longer_an_option():
    b = book()
    for _ in range(3):
        b.take("ticket:mum:safe", NAMES)
        b.take("side:no:risky", NAMES)
    options = b.options()
    assert not any(o.startswith("ticket:mum:") or o.startswith("side:no:") for o in options)
    assert "ticket:hurley:risky" in options and "side:yes:safe" in options


def test_ticket_pays_by_place_and_fourth_pays_nothing(race_after):
    race = race_after(["mum +10", "dangle +10", "hurley +10"])
    b = book()
    values = [bet_line(b.take(f"ticket:{m}:safe", NAMES), race, SIDE)["value"] for m in ("mum", "dangle")]
    assert values == [
        load_content().tickets["mum"][0]["safe"][0],
        load_content().tickets["dangle"][0]["safe"][1],
    ]
    assert bet_line(b.take("ticket:gobbler:risky", NAMES), race, SIDE)["value"] == 0


def test_shared_worst_places_pay_the_worse_place(race_after):
    # Gobbler and Mum run off the back together (4th and 4th), then Hurley wins.
    race = race_after(["all -1", "hurley +9"], {"hurley": {"pos": 4}, "dangle": {"pos": 4}})
    ticket = {"label": "t", "option": "ticket:mum:safe", "kind": "ticket", "mascot": "mum", "risk": "safe"}
    line = bet_line({**ticket, "values": [5, 3, 2], "doubled": False}, race, SIDE)
    assert (line["place"], line["value"]) == (4, 0)


def test_side_bet_safe_pays_when_right_and_nothing_when_wrong(race_after):
    out = race_after(["mum fall", "mum fall"])
    b = book()
    yes, no = b.take("side:yes:safe", NAMES), b.take("side:no:safe", NAMES)
    assert (bet_line(yes, out, SIDE)["value"], bet_line(no, out, SIDE)["value"]) == (3, 0)


def test_side_bet_risky_loses_money_when_wrong(race_after):
    still_in = race_after(["mum +2"])
    bet = book().take("side:yes:risky", NAMES)
    assert bet["values"] == [5, -2]
    assert bet_line(bet, still_in, SIDE)["value"] == -2


def test_a_double_pays_twice_and_loses_twice(race_after):
    race = race_after(["mum +2"])
    b = book()
    win = {**b.take("side:no:risky", NAMES), "doubled": True}
    loss = {**b.take("side:yes:risky", NAMES), "doubled": True}
    assert bet_line(win, race, SIDE)["paid"] == 6
    assert bet_line(loss, race, SIDE)["paid"] == -4


def test_payouts_are_summed_and_a_loss_takes_only_the_cash_held(race_after):
    race = race_after(["mum +2"])
    b = book()
    bets = [b.take("side:yes:risky", NAMES), b.take("side:yes:risky", NAMES)]
    payout = settle(0, bets, race, SIDE, cash=3)
    assert payout["net"] == -4
    assert (payout["cash_after"], payout["change"], payout["capped"]) == (0, -3, True)
    assert settle(0, bets, race, SIDE, cash=10)["cash_after"] == 6


CONDITIONS = [
    ({"type": "mascot_out", "mascot": "hurley"}, ["hurley -2"], ["hurley -1"]),
    ({"type": "mascot_wins", "mascot": "dangle"}, ["dangle +10"], ["mum +10"]),
    (
        {"type": "mascot_ahead", "mascot": "gobbler", "other": "mum"},
        ["gobbler +10", "mum -1", "hurley -2"],
        ["gobbler -1", "mum -1", "hurley -2"],
    ),
    ({"type": "finishers_at_least", "n": 2}, ["mum +10", "hurley +10"], ["mum +10", "hurley -2"]),
    ({"type": "outs_at_least", "n": 2}, ["mum -1", "hurley -2"], ["mum -1"]),
    ({"type": "bar_folds"}, ["dry"], ["mum +3"]),
    ({"type": "knockouts_at_least", "n": 1}, ["mum fall", "mum fall"], ["mum fall"]),
    ({"type": "knock_overs_at_least", "n": 1}, ["gobbler swerve-right 1"], ["gobbler +1"]),
    ({"type": "swerve_off"}, ["gobbler swerve-left 1"], ["gobbler swerve-right 1"]),
    ({"type": "run_off_back"}, ["gobbler -1"], ["dry"]),
    ({"type": "flips_at_most", "n": 2}, ["mum +1", "mum +1"], ["mum +1", "mum +1", "mum +1"]),
]


@pytest.mark.parametrize(("condition", "yes", "no"), CONDITIONS, ids=[c[0]["type"] for c in CONDITIONS])
def test_side_bet_conditions_are_decided_from_the_race(race_after, condition, yes, no):
    start = {"hurley": {"pos": 1}}
    assert condition_holds(condition, race_after(yes, start)) is True
    assert condition_holds(condition, race_after(no, start)) is False


def test_every_shipped_side_bet_can_go_both_ways(race_after):
    # A quiet race and a wild one: each shipped condition is decidable (and holds in one of them
    # at least for the simple kinds); this guards against conditions that cannot be evaluated.
    quiet, wild = race_after(["mum +1"]), race_after(["gobbler -1", "hurley fall", "hurley fall", "dry"])
    for card in load_content().side_bets:
        assert isinstance(condition_holds(card["condition"], quiet), bool)
        assert isinstance(condition_holds(card["condition"], wild), bool)
