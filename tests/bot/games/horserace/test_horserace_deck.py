"""The deck (44 cards, or 22 with fewer than seven players) and the deal from left of the dealer."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.horserace.deck import build_deck, deal
from tests.bot.games.horserace.horserace_table import of_kind, step, table


@pytest.mark.parametrize("players", range(2, 7))
def test_fewer_than_seven_players_use_two_cards_per_horse(players):
    deck = build_deck(players)
    assert len(deck) == 22
    assert Counter(deck) == dict.fromkeys(range(2, 13), 2)


@pytest.mark.parametrize("players", range(7, 16))
def test_seven_or_more_players_use_the_full_deck_of_44(players):
    deck = build_deck(players)
    assert len(deck) == 44
    assert Counter(deck) == dict.fromkeys(range(2, 13), 4)


def test_cards_are_dealt_one_at_a_time_from_left_of_the_dealer():
    hands = deal([2, 3, 4, 5, 6], players=3, dealer=0)
    assert hands == [[4], [2, 5], [3, 6]]


def test_the_deal_wraps_round_the_table_from_any_dealer():
    hands = deal([2, 3, 4, 5, 6], players=3, dealer=2)
    assert hands == [[2, 5], [3, 6], [4]]


@pytest.mark.parametrize("players", [2, 4, 5, 7, 9, 15])
def test_every_card_is_dealt_and_hands_may_be_uneven(players):
    game, _ = table(players)
    setup = of_kind(step(game), "race_setup")[0].data
    sizes = [len(hand) for hand in game.hands]
    assert sum(sizes) == setup["deck"] == len(build_deck(players))
    assert max(sizes) - min(sizes) <= 1
    assert setup["hands"] == {str(seat): hand for seat, hand in enumerate(game.hands)}


def test_the_engine_deals_its_shuffled_deck_from_left_of_the_dealer():
    game, _ = table(4, dealer=2)
    step(game)
    # The loaded dice leave the deck unshuffled: 2, 2, 3, 3, ... first card to seat 3.
    assert game.hands[3][:2] == [2, 4]
    assert game.hands[0][:2] == [2, 4]
    assert [len(hand) for hand in game.hands] == [6, 5, 5, 6]
