"""Downforce odds: the chance of each car to win, from what every spectator can see."""

from __future__ import annotations

import copy

from bot.games.downforce.ai import ai_action, ai_rng
from bot.games.downforce.game import Downforce
from bot.games.downforce.odds import odds
from bot.games.downforce.track import FINISH, Track


def race_view(seed: int = 7, cards: int = 4) -> tuple[Downforce, dict]:
    """A 4-seat game stepped by easy AIs until ``cards`` cards were played in the race."""
    game = Downforce.new(4, seed)
    rng = ai_rng(seed)
    while not (game.phase == "race" and game.view(None)["cards_played"] >= cards):
        game.apply(ai_action(game, ["easy"] * 4, rng))
    return game, game.view(None)


def test_the_chances_add_up_and_the_same_state_gives_the_same_numbers():
    _, view = race_view()
    first = odds(view, samples=200)
    again = odds(copy.deepcopy(view), samples=200)
    assert first.win == again.win
    assert abs(sum(first.win.values()) - 1) < 1e-9
    assert first.samples == 200 and first.place is None


def test_the_odds_read_only_the_public_view_never_a_hand():
    game, public = race_view()
    seat_view = game.view(0)  # carries seat 0's hand, bid and bets
    assert odds(seat_view, samples=200).win == odds(public, samples=200).win
    changed = copy.deepcopy(seat_view)
    changed["hand"] = []
    changed["my_bets"] = [{"car": "red"}]
    assert odds(changed, samples=200).win == odds(public, samples=200).win


def test_a_car_across_the_finish_first_has_won():
    _, view = race_view()
    view = copy.deepcopy(view)
    view["cars"]["blue"].update(space=FINISH, finished=True, place=1)
    result = odds(view)
    assert result.exact and result.percent("blue") == 100
    assert all(result.win[c] == 0 for c in result.win if c != "blue")


def test_once_the_winner_finished_the_picture_and_its_words_leave_the_odds_out():
    # The odds of a decided race say only who won (100% and 0%) while 2nd to 5th still pay: the picture
    # shows no odds then rather than a 0% that reads "pays nothing".
    from bot.games.downforce.odds import decided
    from bot.games.downforce.render import alt_text, odds_shown, render_track

    _, racing = race_view()
    assert not decided(racing) and odds_shown(racing, odds(racing, samples=50))
    view = copy.deepcopy(racing)
    view["cars"]["blue"].update(space=FINISH, finished=True, place=1)
    result = odds(view)
    assert decided(view) and not odds_shown(view, result)
    assert render_track(view, odds=result) == render_track(view)
    assert "Chance to win" not in alt_text(view, odds=result)


def test_a_car_far_ahead_is_the_favourite():
    _, view = race_view(cards=0)
    view = copy.deepcopy(view)
    track = Track(view["track"])
    taken = {car["space"] for car in view["cars"].values()}
    near = max((s for s in track.spaces if s not in taken), key=track.row)
    view["cars"]["green"]["space"] = near
    result = odds(view, samples=200)
    assert max(result.win, key=result.win.get) == "green"
    assert result.win["green"] > 0.5


def test_a_time_budget_cuts_the_samples_in_steps():
    _, view = race_view(seed=11)
    result = odds(view, samples=10_000, budget_ms=1)
    assert result.samples is not None and 1 <= result.samples < 10_000


def test_the_track_picture_draws_the_odds_and_its_alt_text_says_them():
    from bot.games.downforce.render import alt_text, render_track

    _, view = race_view()
    result = odds(view, samples=100)
    with_odds = render_track(view, odds=result)
    assert with_odds.startswith(b"\x89PNG") and with_odds != render_track(view)
    text = alt_text(view, odds=result)
    assert "Chance to win: " in text
    for colour in result.win:
        assert f"{colour} {result.percent(colour)}%" in text
    assert "Chance to win" not in alt_text(view)


def test_a_race_replays_as_one_animation_with_a_frame_per_card():
    from bot.games.downforce.replay import race_replay

    game = Downforce.new(3, 5)
    rng = ai_rng(5)
    views, seen = [], -1
    while not game.is_over:
        game.apply(ai_action(game, ["easy"] * 3, rng))
        view = game.view(None)
        if view["phase"] in ("race", "bet", "over") and view["cards_played"] != seen:
            seen = view["cards_played"]
            views.append(view)
    animation = race_replay(views, odds=[odds(v, samples=20) for v in views])
    assert animation.data.startswith(b"GIF") and animation.frames == len(views)
    assert animation.size[0] == 1200 and len(animation.data) < 8 * 1024 * 1024  # the live width
    assert "Finish order: " + views[-1]["standings"][0] in animation.alt
