"""Every Horse Race picture reads where Discord shows it (about 400 px wide): no type under 1/40 of the
picture's width, never taller than 0.75 of it (``bot.games.fonts``), in every phase and in both
languages; and what players found unreadable on the old board stays fixed (a cut AI marker, an
unexplained "D", an odds column without a header, holder chips too small to read)."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.games.base import Action
from bot.games.fonts import smallest_font
from bot.games.horserace import render
from bot.games.horserace.ai import play_out
from bot.games.horserace.board import HORSES
from bot.games.horserace.game import HorseRace
from bot.games.horserace.odds import odds
from bot.games.horserace.render import (
    fit_name,
    holdings_alt_text,
    render_board,
    render_holdings,
)
from bot.games.horserace.replay import race_replay
from bot.games.odds import Odds
from bot.i18n import Language, speaking
from tests.bot.games.horserace.horserace_table import rolls, start_race, table
from tests.readability import Drawn, assert_readable, fonts_drawn

LANGUAGES: list[Language] = ["en", "pt-BR"]
LONG_NAMES = [
    "Bartholomew Fitzgerald-Smythe",
    "Lovelace (AI)",
    "Ada (AI)",
    "Maximiliana Rodrigues da Silva",
    "Babbage (AI)",
    "Zé",
]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[Language]:
    with speaking(request.param):
        yield request.param


def steps(game: HorseRace, count: int) -> HorseRace:
    for _ in range(count):
        decision = game.pending()[0]
        game.apply(Action(decision.player, decision.kind, decision.options[0]))
    return game


def to_the_winner(game: HorseRace) -> HorseRace:
    while game.view(None)["winner"] is None:
        steps(game, 1)
    return game


def board(view: dict, chances: Odds | None = None) -> tuple[bytes, list[Drawn]]:
    """The board and every text it draws, its cached background's included (the cache is emptied)."""
    render._background.cache_clear()
    with fonts_drawn() as drawn:
        png = render_board(view, odds=chances)
    return png, drawn


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def words(drawn: list[Drawn]) -> list[str]:
    return [d.text for d in drawn]


def six_long_names() -> dict:
    """Six players, long names and three AI seats, mid-race with scratches, as the host sends it."""
    return dict(steps(HorseRace.new(6, seed=3), 21).view(None), names=LONG_NAMES)


def test_the_board_at_the_start_of_a_race_is_readable(language: Language) -> None:
    game, dice = table(5)
    steps(game, 1)  # the deal: the scratch round is next, nothing rolled yet
    png, drawn = board(dict(game.view(None), names=["Ann", "Bob", "Cid", "Dee", "Eve"]))
    assert size(png) == (800, 600)
    assert_readable(png, drawn)


def test_the_board_mid_race_with_scratches_and_odds_is_readable(language: Language) -> None:
    game, dice = table(5)
    start_race(game, dice)
    rolls(game, dice, 9, 9, 4, 8)
    view = game.view(None)
    assert len(view["scratched"]) == 4
    png, drawn = board(view, odds(view))
    assert_readable(png, drawn)


def test_six_players_with_long_names_and_ai_seats_are_readable(language: Language) -> None:
    view = six_long_names()
    png, drawn = board(view, odds(view))
    assert_readable(png, drawn)


def test_fifteen_players_are_readable(language: Language) -> None:
    view = dict(steps(HorseRace.new(15, seed=11), 30).view(None))
    view["names"] = [f"Player number {seat + 1}" for seat in range(15)]
    png, drawn = board(view, odds(view))
    assert size(png) == (800, 600)
    assert_readable(png, drawn)


def test_the_board_at_the_finish_and_at_the_end_of_the_game_is_readable(language: Language) -> None:
    game = to_the_winner(HorseRace.new(6, seed=3))
    png, drawn = board(dict(game.view(None), names=LONG_NAMES))
    assert_readable(png, drawn)
    play_out(game)
    assert game.view(None)["phase"] == "over"
    png, drawn = board(dict(game.view(None), names=LONG_NAMES))
    assert_readable(png, drawn)


