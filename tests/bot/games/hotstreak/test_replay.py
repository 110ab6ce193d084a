"""A race replay: one picture per flipped card, a pause on the finish, under 8 MB, with alt text."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.games.base import Action
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.odds import odds
from bot.games.hotstreak.replay import race_replay


def _race_frames(seed: int) -> tuple[list[dict], list]:
    game = HotStreak.new(3, seed)
    rng = random.Random(seed)
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    frames = [game.view(None)]
    chances = [odds(frames[0], samples=200)]
    while game.phase == "race" and game.s["race_no"] == 1:
        for event in game.apply(Action(None, "flip", "flip")):
            if event.kind in ("card_flipped", "bar_folded"):
                frames.append(event.data["frame"])
                chances.append(odds(game.view(None), samples=200) if game.phase == "race" else None)
    return frames, chances


def test_a_replay_has_one_frame_per_card_and_holds_the_finish() -> None:
    frames, chances = _race_frames(3)
    replay = race_replay(frames, odds=chances, players=["Ann", "Bo", "Cy"])
    image = Image.open(io.BytesIO(replay.data))
    assert image.format == "GIF" and replay.mime == "image/gif" and replay.filename.endswith(".gif")
    assert image.n_frames == len(frames) == replay.frames
    durations = []
    for i in range(image.n_frames):
        image.seek(i)
        durations.append(image.info["duration"])
    assert durations[-1] >= 3000 and durations[-1] > max(durations[1:-1])
    assert len(replay.data) < 1024 * 1024  # far under Discord's 8 MB, so never scaled down to fit
    # The frames' own size: a replay's text is as big as the live frames' (see test_readable).
    assert (image.width, image.height) == (800, 600) == replay.size


def test_the_replay_alt_text_tells_the_result_and_the_favourite() -> None:
    frames, chances = _race_frames(4)
    replay = race_replay(frames, odds=chances)
    assert replay.alt.startswith("Animated replay of Hot Streak race 1:")
    assert "Result: 1st " in replay.alt and "Favourite at the start: " in replay.alt
    assert len(replay.alt) <= 1000


def test_the_same_race_gives_the_same_replay() -> None:
    frames, _ = _race_frames(5)
    assert race_replay(frames).data == race_replay(frames).data
