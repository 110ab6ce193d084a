"""A race's replay log keeps the first frame and then only what changed, and gives every frame back."""

from __future__ import annotations

import pickle

from bot.games.base import Action
from bot.games.horserace.game import HorseRace
from bot.games.odds import Odds
from bot.games.replay_log import ReplayLog


def _race_views(seed: int = 3) -> list[dict]:
    game = HorseRace.new(3, seed)
    views = []
    while not game.is_over and game.view(None)["race"] <= 1:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        views.append({**game.view(None), "names": ["alice", "bob", "carol"]})
    return views


def test_every_frame_comes_back_as_it_was_added_with_its_odds() -> None:
    views = _race_views()
    log = ReplayLog(race=1)
    chances = [Odds(win={"7": i / len(views)}, exact=True) for i in range(len(views))]
    for view, odds in zip(views, chances, strict=True):
        log.add(view, odds)
    assert len(log) == len(views) and log.frames() == views and log.odds == chances


def test_a_frame_without_odds_shows_the_last_odds_before_it() -> None:
    """Ruling: a frame never drawn live had no odds worked out; its replay shows the last ones shown."""
    first, later = Odds(win={"7": 0.5}, exact=True), Odds(win={"7": 0.9}, exact=True)
    log = ReplayLog(race=1)
    for i, odds in enumerate([None, first, None, None, later, None]):
        log.add({"race": 1, "card": i}, odds)
    assert log.odds == [None, first, first, first, later, later]


def test_odds_worked_out_when_a_frame_is_drawn_are_kept_with_it() -> None:
    log = ReplayLog(race=1)
    for i in range(3):
        log.add({"race": 1, "card": i})
    drawn = Odds(win={"7": 0.25}, exact=False)
    log.set_odds(1, drawn)
    assert log.odds == [None, drawn, drawn]


def test_keys_that_appear_change_inside_or_disappear_are_replayed() -> None:
    frames = [
        {"race": 1, "positions": {"2": 0, "7": 0}, "last_roll": None, "winner": None},
        {"race": 1, "positions": {"2": 1, "7": 0}, "last_roll": 2, "winner": None, "note": "x"},
        {"race": 1, "positions": {"7": 1}, "last_roll": 7, "winner": 7},
        {"race": 1, "positions": [1, 2], "winner": 7},
    ]
    log = ReplayLog()
    for frame in frames:
        log.add(frame)
    assert log.frames() == frames


def test_a_race_kept_as_changes_is_several_times_smaller_than_its_frames() -> None:
    views = _race_views()
    log = ReplayLog(race=1)
    for view in views:
        log.add(view)
    whole = len(pickle.dumps(views))
    # The log shares no memory with a pickle, so its pickled size is what it holds.
    assert len(pickle.dumps(log._changes)) * 4 < whole
