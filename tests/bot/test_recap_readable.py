"""The season recap's picture reads at Discord's preview size (``bot/games/fonts.py``): three games with
long names and big sums, in English and Portuguese, use no font under 1/40 of its width, the picture is
no taller than 3/4 of it, and no text runs into another."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.i18n import speaking
from bot.recap_image import Placing, RecapBlock, RecapPicture, alt_text, render_recap
from tests.bot.test_leaderboard_readable import LONG, text_boxes
from tests.readability import assert_readable, fonts_drawn

DOCS = Path(__file__).resolve().parents[2] / "docs" / "images" / "season-recap.png"


def three_games() -> RecapPicture:
    games = [("Hot Streak", "$"), ("The Horse Race Game", "$"), ("Downforce", "M")]
    blocks = [
        RecapBlock(
            title,
            [
                Placing(
                    f"{LONG} {i}" if i != 1 else "W" * 32, f"+{unit}{12345 - 4000 * i:,}", 12345 - 4000 * i
                )
                for i in range(3)
            ],
            f"Biggest win: {LONG} +{unit}9,999",
            f"Most lost: {'W' * 30} -{unit}12,345",
        )
        for title, unit in games
    ]
    return RecapPicture(
        "Season recap",
        "2026-11-01 – 2026-11-30 · 1,234 games · champion: " + LONG,
        blocks,
        "Most dramatic race: Hot Streak #4821, race 3: the lead changed 14 times",
    )


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_the_recap_reads_at_discords_preview_size(language: str) -> None:
    picture = three_games()
    with speaking(language), fonts_drawn() as drawn:
        image = render_recap(picture)
    assert_readable(image, drawn)
    boxes = [box for text, box in text_boxes(lambda: render_recap(picture)) if text.strip()]
    for a, b in itertools.combinations(boxes, 2):
        overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
        assert overlap[0] <= 0 or overlap[1] <= 0, (a, b)
    assert alt_text(picture).startswith("Season recap. 2026-11-01")


def test_the_docs_show_the_recap_picture() -> None:
    assert DOCS.exists(), "docs/images/season-recap.png: draw it with python -m tests.bot.test_recap_readable"


if __name__ == "__main__":
    example = RecapPicture(
        "Season recap",
        "2026-11-01 – 2026-11-30 · 41 games · champion: Ana",
        [
            RecapBlock(
                "Hot Streak",
                [Placing("Ana", "+$1,240", 1240), Placing("Bia", "+$610", 610), Placing("Caio", "+$85", 85)],
                "Biggest win: Ana +$530",
                "Most lost: Duda -$720",
            ),
            RecapBlock(
                "The Horse Race Game",
                [Placing("Caio", "+$96", 96), Placing("Ana", "+$40", 40), Placing("Edu", "+$12", 12)],
                "Biggest win: Caio +$58",
                "Most lost: Bia -$64",
            ),
            RecapBlock(
                "Downforce",
                [Placing("Bia", "+34M", 34), Placing("Duda", "+21M", 21), Placing("Ana", "+9M", 9)],
                "Biggest win: Bia +18M",
                "Most lost: Edu -15M",
            ),
        ],
        "Most dramatic race: Hot Streak #318, race 2: the lead changed 9 times",
    )
    DOCS.write_bytes(render_recap(example))
    print(DOCS)
