"""Each power as the rules text words it, played in card notation (and the game around them)."""

from __future__ import annotations

import random

import pytest

from bot.games.base import Action
from bot.games.downforce import ai
from bot.games.downforce.game import Downforce
from bot.games.downforce.powers import ALL, BASE

from .conftest import lane_track, make_game, moved, play, skip_auctions


def raced(powers: dict[int, str]) -> Downforce:
    """A two-seat rules game in its race, the seats holding ``powers``."""
    game = make_game(2, 1)
    skip_auctions(game)
    game.s["powers"] = {str(k): v for k, v in powers.items()}
    return game


def flagged(rows: int, lanes: int = 2, **flags_by_id) -> dict:
    track = lane_track(rows, lanes)
    for s in track["spaces"]:
        s.update(flags_by_id.get(s["id"], {}))
    return track


ONE_LANE = lane_track(12, 1)
RECTANGULAR = {f"a{i}": {"shape": "rectangular"} for i in range(12)}


# --- base powers ---------------------------------------------------------------------------


def test_aggressive_moves_your_top_line_car_one_more_if_you_say_yes():
    race = play(
        "red 2", on=ONE_LANE, cars="red a0", owners={"red": 0}, powers={0: "aggressive"}, answers="yes"
    )
    assert moved(race) == ["red a2", "red a3 aggressive"]


def test_aggressive_needs_your_car_on_the_top_line_and_your_turn():
    lower = play(
        "blue 1, red 2",
        on=ONE_LANE,
        cars="red a0, blue a5",
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes",
    )
    assert all(m.get("power") is None for m in lower["moves"])
    other_turn = play(
        "red 2",
        on=ONE_LANE,
        cars="red a0",
        owners={"red": 0},
        powers={0: "aggressive"},
        player=1,
        answers="yes",
    )
    assert len(other_turn["moves"]) == 1


def test_a_no_answer_or_no_answer_left_declines():
    race = play("red 2", on=ONE_LANE, cars="red a0", owners={"red": 0}, powers={0: "aggressive"})
    assert moved(race) == ["red a2"]


def test_determined_on_any_turn_after_a_move_only_through_rectangular_spaces():
    race = play(
        "red 2",
        on=flagged(12, 1, **RECTANGULAR),
        cars="red a0",
        owners={"red": 1},
        powers={1: "determined"},
        answers="yes",
    )
    assert moved(race) == ["red a2", "red a4 determined"]
    curve = play(
        "red 2",
        on=flagged(12, 1, **{**RECTANGULAR, "a2": {"shape": "curved"}}),
        cars="red a0",
        owners={"red": 1},
        powers={1: "determined"},
        answers="yes",
    )
    assert len(curve["moves"]) == 1


def test_strategic_ignores_one_colour_of_a_six_colour_card():
    # options: the card's colours in order, then "none"; choose 5 -> red is ignored.
    race = play(
        "black 1, blue 1, green 1, yellow 1, orange 1, red 1",
        on=lane_track(12, 2),
        cars="black a0, blue b0, green a2, yellow b2, orange a4, red b4",
        owners={"black": 0},
        powers={0: "strategic"},
        choose=[5],
    )
    assert "red" not in [m["car"] for m in race["moves"]] and len(race["moves"]) == 5


def test_tricky_moves_the_card_bottom_line_first():
    race = play(
        "red 3, blue 3",
        on=ONE_LANE,
        cars="red a0, blue a1",
        owners={"red": 0},
        powers={0: "tricky"},
        answers="yes",
    )
    assert moved(race) == ["blue a4", "red a3"]
    plain = play("red 3, blue 3", on=ONE_LANE, cars="red a0, blue a1")
    assert moved(plain) == ["red a0", "blue a4"]


def test_unpredictable_may_name_a_wild_with_a_colour_already_on_the_card():
    game = raced({0: "unpredictable", 1: "unpredictable"})
    turn = game.s["turn"]
    game.s["hands"][turn] = ["wild1", *game.s["hands"][turn]]
    game.apply(Action(turn, "play", "wild1"))
    (decision,) = game.pending()
    assert decision.kind == "wild" and len(decision.options) == 6


def test_cunning_chooses_where_its_own_car_ends_on_another_players_turn():
    race = play(
        "red 2",
        on=lane_track(12, 2),
        cars="red a0",
        owners={"red": 1},
        powers={1: "cunning"},
        player=0,
        choose=[1],
    )
    assert race["moves"][0]["options"] == ["a2", "b2"] and race["moves"][0]["to"] == "b2"


