"""``Storage.erase_player`` (``/privacy erase``) on real databases (SQLite, and PostgreSQL when
TEST_POSTGRES_URL names a server): results stay for the others' standings under a pseudonym, games and
standings carry the pseudonym, routed clicks go, and nothing changes while the person is at a table."""

from __future__ import annotations

import pytest

from bot.storage import RoutedClick, Storage, StorageError
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import result, seats

ALICE, BOB = 111_111_111_111_111_111, 222_222_222_222_222_222


async def finished(storage: Storage, kind: str = "hotstreak") -> int:
    game_id = await storage.create_game(
        kind, 1, 10, 7, {"host_id": ALICE}, seats(ALICE, BOB, None), meta={"dm_closed": [ALICE]}
    )
    await storage.finish_game(
        game_id, [result(0, ALICE, 5, won=True), result(1, BOB, -3, place=2), result(2, None, 0, place=3)]
    )
    return game_id


async def test_erasure_keeps_the_others_standings_under_one_pseudonym(
    storage: Storage, database: Database
) -> None:
    first, second = await finished(storage), await finished(storage)
    await storage.route_click(RoutedClick(99, first, ALICE, "x", None, 5, "token"))
    before = await storage.leaderboard(1, "hotstreak", None, 0, 10)

    erased = await storage.erase_player(ALICE)

    assert not erased.seated and erased.pseudonym < 0 and erased.name.startswith("Erased player ")
    assert (erased.results, erased.games, erased.clicks) == (2, 2, 1)
    after = await storage.leaderboard(1, "hotstreak", None, 0, 10)
    rows = before[0]
    assert [(r.rank, r.net, r.games, r.wins) for r in after[0]] == [
        (r.rank, r.net, r.games, r.wins) for r in rows
    ]
    assert {r.user_id for r in after[0]} == {erased.pseudonym, BOB}
    assert {r.name for r in after[0]} == {erased.name, f"User {BOB}"}
    assert await storage.player_stats(1, ALICE) == []
    assert [(g.games, g.wins) for g in await storage.player_stats(1, erased.pseudonym)] == [(2, 2)]
    for table, column in (("results", "user_id"), ("player_totals", "user_id"), ("player_months", "user_id"),
                          ("player_names", "user_id"), ("routed_clicks", "user_id")):  # fmt: skip
        assert await database.fetch(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", ALICE) == [(0,)]
    for text in await database.fetch("SELECT seats || settings || meta FROM games"):
        assert str(ALICE) not in text[0] and "User 111" not in text[0]
        assert str(erased.pseudonym) in text[0]
    game = await storage.load_game(first)
    assert game is not None
    assert game.seats[0] == {"user_id": erased.pseudonym, "name": erased.name, "ai": None}
    assert game.seats[1]["user_id"] == BOB
    assert [r.name for r in await storage.game_results(second)][:2] == [erased.name, f"User {BOB}"]
    assert (await storage.erase_player(ALICE)).results == 0  # nothing left: a second erasure changes nothing


async def test_results_stay_final_but_for_the_person_they_name(storage: Storage, database: Database) -> None:
    game_id = await finished(storage)
    for change in ("net = net + 1", "won = 0", "user_id = 5 WHERE user_id IS NULL AND 1 = 1"):
        sql = f"UPDATE results SET {change}" + ("" if "WHERE" in change else " WHERE game_id = ?")
        with pytest.raises(Exception, match="results are final"):
            await database.execute(sql, *(() if "WHERE" in change else (game_id,)))
    with pytest.raises(Exception, match="results are final"):
        await database.execute("DELETE FROM results WHERE game_id = ?", game_id)


async def test_no_erasure_while_seated_or_hosting_an_open_table(storage: Storage) -> None:
    await finished(storage)
    lobby = await storage.create_game("horserace", 1, 11, 7, {"host_id": BOB}, seats(ALICE), status="lobby")
    assert await storage.at_open_table(ALICE) and await storage.at_open_table(BOB)
    assert (await storage.erase_player(ALICE)).seated
    assert (await storage.erase_player(BOB)).seated  # hosts the lobby without a seat
    assert [r.user_id for r in await storage.game_results(1)][:2] == [ALICE, BOB]
    await storage.close_game(lobby, "cancelled", "test")
    assert not await storage.at_open_table(ALICE)
    left = [{"user_id": None, "name": f"User {ALICE} (AI)", "ai": "normal", "left_user_id": ALICE}]
    running = await storage.create_game("hotstreak", 1, 12, 7, {"host_id": BOB}, left)
    assert (await storage.erase_player(ALICE)).seated  # the AI plays their seat, for them
    await storage.close_game(running, "abandoned", "test")
    erased = await storage.erase_player(ALICE)
    game = await storage.load_game(running)
    assert game is not None and game.seats[0]["left_user_id"] == erased.pseudonym
    assert game.seats[0]["name"] == f"{erased.name} (AI)"
    assert not (await storage.erase_player(ALICE)).seated


async def test_an_erasure_that_fails_changes_nothing(storage: Storage, database: Database) -> None:
    await finished(storage)
    await database.execute("DROP TABLE routed_clicks")  # the last step fails
    with pytest.raises(StorageError):
        await storage.erase_player(ALICE)
    assert await database.fetch("SELECT COUNT(*) FROM results WHERE user_id = ?", ALICE) == [(1,)]
