"""The scenario runner's command line: its JSON in and out (``SCHEMA``), exit code 2 on bad input."""

from __future__ import annotations

import json

import pytest

from bot.games.downforce.scenario import main

from .conftest import lane_track, space

EXAMPLE = {
    "track": {
        "spaces": [
            space("a1", 0, 0, ["b1", "b2"]),
            space("a2", 0, 1, ["b1", "b2"]),
            space("b1", 1, 0, ["c1", "c2"]),
            space("b2", 1, 1, ["c1", "c2"]),
            space("c1", 2, 0, ["FINISH"]),
            space("c2", 2, 1, ["FINISH"]),
        ],
        "lines": [1, 2],
    },
    "cars": {"red": "a1", "blue": "a2"},
    "cards": [[["red", 4], ["blue", 2]], [["blue", 1]]],
    "choose": [1],
}


def run(tmp_path, capsys, data) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    code = main([str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_prints_cars_first_line_crossings_and_every_move(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, EXAMPLE)
    assert code == 0
    assert json.loads(out) == {
        "cars": {
            "blue": {"space": "FINISH", "finished": True, "place": 2},
            "red": {"space": "FINISH", "finished": True, "place": 1},
        },
        "lines": [{"line": 1, "car": "red", "card": 0}, {"line": 2, "car": "red", "card": 0}],
        "moves": [
            {"card": 0, "car": "red", "steps": 3, "options": ["FINISH"], "to": "FINISH"},
            {"card": 0, "car": "blue", "steps": 2, "options": ["c1", "c2"], "to": "c2"},
            {"card": 1, "car": "blue", "steps": 1, "options": ["FINISH"], "to": "FINISH"},
        ],
    }


def test_a_car_not_listed_is_not_on_the_track_and_its_lines_do_nothing(tmp_path, capsys):
    data = {"track": lane_track(5), "cars": {"red": "a0"}, "cards": [[["green", 3], ["red", 1]]]}
    result = json.loads(run(tmp_path, capsys, data)[1])
    assert list(result["cars"]) == ["red"]
    assert [m["car"] for m in result["moves"]] == ["red"]


def test_a_blocked_car_stays_with_its_own_space_as_the_only_option(tmp_path, capsys):
    data = {"track": lane_track(5, lanes=1), "cars": {"red": "a0", "blue": "a1"}, "cards": [[["red", 3]]]}
    move = json.loads(run(tmp_path, capsys, data)[1])["moves"][0]
    assert move == {"card": 0, "car": "red", "steps": 0, "options": ["a0"], "to": "a0"}


def test_no_choices_left_takes_the_first_option(tmp_path, capsys):
    data = {"track": lane_track(5), "cars": {"red": "a0"}, "cards": [[["red", 1]]]}
    assert json.loads(run(tmp_path, capsys, data)[1])["moves"][0]["to"] == "a1"


def test_a_shipped_track_can_be_named(tmp_path, capsys):
    data = {"track": "river-station", "cars": {"red": "02a"}, "cards": [[["red", 8]]]}
    result = json.loads(run(tmp_path, capsys, data)[1])
    assert result["lines"] == [] and result["moves"][0]["steps"] == 8


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ("{not json", "not valid JSON"),
        ({**EXAMPLE, "cars": {"red": "zz"}}, "unknown space"),
        ({**EXAMPLE, "cars": {"red": "a1", "blue": "a1"}}, "already holds"),
        ({**EXAMPLE, "cars": {"pink": "a1"}}, "unknown colour"),
        ({**EXAMPLE, "cards": [[["red"]]]}, "cards[0][0]"),
        ({**EXAMPLE, "cards": [[["red", "4"]]]}, "cards[0][0]"),
        ({**EXAMPLE, "cards": "red 4"}, "cards must be"),
        ({**EXAMPLE, "choose": [7]}, "out of range"),
        ({**EXAMPLE, "extra": 1}, "unknown scenario key"),
        ({"cars": {}}, "track is missing"),
        ({**EXAMPLE, "track": {"spaces": [space("a", 0, 0, ["b"])], "lines": [1]}}, "unknown space 'b'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(tmp_path, capsys, data, names):
    code, out, err = run(tmp_path, capsys, data)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error:") and names in err


def test_the_schema_is_in_the_help(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for key in ('"track"', '"cars"', '"cards"', '"choose"', '"lines"', '"moves"', "FINISH", "exit code 2"):
        assert key in text


def test_the_help_carries_the_schema_of_features_and_powers(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for key in (
        "straight",
        "shape",
        "rumble",
        "tight",
        "crack",
        "ramp",
        "loop_entry",
        "loop_exit",
        "animals",
    ):
        assert key in text
    for key in ("owners", "powers", "player", "answers"):
        assert key in text


@pytest.mark.parametrize(
    "bad, words",
    [
        ({"powers": {"0": "flying"}}, "powers.0"),
        ({"owners": {"red": 9}}, "owners.red"),
        ({"player": [0, 1]}, "player"),
        ({"answers": ["maybe"]}, "answers"),
    ],
)
def test_bad_power_input_exits_2_naming_the_field(tmp_path, capsys, bad, words):
    data = {"track": lane_track(5), "cars": {"red": "a0"}, "cards": [[["red", 1]]], **bad}
    code, _, err = run(tmp_path, capsys, data)
    assert code == 2 and words in err


def test_the_player_may_change_card_by_card(tmp_path, capsys):
    data = {
        "track": lane_track(9, 1),
        "cars": {"red": "a0"},
        "cards": [[["red", 1]], [["red", 1]]],
        "owners": {"red": 1},
        "powers": {"1": "aggressive"},
        "player": [0, 1],
        "answers": ["yes"],
    }
    result = json.loads(run(tmp_path, capsys, data)[1])
    assert [m["to"] for m in result["moves"]] == ["a1", "a2", "a3"]


def test_a_card_may_be_written_in_card_notation():
    from bot.games.downforce.scenario import run_scenario

    lists = run_scenario(EXAMPLE)
    notation = run_scenario({**EXAMPLE, "cards": ["red 4, blue 2", "blue 1"]})
    assert notation == lists


def test_a_card_in_bad_notation_is_named(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**EXAMPLE, "cards": ["red 4, blue"]}), encoding="utf-8")
    assert main([str(path)]) == 2
    assert "cards[0]: 'blue' is not a line like 'red 4'" in capsys.readouterr().err
