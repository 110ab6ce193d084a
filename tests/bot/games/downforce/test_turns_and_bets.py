"""Turns, choices through decisions, secret bets at the yellow lines, the end, and scoring."""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.scoring import bet_payout
from bot.games.downforce.track import FINISH

from .conftest import do, make_game, place, skip_auctions


def raced(seats: int = 2, hands: list[list[str]] | None = None, **settings):
    game = make_game(seats, **settings)
    skip_auctions(game)
    if hands is not None:
        game.s["hands"] = [sorted(h) for h in hands]
    return game


def on_turn(game) -> int:
    return game.pending()[0].player


def test_play_goes_clockwise_and_skips_a_player_with_no_cards():
    game = raced(3, hands=[["red1", "red2"], ["blue1"], ["green1", "green2"]])
    first = on_turn(game)
    order = []
    while game.phase != "over" and len(order) < 5:
        seat = on_turn(game)
        order.append(seat)
        decision = game.pending()[0]
        do(game, seat, decision.kind, decision.options[0])
        while game.pending() and game.pending()[0].kind in ("move", "wild", "bet"):
            for d in game.pending():
                do(game, d.player, d.kind, d.options[0])
    seq = [(first + i) % 3 for i in range(3)]
    assert order[:3] == seq
    assert 1 not in order[3:]  # seat 1 has no cards left after one turn


def test_the_player_on_turn_chooses_where_any_car_ends_when_there_is_a_choice():
    game = raced(2)
    seat = on_turn(game)
    game.s["hands"][seat] = ["blue2"]
    place(game, blue="a5", red="a9", black="b9", green="a10", yellow="b10", orange="a11")
    do(game, seat, "play", "blue2")
    decision = game.pending()[0]
    assert (decision.player, decision.kind, decision.options) == (seat, "move", ("a7", "b7"))
    do(game, seat, "move", "b7")
    assert game.race.spaces["blue"] == "b7"


def test_a_dead_end_can_be_chosen_on_purpose_for_an_opponents_car():
    game = raced(2)
    seat = on_turn(game)
    game.s["hands"][seat] = ["red3"]
    place(game, red="a5", black="a8", green="b8", blue="b12", yellow="a12", orange="a13")
    do(game, seat, "play", "red3")
    assert game.pending()[0].options == ("a7", "b7")
    do(game, seat, "move", "a7")  # both lead into the wall of cars on row 8
    assert game.race.spaces["red"] == "a7"


def test_a_wild_line_is_given_a_colour_not_already_on_the_card():
    game = raced(2)
    seat = on_turn(game)
    game.cards["mix"] = (("red", 1), ("wild", 1))
    game.s["cards"]["mix"] = [["red", 1], ["wild", 1]]
    game.s["hands"][seat] = ["mix"]
    place(game, red="a4", blue="a6", black="a8", green="a10", yellow="a12", orange="b5")
    do(game, seat, "play", "mix")
    decision = game.pending()[0]
    assert decision.kind == "wild" and "red" not in decision.options and len(decision.options) == 5
    events = do(game, seat, "wild", "blue")
    assert any(e.kind == "wild_named" and e.data["colour"] == "blue" for e in events)
    assert game.pending()[0].kind == "move" and game.pending()[0].options == ("a7", "b7")


def _wild_after_finishers(**settings):
    game = raced(2, **settings)
    seat = on_turn(game)
    game.cards["mix"] = (("red", 1), ("wild", 1))
    game.s["cards"]["mix"] = [["red", 1], ["wild", 1]]
    game.s["hands"][seat] = ["mix"]
    place(game, red="a4", blue="a6", black="a8", green=FINISH, yellow=FINISH, orange="b5")
    do(game, seat, "play", "mix")
    return game, seat


