"""Spectator bets through the fake Discord (issue 30): three people who are not seated bet on a Hot
Streak race from its live message (one of them with closed DMs), the bot is killed (SIGKILL) mid-race
and started again, and each bet is paid exactly once, exactly stake x quote, and told once."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from typing import Any

import pytest

from bot import spectators as rules
from bot.client import make_bot
from bot.config import Settings
from bot.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot
from bot.fakediscord.screenshot import render_messages
from bot.games.base import Action
from bot.games.catalog import Start, entry
from bot.storage import Storage
from bot.tables.seats import Seat, ai_seat
from tests.cogs.conftest import World
from tests.cogs.test_restart import start_bot, wait_identified
from tests.cogs.test_screenshots import WIDTH, has_button, save, versions
from tests.cogs.timings import RESTART

PACE = 2.5  # seconds per card while they bet: the race outlasts three bets on a slow machine
AFTER = 0.2  # seconds per card after the restart (the stored pace changed while the bot is down)


def store_at_the_race(world: World) -> tuple[int, dict[str, Any], list[Action]]:
    """A Hot Streak game (dave and two AI seats) stored up to its first race's start."""
    game = entry("hotstreak")
    seed = 20261203
    dave = world.users["dave"]
    seats = [Seat(name=dave.name, user_id=dave.id)]
    seats += [ai_seat(seats), ai_seat([*seats, ai_seat(seats)])]
    settings: dict[str, Any] = {"players": 3, "pace": PACE, "host_id": dave.id}
    settings["engine"] = game.engine_settings(Start(3, seed, time.time(), dict(settings), {}))
    engine = game.new_engine(3, seed, game.stored_engine_settings(settings))
    actions: list[Action] = []
    while engine.view(None)["phase"] != "race":
        decision = engine.pending()[0]
        rng = random.Random(len(actions))
        actions.append(
            Action(
                decision.player,
                decision.kind,
                game.choose(engine.view(decision.player), decision, "normal", rng),
            )
        )
        engine.apply(actions[-1])
    return seed, settings, actions


async def bet(
    fake: FakeDiscord,
    user: FakeUser,
    live: FakeMessage,
    pick: int,
    amount: int,
    *,
    late: Callable[[], int] | None = None,
) -> FakeMessage:
    """``user`` bets ``amount`` on the ``pick``-th racer offered, as a person does: Bet, a racer, an
    amount, Confirm (again, if the race moved on meanwhile). Returns their private message of the bet.
    ``late`` (the number of actions stored so far): they first wait for the next card before
    confirming, and are quoted again, not taken at the old price."""
    opened = await (await fake.click_button(user, live, "Bet")).reply(timeout=15)
    menu = opened.select_menu()
    racer = menu.options[pick % len(menu.options)]["value"]
    chosen = await (await fake.select(user, opened, menu.custom_id, [racer])).reply(timeout=15)
    quoted = await (await fake.click_button(user, chosen, f"{amount} chips")).reply(timeout=15)
    if late is not None:
        # The quote names the frame it was made on (the actions stored then). The live message's next
        # edit is not enough: on a busy machine it may still be drawing that very frame.
        (confirm_id,) = [b.custom_id for b in quoted.buttons if b.label == "Confirm"]
        frame = int(confirm_id.split(":")[3])
        await fake.wait_for(lambda: late() > frame, timeout=15, what="the next card")
        before = len(quoted.edits)
        await fake.click_button(user, quoted, "Confirm")
        await fake.wait_for(lambda: len(quoted.edits) > before, timeout=15, what="the late confirm's answer")
        assert "moved on" in quoted.text and "Bet placed" not in quoted.text, quoted.text
    while "Confirm" in [b.label for b in quoted.buttons]:
        await confirm(fake, user, quoted)
    return quoted


async def confirm(fake: FakeDiscord, user: FakeUser, quoted: FakeMessage) -> None:
    """``user`` presses Confirm on their quote and waits for it to change (placed, or quoted again)."""
    before = len(quoted.edits)
    await fake.click_button(user, quoted, "Confirm")
    await fake.wait_for(lambda: len(quoted.edits) > before, timeout=15, what="the confirm's answer")


