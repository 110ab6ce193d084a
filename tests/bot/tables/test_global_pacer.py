"""The global pacer: urgent work before pictures, interaction answers never wait, stale pictures merged.

No timings are asserted: a window of 0 s makes room depend only on the requests in flight, so each test
decides exactly when room appears by releasing a slot it holds.
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot import logs
from bot.discord_io.global_pacer import PICTURE, URGENT, GlobalPacer, install
from bot.discord_io.outbox import PictureOutbox, Slots, merge
from bot.discord_io.outgoing import Outgoing
from bot.discord_io.pacer import ChannelPacer


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


class Holder:
    """Holds one slot of ``pacer`` until released, so everything else must queue."""

    def __init__(self, pacer: GlobalPacer) -> None:
        self.pacer = pacer
        self.release = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Holder:
        self.task = asyncio.create_task(self._hold())
        await settle()
        return self

    async def _hold(self) -> None:
        async with self.pacer.slot():
            await self.release.wait()

    async def __aexit__(self, *exc: object) -> None:
        self.release.set()
        assert self.task is not None
        await self.task


async def test_urgent_work_is_served_before_pictures_and_oldest_first_within_each() -> None:
    pacer = GlobalPacer(limit=1, window=0.0)
    served: list[str] = []

    async def request(name: str, urgency: int) -> None:
        async with pacer.slot(urgency):
            served.append(name)

    async with Holder(pacer):
        tasks = [
            asyncio.create_task(request("picture 1", PICTURE)),
            asyncio.create_task(request("prompt 1", URGENT)),
            asyncio.create_task(request("picture 2", PICTURE)),
            asyncio.create_task(request("turn message", URGENT)),
        ]
        await settle()
        assert served == []  # nobody passes while the limit is spent
    await asyncio.gather(*tasks)
    assert served == ["prompt 1", "turn message", "picture 1", "picture 2"]


async def test_never_more_requests_in_flight_than_the_limit() -> None:
    pacer = GlobalPacer(limit=3, window=0.0)
    in_flight, most = 0, 0

    async def request() -> None:
        nonlocal in_flight, most
        async with pacer.slot():
            in_flight += 1
            most = max(most, in_flight)
            await settle()
            in_flight -= 1

    await asyncio.gather(*(request() for _ in range(20)))
    assert most == 3 and pacer.granted == 20


async def test_a_waiting_request_that_is_cancelled_gives_its_place_to_the_next() -> None:
    pacer = GlobalPacer(limit=1, window=0.0)
    served: list[str] = []

    async def request(name: str) -> None:
        async with pacer.slot():
            served.append(name)

    async with Holder(pacer):
        gone = asyncio.create_task(request("cancelled"))
        kept = asyncio.create_task(request("kept"))
        await settle()
        gone.cancel()
    await kept
    assert served == ["kept"] and pacer.in_flight == 0


@dataclass
class FakeRoute:
    path: str


@dataclass
class FakeHttp:
    """discord.py's HTTP client as far as ``install`` sees it: one ``request`` coroutine."""

    made: list[str] = field(default_factory=list)

    async def request(self, route: FakeRoute, **kwargs: Any) -> str:
        self.made.append(route.path)
        return route.path


async def test_interaction_answers_and_followups_pass_while_the_limit_is_spent() -> None:
    pacer = GlobalPacer(limit=1, window=0.0)
    http = FakeHttp()
    install(http, pacer)
    async with Holder(pacer):
        message = asyncio.create_task(http.request(FakeRoute("/channels/1/messages")))
        await http.request(FakeRoute("/interactions/5/token/callback"))
        await http.request(FakeRoute("/webhooks/7/token"))
        await settle()
        assert http.made == ["/interactions/5/token/callback", "/webhooks/7/token"]
    await message
    assert http.made[-1] == "/channels/1/messages"


