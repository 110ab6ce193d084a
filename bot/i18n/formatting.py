"""Numbers, money and places written the way the current language writes them."""

from __future__ import annotations

from functools import cache, lru_cache

from babel import Locale
from babel.numbers import format_decimal

from bot.i18n import _, current
from bot.i18n.languages import Language, babel_locale


@cache
def _locale(language: Language) -> Locale:
    return Locale.parse(babel_locale(language))


def number(value: int | float) -> str:
    """``1,200`` in English, ``1.200`` in Portuguese."""
    return _number(current(), value)


@lru_cache(maxsize=4096)
def _number(language: Language, value: int | float) -> str:
    # Remembered: the same few hundred numbers (cash, card counts, places) are written on every card,
    # and Babel takes about 20 microseconds each (3% of the bot's loop at 200 games).
    return format_decimal(value, locale=_locale(language))


def money(amount: int) -> str:
    """Game money: ``$1,200`` / ``-$5`` in English; ``$ 1.200`` / ``-$ 5`` in Portuguese.
    Ruling: the games' money is dollars in every language (the Portuguese Downforce rules write
    ``12M $``); only the way the number is written changes."""
    text = _("${amount}", amount=number(abs(amount)))
    return f"-{text}" if amount < 0 else text


def signed(amount: int) -> str:
    """A gain or a loss: ``+$5``, ``-$5``, ``$0``."""
    return f"+{money(amount)}" if amount > 0 else money(amount)


def ordinal(place: int) -> str:
    """``1st``, ``2nd`` in English; ``1º``, ``2º`` in Portuguese."""
    if current() == "pt-BR":
        return f"{place}º"
    if 10 <= place % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def percent(fraction: float) -> str:
    """``41%`` in both; a non-breaking space before ``%`` is how Babel writes pt-BR, but Discord
    players write ``41%``, so the number is the only part that changes."""
    return f"{number(round(fraction * 100))}%"
