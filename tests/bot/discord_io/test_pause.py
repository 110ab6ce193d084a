"""A place Discord refuses pauses (``bot.discord_io.pause``): its owner is told once, a refused sender
tries again each period, the pause ends when a post goes through or the cache shows the permission
back, and is over for good after the wait; a cache that is wrong cannot keep it paused forever."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.discord_io.pause import Pause
from bot.tables.timing import Timing

QUICK = dataclasses.replace(Timing(), permission_retry_seconds=0.02, permission_wait_seconds=0.3)


class Owner:
    def __init__(self, pause: Pause) -> None:
        self.paused: list[list[str]] = []
        self.back: list[float] = []
        self.over: list[list[str]] = []
        pause.on_paused = self.paused.append
        pause.on_back = self.back.append
        pause.on_over = self.over.append


async def test_a_pause_tells_its_owner_once_and_ends_when_a_post_goes_through() -> None:
    lacking: list[str] | None = ["Send Messages"]
    pause = Pause(QUICK, lambda: lacking)
    owner = Owner(pause)
    pause.begin()
    pause.begin()  # a second refused sender: the same pause
    assert owner.paused == [["Send Messages"]] and pause.paused
    assert await pause.wait()  # one period later: try again
    pause.went_through()
    assert not pause.paused and len(owner.back) == 1 and owner.over == []
    pause.stop()


async def test_the_cache_showing_the_permission_back_ends_the_pause() -> None:
    lacking: list[str] | None = ["View Channel"]
    pause = Pause(QUICK, lambda: lacking)
    owner = Owner(pause)
    pause.begin()
    lacking = []
    await asyncio.wait_for(pause.until_back(), 1.0)
    assert not pause.paused and len(owner.back) == 1 and owner.over == []
    pause.stop()


async def test_a_permission_that_does_not_come_back_ends_the_pause_for_good_after_the_wait() -> None:
    pause = Pause(QUICK, lambda: ["Embed Links"])
    owner = Owner(pause)
    pause.begin()
    while await pause.wait():
        pass
    assert owner.over == [["Embed Links"]] and owner.back == [] and pause.over
    pause.begin()  # over is over: nothing starts again
    assert not pause.paused and len(owner.paused) == 1


async def test_a_cache_that_is_wrong_cannot_keep_a_game_paused_forever() -> None:
    lacking: list[str] | None = []  # the cache says all is well, but Discord keeps refusing
    pause = Pause(QUICK, lambda: lacking)
    owner = Owner(pause)
    loop = asyncio.get_running_loop()
    began = loop.time()
    while not pause.over and loop.time() - began < 2.0:
        pause.begin()  # each refused post
        await pause.wait()
    assert pause.over and len(owner.over) == 1
    assert len(owner.paused) == 1  # told once, though the cache ended it many times
    assert loop.time() - began < 1.0  # the wait was not started again each time


async def test_a_closing_game_gives_every_refused_sender_up() -> None:
    pause = Pause(QUICK, lambda: ["Send Messages"])
    Owner(pause)
    pause.begin()
    pause.stop()
    assert not await pause.wait()
