"""Words in pictures: cut to fit, and drawn from words rendered once (``bot.games.text_fit``) with exactly
the pixels Pillow's own ``ImageDraw.text`` gives."""

import random

import pytest
from PIL import Image, ImageDraw

from bot.games.fonts import font
from bot.games.text_fit import draw_text, fit_text

WORDS = [
    "Race 2 of 3",
    "Gobbler",
    "Ana Beatriz",
    "+$1,250",
    "42%",
    "TICKETS",
    "1st",
    "Ünïcödé çà",
    "…",
    "x",
    "",
]
ANCHORS = [None, "la", "lm", "rm", "mm", "ra", "ms", "ma"]


def drawn(mode: str, words: str, **how: object) -> bytes:
    canvas = Image.new(mode, (320, 120), (40, 60, 80))
    draw = ImageDraw.Draw(canvas)
    if how.pop("pillow", False):
        draw.text(how.pop("xy"), words, **how)  # type: ignore[arg-type]
    else:
        draw_text(draw, how.pop("xy"), words, **how)  # type: ignore[arg-type]
    return canvas.tobytes()


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_words_drawn_from_the_cache_are_pillows_pixel_for_pixel(mode: str):
    rng = random.Random(7)
    for _ in range(150):
        how = {
            "xy": rng.choice(
                [(rng.uniform(4, 200), rng.uniform(4, 90)), (rng.randrange(4, 200), rng.randrange(4, 90))]
            ),
            "font": font(rng.choice([12, 16, 20, 26]), rng.random() < 0.5),
            "fill": rng.choice([(255, 200, 0), "#e8483b", (10, 10, 10)]),
            "anchor": rng.choice(ANCHORS),
        }
        words = rng.choice(WORDS)
        # Twice from the cache (the second a hit) and once by Pillow: the same picture.
        assert (
            drawn(mode, words, **how) == drawn(mode, words, **how) == drawn(mode, words, pillow=True, **how)
        )


def test_what_the_cache_does_not_cover_is_drawn_by_pillow():
    bold = font(20, True)
    for words, how in [
        ("two\nlines", {}),
        ("outlined", {"stroke_width": 2, "stroke_fill": (0, 0, 0)}),
    ]:
        assert drawn("RGB", words, xy=(10, 10), font=bold, fill="#ffffff", **how) == drawn(
            "RGB", words, xy=(10, 10), font=bold, fill="#ffffff", pillow=True, **how
        )
    # A palette picture: Pillow's own way too (its ink is a palette index).
    picture = Image.new("P", (100, 40))
    draw_text(ImageDraw.Draw(picture), (5, 5), "P", font=bold, fill=3)
    colours = picture.getcolors()
    assert colours is not None and len(colours) == 2


def test_a_watched_pillow_sees_every_word(monkeypatch: pytest.MonkeyPatch):
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, words: str, *args: object, **kwargs: object) -> None:
        seen.append(words)
        original(self, xy, words, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    draw_text(ImageDraw.Draw(Image.new("RGB", (50, 20))), (1, 1), "seen", font=font(12), fill="#fff")
    assert seen == ["seen"]


def test_a_name_too_long_is_cut_with_an_ellipsis_and_a_short_one_kept():
    regular = font(16)
    assert fit_text("Bob", regular, 200) == "Bob"
    cut = fit_text("Maximiliano Bartholomew the Third", regular, 120)
    assert cut.endswith("…") and regular.getlength(cut) <= 120
    assert fit_text("Maximiliano Bartholomew the Third", regular, 120) == cut  # the same, from the cache
