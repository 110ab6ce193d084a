"""Season boundaries (bot/seasons.py): calendar periods in UTC, the season a recap covers, and when
ratings are due their soft reset, including what a change of the setting mid-season means."""

from __future__ import annotations

import calendar

import pytest

from bot import ratings
from bot.seasons import Season, recap_window, reset_due, season_at, season_before


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> float:
    return float(calendar.timegm((year, month, day, hour, minute, second)))


def test_a_week_runs_from_monday_midnight_utc() -> None:
    thursday = utc(2026, 12, 3, 14, 41)
    week = season_at("weekly", thursday)
    assert week == Season("weekly", "weekly:2026-11-30", utc(2026, 11, 30), utc(2026, 12, 7))
    assert season_at("weekly", utc(2026, 11, 29, 23, 59, 59)) == season_before("weekly", thursday)
    assert season_at("weekly", utc(2026, 12, 7)).key == "weekly:2026-12-07"  # the boundary is the next one's


def test_a_month_runs_from_the_first_and_december_rolls_into_january() -> None:
    december = season_at("monthly", utc(2026, 12, 31, 23, 59, 59))
    assert december == Season("monthly", "monthly:2026-12", utc(2026, 12, 1), utc(2027, 1, 1))
    assert season_at("monthly", utc(2027, 1, 1)).key == "monthly:2027-01"
    assert season_before("monthly", utc(2027, 1, 1)) == december
    assert season_at("monthly", utc(2028, 2, 29)).end == utc(2028, 3, 1)  # a leap year's February


@pytest.mark.parametrize(
    ("moment", "key", "start", "end"),
    [
        (utc(2026, 1, 1), "quarterly:2026-Q1", utc(2026, 1, 1), utc(2026, 4, 1)),
        (utc(2026, 6, 30, 23, 59, 59), "quarterly:2026-Q2", utc(2026, 4, 1), utc(2026, 7, 1)),
        (utc(2026, 12, 3), "quarterly:2026-Q4", utc(2026, 10, 1), utc(2027, 1, 1)),
    ],
)
def test_a_quarter_starts_in_january_april_july_or_october(
    moment: float, key: str, start: float, end: float
) -> None:
    assert season_at("quarterly", moment) == Season("quarterly", key, start, end)


def test_off_has_no_season_and_an_unknown_kind_is_refused() -> None:
    assert season_at("off", utc(2026, 12, 3)) is None
    assert season_before("off", utc(2026, 12, 3)) is None
    assert not reset_due(None, None)
    with pytest.raises(ValueError, match="unknown season kind"):
        season_at("daily", 0.0)


def test_a_recap_covers_its_season_from_where_the_last_recap_ended() -> None:
    november = season_at("monthly", utc(2026, 11, 15))
    assert november is not None
    assert recap_window(november, None) == (utc(2026, 11, 1), utc(2026, 12, 1))
    assert recap_window(november, utc(2026, 10, 1)) == (utc(2026, 11, 1), utc(2026, 12, 1))
    # Switched to weekly on Wednesday 2 December after November's recap: the week of 30 November ends
    # on the 7th; its recap covers only what November's did not.
    week = season_before("weekly", utc(2026, 12, 8))
    assert week is not None
    assert recap_window(week, utc(2026, 12, 1)) == (utc(2026, 12, 1), utc(2026, 12, 7))
    # The week before the switch was covered whole by November's recap: no recap of its own.
    assert recap_window(season_before("weekly", utc(2026, 12, 2)), utc(2026, 12, 1)) is None  # type: ignore[arg-type]


def test_ratings_are_due_one_soft_reset_per_season_start_and_a_switch_starts_none() -> None:
    december = season_at("monthly", utc(2026, 12, 3))
    assert reset_due(december, None)
    assert reset_due(december, utc(2026, 11, 1))
    assert not reset_due(december, utc(2026, 12, 1))  # made already
    # Switched to weekly on 3 December: this week began before December's reset, so none is due until
    # Monday 7 December.
    assert not reset_due(season_at("weekly", utc(2026, 12, 3)), utc(2026, 12, 1))
    assert reset_due(season_at("weekly", utc(2026, 12, 7)), utc(2026, 12, 1))


def test_a_soft_reset_keeps_three_quarters_of_the_distance_from_1500() -> None:
    strong = ratings.Skill(30.0, 2.0, 40)
    assert strong.shown == 2220
    after = ratings.soft_reset(strong)
    assert after.shown == 2040 and after.games == 40
    assert (
        ratings.Skill(21.0, 3.0).shown == 1860 and ratings.soft_reset(ratings.Skill(21.0, 3.0)).shown == 1770
    )
    assert ratings.soft_reset(ratings.NEWCOMER) == ratings.NEWCOMER
