"""A worker that hangs (issue 26, point 9): a real game on the fake Discord, its AI worker process
stopped with SIGSTOP. The game goes on (the easy AI decides in the bot's own process), no table lock is
held while the worker is waited on, the worker is replaced, and a warning says so."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
from collections.abc import Iterator

import pytest

from bot import workers
from bot.client import RaceBot
from bot.config import Settings
from bot.fakediscord import running_bot
from tests.cogs.conftest import FAST, World
from tests.cogs.test_hotstreak import open_table


@pytest.fixture
def one_worker() -> Iterator[None]:
    workers.start(1)
    try:
        yield
    finally:
        workers.stop()
        workers.time_limits()  # the defaults again, for the tests after this one


async def test_a_stopped_ai_worker_freezes_nothing_and_is_replaced(
    world: World, one_worker: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    quick = dataclasses.replace(FAST, turn_seconds=0.3, phase_seconds=0.3)
    # A short AI_TIMEOUT, through the setting (the default is 5 s).
    settings = Settings(
        token=world.fake.token, database_url=str(world.db), default_where="channel", ai_timeout=1.0
    )
    bot = RaceBot(settings, timing=quick)
    stopped: list[int] = []
    async with running_bot(world.fake, bot):
        lobby, _table = await open_table(world, ai=1)
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        # The AI's first decision starts its worker; then the worker is stopped, as a hung one would be.
        await world.fake.wait_for(lambda: workers.worker_pids(workers.AI), timeout=30, what="an AI worker")
        table = next(iter(bot.tables.by_id.values()))
        stopped.extend(workers.worker_pids(workers.AI))
        try:
            for pid in stopped:
                os.kill(pid, signal.SIGSTOP)
            before = table.seq
            # An AI decision waits on the stopped worker; meanwhile the table's lock is free (a click,
            # /leave, a cancel would be answered).
            await world.fake.wait_for(lambda: workers.waiting(workers.AI) > 0, timeout=30, what="an AI call")
            assert not table.lock.locked()
            # The worker is replaced and the game goes on.
            await world.fake.wait_for(lambda: table.seq >= before + 3, timeout=30, what="the game moving on")
        finally:
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("worker process of the ai lane ran a call past its time limit" in w for w in warnings), (
        warnings
    )
    assert any("the easy AI decides it here instead" in w for w in warnings), warnings
    assert workers.figures["timeouts"] >= 1
    assert set(stopped).isdisjoint(workers.worker_pids(workers.AI))  # new processes
