"""Two bot processes, one shard each, sharing one PostgreSQL database: games in guilds of both shards
are each driven by their shard's process; a player's DM click (which Discord sends to shard 0 only)
reaches the game's owner through the database; and with each process in turn killed (SIGKILL) at random
moments and started again, every game ends with the results of the same seeded game played without
interruption, stored once."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

from bot.client import PERMISSIONS
from bot.fakediscord import FakeDiscord, FakeGuild, FakeInteraction, FakeUser
from bot.games.base import Action, Game
from bot.games.catalog import entry
from bot.storage import Storage, StoredGame
from bot.tables.answers import STALE
from bot.tables.seats import Seat
from tests.bot.storage.databases import Database
from tests.cogs.test_restart import ROOT, uninterrupted
from tests.cogs.timings import FAST

SELECT_ID = re.compile(r"gs:(\d+)(?:\.[0-9a-z]+)?:(\d+):(\d+):(submit|double)$")


def start_shard(fake: FakeDiscord, database: Database, shard: int, log: IO[bytes]) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": database.url,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "TEST_TIMING": "shards",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cogs.restart_runner"], cwd=ROOT, env=env, stderr=log
    )


@dataclass
class Player:
    """A person in a Hot Streak game who answers every secret pick in their DMs, choosing exactly what
    the AI would choose for them at that step, so the game ends as the uninterrupted one whether their
    click or their deadline decides."""

    user: FakeUser
    guild: FakeGuild
    clicks: list[FakeInteraction] = field(default_factory=list)
    done: set[str] = field(default_factory=set)

    async def play(self, fake: FakeDiscord, storage: Storage) -> None:
        for message in fake.dm_messages(self.user):
            for menu in message.selects:
                match = SELECT_ID.match(menu.custom_id)
                if match is None or menu.custom_id in self.done or menu.disabled:
                    continue
                game_id, seat, n, kind = int(match[1]), int(match[2]), int(match[3]), match[4]
                game = await storage.load_game(game_id)
                if game is None or game.status != "running":
                    continue
                value = choice_now(game, seat, n, kind)
                if value is None:
                    continue
                if value not in {o.get("value") for o in menu.options}:
                    continue  # on another page of the menu: the deadline decides it the same way
                self.done.add(menu.custom_id)
                try:
                    click = await fake.select(self.user, message, menu.custom_id, [value], wait=False)
                except RuntimeError:  # no process connected this instant
                    self.done.discard(menu.custom_id)
                    continue
                self.clicks.append(click)


def choice_now(game: StoredGame, seat: int, n: int, kind: str) -> str | None:
    """The menu value the AI would pick for ``seat`` now, if only that seat is being waited for."""
    game_entry = entry(game.kind)
    seats = [Seat.from_json(s) for s in game.seats]
    engine: Game = game_entry.new_engine(
        len(seats), game.seed, game_entry.stored_engine_settings(game.settings)
    )
    acted = [0] * len(seats)
    for raw in game.actions:
        action = Action.from_json(raw)
        engine.apply(action)
        if action.player is not None:
            acted[action.player] += 1
    pending = engine.pending()
    # Only when nothing else is pending: the table decides AI seats and table steps first.
    if acted[seat] != n or not pending or any(d.player != seat for d in pending):
        return None
    decision = pending[0]
    if decision.kind != kind:
        return None
    rng = random.Random(f"{game.seed}:{len(game.actions)}:{seat}")
    picked = game_entry.choose(engine.view(seat), decision, "normal", rng)
    canon = [json.dumps(o, sort_keys=True) for o in decision.options]
    return f"i{canon.index(json.dumps(picked, sort_keys=True))}"


@pytest.mark.timeout(400)  # many restarts of two processes; slow on a busy machine, not a speed test
async def test_two_shard_processes_share_the_games_and_survive_sigkill(
    tmp_path: Path, database: Database
) -> None:
    async with FakeDiscord(shard_count=2, rate_limit=(FAST.channel_burst, FAST.channel_window)) as fake:
        guilds = [fake.add_guild(f"Shard {n}", shard=n, bot_permissions=PERMISSIONS.value) for n in (0, 1)]
        assert [fake.shard_of(g) for g in guilds] == [0, 1]
        players: list[Player] = []
        starts: list[tuple[str, FakeGuild, FakeUser, dict[str, object]]] = []
        for n, guild in enumerate(guilds):
            hs = fake.add_user(f"hs{n}", guild=guild)  # DMs open: secret picks arrive by DM
            hr = fake.add_user(f"hr{n}", guild=guild)
            players.append(Player(hs, guild))
            starts.append(("hotstreak", guild, hs, {"pace": 0.0, "bots": 2, "players": 3}))
            starts.append(("horserace", guild, hr, {"pace": 0.0, "bots": 2, "players": 3, "races": 1}))
        log = (tmp_path / "bots.log").open("ab")
        began = time.monotonic()
        storage = await Storage.open(database.url)  # creates the schema; the test only reads through it
        processes = {shard: start_shard(fake, database, shard, log) for shard in (0, 1)}
        try:
            await fake.wait_for_shards(0, 1, timeout=30)
            await fake.wait_for(
                lambda: {"hotstreak start", "horserace start"} <= fake.command_names(), timeout=30
            )
            await asyncio.sleep(2.5)  # discord.py waits for the guilds before it is ready
            for kind, guild, user, options in starts:
                channel = guild.add_text_channel(f"{kind}-{user.name}")
                ix = await fake.slash(user, channel, f"{kind} start", timeout=15, **options)
                await ix.wait_response(timeout=15)
            for _ in range(100):  # each start is acknowledged first, then stored
                if len(await storage.unfinished_games()) == len(starts):
                    break
                await asyncio.sleep(0.1)
            games = await all_games(storage, len(starts))
            assert {g.guild_id for g in games} == {g.id for g in guilds}

            rng = random.Random(20261201)
            kills = {0: 0, 1: 0}
            next_kill = time.monotonic() + rng.uniform(1.0, 3.0)
            while True:
                games = await all_games(storage, len(starts))
                if all(g.status == "finished" for g in games):
                    break
                assert sum(kills.values()) < 60, "the games did not finish"
                for player in players:
                    await player.play(fake, storage)
                if time.monotonic() >= next_kill:
                    shard = (1, 0)[sum(kills.values()) % 2]  # each process in turn
                    processes[shard].send_signal(signal.SIGKILL)
                    processes[shard].wait(timeout=10)
                    kills[shard] += 1
                    processes[shard] = start_shard(fake, database, shard, log)
                    await fake.wait_for_shards(0, 1, timeout=30)
                    # Long enough between kills for some secret picks to be clicked, passed on and applied.
                    next_kill = time.monotonic() + rng.uniform(2.0, 5.0)
                await asyncio.sleep(0.1)
            took = time.monotonic() - began
            print(f"{len(games)} games on 2 shards in {took:.1f} s; SIGKILLs per shard: {kills}")
            assert kills[0] >= 1 and kills[1] >= 1

            for game in games:
                results = await storage.game_results(game.id)
                seats = [Seat.from_json(s) for s in game.seats]
                assert [r.seat for r in results] == list(range(len(seats)))  # stored once per seat
                expected = uninterrupted(entry(game.kind), game.seed, seats, game.settings)
                assert [r.cash for r in results] == expected, f"game {game.id} ({game.kind})"

            # The shard-1 player's DM clicks reached shard 0 only and were applied by shard 1's process.
            routed = players[1].clicks
            answered = [c for c in routed if c.acknowledged]
            assert all(not c.late for c in answered), "a click was acknowledged after Discord's 3 s"
            applied = [c for c in answered if c.text and STALE not in c.text and "ended" not in c.text]
            print(
                f"shard-1 DM clicks: {len(routed)} sent, {len(answered)} acknowledged, {len(applied)} applied"
            )
            print("answers:", [c.text[:50] for c in answered])
            assert applied, "no DM click for a shard-1 game was applied by its owner"
        finally:
            await storage.close()
            for process in processes.values():
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=10)
            log.close()
        assert fake.unknown_routes == []


async def all_games(storage: Storage, count: int) -> list[StoredGame]:
    games = [await storage.load_game(game_id) for game_id in range(1, count + 1)]
    assert all(games), "a game was not stored"
    return [g for g in games if g is not None]
