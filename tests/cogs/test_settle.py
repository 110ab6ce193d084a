"""Results are never lost: a game whose results could not be saved when it ended keeps trying while the bot
runs, says so in its channel, and is settled at the next start whatever its age."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from typing import Any

import pytest

from bot.client import RaceBot
from bot.fakediscord import running_bot
from bot.storage import StorageError
from tests.cogs.conftest import World, join

EXTENSIONS = ("cogs.horserace", "cogs.stats")


def said(world: World, text: str) -> bool:
    return any(text in m.text for m in world.fake.channel_messages(world.channel))


def failing(original: Callable[..., Awaitable[Any]], times: int | None) -> Callable[..., Awaitable[Any]]:
    """``original``, failing like a locked database the first ``times`` calls (None: always)."""
    calls = {"n": 0}

    async def finish_game(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if times is None or calls["n"] <= times:
            raise StorageError("the database is locked")
        return await original(*args, **kwargs)

    return finish_game


async def play_to_the_end(world: World, bot: RaceBot) -> int:
    ix = await world.fake.slash(
        world.users["alice"], world.channel, "horserace start", races=1, rolls="auto", pace=0.0
    )
    lobby = await ix.reply()
    await join(world.fake, lobby, world.users["bob"])
    await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
    [table] = bot.tables.by_id.values()
    await world.fake.wait_for(lambda: said(world, "Final standings"), timeout=60)
    return table.game_id


async def test_results_that_could_not_be_saved_are_saved_later_while_running(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(world.fake, world.bot(extensions=EXTENSIONS)) as bot:
        monkeypatch.setattr(bot.storage, "finish_game", failing(bot.storage.finish_game, 3))
        game_id = await play_to_the_end(world, bot)
        await world.fake.wait_for(lambda: said(world, "are saved now"), timeout=20)
        assert said(world, f"I couldn't save the results of The Horse Race Game #{game_id} yet")
        assert len(await bot.storage.game_results(game_id)) == 2
        game = await bot.storage.load_game(game_id)
        assert game is not None and game.status == "finished"


async def test_an_ended_game_is_settled_at_start_however_old(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(world.fake, world.bot(extensions=EXTENSIONS)) as bot:
        monkeypatch.setattr(bot.storage, "finish_game", failing(bot.storage.finish_game, None))
        game_id = await play_to_the_end(world, bot)
        await world.fake.wait_for(lambda: said(world, "I couldn't save the results"), timeout=20)
    with closing(sqlite3.connect(world.db)) as db, db:  # three days pass
        db.execute("UPDATE games SET updated_at = updated_at - 3 * 86400 WHERE id = ?", (game_id,))
    async with running_bot(world.fake, world.bot(extensions=EXTENSIONS)) as bot:
        await world.fake.wait_for(lambda: said(world, "had ended; its results are saved now"), timeout=20)
        assert len(await bot.storage.game_results(game_id)) == 2
        game = await bot.storage.load_game(game_id)
        assert game is not None and game.status == "finished"
        assert not said(world, "waited too long")


async def test_a_cancel_racing_the_last_move_says_the_results_stand(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(world.fake, world.bot(extensions=EXTENSIONS)) as bot:
        saving, release = asyncio.Event(), asyncio.Event()
        original = bot.storage.finish_game

        async def slow_finish(*args: Any, **kwargs: Any) -> Any:
            saving.set()
            await release.wait()  # the last move is being settled when /cancel arrives
            return await original(*args, **kwargs)

        monkeypatch.setattr(bot.storage, "finish_game", slow_finish)
        ix = await world.fake.slash(
            world.users["alice"], world.channel, "horserace start", races=1, rolls="auto", pace=0.0
        )
        lobby = await ix.reply()
        await join(world.fake, lobby, world.users["bob"])
        await (await world.fake.click_button(world.users["alice"], lobby, "Start")).wait_response()
        [table] = bot.tables.by_id.values()
        await asyncio.wait_for(saving.wait(), 60)
        cancel = await world.fake.slash(world.users["alice"], world.channel, "horserace cancel", wait=False)
        await asyncio.sleep(0.3)
        release.set()
        answer = await cancel.reply()
        assert "had just ended; its results stand" in answer.text
        assert "No results were recorded" not in answer.text
        await world.fake.wait_for(lambda: said(world, "Final standings"), timeout=20)
        assert len(await bot.storage.game_results(table.game_id)) == 2
        game = await bot.storage.load_game(table.game_id)
        assert game is not None and game.status == "finished"