def test_a_wild_line_never_offers_a_car_that_has_finished():
    game, seat = _wild_after_finishers()
    decision = game.pending()[0]
    assert decision.kind == "wild" and set(decision.options) == {"blue", "black", "orange"}
    with pytest.raises(IllegalAction):  # no car can use it: the engine refuses it too
        do(game, seat, "wild", "green")


def test_a_wild_line_with_no_racing_car_left_to_name_does_nothing():
    game = raced(2)
    seat = on_turn(game)
    game.cards["mix"] = (("red", 1), ("wild", 1))
    game.s["cards"]["mix"] = [["red", 1], ["wild", 1]]
    game.s["hands"][seat] = ["mix"]
    place(game, red="a4", blue=FINISH, black=FINISH, green=FINISH, yellow=FINISH, orange=FINISH)
    events = do(game, seat, "play", "mix")
    while game.pending() and game.pending()[0].kind == "move":  # where red ends, if asked
        assert game.pending()[0].kind != "wild"
        events += do(game, seat, "move", game.pending()[0].options[0])
    assert not game.pending() or game.pending()[0].kind != "wild"
    assert not any(e.kind == "wild_named" for e in events)
    assert game.race.spaces["red"] != "a4"  # the red line moved; the wild one did nothing


def test_a_game_stored_under_the_old_wild_rule_still_replays_a_finished_car_named():
    """Games stored before the ruling carry no ``wild`` setting: they get the rule they were played
    under, so a log that named a finished car replays."""
    from bot.games.catalog import entry

    settings = entry("downforce").stored_engine_settings(
        {"engine": {"track": "river-station", "betting": "standard"}}
    )
    assert settings["wild"] == "any"
    game, seat = _wild_after_finishers(**settings)
    assert "green" in game.pending()[0].options
    do(game, seat, "wild", "green")


def test_first_crossing_of_a_yellow_line_opens_secret_bets_after_the_card():
    game = raced(2, hands=[["red6", "red1"], ["red6", "red1"]])
    seat = on_turn(game)
    place(game, red="a1", blue="b13", black="a13", green="b12", yellow="a12", orange="a11")
    game.s["hands"][seat] = ["red6"]
    do(game, seat, "play", "red6")  # red runs from row 1 to row 7, across the line on row 4
    while game.pending()[0].kind == "move":
        do(game, seat, "move", game.pending()[0].options[0])
    assert game.phase == "bet"
    assert {d.player for d in game.pending()} == {0, 1}
    assert game.view(None)["bet_line"] == 4
    events = do(game, 0, "bet", "red")
    assert [e.visible_to for e in events] == [None, (0,)]
    assert "car" not in events[0].data
    assert game.view(1)["my_bets"] == [] and "bets" not in game.view(1)
    assert game.view(0)["my_bets"][0]["car"] == "red"
    do(game, 1, "bet", "blue")
    assert game.phase == "race"


def test_several_lines_on_one_card_give_one_bet_each_in_order():
    game = raced(2)
    seat = on_turn(game)
    game.cards["two"] = (("red", 5), ("blue", 5))
    game.s["cards"]["two"] = [["red", 5], ["blue", 5]]
    game.s["hands"][seat] = ["two", "red1"]
    place(game, red="a3", blue="b6", black="a0", green="b0", yellow="a1", orange="b1")
    do(game, seat, "play", "two")
    while game.pending()[0].kind == "move":
        do(game, seat, "move", game.pending()[0].options[0])
    lines = []
    while game.phase == "bet":
        lines.append(game.view(None)["bet_line"])
        do(game, 0, "bet", "red")
        do(game, 1, "bet", "blue")
    assert lines == [4, 8, 11]
    assert [b["index"] for b in game.s["bets"][0]] == [0, 1, 2]