def test_the_detailed_picture_of_the_cards_held_is_readable(language: Language) -> None:
    for players, seed in ((2, 1), (6, 3), (15, 11)):
        view = dict(steps(HorseRace.new(players, seed=seed), 12).view(None))
        view["names"] = (LONG_NAMES * 3)[:players]
        with fonts_drawn() as drawn:
            png = render_holdings(view)
        width, height = size(png)
        assert width == 800 and height <= 600
        assert_readable(png, drawn)


def test_every_frame_of_a_replay_is_readable(language: Language) -> None:
    game = HorseRace.new(6, seed=3)
    views = []
    while not views or views[-1]["winner"] is None:
        steps(game, 1)
        views.append(dict(game.view(None), names=LONG_NAMES))
    render._background.cache_clear()
    with fonts_drawn() as drawn:
        replay = race_replay(views, odds=[odds(v) for v in views])
    assert replay.size == (800, 600)  # the board's own size: frames are not scaled down
    assert_readable(replay.data, drawn, supersample=render.WIDTH / replay.size[0])


# --- what players reported -----------------------------------------------------


def test_an_ai_seat_keeps_its_marker_when_its_name_is_cut(language: Language) -> None:
    font = render._font(render.TEXT)
    marker = "(AI)" if language == "en" else "(IA)"
    assert fit_name("Ada (AI)", font, 400) == f"Ada {marker}"
    cut = fit_name("Lovelace the Analytical Engine (AI)", font, 150)
    assert cut.endswith(f"… {marker}") and cut.startswith("Love") and font.getlength(cut) <= 150
    assert fit_name("Bartholomew Fitzgerald", font, 120).endswith("…")  # a person's name: cut at the end
    assert font.getlength(fit_name("Ada (AI)", font, 30)) <= 30  # too narrow for anything: still fits


def test_no_name_on_the_board_has_a_cut_ai_marker(language: Language) -> None:
    view = six_long_names()
    _png, drawn = board(view, odds(view))
    marker = "(AI)" if language == "en" else "(IA)"
    with_marker = [text for text in words(drawn) if marker[:3] in text]
    assert with_marker, "the AI seats are drawn"
    assert all(text.endswith(marker) or f"{marker} " in text for text in with_marker), with_marker
    assert not [text for text in words(drawn) if text.rstrip().endswith((" .", "(…", "(A…", "(I…"))]


