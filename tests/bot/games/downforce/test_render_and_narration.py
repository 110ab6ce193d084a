"""The picture and the words players get after every card."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.games.downforce.ai import ai_action
from bot.games.downforce.game import Downforce
from bot.games.downforce.narration import narrate
from bot.games.downforce.render import CAR_RGB, alt_text, render_track


def mid_race(track: str = "river-station", cards: int = 12) -> Downforce:
    game = Downforce.new(4, 7, {"track": track})
    rng = random.Random(7)
    while not game.is_over and game.s["played"].__len__() < cards:
        game.apply(ai_action(game, ["easy"] * 4, rng))
    return game


def test_the_picture_is_a_1200_by_900_png_with_every_car_on_the_track_in_its_colour():
    for track in ("river-station", "marina-bay"):
        game = Downforce.new(3, 1, {"track": track})
        image = Image.open(io.BytesIO(render_track(game.view(None)))).convert("RGB")
        assert image.size == (1200, 900)  # no taller than 3/4 of its width: Discord's preview shows it whole
        colours = [rgb for _, rgb in image.getcolors(maxcolors=4096)]
        for rgb in CAR_RGB.values():
            # The palette keeps every car's colour (within a shade).
            assert min(sum(abs(a - b) for a, b in zip(rgb, c, strict=True)) for c in colours) <= 24


def test_the_picture_is_drawn_from_the_public_view_alone_at_any_moment():
    game = mid_race(cards=20)
    png = render_track(game.view(None))
    assert png.startswith(b"\x89PNG")
    over = mid_race(cards=999)
    assert over.is_over
    render_track(over.view(None))


def test_alt_text_names_the_track_the_places_and_the_lines():
    text = alt_text(mid_race().view(None))
    assert text.startswith("River Station.")
    assert "1st" in text and "Yellow lines on rows" in text
    assert len(text) < 1000


def test_one_line_of_narration_per_played_card():
    game = Downforce.new(2, 3)
    rng = random.Random(3)
    lines = []
    while not game.is_over:
        for event in game.apply(ai_action(game, ["easy", "easy"], rng)):
            text = narrate(event)
            assert text and "\n" not in text
            if event.kind == "card_resolved":
                lines.append(text)
    assert len(lines) == len(game.s["played"])
    assert all(line.startswith("Seat ") and " plays " in line for line in lines)


def test_narration_of_a_card_says_where_each_car_went():
    event = {
        "kind": "card_resolved",
        "data": {
            "seat": 1,
            "card": "c01",
            "number": 4,
            "lines": [["red", 4], ["blue", 2], ["green", 3]],
            "wilds": [2],
            "moves": [
                {"car": "red", "to": "09a", "row": 9, "steps": 4, "speed": 4, "place": None},
                {"car": "blue", "to": "03a", "row": 3, "steps": 0, "speed": 2, "place": None},
                {"car": "green", "to": "FINISH", "row": 34, "steps": 2, "speed": 3, "place": 1},
            ],
            "first_lines": [11],
        },
    }
    assert narrate(event) == (
        "Seat 2 plays red 4, blue 2, wild 3 (green): red moves 4 to row 9, blue is blocked, "
        "green finishes 1st; yellow line at row 11 crossed: place your bets."
    )


def test_private_events_are_narrated_for_their_owner_only():
    game = Downforce.new(2, 3)
    dealt = [e for e in game.opening_events() if e.kind == "dealt"]
    assert [e.visible_to for e in dealt] == [(0,), (1,)]
    assert narrate(dealt[0]) == "Seat 1 is dealt 21 cards."


def test_options_read_as_cards_cars_and_places_on_the_track():
    from bot.games.downforce.narration import option_label

    game = Downforce.new(2, 3)
    view = game.view(0)
    decision = game.decision_for(0)
    label = option_label(view, "bid", decision.options[0])
    assert label.startswith("bid ") and ", " in label or label.count(" ") >= 2
    assert option_label(view, "bet", "red") == "red car"
    assert option_label(view, "move", "FINISH") == "the finish"
    view["choice"] = {"speed": 3, "paths": {"05a": ["03a", "04a"]}}
    assert option_label(view, "move", "05a") == "row 5, lane 1 (dead end)"


def test_the_rules_text_fits_a_discord_message_and_names_every_phase():
    from bot.games.downforce.rules import RULES

    assert len(RULES) < 2000
    for word in ("Auctions", "The race", "Bets", "Odds betting", "The end"):
        assert word in RULES


def test_each_car_is_drawn_on_its_space_where_the_track_is_scaled_into_the_picture():
    from bot.games.downforce.render import Geometry

    view = mid_race().view(None)
    image = Image.open(io.BytesIO(render_track(view))).convert("RGB")
    geo = Geometry(view["track"])
    for colour, car in view["cars"].items():
        if car["space"] in geo.spaces:
            (x, y), _f, _l = geo.axes(car["space"])
            below_the_letters = image.getpixel((round(x), round(y + 17)))
            assert sum(abs(a - b) for a, b in zip(below_the_letters, CAR_RGB[colour], strict=True)) <= 24, (
                colour
            )
