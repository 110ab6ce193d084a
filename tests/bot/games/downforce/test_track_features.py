"""The special tracks' features (loops, cracks, ramps, animals), played in card notation, and the shipped tracks."""

from __future__ import annotations

import pytest

from bot.games.downforce.content import TRACKS, default_content
from bot.games.downforce.scenario import ScenarioError

from .conftest import lane_track, play, space


def single(rows: int, **flags_by_id) -> dict:
    track = lane_track(rows, 1)
    for s in track["spaces"]:
        s.update(flags_by_id.get(s["id"], {}))
    return track


# --- crossover loops -------------------------------------------------------------------------


def loop_track() -> dict:
    """a0 -> e (loop entry) -> l1 -> l2 -> x (loop exit) -> f1 -> FINISH; e also touches f1 on the board."""
    return {
        "spaces": [
            space("a0", 0, 0, ["e", "f0"]),
            space("f0", 1, 1, ["f1"]),
            space("e", 1, 0, ["l1", "f1"], loop="L", loop_entry=True),
            space("l1", 2, 0, ["l2"], loop="L"),
            space("l2", 3, 0, ["x"], loop="L"),
            space("x", 4, 0, ["f1"], loop="L", loop_exit=True),
            space("f1", 5, 0, ["f2"]),
            space("f2", 6, 0, ["FINISH"]),
        ],
        "lines": [2, 4, 6],
    }


def test_a_car_that_enters_a_loop_goes_round_it():
    out = play("red 4", on=loop_track(), cars="red e")
    assert out["moves"][0]["to"] == "f1" and out["moves"][0]["steps"] == 4


def test_no_shortcut_from_the_entry_even_where_the_spaces_touch():
    out = play("red 1", on=loop_track(), cars="red e")
    assert out["moves"][0]["options"] == ["l1"]


def test_no_shortcut_even_with_a_power():
    out = play(
        "red 1",
        on=loop_track(),
        cars="red a0",
        choose=[0],
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes",
    )
    assert [m["to"] for m in out["moves"]] == ["e", "l1"]


def test_a_loop_is_entered_only_at_its_entry():
    track = loop_track()
    track["spaces"][1]["ahead"] = ["f1", "l2"]  # f0 touches the middle of the loop
    out = play("red 1", on=track, cars="red f0")
    assert out["moves"][0]["options"] == ["f1"]


def test_traffic_in_a_loop_blocks_and_a_car_may_stop_behind_it():
    out = play("red 3", on=loop_track(), cars="red e, blue l2")
    assert out["moves"][0] == {"card": 0, "car": "red", "steps": 1, "options": ["l1"], "to": "l1"}


# --- cracked spaces ---------------------------------------------------------------------------


def test_a_car_falls_back_from_a_crack_to_the_last_regular_space_it_passed():
    out = play("red 3", on=single(8, a3={"crack": True}), cars="red a0")
    assert out["moves"][0]["to"] == "a2" and out["moves"][0]["steps"] == 2


def test_with_no_regular_space_passed_the_car_stays_where_it_began():
    out = play("red 2", on=single(8, a1={"crack": True}, a2={"crack": True}), cars="red a0")
    assert out["moves"][0]["to"] == "a0" and out["moves"][0]["steps"] == 0


def test_a_crack_lets_a_car_get_past_another():
    track = lane_track(6, 2)
    for s in track["spaces"]:
        if s["id"] == "b1":
            s["crack"] = True
    out = play("red 2", on=track, cars="red a0, blue a1")
    assert out["moves"][0]["options"] == ["a2", "b2"]


def test_no_end_option_is_ever_a_crack():
    track = lane_track(8, 2)
    for s in track["spaces"]:
        if s["lane"] == 1 and s["row"] in (2, 3):
            s["crack"] = True
    out = play("red 3", on=track, cars="red a0")
    assert "b3" not in out["moves"][0]["options"] and "b2" not in out["moves"][0]["options"]


def test_a_power_cannot_end_on_a_crack_either():
    out = play(
        "red 2",
        on=single(8, a3={"crack": True}),
        cars="red a0",
        owners={"red": 0},
        powers={0: "aggressive"},
        answers="yes",
    )
    assert [m["to"] for m in out["moves"]] == ["a2"]  # the 1 extra would end on the crack: no offer


def test_a_car_cannot_be_placed_on_a_crack():
    with pytest.raises(ScenarioError, match="cracked"):
        play(on=single(8, a1={"crack": True}), cars="red a1")


# --- ramps ----------------------------------------------------------------------------------


def ramp_track(landing_row: int = 5) -> dict:
    return single(10, a2={"ramp": {"speed": 4, "to": f"a{landing_row}"}})


def test_a_fast_enough_car_may_jump_and_goes_on_with_what_is_left():
    out = play("red 4", on=ramp_track(), cars="red a0")
    move = out["moves"][0]
    assert move["options"] == ["a4", "a6"]  # a0-a1-a2, jump to a5 (1 space), then a6
    assert move["to"] == "a4"
    jumped = play("red 4", on=ramp_track(), cars="red a0", choose=[1])
    assert jumped["moves"][0]["to"] == "a6" and jumped["moves"][0]["steps"] == 4


def test_too_slow_a_line_cannot_jump():
    out = play("red 3", on=ramp_track(), cars="red a0")
    assert out["moves"][0]["options"] == ["a3"]


def test_a_blocked_landing_means_no_jump():
    out = play("red 4", on=ramp_track(), cars="red a0, blue a5")
    assert out["moves"][0]["options"] == ["a4"]


