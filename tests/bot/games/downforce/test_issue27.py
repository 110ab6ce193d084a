"""Issue 27: cracks fall back along the way taken, loops have no entry-to-exit shortcut, animals are
judged over the whole turn (rules version 2; stored games keep version 1), and the open rulings
(a)-(l) of ``docs/games/downforce.md``, each played in card notation."""

from __future__ import annotations

from bot.games.downforce.game import Downforce
from bot.games.downforce.movement import RULES
from bot.games.downforce.scenario import SCHEMA

from .conftest import do, lane_track, moved, play, skip_auctions, space


def two_ways_to_a_crack() -> dict:
    """a1 -> b0 or b2 -> c1 (a crack) -> d1."""
    return {
        "spaces": [
            space("a1", 0, 1, ["b0", "b2"]),
            space("b0", 1, 0, ["c1"]),
            space("b2", 1, 2, ["c1"]),
            space("c1", 2, 1, ["d1"], crack=True),
            space("d1", 3, 1, ["FINISH"]),
        ],
        "lines": [1, 2, 3],
    }


def linked_loop() -> dict:
    """a0 -> b0 (loop entry) -> c0 -> d0 (loop exit), the entry also linked to the exit."""
    return {
        "spaces": [
            space("a0", 0, 0, ["b0"]),
            space("b0", 1, 0, ["c0", "d0"], loop="L", loop_entry=True),
            space("c0", 2, 0, ["d0"], loop="L"),
            space("d0", 3, 0, ["e0"], loop="L", loop_exit=True),
            space("e0", 4, 0, ["FINISH"]),
        ],
        "lines": [1, 2, 3],
    }


def python_track() -> dict:
    """Rows a-e, lanes 0-1 (ids like ``c0``: row c, lane 0); a python on c0 (its path [c0])."""
    rows = "abcde"
    spaces = []
    for r, row in enumerate(rows):
        for lane in (0, 1):
            ahead = ["FINISH"] if row == "e" else [f"{rows[r + 1]}{x}" for x in (0, 1)]
            spaces.append(space(f"{row}{lane}", r, lane, ahead))
    return {"spaces": spaces, "lines": [1, 2, 3], "animals": [{"kind": "python", "path": ["c0"], "at": 0}]}


def flagged(track: dict, **flags_by_id) -> dict:
    for s in track["spaces"]:
        s.update(flags_by_id.get(s["id"], {}))
    return track


def single(rows: int, **flags_by_id) -> dict:
    return flagged(lane_track(rows, 1), **flags_by_id)


def straight(track: dict, **flags) -> dict:
    """Each space's ``straight`` is the same lane one row on, plus ``flags`` on every space."""
    ids = {s["id"] for s in track["spaces"]}
    for s in track["spaces"]:
        ahead = f"{s['id'][0]}{int(s['id'][1:]) + 1}"
        if ahead in ids:
            s["straight"] = ahead
        s.update(flags)
    return track


# --- 1. a crack falls back along the way taken --------------------------------------------------


def test_each_way_to_a_crack_falls_back_to_its_own_last_regular_space():
    assert play("red 2", on=two_ways_to_a_crack(), cars="red a1")["moves"][0]["options"] == ["b0", "b2"]
    assert play("red 2", on=two_ways_to_a_crack(), cars="red a1", rules=1)["moves"][0]["options"] == ["b0"]


def test_the_later_pick_is_among_the_ways_ends():
    out = play("red 2", on=two_ways_to_a_crack(), cars="red a1", choose=[1])
    assert moved(out) == ["red b2"] and out["moves"][0]["steps"] == 1


def test_on_switchback_pass_every_way_falls_back_along_itself():
    out = play("red 3", on="switchback-pass", cars="red 12b, blue 15a, green 15b")
    assert out["moves"][0]["options"] == ["12b", "13b", "14a", "14b"]
    old = play("red 3", on="switchback-pass", cars="red 12b, blue 15a, green 15b", rules=1)
    assert old["moves"][0]["options"] == ["14a", "14b"]


# --- 2. no shortcut from a loop's entry to its exit --------------------------------------------


def test_a_linked_entry_never_steps_straight_to_the_exit():
    out = play("red 2", on=linked_loop(), cars="red a0")
    assert out["moves"][0]["options"] == ["c0"] and out["moves"][0]["steps"] == 2
    old = play("red 2", on=linked_loop(), cars="red a0", rules=1)
    assert old["moves"][0]["options"] == ["c0", "d0"]


def test_nor_with_a_power():
    out = play(
        "red 1", on=linked_loop(), cars="red a0", owners={"red": 0}, powers={0: "aggressive"}, answers="yes"
    )
    assert moved(out) == ["red b0", "red c0 aggressive"]


# --- 3. animals over the whole turn -------------------------------------------------------------


