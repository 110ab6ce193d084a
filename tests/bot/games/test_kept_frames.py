"""A race's replay assembled from the frames kept when its live pictures were drawn is the replay drawn
from scratch: the same frames, the same pixels (the live pictures' own), the same timing, and the same
bytes when every frame was drawn live; the frames nobody drew are drawn, and the kept frames are bounded.
A busy bot's replay (``sparse``) shows the frames drawn live alone, each the live picture."""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image, ImageSequence

from bot.games import animation, kept_frames
from bot.games.base import Action
from bot.games.downforce.ai import ai_action, ai_rng
from bot.games.downforce.game import Downforce
from bot.games.downforce.odds import odds as downforce_odds
from bot.games.downforce.render import render_track
from bot.games.downforce.replay import live_track
from bot.games.downforce.replay import race_replay as downforce_replay
from bot.games.horserace.game import HorseRace
from bot.games.horserace.odds import odds as horse_odds
from bot.games.horserace.render import render_board
from bot.games.horserace.replay import live_board
from bot.games.horserace.replay import race_replay as horse_replay
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.odds import odds as hot_odds
from bot.games.hotstreak.render import render_race
from bot.games.hotstreak.replay import live_picture
from bot.games.hotstreak.replay import race_replay as hot_replay
from bot.games.kept_frames import Block, KeptFrames, encode
from bot.games.replay_log import ReplayLog

PLAYERS = ["Ann", "Bo", "Cy"]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    kept_frames.kept = KeptFrames()
    yield
    kept_frames.kept = KeptFrames()


def hot_streak_race(seed: int = 3, cards: int = 10) -> ReplayLog:
    """The first ``cards`` frames of race 1 (a replay of a whole race is the same, only longer)."""
    game = HotStreak.new(3, seed)
    rng = random.Random(seed)
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    log = ReplayLog(1)
    log.add(game.view(None), hot_odds(game.view(None), samples=50))
    while game.phase == "race" and game.s["race_no"] == 1 and len(log) < cards:
        for event in game.apply(Action(None, "flip", "flip")):
            if event.kind in ("card_flipped", "bar_folded"):
                log.add(
                    event.data["frame"],
                    hot_odds(game.view(None), samples=50) if game.phase == "race" else None,
                )
    return log


def horse_race(seed: int = 2, rolls: int = 10) -> ReplayLog:
    game = HorseRace.new(3, seed)
    log = ReplayLog(1)
    while len(log) < rolls:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        view = game.view(None)
        if view["race"] != 1 or view["phase"] == "between" and view["winner"] is None:
            return log
        log.add(view, horse_odds(view))
        if view["winner"] is not None:
            return log
    return log


def downforce_race(seed: int = 5, cards: int = 6) -> ReplayLog:
    game = Downforce.new(3, seed)
    rng = ai_rng(seed)
    log, seen = ReplayLog(), -1
    while not game.is_over and len(log) < cards:
        game.apply(ai_action(game, ["easy"] * 3, rng))
        view = game.view(None)
        if view["phase"] in ("race", "bet", "over") and view["cards_played"] != seen:
            seen = view["cards_played"]
            log.add(view, downforce_odds(view, samples=10))
    return log


# Each game: its race, how its presenter draws a live picture, the engine's own picture, its replay.
GAMES: dict[str, tuple[Callable[[], ReplayLog], Callable[..., bytes], Callable[..., bytes], Any, dict]] = {
    "hotstreak": (
        hot_streak_race,
        lambda key, frame, odds: live_picture(key, frame, odds=odds, players=PLAYERS),
        lambda frame, odds: render_race(frame, odds=odds, players=PLAYERS),
        hot_replay,
        {"players": PLAYERS},
    ),
    "horserace": (
        horse_race,
        lambda key, view, odds: live_board(key, view, odds=odds),
        lambda view, odds: render_board(view, odds=odds),
        horse_replay,
        {},
    ),
    "downforce": (downforce_race, live_track, render_track, downforce_replay, {}),
}


def shown(data: bytes) -> list[tuple[bytes, int]]:
    """Each frame of a GIF as a viewer shows it (its pixels) and how long."""
    gif = Image.open(io.BytesIO(data))
    return [(frame.convert("RGB").tobytes(), frame.info["duration"]) for frame in ImageSequence.Iterator(gif)]


def replay_of(log: ReplayLog, replay: Any, options: dict) -> bytes:
    return log.drawn(replay, kept=kept_frames.take(log.key), **options).data


