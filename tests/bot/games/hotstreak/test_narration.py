"""Every event of a played game narrates to one line."""

from __future__ import annotations

import random

from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.narration import narrate
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.scenario import build_race

from .conftest import TEST_TRACK, play_out


def test_every_event_of_a_game_narrates_to_one_line():
    game = HotStreak.new(3, seed=21)
    events = game.opening_events() + play_out(game, random.Random(21))
    kinds = set()
    for event in events:
        line = narrate(event)
        assert line and "\n" not in line
        assert narrate(event.to_json()) == line
        kinds.add(event.kind)
    assert {
        "race_setup",
        "dealt",
        "bet_taken",
        "submitted",
        "submission",
        "doubled",
        "burned",
        "card_flipped",
        "race_over",
        "payouts",
        "game_over",
    } <= kinds


def _flip(race: Race, text: str) -> str:
    from bot.games.base import Event
    from bot.games.hotstreak.cards import parse_card

    return narrate(Event("card_flipped", race.resolve(parse_card(text))))


def test_a_collision_reads_like_the_table():
    race = build_race({"track": TEST_TRACK, "mascots": {"gobbler": {"pos": 4}, "mum": {"lane": 0, "pos": 7}}})
    assert _flip(race, "gobbler +3") == "Gobbler +3: Gobbler runs from 4 to 7, knocks over Mum."


def test_a_finish_reads_like_the_table():
    race = build_race({"track": TEST_TRACK, "mascots": {"hurley": {"pos": 8}}})
    assert (
        _flip(race, "hurley +2") == "Hurley +2: Hurley runs from 8 across the finish line, Hurley takes 1st."
    )


def test_running_off_the_back_says_so_and_never_names_a_space_behind_the_start():
    race = build_race({"track": TEST_TRACK, "mascots": {"gobbler": {"pos": 0}}})
    line = _flip(race, "gobbler -1")
    assert line.startswith("Gobbler -1: Gobbler runs off the back of the track and is out")
    assert "-1 to" not in line and "to -" not in line and "(ran off the back)" not in line


def test_crossing_the_finish_is_told_once_without_a_space_past_the_line():
    race = build_race({"track": TEST_TRACK, "mascots": {"hurley": {"pos": 8}}})
    line = _flip(race, "hurley +5")
    assert line.startswith("Hurley +5: Hurley runs from 8 across the finish line, Hurley takes 1st")
    assert "to 13" not in line and "crosses the finish" not in line


def test_a_green_card_at_the_line_never_runs_from_a_space_to_itself():
    race = build_race({"track": TEST_TRACK, "mascots": {"dangle": {"pos": 9}, "mum": {"pos": 7}}})
    line = _flip(race, "all +3")
    assert "from 9 to 9" not in line
    assert "Dangle stays at 9, on the finish line" in line
    assert "Mum runs from 7 to 9 and stops at the finish line" in line


def test_a_card_that_changes_nothing_is_told_but_needs_no_new_picture():
    from bot.games.base import Event
    from bot.games.hotstreak.cards import parse_card
    from bot.games.hotstreak.narration import changes_track

    race = build_race({"track": TEST_TRACK, "mascots": {"gobbler": {"pos": 8}, "mum": {"pos": 2}}})
    race.resolve(parse_card("gobbler +3"))  # Gobbler finishes
    idle = Event("card_flipped", race.resolve(parse_card("gobbler +2")))
    assert not changes_track(idle)
    assert "is no longer racing" in narrate(idle)
    moving = Event("card_flipped", race.resolve(parse_card("mum +1")))
    assert changes_track(moving) and changes_track(moving.to_json())


def _shared_third() -> tuple[Race, list[str]]:
    """Gobbler 1st; Hurley runs off the back alone (4th); the bar folds on Dangle and Mum together."""
    from bot.games.base import Event
    from bot.games.hotstreak.cards import parse_card

    race = build_race(
        {
            "track": TEST_TRACK,
            "mascots": {"gobbler": {"pos": 9}, "hurley": {"pos": 0}, "dangle": {"pos": 1}, "mum": {"pos": 2}},
        }
    )
    lines = [narrate(Event("card_flipped", race.resolve(parse_card(c)))) for c in ("gobbler +1", "hurley -1")]
    lines.append(narrate(Event("bar_folded", race.fold())))
    return race, lines


def test_mascots_put_out_together_share_one_place_and_are_told_so():
    # Rules: "put them between the 2 lowest spaces on the podium; anyone who bets on them gets the
    # lower of the 2 payouts". Their place is the one they are paid as, shared: no one is 2nd.
    race, lines = _shared_third()
    assert race.podium.slots == ["gobbler", "dangle", "mum", "hurley"]
    assert race.place_of("dangle") == race.place_of("mum") == 3
    assert "Dangle and Mum share 3rd" in lines[-1]
    assert "takes" not in lines[-1]
    over = {
        "race": 1,
        "podium": race.podium.slots,
        "places": dict(race.podium.paid),
        "side_bet": {"id": "x", "text": "Gobbler wins", "happened": True},
    }
    told = narrate({"kind": "race_over", "data": over})
    assert told.startswith("Race 1 is over: 1st Gobbler, 3rd Dangle and Mum, 4th Hurley.")
