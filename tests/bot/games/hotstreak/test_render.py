"""The race picture shows what the rules say the table shows: mascots in their lanes, fallen ones
tipped over, finished ones on the podium, disqualified ones boxed off, the card just flipped."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from bot.games.hotstreak.render import alt_text, render_race, style, token_centre
from bot.games.hotstreak.render.columns import mascot_token_centre
from bot.games.hotstreak.render.geometry import (
    COLUMN_TOKEN_D,
    HEIGHT,
    TRACK_LEFT,
    TRACK_TOP,
    WIDTH,
    RaceLayout,
    panels_for,
)
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.words import card_face

# Vivid colours that appear nowhere in the felt, track or panels, so finding one means a token.
COLOURS = {"gobbler": "#1f6bff", "hurley": "#ff3fd0", "dangle": "#00d2c8", "mum": "#a020ff"}


def drawn(colour: str) -> tuple[int, int, int]:
    """A mascot's colour as the picture draws it: lightened where needed to stand out on the track."""
    return style.legible(style.hex_rgb(colour))


def race_view(**changes: Any) -> dict[str, Any]:
    """A public race view as the engine publishes it: everyone at the start, no card flipped yet."""
    view: dict[str, Any] = {
        "game": "hotstreak",
        "phase": "race",
        "race": 1,
        "races": 3,
        "track": {"lanes": 4, "length": 16, "stars": [[4, 11], [7], [3, 13], [9]], "white_lines": [5, 10]},
        "bar": 0,
        "mascots": {
            key: {
                "lane": i,
                "pos": 0,
                "facing": "forward",
                "fallen": False,
                "status": "racing",
                "place": None,
            }
            for i, key in enumerate(COLOURS)
        },
        "mascot_info": {key: {"name": key.title(), "colour": colour} for key, colour in COLOURS.items()},
        "last_card": None,
        "cards_left": 14,
        "burned": 3,
        "podium": [None, None, None, None],
    }
    view.update(changes)
    return view


def with_mascot(view: dict[str, Any], key: str, **fields: Any) -> dict[str, Any]:
    view = copy.deepcopy(view)
    view["mascots"][key].update(fields)
    return view


def midrace() -> dict[str, Any]:
    view = race_view(race=2, last_card="mum swerve-left 2", cards_left=8)
    view = with_mascot(view, "gobbler", pos=6)
    view = with_mascot(view, "hurley", pos=4, fallen=True)
    view = with_mascot(view, "dangle", pos=9, facing="back")
    return with_mascot(view, "mum", pos=11, lane=2)


def late_race() -> dict[str, Any]:
    view = race_view(
        race=3, last_card="all +2", bar=10, cards_left=2, podium=["gobbler", None, None, "dangle"]
    )
    view = with_mascot(view, "gobbler", pos=16, status="finished", place=1)
    view = with_mascot(view, "dangle", pos=-1, status="out", place=4)
    view = with_mascot(view, "hurley", pos=12, lane=1, fallen=True, facing="back")
    return with_mascot(view, "mum", pos=12, lane=1)


def picture(view: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(render_race(view))).convert("RGB")


def close(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def count_colour(
    img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], tolerance: int = 30
) -> int:
    raw = img.crop(box).tobytes()
    return sum(1 for i in range(0, len(raw), 3) if close(tuple(raw[i : i + 3]), colour, tolerance))


def token_d(view: dict[str, Any]) -> int:
    return RaceLayout(view["track"]["lanes"], view["track"]["length"]).token_d


def track_box(view: dict[str, Any]) -> tuple[int, int, int, int]:
    layout = RaceLayout(view["track"]["lanes"], view["track"]["length"])
    return (TRACK_LEFT, TRACK_TOP, layout.track_right, layout.track_bottom)