@pytest.mark.parametrize("game", ["hotstreak", "horserace", "downforce"])
def test_a_replay_from_the_frames_drawn_live_is_the_replay_drawn_from_scratch_byte_for_byte(
    game: str,
) -> None:
    make, live, engine_picture, replay, options = GAMES[game]
    log = make()
    for index, (frame, odds) in enumerate(zip(log.frames(), log.odds, strict=True)):
        picture = live(log.key, frame, odds)
        if index < 2:
            assert picture == engine_picture(frame, odds)  # the live picture is the one it always was
    from_scratch = log.drawn(replay, **options)
    assembled = log.drawn(replay, kept=kept_frames.take(log.key), **options)
    assert assembled.data == from_scratch.data and assembled.frames == len(log)
    assert not kept_frames.take(log.key)  # taken once: the cache forgets the race


def test_frames_nobody_drew_are_drawn_and_the_replay_shows_the_same_pictures() -> None:
    """Cards that changed nothing on the track get no live picture, a picture drawn twice is kept once,
    and a picture of something the replay does not show is never used; what the viewer sees is the
    replay drawn from scratch, each frame the live picture itself."""
    log = hot_streak_race(4, cards=12)
    frames, odds = log.frames(), log.odds
    for index, (frame, chances) in enumerate(zip(frames, odds, strict=True)):
        if index % 4 == 2:
            continue  # not drawn live
        live_picture(log.key, frame, odds=chances, players=PLAYERS)
        if index == 5:
            live_picture(log.key, frame, odds=chances, players=PLAYERS)  # posted anew
        if index == 9:
            live_picture(log.key, frame, odds=None, players=PLAYERS)  # not a frame of the replay
    from_scratch = hot_replay(frames, odds=odds, players=PLAYERS).data
    assembled = replay_of(log, hot_replay, {"players": PLAYERS})
    assert shown(assembled) == shown(from_scratch)
    live = [render_race(f, odds=c, players=PLAYERS) for f, c in zip(frames, odds, strict=True)]
    assert [pixels for pixels, _ms in shown(assembled)] == [
        Image.open(io.BytesIO(png)).convert("RGB").tobytes() for png in live
    ]


def test_a_horse_race_with_boards_missing_shows_the_same_pictures() -> None:
    # The Horse Race's boards each choose their palette: the blocks are made from their colours.
    log = horse_race(5)
    frames, odds = log.frames(), log.odds
    for index, (frame, chances) in enumerate(zip(frames, odds, strict=True)):
        if index % 3 != 1:
            live_board(log.key, frame, odds=chances)
    assert shown(replay_of(log, horse_replay, {})) == shown(horse_replay(frames, odds=odds).data)


def test_after_a_restart_nothing_is_kept_and_the_replay_is_drawn_whole() -> None:
    log = hot_streak_race(5)
    assert kept_frames.take(log.key) == {}
    assert replay_of(log, hot_replay, {}) == hot_replay(log.frames(), odds=log.odds).data


def solid(colour: tuple[int, int, int], size: tuple[int, int] = (40, 30)) -> Image.Image:
    return Image.new("RGB", size, colour).quantize(4)


def test_a_block_is_the_changed_rectangle_with_the_unchanged_pixels_transparent() -> None:
    before = Image.new("RGB", (40, 30), (0, 90, 0))
    after = before.copy()
    after.paste((200, 0, 0), (10, 5, 14, 9))
    block = encode(after.quantize(8), before.quantize(8), "before")
    assert block.base == "before" and block.size == (40, 30)
    assert len(block.data) < len(encode(after.quantize(8)).data)  # the rectangle, not the whole frame
    assert encode(after.quantize(8)).base is None  # with nothing before it: whole


def test_the_kept_frames_stay_within_their_bound_keeping_whole_races() -> None:
    now = [0.0]
    cache = KeptFrames(clock=lambda: now[0])
    cache.keep("a", "a0", solid((10, 10, 10)))
    cache.limit = int(cache.size * 2.5)
    cache.keep("b", "b0", solid((10, 10, 10)))
    cache.keep("a", "a1", solid((90, 90, 90)))  # a grows past the bound: b, admitted last, goes
    assert cache.size <= cache.limit and len(cache) == 1
    cache.keep("b", "b1", solid((50, 50, 50)))  # a dropped race keeps nothing more
    assert cache.take("b") == {}
    cache.keep("c", "c0", solid((10, 10, 10)))  # full: not admitted, while a is drawn
    assert cache.take("c") == {}
    now[0] += kept_frames.STALE
    cache.keep("d", "d0", solid((10, 10, 10)))  # a race nobody drew for long goes first
    assert cache.take("a") == {}
    kept: dict[str, Block] = cache.take("d")
    assert set(kept) == {"d0"} and kept["d0"].base is None
    assert cache.size == 0 and len(cache) == 0


