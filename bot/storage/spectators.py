"""Spectator bets as stored (issue 30; the rules are ``bot.spectators``'s).

* ``spectator_wallets``: each person's play chips per guild (hundredths), topped up by their first
  bet of a UTC day; ``staked`` and ``returned`` count settled bets only (the spectators' board);
* ``spectator_bets``: every bet, stored (its stake taken from the wallet, in one transaction) before
  the bettor is told it stands;
* ``spectator_payouts``: each bet's one settled mark (its key is the bet): a bet is paid in the
  transaction that inserts its mark, so it is paid exactly once whatever process settles it, however
  often; ``told`` is claimed before its bettor is told, so they are told once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot import spectators as rules
from bot.storage.backend import Tx, marks
from bot.storage.records import OPEN_STATUSES

Transactions = Callable[..., AbstractAsyncContextManager[Tx]]

SETTLING_GRACE = 600.0  # seconds
REFUSED_PER_BET = "per_bet"
REFUSED_PER_RACE = "per_race"
REFUSED_CHIPS = "chips"


@dataclass(frozen=True)
class Placed:
    """A bet stored: its id, the wallet's chips after it, what its bettor has on the race now."""

    bet_id: int
    chips: int  # hundredths
    on_race: int  # whole chips staked on this race, this bet included


@dataclass(frozen=True)
class Refused:
    why: str  # REFUSED_*
    chips: int  # the wallet's chips (hundredths), topped up as the bet would have
    on_race: int


@dataclass(frozen=True)
class Settled:
    """A settled bet, for telling its bettor."""

    bet_id: int
    game_id: int
    race: int
    user_id: int
    racer: str
    stake: int
    price: int
    outcome: str  # won | lost | refunded
    payout: int  # hundredths
    chips: int  # the wallet's chips now (hundredths)


@dataclass(frozen=True)
class WalletRow:
    user_id: int
    name: str
    bets: int
    net: int  # hundredths won (negative: lost) over settled bets
    chips: int


_SETTLED = (
    "SELECT b.id, b.game_id, b.race, b.user_id, b.racer, b.stake, b.price, p.outcome, p.payout, w.chips "
    "FROM spectator_payouts p JOIN spectator_bets b ON b.id = p.bet_id "
    "JOIN spectator_wallets w ON w.guild_id = b.guild_id AND w.user_id = b.user_id "
)


