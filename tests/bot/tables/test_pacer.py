"""The pacer keeps each channel under Discord's rate and forgets channels that have gone quiet."""

from __future__ import annotations

import asyncio
import time

from bot.discord_io.pacer import ChannelPacer


async def test_quiet_channels_are_forgotten_and_busy_ones_kept() -> None:
    pacer = ChannelPacer(burst=2, window=0.05)
    for channel in range(1000):
        async with pacer.turn(channel):
            pass
    assert pacer.channels() == 1000
    await asyncio.sleep(0.06)
    async with pacer.turn(5000):
        assert pacer.channels() == 1  # only the channel in use now
    await asyncio.sleep(0.06)
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
