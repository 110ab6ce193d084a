"""Ruling (c) of issue 27 under rules 2: when two ways to the same end differ for the car's owner's
Determined or Reckless, both are offered as labelled options; rules 1 keeps the shortest way only;
the scenario runner picks a way with its optional ``ways`` key (absent: the shortest way)."""

from __future__ import annotations

import pytest

from bot.games.base import Action, IllegalAction
from bot.games.downforce import ai
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.game import Downforce
from bot.games.downforce.narration import option_label
from bot.games.downforce.scenario import SCHEMA, _game, build_track

from .conftest import moved, play, space


def two_ways(b1: dict) -> dict:
    """a -> b0 or b1 -> c -> d -> e: every space rectangular and roomy except ``b1``'s flags."""
    rect = {"shape": "rectangular"}
    return {
        "spaces": [
            space("a", 0, 0, ["b0", "b1"], **rect),
            space("b0", 1, 0, ["c"], **rect),
            space("b1", 1, 1, ["c"], **{**rect, **b1}),
            space("c", 2, 0, ["d"], **rect),
            space("d", 3, 0, ["e"], **rect),
            space("e", 4, 0, ["FINISH"], **rect),
        ],
        "lines": [1, 2, 3],
    }


CURVED_B1 = {"shape": "curved"}  # determined: through b0 yes, through b1 no
TIGHT_B1 = {"tight": True}  # reckless: through b0 no, through b1 yes


def red_on_a() -> dict[str, str | None]:
    return {**dict.fromkeys(COLOURS), "red": "a"}


def game_on(track: dict, power: str, rules: int = 2) -> Downforce:
    """Red on a, owned by seat 0 holding ``power``, seat 0 to play "red 2" (card s0)."""
    t = build_track(track)
    return _game(t, red_on_a(), [], [[["red", 2]]], {"red": 0}, {"0": power}, [0], 2, rules)


def test_two_ways_that_differ_for_determined_are_two_labelled_options():
    game = game_on(two_ways(CURVED_B1), "determined")
    game.apply(Action(0, "play", "s0"))
    choice = game.s["choice"]
    assert choice["kind"] == "move" and choice["seat"] == 0
    assert choice["options"] == ["c", "c~b1"]
    view = game.view(0)
    assert option_label(view, "move", "c") == "row 2, lane 1 (through row 1, lane 1: Determined)"
    assert option_label(view, "move", "c~b1") == "row 2, lane 1 (through row 1, lane 2: no Determined)"


@pytest.mark.parametrize(("option", "offered"), [("c", True), ("c~b1", False)])
def test_each_option_leads_to_its_power_outcome(option, offered):
    game = game_on(two_ways(CURVED_B1), "determined")
    game.apply(Action(0, "play", "s0"))
    events = game.apply(Action(0, "move", option))
    move = next(e.data for e in events if e.kind == "car_moved")
    assert move["to"] == "c" and move["path"] == (["b0", "c"] if offered else ["b1", "c"])
    assert move["options"] == ["c", "c~b1"]  # the stored move names the option taken unambiguously
    asked = game.s["choice"]
    assert (asked is not None and asked["kind"] == "power" and asked["power"] == "determined") is offered


def test_an_option_not_offered_is_refused():
    game = game_on(two_ways(CURVED_B1), "determined")
    game.apply(Action(0, "play", "s0"))
    with pytest.raises(IllegalAction):
        game.apply(Action(0, "move", "c~b0"))


def test_a_version_1_game_keeps_the_one_shortest_way():
    game = game_on(two_ways(CURVED_B1), "determined", rules=1)
    game.apply(Action(0, "play", "s0"))
    # one end, one way: no move choice; the shortest way (through b0) sets off determined
    assert game.s["choice"]["kind"] == "power"
    assert game.race.where("red") == "c"


def test_ways_that_do_not_differ_for_a_power_stay_one_option():
    game = game_on(two_ways({}), "determined")  # both ways all rectangular
    game.apply(Action(0, "play", "s0"))
    assert game.s["choice"]["kind"] == "power" and game.race.where("red") == "c"
    plain = game_on(two_ways(CURVED_B1), "aggressive")  # no power reads the way
    plain.apply(Action(0, "play", "s0"))
    assert plain.s["choice"]["kind"] == "power" and plain.race.where("red") == "c"


def test_reckless_off_its_owners_turn_splits_nothing():
    t = build_track(two_ways(TIGHT_B1))
    game = _game(t, red_on_a(), [], [[["red", 2]]], {"red": 0}, {"0": "reckless"}, [1], 2)
    game.apply(Action(1, "play", "s0"))
    assert game.s["choice"] is None and game.race.where("red") == "c"


def test_the_runner_picks_a_way_with_the_ways_key_and_the_shortest_without_it():
    track, owners, powers = two_ways(TIGHT_B1), {"red": 0}, {0: "reckless"}
    without = play("red 2", on=track, cars="red a", owners=owners, powers=powers, answers="yes")
    assert moved(without) == ["red c"] and without["moves"][0]["options"] == ["c"]
    yes = play("red 2", on=track, cars="red a", owners=owners, powers=powers, answers="yes", ways="yes")
    assert moved(yes) == ["red c", "red e reckless"] and yes["moves"][0]["options"] == ["c"]
    no = play("red 2", on=track, cars="red a", owners=owners, powers=powers, answers="yes", ways="no")
    assert moved(no) == ["red c"]
    old = play(
        "red 2", on=track, cars="red a", owners=owners, powers=powers, answers="yes", ways="yes", rules=1
    )
    assert moved(old) == ["red c"]  # rules 1: the shortest way only, ways has nothing to pick


def test_the_runners_help_documents_the_ways_key():
    assert "ways" in SCHEMA and "end~via" in SCHEMA


@pytest.mark.parametrize(("player", "wanted"), [(0, "c"), (1, "c~b1")])
def test_the_ai_takes_the_way_that_sets_off_the_power_only_for_its_own_car(player, wanted):
    # red is seat 0's (determined, any turn); the seat on turn picks the way
    t = build_track(two_ways(CURVED_B1))
    game = _game(t, red_on_a(), [], [[["red", 2]]], {"red": 0}, {"0": "determined"}, [player], 2)
    game.apply(Action(player, "play", "s0"))
    choice = game.s["choice"]
    assert choice["seat"] == player and choice["options"] == ["c", "c~b1"]
    assert ai._move(game.view(player), choice["options"]) == wanted


def test_two_ways_to_one_end_share_its_letter_on_the_picture():
    from cogs.downforce.picture import marked_spaces

    assert marked_spaces(["c", "c~b1", "d"], {"c", "d"}) == {"c": "A", "d": "B"}
