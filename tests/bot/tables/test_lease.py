"""A game belongs to the shard of its guild, as Discord routes the guild's events; a process drives only
the games of its own shards whose lease it can take."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.games.catalog import CATALOG
from bot.storage import Storage, StorageError, StoredGame
from bot.tables.directory import Directory
from bot.tables.endings import Endings
from bot.tables.lease import LeaseKeeper, shard_of
from bot.tables.resuming import Resuming

SHARD_1_OF_2 = (1 << 22) * 3  # (id >> 22) % 2 == 1


def test_a_guild_belongs_to_the_shard_discord_sends_its_events_to() -> None:
    assert [shard_of((n << 22) + 12345, 4) for n in range(6)] == [0, 1, 2, 3, 0, 1]
    assert shard_of(SHARD_1_OF_2, 1) == 0  # unsharded: everything is shard 0


async def test_a_process_resumes_only_its_own_shards_games_and_only_with_their_lease(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "bot.db"))
    try:
        zero = LeaseKeeper(SimpleNamespace(storage=storage), Tables(), (0,), 2)  # type: ignore[arg-type]
        one = LeaseKeeper(SimpleNamespace(storage=storage), Tables(), (1,), 2)  # type: ignore[arg-type]
        storage.hold_leases_as(one.owner, 20)
        game_id = await storage.create_game("hotstreak", SHARD_1_OF_2, 10, 7, {}, [])
        game = await storage.load_game(game_id)
        assert isinstance(game, StoredGame)
        storage.hold_leases_as(zero.owner, 20)
        assert not await zero.may_drive(game)  # another shard's game
        other_one = LeaseKeeper(SimpleNamespace(storage=storage), Tables(), (1,), 2)  # type: ignore[arg-type]
        storage.hold_leases_as(other_one.owner, 20)
        assert not await other_one.may_drive(game)  # shard 1 too, but the first process holds the lease
        storage.hold_leases_as(one.owner, 20)
        assert await one.may_drive(game)
    finally:
        await storage.close()


class Tables:
    """The keeper's view of this process's tables: the games it drives, and the ones it let go."""

    def __init__(self) -> None:
        self.by_id: dict[int, Any] = {}
        self.forgotten: list[int] = []


def a_table(tables: Tables, game_id: int) -> Any:
    """A table that, told it is lost (``Table.end``), is let go as the registry would let it go."""

    def end(why: str) -> None:
        tables.by_id.pop(game_id, None)
        tables.forgotten.append(game_id)

    return SimpleNamespace(game_id=game_id, closed=False, end=end)


async def test_a_game_opened_while_the_leases_are_renewed_is_kept(tmp_path: Path) -> None:
    """Under load a renewal waits for the database, and games open meanwhile: each holds the lease it
    took when it was stored, so it is not taken for one another process took over."""
    storage = await Storage.open(str(tmp_path / "bot.db"))
    try:
        tables = Tables()
        keeper = LeaseKeeper(SimpleNamespace(storage=storage), tables, (0,), 1)  # type: ignore[arg-type]
        storage.hold_leases_as(keeper.owner, 20)
        first = await storage.create_game("hotstreak", 5, 10, 7, {}, [])
        tables.by_id[first] = a_table(tables, first)
        renew = storage.renew_leases

        async def renew_while_a_game_opens(game_ids: list[int]) -> set[int]:
            held = await renew(game_ids)
            opened = await storage.create_game("hotstreak", 5, 11, 7, {}, [])  # a start meanwhile
            tables.by_id[opened] = a_table(tables, opened)
            return held

        storage.renew_leases = renew_while_a_game_opens  # type: ignore[method-assign]
        await keeper.tick()
        assert tables.forgotten == [] and len(tables.by_id) == 2
        storage.renew_leases = renew  # type: ignore[method-assign]
        await keeper.tick()  # the next renewal asks about both, and both are held
        assert tables.forgotten == [] and len(tables.by_id) == 2
    finally:
        await storage.close()


async def test_a_game_that_stored_its_results_and_still_announces_them_is_not_taken_for_lost(
    tmp_path: Path,
) -> None:
    """The renewal lets go of the leases of ended games; a table still posting its results and final
    standings must not be stopped as if another process had taken its game over (its ending was lost)."""
    storage = await Storage.open(str(tmp_path / "bot.db"))
    try:
        tables = Tables()
        keeper = LeaseKeeper(SimpleNamespace(storage=storage), tables, (0,), 1)  # type: ignore[arg-type]
        storage.hold_leases_as(keeper.owner, 20)
        ending = await storage.create_game("hotstreak", 5, 10, 7, {}, [])
        lost = await storage.create_game("hotstreak", 5, 11, 7, {}, [])
        announcing = a_table(tables, ending)
        announcing.settled = True  # its results are stored; its messages are still on their way
        tables.by_id[ending] = announcing
        tables.by_id[lost] = a_table(tables, lost)
        assert await storage.finish_game(ending, [])
        await storage.release_lease(lost)  # as if another process had taken it over
        await keeper.tick()
        assert tables.forgotten == [lost] and ending in tables.by_id
    finally:
        await storage.close()


async def test_a_database_error_during_a_takeover_is_retried_and_only_a_bad_game_is_given_up(
    tmp_path: Path,
) -> None:
    """Issue 26, point 6: the database failing while a free game is taken over does not orphan the
    game (it is tried again at the next tick); a game of an unknown kind is given up, once."""
    storage = await Storage.open(str(tmp_path / "bot.db"))
    try:
        unknown = await storage.create_game("chess", 5, 10, 7, {}, [])  # made with no lease: free
        sound = await storage.create_game("hotstreak", 5, 11, 7, {}, [])

        async def refresh(guild_id: int) -> str:
            return "en"

        host = SimpleNamespace(storage=storage, languages=SimpleNamespace(refresh=refresh))
        directory = Directory(host)
        keeper = LeaseKeeper(host, directory, (0,), 1)
        resuming = Resuming(
            directory,
            Endings(directory),
            dict(CATALOG),
            lambda *a, **k: None,  # type: ignore[arg-type]
            get_channel=lambda channel_id: None,
            pacer=None,  # type: ignore[arg-type]
            may_drive=keeper.may_drive,
        )
        keeper.resume = resuming.resume_all
        storage.hold_leases_as(keeper.owner, 20)
        take = storage.acquire_lease
        tried: list[int] = []

        async def take_but_fail_on_the_sound_one(game_id: int) -> bool:
            tried.append(game_id)
            if game_id == sound:
                raise StorageError("Could not take the lease: the database is down.")
            return await take(game_id)

        storage.acquire_lease = take_but_fail_on_the_sound_one  # type: ignore[method-assign]
        await keeper.tick()
        await storage.release_lease(unknown)  # its lease runs out: free again, but given up
        await keeper.tick()
        assert tried == [unknown, sound, sound]
        assert resuming.given_up == {unknown} and keeper._given_up == {unknown}
    finally:
        await storage.close()
