"""The auctions: secret simultaneous bids, highest wins and pays, ties, and the one-car rule."""

from __future__ import annotations

from bot.games.downforce.cards import COLOURS

from .conftest import bid_all, do, make_game


def colour_up(game) -> str:
    return game.view(None)["auction"]["colour"]


def test_the_grid_is_drawn_before_the_auctions_and_is_public():
    game = make_game(3, seed=5)
    grid = game.opening_events()[0]
    assert grid.kind == "grid" and grid.visible_to is None
    assert sorted(grid.data["order"]) == sorted(COLOURS)
    assert game.view(None)["grid"] == grid.data["order"]


def test_all_cards_are_dealt_evenly_and_the_leftovers_are_out_of_the_race():
    for seats, each, left in ((2, 21, 0), (3, 14, 0), (4, 10, 2), (5, 8, 2), (6, 7, 0)):
        game = make_game(seats)
        assert game.view(None)["hand_sizes"] == [each] * seats
        assert len(game.s["out_of_race"]) == left


def test_every_eligible_player_bids_at_once_and_the_highest_bid_wins_and_pays():
    game = make_game(2, hands=[["all2", "all5"], ["all3", "all1"]])
    colour = colour_up(game)
    assert {d.player for d in game.pending()} == {0, 1}
    events = bid_all(game, {0: "all5", 1: "all3"})
    won = next(e for e in events if e.kind == "auction_won")
    assert won.data["seat"] == 0 and won.data["price"] == 5
    assert game.s["owners"][colour] == 0 and game.s["spent"] == [5, 0]
    # The bid cards go back to the hands; the winner also takes the car's Speed-8 card.
    assert game.s["hands"][0] == sorted(["all2", "all5", f"s8-{colour}"])
    assert game.s["hands"][1] == ["all1", "all3"]


def test_a_bid_is_the_speed_of_the_auctioned_colour_only():
    game = make_game(2, hands=[["all2", "wild1"], ["all1", "black1"]])
    colour = colour_up(game)
    events = bid_all(game, {0: "wild1", 1: "all1"})
    won = next(e for e in events if e.kind == "auction_won")
    assert won.data["bids"] == {"0": 0, "1": 1} and won.data["seat"] == 1
    assert colour  # the wild card bid 0 on whatever colour was up


def test_bids_are_secret_until_revealed_together():
    game = make_game(2, hands=[["all2", "all5"], ["all3", "all1"]])
    events = do(game, 0, "bid", "all5")
    public = [e for e in events if e.visible_to is None]
    assert all("card" not in e.data and "value" not in e.data for e in public)
    private = [e for e in events if e.visible_to is not None]
    assert [e.visible_to for e in private] == [(0,)]
    assert game.view(1)["my_bid"] is None and game.view(0)["my_bid"]["id"] == "all5"
    assert "bids" not in str(game.view(1)["auction"])


def test_a_tie_goes_to_the_player_with_fewer_cars():
    game = make_game(2, hands=[["all4", "all1"], ["all1", "all2"]])
    bid_all(game, {0: "all4", 1: "all2"})  # seat 0 now has a car
    events = bid_all(game, {0: "all1", 1: "all1"})
    won = next(e for e in events if e.kind == "auction_won")
    assert won.data["tie"] and not won.data["drawn"]
    assert won.data["seat"] == 1


def test_a_tie_between_players_with_as_many_cars_is_drawn_from_the_seed():
    winners = set()
    for seed in range(12):
        game = make_game(2, seed=seed, hands=[["all3"], ["all3"]])
        events = bid_all(game, {0: "all3", 1: "all3"})
        won = next(e for e in events if e.kind == "auction_won")
        assert won.data["drawn"]
        winners.add(won.data["seat"])
        again = make_game(2, seed=seed, hands=[["all3"], ["all3"]])
        assert (
            next(e for e in bid_all(again, {0: "all3", 1: "all3"}) if e.kind == "auction_won").data
            == won.data
        )
    assert winners == {0, 1}


def test_once_the_cars_left_equal_the_players_without_one_only_they_may_bid():
    game = make_game(3, hands=[["all6"], ["all1"], ["all1"]])
    for _ in range(4):  # seat 0 buys four cars
        bid_all(game, {0: "all6", 1: "all1", 2: "all1"})
    assert game.view(None)["auction"]["eligible"] == [1, 2]
    assert {d.player for d in game.pending()} == {1, 2}
    game.s["hands"][1] = sorted([*game.s["hands"][1], "all2"])
    events = bid_all(game, {1: "all2", 2: "all1"})
    # The last car goes to the last seat without one, unasked and free.
    last = [e for e in events if e.kind == "auction_won"][-1]
    assert last.data["seat"] == 2 and last.data["price"] == 0 and last.data["bids"] == {}
    assert all(game.s["owners"][c] is not None for c in COLOURS)
    assert {game.s["owners"][c] for c in COLOURS} == {0, 1, 2}
    assert game.phase == "race"


def test_the_owner_of_the_car_on_pole_plays_first():
    game = make_game(3, hands=[["all6"], ["all1"], ["all1"]])
    pole = game.s["grid"][0]
    while game.phase == "auction":
        colour = colour_up(game)
        picks = {s: game.s["hands"][s][0] for s in game.view(None)["auction"]["eligible"]}
        for s in picks:
            picks[s] = "all6" if "all6" in game.s["hands"][s] and colour == pole and s == 2 else picks[s]
        bid_all(game, {s: c for s, c in picks.items()})
    assert game.pending()[0].player == game.s["owners"][pole]
    assert game.pending()[0].kind == "play"
