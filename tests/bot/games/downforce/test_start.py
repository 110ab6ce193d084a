"""What the table asks the catalog about Downforce: the lobby's choices become the engine's settings,
and the pace spaces out the cards AI seats play (their other choices are made at once)."""

from __future__ import annotations

import pytest

from bot.games.base import Decision
from bot.games.catalog import Start, entry
from bot.games.downforce.settings import BadSettings
from bot.games.downforce.start import ai_pause, engine_settings


def start(**options: object) -> Start:
    return Start(4, 7, 0.0, {"players": 4, "pace": 2.5, "host_id": 1, **options}, {})


def test_the_lobby_choices_become_the_engine_settings_and_the_rest_are_left_out() -> None:
    assert engine_settings(start()) == {"track": "river-station", "betting": "standard", "wild": "racing"}
    chosen = engine_settings(start(track="savanna-stretch", betting="odds", powers="all"))
    assert chosen == {"track": "savanna-stretch", "betting": "odds", "powers": "all", "wild": "racing"}
    entry("downforce").new_engine(4, 7, chosen)  # the engine takes them as they are


def test_a_track_the_engine_does_not_know_is_refused_at_the_start() -> None:
    with pytest.raises(BadSettings):
        engine_settings(start(track="monaco"))


def test_an_ai_waits_one_pace_before_it_plays_a_card_and_decides_everything_else_at_once() -> None:
    assert ai_pause({}, Decision(0, "play", ("c01",)), 2.5) == 2.5
    for kind in ("bid", "move", "wild", "bet", "keep", "power"):
        assert ai_pause({}, Decision(0, kind, ("x",)), 2.5) == 0.0
    assert entry("downforce").ai_wait({}, Decision(0, "play", ("c01",)), 1.5) == 1.5
    assert entry("hotstreak").ai_wait({}, Decision(0, "bet", ("x",)), 1.5) == 0.0  # no hook: at once
