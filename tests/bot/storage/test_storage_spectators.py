"""Spectator bets as stored (SQLite and PostgreSQL): a bet is stored with its stake taken, within the
caps; it is paid exactly once, however many times and from however many connections its race is
settled; a race that does not finish gives the stakes back; each bettor is told once."""

from __future__ import annotations

import asyncio

from bot import spectators as rules
from bot.spectators import Quote
from bot.storage import Storage
from bot.storage.migrations import SCHEMA_VERSION, schema_version
from bot.storage.spectators import REFUSED_CHIPS, REFUSED_PER_BET, REFUSED_PER_RACE, Placed, Refused
from tests.bot.storage.databases import Database
from tests.bot.storage.storage_support import Clock, seats

GUILD = 1


async def a_game(storage: Storage, channel: int = 10) -> int:
    return await storage.create_game("hotstreak", GUILD, channel, 7, {}, seats(channel + 1, channel + 2))


def quote(game_id: int, racer: str = "bear", price: int = 340, race: int = 1) -> Quote:
    return Quote(game_id, race, 5, racer, 0.27, price)


async def test_the_schema_holds_the_spectator_bets(storage: Storage, database: Database) -> None:
    assert await schema_version(storage._backend) == SCHEMA_VERSION


async def test_a_bet_takes_its_stake_from_the_daily_allowance_within_the_caps(storage: Storage) -> None:
    game = await a_game(storage)
    placed = await storage.spectators.place(GUILD, 100, "ann", quote(game), 50)
    assert isinstance(placed, Placed) and placed.chips == 50 * rules.CENT and placed.on_race == 50
    refused = await storage.spectators.place(GUILD, 100, "ann", quote(game), 51)
    assert isinstance(refused, Refused) and refused.why == REFUSED_PER_BET
    assert isinstance(await storage.spectators.place(GUILD, 100, "ann", quote(game), 50), Placed)
    refused = await storage.spectators.place(GUILD, 100, "ann", quote(game, race=2), 5)
    assert isinstance(refused, Refused) and refused.why == REFUSED_CHIPS  # 100 chips spent
    other = await a_game(storage, 20)
    refused = await storage.spectators.place(GUILD, 100, "ann", quote(other), 5)
    assert isinstance(refused, Refused) and refused.why == REFUSED_CHIPS
    assert await storage.spectators.wallet(GUILD, 100, game, 1) == (0, 100)


async def test_a_person_stakes_at_most_the_race_cap_on_one_race(storage: Storage, clock: Clock) -> None:
    game = await a_game(storage)
    for _ in range(2):
        assert isinstance(await storage.spectators.place(GUILD, 100, "ann", quote(game), 50), Placed)
    clock.advance(86_400)  # a new day: topped up, but the race cap stands
    refused = await storage.spectators.place(GUILD, 100, "ann", quote(game), 5)
    assert isinstance(refused, Refused) and refused.why == REFUSED_PER_RACE


async def test_a_race_is_paid_exactly_once_however_often_it_is_settled(storage: Storage) -> None:
    game = await a_game(storage)
    await storage.spectators.place(GUILD, 100, "ann", quote(game, "bear", 340), 25)
    await storage.spectators.place(GUILD, 200, "bo", quote(game, "mum", 1215), 10)
    assert await storage.spectators.open_races(game) == {1}
    results = {1: ("bear",)}
    settled = await asyncio.gather(*(storage.spectators.settle(game, results) for _ in range(4)))
    paid = [s for batch in settled for s in batch]
    assert sorted((s.user_id, s.outcome, s.payout) for s in paid) == [
        (100, "won", 25 * 340),
        (200, "lost", 0),
    ]
    assert await storage.spectators.settle(game, results) == []
    assert await storage.spectators.refund(game) == []  # settled bets are not refunded
    assert await storage.spectators.open_races(game) == set()
    assert (await storage.spectators.wallet(GUILD, 100, game, 1))[0] == 75 * rules.CENT + 25 * 340
    rows, total = await storage.spectators.board(GUILD, 0)
    assert total == 2 and [(r.user_id, r.net) for r in rows] == [(100, 25 * 340 - 2500), (200, -1000)]
    assert {s.bet_id for s in await storage.spectators.untold(game)} == {s.bet_id for s in paid}
    assert await storage.spectators.claim_told([s.bet_id for s in paid]) == {s.bet_id for s in paid}
    assert await storage.spectators.claim_told([s.bet_id for s in paid]) == set()  # told once
    assert await storage.spectators.untold(game) == []


async def test_a_race_that_does_not_finish_gives_the_stakes_back(storage: Storage) -> None:
    game = await a_game(storage)
    await storage.spectators.place(GUILD, 100, "ann", quote(game), 25)
    [refund] = await storage.spectators.refund(game)
    assert refund.outcome == "refunded" and refund.payout == 25 * rules.CENT
    assert (await storage.spectators.wallet(GUILD, 100, game, 1))[0] == 100 * rules.CENT
    assert await storage.spectators.board(GUILD, 0) == ([], 0)  # a refund wins and loses nothing


async def test_bets_made_at_once_by_one_person_never_overspend(storage: Storage) -> None:
    """Four first bets of the day at once (several connections on PostgreSQL): the allowance is given
    once and spent once; two bets stand."""
    game = await a_game(storage)
    placed = await asyncio.gather(
        *(storage.spectators.place(GUILD, 100, "ann", quote(game, race=r), 50) for r in (1, 2, 3, 4))
    )
    assert sum(isinstance(p, Placed) for p in placed) == 2
    chips, _on_race = await storage.spectators.wallet(GUILD, 100, game, 1)
    assert chips == 0


async def test_bets_of_a_game_closed_while_no_process_settled_them_are_refunded(
    storage: Storage, clock: Clock
) -> None:
    game = await a_game(storage)
    await storage.spectators.place(GUILD, 100, "ann", quote(game), 25)
    assert await storage.spectators.refund_closed() == []  # its game is still running
    await storage.close_game(game, "abandoned", "its channel is gone")
    assert await storage.spectators.refund_closed() == []  # just closed: left to its process a while
    clock.advance(3600)
    [refund] = await storage.spectators.refund_closed()
    assert refund.outcome == "refunded" and refund.chips == 100 * rules.CENT
    assert await storage.spectators.refund_closed() == []
