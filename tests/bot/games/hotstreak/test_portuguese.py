"""Hot Streak's words in Brazilian Portuguese: the same events and pictures as in English, other words.

The narration, the cards, the side bets, the pictures and their alt text are built in the reader's
language (``bot.i18n.current()``); English stays the default, and a cached background drawn in one
language is never shown in the other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from bot.games.hotstreak.cards import parse_card
from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.narration import card_name, narrate, side_bet_text
from bot.games.hotstreak.odds import odds
from bot.games.hotstreak.render import alt_text, render_race
from bot.games.hotstreak.render.scene import read_scene
from bot.games.hotstreak.render.words import card_face
from bot.games.hotstreak.replay import replay_alt_text
from bot.i18n import speaking
from tests.english import english_in

from .conftest import play_out
from .test_render import _game_view, late_race, midrace

MASCOTS = ("Gobbler", "Hurley", "Dangle", "Mum")
PLAYERS = ["Ana", "Bruno", "Cris"]
T = TypeVar("T")


def both(work: Callable[[], T]) -> tuple[T, T]:
    """``work`` done in English, then in Portuguese."""
    with speaking("en"):
        english = work()
    with speaking("pt-BR"):
        portuguese = work()
    return english, portuguese


def test_every_event_of_a_game_is_told_in_portuguese_without_english() -> None:
    game = HotStreak.new(3, seed=21)
    events = game.opening_events() + play_out(game, random.Random(21))
    told = 0
    for event in events:
        if event.kind in ("bet_taken", "doubled"):  # the engine's log lines, never shown in Discord
            continue
        english, portuguese = both(lambda e=event: narrate(e))
        assert portuguese and "\n" not in portuguese
        if event.kind in ("card_flipped", "bar_folded", "race_over", "race_setup", "game_over"):
            assert portuguese != english, english
            told += 1
        assert english_in(portuguese, MASCOTS) == [], (english, portuguese)
    assert told > 30


def test_every_card_and_side_bet_of_the_edition_reads_in_portuguese() -> None:
    content = default_content()
    scene = read_scene(midrace())
    for card in {*content.cards, *content.bordered}:
        notation = str(parse_card(card))
        english, portuguese = both(lambda n=notation: (card_name(n), card_face(n, scene).words))
        assert english_in(" ".join(portuguese), MASCOTS) == [], (notation, portuguese)
        if not notation.split()[1].startswith(("+", "-")):
            assert portuguese[0] != english[0]
        assert portuguese[1] != english[1]
    for side in content.side_bets:
        english, portuguese = both(lambda s=side: side_bet_text(s))
        assert english == side["text"]  # English is the edition's own sentence
        assert portuguese != english and english_in(portuguese, MASCOTS) == [], portuguese
        # A race's result names the side bet by id only: it still reads in Portuguese.
        with speaking("pt-BR"):
            assert side_bet_text({"id": side["id"], "text": side["text"]}) == portuguese


def test_the_same_frame_is_drawn_with_other_words_and_the_english_one_is_unchanged() -> None:
    view = _game_view()
    chances = odds(view, samples=300)

    def draw() -> tuple[bytes, bytes, str]:
        return (
            render_race(view, odds=chances, players=PLAYERS),
            render_race(late_race()),
            alt_text(view, odds=chances, players=PLAYERS),
        )

    english, portuguese = both(draw)
    assert portuguese[0] != english[0] and portuguese[1] != english[1]
    with speaking("en"):
        assert draw() == english  # the backgrounds cached for pt-BR are not reused for English
    alt = portuguese[2]
    assert alt.startswith("Hot Streak, corrida 1 de 3.") and "de vencer" in alt and "Bilhetes:" in alt
    assert english_in(alt, [*MASCOTS, *PLAYERS]) == []
    for other in (midrace(), late_race()):
        with speaking("pt-BR"):
            text = alt_text(other)
        assert english_in(text, MASCOTS) == [], text


def test_a_replays_alt_text_is_portuguese() -> None:
    frames = [midrace(), late_race()]
    english, portuguese = both(lambda: replay_alt_text(frames))
    assert english.startswith("Animated replay") and portuguese.startswith("Replay animado")
    assert english_in(portuguese, MASCOTS) == []


def test_words_agree_with_what_they_speak_of() -> None:
    """A side bet is feminine (segura), a ticket masculine (seguro); Mum is a queen (desclassificada,
    virada); a bet inside a sentence has its article; "to place" is 1st or 2nd, not the podium."""
    from bot.games.hotstreak.narration import bet_label, names_and
    from cogs.hotstreak.words import bet_short, option_label

    side = {"kind": "side", "answer": "yes", "risk": "safe", "number": 1}
    ticket = {"kind": "ticket", "mascot": "dangle", "risk": "safe", "number": 1}
    mum_out = {"text": "Mum is disqualified.", "condition": {"type": "mascot_out", "mascot": "mum"}}
    gobbler_out = {"text": "", "condition": {"type": "mascot_out", "mascot": "gobbler"}}
    with speaking("pt-BR"):
        assert bet_label(side) == "aposta paralela SIM 1 (segura)"
        assert bet_label(ticket) == "bilhete 1 de Dangle (seguro)"
        assert bet_label(ticket, the=True) == "o bilhete 1 de Dangle (seguro)"
        assert bet_label(side, the=True) == "a aposta paralela SIM 1 (segura)"
        assert option_label("side:yes:risky").endswith("arriscada")
        assert option_label("ticket:mum:risky").endswith("arriscado")
        assert bet_short({**side, "doubled": False}).endswith("segura")
        assert side_bet_text(mum_out) == "Mum é desclassificada."
        assert side_bet_text(gobbler_out) == "Gobbler é desclassificado."
        steps = [{"type": "recover", "mascot": "mum"}, {"type": "fall", "mascot": "mum", "result": "out"}]
        told = narrate({"kind": "card_flipped", "data": {
            "card": "mum recover", "steps": steps, "finished": [], "outs": [], "places": [], "ended": False,
        }})  # fmt: skip
        assert "Mum se levanta virada para a chegada" in told and "é nocauteada" in told
        assert names_and(["Dangle", "Mum"]) == "Dangle e Mum"
    assert "pódio" not in _translation("{emoji} **{name}** {win} to win · {place} to place")
    assert "entre os dois primeiros" in _translation("{name} {win} to win, {place} to place")


def _translation(message: str) -> str:
    from bot.i18n import _

    with speaking("pt-BR"):
        return _(message)
