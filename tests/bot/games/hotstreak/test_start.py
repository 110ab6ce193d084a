"""The unluckiest player goes first: lowest lifetime net, ties drawn by the seeded RNG."""

from __future__ import annotations

import random

import pytest

from bot.games.catalog import Start
from bot.games.hotstreak.start import choose_unluckiest, engine_settings


def test_the_lowest_lifetime_net_goes_first() -> None:
    assert choose_unluckiest({1: 30, 2: -12, 3: 0}, random.Random(0)) == 2


def test_a_newcomer_at_zero_beats_winners() -> None:
    assert choose_unluckiest({1: 30, 2: 0, 3: 5}, random.Random(0)) == 2


def test_ties_are_drawn_at_random_among_the_tied_only() -> None:
    picks = {choose_unluckiest({1: -5, 2: 9, 3: -5, 4: -5}, random.Random(seed)) for seed in range(60)}
    assert picks == {1, 3, 4}


def test_the_same_seed_gives_the_same_pick_whatever_the_dict_order() -> None:
    forward = {10: 0, 20: 0, 30: 0, 40: 0}
    backward = dict(reversed(forward.items()))
    for seed in range(20):
        assert choose_unluckiest(forward, random.Random(seed)) == choose_unluckiest(
            backward, random.Random(seed)
        )


def test_nobody_to_choose_from_is_an_error() -> None:
    with pytest.raises(ValueError, match="no players"):
        choose_unluckiest({}, random.Random(0))


def test_the_unluckiest_human_seat_bets_first_and_an_all_ai_table_starts_at_seat_0() -> None:
    start = Start(seats=4, seed=7, now=0.0, options={}, lifetime_net={0: 12, 2: -30, 3: 5})
    assert engine_settings(start) == {"first_better": 2}
    assert engine_settings(Start(3, 7, 0.0, {}, {})) == {"first_better": 0}
