"""Every Hot Streak picture reads at Discord's preview size (the rule is in ``bot/games/fonts.py``):
no font under 1/40 of the picture's width, no picture taller than 3/4 of its width, in English and in
Portuguese; and no text is drawn over another, nor over the mascots' legend."""

from __future__ import annotations

import copy
import io
import itertools
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.games.base import Action
from bot.games.fonts import smallest_font
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.odds import odds
from bot.games.hotstreak.render import panels as card_panels
from bot.games.hotstreak.render import render_holdings, render_race
from bot.games.hotstreak.render.columns import mascot_token_centre
from bot.games.hotstreak.render.details import CHIP_D
from bot.games.hotstreak.render.geometry import (
    COLUMN_TOKEN_D,
    HEIGHT,
    PODIUM_TOKEN_D,
    WIDTH,
    RaceLayout,
    crowd_d,
    letter_px,
    panels_for,
)
from bot.games.hotstreak.render.palette import frame_palette
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.tokens import SUPERSAMPLE, token_sprite
from bot.games.hotstreak.render.track import background
from bot.games.hotstreak.replay import race_replay
from bot.i18n import speaking
from tests.readability import assert_readable, fonts_drawn

from .test_render import late_race, race_view, with_mascot

LONG_NAMES = [
    "Bartholomew the Magnificent",
    "Anastácia Conceição",
    "xX_NightRider_Xx_9000",
    "Wolfgang Amadeus",
    "Maria Aparecida da Silva",
    "Guinevere Pendragon",
    "Zé",
    "Ωmega Wwwwwwwwwwwww",
]
LANGUAGES = ["en", "pt-BR"]


def forget_drawn_pieces() -> None:
    """Drop the renderer's caches, so every text of the next picture is drawn (and recorded) again."""
    for cached in (
        background,
        frame_palette,
        token_sprite,
        card_panels.card_front,
        card_panels._card_back,
    ):
        cached.cache_clear()


def readable(draw: Callable[[], bytes], supersample: float = 1.0) -> bytes:
    forget_drawn_pieces()
    with fonts_drawn() as drawn:
        picture = draw()
    assert drawn, "no text was recorded: the caches were not cleared"
    assert_readable(picture, drawn, supersample=supersample)
    return picture


def eight_player_race(flips: int = 4, seed: int = 8) -> dict[str, Any]:
    """The public view of an eight-player game some cards into its first race (two bets each)."""
    game = HotStreak.new(8, seed)
    rng = random.Random(seed)
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    for _ in range(flips):
        game.apply(Action(None, "flip", "flip"))
    return game.view(None)


def ended_race() -> dict[str, Any]:
    """The last frame of a race: every place taken, one mascot disqualified, the deck empty."""
    view = race_view(race=2, last_card="mum +3", bar=6, cards_left=0, burned=3)
    view["podium"] = ["mum", "gobbler", "hurley", "dangle"]
    for place, key in enumerate(view["podium"], start=1):
        view = with_mascot(view, key, status="out" if key == "dangle" else "finished", place=place, pos=16)
    return view


