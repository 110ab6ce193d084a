"""How much CPU a race replay takes and how big it is, for a typical race of each game: drawn from
scratch, and assembled from the frames kept when the live pictures were drawn (``bot.games.kept_frames``).

Hot Streak: the frames of race 1 of seeded 4-player games (with the tickets and the odds of every card,
as the bot would post them). The Horse Race Game: the board after every roll of race 1 (scratch round
included) with exact odds. Downforce: the track after every card of a 3-player race. CPU time
(``time.process_time``, this process: what a worker spends; wall time means little on a shared machine),
medians over the races:

- "from scratch": every frame drawn and encoded (a replay after a restart, or of frames nobody kept);
- "from kept frames": every frame drawn live first (``live_picture`` & co., which keep its GIF block),
  then the replay joins the blocks; "as live" leaves out the frames the presenter draws no picture for
  (Hot Streak's cards that change nothing on the track), which the replay then draws; "sparse" is a busy
  bot's replay (``sparse=True``) of a race whose live message drew one frame in four;
- "keeping": what keeping a block adds to each live picture (drawn and kept, minus drawn);
- "kept": the bytes a race's blocks take in the cache (``KeptFrames.size``; its bound is ``LIMIT``).

Run: ``python bench/bench_replay.py [races]`` (default 5 Hot Streak, 3 Horse Race, 3 Downforce races).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import kept_frames  # noqa: E402
from bot.games.base import Action  # noqa: E402
from bot.games.downforce.ai import ai_action, ai_rng  # noqa: E402
from bot.games.downforce.game import Downforce  # noqa: E402
from bot.games.downforce.odds import odds as downforce_odds  # noqa: E402
from bot.games.downforce.render import render_track  # noqa: E402
from bot.games.downforce.replay import live_track  # noqa: E402
from bot.games.downforce.replay import race_replay as downforce_replay  # noqa: E402
from bot.games.horserace.game import HorseRace  # noqa: E402
from bot.games.horserace.odds import odds as horse_odds  # noqa: E402
from bot.games.horserace.render import render_board  # noqa: E402
from bot.games.horserace.replay import live_board  # noqa: E402
from bot.games.horserace.replay import race_replay as horse_replay  # noqa: E402
from bot.games.hotstreak.game import HotStreak  # noqa: E402
from bot.games.hotstreak.narration import changes_track  # noqa: E402
from bot.games.hotstreak.odds import odds as hot_odds  # noqa: E402
from bot.games.hotstreak.render import render_race  # noqa: E402
from bot.games.hotstreak.replay import live_picture  # noqa: E402
from bot.games.hotstreak.replay import race_replay as hot_replay  # noqa: E402
from bot.games.kept_frames import KeptFrames  # noqa: E402
from bot.games.odds import Odds  # noqa: E402

Race = tuple[list[dict], list[Any], list[bool]]  # frames, odds, whether each gets a live picture


def hotstreak_race(seed: int) -> Race:
    game = HotStreak.new(4, seed)
    rng = random.Random(seed)
    frames: list[dict] = []
    chances: list[Odds | None] = []
    pictured: list[bool] = []
    while game.phase != "race":
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))
    view = game.view(None)
    frames.append(view)
    chances.append(hot_odds(view, samples=500))
    pictured.append(True)
    bets = {"bets": view["bets"], "cash": view["cash"]}
    while game.phase == "race" and game.s["race_no"] == 1:
        for event in game.apply(Action(None, "flip", "flip")):
            if event.kind in ("card_flipped", "bar_folded"):
                frames.append({**event.data["frame"], **bets})
                pictured.append(changes_track(event))
        if game.phase == "race":
            chances += [None] * (len(frames) - len(chances) - 1)
            chances.append(hot_odds(game.view(None), samples=500))
    chances += [None] * (len(frames) - len(chances))
    return frames, chances, pictured


def horserace_race(seed: int) -> Race:
    game = HorseRace.new(5, seed)
    views, chances = [], []
    while True:
        d = game.pending()[0]
        game.apply(Action(d.player, d.kind, d.options[0]))
        view = game.view(None)
        if view["race"] != 1 or view["phase"] == "between" and view["winner"] is None:
            break
        views.append(view)
        chances.append(horse_odds(view))
        if view["winner"] is not None:
            break
    return views, chances, [True] * len(views)


def downforce_race(seed: int) -> Race:
    game = Downforce.new(3, seed)
    rng = ai_rng(seed)
    views: list[dict] = []
    seen = -1
    while not game.is_over:
        game.apply(ai_action(game, ["easy"] * 3, rng))
        view = game.view(None)
        if view["phase"] in ("race", "bet", "over") and view["cards_played"] != seen:
            seen = view["cards_played"]
            views.append(view)
    return views, [downforce_odds(v, samples=200) for v in views], [True] * len(views)


def cpu(work: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    began = time.process_time()
    result = work(*args, **kwargs)
    return result, time.process_time() - began


def drawn_live(live: Any, frames: list[dict], chances: list[Any], shown: list[bool]) -> KeptFrames:
    """The live pictures drawn (and their blocks kept) for the frames ``shown``; the cache they fill."""
    kept_frames.kept = cache = KeptFrames()
    for frame, odds, pictured in zip(frames, chances, shown, strict=True):
        if pictured:
            live("race", frame, odds)
    return cache


def bench(label: str, make: Callable[[int], Race], replay: Any, live: Any, png: Any, seeds: range) -> None:
    scratch, kept, as_live, keeping, sizes, gif, frames_n, skipped, webp = [], [], [], [], [], [], [], [], []
    sparse: list[float] = []
    for seed in seeds:
        frames, chances, pictured = make(seed)
        replay(frames[:2], odds=chances[:2])  # backgrounds and fonts loaded once, as in a running worker
        drawn, scratch_s = cpu(replay, frames, odds=chances)
        scratch.append(scratch_s)
        gif.append(len(drawn.data))
        frames_n.append(len(frames))
        _, png_s = cpu(lambda fs, cs: [png(f, c) for f, c in zip(fs, cs, strict=True)], frames, chances)
        cache, live_s = cpu(drawn_live, live, frames, chances, [True] * len(frames))
        sizes.append(cache.size)
        keeping.append((live_s - png_s) / len(frames))  # drawn, kept and encoded, minus drawn and encoded
        assembled, replay_s = cpu(replay, frames, odds=chances, kept=cache.take("race"))
        assert assembled.data == drawn.data, "the kept frames gave another replay"
        kept.append(replay_s)
        cache = drawn_live(live, frames, chances, pictured)
        as_live.append(cpu(replay, frames, odds=chances, kept=cache.take("race"))[1])
        skipped.append(pictured.count(False))
        # A busy bot: one picture in four drawn live (the others merged away), the replay sparse.
        cache = drawn_live(live, frames, chances, [i % 4 == 0 for i in range(len(frames))])
        sparse.append(cpu(replay, frames, odds=chances, kept=cache.take("race"), sparse=True)[1])
        webp.append(len(replay(frames, odds=chances, fmt="webp").data))
    m = statistics.median
    print(
        f"{label}: {m(frames_n):.0f} frames, GIF {m(gif) / 1024:.0f} KB median (max {max(gif) / 1024:.0f} KB, "
        f"limit 8192 KB), {drawn.size[0]}x{drawn.size[1]}; animated WebP {m(webp) / 1024:.0f} KB\n"
        f"  CPU per replay: from scratch {m(scratch):.3f} s (max {max(scratch):.3f}); from kept frames "
        f"{m(kept):.4f} s (max {max(kept):.4f}); as live ({m(skipped):.0f} frames not drawn live) "
        f"{m(as_live):.3f} s (max {max(as_live):.3f}); sparse, a quarter drawn live {m(sparse):.4f} s "
        f"(max {max(sparse):.4f})\n"
        f"  keeping: {m(keeping) * 1000:.1f} ms CPU per live picture; kept: {m(sizes) / 1024:.0f} KB per race "
        f"(max {max(sizes) / 1024:.0f} KB; bound {kept_frames.LIMIT / 2**20:.0f} MB per process)"
    )


def hot_live(race: str, frame: dict, odds: Any) -> bytes:
    return live_picture(race, frame, odds=odds)


def hot_png(frame: dict, odds: Any) -> bytes:
    return render_race(frame, odds=odds)


def horse_live(race: str, view: dict, odds: Any) -> bytes:
    return live_board(race, view, odds=odds)


def horse_png(view: dict, odds: Any) -> bytes:
    return render_board(view, odds=odds)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    bench("Hot Streak race replay", hotstreak_race, hot_replay, hot_live, hot_png, range(1, 1 + (n or 5)))
    bench("Horse Race replay", horserace_race, horse_replay, horse_live, horse_png, range(1, 1 + (n or 3)))
    bench(
        "Downforce race replay",
        downforce_race,
        downforce_replay,
        live_track,
        render_track,
        range(1, 1 + (n or 3)),
    )
