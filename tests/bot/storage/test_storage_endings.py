"""A game's ending is stored apart from its results (migration 6): settled then posted, on both databases."""

from __future__ import annotations

from bot.storage import Storage
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock, result, seats


async def test_an_ending_settled_but_not_posted_is_listed_until_marked(
    storage: Storage, clock: Clock
) -> None:
    storage.hold_leases_as("me", 30.0)
    told = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5, 6))
    untold = await storage.create_game("hotstreak", 1, 3, 3, {}, seats(5, 6))
    await storage.append_action(untold, 0, {"n": 0})
    results = [result(0, 5, 3, won=True), result(1, 6, -3, place=2)]
    assert await storage.finish_game(told, results)  # a tool's settlement: nothing to post
    assert await storage.finish_game(untold, results, announced=False)
    [game] = await storage.unannounced_games()
    assert (game.id, game.status, game.actions) == (untold, "finished", [{"n": 0}])
    # Until its ending is posted its lease is kept (it says which process posts it); then let go.
    assert await storage.renew_leases([untold]) == {untold}
    assert await storage.free_games() == []  # its lease is live
    clock.advance(31.0)
    assert await storage.free_games() == [(untold, 1)]  # a killed process's: another may post it
    await storage.mark_announced(untold)
    assert await storage.unannounced_games() == []
    assert await storage.lease_of(untold) is None
    await storage.mark_announced(untold)  # twice is harmless
    assert await storage.finish_game(untold, results) is False  # and it is settled once


async def test_games_settled_by_the_previous_release_count_as_told(
    storage: Storage, database: Database
) -> None:
    game_id = await storage.create_game("hotstreak", 1, 2, 3, {}, seats(5))
    # The previous release's finish_game, running against this schema (a rolling restart): it does
    # not know the column, which stays NULL.
    await database.execute(
        "UPDATE games SET status = 'finished', settled = 1, ended_at = 1, updated_at = 1 WHERE id = ?",
        game_id,
    )
    assert await storage.unannounced_games() == []
