"""Leaderboards, player records, history and lifetime winnings, per guild; AI seats never ranked."""

from __future__ import annotations

import pytest

from bot.storage import LeaderRow, PlayerResult, StakeRecord, Storage, period_start
from tests.bot.storage.storage_support import DAY, START, Clock, result, seats

GUILD = 1
OTHER_GUILD = 2


async def play(
    storage: Storage, results: list[PlayerResult], *, kind: str = "hotstreak", guild: int = GUILD
) -> int:
    """A game in ``guild`` that ends at the clock's now with ``results``."""
    game_id = await storage.create_game(kind, guild, 10, 1, {}, seats(*(r.user_id for r in results)))
    assert await storage.finish_game(game_id, results)
    return game_id


def board(rows: list[LeaderRow]) -> list[tuple[int, int, int | None]]:
    return [(row.rank, row.user_id, row.net) for row in rows]


async def test_the_board_ranks_by_net_winnings_and_ignores_ai_seats(storage: Storage) -> None:
    await play(storage, [result(0, 1, 5, won=True), result(1, 2, -3), result(2, None, 50, won=True)])
    await play(storage, [result(0, 2, 2, won=True), result(1, 3, 1)])
    rows, total = await storage.leaderboard(GUILD, "hotstreak", None, page=0)
    assert total == 3
    assert board(rows) == [(1, 1, 5), (2, 3, 1), (3, 2, -1)]
    assert (rows[2].games, rows[2].wins, rows[2].win_rate) == (2, 1, 0.5)


async def test_equal_net_goes_to_more_wins_then_fewer_games(storage: Storage) -> None:
    await play(storage, [result(0, 1, 4), result(1, 2, 4, won=True)])
    await play(storage, [result(0, 3, 2, won=True), result(1, 4, 0)])
    await play(storage, [result(0, 3, 2), result(1, 4, 4)])
    rows, _ = await storage.leaderboard(GUILD, "hotstreak", None, page=0)
    # all on $4: user 2 (1 win in 1 game), 3 (1 win in 2), 1 (no win in 1), 4 (no win in 2)
    assert [(row.user_id, row.net) for row in rows] == [(2, 4), (3, 4), (1, 4), (4, 4)]


async def test_the_board_shows_the_latest_name(storage: Storage, clock: Clock) -> None:
    await play(storage, [result(0, 1, 1, name="Old name")])
    clock.advance(60)
    await play(storage, [result(0, 1, 1, name="New name")])
    rows, _ = await storage.leaderboard(GUILD, "hotstreak", START, page=0)
    assert rows[0].name == "New name"


async def test_pages_count_from_zero_and_report_the_total(storage: Storage) -> None:
    await play(storage, [result(seat, 100 + seat, 20 - seat) for seat in range(8)])
    first, total = await storage.leaderboard(GUILD, "hotstreak", None, page=0, per_page=3)
    third, _ = await storage.leaderboard(GUILD, "hotstreak", None, page=2, per_page=3)
    beyond, total_beyond = await storage.leaderboard(GUILD, "hotstreak", None, page=3, per_page=3)
    assert total == total_beyond == 8
    assert board(first) == [(1, 100, 20), (2, 101, 19), (3, 102, 18)]
    assert board(third) == [(7, 106, 14), (8, 107, 13)]
    assert beyond == []
    assert await storage.leaderboard(GUILD, "hotstreak", None, page=-1, per_page=3) == (first, 8)


async def test_boards_per_game_kind_and_for_all_games(storage: Storage) -> None:
    await play(storage, [result(0, 1, 5), result(1, 2, 1)], kind="hotstreak")
    await play(storage, [result(0, 1, -9), result(1, 3, 2)], kind="horserace")
    assert board((await storage.leaderboard(GUILD, "hotstreak", None, 0))[0]) == [(1, 1, 5), (2, 2, 1)]
    assert board((await storage.leaderboard(GUILD, "horserace", None, 0))[0]) == [(1, 3, 2), (2, 1, -9)]
    rows, total = await storage.leaderboard(GUILD, None, None, 0)
    # across games by wins (none here), then fewer games: user 1 played two
    assert (board(rows), total) == ([(1, 2, None), (2, 3, None), (3, 1, None)], 3)
    assert rows[2].games == 2


