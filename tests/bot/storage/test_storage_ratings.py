"""Ratings as stored (bot/storage/ratings.py) on real databases (SQLite and PostgreSQL): a settled game
rates its people once, in the transaction of its results; ratings survive a restart, equal a
recomputation from the stored results, and stay equal to it after a person erases their data."""

from __future__ import annotations

import asyncio

import pytest

from bot.ratings import NEWCOMER, Finish, rate
from bot.storage import ACROSS_GAMES, Storage
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock, result, seats

ANA, BIA, CAI = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333


async def play(storage: Storage, kind: str, *finish: tuple[int | None, int]) -> int:
    """A finished game whose seats end at these (person or None for an easy AI, place)."""
    game_id = await storage.create_game(kind, 1, 10, 7, {}, seats(*(who for who, _place in finish)))
    await storage.finish_game(
        game_id, [result(i, who, 0, place=place, won=place == 1) for i, (who, place) in enumerate(finish)]
    )
    return game_id


async def test_a_game_rates_its_people_at_its_game_and_across_games(storage: Storage) -> None:
    await play(storage, "hotstreak", (ANA, 1), (None, 2), (BIA, 2), (CAI, 4))

    expected = rate([Finish(ANA, 1), Finish(None, 2, "easy"), Finish(BIA, 2), Finish(CAI, 4)], {})
    board, total = await storage.rating_board(1, "hotstreak", 0)
    assert total == 3
    assert [(r.user_id, r.shown, r.games) for r in board] == [
        (p, expected[p].shown, 1) for p in (ANA, BIA, CAI)
    ]
    assert [r.trend for r in board] == [expected[p].shown - NEWCOMER.shown for p in (ANA, BIA, CAI)]
    across, _ = await storage.rating_board(1, None, 0)
    assert [(r.user_id, r.shown) for r in across] == [(r.user_id, r.shown) for r in board]
    assert (await storage.rating_board(1, "downforce", 0)) == ([], 0)
    assert (await storage.rating_board(2, "hotstreak", 0)) == ([], 0)  # another server


async def test_a_person_alone_with_ai_seats_and_a_cancelled_game_rate_nobody(storage: Storage) -> None:
    await play(storage, "hotstreak", (ANA, 1), (None, 2))
    cancelled = await storage.create_game("hotstreak", 1, 10, 7, {}, seats(ANA, BIA))
    await storage.close_game(cancelled, "cancelled", "test")
    assert await storage.rating_board(1, None, 0) == ([], 0)
    assert await storage.player_ratings(1, ANA) == {}


async def test_settling_twice_rates_once(storage: Storage) -> None:
    game_id = await play(storage, "horserace", (ANA, 1), (BIA, 2))
    once = await storage.stored_ratings(1)
    assert not await storage.finish_game(game_id, [result(0, ANA, 0, place=1), result(1, BIA, 0, place=2)])
    assert await storage.stored_ratings(1) == once
    assert {skill.games for skill in once.values()} == {1}


async def test_ratings_survive_a_restart_and_equal_a_recomputation_from_the_results(
    database: Database, clock: Clock
) -> None:
    storage = await Storage.open(database.url, clock=clock)
    try:
        await play(storage, "hotstreak", (ANA, 1), (BIA, 2), (None, 3))
        await play(storage, "downforce", (BIA, 1), (CAI, 1), (ANA, 3))
        await play(storage, "hotstreak", (CAI, 1), (ANA, 2), (BIA, 2), (None, 4))
        await play(storage, "horserace", (ANA, 1), (CAI, 2))
        before = await storage.stored_ratings(1)
    finally:
        await storage.close()

    storage = await Storage.open(database.url, clock=clock)
    try:
        assert await storage.stored_ratings(1) == before
        assert await storage.recompute_ratings(1) == before
        assert before[(ACROSS_GAMES, ANA)].games == 4 and before[("hotstreak", ANA)].games == 2
        mine = await storage.player_ratings(1, ANA)
        assert sorted(mine) == [ACROSS_GAMES, "downforce", "horserace", "hotstreak"]
        assert mine["hotstreak"].shown == before[("hotstreak", ANA)].shown

        erased = await storage.erase_player(ANA)

        after = await storage.stored_ratings(1)
        assert await storage.recompute_ratings(1) == after
        assert after == {
            (kind, erased.pseudonym if person == ANA else person): skill
            for (kind, person), skill in before.items()
        }
        assert await storage.player_ratings(1, ANA) == {}
        for table in ("ratings", "rating_changes"):
            assert await database.fetch(f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", ANA) == [(0,)]
    finally:
        await storage.close()


@pytest.mark.parametrize("games", [7])
async def test_the_trend_is_the_change_over_the_last_five_games(storage: Storage, games: int) -> None:
    shown = [NEWCOMER.shown]
    for _ in range(games):
        await play(storage, "hotstreak", (ANA, 1), (BIA, 2))
        shown.append((await storage.player_ratings(1, ANA))["hotstreak"].shown)
    mine = (await storage.player_ratings(1, ANA))["hotstreak"]
    assert (mine.games, mine.shown, mine.trend) == (games, shown[-1], shown[-1] - shown[-6])


async def test_games_finished_before_ratings_are_rated_once_at_the_upgrade(
    database: Database, clock: Clock
) -> None:
    storage = await Storage.open(database.url, clock=clock)
    try:
        await play(storage, "hotstreak", (ANA, 1), (BIA, 2), (None, 3))
        clock.advance(60)
        await play(storage, "hotstreak", (BIA, 1), (ANA, 2), (CAI, 3))
        rated = await storage.stored_ratings(1)
    finally:
        await storage.close()
    # The database as migration 9 leaves one whose games were settled before it: no ratings, one row
    # saying the games are still to be rated.
    for table in ("rating_changes", "rated_games", "ratings"):
        await database.execute(f"DELETE FROM {table}")
    await database.execute("INSERT INTO ratings_backfill (pending) VALUES (1)")

    for _restart in range(2):  # the second start finds nothing left to do
        storage = await Storage.open(database.url, clock=clock)
        try:
            assert await storage.stored_ratings(1) == rated
            assert await storage.recompute_ratings(1) == rated
        finally:
            await storage.close()
    assert await database.fetch("SELECT COUNT(*) FROM ratings_backfill") == [(0,)]


async def test_games_settled_at_once_by_two_processes_rate_as_a_recomputation_does(
    pg: Database, clock: Clock
) -> None:
    """PostgreSQL (several processes share one database; a SQLite file has one): two processes settle
    eight games sharing people at the same moment. Each game waits for the ratings of the people it
    shares, and the order they were rated in is the one a recomputation replays."""
    first = await Storage.open(pg.url, clock=clock)
    second = await Storage.open(pg.url, clock=clock)
    try:
        tables = [(ANA, BIA), (BIA, CAI), (CAI, ANA), (ANA, BIA, CAI)] * 2
        # Open side by side (one open table per person: the seats are stored without people here; the
        # results name them, as for a person who left a table and joined another).
        games = [
            await first.create_game("hotstreak", 1, 10 + i, 7, {}, seats(*(None for _ in people)))
            for i, people in enumerate(tables)
        ]
        await asyncio.gather(
            *(
                (first if i % 2 else second).finish_game(
                    game_id, [result(seat, who, 0, place=seat + 1) for seat, who in enumerate(people)]
                )
                for i, (game_id, people) in enumerate(zip(games, tables, strict=True))
            )
        )
        stored = await first.stored_ratings(1)
        assert stored[(ACROSS_GAMES, ANA)].games == 6
        assert await second.recompute_ratings(1) == stored
    finally:
        await first.close()
        await second.close()
