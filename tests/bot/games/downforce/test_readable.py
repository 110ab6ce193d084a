"""Downforce's pictures are readable where Discord shows them (about 400 px wide) and the track says
what the words say: every text at least 1/40 of the picture's width, no picture taller than 3/4 of its
width, row and lane numbers as the narration counts them, START and FINISH, the way the cars go and a
legend of the special spaces the track has."""

from __future__ import annotations

import functools
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.games.downforce import render
from bot.games.downforce.ai import ai_action
from bot.games.downforce.game import Downforce
from bot.games.downforce.narration import option_label
from bot.games.downforce.odds import odds
from bot.games.downforce.render import (
    HEIGHT,
    PANEL_W,
    WIDTH,
    Geometry,
    _hits,
    _panel_box,
    _road,
    legend_items,
    render_track,
)
from bot.games.downforce.replay import race_replay
from bot.games.fonts import smallest_font
from bot.i18n import speaking
from cogs.downforce.picture import marked_spaces, render_choice
from tests.readability import assert_readable, fonts_drawn

TRACKS = sorted(p.stem for p in Path("assets/downforce/tracks").glob("*.json"))
NAMES = ["Alexandra", "Bo", "Christopher Columbus", "Di"]


@pytest.fixture(autouse=True)
def _draw_the_track_afresh() -> None:
    """The track's own words (row numbers, START, FINISH, the legend) are drawn once per track and
    cached: each test starts without that cache so ``fonts_drawn`` sees them too."""
    render._background.cache_clear()


@functools.lru_cache(maxsize=32)
def _race(track: str, cards: int) -> Downforce:
    game = Downforce.new(4, 7, {"track": track, "powers": "all"})
    rng = random.Random(7)
    while not game.is_over and len(game.s["played"]) < cards:
        game.apply(ai_action(game, ["easy"] * 4, rng))
    return game


def view_at(track: str, moment: str) -> dict:
    """The public view with the players' names: at the grid, after 14 cards, or at the end."""
    cards = {"start": 0, "mid": 14, "end": 999}[moment]
    return {**_race(track, cards).view(None), "names": NAMES}


def drawn_texts(view: dict, **options) -> list[str]:
    with fonts_drawn() as drawn:
        render_track(view, **options)
    return [d.text for d in drawn]


def test_the_track_picture_is_chosen_for_the_preview():
    assert (WIDTH, HEIGHT) == (1200, 900) and HEIGHT <= 0.75 * WIDTH
    assert smallest_font(WIDTH) == 30  # 10 px where Discord shows it 400 px wide


@pytest.mark.parametrize("language", ["en", "pt-BR"])
@pytest.mark.parametrize("track", TRACKS)
def test_every_track_is_readable_at_the_start_mid_race_and_at_the_end(track: str, language: str):
    with speaking(language):
        for moment in ("start", "mid", "end"):
            view = view_at(track, moment)
            chances = odds(view, samples=20) if view["phase"] not in ("auction", "keep") else None
            with fonts_drawn() as drawn:
                png = render_track(view, chances)
            assert_readable(png, drawn)
            with Image.open(io.BytesIO(png)) as image:
                assert image.size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_a_choice_picture_with_its_lettered_spaces_is_readable(language: str):
    view = view_at("crosstown-speedway", "mid")
    options = [s["id"] for s in view["track"]["spaces"] if s["row"] in (20, 21)][:4] + ["FINISH"]
    with speaking(language), fonts_drawn() as drawn:
        png = render_choice(view, options)
    assert_readable(png, drawn)
    assert {"A", "B", "C", "D"} <= {d.text for d in drawn}


def test_marks_letter_their_spaces_clearly_above_the_cars():
    view = view_at("river-station", "mid")
    cars = {c["space"] for c in view["cars"].values()}
    ident = next(s["id"] for s in view["track"]["spaces"] if s["id"] in cars)  # a space with a car on it
    empty = next(s["id"] for s in view["track"]["spaces"] if s["id"] not in cars and s["row"] > 5)
    marks = {ident: "A", empty: "B"}
    plain = Image.open(io.BytesIO(render_track(view))).convert("RGB")
    marked = Image.open(io.BytesIO(render_track(view, marks=marks))).convert("RGB")
    geo = Geometry(view["track"])
    for space in marks:
        (x, y), _f, _l = geo.axes(space)
        # A white disc around the letter, where the road (or the car) was.
        ring = [(round(x + dx), round(y + dy)) for dx, dy in ((18, 0), (-18, 0), (0, 19), (0, -19))]
        assert all(min(marked.getpixel(p)) > 220 for p in ring), space
        assert any(min(plain.getpixel(p)) < 200 for p in ring), space
    with fonts_drawn() as drawn:
        render_track(view, marks=marks)
    assert [d.size for d in drawn if d.text in ("A", "B")] == [30, 30]