VIEWS = {
    "start": race_view(),
    "midrace": midrace(),
    "late": late_race(),
    "long track": race_view(
        track={"lanes": 4, "length": 20, "stars": [[4, 17], [], [3], [9]], "white_lines": [5, 15]}
    ),
    "short track": race_view(track={"lanes": 4, "length": 12, "stars": [[], [], [], []], "white_lines": [6]}),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_the_picture_is_a_small_800_by_600_png_whatever_the_track(name: str) -> None:
    data = render_race(VIEWS[name])
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.verify()
    # Drawn for Discord's preview: 1/40 of 800 px is the 20 px the smallest text has (test_readable).
    assert (img.width, img.height) == (WIDTH, HEIGHT) == (800, 600)
    assert len(data) < 120 * 1024


@pytest.mark.parametrize("name", ["start", "midrace", "long track", "short track"])
def test_every_racing_mascot_is_drawn_in_its_colour_where_it_stands(name: str) -> None:
    view = VIEWS[name]
    img = picture(view)
    half = token_d(view) // 3
    for key, colour in COLOURS.items():
        if view["mascots"][key]["status"] != "racing":
            continue
        x, y = token_centre(view, key)
        found = count_colour(img, (x - half, y - half, x + half, y + half), drawn(colour))
        assert found > (2 * half) ** 2 // 5, key


def test_a_mascot_is_drawn_in_its_lane_and_space() -> None:
    view = with_mascot(race_view(), "mum", lane=2, pos=7)
    layout = RaceLayout(4, 16)
    x, y = token_centre(view, "mum")
    assert layout.x_at(7) < x < layout.x_at(8)
    assert layout.lane_top(2) < y < layout.lane_top(3)


def test_a_fallen_mascot_is_tipped_over() -> None:
    standing = with_mascot(race_view(), "hurley", pos=5)
    fallen = with_mascot(standing, "hurley", fallen=True)
    x, y = token_centre(standing, "hurley")
    assert token_centre(fallen, "hurley") == (x, y)
    d = token_d(standing)
    colour = drawn(COLOURS["hurley"])
    # Upper left of a standing disc (clear of its initial and highlight); above a tipped-over one.
    above = (x - int(d * 0.35), y - int(d * 0.175))
    assert close(picture(standing).getpixel(above), colour)
    assert not close(picture(fallen).getpixel(above), colour)
    box = (x - d, y - d, x + d, y + d)
    assert picture(standing).crop(box).tobytes() != picture(fallen).crop(box).tobytes()


def test_the_arrow_points_the_way_the_mascot_faces() -> None:
    forward = with_mascot(race_view(), "dangle", pos=8)
    back = with_mascot(forward, "dangle", facing="back")
    x, y = token_centre(forward, "dangle")
    reach = int(token_d(forward) * 0.62)
    assert close(picture(forward).getpixel((x + reach, y)), style.ARROW_FORWARD)
    assert close(picture(back).getpixel((x - reach, y)), style.ARROW_BACK)
    assert not close(picture(back).getpixel((x + reach, y)), style.ARROW_FORWARD)


@pytest.mark.parametrize("status", ["finished", "out"])
def test_finished_and_disqualified_mascots_are_not_on_the_track(status: str) -> None:
    view = with_mascot(race_view(), "gobbler", pos=16 if status == "finished" else -1, status=status, place=1)
    view["podium"] = ["gobbler", None, None, None]
    with pytest.raises(ValueError):
        token_centre(view, "gobbler")
    img = picture(view)
    colour = drawn(COLOURS["gobbler"])
    assert count_colour(img, track_box(view), colour) == 0
    # ...but they are still in the picture: on the podium, and in the mascots column with their place
    # (a medal in the 1st step's colour), crossed out in red if disqualified.
    panels = panels_for(RaceLayout(4, 16))
    assert count_colour(img, panels.podium, colour) > 100
    x, y = mascot_token_centre(panels, read_scene(view), 0)
    row = (x - COLUMN_TOKEN_D, y - COLUMN_TOKEN_D, panels.mascots[2], y + COLUMN_TOKEN_D)
    assert count_colour(img, row, colour) > 100
    assert count_colour(img, row, style.STEP_COLOURS[0], tolerance=8) > 400
    token = (
        x - COLUMN_TOKEN_D // 2,
        y - COLUMN_TOKEN_D // 2,
        x + COLUMN_TOKEN_D // 2,
        y + COLUMN_TOKEN_D // 2,
    )
    crossed = count_colour(img, token, style.DQ_RED, tolerance=20)
    assert crossed > 30 if status == "out" else crossed == 0


def test_mascots_sharing_a_space_are_both_visible() -> None:
    view = late_race()
    hurley, mum = token_centre(view, "hurley"), token_centre(view, "mum")
    assert hurley != mum
    img = picture(view)
    for key in ("hurley", "mum"):
        x, y = token_centre(view, key)
        assert count_colour(img, (x - 8, y - 8, x + 8, y + 8), drawn(COLOURS[key])) > 20, key


def test_the_card_just_flipped_is_coloured_by_its_mascot_or_green_for_all() -> None:
    panels = panels_for(RaceLayout(4, 16))
    x0, y0, _, _ = panels.card_face
    band = (x0 + 8, y0 + 4, x0 + 12, y0 + 8)  # left of the title text, inside the coloured band
    mum_card = picture(midrace())
    assert count_colour(mum_card, band, drawn(COLOURS["mum"])) == 16
    all_card = picture(late_race())
    assert count_colour(all_card, band, style.ALL_GREEN) == 16


def test_the_card_leaves_the_mascots_name_to_its_coloured_band() -> None:
    scene = read_scene(midrace())
    face = card_face("gobbler +3", scene)
    assert face.title == "Gobbler"
    assert face.body == "Runs 3 spaces the way it faces"
    assert card_face("all +2", scene).body == "Run 2 spaces the way they face"
    assert card_face("mum swerve-left 2", scene).body == "Runs 2 spaces, then swerves left"
    assert card_face("nobody knows", scene).body == "nobody knows"  # an unknown card, as written


def test_every_mascot_is_in_the_legend_even_with_long_names() -> None:
    view = race_view()
    for key in view["mascot_info"]:
        view["mascot_info"][key]["name"] = key.title() * 3
    img = picture(view)
    panels = panels_for(RaceLayout(4, 16))
    # The mascots column is the legend: one row each, in the view's order, the token in its colour.
    for i, (key, colour) in enumerate(COLOURS.items()):
        x, y = mascot_token_centre(panels, read_scene(view), i)
        box = (
            x - COLUMN_TOKEN_D // 2,
            y - COLUMN_TOKEN_D // 2,
            x + COLUMN_TOKEN_D // 2,
            y + COLUMN_TOKEN_D // 2,
        )
        assert count_colour(img, box, drawn(colour)) > 200, key


def test_the_folded_part_of_the_track_is_grey_and_lighter_than_the_track() -> None:
    folded = picture(race_view(bar=10))
    layout = RaceLayout(4, 16)
    behind = (round(layout.cell_cx(2)) + 12, round(layout.lane_cy(3)) + 12)
    ahead = (round(layout.cell_cx(12)) + 12, round(layout.lane_cy(3)) + 12)
    r, g, b = folded.getpixel(behind)
    assert max(r, g, b) - min(r, g, b) < 12
    assert style.contrast(folded.getpixel(behind), folded.getpixel(ahead)) > 1.5


def test_rendering_is_deterministic() -> None:
    first = render_race(midrace())
    render_race(late_race())
    assert render_race(midrace()) == first


def test_missing_optional_keys_still_draw() -> None:
    view = race_view(track={"lanes": 4, "length": 14}, podium=[], last_card=None)
    del view["mascot_info"]
    del view["burned"]
    img = Image.open(io.BytesIO(render_race(view)))
    assert img.width <= 1200
    assert "Gobbler" in alt_text(view)


def test_alt_text_names_every_mascot_and_the_last_card() -> None:
    text = alt_text(midrace())
    for name in ("Gobbler", "Hurley", "Dangle", "Mum"):
        assert name in text
    assert "Race 2 of 3".lower() in text.lower()
    assert "mum swerve-left 2" in text
    assert "swerves left" in text
    assert "fallen" in text  # Hurley
    assert "turned around" in text  # Dangle
    assert "8 cards left" in text


def test_alt_text_gives_the_podium_and_the_disqualified() -> None:
    text = alt_text(late_race())
    assert "Gobbler: finished, 1st" in text
    assert "Dangle: disqualified" in text
    assert "Podium: 1st Gobbler, 2nd empty, 3rd empty, 4th Dangle" in text
    assert "folded to space 10" in text


def test_alt_text_stays_under_1000_characters() -> None:
    view = late_race()
    for key in view["mascot_info"]:
        view["mascot_info"][key]["name"] = key.title() * 12
    assert len(alt_text(view)) < 1000


def test_every_mascot_of_the_edition_contrasts_with_the_track_at_least_3_to_1() -> None:
    from bot.games.hotstreak.content import default_content

    for key, info in default_content().mascots.items():
        colour = drawn(info["colour"])
        for ground in style.TRACK_COLOURS:
            assert style.contrast(colour, ground) >= 3.0, (key, colour, ground)
    for colour in COLOURS.values():  # and any colour an edition could choose
        for ground in style.TRACK_COLOURS:
            assert style.contrast(drawn(colour), ground) >= 3.0


def test_a_fallen_mascot_keeps_a_big_upright_letter() -> None:
    view = with_mascot(race_view(), "mum", pos=6, fallen=True)
    img = picture(view)
    x, y = token_centre(view, "mum")
    d = token_d(view)
    ink = style.ink_on(drawn(COLOURS["mum"]))
    box = (x - d // 2, y - d // 2, x + d // 2, y + d // 2)
    # The letter's ink covers a good part of the token, as on a standing one.
    standing = picture(race_view())
    sx, sy = token_centre(race_view(), "mum")
    assert count_colour(img, box, ink) >= 0.6 * count_colour(
        standing, (sx - d // 2, sy - d // 2, sx + d // 2, sy + d // 2), ink
    )


def _game_view() -> dict[str, Any]:
    import random

    from bot.games.base import Action
    from bot.games.hotstreak.game import HotStreak

    game = HotStreak.new(3, 5)
    rng = random.Random(5)
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    game.apply(Action(None, "flip", "flip"))
    return game.view(None)


def test_odds_are_drawn_as_bars_and_read_out_as_percentages() -> None:
    from bot.games.hotstreak.odds import bet_value, odds
    from bot.games.hotstreak.render.holdings import signed_money
    from tests.readability import fonts_drawn

    view = _game_view()
    chances = odds(view, samples=300)
    plain = Image.open(io.BytesIO(render_race(view)))
    with fonts_drawn() as texts:
        with_odds = Image.open(io.BytesIO(render_race(view, odds=chances, players=["Ann", "Bo", "Cy"])))
    assert with_odds.size == plain.size  # a race's frames never change size
    assert with_odds.convert("RGB").tobytes() != plain.convert("RGB").tobytes()
    # Each mascot's chance to win, and each player's line says what the bets are worth at these odds.
    drawn_texts = [t.text for t in texts]
    for key in view["mascots"]:
        assert f"{chances.percent(key)}%" in drawn_texts, key
    for held in view["bets"]:
        assert signed_money(sum(bet_value(b, chances) for b in held)) in drawn_texts
    text = alt_text(view, odds=chances, players=["Ann", "Bo", "Cy"])
    gobbler = chances.percent("gobbler")
    assert f"Gobbler {gobbler}% to win" in text
    assert "300 simulated races" in text
    assert "Ann ($10) holds" in text
    assert len(text) <= 1000


def test_the_picture_gives_each_player_a_line_and_a_frame_without_bets_shows_the_podium() -> None:
    from tests.readability import fonts_drawn

    view = _game_view()
    with fonts_drawn() as texts:
        with_bets = picture(view)
    bare = picture({k: v for k, v in view.items() if k != "bets"})
    assert with_bets.size == bare.size  # a race's frames never change size
    drawn_texts = [t.text for t in texts]
    for seat in range(len(view["bets"])):
        assert f"Seat {seat + 1}" in drawn_texts
    assert "$10" in drawn_texts
    # Without bets, the right-hand panel holds the podium's steps instead of the players' lines.
    right = panels_for(RaceLayout(4, 17)).right
    assert count_colour(bare, right, style.STEP_COLOURS[0], tolerance=6) > 1000
    assert count_colour(with_bets, right, style.STEP_COLOURS[0], tolerance=6) < 50  # (gold text edges)
    assert "Tickets: Seat 1" in alt_text(view)


def test_the_detail_picture_draws_every_bet_and_says_them_in_words() -> None:
    from bot.games.hotstreak.render import holdings_alt_text, render_holdings
    from tests.readability import fonts_drawn

    view = _game_view()
    with fonts_drawn() as texts:
        picture = Image.open(io.BytesIO(render_holdings(view, players=["Ann", "Bo", "Cy"])))
    assert picture.width == WIDTH and picture.height <= 0.75 * WIDTH
    drawn_texts = [t.text for t in texts]
    for name, held in zip(["Ann", "Bo", "Cy"], view["bets"], strict=True):
        assert name in drawn_texts
        for bet in held:  # a chip per bet: a ticket's 1st/2nd/3rd values, a side bet's right/wrong
            values = bet["values"] if bet["kind"] == "ticket" else bet["values"][:2]
            assert "/".join(str(v) for v in values) in drawn_texts, bet
    assert holdings_alt_text(view, players=["Ann", "Bo", "Cy"]).startswith("Tickets: Ann ($10) holds ")
    assert holdings_alt_text(race_view()) == "Tickets: nobody holds a bet."
