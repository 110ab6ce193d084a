"""The AI players: always a legal option, deterministic for an rng, blind to what its seat cannot see."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.games.base import Action
from bot.games.hotstreak.ai import LEVELS, ai_action, choose, option_bet, play_ai_game
from bot.games.hotstreak.ai_outlook import (
    Outlook,
    edition_cards,
    imagine,
    lean_start,
    play_lean,
    play_race,
    unseen_cards,
)
from bot.games.hotstreak.cards import MASCOTS
from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.race import TALLY_KEYS
from bot.games.hotstreak.sidebets import CONDITIONS, condition_holds
from bot.games.hotstreak.track import Track

from .conftest import random_step

FAST = 60  # imagined races per decision in tests (the floor of 40 per choice still applies)


def _game_at(seats: int, seed: int, steps: int) -> HotStreak:
    """A game after ``steps`` random steps, stopped where some seat must decide."""
    game = HotStreak.new(seats, seed)
    rnd = random.Random(seed)
    done = 0
    while not game.is_over and (done < steps or game.pending()[0].player is None):
        random_step(game, rnd)
        done += 1
    return game


@settings(max_examples=25, deadline=None)
@given(
    seats=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10_000),
    steps=st.integers(min_value=0, max_value=60),
    level=st.sampled_from(LEVELS),
)
def test_the_ai_always_returns_one_of_the_options(seats, seed, steps, level):
    game = _game_at(seats, seed, steps)
    assume(not game.is_over)
    for decision in game.pending():
        if decision.player is None:
            continue
        choice = choose(game.view(decision.player), decision, level, random.Random(seed), budget=FAST)
        assert choice in decision.options
        game.copy().apply(Action(decision.player, decision.kind, choice))


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_and_rng_give_the_same_choice(level):
    game = _game_at(4, 11, 3)
    decision = game.pending()[0]
    view = game.view(decision.player)
    first = choose(view, decision, level, random.Random(99), budget=FAST)
    assert all(choose(view, decision, level, random.Random(99), budget=FAST) == first for _ in range(3))


def test_an_unknown_level_is_refused():
    game = HotStreak.new(3, 1)
    decision = game.pending()[0]
    with pytest.raises(ValueError, match="unknown AI level"):
        choose(game.view(decision.player), decision, "hard", random.Random(1))


def test_a_seat_view_holds_its_own_hand_only():
    game = _game_at(4, 5, 0)
    view = game.view(2)
    assert view["hand"] == game.s["hands"][2]
    assert not {"hands", "submissions", "deck", "pile", "burned_cards"} & set(view)
    # What the AI treats as unseen includes the other seats' hands.
    unseen = unseen_cards(view)
    for seat in (0, 1, 3):
        for card in game.s["hands"][seat]:
            assert card in unseen


def _with_other_secrets_changed(game: HotStreak, seat: int) -> HotStreak:
    """The same game with every card ``seat`` cannot see swapped for another unseen card (other
    seats' hands and submissions) and the draw pile reordered; all it can see stays the same."""
    other = game.copy()
    rnd = random.Random(1)
    pool = unseen_cards(game.view(seat))
    rnd.shuffle(pool)
    for s in range(game.seats):
        if s == seat:
            continue
        secret = other.s["hands"][s] + (other.s["submissions"][s] or [])
        fresh = [c for c in pool if c not in secret][: len(secret)]
        pool = [c for c in pool if c not in fresh]
        held = len(other.s["hands"][s])
        other.s["hands"][s] = fresh[:held]
        if other.s["submissions"][s] is not None:
            other.s["submissions"][s] = fresh[held:]
    other.deck.pile.reverse()
    other.deck.burned.reverse()
    return other


@pytest.mark.parametrize(
    ("seats", "seed", "steps"), [(4, 3, 2), (4, 8, 9), (2, 4, 7), (4, 21, 33), (3, 21, 54), (2, 21, 51)]
)
def test_the_normal_ai_ignores_what_its_seat_cannot_see(seats, seed, steps):
    game = _game_at(seats, seed, steps)
    decision = game.pending()[0]
    seat = decision.player
    changed = _with_other_secrets_changed(game, seat)
    assert changed.s["hands"] != game.s["hands"] or changed.deck.pile != game.deck.pile
    assert changed.view(seat) == game.view(seat)
    mine = ai_action(game, ["normal"] * seats, random.Random(7), budget=FAST)
    theirs = ai_action(changed, ["normal"] * seats, random.Random(7), budget=FAST)
    assert mine == theirs


def test_imagined_races_follow_the_engine_exactly():
    """The AI's race runner, given the game's own deck and RNG state, plays the race the table plays."""
    for seed in range(6):
        game = HotStreak.new(4, seed)
        rnd = random.Random(seed)
        while game.phase != "submit":
            random_step(game, rnd)
        for seat in range(3):
            game.apply(Action(seat, "submit", game.submit_options(seat)[0]))
        last = game.submit_options(3)[0]
        cards = list(game.s["face_up"]) + [c for s in range(3) for c in game.s["submissions"][s]] + last
        twin = random.Random()
        twin.setstate(game.rng._random.getstate())
        imagined = play_race(game.race.track, cards, twin)
        game.apply(Action(3, "submit", last))
        while game.phase == "race" and game.s["race_no"] == 1:
            game.apply(Action(None, "flip", "flip"))
        record = game.s["history"][0]
        assert list(imagined.podium.slots) == record["podium"]
        assert imagined.tally == record["tally"]


def test_a_lean_imagined_race_is_the_engines_race_for_the_same_draws():
    """The AI imagines races on the odds' lean rules (eight times faster); for the same random state
    each ends exactly as the engine's ``Race`` and ``RaceDeck`` would play it: every place and every
    count a side bet reads, through folds and reshuffles too."""
    track = Track.from_json(HotStreak.new(4, 1).view(0)["track"])
    start = lean_start(track)
    edition = edition_cards()
    for seed in range(400):
        pick = random.Random(seed)
        cards = pick.sample(edition, pick.randint(6, 16))  # small decks run dry: folds and reshuffles
        engine = play_race(track, cards, random.Random(seed))
        lean = play_lean(start, cards, random.Random(seed))
        assert lean.paid == [engine.place_of(m) for m in MASCOTS], seed
        assert dict(zip(TALLY_KEYS, lean.tally, strict=True)) == engine.tally, seed
    assert start.paid == [0] * len(MASCOTS)  # each race plays on a copy


def test_an_outlook_counts_a_lean_race_as_it_counts_the_engines():
    track = Track.from_json(HotStreak.new(4, 2).view(0)["track"])
    edition = edition_cards()
    for seed, kind in enumerate(sorted(CONDITIONS) * 5):
        condition = {
            "type": kind,
            "mascot": MASCOTS[seed % 4],
            "other": MASCOTS[(seed + 1) % 4],
            "n": 1 + seed % 3,
        }
        cards = random.Random(seed).sample(edition, 12)
        engine = play_race(track, cards, random.Random(seed))
        lean = Outlook()
        lean.add(play_lean(lean_start(track), cards, random.Random(seed)), condition)
        places = {m: [int(engine.place_of(m) == p) for p in range(1, len(MASCOTS) + 1)] for m in MASCOTS}
        assert (lean.places, lean.happened) == (places, int(condition_holds(condition, engine))), kind


def test_an_outlook_prices_tickets_and_slips_from_its_tallies():
    outlook = Outlook()
    outlook.races = 4
    outlook.places["mum"] = [2, 1, 0, 1]  # 1st twice, 2nd once, 4th once
    outlook.happened = 1
    assert outlook.bet_value({"kind": "ticket", "mascot": "mum", "values": [9, 2, 1]}) == pytest.approx(5.0)
    assert outlook.bet_value({"kind": "side", "answer": "yes", "values": [8, -2]}) == pytest.approx(0.5)
    assert outlook.bet_value({"kind": "side", "answer": "no", "values": [1, 0]}) == pytest.approx(0.75)


def test_an_option_is_priced_as_the_top_ticket_or_slip_of_its_stack():
    view = HotStreak.new(3, 2).view(0)
    ticket = option_bet(view, "ticket:dangle:risky")
    assert ticket == {"kind": "ticket", "mascot": "dangle", "values": view["tickets"]["dangle"][0]["risky"]}
    slip = view["side_bet"]["slips"]["no"][0]
    assert option_bet(view, "side:no:safe")["values"] == [slip["safe"], 0]
    assert option_bet(view, "side:no:risky")["values"] == slip["risky"]


def test_imagined_races_place_every_mascot():
    view = HotStreak.new(4, 6).view(1)
    (outlook,) = imagine(view, [[view["hand"][0]]], 50, random.Random(3))
    assert outlook.races == 50
    assert all(sum(outlook.places[m]) == 50 for m in MASCOTS)
    assert len(unseen_cards(view)) == default_content().deck_size - len(view["face_up"]) - len(view["hand"])


def test_normal_beats_easy_head_to_head():
    games = 24
    normal_wins = 0
    for index in range(games):
        levels = ["normal", "easy"] if index % 2 == 0 else ["easy", "normal"]
        game = play_ai_game(2, 500 + index, levels, budget=FAST)
        normal = levels.index("normal")
        cash = game.s["cash"]
        normal_wins += cash[normal] > cash[1 - normal]
    assert normal_wins / games > 0.5


def test_play_ai_game_is_deterministic_and_finishes():
    first = play_ai_game(3, 42, ["normal", "easy"], budget=FAST)
    second = play_ai_game(3, 42, ["normal", "easy"], budget=FAST)
    assert first.is_over and first.dumps() == second.dumps()


def test_a_busy_bots_ai_thinks_less_but_still_picks_an_option():
    """``effort`` is the share of the imagined races a busy bot can afford (bot.workers.ai_effort)."""
    game = HotStreak.new(4, 11)
    decision = game.pending()[0]
    view = game.view(decision.player)
    tired = choose(view, decision, "normal", random.Random(3), effort=0.1)
    assert tired in decision.options
    assert choose(view, decision, "normal", random.Random(3), effort=1.0) == choose(
        view, decision, "normal", random.Random(3)
    )