def test_cunning_is_asked_instead_of_the_player_on_turn():
    game = raced({})
    turn = game.s["turn"]
    other = 1 - turn
    game.s["powers"] = {str(other): "cunning"}
    car = next(c for c, o in game.s["owners"].items() if o == other)
    game.s["hands"][turn] = [f"{car}1", *game.s["hands"][turn]]
    game.apply(Action(turn, "play", f"{car}1"))
    (decision,) = game.pending()
    assert decision.kind == "move" and decision.player == other


# --- Danger Circuit ------------------------------------------------------------------------


def test_ambitious_after_crossing_a_yellow_line_on_any_turn():
    race = play(
        "red 2", on=ONE_LANE, cars="red a0", owners={"red": 1}, powers={1: "ambitious"}, answers="yes"
    )
    assert moved(race)[-1] == "red a4 ambitious"


def test_experienced_takes_the_space_a_car_leaves_directly_ahead():
    race = play(
        "blue 3",
        on=flagged(12, 1, **{f"a{i}": {"straight": f"a{i + 1}"} for i in range(11)}),
        cars="red a0, blue a1",
        owners={"red": 1},
        powers={1: "experienced"},
        answers="yes",
    )
    assert moved(race) == ["blue a4", "red a1 experienced"]


def test_tough_after_ending_beside_a_rumble_strip():
    race = play(
        "red 2",
        on=flagged(12, 1, a2={"rumble": True}),
        cars="red a0",
        owners={"red": 1},
        powers={1: "tough"},
        answers="yes",
    )
    assert moved(race) == ["red a2", "red a4 tough"]


def test_daring_turns_a_move_of_one_or_two_into_three_without_asking():
    race = play("red 1", on=ONE_LANE, cars="red a0", owners={"red": 0}, powers={0: "daring"})
    assert moved(race) == ["red a1", "red a3 daring"]
    four = play("red 4", on=ONE_LANE, cars="red a0", owners={"red": 0}, powers={0: "daring"})
    assert len(four["moves"]) == 1


def test_defensive_moves_a_car_three_when_none_of_yours_moved():
    race = play("blue 1", on=ONE_LANE, cars="red a0, blue a6", owners={"red": 0}, powers={0: "defensive"})
    assert moved(race) == ["blue a7", "red a3 defensive"]


def test_reckless_after_going_through_a_tight_space():
    race = play(
        "red 2",
        on=flagged(12, 1, a1={"tight": True}),
        cars="red a0",
        owners={"red": 0},
        powers={0: "reckless"},
        answers="yes",
    )
    assert moved(race) == ["red a2", "red a4 reckless"]


# --- combinations, order, limits ------------------------------------------------------------


def test_the_moved_cars_owner_is_asked_before_an_experienced_player():
    race = play(
        "blue 2",
        on=flagged(12, 1, **{f"a{i}": {"straight": f"a{i + 1}", "shape": "rectangular"} for i in range(11)}),
        cars="red a0, blue a1",
        owners={"red": 1, "blue": 2},
        powers={1: "experienced", 2: "determined"},
        answers="yes, yes",
    )
    assert moved(race) == ["blue a3", "blue a5 determined", "red a1 experienced"]


def test_extra_moves_do_not_set_off_more_powers():
    # Aggressive's extra step crosses a yellow line, but the seat's power is aggressive only.
    race = play(
        "red 1",
        on=flagged(12, 1, **RECTANGULAR),
        cars="red a0",
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes, yes",
    )
    assert len(race["moves"]) == 2


def test_a_power_never_moves_a_car_through_another():
    race = play(
        "red 2",
        on=ONE_LANE,
        cars="red a0, blue a3",
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes",
    )
    assert moved(race) == ["red a2"]  # blocked: the offer is not even made


def test_a_finished_car_gets_no_extra_move():
    race = play("red 5", on=lane_track(5, 1), cars="red a3", owners={"red": 0}, powers={0: "daring"})
    assert moved(race) == ["red FINISH"]


# --- dealing and keeping --------------------------------------------------------------------


def test_base_deals_the_six_base_powers_one_per_car():
    game = Downforce.new(4, 3, {"powers": "base"})
    assert sorted(game.s["powers_dealt"]) == sorted(BASE)
    assert game.opening_events()[-1].data["power"] == game.s["powers_dealt"][0]