async def test_the_board_across_games_never_adds_their_money_and_ranks_by_wins(storage: Storage) -> None:
    """Downforce counts millions, the others dollars: across games only wins are comparable."""
    await play(storage, [result(0, 1, 8, won=True), result(1, 2, -3)], kind="downforce")
    await play(storage, [result(0, 2, 40, won=True), result(1, 1, -2)], kind="hotstreak")
    await play(storage, [result(0, 2, 5, won=True), result(1, 3, 90)], kind="horserace")
    for since in (None, START, START - 1):  # all time, a month (monthly totals), any other period
        rows, total = await storage.leaderboard(GUILD, None, since, 0)
        assert total == 3
        # user 2: 2 wins; user 1: 1 win in 2 games; user 3: no win (however much money)
        assert [(r.user_id, r.wins, r.games, r.net) for r in rows] == [
            (2, 2, 3, None),
            (1, 1, 2, None),
            (3, 0, 1, None),
        ]


@pytest.mark.parametrize("kind", [None, "hotstreak"])
async def test_a_period_board_counts_only_games_since_then(
    storage: Storage, clock: Clock, kind: str | None
) -> None:
    await play(storage, [result(0, 1, 50, won=True), result(1, 2, 1)])  # long ago
    clock.advance(40 * DAY)
    since = clock.now - DAY
    await play(storage, [result(0, 2, 3, won=True), result(1, 3, 2)])
    await play(storage, [result(0, 1, -1)], kind="horserace")
    rows, total = await storage.leaderboard(GUILD, kind, since, page=0)
    if kind is None:  # across games: by wins, no money
        expected: list[tuple[int, int, int | None]] = [(1, 2, None), (2, 1, None), (3, 3, None)]
    else:
        expected = [(1, 2, 3), (2, 3, 2)]
    assert (board(rows), total) == (expected, len(expected))
    all_time, _ = await storage.leaderboard(GUILD, kind, None, page=0)
    assert all_time[0].user_id == 1


async def test_boards_belong_to_their_guild(storage: Storage) -> None:
    await play(storage, [result(0, 1, 5)], guild=OTHER_GUILD)
    await play(storage, [result(0, 2, 1)])
    assert board((await storage.leaderboard(GUILD, None, None, 0))[0]) == [(1, 2, None)]
    assert board((await storage.leaderboard(OTHER_GUILD, "hotstreak", 0.0, 0))[0]) == [(1, 1, 5)]
    assert await storage.leaderboard(3, None, None, 0) == ([], 0)


def stakes(*specs: tuple[str, str]) -> list[StakeRecord]:
    return [StakeRecord(label, outcome, 2 if outcome == "won" else 0) for label, outcome in specs]


async def test_player_stats_hold_totals_best_favourite_and_stakes_won_and_lost(
    storage: Storage, clock: Clock
) -> None:
    await play(storage, [result(0, 1, 6, won=True, stakes=stakes(("Red", "won"), ("Rain", "won")))])
    clock.advance(60)
    await play(storage, [result(0, 1, -2, stakes=stakes(("Blue", "lost"), ("Red", "lost"), ("Sun", "lost")))])
    clock.advance(60)
    await play(storage, [result(0, 1, 1, stakes=stakes(("Blue", "won"), ("Sun", "pushed")))])
    await play(storage, [result(0, 1, -5)], kind="horserace")
    await play(storage, [result(0, 1, 99, won=True)], guild=OTHER_GUILD)
    hotstreak, horserace = await storage.player_stats(GUILD, 1)
    assert hotstreak.kind == "hotstreak"
    assert (hotstreak.games, hotstreak.wins, hotstreak.total_net, hotstreak.best_net) == (3, 1, 5, 6)
    assert hotstreak.favourite_stake == "Blue"  # Blue 2, Red 2, Sun 2: the tie goes alphabetically
    assert (hotstreak.stakes_won, hotstreak.stakes_lost) == (
        3,
        3,
    )  # an outcome other than won/lost counts as neither
    assert (horserace.games, horserace.favourite_stake, horserace.best_net) == (1, None, -5)