async def test_without_a_limit_nothing_waits() -> None:
    pacer = GlobalPacer(limit=None)
    http = FakeHttp()
    install(http, pacer)
    assert await http.request(FakeRoute("/channels/1/messages")) == "/channels/1/messages"
    assert pacer.granted == 0


def picture(text: str) -> Outgoing:
    return Outgoing(content=text, render=text.encode)


def drawn_when_sent(name: str, drawn: list[str]) -> Outgoing:
    """A race picture that notes in ``drawn`` when (and whether) it is drawn."""

    def render() -> bytes:
        drawn.append(name)
        return name.encode()

    return Outgoing(content=name, render=render)


class Sent(list[Outgoing]):
    """What was posted, in order."""

    async def record(self, out: Outgoing) -> None:
        self.append(out)


async def test_a_stale_picture_is_merged_into_the_next_keeping_both_texts() -> None:
    pacer = GlobalPacer(limit=1, window=0.0)
    outbox = PictureOutbox(pacer, ChannelPacer(5, 5.0))
    sent: list[Outgoing] = []

    async def send(out: Outgoing) -> None:
        sent.append(out)

    async with Holder(pacer):
        await outbox.post(1, picture("card 1"), send)
        await outbox.post(1, picture("card 2"), send)  # card 1 is still waiting: stale
        await outbox.post(1, picture("card 3"), send)
        await outbox.post(2, picture("other table"), send)  # another channel is never merged
    await outbox.drain()
    ours = [s for s in sent if s.content != "other table"]
    assert [s.content for s in ours] == ["card 1\ncard 2\ncard 3"]
    assert ours[0].image == b"card 3" and outbox.merged == 2
    assert any(s.content == "other table" for s in sent)
    # The show's figures: four card frames given, two drawn and sent (one per channel), none with odds.
    assert (outbox.offered, outbox.drawn, outbox.with_odds) == (4, 2, 0)


async def test_the_pictures_showing_odds_are_counted_when_sent() -> None:
    outbox = PictureOutbox(GlobalPacer(limit=1, window=0.0), ChannelPacer(5, 5.0))
    sent = Sent()
    await outbox.post(
        1, Outgoing(content="card 1", render=lambda: b"1", odds_shown=True), sent.record, wait=True
    )
    await outbox.post(1, picture("card 2"), sent.record, wait=True)
    assert (outbox.offered, outbox.drawn, outbox.with_odds) == (2, 2, 1)


async def test_a_picture_is_not_merged_across_a_message_sent_after_it() -> None:
    pacer = GlobalPacer(limit=1, window=0.0)
    outbox = PictureOutbox(pacer, ChannelPacer(5, 5.0))
    sent: list[str] = []

    async def send(out: Outgoing) -> None:
        sent.append(out.content)

    async with Holder(pacer):
        await outbox.post(1, picture("card 5"), send)
        outbox.close(1)  # the race results go out after card 5
        await outbox.post(1, picture("next race"), send)
    await outbox.drain()
    assert sent == ["card 5", "next race"] and outbox.merged == 0


def test_only_channel_pictures_drawn_when_sent_without_controls_may_be_merged() -> None:
    assert PictureOutbox.takes(picture("card"))
    assert not PictureOutbox.takes(Outgoing(content="Place your bets"))
    assert not PictureOutbox.takes(Outgoing(content="live board", image=b"x"))  # edited later
    assert not PictureOutbox.takes(Outgoing(content="card", render=bytes, hand_button=True))
    assert not PictureOutbox.takes(Outgoing(content="card", render=bytes, seat=0))


