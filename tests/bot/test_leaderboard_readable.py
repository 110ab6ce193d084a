"""The leaderboard picture reads at Discord's preview size (``bot/games/fonts.py``): a full page of ten
long names, in English and Portuguese, uses no font under 1/40 of its width and is no taller than 3/4
of it, and no text runs into another; so does the board across games, ranked by wins with no money."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from bot.i18n import speaking
from bot.leaderboard_image import WIDTH, BoardLine, Ranking, alt_text, headings, render_leaderboard
from tests.readability import assert_readable, fonts_drawn

Box = tuple[float, float, float, float]
LONG = "Maximiliano Bartholomew Wolfgang-Conceição"
TITLE = "Leaderboard — The Horse Race Game"
SUBTITLE = "All time · page 12 of 340 · 3,391 players"


def full_page(start: int = 1) -> list[BoardLine]:
    """Ten lines: long names, big and negative nets, 100% and 0% win rates, ranks past 99."""
    return [
        BoardLine(
            rank=start + i,
            name=f"{LONG} {i}" if i % 2 == 0 else "W" * 32,
            net=(-1) ** i * (12345 - 1000 * i),
            games=9999 - i,
            wins=9999 if i == 0 else i,
            win_rate=1.0 if i == 0 else i / 100,
            rating=2999 - 150 * i,  # rating boards: four digits, trends up and down
            trend=(-1) ** i * (1234 - 100 * i),
        )
        for i in range(10)
    ]


def text_boxes(draw: Callable[[], bytes]) -> list[tuple[str, Box]]:
    """The box of every text ``draw`` puts on the picture."""
    boxes: list[tuple[str, Box]] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        boxes.append((str(text), self.textbbox(xy, text, font=font, anchor=anchor)))
        return original(self, xy, text, fill, font, anchor, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        draw()
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    return boxes


@pytest.mark.parametrize("by", ["net", "wins", "rating"])
@pytest.mark.parametrize("language", ["en", "pt-BR"])
@pytest.mark.parametrize("start", [1, 991])
def test_a_page_of_ten_long_names_reads(language: str, start: int, by: Ranking) -> None:
    with speaking(language), fonts_drawn() as drawn:
        picture = render_leaderboard(TITLE, SUBTITLE, full_page(start), by=by)
    assert_readable(picture, drawn)
    width, height = Image.open(io.BytesIO(picture)).size
    assert width == WIDTH == 800 and height <= 600
    names = [d.text for d in drawn if d.text.startswith(("Maxi", "WWW"))]
    assert len(names) == 10 and all(name.endswith("…") for name in names)  # cut, never shrunk


@pytest.mark.parametrize("by", ["net", "wins", "rating"])
@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_an_empty_board_reads(language: str, by: Ranking) -> None:
    with speaking(language), fonts_drawn() as drawn:
        picture = render_leaderboard(TITLE, SUBTITLE, [], by=by)
    assert_readable(picture, drawn)


@pytest.mark.parametrize(("by", "columns"), [("net", 4), ("wins", 3), ("rating", 3)])
@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_no_text_runs_into_another(language: str, by: Ranking, columns: int) -> None:
    with speaking(language):
        boxes = text_boxes(lambda: render_leaderboard(TITLE * 2, SUBTITLE * 3, full_page(991), by=by))
    assert len(boxes) == 2 + columns + 10 * (2 + columns)
    for (first, a), (second, b) in itertools.combinations(boxes, 2):
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, (first, a, second, b)
    for words, box in boxes:
        assert 0 <= box[0] and box[2] <= WIDTH, (words, box)


def test_a_game_board_has_a_money_column_and_the_board_across_games_has_none() -> None:
    # Ruling: the games count money in different currencies, so across games nothing adds it up;
    # ranked by winnings, that board ranks by wins, its first column, and says so.
    assert headings("net") == ["Net", "Games", "Wins", "Win %"]
    assert headings("wins") == ["Wins", "Games", "Win %"]
    with speaking("pt-BR"):
        assert headings("wins") == ["Vitórias", "Partidas", "% vitórias"]
    with fonts_drawn() as drawn:
        render_leaderboard("Leaderboard — all games", "All time", full_page(), by="wins")
    words = [d.text for d in drawn]
    assert words[1] == "All time · ranked by wins"
    assert not [w for w in words if "$" in w]
    assert "9,999" in words  # the wins it ranks by, written as the message under it writes them
    lines = full_page()[:2]
    assert alt_text("Leaderboard — all games", lines, by="wins") == (
        f"Leaderboard — all games, ranked by wins: 1. {lines[0].name}, 9,999 wins in 9,999 games; "
        f"2. {lines[1].name}, 1 win in 9,998 games"
    )
    assert alt_text("Leaderboard — Hot Streak", lines[:1]).startswith(
        f"Leaderboard — Hot Streak: 1. {lines[0].name}, +$12,345, 9,999 wins"
    )
    with speaking("pt-BR"):
        assert alt_text("Ranking — todos os jogos", [], by="wins") == (
            "Ranking — todos os jogos, ordenado por vitórias: nenhuma partida terminada ainda."
        )


def test_a_rating_board_shows_rating_games_and_trend() -> None:
    assert headings("rating") == ["Rating", "Games", "Trend"]
    with speaking("pt-BR"):
        assert headings("rating") == ["Rating", "Partidas", "Tendência"]
    lines = full_page()[:2]
    assert alt_text("Ratings — Hot Streak", lines, by="rating") == (
        f"Ratings — Hot Streak, ranked by rating: 1. {lines[0].name}, rating 2,999 from 9,999 games, trend +1,234; "
        f"2. {lines[1].name}, rating 2,849 from 9,998 games, trend -1,134"
    )