def test_a_car_starting_on_a_ramp_has_not_entered_it():
    out = play("red 5", on=ramp_track(), cars="red a2")
    assert out["moves"][0]["options"] == ["a7"]


def test_the_jump_needs_a_space_of_movement_left():
    exact = play("red 3", on=single(10, a3={"ramp": {"speed": 3, "to": "a6"}}), cars="red a0")
    assert exact["moves"][0]["options"] == ["a3"]  # it reaches the ramp with nothing left


# --- animals ---------------------------------------------------------------------------------


def savanna(path=("a3", "a5", "a7"), lanes: int = 2) -> dict:
    track = lane_track(10, lanes)
    track["animals"] = [{"kind": "elephant", "path": list(path), "at": 0}]
    return track


def test_an_animal_blocks_its_space():
    out = play("red 5", on=savanna(lanes=1), cars="red a0")
    assert out["moves"][0]["to"] == "a2" and out["animals"] == [{"kind": "elephant", "space": "a3"}]


def test_a_passed_animal_moves_on_at_the_end_of_the_turn():
    out = play("red 4", on=savanna(), cars="red b0", choose=[1])
    assert out["cars"]["red"]["space"] == "b4"
    assert out["animals"] == [{"kind": "elephant", "space": "a5"}]


def test_an_animal_skips_a_taken_space_of_its_path():
    out = play("red 5", on=savanna(), cars="red b0, blue a5", choose=[1])
    assert out["cars"]["red"]["space"] == "b5"
    assert out["animals"] == [{"kind": "elephant", "space": "a7"}]


def test_a_car_level_with_an_animal_has_not_passed_it():
    out = play("red 3", on=savanna(), cars="red b0", choose=[1])
    assert out["cars"]["red"]["space"] == "b3"
    assert out["animals"] == [{"kind": "elephant", "space": "a3"}]


def test_an_animal_leaves_the_board_from_its_last_space():
    out = play("red 4", "red 3", on=savanna(path=("a2", "a5")), cars="red b0", choose=[1, 1])
    assert out["animals"] == [{"kind": "elephant", "space": None}]


def test_an_animal_never_lets_a_power_through():
    out = play("red 2", on=savanna(lanes=1), cars="red a0", owners={"red": 0}, powers={0: "daring"})
    assert [m["to"] for m in out["moves"]] == ["a2"]


def test_animals_are_checked_when_loaded():
    track = savanna()
    track["animals"][0]["path"] = ["a5", "a3"]
    with pytest.raises(ScenarioError, match="animals"):
        play(on=track)


# --- the shipped tracks -----------------------------------------------------------------------


@pytest.mark.parametrize("name", TRACKS)
def test_every_track_marks_shapes_rumble_strips_and_tight_spaces(name):
    spaces = default_content().tracks[name].spaces.values()
    assert all(s.flags.get("shape") in ("curved", "rectangular") for s in spaces)
    assert any(s.flags.get("shape") == "rectangular" for s in spaces)
    assert any(s.flags.get("rumble") for s in spaces)
    assert any(s.flags.get("tight") for s in spaces)


def test_the_special_tracks_carry_their_features():
    tracks = default_content().tracks
    loops = {s.flags["loop"] for s in tracks["crosstown-speedway"].spaces.values() if "loop" in s.flags}
    assert len(loops) == 2
    assert sum(1 for s in tracks["switchback-pass"].spaces.values() if s.flags.get("crack")) >= 4
    assert any("ramp" in s.flags for s in tracks["aloha-sands"].spaces.values())
    kinds = {a["kind"] for a in tracks["savanna-stretch"].extra["animals"]}
    assert kinds == {"antelope", "elephant", "python"}


def test_crosstown_has_two_split_sections():
    track = default_content().tracks["crosstown-speedway"]
    split_rows = sorted(
        {
            s.row
            for s in track.spaces.values()
            if s.lane == 0
            and all(track.spaces[a].lane == 0 for a in s.ahead if a in track.spaces)
            and any(o.row == s.row and o.lane == 2 for o in track.spaces.values())
            and not any(o.row == s.row and o.lane == 1 for o in track.spaces.values())
        }
    )
    runs = [r for r in split_rows if r - 1 not in split_rows]
    assert len(runs) == 2


def test_the_picture_and_its_words_show_the_animals():
    from bot.games.downforce.game import Downforce
    from bot.games.downforce.render import alt_text, render_track

    view = Downforce.new(4, 1, {"track": "savanna-stretch"}).view(None)
    assert "Animals: antelope on row 6, elephant on row 17, python on row 26." in alt_text(view)
    assert render_track(view)[:4] == b"\x89PNG"


def test_the_start_commands_track_choices_name_the_features_each_track_has():
    """``/downforce start``'s track menu says what is special about a track (Switchback Pass: cracked
    spaces; Aloha Sands: ramps): it must be what the track's data holds."""
    import json

    from bot.paths import ROOT
    from cogs.downforce.cog import DownforceCog

    words = {"crack": "cracked", "ramp": "ramp", "loop": "loop", "animals": "animal"}
    for choice in DownforceCog.start._params["track"].choices:
        data = json.loads((ROOT / "assets" / "downforce" / "tracks" / f"{choice.value}.json").read_text())
        has = {key for key in ("crack", "ramp", "loop") if any(space.get(key) for space in data["spaces"])}
        has |= {"animals"} if data.get("animals") else set()
        said = {key for key, word in words.items() if word in choice.name.lower()}
        assert said == has, (choice.name, sorted(has))