def test_a_live_race_picture_with_its_bet_button_may_be_merged_but_not_one_with_a_decision() -> None:
    """Spectators' **Bet** (an ask) is the same button on every card: the race's pictures with it are still
    queued and merged; a decision's buttons or "My hand" need the message back, so they are not."""
    from bot.tables.components import Choice, Controls
    from bot.tables.dressing import dressed

    bet = (("bet", "Bet", "🎟️"),)
    with_bet = dressed(Outgoing(content="card", render=bytes, live="race:1", asks=bet), 7, [0, 0])
    assert with_bet.view is not None and with_bet.fixed_view and PictureOutbox.takes(with_bet)
    line = dressed(Outgoing(content="card 2", race_line=True, live="race:1", asks=bet), 7, [0, 0])
    assert PictureOutbox.takes(line)
    with_hand = dressed(Outgoing(content="card", render=bytes, asks=bet, hand_button=True), 7, [0, 0])
    assert not with_hand.fixed_view and not PictureOutbox.takes(with_hand)
    controls = Controls(seat=0, kind="bet", choices=(Choice(0, "A"),))
    with_decision = dressed(Outgoing(content="bet", render=bytes, controls=controls), 7, [0, 0])
    assert not PictureOutbox.takes(with_decision)
    # The race ends on a line without Bet: merged into the waiting picture, its buttons go too.
    ended = merge(with_bet, Outgoing(content="card 3", race_line=True, live="race:1"))
    assert ended.view is None and ended.content == "card 3"


async def test_a_picture_waiting_for_a_drawing_slot_is_still_merged_into_the_next() -> None:
    """Under load the wait is for the drawing worker: a picture not yet being drawn is stale as soon as
    the next card's comes, and only the newer one is drawn."""
    outbox = PictureOutbox(GlobalPacer(limit=None), ChannelPacer(5, 5.0), drawing=1)
    drawn: list[str] = []
    sent = Sent()
    send = sent.record

    def drawing(name: str) -> Outgoing:
        return drawn_when_sent(name, drawn)

    async with outbox._drawing:  # the only drawing slot is taken by other tables' pictures
        await outbox.post(1, drawing("card 1"), send)
        await outbox.post(1, drawing("card 2"), send)
        await asyncio.sleep(0.01)
        assert drawn == [] and outbox.merged == 1
    await outbox.drain()
    assert drawn == ["card 2"] and [(s.content, s.image) for s in sent] == [("card 1\ncard 2", b"card 2")]


async def test_a_message_after_a_picture_waiting_for_its_drawing_slot_is_not_held_behind_it() -> None:
    """A picture holds its channel's turn while it waits for the (busy) drawing worker, so the
    race's results and the next bet prompt waited behind it for up to 49 s while the people's time ran.
    Now a message sent after it makes it go out at once as its lines alone, in order, undrawn."""
    pacer = ChannelPacer(5, 5.0)
    outbox = PictureOutbox(GlobalPacer(limit=None), pacer, drawing=1)
    drawn: list[str] = []
    sent = Sent()

    async with outbox._drawing:  # the only drawing slot is taken by other tables' pictures, throughout
        await outbox.post(1, drawn_when_sent("last card", drawn), sent.record)
        outbox.close(1)  # the bet prompt (as Table.send does)
        async with pacer.turn(1):
            sent.append(Outgoing(content="place your bets"))
        await outbox.drain()
        assert [(s.content, s.image, s.render) for s in sent] == [
            ("last card", None, None),
            ("place your bets", None, None),
        ]
    assert drawn == [] and outbox.undrawn == 1
    await outbox.post(1, drawn_when_sent("next race", drawn), sent.record)  # the slot is free again
    await outbox.drain()
    assert drawn == ["next race"] and sent[-1].image == b"next race" and not outbox._drawing.locked()


