"""Board layouts are data, validated at load: a broken file names the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.base import ContentError
from bot.games.horserace.board import HORSES, Board, available_boards, load_board

STANDARD = {2: 3, 3: 6, 4: 8, 5: 11, 6: 14, 7: 17, 8: 14, 9: 11, 10: 8, 11: 6, 12: 3}


def write(directory: Path, name: str, data: object) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    (directory / f"{name}.json").write_text(text, encoding="utf-8")


def good(name: str = "mine") -> dict:
    return {"name": name, "title": "Mine", "moves": {str(h): m for h, m in STANDARD.items()}}


def test_standard_board_is_the_common_published_layout():
    assert load_board("standard").moves == STANDARD


def test_classic16_board_differs_only_in_horse_7():
    classic = load_board("classic16").moves
    assert classic[7] == 16
    assert {h: m for h, m in classic.items() if h != 7} == {h: m for h, m in STANDARD.items() if h != 7}


def test_shipped_boards_are_listed():
    assert {"standard", "classic16"} <= set(available_boards())


def test_a_valid_file_loads(tmp_path):
    write(tmp_path, "mine", good())
    assert load_board("mine", tmp_path).moves == STANDARD


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["moves"].pop("7"), "'moves' lacks horse(s) 7"),
        (lambda d: d["moves"].update({"13": 3}), "unknown horse(s) 13"),
        (lambda d: d["moves"].update({"4": 0}), "moves.4"),
        (lambda d: d["moves"].update({"4": "8"}), "moves.4"),
        (lambda d: d["moves"].update({"4": True}), "moves.4"),
        (lambda d: d.update({"moves": [3, 6]}), "'moves'"),
        (lambda d: d.update({"name": "other"}), "'name'"),
        (lambda d: d.update({"title": 5}), "'title'"),
        (lambda d: d.update({"titles": {"pt-BR": ""}}), "'titles'"),
        (lambda d: d.update({"titles": ["Tabuleiro"]}), "'titles'"),
    ],
)
def test_a_broken_file_names_the_file_and_the_field(tmp_path, mutate, field):
    data = good()
    mutate(data)
    write(tmp_path, "mine", data)
    with pytest.raises(ContentError) as error:
        load_board("mine", tmp_path)
    assert "mine.json" in str(error.value)
    assert field in str(error.value)


def test_invalid_json_names_the_file(tmp_path):
    write(tmp_path, "mine", "{not json")
    with pytest.raises(ContentError, match=r"mine\.json: not valid JSON"):
        load_board("mine", tmp_path)


def test_a_missing_board_lists_the_known_ones(tmp_path):
    write(tmp_path, "mine", good())
    with pytest.raises(ContentError, match="known: mine"):
        load_board("nothere", tmp_path)


def test_board_names_cannot_walk_out_of_the_folder():
    with pytest.raises(ContentError):
        load_board("../fonts/x")


def test_every_horse_has_a_lane():
    assert HORSES == tuple(range(2, 13))


def test_a_board_title_may_come_in_other_languages_and_survives_a_round_trip():
    board = load_board("standard")
    assert board.titles["pt-BR"] == "Tabuleiro padrão"
    assert Board.from_json(board.to_json()) == board
