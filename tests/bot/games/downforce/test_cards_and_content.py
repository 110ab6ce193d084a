"""Our own edition: 42 balanced speed cards, 6 Speed-8 cards, two tracks; broken files fail clearly."""

from __future__ import annotations

import json
import shutil

import pytest

from bot.games.base import ContentError
from bot.games.downforce.cards import COLOURS, WILD, CardError, bid_value, card_text, parse_card
from bot.games.downforce.content import FOLDER, TRACKS, default_content, load_content


def test_the_notation_reads_and_writes_a_card():
    lines = parse_card("red 4, blue 2, wild 3")
    assert lines == (("red", 4), ("blue", 2), ("wild", 3))
    assert card_text(lines) == "red 4, blue 2, wild 3"


@pytest.mark.parametrize("text", ["", "red", "pink 3", "red 0", "red 9", "red 2, red 3", "red x"])
def test_a_malformed_card_is_refused(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_a_bid_is_the_speed_of_the_auctioned_colour_and_wilds_count_zero():
    card = parse_card("red 4, wild 5")
    assert bid_value(card, "red") == 4
    assert bid_value(card, "blue") == 0


def test_the_edition_has_42_speed_cards_and_one_speed_8_per_colour():
    content = default_content()
    assert len(content.speed_cards) == 42
    assert {content.cards[content.speed8[c]] for c in COLOURS} == {((c, 8),) for c in COLOURS}
    assert all(1 <= len(content.cards[c]) <= 6 for c in content.speed_cards)
    assert any(WILD in (colour for colour, _ in content.cards[c]) for c in content.speed_cards)


def test_every_colour_appears_equally_often_with_the_same_total_speed():
    content = default_content()
    lines = [line for card in content.speed_cards for line in content.cards[card] if line[0] != WILD]
    counts = {c: sum(1 for colour, _ in lines if colour == c) for c in COLOURS}
    totals = {c: sum(speed for colour, speed in lines if colour == c) for c in COLOURS}
    assert len(set(counts.values())) == 1
    assert len(set(totals.values())) == 1


def test_every_file_says_it_is_our_own_edition():
    for path in [FOLDER / "cards.json", *(FOLDER / "tracks" / f"{t}.json" for t in TRACKS)]:
        assert "own edition" in json.loads(path.read_text())["edition"].lower()


def test_both_tracks_have_wide_sections_bottlenecks_flags_and_a_grid():
    # The plain tracks; Crosstown Speedway's bottlenecks are its split roads (see test_track_features).
    for name in ("river-station", "marina-bay"):
        track = default_content().tracks[name]
        widths = {}
        for s in track.spaces.values():
            widths[s.row] = widths.get(s.row, 0) + 1
        assert max(widths.values()) == 3 and min(widths.values()) == 1
        assert len(track.grid) == 6
        flags = [s.flags for s in track.spaces.values()]
        assert all(f["shape"] in ("curved", "rectangular") for f in flags)
        assert any(f.get("rumble") for f in flags) and any(f.get("tight") for f in flags)
        assert {f["shape"] for f in flags} == {"curved", "rectangular"}
        assert 25 <= track.last_row <= 45


def edition(tmp_path):
    shutil.copytree(FOLDER, tmp_path / "downforce")
    return tmp_path / "downforce"


def edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["speed_cards"].pop(), "cards.json: speed_cards:"),
        (lambda d: d["speed_cards"][3].update(card="red 4, pink 2"), "cards.json: speed_cards[3].card:"),
        (
            lambda d: d["speed_cards"][1].update(id=d["speed_cards"][0]["id"]),
            "cards.json: speed_cards[1].id:",
        ),
        (lambda d: d["speed8"][2].update(card="green 7"), "cards.json: speed8[2].card:"),
        (lambda d: d.pop("edition"), "cards.json: edition:"),
    ],
)
def test_a_broken_cards_file_names_the_file_and_the_field(tmp_path, change, message):
    folder = edition(tmp_path)
    edit(folder / "cards.json", change)
    with pytest.raises(ContentError) as err:
        load_content(folder)
    assert str(err.value).startswith(message)


def test_unbalanced_cards_are_refused(tmp_path):
    folder = edition(tmp_path)

    def unbalance(d):
        card = d["speed_cards"][0]
        lines = parse_card(card["card"])
        colour, speed = next(line for line in lines if line[0] != WILD)
        swapped = [(c, s + 1 if c == colour and s < 8 else s) for c, s in lines]
        card["card"] = card_text(swapped)

    edit(folder / "cards.json", unbalance)
    with pytest.raises(ContentError, match="balanced"):
        load_content(folder)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["spaces"][5].update(ahead=["nowhere"]), "spaces[5].ahead"),
        (lambda d: d["spaces"][5].update(ahead=[d["spaces"][0]["id"]]), "spaces[5].ahead"),
        (lambda d: d.update(lines=[3, 2, 9]), "lines"),
        (lambda d: d["grid"].pop(), "grid"),
        (lambda d: d["spaces"][2].update(shape="round"), "spaces[2].shape"),
        (lambda d: d["spaces"][2].pop("x"), "spaces[2].x"),
    ],
)
def test_a_broken_track_names_the_file_and_the_field(tmp_path, change, field):
    folder = edition(tmp_path)
    edit(folder / "tracks" / "marina-bay.json", change)
    with pytest.raises(ContentError) as err:
        load_content(folder)
    assert str(err.value).startswith(f"tracks/marina-bay.json: {field}:")


def test_the_shipped_tracks_are_what_the_design_module_writes():
    from bot.games.downforce.track_design import designs, dumps

    for name, data in designs().items():
        assert (FOLDER / "tracks" / f"{name}.json").read_text() == dumps(data)