def test_a_car_that_passed_an_animal_over_two_lines_of_the_card_moves_it_on():
    out = play("red 2, red 1", on=python_track(), cars="red a1", choose=[0])
    assert moved(out) == ["red c1", "red d0"]
    assert out["animals"] == [{"kind": "python", "space": None}]
    old = play("red 2, red 1", on=python_track(), cars="red a1", choose=[0], rules=1)
    assert old["animals"] == [{"kind": "python", "space": "c0"}]


def test_so_does_a_car_that_passed_it_with_a_powers_move():
    out = play(
        "red 2",
        on=python_track(),
        cars="red a1",
        choose=[0],
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes",
    )
    assert moved(out) == ["red c1", "red d0 aggressive"]
    assert out["animals"] == [{"kind": "python", "space": None}]


# --- stored games keep their rules --------------------------------------------------------------


def _switchback_mid_race(rules: int | None) -> Downforce:
    game = Downforce.new(2, 1, {"track": "switchback-pass"})
    skip_auctions(game)
    stored = game.to_json()
    state = stored["state"]
    state.pop("rules")
    if rules is not None:
        state["rules"] = rules
    seat = state["turn"]
    state["cards"]["t27"] = [["red", 3]]
    state["hands"][seat].append("t27")
    spaces = state["race"]["spaces"]
    spaces.update({"red": "12b", "blue": "15a", "green": "15b"})
    return Downforce.from_json(stored)


def test_a_stored_version_1_game_finishes_under_its_old_rules():
    game = _switchback_mid_race(None)  # stored before issue 27: no rules key
    assert game.rules == 1
    do(game, game.s["turn"], "play", "t27")
    assert game.s["choice"]["options"] == ["14a", "14b"]
    again = Downforce.from_json(game.to_json())  # still version 1 when resumed again
    assert again.rules == 1 and "rules" not in again.to_json()["state"]


def test_a_new_game_records_the_new_rules():
    assert RULES == 2
    game = Downforce.new(2, 1, {"track": "switchback-pass"})
    assert game.to_json()["state"]["rules"] == 2
    new = _switchback_mid_race(2)
    do(new, new.s["turn"], "play", "t27")
    assert new.s["choice"]["options"] == ["12b", "13b", "14a", "14b"]


# --- Tough with a move of no step ---------------------------------------------------------------


def test_tough_needs_a_step_a_move_that_fell_back_to_where_it_began_gets_nothing():
    track = single(8, a0={"rumble": True}, a1={"crack": True})
    out = play("red 1", on=track, cars="red a0", owners={"red": 0}, powers={0: "tough"}, answers="yes")
    assert moved(out) == ["red a0"] and out["moves"][0]["steps"] == 0


# --- the open rulings (a)-(l) -------------------------------------------------------------------


def test_a_the_moved_cars_owner_is_asked_before_experienced():
    track = straight(lane_track(8, 1), shape="rectangular")
    powers = {0: "determined", 1: "experienced"}
    owners = {"red": 0, "blue": 1}
    first_yes = play(
        "red 1", on=track, cars="red a1, blue a0", owners=owners, powers=powers, answers="yes, no"
    )
    assert moved(first_yes) == ["red a2", "red a4 determined"]
    first_no = play(
        "red 1", on=track, cars="red a1, blue a0", owners=owners, powers=powers, answers="no, yes"
    )
    assert moved(first_no) == ["red a2", "blue a1 experienced"]
    both = play("red 1", on=track, cars="red a1, blue a0", owners=owners, powers=powers, answers="yes, yes")
    assert moved(both) == ["red a2", "red a4 determined", "blue a1 experienced"]


def test_b_a_powers_move_sets_off_no_other_power():
    track = straight(lane_track(8, 2))
    out = play(
        "red 1",
        on=track,
        cars="red a0, blue b0",
        owners={"red": 0, "blue": 1},
        powers={0: "aggressive", 1: "experienced"},
        answers="yes, yes",
        choose=[1, 1],
    )
    # red leaves b1 (straight ahead of blue) by aggressive's move: experienced is not offered
    assert moved(out) == ["red b1", "red b2 aggressive"]


def test_c_a_power_reads_the_one_way_kept_for_each_end():
    # two ways of 2 to c: through b0 (rectangular) or b1 (curved); without the runner's "ways" the
    # kept way goes through the smaller id, b0, so determined is offered (the two labelled options:
    # test_ruling_c.py)
    track = {
        "spaces": [
            space("a", 0, 0, ["b0", "b1"], shape="rectangular"),
            space("b0", 1, 0, ["c"], shape="rectangular"),
            space("b1", 1, 1, ["c"], shape="curved"),
            space("c", 2, 0, ["d"], shape="rectangular"),
            space("d", 3, 0, ["e"], shape="rectangular"),
            space("e", 4, 0, ["FINISH"], shape="rectangular"),
        ],
        "lines": [1, 2, 3],
    }
    out = play("red 2", on=track, cars="red a", owners={"red": 0}, powers={0: "determined"}, answers="yes")
    assert moved(out) == ["red c", "red e determined"]


