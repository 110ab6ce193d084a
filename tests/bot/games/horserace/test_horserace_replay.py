"""A Horse Race replay: one picture per roll, the winner held on screen, under 8 MB, with alt text."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.base import Action
from bot.games.horserace.game import HorseRace
from bot.games.horserace.odds import odds
from bot.games.horserace.replay import race_replay, replay_alt_text
from bot.i18n import speaking
from tests.english import english_in


def test_a_replay_has_one_frame_per_roll_and_holds_the_winner() -> None:
    game = HorseRace.new(3, 2)
    views = []
    while True:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        view = game.view(None)
        views.append(view)
        if view["winner"] is not None:
            break
    replay = race_replay(views, odds=[odds(v) for v in views])
    image = Image.open(io.BytesIO(replay.data))
    assert image.n_frames == len(views)
    assert image.size == (800, 600)  # the board's own size, so its type stays readable
    image.seek(image.n_frames - 1)
    assert image.info["duration"] >= 3000
    assert len(replay.data) < 8 * 1024 * 1024
    assert f"Horse {views[-1]['winner']} wins." in replay.alt
    assert replay.alt.startswith("Animated replay of Horse Race race 1:")


def test_a_replay_is_described_in_the_readers_language() -> None:
    game = HorseRace.new(3, 2)
    views = []
    while not views or views[-1]["winner"] is None:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        views.append(game.view(None))
    with speaking("pt-BR"):
        alt = replay_alt_text(views)
    assert alt.startswith("Replay animado da corrida 1") and english_in(alt) == []
