"""A player's hand as a picture: every card a small numbered card, each of its lines a chip with the
car's two letters (never its colour alone) and the speed; readable where Discord shows it, small, the
same picture for the same hand, and said in words for screen readers."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.downforce import render_hand as picture
from bot.games.downforce.cards import COLOURS, WILD
from bot.games.downforce.game import Downforce
from bot.games.downforce.render import car_label
from bot.games.downforce.render_hand import hand_alt, render_hand
from bot.i18n import speaking
from tests.readability import assert_readable, fonts_drawn

MOST_BYTES = 48 * 1024
"""The biggest hand's picture is about 36 KB (a race frame is about 100 KB)."""


@pytest.fixture(autouse=True)
def _draw_afresh() -> None:
    """A hand's picture is cached: each test draws its own so that ``fonts_drawn`` sees its words."""
    picture._palette()  # (the shared palette is drawn once, outside the pictures)
    picture._render.cache_clear()


def dealt(players: int, seed: int = 3) -> list[list[list[object]]]:
    """Seat 0's hand as dealt (its cards' lines, in the hand's order)."""
    return [card["lines"] for card in Downforce.new(players, seed, {}).view(0)["hand"]]


def biggest() -> list[list[list[object]]]:
    """The biggest hand a real game holds: two players, 21 cards dealt, and five cars won (the
    other player wins one), each with its Speed-8 card."""
    return dealt(2) + [[[colour, 8]] for colour in COLOURS[:5]]


def drawn_words(hand: list) -> tuple[bytes, list]:
    with fonts_drawn() as drawn:
        png = render_hand(hand)
    return png, drawn


@pytest.mark.parametrize("language", ["en", "pt-BR"])
@pytest.mark.parametrize("hand", ["one card", "three cards", "four players", "three players", "biggest"])
def test_every_hand_is_readable_where_discord_shows_it(language: str, hand: str):
    cards = {
        "one card": dealt(4)[:1],
        "three cards": dealt(4)[:3],
        "four players": dealt(4),
        "three players": dealt(3),
        "biggest": biggest(),
    }[hand]
    with speaking(language):
        png, drawn = drawn_words(cards)
    assert_readable(png, drawn)  # fonts >= width / 40, height <= 3/4 of the width
    assert len(png) <= MOST_BYTES, f"{len(png)} bytes"


def test_a_small_hand_is_a_small_picture():
    with Image.open(io.BytesIO(render_hand(dealt(4)[:3]))) as small:
        assert small.width < 500  # its words larger where Discord previews it
    with Image.open(io.BytesIO(render_hand(biggest()))) as big:
        assert big.width <= picture.MAX_WIDTH and big.height <= 0.75 * big.width


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_each_line_says_its_car_in_letters_and_its_speed_and_each_card_its_number(language: str):
    hand = [[["black", 3], ["blue", 2]], [["red", 1], ["green", 4], [WILD, 3]], [["yellow", 8]]]
    with speaking(language):
        _png, drawn = drawn_words(hand)
        labels = {colour: car_label(colour) for colour in COLOURS}
    texts = [d.text for d in drawn]
    # In order: each card's number, then each line's label and speed, as on the card.
    expected = ["1", labels["black"], "3", labels["blue"], "2"]
    expected += ["2", labels["red"], "1", labels["green"], "4", "?", "3"]
    expected += ["3", labels["yellow"], "8"]
    assert texts[: len(expected)] == expected
    # Colours a colour-blind player confuses read differently: every car has letters of its own.
    assert len(set(labels.values())) == len(COLOURS)
    assert labels["black"] != labels["blue"] and labels["red"] != labels["green"]


def test_a_wild_line_is_a_question_mark_that_the_legend_calls_wild():
    _png, drawn = drawn_words([[["orange", 4], [WILD, 3]]])
    assert [d.text for d in drawn][-2:] == ["?", "wild"]  # the legend: its chip and its word
    with speaking("pt-BR"):
        _png, drawn = drawn_words([[["orange", 4], [WILD, 3]]])
    assert [d.text for d in drawn][-1] == "curinga"
    _png, drawn = drawn_words([[["orange", 4], ["red", 3]]])
    assert "wild" not in [d.text for d in drawn] and "?" not in [d.text for d in drawn]


def test_the_same_hand_is_the_same_picture():
    first = render_hand(dealt(4))
    picture._render.cache_clear()
    assert render_hand(dealt(4)) == first
    assert render_hand(dealt(4, seed=4)) != first


def test_the_alt_text_says_every_card_numbered_as_drawn():
    hand = [[["red", 4], ["blue", 2]], [[WILD, 3]]]
    assert hand_alt(hand) == "Your hand, 2 cards: 1: red 4, blue 2; 2: wild 3."
    with speaking("pt-BR"):
        assert hand_alt(hand) == "Sua mão, 2 cartas: 1: vermelho 4, azul 2; 2: curinga 3."
        long = hand_alt(biggest())
    # Discord keeps 1024 characters of a description: a hand that would not fit ends with "…" after
    # a whole card.
    assert len(long) <= picture.ALT_MAX and long.startswith("Sua mão, 26 cartas: 1: ")
    assert long.endswith(("…", ".")) and not long.endswith(", …")
