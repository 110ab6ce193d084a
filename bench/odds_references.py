"""The fixed public-view states the fast odds are held to, and their 20,000-race reference odds.

Captured deterministically from seeded games with random choices (the same seeds give the same
states): for Hot Streak, race states at the start, early, in the middle and late of each of the three
races, over two to eight seats; for Downforce, race states early, in the middle and late, over every
shipped track and two to six seats. A state whose winner is already settled is left out (its odds are
exact either way). Each reference is the simulator's answer (``hotstreak.odds._compute``,
``downforce.odds._compute``) at ``REFERENCE_SAMPLES`` races, computed once and shipped as a test
fixture, so the suite never runs these simulations.

Run (single process, a few minutes): ``python bench/odds_references.py``. It rewrites
``tests/bot/games/hotstreak/odds_references.json`` and ``tests/bot/games/downforce/odds_references.json``.
``bench/fit_odds.py`` draws its training states from other seeds with the same functions.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.games.base import Action  # noqa: E402
from bot.games.downforce import odds as df_odds  # noqa: E402
from bot.games.downforce.content import TRACKS  # noqa: E402
from bot.games.downforce.content import default_content as df_content  # noqa: E402
from bot.games.downforce.game import Downforce  # noqa: E402
from bot.games.hotstreak import odds as hs_odds  # noqa: E402
from bot.games.hotstreak.content import default_content as hs_content  # noqa: E402
from bot.games.hotstreak.game import HotStreak  # noqa: E402

REFERENCE_SAMPLES = 20_000
FIXTURES = {
    "hotstreak": ROOT / "tests/bot/games/hotstreak/odds_references.json",
    "downforce": ROOT / "tests/bot/games/downforce/odds_references.json",
}
REFERENCE_GAMES = {"hotstreak": (range(1000, 1012), 5), "downforce": (range(1000, 1008), 3)}
"""The fixture games (seeds) and how many states of each; training (``bench/fit_odds.py``) uses seeds
below 1000. Fewer Downforce states: its simulator is about twenty times slower per race (a 20,000-race
reference takes about 40 s on a busy core), and eight games still cover every track."""


def hotstreak_states(seed: int, every: int = 1) -> Iterator[dict[str, Any]]:
    """The race states of one seeded game (every ``every``-th flip, the start of each race included)."""
    rng = random.Random(seed)
    game = HotStreak.new(2 + seed % 7, seed)
    flips = 0
    while not game.is_over:
        d = game.pending()[0]
        if game.phase == "race":
            view = game.view(None)
            if flips % every == 0 and 0 in [m["place"] or 0 for m in view["mascots"].values()]:
                yield view
            flips += 1
        else:
            flips = 0
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))


def downforce_states(seed: int, every: int = 1) -> Iterator[dict[str, Any]]:
    """The race states of one seeded game on track ``TRACKS[seed % 6]`` (every ``every``-th card)."""
    rng = random.Random(seed)
    track = TRACKS[seed % len(TRACKS)]
    game = Downforce.new(2 + seed % 5, seed, {"track": track})
    played = -1
    while not game.is_over:
        d = game.pending()[0]
        view = game.view(None)
        if view["phase"] in ("race", "bet") and not df_odds.decided(view):
            count = view["cards_played"]
            if count != played and count % every == 0:
                yield view
            played = count
        game.apply(Action(d.player, d.kind, rng.choice(d.options)))


def _pick(states: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """``k`` states spread evenly over a game: its start, middle and end."""
    if len(states) <= k:
        return states
    return [states[round(i * (len(states) - 1) / (k - 1))] for i in range(k)]


def reference_states(game: str) -> list[dict[str, Any]]:
    states: list[dict[str, Any]] = []
    seeds, per_game = REFERENCE_GAMES[game]
    for seed in seeds:
        found = list(hotstreak_states(seed) if game == "hotstreak" else downforce_states(seed))
        states += _pick(found, per_game)
    return states


def reference(game: str, view: dict[str, Any], samples: int = REFERENCE_SAMPLES) -> dict[str, float]:
    """The simulator's chance of each racer to win, at ``samples`` races, seeded from the state."""
    if game == "hotstreak":
        key = hs_odds._state_key(view)
        return hs_odds._compute(view, samples, hs_content(), key).win
    key = df_odds._state_key(view)
    return df_odds._compute(view, samples, None, df_content(), key).win


# What a fixture keeps of a view: what the odds read. A Downforce track is kept by name.
_KEEP = {
    "hotstreak": (*hs_odds._PUBLIC_KEYS, "podium", "side_bet"),
    "downforce": (*df_odds._PUBLIC_KEYS, "settings"),
}


def public(game: str, view: dict[str, Any]) -> dict[str, Any]:
    """``view`` cut to what the odds read, as a fixture stores it (``loaded`` undoes it)."""
    kept = {k: view[k] for k in _KEEP[game] if k in view}
    if game == "downforce":
        kept["track"] = view["settings"]["track"]
    elif kept.get("side_bet"):
        kept["side_bet"] = {"condition": kept["side_bet"]["condition"]}
    return kept


def loaded(game: str, view: dict[str, Any]) -> dict[str, Any]:
    """A fixture's view as the odds take it (the Downforce track put back from the shipped content)."""
    if game == "downforce":
        return {**view, "track": df_content().tracks[view["track"]].to_json()}
    return view


def main() -> None:
    for game, path in FIXTURES.items():
        start = time.perf_counter()
        cases = [{"view": public(game, v), "win": reference(game, v)} for v in reference_states(game)]
        path.write_text(json.dumps({"samples": REFERENCE_SAMPLES, "states": cases}, separators=(",", ":")))
        took = time.perf_counter() - start
        print(f"{game}: {len(cases)} states, {path.stat().st_size / 1000:.0f} kB, {took:.0f} s")


if __name__ == "__main__":
    main()
