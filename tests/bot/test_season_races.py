"""The season's most dramatic race (bot/season_races.py): games replayed from their stored action logs,
lead changes counted from the frames their presenters would have shown, the replay drawn again."""

from __future__ import annotations

import random

from bot.games.base import Action
from bot.games.catalog import entry
from bot.season_races import dramatic_replay, lead_changes, most_dramatic
from bot.storage.records import StoredGame


def played(kind: str, game_id: int, seed: int, seats: int, settings: dict) -> StoredGame:
    """A whole game played by the AI, stored as the bot stores it: its seed and its action log."""
    game = entry(kind)
    engine = game.new_engine(seats, seed, game.stored_engine_settings(settings))
    actions = []
    while not engine.is_over:
        decision = engine.pending()[0]
        if decision.player is None:
            action = Action(None, decision.kind, decision.options[0])
        else:
            rng = random.Random(f"{seed}:{len(actions)}")
            action = Action(
                decision.player,
                decision.kind,
                game.choose(engine.view(decision.player), decision, "easy", rng),
            )
        engine.apply(action)
        actions.append(action.to_json())
    people = [{"user_id": 100 + i, "name": f"P{i}", "ai": None} for i in range(seats)]
    return StoredGame(game_id, kind, 1, 10, seed, settings, people, actions, "finished", {}, 0.0, 0.0)


def test_lead_changes_count_a_new_runner_in_front_and_skip_ties() -> None:
    assert lead_changes(["a", "a", None, "b", "b", "a"]) == 2
    assert lead_changes([None, "a", None, "a"]) == 0
    assert lead_changes([]) == 0


def test_the_most_dramatic_race_is_found_in_the_stored_logs_and_drawn_again() -> None:
    games = [
        played("hotstreak", 1, 7, 3, {"engine": {}}),
        played("horserace", 2, 11, 3, {"engine": {"races": 1}}),
    ]
    best = most_dramatic(games)
    assert best is not None and best.lead_changes > 0
    found = dramatic_replay(games)
    assert found is not None
    race, animation = found
    assert (race.game_id, race.race, race.lead_changes) == (best.game_id, best.race, best.lead_changes)
    assert animation.data[:3] == b"GIF" and animation.frames == len(best.frames) or animation.frames > 1


def test_a_downforce_race_counts_its_leader_by_row_and_its_replay_is_drawn_again() -> None:
    from bot.games.downforce.track import Track

    game = played("downforce", 3, 5, 3, {"engine": {}})
    best = most_dramatic([game])
    assert best is not None and best.kind == "downforce" and best.race == 1
    # By hand: the car alone on the furthest row after each card (or the first across the line).
    leaders = []
    for frame in best.frames:
        cars, track = frame["cars"], Track(frame["track"])
        first = [c for c, car in cars.items() if car["place"] == 1]
        rows = {c: track.row(car["space"]) for c, car in cars.items() if car["space"] is not None}
        front = [c for c, row in rows.items() if row == max(rows.values())]
        leaders.append(first[0] if first else front[0] if len(front) == 1 else None)
    assert best.lead_changes == lead_changes(leaders) > 0
    assert best.frames[-1]["cars"] and any(car["place"] == 1 for car in best.frames[-1]["cars"].values())
    found = dramatic_replay([game])
    assert found is not None and found[1].data[:3] == b"GIF" and found[1].frames > 1