def test_the_dealer_is_named_in_words_not_an_unexplained_letter(language: Language) -> None:
    view = six_long_names()
    dealer = view["dealer"]
    _png, drawn = board(dict(view, names=["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]))
    said = "Dealer: " if language == "en" else "Dá as cartas: "
    assert f"{said}{['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay'][dealer]}" in words(drawn)
    assert not [text for text in words(drawn) if text.startswith("D ")]


def test_the_odds_column_has_a_header_and_the_winner_replaces_it(language: Language) -> None:
    header, winner = ("ODDS", "WINNER") if language == "en" else ("CHANCES", "VENCEDOR")
    view = six_long_names()
    _png, drawn = board(view, odds(view))
    assert header in words(drawn)
    _png, drawn = board(view)  # no odds, no header over an empty column
    assert header not in words(drawn)
    game = to_the_winner(HorseRace.new(6, seed=3))
    _png, drawn = board(game.view(None))
    assert winner in words(drawn) and header not in words(drawn)


def test_a_lane_shows_each_holder_as_a_readable_seat_number_chip(language: Language) -> None:
    """The chips carry the seat's number (the cash table puts the same chip before each name), one
    per holder; where a lane has more holders than fit at 20 px, "+n" counts the rest."""
    view = dict(steps(HorseRace.new(15, seed=11), 30).view(None))
    _png, drawn = board(view)
    chips = [d for d in drawn if d.text.isdigit() or d.text.startswith("+")]
    assert all(d.size >= smallest_font(render.WIDTH) for d in chips)
    holders = render._holders(view["hands"])
    crowded = [seats for seats in holders.values() if len(seats) > 3]
    assert crowded, "fifteen players: some horse has four holders"
    assert any(text.startswith("+") for text in words(drawn))  # ... and they do not all fit


def test_the_detailed_picture_names_every_seat_and_counts_its_cards(language: Language) -> None:
    view = dict(steps(HorseRace.new(6, seed=3), 12).view(None), names=LONG_NAMES)
    with fonts_drawn() as drawn:
        render_holdings(view)
    texts = words(drawn)
    for name in ("Zé", "Babbage (AI)" if language == "en" else "Babbage (IA)"):
        assert name in texts
    # Drawn in reading order: the header, the eleven horses, then per seat its chip, its name and a
    # count per horse it holds (a chip is the digit followed by a name, a count is not).
    rows = texts[texts.index("PLAYER" if language == "en" else "JOGADOR") + 1 + len(HORSES) :]
    held: dict[int, int] = {}
    for index, text in enumerate(rows):
        if index + 1 < len(rows) and text.isdigit() and not rows[index + 1].isdigit():
            seat = int(text) - 1
            held[seat] = 0
        elif text.isdigit():
            held[seat] += int(text)
    assert held == {seat: len(hand) for seat, hand in enumerate(view["hands"])}
    alt = holdings_alt_text(view)
    assert "Zé: " in alt and ("horse" in alt if language == "en" else "cavalo" in alt)


def test_a_four_digit_jackpot_widens_its_badge_rather_than_cut_its_word(language: Language) -> None:
    view = dict(six_long_names(), jackpot=1234)
    png, drawn = board(view)
    assert ("JACKPOT" if language == "en" else "POTE") in words(drawn)
    assert_readable(png, drawn)


def test_the_detailed_picture_after_a_win_is_readable(language: Language) -> None:
    """Between races the board's Cards held button still answers: who held which cards when it was won."""
    view = dict(to_the_winner(HorseRace.new(6, seed=3)).view(None), names=LONG_NAMES)
    with fonts_drawn() as drawn:
        png = render_holdings(view)
    assert size(png) == (800, 338)  # six rows: a picture about as tall as it has to be
    assert_readable(png, drawn)


def test_the_cards_held_alt_text_names_every_holder_within_discords_limit(language: Language) -> None:
    """Fifteen players with long names: every one is named with their horses, shorter ("horses 4, 8")
    rather than cut in the middle of a name; an AI seat's marker is in the reader's language."""
    view = dict(steps(HorseRace.new(15, seed=11), 1).view(None))  # dealt: all 44 cards held
    # Names as long as Discord allows (32 characters).
    view["names"] = [f"Maximiliana Rodrigues da Silva{seat + 1:02}" for seat in range(14)] + ["Lovelace (AI)"]
    alt = holdings_alt_text(view)
    assert len(alt) <= 1000
    for seat in range(14):
        assert f"Maximiliana Rodrigues da Silva{seat + 1:02}: " in alt
    assert ("Lovelace (AI): " if language == "en" else "Lovelace (IA): ") in alt
    horses = "horses" if language == "en" else "cavalos"
    hand = sorted(view["hands"][0])
    assert f"Maximiliana Rodrigues da Silva01: {horses} {', '.join(map(str, hand))}" in alt


def test_the_cards_held_alt_text_leaves_whole_players_off_rather_than_cut_a_name(language: Language) -> None:
    """Names longer than Discord's (a nickname is 32 characters at most): the last seats are left off
    whole and counted, rather than a name or a hand cut in the middle."""
    view = dict(steps(HorseRace.new(15, seed=11), 1).view(None))
    view["names"] = [f"{'Bartholomew' * 6} {seat + 1}" for seat in range(15)]
    alt = holdings_alt_text(view)
    assert len(alt) <= 1000
    named = [seat for seat in range(15) if f"{'Bartholomew' * 6} {seat + 1}: " in alt]
    assert named == list(range(len(named))) and 0 < len(named) < 15
    left = 15 - len(named)
    assert alt.endswith(f"and {left} more players." if language == "en" else f"e mais {left} jogadores.")
