"""What each player holds in a race, read from the public view: the frame's one line per player and
the detail picture's every ticket both start here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal

from bot.games.odds import Odds
from bot.i18n import _, current
from bot.i18n.languages import babel_locale


@dataclass(frozen=True)
class Holding:
    """One seat's tickets and side bets, its cash, and what the bets are expected to pay."""

    name: str
    cash: int | None
    bets: tuple[dict, ...]
    expected: float | None  # what their bets are expected to pay at the current odds


def signed_money(value: float) -> str:
    """``+$2.4``, ``-$0.8``, ``$0.0`` (``+$ 2,4`` in Portuguese)."""
    sign = "+" if value >= 0.05 else ("-" if value <= -0.05 else "")
    amount = format_decimal(round(abs(value), 1), format="#,##0.0", locale=babel_locale(current()))
    return sign + _("${amount}", amount=amount)


def holdings_of(view: dict[str, Any], odds: Odds | None, players: Sequence[str] | None) -> list[Holding]:
    """Each seat's bets from the public view (``bets``, ``cash``); none when the view has no bets."""
    bets = view.get("bets")
    if not isinstance(bets, list) or not any(bets):
        return []
    cash = view.get("cash") or []
    out = []
    for seat, held in enumerate(bets):
        name = (
            players[seat] if players is not None and seat < len(players) else _("Seat {seat}", seat=seat + 1)
        )
        expected = None
        if odds is not None:
            from bot.games.hotstreak.odds import bet_value

            expected = sum(bet_value(b, odds) for b in held)
        out.append(
            Holding(
                name=str(name),
                cash=cash[seat] if seat < len(cash) else None,
                bets=tuple(held),
                expected=expected,
            )
        )
    return out


def best_worth(holdings: Sequence[Holding]) -> float | None:
    """The highest expected value held, if any is known (drawn in gold)."""
    return max((h.expected for h in holdings if h.expected is not None), default=None)