def with_bets(view: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    return {**view, "bets": source["bets"], "cash": source["cash"]}


@pytest.fixture(scope="module")
def crowded() -> tuple[dict[str, Any], Any]:
    view = eight_player_race()
    return view, odds(view, samples=100)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_opening_frame_reads(language: str) -> None:
    with speaking(language):
        picture = readable(lambda: render_race(race_view()))
    assert Image.open(io.BytesIO(picture)).size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_frame_with_odds_and_eight_players_with_long_names_reads(
    language: str, crowded: tuple[dict[str, Any], Any]
) -> None:
    view, chances = crowded
    assert len(view["bets"]) == 8 and all(view["bets"])
    with speaking(language):
        readable(lambda: render_race(view, odds=chances, players=LONG_NAMES))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_end_of_race_frame_reads_with_the_podium_or_the_players(
    language: str, crowded: tuple[dict[str, Any], Any]
) -> None:
    view, _ = crowded
    with speaking(language):
        readable(lambda: render_race(ended_race()))
        readable(lambda: render_race(with_bets(ended_race(), view), players=LONG_NAMES))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_frame_with_a_disqualified_and_a_fallen_mascot_reads(language: str) -> None:
    with speaking(language):
        readable(lambda: render_race(late_race()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_detail_picture_of_every_ticket_reads(language: str, crowded: tuple[dict[str, Any], Any]) -> None:
    view, chances = crowded
    # The most a seat can hold: three bets (a two-player game), one of them doubled.
    view = copy.deepcopy(view)
    for held in view["bets"]:
        held.append({**held[0], "doubled": True})
    with speaking(language):
        picture = readable(lambda: render_holdings(view, odds=chances, players=LONG_NAMES))
        readable(lambda: render_holdings(race_view()))  # nobody holds a bet
    assert Image.open(io.BytesIO(picture)).width == WIDTH


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_replays_frames_read(language: str) -> None:
    game = HotStreak.new(3, 3)
    rng = random.Random(3)
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    frames = [game.view(None)]
    for _ in range(5):
        for event in game.apply(Action(None, "flip", "flip")):
            if event.kind in ("card_flipped", "bar_folded"):
                frames.append(with_bets(event.data["frame"], frames[0]))
    chances = [odds(frames[0], samples=50)] + [None] * (len(frames) - 1)
    with speaking(language):
        forget_drawn_pieces()
        with fonts_drawn() as drawn:
            replay = race_replay(frames, odds=chances, players=LONG_NAMES[:3])
    gif = Image.open(io.BytesIO(replay.data))
    # The frames are drawn 800 px wide and the replay keeps that width: its fonts are the frames' fonts.
    assert_readable(replay.data, drawn, supersample=WIDTH / gif.width)
    assert gif.n_frames == len(frames)


def test_every_token_initial_is_drawn_at_least_as_big_as_the_smallest_font() -> None:
    """Initials are drawn at ``SUPERSAMPLE`` times their size and shrunk with the token."""
    sizes = {COLUMN_TOKEN_D, PODIUM_TOKEN_D, CHIP_D}
    for length, crowd in itertools.product(range(10, 21), range(1, 5)):
        sizes.add(crowd_d(RaceLayout(4, length).token_d, crowd))
    token_sprite.cache_clear()
    with fonts_drawn() as drawn:
        for d in sorted(sizes):
            for fallen in (False, True):
                token_sprite((200, 60, 60), "M", d, "forward", fallen, False, letter_px(d))
    assert len(drawn) == 2 * len(sizes)
    assert min(d.size for d in drawn) / SUPERSAMPLE >= smallest_font(WIDTH)
    picture = io.BytesIO()
    Image.new("RGB", (WIDTH, HEIGHT)).save(picture, format="PNG")
    assert_readable(picture.getvalue(), drawn, supersample=SUPERSAMPLE)


Box = tuple[float, float, float, float]


@contextmanager
def text_boxes() -> Iterator[list[tuple[str, Box]]]:
    """The box of every text drawn straight on an 800 x 600 canvas (the frame and its background)."""
    boxes: list[tuple[str, Box]] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.im.size == (WIDTH, HEIGHT) and str(text).strip():
            boxes.append((str(text), self.textbbox(xy, text, font=font, anchor=anchor)))
        return original(self, xy, text, fill, font, anchor, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield boxes
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("frame", ["ended", "ended with bets", "deck empty mid-race", "start"])
def test_no_text_overlaps_another_or_the_legend(
    language: str, frame: str, crowded: tuple[dict[str, Any], Any]
) -> None:
    """ "race over" once ran into the first mascot of the legend on every end-of-race frame."""
    view = {
        "ended": ended_race(),
        "ended with bets": with_bets(ended_race(), crowded[0]),
        "deck empty mid-race": with_bets(race_view(cards_left=0), crowded[0]),
        "start": race_view(),
    }[frame]
    forget_drawn_pieces()
    with speaking(language), text_boxes() as boxes:
        render_race(view, odds=crowded[1] if "mid-race" in frame else None, players=LONG_NAMES)
    assert len(boxes) > 20
    for (first, a), (second, b) in itertools.combinations(boxes, 2):
        assert not overlap(a, b), (first, a, second, b)
    panels = panels_for(RaceLayout(4, 16))
    half = COLUMN_TOKEN_D // 2
    legend = [
        (x - half, y - half, x + half, y + half)
        for x, y in (mascot_token_centre(panels, read_scene(view), i) for i in range(4))
    ]
    for (words, box), token in itertools.product(boxes, legend):
        assert not overlap(box, token), (words, box, token)
    for words, box in boxes:
        assert 0 <= box[0] and box[2] <= WIDTH and 0 <= box[1] and box[3] <= HEIGHT, (words, box)


def test_an_empty_deck_says_so_in_both_languages() -> None:
    view = race_view(cards_left=0)
    for language, expected, slip in (
        ("en", "Deck empty", "0 cards left"),
        ("pt-BR", "Baralho vazio", "0 carta"),
    ):
        forget_drawn_pieces()
        with speaking(language), fonts_drawn() as drawn:
            render_race(view)
        texts = [d.text for d in drawn]
        assert expected in texts and not any(slip in t for t in texts), texts