async def test_a_race_s_last_picture_gets_the_next_drawing_slot_before_pictures_that_can_wait() -> None:
    """A race's last card and its results come in one step, so the last picture is hurried; it went out
    as its lines whenever the slots were busy at that instant (a third of the races at 200 games). Now
    it waits a moment (``HURRY_WAIT``) for the next slot, ahead of pictures that have no message behind
    them, and the results follow it."""
    pacer = ChannelPacer(5, 5.0)
    outbox = PictureOutbox(GlobalPacer(limit=None), pacer, drawing=1)
    drawn: list[str] = []
    sent = Sent()
    async with outbox._drawing:  # the only slot is taken by another table's picture
        await outbox.post(1, drawn_when_sent("a card in channel 1", drawn), sent.record)
        await outbox.post(2, drawn_when_sent("the last card in channel 2", drawn), sent.record)
        outbox.close(2)  # its results come next

        async def results() -> None:
            async with pacer.turn(2):
                sent.append(Outgoing(content="results"))

        told = asyncio.create_task(results())
        await settle()
        assert drawn == [] and not told.done()  # the results wait behind the last picture
    await outbox.drain()
    await told
    assert drawn == ["the last card in channel 2", "a card in channel 1"]
    assert [s.content for s in sent if s.content != "a card in channel 1"] == [
        "the last card in channel 2",
        "results",
    ]
    assert sent[0].image == b"the last card in channel 2" and outbox.undrawn == 0
    assert not outbox._drawing.locked()


async def test_drawing_slots_go_to_urgent_waiters_first_and_a_withdrawn_grant_is_given_back() -> None:
    slots = Slots(1)
    assert slots.take() and slots.locked()
    calm, urgent, later = slots.wait(urgent=False), slots.wait(urgent=True), slots.wait(urgent=False)
    slots.release()
    assert urgent.done() and not calm.done()
    slots.withdraw(calm)  # stopped waiting: out of the line
    slots.release()
    assert later.done() and calm.cancelled()
    slots.withdraw(later)  # granted, then given up: the slot is free again
    assert not slots.locked() and slots.take() and not slots.take()


async def test_a_picture_that_waits_too_long_for_a_drawing_slot_goes_out_as_its_lines() -> None:
    """Behind a busy picture worker a racing channel was silent 10-15 s between cards. After
    ``patience`` (5 s in the bot) the waiting picture's lines go out alone; newer cards merge until then."""
    outbox = PictureOutbox(GlobalPacer(limit=None), ChannelPacer(5, 5.0), drawing=1, patience=0.05)
    drawn: list[str] = []
    sent = Sent()
    async with outbox._drawing:  # the only drawing slot stays taken by other tables' pictures
        await outbox.post(1, drawn_when_sent("card 1", drawn), sent.record)
        await outbox.post(1, drawn_when_sent("card 2", drawn), sent.record)  # merged while it waits
        await outbox.drain()
    assert drawn == [] and [(s.content, s.image, s.render) for s in sent] == [("card 1\ncard 2", None, None)]
    assert outbox.undrawn == 1


async def test_a_picture_is_drawn_before_a_later_message_when_a_drawing_slot_is_free() -> None:
    outbox = PictureOutbox(GlobalPacer(limit=None), ChannelPacer(5, 5.0), drawing=1)
    drawn: list[str] = []
    sent = Sent()
    await outbox.post(1, drawn_when_sent("last card", drawn), sent.record)
    outbox.close(1)
    await outbox.drain()
    assert drawn == ["last card"] and sent[0].image == b"last card" and outbox.undrawn == 0


async def test_frames_get_only_quick_odds_while_pictures_wait_for_their_drawing_slot() -> None:
    """Ruling: a picture before its odds. Pictures waiting for the drawing worker count as its queue, so
    later frames get the quick estimate (a few milliseconds) rather than send 2,000 simulated races
    ahead of those pictures."""
    from bot import workers
    from bot.games.hotstreak.odds import RACE_SAMPLES, SAMPLES
    from tests.bot.test_workers import a_race_frames

    outbox = PictureOutbox(GlobalPacer(limit=None), ChannelPacer(5, 5.0), drawing=1)
    view = a_race_frames()[3]
    sent: list[Outgoing] = []

    async def send(out: Outgoing) -> None:
        sent.append(out)

    async with outbox._drawing:  # the drawing slot is busy: every channel's picture waits for it
        for channel in range(workers.ODDS_QUEUE):
            await outbox.post(channel, picture(f"card in channel {channel}"), send)
        await settle()
        assert workers.waiting(workers.PICTURES) == workers.ODDS_QUEUE
        quick = await workers.odds("hotstreak", view)
        assert quick is not None and quick.samples == RACE_SAMPLES
    await outbox.drain()
    assert len(sent) == workers.ODDS_QUEUE and workers.waiting(workers.PICTURES) == 0
    full = await workers.odds("hotstreak", view)  # nothing waits: the full simulation again
    assert full is not None and full.samples == SAMPLES


