"""The match: setup, draft, secret submissions, doubles, table steps, payouts, standings."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.base import Action, IllegalAction
from bot.games.hotstreak.game import START_CASH, HotStreak

from .conftest import play_out, random_step


def until_phase(phase: str, race: int = 1):
    return lambda g: g.phase == phase and g.s["race_no"] == race


def test_setup_follows_the_rules():
    game = HotStreak.new(4, seed=1)
    view = game.view(None)
    assert view["cash"] == [START_CASH] * 4 == [10] * 4
    assert len(view["face_up"]) == 4 + 10  # the bordered cards and our edition's 10 for 4 players
    assert all(len(game.view(seat)["hand"]) == 3 for seat in range(4))
    assert len(HotStreak.new(2, seed=1).view(0)["hand"]) == 4
    assert (view["phase"], view["race"], view["turn"], view["podium"]) == ("draft", 1, 0, [None] * 4)
    assert [e.kind for e in game.opening_events()] == ["race_setup"] + ["dealt"] * 4


def test_the_public_view_has_the_keys_the_renderer_uses():
    view = HotStreak.new(3, seed=2).view(None)
    for key in (
        "game",
        "phase",
        "race",
        "races",
        "seats",
        "cash",
        "first_better",
        "turn",
        "track",
        "bar",
        "mascots",
        "mascot_info",
        "last_card",
        "cards_left",
        "burned",
        "podium",
        "face_up",
        "submitted",
        "tickets",
        "side_bet",
        "bets",
        "history",
    ):
        assert key in view, key
    assert list(view["mascots"]) == ["gobbler", "hurley", "dangle", "mum"]
    assert set(view["track"]) == {"lanes", "length", "stars", "white_lines"}
    assert set(view["side_bet"]["slips"]) == {"yes", "no"}
    assert "hand" not in view and "my_submission" not in view


def bet_seats(game: HotStreak) -> list[int]:
    seats = []
    while game.phase == "draft":
        decision = game.pending()[0]
        seats.append(decision.player)
        game.apply(Action(decision.player, "bet", decision.options[0]))
    return seats


def test_draft_runs_in_snake_order_from_the_first_better():
    assert bet_seats(HotStreak.new(4, seed=3, settings={"first_better": 2})) == [2, 3, 0, 1, 1, 0, 3, 2]


def test_two_player_draft_is_a_b_b_a_a_b():
    assert bet_seats(HotStreak.new(2, seed=3)) == [0, 1, 1, 0, 0, 1]


def test_eight_players_draft_sixteen_bets_from_the_eighteen_on_offer():
    game = HotStreak.new(8, seed=4)
    assert len(bet_seats(game)) == 16
    assert game.phase == "submit"


def test_bet_options_use_the_notation():
    options = HotStreak.new(2, seed=5).pending()[0].options
    assert "ticket:gobbler:safe" in options and "ticket:mum:risky" in options
    assert {"side:yes:safe", "side:yes:risky", "side:no:safe", "side:no:risky"} <= set(options)


def test_submissions_are_simultaneous_secret_and_deduplicated():
    game = HotStreak.new(2, seed=6)
    bet_seats(game)
    pending = game.pending()
    assert [(d.player, d.kind) for d in pending] == [(0, "submit"), (1, "submit")]
    for option in pending[0].options:
        assert isinstance(option, list) and len(option) == 2 and option == sorted(option)
    assert len({json.dumps(o) for o in pending[0].options}) == len(pending[0].options)
    choice = pending[1].options[0]
    events = game.apply(Action(1, "submit", choice))
    public = [e for e in events if e.visible_to is None]
    assert [e.kind for e in public] == ["submitted"] and "cards" not in public[0].data
    private = [e for e in events if e.visible_to is not None]
    assert private[0].visible_to == (1,) and private[0].data["cards"] == choice
    assert game.view(None)["submitted"] == [1]
    assert game.view(1)["my_submission"] == choice
    assert game.view(0)["my_submission"] is None
    assert "my_submission" not in game.view(None)


def test_submitted_and_burned_cards_stay_out_of_the_public_view():
    game = HotStreak.new(3, seed=7)
    rnd = random.Random(7)
    play_out(game, rnd, until_phase("race"))
    secret = [c for sub in game.s["submissions"] for c in sub]
    game.apply(Action(None, "flip", "flip"))
    view = game.view(None)
    hidden = game.deck.burned + game.deck.pile
    shown = json.dumps({k: v for k, v in view.items() if k not in ("face_up",)})
    # Every card still face down or burned is absent unless it is also a flipped card.
    for card in hidden:
        if card not in view["flipped"]:
            assert card not in shown
    assert view["burned"] == 3 and view["cards_left"] == len(game.deck.pile)
    assert len(secret) == 3


def test_the_race_deck_is_the_face_up_cards_plus_the_submissions():
    game = HotStreak.new(3, seed=8)
    play_out(game, random.Random(8), until_phase("race"))
    subs = [c for sub in game.s["submissions"] for c in sub]
    assert sorted(game.deck.pile) == sorted(game.s["face_up"] + subs)


def test_first_flip_burns_three_then_flips():
    game = HotStreak.new(3, seed=9)
    play_out(game, random.Random(9), until_phase("race"))
    events = game.apply(Action(None, "flip", "flip"))
    assert [e.kind for e in events][:2] == ["burned", "card_flipped"]
    assert events[0].data["count"] == 3


def test_illegal_actions_raise_and_change_nothing():
    game = HotStreak.new(3, seed=10)
    before = game.dumps()
    for action in [
        Action(1, "bet", "ticket:gobbler:safe"),  # not seat 1's turn
        Action(0, "bet", "ticket:bob:safe"),  # not among the options
        Action(0, "submit", ["gobbler +2"]),  # out of turn: it is the draft
        Action(None, "flip", "flip"),  # no table step now
        Action(7, "bet", "ticket:gobbler:safe"),  # no such seat
    ]:
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert game.dumps() == before
    bet_seats(game)
    before = game.dumps()
    hand = game.view(0)["hand"]
    not_mine = next(c for c in game.view(1)["hand"] if c not in hand)
    with pytest.raises(IllegalAction):
        game.apply(Action(0, "submit", [not_mine]))
    assert game.dumps() == before


def test_no_action_is_legal_after_the_end():
    game = HotStreak.new(2, seed=11)
    play_out(game, random.Random(11))
    before = game.dumps()
    assert game.pending() == []
    with pytest.raises(IllegalAction):
        game.apply(Action(None, "flip", "flip"))
    assert game.dumps() == before


def test_three_races_with_the_first_better_moving_one_seat_each_race():
    game = HotStreak.new(4, seed=12, settings={"first_better": 3})
    events = game.opening_events() + play_out(game, random.Random(12))
    setups = [e.data for e in events if e.kind == "race_setup"]
    assert [(s["race"], s["first_better"]) for s in setups] == [(1, 3), (2, 0), (3, 1)]
    assert [e.kind for e in events].count("race_over") == 3
    assert events[-1].kind == "game_over"


def test_after_a_race_each_player_is_dealt_one_card_and_the_rest_lie_face_up():
    game = HotStreak.new(3, seed=13)
    play_out(game, random.Random(13), until_phase("race"))
    used = sorted(game.deck.pile)
    events = play_out(game, random.Random(13), until_phase("draft", race=2))
    dealt = [e for e in events if e.kind == "dealt"]
    assert [e.visible_to for e in dealt] == [(0,), (1,), (2,)]
    assert all(len(game.view(seat)["hand"]) == 3 for seat in range(3))
    assert sorted(game.s["face_up"] + [e.data["cards"][0] for e in dealt]) == used
    side_ids = [e.data["side_bet"]["id"] for e in game.opening_events() + events if e.kind == "race_setup"]
    assert len(set(side_ids)) == len(side_ids) == 2


def test_side_bets_never_repeat_in_a_game():
    for seed in range(5):
        game = HotStreak.new(2, seed=seed)
        events = game.opening_events() + play_out(game, random.Random(seed))
        ids = [e.data["side_bet"]["id"] for e in events if e.kind == "race_setup"]
        assert len(set(ids)) == 3


def test_before_race_three_each_player_doubles_one_bet_after_submitting():
    game = HotStreak.new(3, seed=14)
    rnd = random.Random(14)
    play_out(game, rnd, until_phase("submit", race=3))
    while game.phase == "submit":
        random_step(game, rnd)
    assert game.phase == "double"
    pending = game.pending()
    assert [(d.player, d.kind, d.options) for d in pending] == [(s, "double", (0, 1)) for s in range(3)]
    game.apply(Action(2, "double", 1))
    assert game.view(None)["bets"][2][1]["doubled"] is True
    with pytest.raises(IllegalAction):
        game.apply(Action(2, "double", 0))
    game.apply(Action(0, "double", 0))
    game.apply(Action(1, "double", 0))
    assert game.phase == "race"
    events = play_out(game, rnd)
    payouts = next(e for e in events if e.kind == "payouts").data["seats"]
    line = payouts[2]["lines"][1]
    assert line["doubled"] is True and line["paid"] == 2 * line["value"]


def test_no_double_before_races_one_and_two():
    game = HotStreak.new(3, seed=15)
    events = play_out(game, random.Random(15), until_phase("draft", race=3))
    assert not any(e.kind == "phase" and e.data["phase"] == "double" for e in events)


def test_payouts_move_cash_and_cash_is_never_negative():
    for seed in range(6):
        game = HotStreak.new(5, seed=seed)
        events = play_out(game, random.Random(seed))
        for e in events:
            if e.kind == "payouts":
                for p in e.data["seats"]:
                    assert p["cash_after"] == max(0, p["cash_before"] + p["net"]) >= 0
        assert game.view(None)["cash"] == [r.cash for r in game.results()]


def test_ties_share_the_win():
    game = HotStreak.new(3, seed=16)
    rnd = random.Random(16)
    play_out(game, rnd, until_phase("race", race=3))
    state = game.to_json()
    state["state"]["s"]["cash"] = [12, 12, 5]
    state["state"]["s"]["bets"] = [[], [], []]
    game = HotStreak.from_json(state)
    events = play_out(game, rnd)
    assert events[-1].data["winners"] == [0, 1]
    results = game.results()
    assert [(r.place, r.won) for r in results] == [(1, True), (1, True), (3, False)]


def test_results_carry_per_race_bets_for_the_leaderboard():
    game = HotStreak.new(4, seed=17)
    play_out(game, random.Random(17))
    for result in game.results():
        assert len(result.detail["races"]) == 3
        assert sum(result.detail["mascot_bets"].values()) + sum(result.detail["side_bets"].values()) == 6
        assert all("lines" in race and "net" in race for race in result.detail["races"])


def test_same_seed_and_actions_give_identical_games():
    a, b = HotStreak.new(4, seed=18), HotStreak.new(4, seed=18)
    play_out(a, random.Random(1))
    play_out(b, random.Random(1))
    assert a.dumps() == b.dumps()
    assert HotStreak.new(4, seed=19).dumps() != HotStreak.new(4, seed=18).dumps()


def test_json_round_trip_loses_nothing():
    game = HotStreak.new(3, seed=20)
    rnd = random.Random(20)
    for _ in range(25):
        random_step(game, rnd)
    copy = HotStreak.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.dumps() == game.dumps()
    play_out(game, random.Random(5))
    play_out(copy, random.Random(5))
    assert copy.dumps() == game.dumps()


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        HotStreak.new(9, seed=1)
    with pytest.raises(ValueError):
        HotStreak.new(3, seed=1, settings={"first_better": 3})