def test_d_a_jump_counts_as_one_step():
    track = single(10, a2={"ramp": {"speed": 4, "to": "a5"}})
    out = play("red 4", on=track, cars="red a0", choose=[1])
    assert out["moves"][0]["to"] == "a6" and out["moves"][0]["steps"] == 4  # a1, a2, jump to a5, a6


def test_e_an_extra_move_that_can_only_fall_back_to_where_it_began_is_not_offered():
    out = play(
        "red 1",
        on=single(8, a2={"crack": True}),
        cars="red a0",
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes",
    )
    assert moved(out) == ["red a1"]


def test_f_a_powers_move_is_a_new_move_at_the_powers_speed():
    ramp = {"ramp": {"speed": 2, "to": "a4"}}
    track = single(10, a2=ramp)
    for s in track["spaces"]:
        s["shape"] = "rectangular"
    out = play(
        "red 1",
        on=track,
        cars="red a0",
        owners={"red": 0},
        powers={0: "determined"},
        answers="yes",
        choose=[1],
    )
    assert moved(out) == ["red a1", "red a4 determined"]  # determined's 2: into the ramp, then the jump
    slow = single(10, a2={"ramp": {"speed": 3, "to": "a4"}})
    for s in slow["spaces"]:
        s["shape"] = "rectangular"
    out = play("red 1", on=slow, cars="red a0", owners={"red": 0}, powers={0: "determined"}, answers="yes")
    assert moved(out) == ["red a1", "red a3 determined"]
    daring = play("red 1", on=single(10), cars="red a0", owners={"red": 0}, powers={0: "daring"})
    assert moved(daring) == ["red a1", "red a3 daring"]  # "3 instead": a move of the 2 left


def test_g_powers_read_the_move_as_it_fell_back():
    out = play(
        "red 2", on=single(8, a2={"crack": True}), cars="red a0", owners={"red": 0}, powers={0: "daring"}
    )
    assert out["moves"][0]["steps"] == 1
    assert moved(out) == ["red a1", "red a3 daring"]  # 1 step kept: daring adds 2 (through the crack)


def test_h_a_car_that_fell_back_behind_an_animal_has_not_passed_it():
    track = flagged(lane_track(8, 2), a3={"crack": True}, a4={"crack": True})
    track["animals"] = [{"kind": "elephant", "path": ["b3", "b4"], "at": 0}]
    out = play("red 2", on=track, cars="red a2")
    assert moved(out) == ["red a2"] and out["animals"] == [{"kind": "elephant", "space": "b3"}]


def test_i_a_passed_animal_with_its_path_taken_stays():
    track = lane_track(8, 2)
    track["animals"] = [{"kind": "elephant", "path": ["b3", "b4"], "at": 0}]
    out = play("red 3", on=track, cars="red a2, blue b4", choose=[0])
    assert out["moves"][0]["to"] == "a5" and out["animals"] == [{"kind": "elephant", "space": "b3"}]


def test_j_a_car_level_with_an_animal_at_the_start_of_a_turn_does_not_pass_it():
    track = lane_track(8, 2)
    track["animals"] = [{"kind": "elephant", "path": ["b3", "b4"], "at": 0}]
    out = play("red 2", on=track, cars="red a3", choose=[0])
    assert out["animals"] == [{"kind": "elephant", "space": "b3"}]


def test_k_a_jump_over_an_animal_passes_it():
    track = single(10, a1={"ramp": {"speed": 3, "to": "a3"}})
    track["animals"] = [{"kind": "elephant", "path": ["a2", "a6"], "at": 0}]
    out = play("red 3", on=track, cars="red a0")
    assert moved(out) == ["red a4"] and out["animals"] == [{"kind": "elephant", "space": "a6"}]


def test_l_a_car_may_drive_through_a_crack_with_no_car_to_pass():
    out = play("red 3", on=single(8, a2={"crack": True}), cars="red a0")
    assert moved(out) == ["red a3"]


def test_the_runners_help_lists_every_ruling_and_what_it_checks():
    for mark in "abcdefghijkl":
        assert f"({mark})" in SCHEMA
    assert "must go forward" in SCHEMA and "Defensive" in SCHEMA and "rules" in SCHEMA


def test_the_rulings_page_lists_every_ruling():
    from pathlib import Path

    page = (Path(__file__).parents[4] / "docs" / "games" / "downforce.md").read_text(encoding="utf-8")
    for mark in "abcdefghijkl":
        assert f"  - ({mark}) " in page
    assert "Rules versions" in page