async def test_a_newcomer_has_no_stats(storage: Storage) -> None:
    assert await storage.player_stats(GUILD, 1) == []


@pytest.mark.parametrize(
    ("wins_oldest_first", "streak"),
    [
        ([True], 1),
        ([False], -1),
        ([False, True, True], 2),
        ([True, False, False, False], -3),
        ([True, False], -1),
    ],
)
async def test_the_streak_is_the_current_run(
    storage: Storage, clock: Clock, wins_oldest_first: list[bool], streak: int
) -> None:
    for won in wins_oldest_first:
        clock.advance(60)
        await play(storage, [result(0, 1, 1 if won else -1, won=won)])
    (stats,) = await storage.player_stats(GUILD, 1)
    assert stats.streak == streak


async def test_history_lists_finished_games_newest_first(storage: Storage, clock: Clock) -> None:
    first = await play(storage, [result(0, 1, 3, won=True), result(1, None, 0)])
    clock.advance(60)
    second = await play(storage, [result(0, 1, 3, won=True), result(1, 2, 3, won=True), result(2, 3, -6)])
    cancelled = await storage.create_game("hotstreak", GUILD, 10, 1, {}, seats(1))
    await storage.close_game(cancelled, "cancelled", "host left")
    await play(storage, [result(0, 5, 1, won=True)], guild=OTHER_GUILD)
    rows = await storage.history(GUILD)
    assert [(r.game_id, r.winners, r.players, r.finished_at) for r in rows] == [
        (second, ["User 1", "User 2"], 3, clock.now),
        (first, ["User 1"], 2, clock.now - 60),
    ]
    assert [r.game_id for r in await storage.history(GUILD, limit=1)] == [second]


async def test_lifetime_net_per_kind_with_newcomers_at_zero(storage: Storage) -> None:
    await play(storage, [result(0, 1, 5), result(1, 2, -3)])
    await play(storage, [result(0, 1, -1), result(1, None, 9)])
    await play(storage, [result(0, 2, 40)], kind="horserace")
    await play(storage, [result(0, 3, 40)], guild=OTHER_GUILD)
    assert await storage.lifetime_net(GUILD, "hotstreak", [1, 2, 3]) == {1: 4, 2: -3, 3: 0}
    assert await storage.lifetime_net(GUILD, "hotstreak", []) == {}


def test_period_start_is_the_utc_calendar_week_and_month() -> None:
    friday_noon = 1_767_960_000.0  # Friday 2026-01-09 12:00 UTC
    assert period_start("all", friday_noon) is None
    assert period_start("week", friday_noon) == 1_767_571_200.0  # Monday 2026-01-05 00:00 UTC
    assert period_start("month", friday_noon) == START  # 2026-01-01 00:00 UTC
    with pytest.raises(ValueError, match="unknown period"):
        period_start("year", friday_noon)


@pytest.mark.parametrize("kind", [None, "hotstreak"])
async def test_a_board_since_a_month_start_matches_one_since_any_moment(
    storage: Storage, clock: Clock, kind: str | None
) -> None:
    # Since a UTC month start the board reads the monthly totals; since any other moment it groups
    # the results themselves. Both must tell the same story.
    clock.now = START - 3 * DAY  # December
    await play(storage, [result(0, 1, 30, won=True), result(1, 2, 4)])
    clock.now = START + 2 * DAY  # January
    await play(storage, [result(0, 2, 3, won=True), result(1, 3, -2)])
    await play(storage, [result(0, 1, -1), result(1, 3, 5, won=True)], kind="horserace")
    clock.now = START + 20 * DAY
    await play(storage, [result(0, 3, 1), result(1, 2, -1)])
    january = period_start("month", clock.now)
    assert january == START
    from_months = await storage.leaderboard(GUILD, kind, january, page=0)
    from_results = await storage.leaderboard(GUILD, kind, january - 0.5, page=0)
    assert from_months == from_results
    expected = [(1, 2, None), (2, 3, None), (3, 1, None)] if kind is None else [(1, 2, 2), (2, 3, -1)]
    assert board(from_months[0]) == expected
    december = period_start("month", START - DAY)
    assert board((await storage.leaderboard(GUILD, kind, december, 0))[0])[0] == (1, 1, 30 if kind else None)
