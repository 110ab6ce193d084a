"""The race rules, one test per ruling, in scenario notation (test mat: length 10,
stars [[4, 8], [], [5], [2, 6]], white lines 3 and 6; lanes 0..3 = gobbler, hurley, dangle, mum)."""

from __future__ import annotations


def where(result: dict, mascot: str) -> tuple:
    m = result["mascots"][mascot]
    return (m["lane"], m["pos"], m["facing"], m["fallen"], m["status"], m["place"])


# --- number cards and facing ------------------------------------------------------


def test_plus_card_moves_a_forward_mascot_toward_the_finish(play):
    assert where(play(["gobbler +3"]), "gobbler") == (0, 3, "forward", False, "racing", None)


def test_minus_card_moves_a_forward_mascot_back(play):
    assert play(["hurley -2"], {"hurley": {"pos": 5}})["mascots"]["hurley"]["pos"] == 3


def test_turned_mascot_runs_back_on_a_plus_card(play):
    assert play(["dangle +2"], {"dangle": {"pos": 5, "facing": "back"}})["mascots"]["dangle"]["pos"] == 3


def test_turned_mascot_runs_toward_the_finish_on_a_minus_card(play):
    assert play(["dangle -2"], {"dangle": {"pos": 5, "facing": "back"}})["mascots"]["dangle"]["pos"] == 7


def test_reaching_the_length_finishes_and_takes_first(play):
    result = play(["mum +3"], {"mum": {"pos": 7}})
    assert where(result, "mum") == (3, 10, "forward", False, "finished", 1)


def test_moving_beyond_the_length_finishes(play):
    assert play(["mum +4"], {"mum": {"pos": 8}})["mascots"]["mum"]["status"] == "finished"


def test_moving_below_zero_runs_off_the_back_and_is_out(play):
    result = play(["gobbler -1"])
    assert where(result, "gobbler")[4:] == ("out", 4)


def test_crawling_mascot_moves_one_space(play):
    assert play(["gobbler +4"], {"gobbler": {"pos": 2, "fallen": True}})["mascots"]["gobbler"]["pos"] == 3


def test_crawling_mascot_moves_one_space_backwards_too(play):
    assert play(["gobbler -3"], {"gobbler": {"pos": 2, "fallen": True}})["mascots"]["gobbler"]["pos"] == 1


# --- star, fall, turn ------------------------------------------------------------------


def test_star_moves_to_the_nearest_star_ahead_in_its_lane(play):
    assert play(["gobbler star"])["mascots"]["gobbler"]["pos"] == 4


def test_star_ignores_the_star_it_stands_on(play):
    assert play(["gobbler star"], {"gobbler": {"pos": 4}})["mascots"]["gobbler"]["pos"] == 8


def test_star_facing_back_goes_to_the_nearest_star_behind(play):
    result = play(["gobbler star"], {"gobbler": {"pos": 7, "facing": "back"}})
    assert result["mascots"]["gobbler"]["pos"] == 4


def test_star_with_no_star_ahead_does_not_move(play):
    assert where(play(["hurley star"], {"hurley": {"pos": 3}}), "hurley")[:2] == (1, 3)
    assert play(["mum star"], {"mum": {"pos": 7}})["mascots"]["mum"]["pos"] == 7


def test_crawling_mascot_crawls_one_space_toward_the_star(play):
    assert play(["mum star"], {"mum": {"pos": 3, "fallen": True}})["mascots"]["mum"]["pos"] == 4


def test_stars_behind_the_folded_bar_do_not_count(play):
    result = play(["gobbler star"], {"gobbler": {"pos": 7, "facing": "back"}}, bar=6)
    assert result["mascots"]["gobbler"]["pos"] == 7


def test_fall_makes_a_standing_mascot_crawl(play):
    assert where(play(["hurley fall"]), "hurley")[3:5] == (True, "racing")


def test_fall_on_a_fallen_mascot_knocks_it_out(play):
    assert where(play(["hurley fall", "hurley fall"]), "hurley")[3:] == (True, "out", 4)


def test_turn_flips_the_facing(play):
    assert play(["dangle turn"])["mascots"]["dangle"]["facing"] == "back"
    assert play(["dangle turn", "dangle turn"])["mascots"]["dangle"]["facing"] == "forward"


# --- swerves --------------------------------------------------------------------------


def test_swerve_left_facing_forward_moves_then_goes_one_lane_left(play):
    assert where(play(["dangle swerve-left 2"]), "dangle")[:2] == (1, 2)


def test_swerve_right_facing_forward_goes_one_lane_right(play):
    assert where(play(["hurley swerve-right 2"]), "hurley")[:2] == (2, 2)


def test_swerve_facing_back_is_mirrored(play):
    result = play(["hurley swerve-left 1"], {"hurley": {"pos": 5, "facing": "back"}})
    assert where(result, "hurley")[:2] == (2, 4)


def test_swerve_off_the_track_disqualifies(play):
    assert where(play(["gobbler swerve-left 1"]), "gobbler")[4:] == ("out", 4)
    assert where(play(["mum swerve-right 1"]), "mum")[4:] == ("out", 4)


