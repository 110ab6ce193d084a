"""Movement, as the rules say it: straight or diagonally ahead, never into or through a car, keep
moving while you can, the player on turn picks the end (a dead end on purpose too), the finish."""

from __future__ import annotations

from bot.games.downforce.movement import Mover
from bot.games.downforce.track import Track

from .conftest import lane_track, moved, play, space


def ends(track: dict, start: str, speed: int, cars: set[str] = frozenset()) -> dict[str, int]:
    ways = Mover(Track(track)).ways(start, speed, set(cars))
    return {end: way.steps for end, way in ways.items()}


def test_a_free_car_moves_its_full_speed_straight_or_diagonally():
    track = lane_track(6, lanes=2)
    assert ends(track, "a0", 2) == {"a2": 2, "b2": 2}


def test_a_step_is_diagonal_only_to_a_neighbouring_lane():
    track = lane_track(6, lanes=3)
    assert set(ends(track, "a0", 1)) == {"a1", "b1"}
    assert set(ends(track, "b0", 1)) == {"a1", "b1", "c1"}


def test_a_car_never_moves_into_or_through_an_occupied_space():
    track = lane_track(6, lanes=1)
    # One lane: the car ahead blocks everything behind it.
    assert ends(track, "a0", 4, {"a2"}) == {"a1": 1}


def test_a_blocked_car_stays_where_it_is():
    track = lane_track(6, lanes=2)
    assert ends(track, "a0", 3, {"a1", "b1"}) == {"a0": 0}


def test_a_car_must_keep_moving_and_goes_round_a_car_diagonally():
    track = lane_track(6, lanes=2)
    # Blocked straight ahead, it must step diagonally and carry on: it cannot stop early in a1's place.
    assert ends(track, "a0", 3, {"a1"}) == {"a3": 3, "b3": 3}


def test_a_way_into_a_dead_end_is_a_legal_choice_that_loses_the_rest_of_the_move():
    track = lane_track(6, lanes=2)
    boxed = ends(track, "a0", 4, {"a3", "b3"})
    assert boxed == {"a2": 2, "b2": 2}


def test_the_player_can_choose_a_dead_end_on_purpose():
    # a0 can go to b1 (then on to b2, c?) or to a1 which has nothing free ahead.
    track = {
        "spaces": [
            space("s", 0, 0, ["deadend", "open1"]),
            space("deadend", 1, 0, ["wall"]),
            space("open1", 1, 1, ["open2"]),
            space("open2", 2, 1, ["open3"]),
            space("open3", 3, 1, ["FINISH"]),
            space("wall", 2, 0, ["FINISH"]),
        ],
        "lines": [1, 2, 3],
    }
    assert ends(track, "s", 3, {"wall"}) == {"deadend": 1, "open3": 3}
    result = play("red 3", on=track, cars="red s, black wall", choose=[0])
    assert result["moves"] == [
        {"card": 0, "car": "red", "steps": 1, "options": ["deadend", "open3"], "to": "deadend"}
    ]


def test_crossing_the_finish_ends_the_move_and_takes_the_next_place():
    result = play("red 5, blue 6", on=lane_track(3, lanes=2, lines=(1, 2)), cars="red a1, blue b0")
    assert moved(result) == ["red FINISH", "blue FINISH"]
    assert result["cars"]["red"] == {"space": "FINISH", "finished": True, "place": 1}
    assert result["cars"]["blue"] == {"space": "FINISH", "finished": True, "place": 2}
    assert [m["steps"] for m in result["moves"]] == [2, 3]


def test_a_finished_car_ignores_further_movement():
    result = play("red 1", "red 4", on=lane_track(3, lanes=1, lines=(2,)), cars="red a2")
    assert len(result["moves"]) == 1 and result["cars"]["red"]["place"] == 1


def test_the_finish_is_reached_by_the_fewest_steps():
    track = lane_track(4, lanes=2, lines=(1, 2, 3))
    assert ends(track, "a0", 8)["FINISH"] == 4


def test_choices_are_the_distinct_end_spaces_sorted_as_plain_strings():
    move = play("green 2", on=lane_track(6, lanes=3), cars="green a0", choose=[2])["moves"][0]
    assert move["options"] == ["a2", "b2", "c2"]
    assert move["to"] == "c2"
