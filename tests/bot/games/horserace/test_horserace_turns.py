"""Illegal actions raise and change nothing; the state survives JSON; same seed, same game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import Action, IllegalAction
from bot.games.horserace.ai import ai_action as choose
from bot.games.horserace.ai import play_out
from bot.games.horserace.game import HorseRace
from bot.games.horserace.settings import BadSettings


def advance(game: HorseRace, steps: int) -> list[Action]:
    taken = []
    for _ in range(steps):
        action = choose(game, game.pending()[0].player)
        game.apply(action)
        taken.append(action)
    return taken


@pytest.mark.parametrize(
    "make",
    [
        lambda turn: Action((turn + 1) % 4, "roll", "roll"),  # out of turn
        lambda turn: Action(None, "roll", "roll"),  # the table does not roll while players hold cards
        lambda turn: Action(turn, "next_race", "next_race"),  # a race is on
        lambda turn: Action(turn, "roll", "bet"),  # not an option
        lambda turn: Action(9, "roll", "roll"),  # no such seat
    ],
)
def test_an_illegal_action_raises_and_changes_nothing(make):
    game = HorseRace.new(4, seed=1)
    advance(game, 6)
    action = make(game.turn)
    before = game.dumps()
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert game.dumps() == before


def test_nobody_rolls_before_the_race_is_started():
    game = HorseRace.new(4, seed=1)
    with pytest.raises(IllegalAction):
        game.apply(Action(1, "roll", "roll"))


def test_nothing_is_legal_after_the_end():
    game = HorseRace.new(3, seed=2, settings={"races": 1})
    play_out(game)
    before = game.dumps()
    for action in (
        Action(None, "next_race", "next_race"),
        Action(0, "roll", "roll"),
        Action(None, "time_up"),
    ):
        with pytest.raises(IllegalAction):
            game.apply(action)
    assert game.dumps() == before


def test_the_ai_rolls_when_it_is_its_turn_and_only_then():
    game = HorseRace.new(4, seed=1)
    assert choose(game, None) == Action(None, "next_race", "next_race")
    advance(game, 1)
    assert choose(game, game.turn) == Action(game.turn, "roll", "roll")
    assert choose(game, (game.turn + 1) % 4) is None


@pytest.mark.parametrize("steps", [0, 1, 3, 40, 200])
def test_a_game_round_trips_through_json_mid_game_and_continues_identically(steps):
    game = HorseRace.new(6, seed=4, settings={"races": 10, "fee": 2})
    advance(game, steps)
    copy = HorseRace.from_json(json.loads(game.dumps()))
    assert copy.dumps() == game.dumps()
    assert copy.view(None) == game.view(None)
    for _ in range(150):
        if game.is_over:
            break
        action = choose(game, game.pending()[0].player)
        assert [e.to_json() for e in game.apply(action)] == [e.to_json() for e in copy.apply(action)]
    assert copy.dumps() == game.dumps()


def test_the_same_seed_and_actions_give_the_same_game():
    first, second = HorseRace.new(5, seed=99), HorseRace.new(5, seed=99)
    log = play_out(first)
    for action in log:
        second.apply(action)
    assert first.dumps() == second.dumps()
    assert HorseRace.new(5, seed=100).dumps() != HorseRace.new(5, seed=99).dumps()


@settings(max_examples=25, deadline=None)
@given(
    seats=st.integers(2, 15),
    seed=st.integers(0, 10_000),
    end=st.sampled_from(["races", "broke"]),
    bank=st.integers(1, 12),
    fee=st.integers(1, 3),
)
def test_any_game_ends_and_keeps_every_dollar(seats, seed, end, bank, fee):
    game = HorseRace.new(seats, seed=seed, settings={"end": end, "bank": bank, "fee": fee, "races": 3})
    play_out(game)
    assert game.is_over
    assert sum(game.cash) + game.jackpot == seats * bank
    assert min(game.cash) >= 0
    assert sorted(r.place for r in game.results())[0] == 1


@pytest.mark.parametrize(
    ("seats", "settings"),
    [
        (1, None),
        (16, None),
        (4, {"colour": "red"}),
        (4, {"end": "sunset"}),
        (4, {"board": "nothere"}),
        (4, {"board": "../fonts"}),
        (4, {"bank": 0}),
        (4, {"fee": True}),
        (4, {"races": "5"}),
        (4, {"dealer": 4}),
        (4, {"end": "minutes", "minutes": 0}),
    ],
)
def test_bad_settings_are_refused(seats, settings):
    with pytest.raises(BadSettings):
        HorseRace.new(seats, seed=1, settings=settings)


def test_settings_have_sensible_defaults():
    view = HorseRace.new(4, seed=1).view(None)
    assert (view["races"], view["end"], view["fee"], view["cash"]) == (5, "races", 1, [60] * 4)
    assert HorseRace.new(4, seed=1, settings={"end": "minutes"}).view(None)["minutes"] == 30


def test_the_view_is_public_and_complete():
    game = HorseRace.new(4, seed=1, settings={"board": "classic16"})
    advance(game, 8)
    view = game.view(None)
    assert view == game.view(0) == game.view(3)
    assert view["board"]["moves"]["7"] == 16
    assert set(view) >= {
        "game", "phase", "race", "races", "dealer", "turn", "cash", "jackpot", "board", "positions",
        "scratched", "hands", "sitting_out", "last_roll", "winner",
    }  # fmt: skip
    assert json.loads(json.dumps(view)) == view


def test_a_seat_that_chooses_auto_is_rolled_for_by_the_table_for_the_rest_of_the_game():
    game = HorseRace.new(3, seed=4)
    advance(game, 1)  # the race starts
    turn = game.turn
    assert game.pending()[0].options == ("roll", "auto")
    events = game.apply(Action(turn, "roll", "auto"))
    assert events[0].kind == "auto_rolls" and events[0].data == {"seat": turn}
    assert game.view(None)["auto_rolls"] == [turn]
    told = 1
    while not game.is_over and game.race == 1:
        decision = game.pending()[0]
        if decision.player == turn:
            assert decision.options == ("auto",)  # only the table's roll: no one waits for a click
            with pytest.raises(IllegalAction):
                game.apply(Action(turn, "roll", "roll"))
        events = game.apply(Action(decision.player, decision.kind, decision.options[0]))
        told += sum(e.kind == "auto_rolls" for e in events)
    assert told == 1  # said once
    assert game.view(None)["auto_rolls"] == [turn]  # the next races too


def test_a_game_stored_before_auto_rolls_existed_loads_and_replays():
    game = HorseRace.new(2, seed=3)
    taken = advance(game, 8)  # old logs chose "roll", still an option
    data = json.loads(game.dumps())
    del data["state"]["auto_rolls"]
    old = HorseRace.from_json(data)
    assert old.auto_rolls == [] and old.pending() == game.pending()
    replayed = HorseRace.new(2, seed=3)
    for action in taken:
        replayed.apply(Action(action.player, action.kind, action.choice))
    assert replayed.dumps() == game.dumps()