def test_mascot_that_finishes_does_not_swerve(play):
    result = play(["gobbler swerve-left 3"], {"gobbler": {"pos": 8}})
    assert where(result, "gobbler")[4:] == ("finished", 1)


def test_mascot_that_runs_off_during_the_move_does_not_swerve(play):
    result = play(["hurley swerve-right 2"], {"hurley": {"pos": 1, "facing": "back"}})
    # Out mascots keep the lane and space they last stood on: no swerve to lane 0.
    assert where(result, "hurley")[:2] == (1, 1)
    assert where(result, "hurley")[4] == "out"


def test_crawling_mascot_still_swerves(play):
    result = play(["dangle swerve-left 3"], {"dangle": {"pos": 4, "fallen": True}})
    assert where(result, "dangle")[:2] == (1, 5)


# --- recover ---------------------------------------------------------------------------


def test_recover_stands_up_faces_forward_then_moves(play):
    result = play(["mum recover 2"], {"mum": {"pos": 5, "facing": "back", "fallen": True}})
    assert where(result, "mum") == (3, 7, "forward", False, "racing", None)


# --- collisions --------------------------------------------------------------------------


def test_landing_on_a_mascot_knocks_it_over(play):
    result = play(["gobbler swerve-right 3"], {"hurley": {"pos": 3}})
    assert result["mascots"]["hurley"]["fallen"] is True
    assert result["mascots"]["gobbler"]["fallen"] is False


def test_landing_on_a_fallen_mascot_knocks_it_out(play):
    result = play(["gobbler +3"], {"hurley": {"lane": 0, "pos": 3, "fallen": True}})
    assert where(result, "hurley")[4:] == ("out", 4)


def test_passing_through_a_mascot_does_nothing(play):
    result = play(["gobbler +4"], {"hurley": {"lane": 0, "pos": 2}})
    assert result["mascots"]["hurley"]["fallen"] is False


def test_the_mover_never_falls_from_a_collision(play):
    result = play(["gobbler +2"], {"gobbler": {"pos": 1}, "hurley": {"lane": 0, "pos": 3}})
    assert result["mascots"]["gobbler"]["fallen"] is False
    assert result["mascots"]["hurley"]["fallen"] is True


def test_a_move_of_zero_spaces_hits_no_one(play):
    # Green cards can leave two mascots on one space; a star with no star ahead then moves nobody.
    result = play(["hurley star"], {"hurley": {"lane": 0, "pos": 9}, "gobbler": {"pos": 9}})
    assert result["mascots"]["gobbler"]["fallen"] is False


def test_collision_knocks_over_every_mascot_on_the_space(play):
    result = play(
        ["mum +2"], {"gobbler": {"lane": 3, "pos": 2}, "hurley": {"lane": 3, "pos": 2, "fallen": True}}
    )
    assert result["mascots"]["gobbler"]["fallen"] is True
    assert result["mascots"]["hurley"]["status"] == "out"


def test_swerve_knocks_over_the_mascot_in_the_new_lane(play):
    result = play(["dangle swerve-left 2"], {"hurley": {"pos": 2}})
    assert result["mascots"]["hurley"]["fallen"] is True


def test_swerve_collides_where_the_move_ends_and_where_it_swerves(play):
    result = play(["dangle swerve-right 2"], {"hurley": {"lane": 2, "pos": 2}, "mum": {"pos": 2}})
    assert result["mascots"]["hurley"]["fallen"] is True
    assert result["mascots"]["mum"]["fallen"] is True


# --- green multi cards -----------------------------------------------------------------


def test_green_card_moves_every_mascot_by_its_own_facing_and_crawl(play):
    result = play(["all +2"], {"hurley": {"pos": 5, "facing": "back"}, "dangle": {"fallen": True}})
    assert [m["pos"] for m in result["mascots"].values()] == [2, 3, 1, 2]


def test_green_card_causes_no_collisions(play):
    result = play(["all +2"], {"gobbler": {"lane": 1, "pos": 0}, "hurley": {"pos": 2}})
    assert result["mascots"]["hurley"]["fallen"] is False
    assert result["mascots"]["gobbler"]["pos"] == 2


def test_green_card_cannot_finish_a_mascot(play):
    result = play(["all +3"], {"mum": {"pos": 8}, "dangle": {"pos": 9}})
    assert where(result, "mum")[1:5] == (9, "forward", False, "racing")
    assert where(result, "dangle")[1] == 9


def test_green_card_can_run_a_mascot_off_the_back(play):
    result = play(["all +1"], {"gobbler": {"facing": "back"}})
    assert where(result, "gobbler")[4:] == ("out", 4)


def test_a_card_naming_a_finished_or_out_mascot_does_nothing(play):
    result = play(["gobbler -1", "gobbler +3", "mum +3", "mum -2"], {"mum": {"pos": 7}})
    assert where(result, "gobbler")[1:] == (0, "forward", False, "out", 4)
    assert where(result, "mum")[1:] == (10, "forward", False, "finished", 1)


# --- podium ------------------------------------------------------------------------------