@pytest.mark.timeout(120)
async def test_three_spectators_bet_the_bot_dies_mid_race_and_each_bet_is_paid_once(
    world: World, tmp_path: Any
) -> None:
    seed, settings, actions = store_at_the_race(world)
    dave = world.users["dave"]
    async with await Storage.open(str(world.db)) as storage:
        seats = [{"user_id": dave.id, "name": dave.name, "ai": None}]
        seats += [{"user_id": None, "name": f"Bot {i}", "ai": "normal"} for i in (1, 2)]
        game_id = await storage.create_game(
            "hotstreak", world.guild.id, world.channel.id, seed, settings, seats
        )
        for seq, action in enumerate(actions):
            await storage.append_action(game_id, seq, action.to_json())
    fake = world.fake
    spectators = [world.users["alice"], world.users["bob"], world.users["carol"]]  # carol: DMs closed
    log = (tmp_path / "bot.log").open("wb")
    process = start_bot(world, log)

    def stored() -> int:
        return _count(world, f"SELECT COUNT(*) FROM actions WHERE game_id = {game_id}")

    try:
        await wait_identified(world, 1)
        live = await fake.wait_for(
            lambda: next(
                (m for m in fake.channel_messages(world.channel) if any(b.label == "Bet" for b in m.buttons)),
                None,
            ),
            timeout=30,
            what="the race's live message with its Bet button",
        )
        # A seated player is told so, privately.
        seated = await fake.click_button(dave, live, "Bet")
        assert "You are seated" in (await seated.reply()).text
        said = await asyncio.gather(
            *(
                bet(fake, user, live, i, amount, late=stored if i == 0 else None)
                for i, (user, amount) in enumerate(zip(spectators, (25, 10, 50), strict=True))
            )
        )
        assert all("Bet placed" in s.text for s in said), [s.text for s in said]
        process.send_signal(signal.SIGKILL)  # mid-race: its cards still to come
        assert await asyncio.to_thread(process.wait, 30) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
        log.close()
    with closing(sqlite3.connect(world.db)) as db:
        assert db.execute("SELECT COUNT(*) FROM spectator_payouts").fetchone()[0] == 0, "the race was over"
        db.execute(
            "UPDATE games SET settings = json_set(settings, '$.pace', ?) WHERE id = ?", (AFTER, game_id)
        )
        db.commit()  # closing() closes; it does not commit
    # The docs' picture of a bet: the race's live message with its Bet button, then bob's quote and
    # its answer, as only he sees them.
    shown = [pair for pair in versions(live) if has_button(pair[1], "Bet") and pair[1].attachments][-1:]
    quote = [pair for pair in versions(said[1]) if has_button(pair[1], "Confirm")][-1:]
    png = render_messages(
        [*shown, *quote, versions(said[1])[-1]],
        names={u.id: u.name for u in world.users.values()},
        viewer_name="bob",
        width=WIDTH,
        title="# games",
        emojis=fake.application_emojis,
    )
    save(png, "spectator-bet.png", tmp_path)
    settings_ = Settings(token=fake.token, database_url=str(world.db), default_where="channel")
    async with running_bot(fake, make_bot(settings_, timing=RESTART)) as bot:
        await fake.wait_for(
            lambda: _count(world, "SELECT COUNT(*) FROM spectator_payouts WHERE told = 1") == 3,
            timeout=60,
            what="the three bets paid and told",
        )
        await asyncio.sleep(0.5)  # anything said twice would be said by now
        board = await (await fake.slash(dave, world.channel, "leaderboard", game="spectators")).reply()
        assert all(user.name in board.text for user in spectators), board.text
        del bot
    game = entry("hotstreak")
    engine = game.new_engine(3, seed, game.stored_engine_settings(settings))
    with closing(sqlite3.connect(world.db)) as db:
        for (text,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)):
            engine.apply(Action.from_json(json.loads(text)))
            if engine.view(None)["history"]:
                break
        winners = {m for m, p in engine.view(None)["history"][0]["places"].items() if p == 1}
        bets = db.execute(
            "SELECT b.user_id, b.racer, b.stake, b.price, p.payout, p.outcome, w.chips FROM spectator_bets b "
            "JOIN spectator_payouts p ON p.bet_id = b.id JOIN spectator_wallets w ON w.user_id = b.user_id"
        ).fetchall()
    assert len(bets) == 3
    for _user, racer, stake, price, payout, outcome, chips in bets:
        assert payout == (stake * price if racer in winners else 0)  # exactly stake x quote
        assert outcome == ("won" if racer in winners else "lost")
        assert chips == rules.ALLOWANCE * rules.CENT - stake * rules.CENT + payout  # paid once
    for user in spectators[:2]:
        dms = [m.text for m in fake.channel_messages(fake.dm_channel(user))]
        assert sum("Your spectator bets" in t for t in dms) == 1, dms
    said_here = [m for m in fake.channel_messages(world.channel) if "DMs are closed" in m.text]
    assert len(said_here) == 1 and spectators[2].mention in said_here[0].text
    assert fake.pings(said_here[0]).users == {spectators[2].id}  # it pings only her


def _count(world: World, sql: str) -> int:
    with closing(sqlite3.connect(world.db)) as db:
        return int(db.execute(sql).fetchone()[0])
