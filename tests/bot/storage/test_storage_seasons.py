"""Seasons as stored (bot/storage/seasons.py) on SQLite and PostgreSQL: a season's recap is claimed once
whoever asks, a claim left unposted is taken over later, and ratings start each season from a soft reset
that a recomputation from the results makes again."""

from __future__ import annotations

import asyncio

from bot import ratings
from bot.storage import ACROSS_GAMES, Storage
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock, result, seats
from tests.bot.test_seasons import utc

ANA, BIA, CAI = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333
GUILD = 1
STALE = 60.0


async def play(storage: Storage, kind: str, *finish: tuple[int | None, int], net: int = 5) -> int:
    game_id = await storage.create_game(kind, GUILD, 10, 7, {}, seats(*(who for who, _p in finish)))
    await storage.finish_game(
        game_id,
        [
            result(i, who, net if place == 1 else -net, place=place, won=place == 1)
            for i, (who, place) in enumerate(finish)
        ],
    )
    return game_id


async def test_a_new_season_soft_resets_the_ratings_and_a_recomputation_agrees(
    database: Database, clock: Clock
) -> None:
    clock.now = utc(2026, 11, 10)
    storage = await Storage.open(database.url, clock=clock)
    try:
        await play(storage, "hotstreak", (ANA, 1), (BIA, 2), (None, 3))
        await play(storage, "horserace", (ANA, 1), (CAI, 2))
        november = await storage.stored_ratings(GUILD)
        assert not await storage.season_reset(GUILD, utc(2026, 11, 30))  # still November

        clock.now = utc(2026, 12, 2)  # the first game of December is rated after the reset
        await play(storage, "hotstreak", (CAI, 1), (BIA, 2))
        after = await storage.stored_ratings(GUILD)
        assert after[("hotstreak", ANA)] == ratings.soft_reset(november[("hotstreak", ANA)])
        # The shown rating keeps three quarters of its distance from 1,500 (give or take its rounding).
        was, now = november[(ACROSS_GAMES, ANA)].shown, after[(ACROSS_GAMES, ANA)].shown
        assert abs((now - 1500) - 0.75 * (was - 1500)) <= 1
        assert not await storage.season_reset(GUILD, utc(2026, 12, 20))  # once per season

        # January's reset made by the season check before any game, then a game, then February's.
        assert await storage.season_reset(GUILD, utc(2027, 1, 1, 0, 1))
        clock.now = utc(2027, 1, 5)
        await play(storage, "downforce", (ANA, 2), (BIA, 1), (CAI, 3))
        assert await storage.season_reset(GUILD, utc(2027, 2, 1))
        assert await storage.recompute_ratings(GUILD) == await storage.stored_ratings(GUILD)
    finally:
        await storage.close()
    storage = await Storage.open(database.url, clock=clock)  # a restart changes nothing
    try:
        assert await storage.recompute_ratings(GUILD) == await storage.stored_ratings(GUILD)
    finally:
        await storage.close()


async def test_seasons_off_never_reset(storage: Storage, clock: Clock) -> None:
    await storage.set_server_setting(GUILD, "season", "off")
    await play(storage, "hotstreak", (ANA, 1), (BIA, 2))
    before = await storage.stored_ratings(GUILD)
    assert not await storage.season_reset(GUILD, clock.now + 400 * 86400)
    assert await storage.stored_ratings(GUILD) == before
    assert await storage.due_recaps(GUILD, clock.now + 400 * 86400, STALE) == []


async def test_the_season_that_ended_is_due_once_it_had_games(storage: Storage, clock: Clock) -> None:
    clock.now = utc(2026, 11, 10)
    assert await storage.due_recaps(GUILD, utc(2026, 12, 1), STALE) == []  # October had no games
    await play(storage, "hotstreak", (ANA, 1), (BIA, 2))
    assert await storage.due_recaps(GUILD, utc(2026, 11, 30), STALE) == []  # November is not over
    due = await storage.due_recaps(GUILD, utc(2026, 12, 1, 0, 0, 5), STALE)
    assert due == [("monthly:2026-11", utc(2026, 11, 1), utc(2026, 12, 1))]
    # The bot was down all of December and January: only January, the last season that ended, is
    # looked at, and it had no games.
    assert await storage.due_recaps(GUILD, utc(2027, 2, 3), STALE) == []

    recap = await storage.season_recap(GUILD, *due[0])
    (hotstreak,) = recap.per_game
    assert [p.user_id for p in hotstreak.top] == [ANA, BIA]
    assert hotstreak.best_win is not None and hotstreak.best_win.user_id == ANA
    assert hotstreak.unluckiest is not None and hotstreak.unluckiest.user_id == BIA
    assert recap.champion is not None and recap.champion.user_id == ANA


async def test_a_recap_is_claimed_once_and_a_claim_never_posted_is_taken_over(
    pg: Database, clock: Clock
) -> None:
    """Two processes on one PostgreSQL database (a SQLite file has one process)."""
    clock.now = utc(2026, 11, 10)
    first = await Storage.open(pg.url, clock=clock)
    second = await Storage.open(pg.url, clock=clock)
    try:
        await play(first, "hotstreak", (ANA, 1), (BIA, 2))
        now = utc(2026, 12, 1, 0, 0, 5)
        (due,) = await first.due_recaps(GUILD, now, STALE)
        claims = await asyncio.gather(
            first.claim_recap(GUILD, *due, now, STALE), second.claim_recap(GUILD, *due, now, STALE)
        )
        assert sorted(claims) == [False, True]
        assert await second.due_recaps(GUILD, now + 1, STALE) == []  # claimed: not due to anyone
        # The claimant died before posting: once the claim is stale it is due again, and taken once.
        later = now + STALE + 1
        assert await second.due_recaps(GUILD, later, STALE) == [due]
        assert await second.claim_recap(GUILD, *due, later, STALE)
        assert not await first.claim_recap(GUILD, *due, later, STALE)
        await second.mark_recap_posted(GUILD, due[0], 42, ANA)
        assert await first.due_recaps(GUILD, later + 10 * STALE, STALE) == []
        assert not await first.claim_recap(GUILD, *due, later + 10 * STALE, STALE)  # posted: never again
        assert await first.last_champion(GUILD) == ANA
    finally:
        await first.close()
        await second.close()