def test_finishers_take_the_best_free_places_in_order(play):
    result = play(["mum +3", "dangle +3"], {"mum": {"pos": 7}, "dangle": {"pos": 7}})
    assert result["podium"][:2] == ["mum", "dangle"]
    assert (result["mascots"]["mum"]["place"], result["mascots"]["dangle"]["place"]) == (1, 2)


def test_an_out_mascot_takes_the_worst_free_place(play):
    result = play(["mum +3", "gobbler -1", "hurley -1"], {"mum": {"pos": 7}})
    assert result["podium"] == ["mum", "dangle", "hurley", "gobbler"]
    assert [result["mascots"][m]["place"] for m in ("mum", "gobbler", "hurley", "dangle")] == [1, 4, 3, 2]


def test_two_outs_on_one_card_share_the_worst_places(play):
    result = play(["all -1"], {"hurley": {"pos": 4}, "dangle": {"pos": 4}})
    assert result["mascots"]["gobbler"]["place"] == 4
    assert result["mascots"]["mum"]["place"] == 4
    assert result["podium"][2:] == ["gobbler", "mum"]
    assert result["ended"] is False


def test_a_card_is_resolved_completely_before_places_are_given(play):
    # Gobbler lands on the fallen Hurley (knocked out), then swerves off the track: out together.
    result = play(["gobbler swerve-left 2"], {"hurley": {"lane": 0, "pos": 2, "fallen": True}})
    assert result["mascots"]["hurley"]["place"] == 4
    assert result["mascots"]["gobbler"]["place"] == 4


def test_the_race_ends_when_three_have_places_and_the_fourth_takes_the_place_left(play):
    result = play(["mum +3", "gobbler -1", "hurley -1", "dangle +9"], {"mum": {"pos": 7}})
    assert result["ended"] is True
    assert result["mascots"]["dangle"]["place"] == 2
    assert result["mascots"]["dangle"]["status"] == "racing"
    assert result["mascots"]["dangle"]["pos"] == 0


def test_when_three_go_out_at_once_the_last_runner_wins(play):
    result = play(["all -1"], {"mum": {"pos": 4}})
    assert result["ended"] is True
    assert [result["mascots"][m]["place"] for m in ("gobbler", "hurley", "dangle", "mum")] == [4, 4, 4, 1]


def test_places_are_paid_from_the_podium_even_when_shared(play):
    result = play(["gobbler +3", "dangle -1", "all -1"], {"gobbler": {"pos": 7}, "hurley": {"pos": 4}})
    # Gobbler 1st, Dangle 4th, then Mum runs off alone: 3rd; Hurley takes 2nd.
    assert [result["mascots"][m]["place"] for m in ("gobbler", "hurley", "dangle", "mum")] == [1, 2, 4, 3]


# --- the deck running dry and the yellow bar -------------------------------------------------


def test_dry_deck_folds_the_bar_to_the_next_white_line(play):
    result = play(["dry"], {m: {"pos": 5} for m in ("gobbler", "hurley", "dangle", "mum")})
    assert result["bar"] == 3
    assert all(m["status"] == "racing" for m in result["mascots"].values())


def test_a_mascot_on_the_white_line_has_crossed_it(play):
    result = play(
        ["dry"], {"gobbler": {"pos": 3}, "hurley": {"pos": 3}, "dangle": {"pos": 3}, "mum": {"pos": 3}}
    )
    assert all(m["status"] == "racing" for m in result["mascots"].values())


def test_fold_puts_out_everyone_behind_the_bar_together(play):
    result = play(
        ["dry"], {"gobbler": {"pos": 1}, "hurley": {"pos": 2}, "dangle": {"pos": 5}, "mum": {"pos": 5}}
    )
    assert [result["mascots"][m]["place"] for m in ("gobbler", "hurley")] == [4, 4]
    assert result["ended"] is False


def test_folds_go_line_by_line_then_to_the_finish(play):
    start = {m: {"pos": 9} for m in ("gobbler", "hurley", "dangle", "mum")}
    assert play(["dry", "dry"], start)["bar"] == 6
    result = play(["dry", "dry", "dry"], start)
    assert result["bar"] == 10
    assert result["ended"] is True
    assert all(m["place"] == 4 for m in result["mascots"].values())


def test_after_a_fold_the_bar_is_the_back_of_the_track(play):
    start = {"gobbler": {"pos": 4}, "hurley": {"pos": 5}, "dangle": {"pos": 5}, "mum": {"pos": 5}}
    result = play(["dry", "gobbler -2"], start)
    assert where(result, "gobbler")[4:] == ("out", 4)
    assert play(["dry", "gobbler -1"], start)["mascots"]["gobbler"]["status"] == "racing"


def test_green_card_below_the_bar_runs_off_the_back(play):
    start = {
        "gobbler": {"pos": 3, "facing": "back"},
        "hurley": {"pos": 5},
        "dangle": {"pos": 5},
        "mum": {"pos": 5},
    }
    assert play(["dry", "all +1"], start)["mascots"]["gobbler"]["status"] == "out"
