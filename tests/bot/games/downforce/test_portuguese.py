"""Downforce's own words in Brazilian Portuguese: the picture, its alt text, the narration and the
replay, for the same race in each language."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from bot.games.downforce.ai import ai_action
from bot.games.downforce.game import Downforce
from bot.games.downforce.narration import narrate
from bot.games.downforce.render import alt_text, render_track
from bot.games.downforce.replay import replay_alt_text
from bot.i18n import speaking
from bot.i18n.formatting import money
from tests.english import english_in


def mid_race(cards: int = 12) -> tuple[Downforce, list]:
    game = Downforce.new(4, 7, {"track": "savanna-stretch", "powers": "all"})
    rng = random.Random(7)
    events = []
    while not game.is_over and len(game.s["played"]) < cards:
        events += game.apply(ai_action(game, ["easy"] * 4, rng))
    return game, events


def test_the_picture_draws_its_words_in_the_readers_language():
    game, _events = mid_race()
    view = {**game.view(None), "names": ["alice", "bob", "carol", "dave"]}
    with speaking("en"):
        english = Image.open(io.BytesIO(render_track(view))).convert("RGB")
    with speaking("pt-BR"):
        portuguese = Image.open(io.BytesIO(render_track(view))).convert("RGB")
    # Same track and cars; only the words (places panel, header, car discs) differ.
    assert ImageChops.difference(english, portuguese).getbbox() is not None
    with speaking("en"):
        again = Image.open(io.BytesIO(render_track(view))).convert("RGB")
    assert ImageChops.difference(english, again).getbbox() is None  # no cache kept the Portuguese


def test_the_alt_text_is_in_portuguese_with_names_and_the_track_kept():
    game, _events = mid_race()
    view = {**game.view(None), "names": ["alice", "bob", "carol", "dave"]}
    with speaking("en"):
        english = alt_text(view)
    with speaking("pt-BR"):
        portuguese = alt_text(view)
    assert english != portuguese
    assert "Places:" in english and "Posições:" in portuguese
    assert "Savanna Stretch" in portuguese  # track names are names
    assert "1º" in portuguese and "fileira" in portuguese
    assert english_in(portuguese, allowed=["alice", "bob", "carol", "dave", "Savanna Stretch"]) == []


def test_every_event_of_a_whole_race_is_narrated_in_portuguese():
    game, events = mid_race(cards=999)
    assert game.is_over
    with speaking("pt-BR"):
        lines = [narrate(event) for event in events]
        replay = replay_alt_text([game.view(None)])
    for text in [*lines, replay]:
        assert english_in(text, allowed=["Savanna Stretch"]) == [], text
    assert any("Fim de jogo" in text for text in lines)
    assert any(text.startswith("Lugar 1 joga") for text in lines)


def test_money_is_written_in_millions_the_portuguese_way():
    from bot.games.downforce.narration import millions
    from cogs.downforce.words import signed

    with speaking("en"):
        assert millions(12) == "$12M" and millions(-5) == "-$5M"
        assert millions(0) == "$0" and signed(0) == "$0" and signed(3) == "+$3M"  # never "$0M"
    with speaking("pt-BR"):
        assert millions(12) == f"{money(12)} mi"
        assert millions(0) == money(0) and signed(0) == money(0)