def test_a_choice_letters_the_spaces_in_the_order_of_its_options():
    assert marked_spaces(["09b", "FINISH", "09a"], {"09a", "09b"}) == {"09b": "A", "09a": "B"}


@pytest.mark.parametrize("track", TRACKS)
def test_the_track_numbers_its_rows_and_lanes_as_the_words_do(track: str):
    view = view_at(track, "mid")
    texts = drawn_texts(view)
    rows = {int(t) for t in texts if t.isdigit()}
    lines = set(view["track"]["lines"])
    # Every yellow line's row is numbered, and rows all along the track (at least one in three).
    assert lines <= rows
    last = max(s["row"] for s in view["track"]["spaces"])
    assert len([r for r in rows if r > 3]) >= last // 3
    assert "START" in texts and "FINISH" in texts
    # Lanes count from 1 at the left, on the picture and in the words: never a lane 0.
    fifth = [s for s in view["track"]["spaces"] if s["row"] == 5]
    assert {str(s["lane"] + 1) for s in fifth} <= set(texts) and "0" not in texts
    left = min(fifth, key=lambda s: s["lane"])
    assert option_label(view, "move", left["id"]) == f"row 5, lane {left['lane'] + 1}"
    assert left["lane"] + 1 == 1


def test_start_and_finish_are_written_in_the_readers_language():
    with speaking("pt-BR"):
        texts = drawn_texts(view_at("marina-bay", "mid"))
    assert "LARGADA" in texts and "CHEGADA" in texts


@pytest.mark.parametrize("track", TRACKS)
def test_the_legend_explains_only_the_special_spaces_the_track_has(track: str):
    view = view_at(track, "mid")
    texts = set(drawn_texts(view))
    words = {
        "tight": "one car only",
        "ramp": "ramp, landing",
        "crack": "crack: no stopping",
        "loop": "loop",
        "animal": "animal: blocks",
    }
    kinds = legend_items(view["track"])
    assert kinds[0] == "line" and "bets" in texts
    for kind, text in words.items():
        assert (text in texts) == (kind in kinds), (track, kind)
    special = {"aloha-sands": "ramp", "switchback-pass": "crack", "crosstown-speedway": "loop"}
    special["savanna-stretch"] = "animal"
    if track in special:
        assert special[track] in kinds


@pytest.mark.parametrize("track", TRACKS)
def test_the_places_panel_sits_in_the_infield_clear_of_the_road(track: str):
    geo = Geometry(view_at(track, "start")["track"])
    box = _panel_box(geo)
    assert not any(_hits(box, quad) for quad in _road(geo, 0))  # no space under it
    assert box[2] - box[0] >= PANEL_W[0] and box[1] > 52 and box[3] < HEIGHT - 52


def test_the_places_panel_draws_whole_words_and_no_text_over_a_bar():
    # Only a player's name too long for its column is cut; "finished" and every percentage are whole.
    view = view_at("river-station", "end")
    view["names"] = ["A very long player name indeed", "Bo", "Cy", "Di"]
    texts = drawn_texts(view)
    cut = [t for t in texts if t.endswith("…")]
    assert cut and all("A very long player name indeed".startswith(t[:-1]) for t in cut)
    assert texts.count("finished") == sum(c["finished"] for c in view["cars"].values())
    racing = view_at("river-station", "mid")
    chances = odds(racing, samples=20)
    shown = drawn_texts(racing, odds=chances)
    for colour in racing["cars"]:
        assert f"{chances.percent(colour)}%" in shown


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_the_replay_frames_are_readable_at_the_replays_width(language: str):
    game = Downforce.new(3, 5, {"track": "savanna-stretch", "powers": "all"})
    rng = random.Random(5)
    views, seen = [], -1
    while not game.is_over:
        game.apply(ai_action(game, ["easy"] * 3, rng))
        view = game.view(None)
        if view["phase"] in ("race", "bet", "over") and view["cards_played"] != seen:
            seen = view["cards_played"]
            views.append(view)
    views = views[:4] + views[-2:]
    with speaking(language), fonts_drawn() as drawn:
        animation = race_replay(views, odds=[odds(v, samples=10) for v in views])
    width, height = animation.size
    assert height <= 0.75 * width
    # The frames are drawn 1200 px wide and scaled to the replay's width: fonts count scaled.
    assert_readable(animation.data, drawn, supersample=WIDTH / width)