async def test_a_race_line_without_a_picture_joins_the_waiting_picture_and_keeps_it() -> None:
    """A card that changed nothing on the track has a line and no picture: it never waits behind the
    picture in the channel's queue, it is told in the same message, and the picture shown is still
    the last one drawn (the track is the same)."""
    pacer = GlobalPacer(limit=1, window=0.0)
    outbox = PictureOutbox(pacer, ChannelPacer(5, 5.0))
    sent: list[Outgoing] = []

    async def send(out: Outgoing) -> None:
        sent.append(out)

    line = Outgoing(content="card 2: nothing moves", race_line=True)
    assert PictureOutbox.takes(line)
    async with Holder(pacer):
        await outbox.post(1, picture("card 1"), send)
        await outbox.post(1, line, send)
    await outbox.drain()
    assert [(s.content, s.image) for s in sent] == [("card 1\ncard 2: nothing moves", b"card 1")]
    alone: list[Outgoing] = []

    async def send_alone(out: Outgoing) -> None:
        alone.append(out)

    await outbox.post(3, Outgoing(content="a line on its own", race_line=True), send_alone)
    await outbox.drain()
    assert [(s.content, s.image) for s in alone] == [("a line on its own", None)]


def test_merged_text_stays_within_discords_message_limit_dropping_the_oldest_lines() -> None:
    merged = merge(picture("old line " * 250), picture("new line"))
    assert merged.content.endswith("new line") and len(merged.content) <= 2000


async def test_a_picture_merged_away_is_never_drawn() -> None:
    pacer = GlobalPacer(limit=1, window=0.0)
    outbox = PictureOutbox(pacer, ChannelPacer(5, 5.0))
    drawn: list[str] = []
    sent = Sent()
    send = sent.record

    def drawing(name: str) -> Outgoing:
        return drawn_when_sent(name, drawn)

    async with Holder(pacer):
        await outbox.post(1, drawing("card 1"), send)
        await outbox.post(1, drawing("card 2"), send)
    await outbox.drain()
    assert drawn == ["card 2"] and [s.image for s in sent] == [b"card 2"]


async def test_only_a_frame_that_is_drawn_works_out_its_odds_and_shows_them() -> None:
    """A frame's odds (``Outgoing.ready``) cost more than its picture; at 500 games three quarters of the
    picture worker's time went to odds of frames merged away unseen. Now only the drawn frame pays."""
    pacer = GlobalPacer(limit=1, window=0.0)
    outbox = PictureOutbox(pacer, ChannelPacer(5, 5.0))
    worked_out: list[str] = []
    sent = Sent()

    def frame(name: str) -> Outgoing:
        async def with_odds(out: Outgoing) -> Outgoing:
            worked_out.append(name)
            return dataclasses.replace(out, render=f"{name} with odds".encode, odds_shown=True)

        return Outgoing(content=name, render=name.encode, ready=with_odds)

    async with Holder(pacer):
        for card in ("card 1", "card 2", "card 3"):
            await outbox.post(1, frame(card), sent.record)
    await outbox.drain()
    assert worked_out == ["card 3"] and [s.image for s in sent] == [b"card 3 with odds"]
    assert (outbox.drawn, outbox.with_odds, outbox.merged) == (1, 1, 2)


