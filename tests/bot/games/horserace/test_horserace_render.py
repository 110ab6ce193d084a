"""The board picture: a small PNG drawn from the public view, and its words for screen readers."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.games.base import Action
from bot.games.catalog import entry
from bot.games.horserace.ai import play_out
from bot.games.horserace.game import HorseRace
from bot.games.horserace.render import _holders, alt_text, render_board
from bot.games.odds import Odds, odds_for
from bot.i18n import speaking
from tests.bot.games.horserace.horserace_table import rolls, start_race, table
from tests.english import english_in


def mid_race() -> HorseRace:
    game, dice = table(5)
    start_race(game, dice)
    rolls(game, dice, 9, 9, 4, 8)
    return game


def picture(view: dict) -> Image.Image:
    png = render_board(view)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < 250 * 1024
    return Image.open(io.BytesIO(png))


def test_the_board_is_a_small_png_sized_for_discords_preview():
    """800 x 600: 20 px type is 1/40 of the width, and 600 px is the 0.75 of it a preview shows uncut
    (``tests/bot/games/horserace/test_readable.py`` checks every text drawn)."""
    image = picture(mid_race().view(None))
    assert image.size == (800, 600)


def test_a_lane_has_one_holder_chip_per_player_holding_its_cards():
    """A seat with two cards of a horse is one chip (its count is on the detailed picture)."""
    assert _holders([[2, 2, 3], [3, 12], [], [12]]) == {2: [0], 3: [0, 1], 12: [1, 3]}


def test_the_picture_changes_when_a_horse_moves():
    game, dice = table(5)
    start_race(game, dice)
    before = render_board(game.view(None))
    rolls(game, dice, 9)
    assert render_board(game.view(None)) != before


def test_every_phase_renders():
    game = HorseRace.new(15, seed=2, settings={"board": "classic16", "races": 1})
    picture(game.view(None))
    play_out(game)
    picture(game.view(None))


def test_player_names_from_the_host_are_drawn():
    view = mid_race().view(None)
    named = dict(view, names=["Ann", "Bob", "Cleopatra", "Dee", "Eve"])
    assert render_board(named) != render_board(view)


def test_fifteen_players_with_long_names_still_fit_the_picture():
    game = HorseRace.new(15, seed=11, settings={"board": "classic16"})
    for _ in range(30):  # deal, scratch and run a little, so every lane has its holders
        decision = game.pending()[0]
        game.apply(Action(decision.player, decision.kind, decision.options[0]))
    view = game.view(None)
    named = dict(view, names=[f"Player number {seat + 1}" for seat in range(15)])
    image = picture(named)
    assert image.size == (800, 600)
    assert render_board(named) != render_board(view)


def test_alt_text_tells_the_race_in_words():
    text = alt_text(mid_race().view(None))
    assert "race 1 of 5" in text
    assert "Jackpot $8" in text  # five fees and a $3 penalty
    assert "horse 7 (x1)" in text and "horse 5 (x4)" in text
    assert "9: 9 to go" in text
    assert "Last roll: Seat 4 rolled 6 and 2, total 8." in text


def _race_view() -> dict:
    from bot.games.base import Action
    from bot.games.horserace.game import HorseRace

    game = HorseRace.new(4, 3)
    rolls = 20
    while rolls:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        if game.view(None)["phase"] == "race":
            rolls -= 1
    return game.view(None)


def test_every_lane_spans_the_whole_board_from_the_badges_to_the_finish() -> None:
    from PIL import Image

    from bot.games.horserace.render import FINISH_X, LANE_H, LANES_X, _lane_y

    view = _race_view()
    image = Image.open(io.BytesIO(render_board(view))).convert("RGB")
    for horse in range(2, 13):
        y = _lane_y(horse) + LANE_H // 2 + 12
        for x in (LANES_X + 6, FINISH_X - 10):
            assert image.getpixel((x, y)) != image.getpixel((8, y)), (horse, x)  # not the bare turf


def test_odds_are_drawn_and_read_out_as_percentages() -> None:
    from bot.games.horserace.odds import odds

    view = _race_view()
    chances = odds(view)
    assert render_board(view, odds=chances) != render_board(view)
    text = alt_text(view, odds=chances)
    best = max(chances.win, key=lambda h: chances.win[h])
    assert f"horse {best} {chances.percent(best)}% to win" in text
    assert "Odds (exact)" in text


def drawn_words(view: dict, monkeypatch: pytest.MonkeyPatch, odds: Odds | None = None) -> list[str]:
    """Every text the picture draws (background included: its cache is emptied first)."""
    from bot.games.horserace import render

    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, words: str, *args: object, **kwargs: object) -> None:
        drawn.append(words)
        original(self, xy, words, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", text)
        render._background.cache_clear()
        render_board(view, odds=odds)
    return drawn


def test_the_picture_and_its_alt_text_speak_the_readers_language(monkeypatch: pytest.MonkeyPatch):
    game = mid_race()
    view = dict(game.view(None), names=["Ann", "Bob", "Cid", "Dee", "Eve"])
    chances = odds_for("horserace", view)
    english = drawn_words(view, monkeypatch, chances)
    with speaking("pt-BR"):
        portuguese = drawn_words(view, monkeypatch, chances)
        alt = alt_text(view, odds=chances)
        png = render_board(view, odds=chances)
    assert {"JACKPOT", "SCRATCHES", "LAST ROLL"} <= set(english)
    assert {"POTE", "RISCADOS", "ÚLTIMA ROLAGEM", "Tabuleiro padrão"} <= set(portuguese)
    # The game's title is the catalog's, translated with the shared messages (by i18n-common).
    names = [*view["names"], entry("horserace").title]
    assert english_in(" ".join(portuguese), allowed=names) == []
    assert alt != alt_text(view, odds=chances) and "Pote de" in alt
    assert english_in(alt, allowed=names) == []
    # The cached background is kept per language: English after Portuguese is English again.
    assert png != render_board(view, odds=chances)
    with speaking("pt-BR"):
        assert render_board(view, odds=chances) == png
