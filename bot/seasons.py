"""Seasons: the calendar periods a server's boards run in, and which one a recap covers (no Discord here).

A season is a calendar period in UTC, like the boards' "this month" and "this week"
(``bot.storage.standings.period_start``), so every member of a server sees the same season whatever
their time zone: ``weekly`` from Monday 00:00, ``monthly`` from the 1st, ``quarterly`` from January,
April, July and October 1st. ``off``: the server has no seasons (no recap, no soft reset of ratings).

Rulings where the issue is silent (docs/seasons.md):

* **The season is the setting's period now.** ``/config set season`` changes what "season" means at
  once: the season running is the new kind's period that contains now (a switch from monthly to weekly
  on the 17th makes this week the season; the board ``period: season`` reads from Monday).
* **A recap never covers a moment twice.** A recap covers the season that just ended, from its start or
  from the end of the server's previous recap, whichever is later (``recap_window``). So a switch
  mid-season neither recaps again what a recap already covered nor skips the games in between; the
  month that was running when the switch came gets no recap of its own.
* **A bot that was down for several seasons** recaps only the last one that ended (a pile of stale
  recaps would be noise); the ones before keep their games on the all-time boards.
* **A season without a finished game gets no recap** (there is nothing to tell).
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Callable
from dataclasses import dataclass

# The season check (cogs/seasons.py) reads these here, not in the cog's module (an extension's module is
# imported afresh when the bot loads it): its "now", how often it looks, and after how long a claimed
# recap never marked posted is taken over (its poster died). Far longer than a recap takes to draw and
# post (seconds), short enough that a crash costs minutes, not a season. Tests replace them.
now: Callable[[], float] = time.time
CHECKING = True  # the season check runs (the tests that store games dated in past seasons turn it off)
CHECK_SECONDS = 60.0
STALE_CLAIM_SECONDS = 600.0

OFF = "off"
KINDS = ("monthly", "weekly", "quarterly", OFF)
DEFAULT = "monthly"
DAY = 86400


@dataclass(frozen=True)
class Season:
    """One season: its kind, its key (stored: ``monthly:2026-11``, ``weekly:2026-11-30``,
    ``quarterly:2026-Q4``), and its bounds, ``start <= t < end`` in Unix seconds (UTC)."""

    kind: str
    key: str
    start: float
    end: float


def _month_start(year: int, month: int) -> float:
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return float(calendar.timegm((year, month, 1, 0, 0, 0)))


def season_at(kind: str, now: float) -> Season | None:
    """The season of ``kind`` that contains ``now`` (None when ``kind`` is ``off``)."""
    if kind == OFF:
        return None
    moment = time.gmtime(now)
    if kind == "weekly":
        midnight = calendar.timegm((moment.tm_year, moment.tm_mon, moment.tm_mday, 0, 0, 0))
        start = float(midnight - moment.tm_wday * DAY)
        day = time.gmtime(start)
        key = f"weekly:{day.tm_year:04d}-{day.tm_mon:02d}-{day.tm_mday:02d}"
        return Season(kind, key, start, start + 7 * DAY)
    if kind == "monthly":
        year, month = moment.tm_year, moment.tm_mon
        return Season(
            kind, f"monthly:{year:04d}-{month:02d}", _month_start(year, month), _month_start(year, month + 1)
        )
    if kind == "quarterly":
        year, quarter = moment.tm_year, (moment.tm_mon - 1) // 3
        first = quarter * 3 + 1
        return Season(
            kind,
            f"quarterly:{year:04d}-Q{quarter + 1}",
            _month_start(year, first),
            _month_start(year, first + 3),
        )
    raise ValueError(f"unknown season kind {kind!r}; expected one of {KINDS}")


def season_before(kind: str, now: float) -> Season | None:
    """The last season of ``kind`` that ended at or before ``now`` (None when ``kind`` is ``off``)."""
    current = season_at(kind, now)
    return None if current is None else season_at(kind, current.start - 1)


def recap_window(season: Season, last_recap_end: float | None) -> tuple[float, float] | None:
    """What a recap of ``season`` covers, ``(since, until)``, given where the server's previous recap
    ended: from the later of the two starts; None when a recap already covered all of it."""
    since = season.start if last_recap_end is None else max(season.start, last_recap_end)
    return (since, season.end) if since < season.end else None


def reset_due(current: Season | None, last_reset_start: float | None) -> bool:
    """Whether ratings are due a soft reset for ``current``: a season started since the last reset.

    Ruling: a reset belongs to the start of a season and is made once; a switch of ``season`` mid-season
    starts no reset by itself (the new kind's period began before the last reset), the next boundary does.
    (The storage also asks that a game was rated since the last reset: nothing to shrink otherwise.)"""
    if current is None:
        return False
    return last_reset_start is None or current.start > last_reset_start
