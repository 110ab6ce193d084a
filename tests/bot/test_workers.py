"""Worker processes for pictures, odds, the AI and replays (bot.workers): same results as in the bot's
own process, never holding a card up, and surviving a worker that dies."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import platform
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot import collector, workers
from bot.games import kept_frames
from bot.games.base import Action
from bot.games.hotstreak import odds as hotstreak_odds_module
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.odds import odds as hotstreak_odds
from bot.games.hotstreak.render import render_race
from bot.games.hotstreak.replay import live_picture, race_replay
from bot.games.replay_log import ReplayLog
from bot.i18n import current, in_language


@pytest.fixture
def one_worker() -> Iterator[None]:
    workers.start(1)
    try:
        yield
    finally:
        workers.stop()


@pytest.fixture
def no_workers() -> Iterator[None]:
    workers.stop()
    yield
    workers.stop()


def a_race_frames() -> list[dict]:
    """The frames of a Hot Streak race (each flipped card's), with everyone choosing the first option."""
    game = HotStreak.new(4, 7)
    frames: list[dict] = []
    while not frames or game.phase == "race":
        decision = game.pending()[0]
        for event in game.apply(Action(decision.player, decision.kind, decision.options[0])):
            if event.kind in ("card_flipped", "bar_folded"):
                frames.append(event.data["frame"])
    return frames


def which_process() -> int:
    return os.getpid()


def dies_in_a_worker() -> str:
    if multiprocessing.parent_process() is not None:
        os._exit(1)  # as if the out-of-memory killer took it
    return "alive"


async def test_a_picture_drawn_by_a_worker_process_is_the_same_picture(one_worker: None) -> None:
    frame = a_race_frames()[3]
    chances = hotstreak_odds(frame, samples=250)
    drawn = await workers.run(render_race, frame, odds=chances, players=["Ann", "Bo", "AI 1", "AI 2"])
    assert drawn == render_race(frame, odds=chances, players=["Ann", "Bo", "AI 1", "AI 2"])
    assert await workers.run(which_process) != os.getpid()  # drawn in another process indeed


async def test_a_replay_drawn_in_the_replay_worker_is_the_same_animation(one_worker: None) -> None:
    frames = a_race_frames()[:4]
    drawn = await workers.run(race_replay, frames, lane=workers.REPLAYS)
    assert drawn == race_replay(frames)


def frames_faulted_in(frames: int = 50) -> int:
    """In a worker: the pages the system faulted in while a frame's buffer (800 x 600 at 4 bytes) was made
    and freed ``frames`` times."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(frames):
        frame = bytearray(1_920_000)
        del frame
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


async def test_the_workers_yield_to_the_loop_pictures_first_and_reuse_a_pictures_buffers(
    one_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop first, then pictures, the AI, replays last (``workers.PICTURE_NICE`` and co.); and a picture
    worker does not fault in a frame's pages anew for every picture (``collector.tune_malloc_for_pictures``)."""
    # What the bot's process sets before its workers start (``collector.tune_malloc``): they inherit it.
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", str(collector.MMAP_THRESHOLD))
    niceness = functools.partial(os.getpriority, os.PRIO_PROCESS, 0)
    mine = niceness()
    pictures = await workers.run(niceness)
    ai = await workers.run(niceness, lane=workers.AI)
    replays = await workers.run(niceness, lane=workers.REPLAYS)
    if mine + workers.REPLAY_NICE <= 19:  # (a test run niced already leaves no room: 19 is the lowest)
        assert mine < pictures < ai < replays
    if platform.libc_ver()[0] == "glibc":
        assert await workers.run(frames_faulted_in) < 5 * 1_920_000 // 4096  # once, not fifty times


async def test_a_replay_is_assembled_from_the_frames_the_picture_worker_kept(one_worker: None) -> None:
    frames = a_race_frames()[:5]
    log = ReplayLog(1)
    for frame in frames:
        log.add(frame)
        await workers.run(live_picture, log.key, frame)  # the live picture, drawn in the picture worker
    assert await workers.run(kept_frames.held, log.key) == len(frames)
    drawn = await workers.replay(in_language(current(), functools.partial(log.drawn, race_replay)))
    assert drawn == race_replay(frames)  # the replay drawn from scratch, byte for byte
    assert await workers.run(kept_frames.held, log.key) == 0  # handed over to the replay


async def test_odds_from_a_worker_are_the_odds_of_the_view(one_worker: None) -> None:
    view = a_race_frames()[2]
    chances = await workers.odds("hotstreak", view)
    assert chances == hotstreak_odds(view)


@pytest.mark.parametrize("where", ["processes", "threads"])
async def test_the_cpu_each_kind_of_work_took_is_counted_where_it_ran(where: str) -> None:
    workers.start(1 if where == "processes" else 0)
    try:
        before = dict(workers.cpu_seconds)
        frames = a_race_frames()
        await workers.odds("hotstreak", frames[2])
        await workers.run(render_race, frames[3], players=["Ann", "Bo", "AI 1", "AI 2"])
        await workers.run(race_replay, frames[:4], lane=workers.REPLAYS)
        spent = {kind: workers.cpu_seconds[kind] - before[kind] for kind in before}
        assert spent["odds"] > 0 and spent["pictures"] > 0 and spent["replays"] > 0
        assert spent["ai"] == 0  # no AI asked
    finally:
        workers.stop()


async def test_work_that_cannot_go_to_a_process_runs_in_a_thread(one_worker: None) -> None:
    here = threading.get_ident()
    assert await workers.run(lambda: threading.get_ident()) != here  # off the event loop all the same
    assert await workers.run(lambda: os.getpid()) == os.getpid()


class CountsItsPickling:
    """A piece of work's argument that counts, in the bot's process, how often it is pickled."""

    times = 0

    def __getstate__(self) -> dict:
        if multiprocessing.parent_process() is None:
            CountsItsPickling.times += 1
        return {}

    def __setstate__(self, state: dict) -> None:
        pass


def takes(_something: object) -> int:
    return os.getpid()


async def test_work_is_pickled_once_on_its_way_to_a_worker(one_worker: None) -> None:
    CountsItsPickling.times = 0
    assert await workers.run(takes, CountsItsPickling()) != os.getpid()  # it ran in a worker
    assert CountsItsPickling.times == 1  # to know it could go, and what went: the same bytes


async def test_a_worker_that_dies_is_replaced(one_worker: None) -> None:
    with pytest.raises(BrokenProcessPool):
        await workers.run(dies_in_a_worker)  # tried twice, in two processes, then given up
    assert await workers.run(which_process) != os.getpid()  # the next work gets a new worker


async def test_a_busy_bots_frame_shows_the_quick_estimate_rather_than_wait_for_full_odds(
    no_workers: None,
) -> None:
    """Ruling: a card is never held up for its odds; a busy bot shows that frame with its quickest
    estimate (Hot Streak: 64 simulated races, a few milliseconds), a free one with 2,000 races."""
    view = a_race_frames()[2]
    release = threading.Event()
    queue = [asyncio.ensure_future(workers.run(release.wait, 10)) for _ in range(workers.ODDS_QUEUE)]
    await asyncio.sleep(0.05)
    try:
        busy = await workers.odds("hotstreak", view, budget_ms=150)
    finally:
        release.set()
        await asyncio.gather(*queue)
    assert busy is not None and busy.samples == hotstreak_odds_module.RACE_SAMPLES
    free = await workers.odds("hotstreak", view)  # the queue is gone: the full simulation again
    assert free is not None and free.samples == hotstreak_odds_module.SAMPLES


async def test_odds_while_others_wait_come_from_fewer_simulated_races(no_workers: None) -> None:
    view = a_race_frames()[5]  # a state no other test asked for (the odds are cached per state)
    release = threading.Event()
    queue = [asyncio.ensure_future(workers.run(release.wait, 10)) for _ in range(workers.ODDS_QUEUE - 1)]
    await asyncio.sleep(0.05)
    try:
        busy = await workers.odds("hotstreak", view, budget_ms=0.001)
    finally:
        release.set()
        await asyncio.gather(*queue)
    assert busy is not None and busy.samples is not None and busy.samples < 2000


async def test_too_many_replays_waiting_skips_the_next_one(no_workers: None) -> None:
    release = threading.Event()
    queue = [
        asyncio.ensure_future(workers.run(release.wait, 10, lane=workers.REPLAYS))
        for _ in range(workers.REPLAY_QUEUE)
    ]
    await asyncio.sleep(0.05)
    try:
        with pytest.raises(workers.Busy):
            await workers.run(race_replay, a_race_frames()[:2], lane=workers.REPLAYS)
    finally:
        release.set()
        await asyncio.gather(*queue)


async def test_a_replay_made_while_another_is_made_shows_the_frames_drawn_live(no_workers: None) -> None:
    """A busy replay lane makes the next replay sparse (the frames the channel saw, nothing drawn but the
    first and last); a free one draws the cards nobody saw, as always."""

    def half_seen(count: int) -> ReplayLog:
        log = ReplayLog(1)
        for index, frame in enumerate(a_race_frames()[:count]):
            log.add(frame)
            if index % 2 == 0:
                live_picture(log.key, frame)  # drawn live (no workers: in this process)
        return log

    before = workers.figures["replays_sparse"]
    whole = await workers.replay(in_language(current(), functools.partial(half_seen(9).drawn, race_replay)))
    assert whole.frames == 9 and workers.figures["replays_sparse"] == before
    release = threading.Event()
    making = asyncio.ensure_future(workers.run(release.wait, 10, lane=workers.REPLAYS))
    await asyncio.sleep(0.05)
    try:
        log = half_seen(9)
        sparse = await workers.replay(in_language(current(), functools.partial(log.drawn, race_replay)))
    finally:
        release.set()
        await making
    assert sparse.frames == 5 and workers.figures["replays_sparse"] == before + 1  # frames 0, 2, 4, 6, 8
    assert sparse.data == race_replay([log.frames()[i] for i in (0, 2, 4, 6, 8)]).data
    assert "9 cards, shown in 5 pictures" in sparse.alt


def test_auto_leaves_the_event_loop_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert workers.processes_for(None) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert workers.processes_for(None) == 1
    assert workers.processes_for(0) == 0 and workers.processes_for(3) == 3


async def test_ai_players_think_less_when_many_ai_decisions_wait(no_workers: None) -> None:
    assert workers.ai_effort() == 1.0
    release = threading.Event()
    queue = [
        asyncio.ensure_future(workers.run(release.wait, 10, lane=workers.AI))
        for _ in range(workers.AI_QUEUE * 4)
    ]
    await asyncio.sleep(0.05)
    try:
        assert workers.ai_effort() == pytest.approx(0.25)
    finally:
        release.set()
        await asyncio.gather(*queue)
    assert workers.ai_effort() == 1.0


async def test_work_in_a_worker_process_speaks_the_callers_language(one_worker: None) -> None:
    from bot.i18n import speaking
    from bot.i18n.formatting import number

    with speaking("pt-BR"):
        in_portuguese = await workers.run(number, 1200)
        pid = await workers.run(which_process)
    assert pid != os.getpid()  # it really ran in another process
    assert in_portuguese == "1.200"
    assert await workers.run(number, 1200) == "1,200"


async def test_a_late_picture_is_drawn_in_a_worker_in_its_messages_language(one_worker: None) -> None:

    from bot.discord_io.outgoing import Outgoing
    from bot.i18n import speaking

    frame = a_race_frames()[-1]
    with speaking("pt-BR"):
        portuguese = Outgoing(render=functools.partial(render_race, frame))
    english = Outgoing(render=functools.partial(render_race, frame))
    assert portuguese.render is not None and english.render is not None
    in_threads = workers.figures["in_thread"]
    drawn_pt, drawn_en = await workers.run(portuguese.render), await workers.run(english.render)
    assert workers.figures["in_thread"] == in_threads  # both were sent to the worker process
    assert drawn_pt != drawn_en
    with speaking("pt-BR"):
        assert drawn_pt == render_race(frame)


def test_work_sent_to_the_workers_never_loads_discord_py_in_them() -> None:
    """A worker loads what the work it is sent names. The replays were functions of the cogs, so the
    replay worker loaded discord.py and every cog (29 MB each, issue 15): the work now names only the
    engines' packages."""
    import pickle
    import subprocess
    import sys
    from functools import partial

    from bot.games.catalog import entry
    from bot.games.downforce.render_hand import render_hand
    from bot.games.downforce.replay import race_replay as downforce_replay
    from bot.games.horserace.replay import race_replay as horserace_replay
    from bot.games.hotstreak.replay import race_replay as hotstreak_replay
    from bot.games.replay_log import ReplayLog
    from bot.i18n import in_language
    from bot.i18n.languages import from_locale

    entry("hotstreak").presenter_class()  # the bot has loaded its presenter; the worker must not
    work = [
        partial(ReplayLog(1).drawn, hotstreak_replay, players=["Ada"]),
        partial(ReplayLog(1).drawn, horserace_replay),
        partial(ReplayLog().drawn, downforce_replay),
        partial(render_race, a_race_frames()[0]),
        partial(render_hand, [[["red", 4], ["wild", 3]]]),
        entry("hotstreak").choose,
    ]
    sent = pickle.dumps([in_language(from_locale("pt-BR"), call) for call in work])
    check = "import pickle, sys; pickle.loads(sys.stdin.buffer.read()); print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs', 'aiohttp')))"
    loaded = subprocess.run(
        [sys.executable, "-c", check], input=sent, capture_output=True, check=True, cwd=os.getcwd()
    ).stdout.decode()
    assert loaded.strip() == "[]"


def test_a_worker_process_loads_neither_the_metrics_nor_the_http_client() -> None:
    """A worker imports this module to start; the metrics (prometheus_client, aiohttp) are the bot
    process's alone, and took 13 MB more in each of the three workers."""
    code = "import sys, bot.workers; print(sorted({'prometheus_client', 'aiohttp', 'discord'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


async def test_a_call_that_runs_past_its_time_limit_is_given_up(no_workers: None) -> None:
    """Issue 26, point 9: every call has a limit, counted from when it runs (not while it waits)."""
    release = threading.Event()
    workers.time_limits(work=0.2, ai=0.2)
    try:
        with pytest.raises(workers.WorkerTimeout):
            await workers.run(release.wait, 10)
        assert await workers.run(which_process) == os.getpid()  # the next call goes on as usual
    finally:
        release.set()
        workers.time_limits()


def echoes(data: bytes) -> bytes:
    return data[::-1]


def refuses(why: str) -> None:
    raise ValueError(why)


def sleeps_then_tells(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


async def test_calls_and_answers_of_any_size_cross_with_no_thread_in_the_bots_process(
    one_worker: None,
) -> None:
    """A call goes out and its answer comes back through the event loop's own selector: megabytes each
    way arrive whole (written and read in pieces), and the bot's process gains no thread for it."""
    threads = {thread.name for thread in threading.enumerate()}
    big = os.urandom(3_000_000)
    assert await workers.run(echoes, big) == big[::-1]
    small = await asyncio.gather(*(workers.run(echoes, bytes([n])) for n in range(50)))
    assert small == [bytes([n]) for n in range(50)]
    assert {thread.name for thread in threading.enumerate()} <= threads


async def test_an_error_in_a_worker_is_raised_to_its_caller_with_the_workers_traceback(
    one_worker: None,
) -> None:
    with pytest.raises(ValueError, match="no such card") as raised:
        await workers.run(refuses, "no such card")
    assert "refuses" in str(raised.value.__cause__)  # where it was raised, in the worker
    assert await workers.run(which_process) != os.getpid()  # the worker is still there


async def test_a_hung_worker_is_replaced_alone_and_the_other_workers_call_goes_on(no_workers: None) -> None:
    """Issue 26, point 9, with two picture processes: one runs past its limit and is killed and replaced;
    the call the other one runs is neither lost nor tried again."""
    workers.start(2)
    workers.time_limits(work=5.0)  # the other call's 0.5 s, and its worker importing this module, under load
    try:
        hung = asyncio.ensure_future(workers.run(sleeps_then_tells, 60))
        await asyncio.sleep(0.05)
        other = asyncio.ensure_future(workers.run(sleeps_then_tells, 0.5))
        await asyncio.sleep(0.05)
        pids = workers.worker_pids(workers.PICTURES, starting=True)
        assert len(pids) == 2
        with pytest.raises(workers.WorkerTimeout):
            await hung
        ran_in = await other
        assert ran_in in pids  # it finished in its own process
        assert workers.worker_pids(workers.PICTURES) == [ran_in]  # which was not replaced; the hung one was
    finally:
        workers.stop()
        workers.time_limits()


async def test_a_worker_killed_while_idle_is_replaced_on_the_next_call(one_worker: None) -> None:
    first = await workers.run(which_process)
    os.kill(first, signal.SIGKILL)
    await asyncio.sleep(0.2)  # its end of the socket closes: the loop notices
    assert first not in workers.worker_pids(workers.PICTURES)
    assert await workers.run(which_process) not in (first, os.getpid())


async def test_a_worker_that_hangs_while_starting_is_replaced_after_its_start_allowance(
    one_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "START_TIMEOUT", 0.5)
    workers.time_limits(work=0.5)
    try:
        call = asyncio.ensure_future(workers.run(which_process))
        await asyncio.sleep(0)  # the call is sent: its process is spawned on the spot
        (starting,) = workers.worker_pids(workers.PICTURES, starting=True)
        os.kill(starting, signal.SIGSTOP)  # before it could say it is ready
        try:
            with pytest.raises(workers.WorkerTimeout):
                await asyncio.wait_for(call, 10)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(starting, signal.SIGKILL)
        workers.time_limits()  # the next worker's start (importing this module) is not held to 0.5 s
        assert await workers.run(which_process) not in (starting, os.getpid())
    finally:
        workers.time_limits()


async def test_calls_fail_as_broken_when_no_worker_process_can_be_started(
    one_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of processes or files: every call waiting is answered (broken), none waits for ever, and the
    workers start again once they can."""

    def refused(self: object) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.get_context("spawn").Process, "start", refused)
    calls = [asyncio.ensure_future(workers.run(which_process)) for _ in range(3)]
    done = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), 10)
    assert all(isinstance(error, BrokenProcessPool) for error in done), done
    monkeypatch.undo()
    assert await workers.run(which_process) != os.getpid()
