"""The table splits every batch of events by viewer before any presenter sees it."""

from __future__ import annotations

from bot.games.base import Event
from bot.tables.viewing import split


def test_public_events_go_to_the_channel_and_private_ones_to_their_seats_only() -> None:
    events = [
        Event("race_setup", {"race": 1}),
        Event("dealt", {"seat": 0, "cards": ["a"]}, (0,)),
        Event("dealt", {"seat": 2, "cards": ["b"]}, (2,)),
        Event("pair_secret", {"cards": ["c"]}, (1, 2)),
        Event("phase", {"phase": "draft"}),
    ]
    parts = split(events, seats=3)
    assert [e.kind for e in parts.public] == ["race_setup", "phase"]
    assert [e.data for e in parts.private[0]] == [{"seat": 0, "cards": ["a"]}]
    assert [e.kind for e in parts.private[1]] == ["pair_secret"]
    assert [e.kind for e in parts.private[2]] == ["dealt", "pair_secret"]


def test_a_private_event_for_nobody_at_the_table_is_shown_to_nobody() -> None:
    parts = split([Event("secret", {}, ()), Event("stray", {}, (7,))], seats=3)
    assert parts.public == [] and parts.private == {}
