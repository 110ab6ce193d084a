"""A game belongs to the shard of its guild, as Discord routes the guild's events; a process drives only
the games of its own shards whose lease it can take."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from bot.storage import Storage, StoredGame
from bot.tables.lease import LeaseKeeper, shard_of

SHARD_1_OF_2 = (1 << 22) * 3  # (id >> 22) % 2 == 1


def test_a_guild_belongs_to_the_shard_discord_sends_its_events_to() -> None:
    assert [shard_of((n << 22) + 12345, 4) for n in range(6)] == [0, 1, 2, 3, 0, 1]
    assert shard_of(SHARD_1_OF_2, 1) == 0  # unsharded: everything is shard 0


async def test_a_process_resumes_only_its_own_shards_games_and_only_with_their_lease(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "bot.db"))
    try:
        zero = LeaseKeeper(SimpleNamespace(storage=storage), (0,), 2)  # type: ignore[arg-type]
        one = LeaseKeeper(SimpleNamespace(storage=storage), (1,), 2)  # type: ignore[arg-type]
        storage.hold_leases_as(one.owner, 20)
        game_id = await storage.create_game("hotstreak", SHARD_1_OF_2, 10, 7, {}, [])
        game = await storage.load_game(game_id)
        assert isinstance(game, StoredGame)
        storage.hold_leases_as(zero.owner, 20)
        assert not await zero.may_drive(game)  # another shard's game
        other_one = LeaseKeeper(SimpleNamespace(storage=storage), (1,), 2)  # type: ignore[arg-type]
        storage.hold_leases_as(other_one.owner, 20)
        assert not await other_one.may_drive(game)  # shard 1 too, but the first process holds the lease
        storage.hold_leases_as(one.owner, 20)
        assert await one.may_drive(game)
    finally:
        await storage.close()
