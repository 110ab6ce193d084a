"""The scenario runner's command line: JSON in, JSON out, exit code 2 on bad input."""

from __future__ import annotations

import json

import pytest

from bot.games.hotstreak.scenario import main


def run(tmp_path, capsys, data) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    code = main([str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_prints_the_mascots_bar_and_whether_the_race_ended(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, {"cards": ["gobbler +3"]})
    result = json.loads(out)
    assert code == 0
    assert result["mascots"]["gobbler"] == {
        "lane": 0,
        "pos": 3,
        "facing": "forward",
        "fallen": False,
        "status": "racing",
        "place": None,
    }
    assert list(result["mascots"]) == ["gobbler", "hurley", "dangle", "mum"]
    assert (result["ended"], result["bar"]) == (False, 0)


def test_track_and_mascots_override_the_defaults(tmp_path, capsys):
    data = {
        "track": {"length": 5, "stars": [[], [], [], []], "white_lines": []},
        "mascots": {"mum": {"pos": 3}},
        "cards": ["mum +2"],
    }
    result = json.loads(run(tmp_path, capsys, data)[1])
    assert result["mascots"]["mum"]["status"] == "finished"


def test_play_stops_when_the_race_ends(tmp_path, capsys):
    data = {
        "mascots": {m: {"pos": 1} for m in ("gobbler", "hurley", "dangle", "mum")},
        "cards": ["dry", "mum +1"],
    }
    result = json.loads(run(tmp_path, capsys, data)[1])
    assert result["ended"] is True
    assert result["mascots"]["mum"]["pos"] == 1


@pytest.mark.parametrize(
    "data",
    [
        "{not json",
        {"cards": ["gobbler +3", "bob +1"]},
        {"cards": "gobbler +3"},
        {"mascots": {"bob": {}}},
        {"mascots": {"mum": {"lane": 9}}},
        {"track": {"length": "x"}},
        {"cards": [], "extra": 1},
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(tmp_path, capsys, data):
    code, out, err = run(tmp_path, capsys, data)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error:")


def test_a_missing_file_is_exit_code_2(tmp_path, capsys):
    assert main([str(tmp_path / "nope.json")]) == 2
    assert capsys.readouterr().err.startswith("error:")
