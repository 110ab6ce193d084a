"""The shipped edition loads, has the known component counts, and a broken file names its field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.games.base import ContentError
from bot.games.hotstreak.cards import MASCOTS, parse_card
from bot.games.hotstreak.content import FOLDER, load_content


def test_shipped_edition_has_the_known_components():
    content = load_content()
    assert list(content.mascots) == list(MASCOTS)
    assert content.deck_size == 53
    assert [parse_card(c).mascot for c in content.bordered] == list(MASCOTS)
    assert sum(len(stack) for stack in content.tickets.values()) == 12
    assert all(len(stack) == 3 for stack in content.tickets.values())
    assert len(content.side_bets) == 12
    # The rules: 6 to 11 random cards face up depending on the player count. Ours: fewer with more
    # players, so every race deck holds the same 18 cards (bordered + face up + one per player; 19 with 2).
    assert min(content.face_up.values()) == 6 and max(content.face_up.values()) == 11
    for players, face_up in content.face_up.items():
        assert len(content.bordered) + face_up + players * (2 if players == 2 else 1) == (
            19 if players == 2 else 18
        )
    assert content.track.lanes == 4
    assert len({m["colour"] for m in content.mascots.values()}) == 4


def test_every_shipped_file_says_it_is_our_own_edition():
    for path in FOLDER.glob("*.json"):
        assert "own edition" in json.loads(path.read_text())["_about"], path.name


def test_the_risky_side_pays_more_for_first_and_less_for_second_and_third():
    for stack in load_content().tickets.values():
        for ticket in stack:
            assert ticket["risky"][0] > ticket["safe"][0]
            assert ticket["risky"][1] < ticket["safe"][1]


def test_the_first_ticket_taken_pays_the_most():
    for stack in load_content().tickets.values():
        firsts = [t["safe"][0] for t in stack]
        assert firsts == sorted(firsts, reverse=True) and firsts[0] > firsts[-1]


def _broken(tmp_path: Path, name: str, edit) -> Path:
    folder = tmp_path / "edition"
    shutil.copytree(FOLDER, folder)
    data = json.loads((folder / name).read_text())
    edit(data)
    (folder / name).write_text(json.dumps(data))
    return folder


@pytest.mark.parametrize(
    ("name", "edit", "field"),
    [
        ("track.json", lambda d: d.update(length="long"), "length"),
        ("track.json", lambda d: d.update(stars=[[3], [4]]), "stars"),
        ("track.json", lambda d: d.update(white_lines=[7, 4]), "white_lines"),
        ("cards.json", lambda d: d["cards"].__setitem__(0, {"card": "gobbler +zz"}), "cards[0].card"),
        ("cards.json", lambda d: d["bordered"].reverse(), "bordered[0]"),
        ("cards.json", lambda d: d.update(total=52), "total"),
        ("cards.json", lambda d: d["face_up_by_players"].pop("5"), "face_up_by_players.5"),
        ("mascots.json", lambda d: d["mascots"][1].update(colour="red"), "mascots[1].colour"),
        ("mascots.json", lambda d: d["mascots"][3].pop("gender"), "mascots[3].gender"),
        ("tickets.json", lambda d: d["tickets"]["mum"][0].update(risky=[1, 9, 9]), "tickets.mum[0].risky"),
        ("tickets.json", lambda d: d["tickets"]["hurley"][2].update(safe=[1, 2]), "tickets.hurley[2].safe"),
        (
            "side_bets.json",
            lambda d: d["side_bets"][2]["condition"].update(type="mascot_sings"),
            "side_bets[2].condition.type",
        ),
        (
            "side_bets.json",
            lambda d: d["side_bets"][0]["condition"].update(mascot="bob"),
            "side_bets[0].condition.mascot",
        ),
        ("side_bets.json", lambda d: d["side_bets"][3]["slips"]["no"].pop(), "side_bets[3].slips.no"),
        (
            "side_bets.json",
            lambda d: d["side_bets"][1]["slips"]["yes"][0].update(risky=[5, 2]),
            "side_bets[1].slips.yes[0].risky",
        ),
        ("side_bets.json", lambda d: d["side_bets"][4].update(id=d["side_bets"][0]["id"]), "side_bets[4].id"),
    ],
)
def test_a_broken_file_raises_content_error_naming_file_and_field(tmp_path, name, edit, field):
    with pytest.raises(ContentError) as err:
        load_content(_broken(tmp_path, name, edit))
    assert str(err.value).startswith(f"{name}: {field}:")


def test_a_file_that_is_not_json_is_named(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(FOLDER, folder)
    (folder / "tickets.json").write_text("{oops")
    with pytest.raises(ContentError, match=r"^tickets\.json: \(file\): not valid JSON"):
        load_content(folder)


def test_a_missing_file_is_named(tmp_path):
    folder = tmp_path / "edition"
    shutil.copytree(FOLDER, folder)
    (folder / "mascots.json").unlink()
    with pytest.raises(ContentError, match=r"^mascots\.json: \(file\): missing"):
        load_content(folder)
