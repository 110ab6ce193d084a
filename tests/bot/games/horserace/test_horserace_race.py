"""The race: rolls in turn, moves, scratch penalties by multiplier, the win and the jackpot split."""

from __future__ import annotations

from bot.games.horserace.jackpot import split_jackpot
from tests.bot.games.horserace.horserace_table import of_kind, rolls, start_race, step, table


def test_players_roll_in_turn_round_the_table():
    game, dice = table(3)
    start_race(game, dice)  # scratches by seats 1, 2, 0, 1: seat 2 starts
    events = rolls(game, dice, 9, 9, 9, 9)
    assert [e.data["roller"] for e in events] == [2, 0, 1, 2]


def test_a_race_roll_moves_that_horse_one_step():
    game, dice = table(4)
    start_race(game, dice)
    roll = rolls(game, dice, 9)[0].data
    assert (roll["horse"], roll["from"], roll["to"]) == (9, 0, 1)
    assert game.view(None)["positions"]["9"] == 1


def test_rolling_a_scratched_number_costs_the_roller_the_slot_multiplier_times_the_fee():
    game, dice = table(4, fee=2)
    start_race(game, dice, scratches=(7, 6, 8, 5))  # 8 is in slot x3
    roller = game.turn
    before, pot = game.cash[roller], game.jackpot
    roll = rolls(game, dice, 8)[0].data
    assert (roll["multiplier"], roll["due"], roll["paid"]) == (3, 6, 6)
    assert game.cash[roller] == before - 6
    assert game.jackpot == pot + 6
    assert game.view(None)["positions"]["8"] == 0


def test_only_the_roller_pays_a_scratch_penalty():
    game, dice = table(4)
    start_race(game, dice)
    roller = game.turn
    others = [cash for seat, cash in enumerate(game.cash) if seat != roller]
    rolls(game, dice, 5)
    assert [cash for seat, cash in enumerate(game.cash) if seat != roller] == others


def test_a_roller_who_cannot_pay_the_penalty_pays_what_they_have():
    game, dice = table(4)
    start_race(game, dice)
    roller = game.turn
    game.cash[roller] = 2
    roll = rolls(game, dice, 5)[0].data  # x4
    assert (roll["due"], roll["paid"], game.cash[roller]) == (4, 2, 0)


def test_players_sitting_out_do_not_roll_in_the_race():
    game, dice = table(4)
    step(game)
    game.hands[3] = [7]
    rolls(game, dice, 7, 6, 8, 5)  # seats 1, 2, (3 sits out), 0, 1
    events = rolls(game, dice, 9, 9, 9)
    assert [e.data["roller"] for e in events] == [2, 0, 1]


def test_the_first_horse_to_complete_its_moves_wins_and_its_holders_split_the_jackpot():
    game, dice = table(4)
    start_race(game, dice)
    game.hands = [[2, 2], [2], [3], [4]]
    game.jackpot = 10
    game.cash = [0, 0, 0, 0]
    events = rolls(game, dice, 2, 2, 2)
    won = of_kind(events, "race_won")[0].data
    assert won["horse"] == 2
    assert won["winners"] == {"0": 2, "1": 1}
    assert (won["share"], won["remainder"]) == (3, 1)
    assert won["payouts"] == {"0": 6, "1": 3}
    assert game.cash == [6, 3, 0, 0]
    assert game.jackpot == 1
    assert game.view(None)["winner"] == 2


def test_the_remainder_stays_in_the_jackpot_for_the_next_race():
    game, dice = table(4)
    start_race(game, dice)
    game.hands = [[2, 2], [2], [3], [4]]
    game.jackpot = 10
    rolls(game, dice, 2, 2, 2)
    setup = of_kind(step(game), "race_setup")[0].data
    assert setup["carried"] == 1
    assert game.jackpot == 1 + 4


def test_a_winning_horse_nobody_holds_leaves_the_jackpot_in_place():
    split = split_jackpot(17, {})
    assert (split.share, split.payouts, split.remainder) == (0, {}, 17)


def test_the_jackpot_splits_per_card_in_whole_dollars():
    split = split_jackpot(22, {0: 1, 3: 2, 5: 1})
    assert (split.share, split.payouts, split.remainder) == (5, {0: 5, 3: 10, 5: 5}, 2)


def test_between_races_the_host_starts_the_next_race_with_a_table_step():
    game, dice = table(4)
    start_race(game, dice)
    rolls(game, dice, 2, 2, 2)
    assert game.phase == "between"
    decision = game.pending()[0]
    assert (decision.player, decision.kind, decision.options) == (None, "next_race", ("next_race",))


def test_the_dealer_moves_one_seat_left_each_race():
    game, dice = table(3, dealer=2, races=4)
    dealers = []
    for _ in range(4):
        dealers.append(of_kind(start_race(game, dice), "race_setup")[0].data["dealer"])
        rolls(game, dice, 2, 2, 2)
    assert dealers == [2, 0, 1, 2]


def test_money_is_never_made_or_lost():
    game, dice = table(5, races=3)
    for _ in range(3):
        start_race(game, dice)
        rolls(game, dice, 6, 5, 8, 9, 7, 12, 12, 12)
        assert sum(game.cash) + game.jackpot == 5 * game.settings.bank