def test_all_deals_six_different_powers_from_the_twelve():
    dealt = {tuple(Downforce.new(4, seed, {"powers": "all"}).s["powers_dealt"]) for seed in range(20)}
    assert all(len(set(d)) == 6 and set(d) <= set(ALL) for d in dealt)
    assert len({p for d in dealt for p in d}) == 12


def test_powers_off_deals_nothing_and_plays_as_before():
    assert "powers_dealt" not in Downforce.new(4, 3).s
    assert (
        Downforce.new(4, 3).to_json()["state"]["hands"] == Downforce.new(4, 3, {}).to_json()["state"]["hands"]
    )


def play_auctions(game: Downforce, rng: random.Random) -> None:
    while game.phase == "auction":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))


def test_a_seat_with_several_powers_keeps_one_in_secret():
    for seed in range(30):
        game = Downforce.new(2, seed, {"powers": "base"})
        play_auctions(game, random.Random(seed))
        if game.phase == "keep":
            break
    decisions = game.pending()
    assert decisions and all(d.kind == "keep" for d in decisions)
    seat = decisions[0].player
    assert set(decisions[0].options) == set(game.s["powers_won"][seat])
    events = []
    for d in decisions:
        events += game.apply(Action(d.player, "keep", d.options[0]))
    secret = [e for e in events if e.kind == "power_kept_secret"]
    assert all(e.visible_to == (e.data["seat"],) for e in secret)
    assert events[-2].kind == "powers_kept" and game.phase == "race"
    assert game.view(None)["powers"]["kept"] == game.s["powers"]


def test_kept_powers_are_hidden_until_everyone_has_kept():
    for seed in range(30):
        game = Downforce.new(2, seed, {"powers": "base"})
        play_auctions(game, random.Random(seed))
        if game.phase == "keep" and len(game.pending()) == 2:
            break
    else:
        pytest.skip("no seed gave two seats several powers")
    d = game.pending()[0]
    game.apply(Action(d.player, "keep", d.options[0]))
    assert game.view(None)["powers"]["kept"] == {}
    assert game.view(1 - d.player)["powers"]["kept"] == {}


@pytest.mark.parametrize(
    "track",
    [
        "river-station",
        "marina-bay",
        "crosstown-speedway",
        "switchback-pass",
        "aloha-sands",
        "savanna-stretch",
    ],
)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_random_play_with_all_powers_ends_and_survives_json_round_trips(track, level):
    for seed in range(3 if level == "easy" else 1):
        seats = 2 + (seed * 2) % 5
        game = Downforce.new(seats, seed, {"powers": "all", "track": track})
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            d = game.pending()[0]
            game.apply(Action(d.player, d.kind, ai.choose(game.view(d.player), d, level, rng)))
            steps += 1
            if steps % 5 == 0:
                again = Downforce.from_json(game.to_json())
                assert again.to_json() == game.to_json()
                game = again
            assert steps < 2000
        spaces = [s for s in game.race.spaces.values() if s not in (None, "FINISH")]
        assert len(spaces) == len(set(spaces))
        assert not set(spaces) & set(game.race.animal_spaces())
        assert not any(game.track.spaces[s].flags.get("crack") for s in spaces)


def test_daring_blocked_after_its_move_does_nothing_and_says_nothing():
    race = play("red 2", on=ONE_LANE, cars="red a0, blue a3", owners={"red": 0}, powers={0: "daring"})
    assert moved(race) == ["red a2"]


def test_powers_are_narrated_and_labelled():
    from bot.games.downforce.narration import narrate, option_label

    assert narrate({"kind": "power_used", "data": {"seat": 0, "power": "aggressive", "car": "red"}}) == (
        "Seat 1 plays Aggressive: the red car moves 1 more."
    )
    assert "leaves the track" in narrate({"kind": "animal_moved", "data": {"kind": "python", "to": None}})
    view = {"choice": {"power": "tough", "car": "red"}}
    assert option_label(view, "power", "yes") == "Use Tough (red car)"
    assert option_label(view, "power", "no") == "No, thanks"
    assert option_label(view, "ignore", "red") == "Ignore red"
    assert option_label(view, "keep", "daring").startswith("Daring: ")


def test_every_power_is_one_record_with_its_name_texts_and_keep_rank():
    from bot.games.downforce.powers import POWERS, title

    assert list(POWERS) == list(ALL)
    assert all(name == power.name and power.title and power.summary for name, power in POWERS.items())
    assert sorted(p.keep_rank for p in POWERS.values()) == list(range(len(ALL)))
    assert title("cunning") == "Cunning" and title("no such power") == "no such power"
