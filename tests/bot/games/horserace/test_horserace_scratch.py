"""The scratch round: four slots x1..x4, surrendered cards, free re-rolls, sitting out."""

from __future__ import annotations

from tests.bot.games.horserace.horserace_table import kinds, of_kind, rolls, step, table


def test_each_player_pays_the_entry_fee_into_the_jackpot():
    game, _ = table(4, bank=20, fee=2)
    setup = of_kind(step(game), "race_setup")[0].data
    assert game.cash == [18, 18, 18, 18]
    assert game.jackpot == setup["jackpot"] == 8
    assert setup["fees_paid"] == {"0": 2, "1": 2, "2": 2, "3": 2}


def test_the_scratch_round_starts_left_of_the_dealer_and_goes_round_the_table():
    game, dice = table(4, dealer=1)
    step(game)
    events = rolls(game, dice, 7, 6, 8, 5)
    assert [e.data["roller"] for e in of_kind(events, "scratch")] == [2, 3, 0, 1]


def test_new_numbers_fill_the_slots_in_order_with_their_multipliers():
    game, dice = table(4)
    step(game)
    events = rolls(game, dice, 7, 6, 8, 5)
    assert [(e.data["horse"], e.data["slot"], e.data["multiplier"]) for e in of_kind(events, "scratch")] == [
        (7, 1, 1),
        (6, 2, 2),
        (8, 3, 3),
        (5, 4, 4),
    ]
    assert game.view(None)["scratched"] == [
        {"slot": 1, "multiplier": 1, "horse": 7},
        {"slot": 2, "multiplier": 2, "horse": 6},
        {"slot": 3, "multiplier": 3, "horse": 8},
        {"slot": 4, "multiplier": 4, "horse": 5},
    ]
    assert game.phase == "race"


def test_every_card_of_a_scratched_horse_is_surrendered():
    game, dice = table(8)
    step(game)
    holders = {seat: hand.count(7) for seat, hand in enumerate(game.hands) if 7 in hand}
    event = of_kind(rolls(game, dice, 7), "scratch")[0]
    assert all(7 not in hand for hand in game.hands)
    assert event.data["surrendered"] == {str(seat): n for seat, n in holders.items()}
    assert sum(event.data["surrendered"].values()) == 4


def test_a_number_already_scratched_is_rolled_again_by_the_next_player_free():
    game, dice = table(4)
    step(game)
    cash = list(game.cash)
    events = rolls(game, dice, 7, 7, 6)
    assert kinds(events) == ["scratch", "scratch_reroll", "scratch"]
    assert events[1].data["roller"] == 2
    assert events[2].data["roller"] == 3
    assert (events[2].data["horse"], events[2].data["slot"]) == (6, 2)
    assert game.cash == cash
    assert game.view(None)["scratched"][1]["horse"] == 6


def test_a_player_left_without_cards_pays_five_fees_and_sits_out():
    game, dice = table(4, bank=20, fee=2)
    step(game)
    game.hands[2] = [7, 7]
    events = rolls(game, dice, 7)
    sit = of_kind(events, "sit_out")[0].data
    assert sit == {"seat": 2, "due": 10, "paid": 10, "jackpot": 18}
    assert game.cash[2] == 8
    assert game.view(None)["sitting_out"] == [2]


def test_a_player_sitting_out_takes_no_scratch_rolls():
    game, dice = table(4)
    step(game)
    game.hands[2] = [7]
    events = rolls(game, dice, 7, 6, 8)
    assert [e.data["roller"] for e in of_kind(events, "scratch")] == [1, 3, 0]


def test_a_player_who_cannot_pay_the_five_fees_pays_what_they_have():
    game, dice = table(4)
    step(game)
    game.cash[2] = 3
    game.hands[2] = [7]
    sit = of_kind(rolls(game, dice, 7), "sit_out")[0].data
    assert (sit["due"], sit["paid"], game.cash[2]) == (5, 3, 0)


def test_the_race_starts_left_of_the_player_who_filled_the_last_slot():
    game, dice = table(4)
    step(game)
    events = rolls(game, dice, 7, 7, 6, 8, 5)  # seats 1, 2 (re-roll), 3, 0, 1
    assert of_kind(events, "race_start")[0].data["first"] == 2
    assert game.turn == 2
    assert game.pending()[0].player == 2