class SpectatorStore:
    """``Storage.spectators``: every statement of the spectator bets, each call one transaction."""

    def __init__(self, transaction: Transactions, clock: Callable[[], float]) -> None:
        self._transaction, self._clock = transaction, clock

    async def wallet(self, guild_id: int, user_id: int, game_id: int, race: int) -> tuple[int, int]:
        """The chips (hundredths) a person would bet with now (topped up if it is a new day) and the
        whole chips they have on ``race`` of ``game_id`` already."""
        async with self._transaction("read a spectator's chips", write=False) as tx:
            row = await tx.fetch_one(
                "SELECT chips, day FROM spectator_wallets WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            chips, _day = rules.topped_up(int(row[0]) if row else 0, row[1] if row else None, self._clock())
            return chips, await _on_race(tx, user_id, game_id, race)

    async def place(
        self, guild_id: int, user_id: int, name: str, quote: rules.Quote, stake: int
    ) -> Placed | Refused:
        """Store a bet of ``stake`` whole chips at ``quote``, its stake taken from the wallet, or
        refuse it (caps, chips) changing nothing but a due top-up."""
        now = self._clock()
        async with self._transaction(f"store a spectator bet on game {quote.game_id}", write=True) as tx:
            # The wallet made first if new, then locked: two first bets at once (two processes, one
            # person) wait for each other rather than both topping up an empty wallet.
            await tx.execute(
                "INSERT INTO spectator_wallets (guild_id, user_id, name, chips, day) VALUES (?, ?, ?, 0, '') "
                "ON CONFLICT (guild_id, user_id) DO NOTHING",
                (guild_id, user_id, name),
            )
            row = await tx.fetch_one(
                f"SELECT chips, day FROM spectator_wallets WHERE guild_id = ? AND user_id = ?{tx.for_update}",
                (guild_id, user_id),
            )
            chips, day = rules.topped_up(int(row[0]) if row else 0, row[1] if row else None, now)
            await tx.execute(
                "UPDATE spectator_wallets SET chips = ?, day = ?, name = ? WHERE guild_id = ? AND user_id = ?",
                (chips, day, name, guild_id, user_id),
            )
            on_race = await _on_race(tx, user_id, quote.game_id, quote.race)
            why = (
                REFUSED_PER_BET
                if not 0 < stake <= rules.PER_BET
                else REFUSED_PER_RACE
                if on_race + stake > rules.PER_RACE
                else REFUSED_CHIPS
                if chips < stake * rules.CENT
                else None
            )
            if why is not None:
                return Refused(why, chips, on_race)
            chips -= stake * rules.CENT
            await tx.execute(
                "UPDATE spectator_wallets SET chips = ?, bets = bets + 1 WHERE guild_id = ? AND user_id = ?",
                (chips, guild_id, user_id),
            )
            bet = await tx.fetch_one(
                "INSERT INTO spectator_bets (game_id, race, frame, guild_id, user_id, racer, stake, price, "
                "chance, placed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    quote.game_id,
                    quote.race,
                    quote.frame,
                    guild_id,
                    user_id,
                    quote.racer,
                    stake,
                    quote.price,
                    quote.chance,
                    now,
                ),
            )
            assert bet is not None
            return Placed(int(bet[0]), chips, on_race + stake)

    async def open_races(self, game_id: int) -> set[int]:
        """The races of a game with bets not settled yet."""
        async with self._transaction(f"read the open spectator bets of game {game_id}", write=False) as tx:
            rows = await tx.fetch_all(
                "SELECT DISTINCT b.race FROM spectator_bets b LEFT JOIN spectator_payouts p ON p.bet_id = b.id "
                "WHERE b.game_id = ? AND p.bet_id IS NULL",
                (game_id,),
            )
        return {int(r[0]) for r in rows}

    async def settle(self, game_id: int, results: dict[int, tuple[str, ...]]) -> list[Settled]:
        """Pay every open bet of ``game_id`` on a race in ``results`` (race -> winners); the bets this
        call settled (none that were settled before)."""
        async with self._transaction(f"settle the spectator bets of game {game_id}", write=True) as tx:
            bets = await _open_bets(tx, game_id)
            paid = [
                (b, "won" if rules.payout(b[5], b[6], results[b[1]], b[4]) else "lost")
                for b in bets
                if b[1] in results
            ]
            return await _mark(
                tx,
                game_id,
                [(b, outcome, rules.payout(b[5], b[6], results[b[1]], b[4])) for b, outcome in paid],
                self._clock(),
            )

    async def refund(self, game_id: int) -> list[Settled]:
        """Give back every stake of ``game_id``'s open bets (a race that did not finish)."""
        async with self._transaction(f"refund the spectator bets of game {game_id}", write=True) as tx:
            bets = await _open_bets(tx, game_id)
            return await _mark(tx, game_id, [(b, "refunded", b[5] * rules.CENT) for b in bets], self._clock())

    async def refund_closed(self) -> list[Settled]:
        """Give back the stakes of open bets whose game is no longer open (it ended or closed while no
        process was there to settle them): the bets of a race whose end nobody saw. A game that ended
        less than ``SETTLING_GRACE`` ago is left to the process that ended it, which settles it."""
        async with self._transaction("refund the spectator bets of closed games", write=True) as tx:
            rows = await tx.fetch_all(
                "SELECT DISTINCT b.game_id FROM spectator_bets b JOIN games g ON g.id = b.game_id "
                "LEFT JOIN spectator_payouts p ON p.bet_id = b.id "
                f"WHERE p.bet_id IS NULL AND g.status NOT IN ({marks(OPEN_STATUSES)}) AND g.updated_at < ?",
                (*OPEN_STATUSES, self._clock() - SETTLING_GRACE),
            )
            done: list[Settled] = []
            for (game_id,) in rows:
                bets = await _open_bets(tx, int(game_id))
                paying = [(b, "refunded", b[5] * rules.CENT) for b in bets]
                done += await _mark(tx, int(game_id), paying, self._clock())
            return done

    async def untold(self, game_id: int) -> list[Settled]:
        """Settled bets of ``game_id`` whose bettor was not told yet."""
        async with self._transaction(f"read the untold spectator bets of game {game_id}", write=False) as tx:
            rows = await tx.fetch_all(
                _SETTLED + "WHERE p.game_id = ? AND p.told = 0 ORDER BY b.id", (game_id,)
            )
        return [_settled(r) for r in rows]

    async def claim_told(self, bet_ids: Sequence[int]) -> set[int]:
        """Mark bets told; the ids this call marked (a bet another process told already is not)."""
        if not bet_ids:
            return set()
        async with self._transaction("mark spectator bets told", write=True) as tx:
            rows = await tx.fetch_all(
                f"UPDATE spectator_payouts SET told = 1 WHERE told = 0 AND bet_id IN ({marks(bet_ids)}) "
                "RETURNING bet_id",
                tuple(bet_ids),
            )
        return {int(r[0]) for r in rows}

    async def board(self, guild_id: int, page: int, per_page: int = 10) -> tuple[list[WalletRow], int]:
        """One page of the guild's spectators, most chips won first (settled bets), and how many."""
        async with self._transaction("read the spectators' board", write=False) as tx:
            total = await tx.fetch_one(
                "SELECT COUNT(*) FROM spectator_wallets WHERE guild_id = ? AND staked > 0", (guild_id,)
            )
            rows = await tx.fetch_all(
                "SELECT user_id, name, bets, returned - staked, chips FROM spectator_wallets "
                "WHERE guild_id = ? AND staked > 0 ORDER BY returned - staked DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, per_page, page * per_page),
            )
        return [WalletRow(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows], int(
            total[0] if total else 0
        )


async def _on_race(tx: Tx, user_id: int, game_id: int, race: int) -> int:
    row = await tx.fetch_one(
        "SELECT COALESCE(SUM(stake), 0) FROM spectator_bets WHERE game_id = ? AND race = ? AND user_id = ?",
        (game_id, race, user_id),
    )
    return int(row[0]) if row else 0


async def _open_bets(tx: Tx, game_id: int) -> list[tuple[int, int, int, int, str, int, int]]:
    """(id, race, guild, user, racer, stake, price) of every bet of the game with no settled mark."""
    rows = await tx.fetch_all(
        "SELECT b.id, b.race, b.guild_id, b.user_id, b.racer, b.stake, b.price FROM spectator_bets b "
        "LEFT JOIN spectator_payouts p ON p.bet_id = b.id WHERE b.game_id = ? AND p.bet_id IS NULL "
        "ORDER BY b.id",
        (game_id,),
    )
    return [(int(r[0]), int(r[1]), int(r[2]), int(r[3]), str(r[4]), int(r[5]), int(r[6])) for r in rows]


async def _mark(
    tx: Tx, game_id: int, paying: list[tuple[tuple[int, int, int, int, str, int, int], str, int]], now: float
) -> list[Settled]:
    """Insert each bet's settled mark and, for the marks this transaction inserted, move the chips."""
    done: list[Settled] = []
    for (bet_id, race, guild_id, user_id, racer, stake, price), outcome, payout in paying:
        mark = await tx.fetch_one(
            "INSERT INTO spectator_payouts (bet_id, game_id, outcome, payout, settled_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (bet_id) DO NOTHING RETURNING bet_id",
            (bet_id, game_id, outcome, payout, now),
        )
        if mark is None:
            continue  # settled by someone else meanwhile: paid then, not now
        counted = 0 if outcome == "refunded" else stake * rules.CENT
        wallet = await tx.fetch_one(
            "UPDATE spectator_wallets SET chips = chips + ?, staked = staked + ?, returned = returned + ? "
            "WHERE guild_id = ? AND user_id = ? RETURNING chips",
            (payout, counted, payout if counted else 0, guild_id, user_id),
        )
        chips = int(wallet[0]) if wallet else 0
        done.append(Settled(bet_id, game_id, race, user_id, racer, stake, price, outcome, payout, chips))
    return done


def _settled(r: tuple[Any, ...]) -> Settled:
    return Settled(
        int(r[0]),
        int(r[1]),
        int(r[2]),
        int(r[3]),
        str(r[4]),
        int(r[5]),
        int(r[6]),
        str(r[7]),
        int(r[8]),
        int(r[9]),
    )
