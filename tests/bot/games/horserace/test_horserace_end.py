"""How the game ends: after N races, when a player is broke, or when the host says time is up."""

from __future__ import annotations

import pytest

from bot.games.base import Action, IllegalAction
from bot.games.horserace.ai import play_out
from bot.games.horserace.game import HorseRace
from tests.bot.games.horserace.horserace_table import kinds, of_kind, rolls, start_race, step, table

TIME_UP = Action(None, "time_up", None)


def finish(game, dice) -> list:
    """Horse 2 (three moves, never scratched here) wins the race."""
    return rolls(game, dice, 2, 2, 2)


def test_the_game_ends_after_the_set_number_of_races():
    game, dice = table(4, races=2)
    start_race(game, dice)
    finish(game, dice)
    assert not game.is_over
    start_race(game, dice)
    events = finish(game, dice)
    assert kinds(events)[-1] == "game_over"
    assert game.is_over and game.pending() == []
    assert game.race == 2


def test_five_races_by_default():
    game = HorseRace.new(3, seed=5)
    play_out(game)
    assert game.race == 5


def test_in_broke_mode_the_race_where_a_player_runs_out_of_money_is_the_last():
    game, dice = table(4, end="broke")
    start_race(game, dice)
    roller = game.turn
    game.cash[roller] = 2
    events = rolls(game, dice, 6)  # x2: pays the last $2
    assert kinds(events) == ["roll", "broke"]
    assert game.cash[roller] == 0 and game.last_race
    assert game.hands[roller] == []  # the loser surrenders their cards
    assert roller in game.view(None)["sitting_out"]
    events = rolls(game, dice, 9, 9, 9)
    assert roller not in [e.data["roller"] for e in events]
    game.hands[(roller + 1) % 4] = [2]
    events = finish(game, dice)
    assert kinds(events)[-2:] == ["race_won", "game_over"]


def test_in_broke_mode_paying_the_last_dollar_as_entry_fee_makes_the_race_the_last():
    game, dice = table(3, end="broke", bank=1)
    events = step(game)
    assert kinds(events) == ["race_setup", "broke", "broke", "broke"]
    assert game.last_race
    # Nobody holds a card any more: the table rolls, nobody pays, nobody wins the pot.
    decision = game.pending()[0]
    assert (decision.player, decision.kind) == (None, "roll")
    events = rolls(game, dice, 7, 6, 8, 5, 7, 2, 2, 2)
    assert of_kind(events, "roll")[0].data["paid"] == 0
    won = of_kind(events, "race_won")[0].data
    assert won["payouts"] == {} and game.jackpot == 3
    assert game.is_over


def test_running_out_of_money_does_not_end_a_game_played_to_a_number_of_races():
    game, dice = table(4, races=3)
    start_race(game, dice)
    roller = game.turn
    game.cash[roller] = 2
    rolls(game, dice, 6)
    assert game.cash[roller] == 0 and not game.last_race
    assert game.hands[roller]  # still holds cards, may still win
    finish(game, dice)
    assert not game.is_over


def test_broke_mode_ends_on_its_own():
    game = HorseRace.new(4, seed=3, settings={"end": "broke", "bank": 5})
    play_out(game)
    assert game.is_over and 0 in game.cash


def test_time_up_lets_the_race_in_progress_finish_then_ends_the_game():
    game, dice = table(4, end="minutes", minutes=20)
    start_race(game, dice)
    events = game.apply(TIME_UP)
    assert kinds(events) == ["time_up"] and events[0].data["finishing"]
    assert not game.is_over
    events = finish(game, dice)
    assert kinds(events)[-2:] == ["race_won", "game_over"]


def test_time_up_between_races_ends_the_game_at_once():
    game, dice = table(4, end="minutes")
    start_race(game, dice)
    finish(game, dice)
    events = game.apply(TIME_UP)
    assert kinds(events) == ["time_up", "game_over"]
    assert game.is_over


def test_a_minutes_game_goes_on_past_the_race_count_until_time_is_up():
    game, dice = table(2, end="minutes", races=1)
    for _ in range(3):
        start_race(game, dice)
        finish(game, dice)
    assert not game.is_over and game.race == 3


def test_time_up_is_a_timed_table_step_due_at_the_end_time_fixed_at_the_start():
    game, dice = table(4, end="minutes", ends_at=1_800_000_000.0)
    start_race(game, dice)
    [time_up] = [d for d in game.pending() if d.kind == "time_up"]
    assert time_up.player is None and time_up.not_before == 1_800_000_000.0
    assert any(d.kind == "roll" for d in game.pending())  # the race goes on meanwhile


def test_a_game_not_on_the_clock_never_has_time_up_pending():
    for end in ("races", "broke"):
        game, dice = table(4, end=end)
        start_race(game, dice)
        assert all(d.kind != "time_up" for d in game.pending())


@pytest.mark.parametrize(
    ("settings", "action"),
    [
        ({"end": "races"}, TIME_UP),
        ({"end": "broke"}, TIME_UP),
        ({"end": "minutes"}, Action(0, "time_up", None)),
    ],
)
def test_time_up_is_only_legal_from_the_host_in_minutes_mode(settings, action):
    game, _ = table(4, **settings)
    before = game.dumps()
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert game.dumps() == before


def test_time_is_up_only_once():
    game, dice = table(4, end="minutes")
    start_race(game, dice)
    game.apply(TIME_UP)
    with pytest.raises(IllegalAction):
        game.apply(TIME_UP)


def test_most_money_wins_and_ties_share_the_place():
    game, dice = table(4, races=1)
    start_race(game, dice)
    finish(game, dice)
    game.cash = [30, 12, 30, 8]
    results = game.results()
    assert [(r.place, r.won) for r in results] == [(1, True), (3, False), (1, True), (4, False)]


def test_results_carry_each_seats_story():
    game, dice = table(4, races=1)
    start_race(game, dice)
    game.hands = [[2], [3], [4], [9]]
    rolls(game, dice, 6)  # the roller pays $2
    finish(game, dice)
    detail = {r.seat: r.detail for r in game.results()}
    assert detail[0]["races_won"] == 1 and detail[0]["winnings"] == 6
    assert sum(d["fees"] for d in detail.values()) == 4
    assert sum(d["penalties"] for d in detail.values()) == 2