def test_a_race_kept_whole_gives_each_frame_against_the_one_before() -> None:
    cache = KeptFrames()
    for i, grey in enumerate((10, 60, 110)):
        cache.keep("a", f"a{i}", solid((grey, grey, grey)))
    kept = cache.take("a")
    assert [kept[k].base for k in ("a0", "a1", "a2")] == [None, "a0", "a1"]


# --- a busy bot's replay: the frames the channel saw live ------------------------------------------


@pytest.mark.parametrize("game", ["hotstreak", "horserace", "downforce"])
def test_a_sparse_replay_shows_the_frames_drawn_live_and_draws_only_the_first_and_last(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every third frame drawn live (the others merged into the next picture): the sparse replay shows
    those, with the first and the last, each the live picture itself, and draws nothing else."""
    _make, live, engine_picture, replay, options = GAMES[game]
    log = {
        "hotstreak": hot_streak_race(4, 14),
        "horserace": horse_race(2, 14),
        "downforce": downforce_race(5, 12),
    }[game]
    frames, odds = log.frames(), log.odds
    count = len(frames)
    seen = [i for i in range(count) if i % 3 == 1]
    for index in seen:
        live(log.key, frames[index], odds[index])
    drawn: list[int] = []
    real_drawn = animation.Drawn

    def counting(count_: int, draw: Callable[[int], Image.Image]) -> animation.Drawn:
        def draw_counted(i: int) -> Image.Image:
            drawn.append(i)
            return draw(i)

        return real_drawn(count_, draw_counted)

    module = {"hotstreak": hot_replay, "horserace": horse_replay, "downforce": downforce_replay}[game]
    monkeypatch.setattr(sys.modules[module.__module__], "Drawn", counting)
    sparse = log.drawn(replay, kept=kept_frames.take(log.key), sparse=True, **options)
    expected = sorted({0, count - 1, *seen})
    assert sparse.frames == len(expected) < count
    assert sorted(set(drawn)) == sorted({0, count - 1} - set(seen))  # only the first and last, if unseen
    pictures = [
        Image.open(io.BytesIO(engine_picture(frames[i], odds[i]))).convert("RGB").tobytes() for i in expected
    ]
    timing = shown(sparse.data)
    assert [pixels for pixels, _ms in timing] == pictures
    whole = shown(log.drawn(replay, **options).data)
    assert [ms for _pixels, ms in timing] == [
        whole[0][1],
        *(whole[1][1] for _ in expected[1:-1]),
        whole[-1][1],
    ]


def test_a_sparse_replay_of_a_race_nothing_was_kept_of_shows_a_few_evenly_spaced_frames() -> None:
    log = hot_streak_race(6, cards=12)
    frames = log.frames()
    sparse = log.drawn(hot_replay, sparse=True)
    assert sparse.frames == animation.SPARSE_LEAST
    chosen = animation.shown_frames([], {}, len(frames))
    assert chosen[0] == 0 and chosen[-1] == len(frames) - 1 and len(chosen) == animation.SPARSE_LEAST
    gaps = [b - a for a, b in zip(chosen, chosen[1:], strict=False)]
    assert max(gaps) - min(gaps) <= 2  # evenly spread
    pictures = [render_race(frames[i], odds=log.odds[i]) for i in chosen]
    assert [pixels for pixels, _ms in shown(sparse.data)] == [
        Image.open(io.BytesIO(png)).convert("RGB").tobytes() for png in pictures
    ]


def test_a_sparse_replay_of_a_race_kept_whole_is_the_whole_replay() -> None:
    log = hot_streak_race(7)
    for frame, odds in zip(log.frames(), log.odds, strict=True):
        live_picture(log.key, frame, odds=odds, players=PLAYERS)
    sparse = replay_of(log, hot_replay, {"players": PLAYERS, "sparse": True})
    assert sparse == hot_replay(log.frames(), odds=log.odds, players=PLAYERS).data
