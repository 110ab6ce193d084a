"""Fast odds: a model fitted to simulated races, for the games whose exact odds are out of reach.

Each racer still able to win gets a few numbers read off the public view (its ``features``: how far it
has to go, what the cards still to come are worth to it, ...); its chance to win is proportional to
``exp(weights . features)`` (a conditional logit). The weights are fitted offline by
``bench/fit_odds.py`` to the game's simulator and shipped as ``assets/<game>/odds_weights.json``;
the simulator stays the reference (``bench/odds_references.py``, and the tests hold the model to it).
One state costs a few dozen arithmetic operations per racer: well under a millisecond.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.paths import ASSETS

Features = Callable[[dict[str, Any]], dict[str, list[float]]]


@dataclass
class Model:
    """A game's ``features`` (racer id -> its numbers, only for racers that can still win) and weights."""

    game: str
    features: Features
    weights: list[float]

    @classmethod
    def of(cls, game: str) -> Model:
        """The model of ``bot.games.<game>.odds_features``, with its shipped weights (none yet: zeros)."""
        module = importlib.import_module(f"bot.games.{game}.odds_features")
        path = _weights_path(game)
        weights = json.loads(path.read_text())["weights"] if path.exists() else []
        return cls(game, module.features, weights)

    def chances(self, view: dict[str, Any]) -> dict[str, float]:
        """Each racer's chance to win, summing to 1; a racer without features has none and is left out."""
        rows = self.features(view)
        if not rows:
            return {}
        weights = self.weights or [0.0] * len(next(iter(rows.values())))
        z = {r: sum(w * x for w, x in zip(weights, f, strict=True)) for r, f in rows.items()}
        top = max(z.values())
        e = {r: math.exp(v - top) for r, v in z.items()}
        total = sum(e.values())
        return {r: v / total for r, v in e.items()}

    def save(self) -> None:
        _weights_path(self.game).write_text(json.dumps({"weights": self.weights}, indent=1) + "\n")


def _weights_path(game: str) -> Path:
    return ASSETS / game / "odds_weights.json"