def test_the_race_ends_when_every_car_has_finished_and_bets_are_revealed():
    game = raced(2)
    seat = on_turn(game)
    game.s["hands"][seat] = ["all6"]
    game.race.crossings = [{"line": r, "car": "red", "card": 0} for r in (4, 8, 11)]
    place(game, black="a13", blue="b13", green="a12", yellow="b12", orange="a11", red="b11")
    events = do(game, seat, "play", "all6")
    while game.pending() and game.pending()[0].kind == "move":
        events += do(game, seat, "move", game.pending()[0].options[0])
    assert game.is_over and game.s["ended_by"] == "finish"
    kinds = [e.kind for e in events]
    assert kinds[-3:] == ["race_over", "bets_revealed", "game_over"]
    assert game.race.finished == list(COLOURS)


def test_when_the_cards_run_out_cars_are_ranked_by_row_then_lower_lane():
    game = raced(2, hands=[["wild1"], []])
    place(game, red="b9", blue="a9", black="a10", green="a2", yellow="b5", orange="a5")
    game.s["turn"] = 0
    do(game, 0, "play", "wild1")
    while game.pending() and game.pending()[0].kind in ("wild", "move"):
        d = game.pending()[0]
        do(game, 0, d.kind, "green" if d.kind == "wild" else d.options[0])
    assert game.is_over and game.s["ended_by"] == "cards_out"
    assert game.race.standings() == ["black", "blue", "red", "orange", "yellow", "green"]


@pytest.mark.parametrize(
    ("betting", "index", "place", "position", "paid"),
    [
        ("standard", 0, 1, 5, 9),
        ("standard", 0, 3, 5, 3),
        ("standard", 1, 2, 1, 4),
        ("standard", 2, 3, 1, 1),
        ("standard", 0, 4, 1, 0),
        ("odds", 0, 1, 4, 12),  # the rules' example: 4th when bet, wins: 4 x 3
        ("odds", 1, 2, 2, 2),  # 2nd on the second bet and stays 2nd: 2 x 1
        ("odds", 2, 3, 1, 0),  # 1st on the last bet, finishes 3rd: 1 x 0
        ("odds", 0, 3, 6, 6),
        ("odds-winner-only", 0, 1, 4, 12),
        ("odds-winner-only", 0, 2, 4, 0),
        ("odds-winner-only", 1, 1, 3, 6),
        ("odds-winner-only", 2, 1, 5, 5),
    ],
)
def test_bet_payouts_in_every_betting_setting(betting, index, place, position, paid):
    assert bet_payout(betting, index, place, position) == paid


def test_final_money_is_prizes_plus_bets_minus_spending_and_ties_share_the_win():
    game = raced(2, betting="odds")
    game.s["owners"] = {"red": 0, "blue": 0, "black": 0, "green": 1, "yellow": 1, "orange": 1}
    game.s["spent"] = [5, 3]
    game.race.finished = ["red", "green", "blue", "yellow", "black", "orange"]
    game.race.spaces = dict.fromkeys(COLOURS, "FINISH")
    game.s["bets"] = [
        [{"car": "red", "line": 4, "index": 0, "position": 3}],
        [
            {"car": "green", "line": 4, "index": 0, "position": 2},
            {"car": "red", "line": 8, "index": 1, "position": 1},
        ],
    ]
    game.s["phase"] = "over"
    scores = {s["seat"]: s for s in game.scores()}
    assert scores[0]["prizes"] == 12 + 6 + 2 and scores[0]["bet_winnings"] == 9
    assert scores[0]["money"] == 20 + 9 - 5
    assert scores[1]["prizes"] == 9 + 4 + 0 and scores[1]["bet_winnings"] == 2 * 2 + 1 * 2
    results = {r.seat: r for r in game.results()}
    assert results[0].cash == results[0].net == 24
    assert results[0].won and not results[1].won
    labels = [s.label for s in results[1].stakes]
    assert labels[:2] == ["1st bet: green", "2nd bet: red"] and "car: green" in labels
    game.s["spent"] = [5, 3 - (24 - scores[1]["money"])]
    assert all(r.won and r.place == 1 for r in game.results())
