"""Properties over random card sequences and random legal play."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.hotstreak.cards import MASCOTS
from bot.games.hotstreak.content import load_content
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.scenario import run_scenario

from .conftest import TEST_TRACK, random_step

CARD_POOL = sorted(set(load_content().cards) | set(load_content().bordered) | {"all -1", "mum -3", "dry"})


def consistent(result: dict) -> None:
    places = [m["place"] for m in result["mascots"].values() if m["place"] is not None]
    placed = [m for m in result["podium"] if m is not None]
    assert len(placed) == len(set(placed)) == len(places)
    for slot, mascot in enumerate(result["podium"]):
        if mascot is not None:
            assert result["mascots"][mascot]["place"] >= slot + 1
    for m in result["mascots"].values():
        assert (m["status"] == "racing") == (m["place"] is None) or (
            result["ended"] and m["status"] == "racing"
        )
    if result["ended"]:
        assert sorted(result["podium"]) == sorted(MASCOTS)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CARD_POOL), max_size=40))
def test_places_are_always_a_consistent_podium(cards):
    consistent(run_scenario({"track": TEST_TRACK, "cards": cards}))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([c for c in CARD_POOL if c != "dry"]), max_size=20))
def test_every_race_ends_once_the_bar_has_folded_to_the_finish(cards):
    # However the cards fall, at most one fold per white line (plus one to the finish) ends it.
    result = run_scenario({"track": TEST_TRACK, "cards": cards + ["dry"] * 3})
    assert result["ended"] is True
    consistent(result)


@settings(max_examples=12, deadline=None)
@given(seats=st.integers(2, 8), seed=st.integers(0, 10**6), moves=st.integers(0, 80))
def test_random_legal_play_ends_cash_never_negative_and_round_trips(seats, seed, moves):
    game = HotStreak.new(seats, seed, {"first_better": seed % seats})
    rnd = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        random_step(game, rnd)
        assert all(c >= 0 for c in game.view(None)["cash"])
    copy = HotStreak.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.dumps() == game.dumps()
    steps = 0
    while not game.is_over:
        random_step(game, rnd)
        steps += 1
        assert steps < 2000
        podium = game.view(None)["podium"]
        assert len([m for m in podium if m]) == len(set(m for m in podium if m))
    assert all(r.cash >= 0 for r in game.results())
    assert sum(r.won for r in game.results()) >= 1
