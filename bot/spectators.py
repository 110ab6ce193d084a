"""Spectator bets: the rules of the chips people who are not seated bet on a running race (issue 30).

Pure: no Discord, no storage. The Discord side is ``bot.tables.spectating``, the SQL
``bot.storage.spectators``; each game says which race runs and who won it in
``bot.games.<kind>.spectate`` (``race(view)``, ``winners(view)`` and its racers' ``name``), found by kind like its odds.

Rulings (docs/spectators.md):

* **Chips are play money.** Nothing of real-world value: no buying, no giving, no cashing out (Discord's
  policy on gambling). Each person has a wallet per server, topped up to ``ALLOWANCE`` by their first
  bet of a UTC day (a wallet above it keeps what it has); chips are counted in hundredths, so a payout
  is exactly stake x price.
* **The price** is the racer's live chance to win with the house margin ``MARGIN`` taken off:
  ``(1 - MARGIN) / chance``, rounded *down* to ``STEP`` (so rounding never favours the bettor), at
  most ``MAX_PRICE``. A racer whose price would be under ``MIN_PRICE`` (nearly certain) or whose chance
  is 0 is not offered.
* **A quote belongs to one frame**: the game's step number (``seq``) when its odds were computed. It
  is taken only while that frame is still the latest; once the race has moved on, the bettor is quoted
  again and asked again.
* **Paid when the race ends**: a winning bet returns stake x price (the stake included); a dead heat
  for first between ``k`` racers pays stake x price / k on each of them (the bookmakers' dead-heat
  rule); a losing bet returns nothing; a race that does not finish (its game cancelled, abandoned or
  broken) refunds every stake.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

MARGIN = 0.05
"""The house margin: a fair price times 0.95 (a bettor gets back 95% of their stakes on average)."""
CENT = 100  # chips are stored in hundredths
STEP = 5  # prices are rounded down to 0.05
MIN_PRICE = 105  # 1.05: a nearly certain racer is not offered (a bet would return almost nothing)
MAX_PRICE = 10_000  # 100.00
ALLOWANCE = 100  # chips; a wallet is topped up to this by its first bet of a UTC day
PER_BET = 50  # most chips on one bet
PER_RACE = 100  # most chips one person stakes on one race
AMOUNTS = (5, 10, 25, 50)  # the amount buttons


def price(chance: float) -> int | None:
    """The decimal price (in hundredths) for a racer with ``chance`` to win, or None if not offered."""
    if not chance > 0:
        return None
    fair = (1 - MARGIN) / chance * CENT
    shown = min(MAX_PRICE, int(fair + 1e-9) // STEP * STEP)
    return shown if shown >= MIN_PRICE else None


def payout(stake: int, price_cents: int, winners: Iterable[str], racer: str) -> int:
    """What a settled bet returns, in hundredths of a chip: ``stake`` whole chips at ``price_cents``
    on ``racer``, in a race won by ``winners`` (several: a dead heat). Floored to a hundredth."""
    won = set(winners)
    if racer not in won:
        return 0
    return stake * price_cents // len(won)


def today(now: float) -> str:
    """The UTC day of ``now`` (seconds since the epoch), as stored with a wallet."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")


def topped_up(chips: int, day: str | None, now: float) -> tuple[int, str]:
    """A wallet's chips (hundredths) and day after its first bet of ``now``'s UTC day tops it up."""
    current = today(now)
    if day == current:
        return chips, current
    return max(chips, ALLOWANCE * CENT), current


def chips_text(hundredths: int) -> str:
    """Chips as shown: whole when whole, else with two decimals (``85``, ``42.50``)."""
    whole, part = divmod(hundredths, CENT)
    return str(whole) if part == 0 else f"{hundredths / CENT:.2f}"


def price_text(price_cents: int) -> str:
    return f"{price_cents / CENT:.2f}"


# --- what a game says about its races -------------------------------------------------


@dataclass(frozen=True)
class Race:
    """A race open to spectator bets: its number in the game and the racers one may bet on (still
    running), with their names (in the current language)."""

    number: int
    racers: tuple[str, ...]
    names: Mapping[str, str]


@dataclass(frozen=True)
class Quote:
    """A price for one racer, on one frame (``frame``: the game's step number when the odds were had)."""

    game_id: int
    race: int
    frame: int
    racer: str
    chance: float
    price: int  # hundredths


class Spectate(Protocol):
    def race(self, view: dict[str, Any]) -> Race | None: ...

    def winners(self, view: dict[str, Any]) -> dict[int, tuple[str, ...]]: ...

    def name(self, racer: str) -> str: ...


def rules_for(kind: str) -> Spectate | None:
    """``bot.games.<kind>.spectate``, or None for a game without spectator bets."""
    if not kind.isidentifier():
        return None
    try:
        module: Any = importlib.import_module(f"bot.games.{kind}.spectate")
    except ModuleNotFoundError:
        return None
    return module if callable(getattr(module, "race", None)) else None


def quotes(game_id: int, race: Race, frame: int, win: Mapping[str, float]) -> dict[str, Quote]:
    """Every racer of ``race`` that can be offered, priced from its chance in ``win``."""
    out: dict[str, Quote] = {}
    for racer in race.racers:
        chance = float(win.get(racer, 0.0))
        cents = price(chance)
        if cents is not None:
            out[racer] = Quote(game_id, race.number, frame, racer, chance, cents)
    return out