async def test_a_frame_whose_odds_fail_is_drawn_without_them(caplog: pytest.LogCaptureFixture) -> None:
    outbox = PictureOutbox(GlobalPacer(limit=None), ChannelPacer(5, 5.0))
    sent = Sent()

    async def failing(out: Outgoing) -> Outgoing:
        raise RuntimeError("the odds worker broke")

    await outbox.post(1, Outgoing(content="card", render=lambda: b"plain", ready=failing), sent.record)
    await outbox.drain()
    assert [(s.content, s.image) for s in sent] == [("card", b"plain")] and outbox.with_odds == 0
    assert any("without them" in r.getMessage() for r in caplog.records)


def test_discord_py_looks_for_idle_rate_limit_buckets_only_now_and_then() -> None:
    """Each interaction token is a new bucket; discord.py's look through all of them (for ones idle
    5 minutes) on every new one is made once per ``BUCKET_SWEEP_SECONDS`` instead."""
    swept: list[int] = []

    class Http(FakeHttp):
        def _try_clear_expired_ratelimits(self) -> None:
            swept.append(1)

    http = Http()
    install(http, GlobalPacer(limit=None))
    for _ in range(100):
        http._try_clear_expired_ratelimits()
    assert len(swept) == 1


async def test_servers_take_turns_so_one_busy_server_cannot_take_the_budget() -> None:
    """Issue 26, point 10: one server's many games (all-AI at pace 0) queued twelve requests before
    another server's one game queued three: the two take turns, each server's oldest first, and urgent
    work still goes before pictures whichever server it is for. A game's task names its server
    (``bot.logs.about_game``), as the tables' tasks do."""
    pacer = GlobalPacer(limit=1, window=0.0)
    served: list[str] = []

    async def request(guild: int, name: str, urgency: int = URGENT) -> None:
        with logs.about_game(guild * 10, guild):
            async with pacer.slot(urgency):
                served.append(name)

    async with Holder(pacer):
        tasks = [asyncio.create_task(request(1, f"busy {n}")) for n in range(12)]
        tasks += [asyncio.create_task(request(2, f"quiet {n}")) for n in range(3)]
        tasks += [asyncio.create_task(request(1, "busy picture", PICTURE))]
        tasks += [asyncio.create_task(request(3, "late urgent"))]
        await settle()
    await asyncio.gather(*tasks)
    # Turns in the order the servers first had work waiting: 1, 2, 3, then 1 and 2 again...
    assert served[:7] == ["busy 0", "quiet 0", "late urgent", "busy 1", "quiet 1", "busy 2", "quiet 2"]
    assert served[7:] == [f"busy {n}" for n in range(3, 12)] + ["busy picture"]


async def test_a_request_outside_a_game_takes_the_turn_of_its_routes_server() -> None:
    """discord.py's requests made outside a game's task count for the server their route names, else
    for the server of their channel (from the client's cache)."""
    pacer = GlobalPacer(limit=1, window=0.0)
    served: list[str] = []

    @dataclass
    class Route:
        path: str
        channel_id: int | None = None
        guild_id: int | None = None

    class Http:
        async def request(self, route: Route, **kwargs: Any) -> None:
            served.append(route.path)

    http = Http()
    install(http, pacer, {101: 1, 201: 2}.get)
    async with Holder(pacer):
        tasks = [
            asyncio.create_task(http.request(Route(f"/channels/101/{n}", channel_id=101))) for n in range(3)
        ]
        tasks += [asyncio.create_task(http.request(Route("/guilds/2/x", guild_id=2)))]
        tasks += [asyncio.create_task(http.request(Route("/channels/201/y", channel_id=201)))]
        await settle()
    await asyncio.gather(*tasks)
    assert served == [
        "/channels/101/0",
        "/guilds/2/x",
        "/channels/101/1",
        "/channels/201/y",
        "/channels/101/2",
    ]
