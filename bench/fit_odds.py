"""Fit the fast odds (``bot.games.odds_model``) to simulated races, offline: Downforce's (issue 31).

Two steps, each single-process:

``python bench/fit_odds.py collect downforce`` plays seeded training games (seeds below 1000, so never
a fixture game of ``bench/odds_references.py``), and for every third card asks the simulator for its
odds at 100 races (``TRAIN``); it writes them as JSON lines to ``/tmp/odds-train-downforce.jsonl``
(577 states, about 2 minutes on a busy core).

``python bench/fit_odds.py fit downforce`` fits the weights of the game's features (a
conditional logit: each racer's chance is proportional to ``exp(weights . features)``) by Newton's
method on the cross-entropy to the simulated chances, prints the fit's error on the training states
and on the shipped fixtures, and writes ``assets/<game>/odds_weights.json``.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import odds_references as refs  # noqa: E402

from bot.games.odds import error_points  # noqa: E402
from bot.games.odds_model import Model  # noqa: E402

TRAIN = {"downforce": (range(0, 80), 3, 100)}
"""Per game: the training seeds, every how many flips/cards a state is taken, simulated races per state."""
RIDGE = 1e-3


def _cache(game: str) -> Path:
    return Path(f"/tmp/odds-train-{game}.jsonl")


def collect(game: str) -> None:
    seeds, every, samples = TRAIN[game]
    states = {"hotstreak": refs.hotstreak_states, "downforce": refs.downforce_states}[game]
    start = time.perf_counter()
    count = 0
    with _cache(game).open("w") as out:
        for seed in seeds:
            for view in states(seed, every):
                win = refs.reference(game, view, samples)
                out.write(json.dumps({"view": refs.public(game, view), "win": win}) + "\n")
                count += 1
    print(f"{game}: {count} states in {time.perf_counter() - start:.0f} s")


def _rows(
    model: Model, game: str, cases: list[dict[str, Any]]
) -> list[tuple[list[list[float]], list[float]]]:
    """Per state: the features of each racer still in it, and the simulated chance of each."""
    out = []
    for case in cases:
        features = model.features(refs.loaded(game, case["view"]))
        if len(features) < 2:
            continue
        out.append(([f for _, f in sorted(features.items())], [case["win"][r] for r in sorted(features)]))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit_weights(rows: list[tuple[list[list[float]], list[float]]], k: int) -> list[float]:
    w = [0.0] * k
    for _ in range(25):
        grad = [-RIDGE * x for x in w]
        hess = [[RIDGE if i == j else 0.0 for j in range(k)] for i in range(k)]
        for feats, target in rows:
            z = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
            top = max(z)
            e = [math.exp(x - top) for x in z]
            s = sum(e)
            p = [x / s for x in e]
            mean = [sum(p[r] * feats[r][i] for r in range(len(p))) for i in range(k)]
            for r, f in enumerate(feats):
                d = [f[i] - mean[i] for i in range(k)]
                g = target[r] - p[r]
                for i in range(k):
                    grad[i] += g * f[i]
                    pd = p[r] * d[i]
                    row = hess[i]
                    for j in range(k):
                        row[j] += pd * d[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(x) for x in step) < 1e-6:
            break
    return w


def errors(model: Model, game: str, cases: list[dict[str, Any]]) -> tuple[float, float]:
    """Mean absolute and worst error in percentage points over every racer of every state."""
    return error_points((model.chances(refs.loaded(game, c["view"])), c["win"]) for c in cases)


def fit(game: str) -> None:
    model = Model.of(game)
    cases = [json.loads(line) for line in _cache(game).read_text().splitlines()]
    rows = _rows(model, game, cases)
    start = time.perf_counter()
    model.weights = fit_weights(rows, len(rows[0][0][0]))
    print(
        f"{game}: fitted {len(model.weights)} weights on {len(rows)} states in {time.perf_counter() - start:.0f} s"
    )
    mae, worst = errors(model, game, cases)
    print(f"  training: MAE {mae:.2f}, worst {worst:.2f} points")
    fixtures = json.loads(refs.FIXTURES[game].read_text())["states"] if refs.FIXTURES[game].exists() else []
    if fixtures:
        mae, worst = errors(model, game, fixtures)
        print(f"  fixtures: MAE {mae:.2f}, worst {worst:.2f} points")
    model.save()


if __name__ == "__main__":
    {"collect": collect, "fit": fit}[sys.argv[1]](sys.argv[2])
