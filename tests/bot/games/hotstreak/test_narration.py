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
        _flip(race, "hurley +2")
        == "Hurley +2: Hurley runs from 8 to 10, Hurley crosses the finish, Hurley takes 1st."
    )
