"""A horse looks the same on the board and in text: its coloured, numbered disc as an emoji."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.horserace.board import HORSES
from bot.games.horserace.render import HORSE_COLOURS
from bot.games.horserace.symbols import emoji_name, emoji_png, unicode


def test_every_horse_has_an_emoji_image_in_its_board_colour_and_a_fallback() -> None:
    for horse in HORSES:
        image = Image.open(io.BytesIO(emoji_png(horse))).convert("RGB")
        assert image.size == (128, 128)
        assert image.getpixel((30, 64)) == HORSE_COLOURS[horse]
        assert unicode(horse) and str(horse) in unicode(horse) or horse == 10
        name = emoji_name(horse)
        assert 2 <= len(name) <= 32 and name.replace("_", "").isalnum()
