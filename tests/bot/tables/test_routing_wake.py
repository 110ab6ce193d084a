"""Routed clicks: a wake-up that comes while a drain runs is never dropped (issue 26, point 13).

The drain itself (reading and applying the stored clicks) is tested against real bots and PostgreSQL in
tests/cogs/test_routing.py; here only when drains run, so a drain that waits on a gate stands in for it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.tables.routing import Router


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


class GatedRouter(Router):
    def __init__(self) -> None:
        super().__init__(bot=Any, directory=Any)  # type: ignore[arg-type]  # neither is read here
        self.drains = 0
        self.gate = asyncio.Event()

    async def drain(self) -> None:
        self.drains += 1
        await self.gate.wait()


async def test_a_wake_up_during_a_drain_makes_it_drain_again_at_once() -> None:
    router = GatedRouter()
    router.wake()
    await settle()
    assert router.drains == 1  # the first drain has read what was waiting and is applying it
    router.wake()  # a click stored now was not in what that drain read
    router.wake()  # several wake-ups while it runs: one more drain is enough
    router.gate.set()
    await settle()
    assert router.drains == 2  # drained again at once, not at the lease keeper's next tick (5 s)
    router.wake()
    await settle()
    assert router.drains == 3
    await router.stop()
