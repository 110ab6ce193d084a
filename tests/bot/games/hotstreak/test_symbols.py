"""A mascot looks the same in pictures and in text: one table of colours, letters and emoji."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.symbols import emoji_name, emoji_png, symbols


def test_symbols_follow_the_content_and_match_the_picture() -> None:
    content = default_content()
    table = symbols()
    assert list(table) == list(content.mascots)
    view = {
        "mascots": {k: {"lane": i, "pos": 0, "status": "racing"} for i, k in enumerate(content.mascots)},
        "mascot_info": content.mascots,
    }
    drawn = {m.key: m.colour for m in read_scene(view).mascots}
    for key, symbol in table.items():
        assert symbol.rgb == drawn[key]
        assert symbol.letter == content.mascots[key]["name"][0].upper()


def test_every_mascot_gets_its_own_fallback_emoji_and_a_valid_emoji_name() -> None:
    table = symbols()
    assert len({s.unicode for s in table.values()}) == len(table)
    assert symbols()["mum"].unicode == "🟣"  # a purple token is a purple circle, not a yellow crown
    for key in table:
        name = emoji_name(key)
        assert 2 <= len(name) <= 32 and name.replace("_", "").isalnum()


def test_the_emoji_image_is_the_token() -> None:
    image = Image.open(io.BytesIO(emoji_png("gobbler")))
    assert image.size == (128, 128) and image.mode == "RGBA"
    rgb = symbols()["gobbler"].rgb
    raw = image.convert("RGB").tobytes()
    pixels = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    assert pixels.count(rgb) > 2000
