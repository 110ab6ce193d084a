"""The pacer keeps each channel under Discord's rate and forgets channels that have gone quiet."""

from __future__ import annotations

import time

import pytest

from bot.discord_io import pacer as pacer_module
from bot.discord_io.pacer import ChannelPacer


class _Clock:
    """The pacer's clock, moved by the test: a thousand turns take no time at all, however busy the machine
    (on the real clock a loaded CI runner took longer than the window over them, and a sweep came early)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


async def test_quiet_channels_are_forgotten_and_busy_ones_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(pacer_module, "time", clock)
    pacer = ChannelPacer(burst=2, window=0.05)
    for channel in range(1000):
        async with pacer.turn(channel):
            pass
    assert pacer.channels() == 1000
    clock.now += 0.06
    async with pacer.turn(5000):
        assert pacer.channels() == 1  # only the channel in use now
    clock.now += 0.06
    async with pacer.turn(5001):
        async with pacer.turn(5002):
            pass
    assert pacer.channels() == 2


async def test_a_channel_still_waits_its_window_after_a_sweep() -> None:
    pacer = ChannelPacer(burst=2, window=0.2)
    started = time.monotonic()
    for _ in range(3):
        async with pacer.turn(1):
            pass
    assert time.monotonic() - started >= 0.2  # the third waited for the first to leave the window


async def test_a_new_message_never_waits_for_the_edits_room_nor_an_edit_for_the_new_messages() -> None:
    """Discord limits a channel's new messages and its edits separately: a live message edited card by
    card leaves the room for the prompt that notifies the next player."""
    pacer = ChannelPacer(burst=2, window=0.3)
    started = time.monotonic()
    for _ in range(2):
        async with pacer.turn(1, "edit"):
            pass
    async with pacer.turn(1, "create"):
        pass
    async with pacer.turn(1, "create"):
        pass
    assert time.monotonic() - started < 0.2  # two edits and two new messages: each within its room
    async with pacer.turn(1, "edit"):
        pass
    assert time.monotonic() - started >= 0.3  # the third edit waited for the first to leave its window


async def test_a_turn_that_learns_its_kind_late_is_counted_as_what_it_was() -> None:
    pacer = ChannelPacer(burst=1, window=0.3)
    async with pacer.turn(1, kind=None) as turn:
        await turn.ready("edit")  # the live message was still there: an edit
    started = time.monotonic()
    async with pacer.turn(1, "create"):
        pass
    assert time.monotonic() - started < 0.2
    async with pacer.turn(1, kind=None) as turn:
        await turn.ready("edit")
    assert time.monotonic() - started >= 0.25
