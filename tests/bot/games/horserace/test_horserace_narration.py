"""Every event reads as one sentence; the host's names replace seat numbers."""

from __future__ import annotations

import pytest

from bot.games.base import Action
from bot.games.horserace.game import HorseRace
from bot.games.horserace.narration import narrate
from bot.i18n import speaking
from tests.bot.games.horserace.horserace_table import rolls, start_race, step, table
from tests.english import english_in


def whole_game_events() -> list:
    game = HorseRace.new(4, seed=8, settings={"races": 2, "end": "minutes"})
    events = []
    while not game.is_over:
        events += step(game)
        if game.race == 2 and not game.time_up:
            events += game.apply(Action(None, "time_up"))
    return events


def test_every_kind_of_event_is_narrated_on_one_line():
    events = whole_game_events()
    assert {"race_setup", "scratch", "race_start", "roll", "race_won", "time_up", "game_over"} <= {
        e.kind for e in events
    }
    for event in events:
        line = narrate(event)
        assert line and "\n" not in line and "{" not in line


@pytest.mark.parametrize("kind", ["sit_out", "scratch_reroll", "broke"])
def test_rarer_events_are_narrated(kind):
    game, dice = table(4, end="broke")
    step(game)
    game.hands[2] = [7]
    game.cash[2] = 3
    events = rolls(game, dice, 7, 7, 6, 8, 5)
    line = narrate(next(e for e in events if e.kind == kind))
    assert "Seat 3" in line or kind == "scratch_reroll"


def test_names_replace_seat_numbers():
    game, dice = table(2)
    events = start_race(game, dice)
    scratch = next(e for e in events if e.kind == "scratch")
    assert narrate(scratch, names=["Ann", "Bob"]).startswith("Bob rolls")
    assert narrate(scratch).startswith("Seat 2 rolls")


def test_a_penalty_roll_says_who_pays_what():
    game, dice = table(4)
    start_race(game, dice)
    line = narrate(rolls(game, dice, 8)[0])
    assert "scratched horse 8 (x3), pays $3" in line


def test_every_event_is_narrated_in_portuguese_for_a_portuguese_reader():
    events = whole_game_events()
    with speaking("pt-BR"):
        lines = [narrate(event) for event in events]
    assert all(english_in(line) == [] for line in lines), [line for line in lines if english_in(line)]
    assert any(": Lugar 1 distribui" in line for line in lines)
    assert any("Fim de jogo depois de 2 corridas" in line for line in lines)
