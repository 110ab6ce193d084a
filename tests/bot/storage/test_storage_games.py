"""Games and their action logs: stored whole, each action once, ends settled exactly once."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import StakeRecord, StaleAction, Storage, StorageError
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock, result, seats

GUILD, CHANNEL = 111, 222
BIG_SEED = 2**70 + 12345  # a seed wider than SQLite's integers still round-trips


async def new_game(
    storage: Storage, *users: int | None, channel: int = CHANNEL, status: str = "running"
) -> int:
    return await storage.create_game(
        "hotstreak", GUILD, channel, 7, {"races": 3}, seats(*users), status=status
    )


def action(n: int) -> dict:
    return {"player": n % 2, "kind": "bet", "choice": f"gobbler:{n}"}


async def test_a_game_round_trips_with_its_actions_in_order(storage: Storage, clock: Clock) -> None:
    game_id = await storage.create_game(
        "hotstreak", GUILD, CHANNEL, BIG_SEED, {"races": 3, "deck": [1, 2]}, seats(5, None),
        status="lobby", meta={"message_id": 99, "deadline": 1.5e9},
    )  # fmt: skip
    for n in range(3):
        clock.advance(10)
        await storage.append_action(game_id, n, action(n))
    game = await storage.load_game(game_id)
    assert game is not None
    assert (game.id, game.kind, game.guild_id, game.channel_id, game.seed) == (
        game_id, "hotstreak", GUILD, CHANNEL, BIG_SEED,
    )  # fmt: skip
    assert game.settings == {"races": 3, "deck": [1, 2]}
    assert game.seats == seats(5, None)
    assert game.actions == [action(0), action(1), action(2)]
    assert game.status == "lobby"
    assert game.meta == {"message_id": 99, "deadline": 1.5e9}
    assert game.created_at == clock.now - 30
    assert game.updated_at == clock.now


async def test_loading_a_missing_game_gives_none(storage: Storage) -> None:
    assert await storage.load_game(404) is None


async def test_a_taken_sequence_number_is_a_stale_action_and_changes_nothing(
    storage: Storage, clock: Clock, database: Database
) -> None:
    game_id = await new_game(storage, 5)
    await storage.append_action(game_id, 0, action(0))
    before = await storage.load_game(game_id)
    clock.advance(5)
    with pytest.raises(StaleAction, match="already stored"):
        await storage.append_action(game_id, 0, {"player": 0, "kind": "bet", "choice": "double click"})
    assert await storage.load_game(game_id) == before
    assert await database.count_rows("actions") == 1


async def test_a_gap_in_the_log_is_refused(storage: Storage, database: Database) -> None:
    game_id = await new_game(storage, 5)
    with pytest.raises(StorageError, match="gap") as caught:
        await storage.append_action(game_id, 1, action(1))
    assert not isinstance(caught.value, StaleAction)
    assert await database.count_rows("actions") == 0


async def test_an_action_for_a_missing_game_is_refused(storage: Storage) -> None:
    with pytest.raises(StorageError, match="does not exist"):
        await storage.append_action(404, 0, action(0))


async def test_an_action_after_the_end_came_too_late(storage: Storage) -> None:
    game_id = await new_game(storage, 5)
    await storage.close_game(game_id, "cancelled", "host left")
    with pytest.raises(StaleAction, match="came too late"):
        await storage.append_action(game_id, 0, action(0))


async def test_data_that_is_not_json_is_refused_before_writing(storage: Storage, database: Database) -> None:
    game_id = await new_game(storage, 5)
    with pytest.raises(ValueError, match="plain JSON"):
        await storage.append_action(game_id, 0, {"choice": object()})
    with pytest.raises(ValueError, match="plain JSON"):
        await storage.update_game(game_id, meta={"deadline": float("nan")})
    assert await database.count_rows("actions") == 0


async def test_update_replaces_meta_whole_and_moves_lobby_to_running(storage: Storage, clock: Clock) -> None:
    game_id = await new_game(storage, 5, status="lobby")
    await storage.update_game(game_id, meta={"a": 1, "b": 2})
    clock.advance(3)
    await storage.update_game(game_id, seats=seats(5, 6), status="running", meta={"c": 3})
    game = await storage.load_game(game_id)
    assert game is not None
    assert (game.status, game.meta, game.seats, game.updated_at) == (
        "running",
        {"c": 3},
        seats(5, 6),
        clock.now,
    )


async def test_an_ended_game_cannot_be_reopened_but_keeps_taking_meta(storage: Storage) -> None:
    game_id = await new_game(storage, 5)
    await storage.finish_game(game_id, [result(0, 5, 3, won=True)])
    with pytest.raises(StorageError, match="has ended"):
        await storage.update_game(game_id, status="running")
    await storage.update_game(game_id, meta={"final_message": 1})
    game = await storage.load_game(game_id)
    assert game is not None and (game.status, game.meta) == ("finished", {"final_message": 1})


async def test_ending_statuses_go_through_finish_or_close_only(storage: Storage) -> None:
    game_id = await new_game(storage, 5)
    with pytest.raises(ValueError, match="finish_game or close_game"):
        await storage.update_game(game_id, status="finished")
    with pytest.raises(ValueError, match="finish_game or close_game"):
        await storage.create_game("hotstreak", GUILD, CHANNEL, 1, {}, [], status="cancelled")
    with pytest.raises(ValueError, match="'cancelled' or 'abandoned'"):
        await storage.close_game(game_id, "finished", "no")
    with pytest.raises(ValueError, match="ends as one of"):
        await storage.finish_game(game_id, [], status="running")
    with pytest.raises(StorageError, match="does not exist"):
        await storage.update_game(404, meta={})


async def test_unfinished_games_are_the_lobbies_and_running_games_with_their_logs(storage: Storage) -> None:
    lobby = await new_game(storage, 1, status="lobby", channel=1)
    running = await new_game(storage, 2, channel=2)
    finished = await new_game(storage, 3, channel=3)
    cancelled = await new_game(storage, 4, channel=4)
    await storage.append_action(running, 0, action(0))
    await storage.append_action(running, 1, action(1))
    await storage.finish_game(finished, [result(0, 3, 1, won=True)])
    await storage.close_game(cancelled, "abandoned", "nobody played for an hour")
    games = await storage.unfinished_games()
    assert [(g.id, g.status) for g in games] == [(lobby, "lobby"), (running, "running")]
    assert games[0].actions == [] and games[1].actions == [action(0), action(1)]


async def test_the_active_game_of_a_channel(storage: Storage) -> None:
    assert await storage.active_game_in_channel(CHANNEL) is None
    game_id = await new_game(storage, 5)
    await storage.append_action(game_id, 0, action(0))
    found = await storage.active_game_in_channel(CHANNEL)
    assert found is not None and found.id == game_id and found.actions == [action(0)]
    assert await storage.active_game_in_channel(CHANNEL + 1) is None
    await storage.close_game(game_id, "cancelled", "host cancelled")
    assert await storage.active_game_in_channel(CHANNEL) is None


async def test_the_active_game_of_a_user_is_found_by_seat_in_that_guild(storage: Storage) -> None:
    big_user = 987654321098765432  # a real-sized Discord snowflake
    game_id = await new_game(storage, 5, None, big_user, status="lobby")
    for user in (5, big_user):
        found = await storage.active_game_of_user(GUILD, user)
        assert found is not None and found.id == game_id
    assert await storage.active_game_of_user(GUILD, 6) is None
    assert await storage.active_game_of_user(GUILD + 1, 5) is None
    await storage.finish_game(game_id, [result(0, 5, 2, won=True)])
    assert await storage.active_game_of_user(GUILD, 5) is None


async def test_finishing_writes_results_once(storage: Storage, database: Database) -> None:
    game_id = await new_game(storage, 5, None)
    stakes = [StakeRecord("Red, risky", "won", 6), StakeRecord("Rain before noon: yes", "lost", 0)]
    results = [result(0, 5, 4, won=True, stakes=stakes), result(1, None, -2, place=2)]
    assert await storage.finish_game(game_id, results) is True
    counts = {table: await database.count_rows(table) for table in ("results", "stakes", "player_totals")}
    assert counts == {"results": 2, "stakes": 2, "player_totals": 1}
    assert await storage.finish_game(game_id, results) is False
    assert await storage.finish_game(game_id, [result(0, 5, 400, won=True)]) is False
    assert {table: await database.count_rows(table) for table in counts} == counts
    assert await storage.lifetime_net(GUILD, "hotstreak", [5]) == {5: 4}
    assert await storage.game_results(game_id) == results
    game = await storage.load_game(game_id)
    assert game is not None and game.status == "finished"


async def test_a_game_without_results_is_settled_once_too(storage: Storage) -> None:
    game_id = await new_game(storage, None)
    assert await storage.finish_game(game_id, []) is True
    assert await storage.finish_game(game_id, [result(0, 5, 1)]) is False


async def test_a_closed_game_is_never_settled_and_a_settled_game_never_closed(storage: Storage) -> None:
    closed = await new_game(storage, 5, channel=1)
    await storage.close_game(closed, "cancelled", "host cancelled")
    assert await storage.finish_game(closed, [result(0, 5, 3, won=True)]) is False
    settled = await new_game(storage, 5, channel=2)
    await storage.finish_game(settled, [result(0, 5, 3, won=True)])
    await storage.close_game(settled, "abandoned", "a late timeout")
    game = await storage.load_game(settled)
    assert game is not None and game.status == "finished"
    assert await storage.lifetime_net(GUILD, "hotstreak", [5]) == {5: 3}


async def test_finish_refuses_a_missing_game_and_duplicate_seats(storage: Storage) -> None:
    with pytest.raises(StorageError, match="does not exist"):
        await storage.finish_game(404, [])
    game_id = await new_game(storage, 5)
    with pytest.raises(ValueError, match="seat twice"):
        await storage.finish_game(game_id, [result(0, 5, 1), result(0, 6, 1)])


async def test_a_closed_storage_says_so(storage: Storage) -> None:
    await storage.close()
    await storage.close()  # harmless twice
    with pytest.raises(StorageError, match="closed"):
        await storage.load_game(1)


async def test_a_double_click_stores_the_action_once(storage: Storage, database: Database) -> None:
    game_id = await new_game(storage, 5)
    clicks = [storage.append_action(game_id, 0, action(n)) for n in range(2)]
    outcomes = await asyncio.gather(*clicks, return_exceptions=True)
    assert sum(outcome is None for outcome in outcomes) == 1
    assert sum(isinstance(outcome, StaleAction) for outcome in outcomes) == 1
    assert await database.count_rows("actions") == 1


async def test_concurrent_settlements_pay_once(storage: Storage, database: Database) -> None:
    game_id = await new_game(storage, 5, 6)
    results = [result(0, 5, 3, won=True), result(1, 6, -3, place=2)]
    outcomes = await asyncio.gather(*(storage.finish_game(game_id, results) for _ in range(3)))
    assert sorted(outcomes) == [False, False, True]
    assert await database.count_rows("results") == 2


async def test_settings_are_fixed_at_start_and_frozen_once_the_game_has_an_action(storage: Storage) -> None:
    game_id = await new_game(storage, 5, status="lobby")
    await storage.update_game(game_id, status="running", settings={"races": 3, "engine": {"first_better": 1}})
    stored = await storage.load_game(game_id)
    assert stored is not None and stored.settings["engine"] == {"first_better": 1}
    await storage.append_action(game_id, 0, action(0))
    with pytest.raises(StorageError, match="settings can no longer change"):
        await storage.update_game(game_id, settings={"races": 1})
    stored = await storage.load_game(game_id)
    assert stored is not None and stored.settings["engine"] == {"first_better": 1}


async def test_a_game_that_ended_long_ago_is_settled_when_found_and_counts_when_it_was_played(
    storage: Storage, clock: Clock
) -> None:
    game_id = await new_game(storage, 5, 6)
    await storage.append_action(game_id, 0, action(0))
    played = clock.now
    clock.advance(9 * 86400)  # the bot was down for nine days after the last move
    results = [result(0, 5, 3, won=True), result(1, 6, -3, place=2)]
    assert await storage.finish_game(game_id, results) is True
    assert await storage.finish_game(game_id, results) is False
    (row,) = await storage.history(GUILD)
    assert row.finished_at == played  # on the board of the week it was played, not of today
    rows, _ = await storage.leaderboard(GUILD, "hotstreak", played, page=0)
    assert [(r.user_id, r.net) for r in rows] == [(5, 3), (6, -3)]
    across, _ = await storage.leaderboard(GUILD, None, played, page=0)  # across games: by wins, no money
    assert [(r.user_id, r.net) for r in across] == [(5, None), (6, None)]
    assert (await storage.leaderboard(GUILD, None, played + 1, page=0))[1] == 0
