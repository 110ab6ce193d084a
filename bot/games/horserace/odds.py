"""The Horse Race Game's live odds, exact (no sampling), from any position.

A plain DP over every combination of positions is far too large (up to about 2.6e7 states). The
structure that makes it small: rolls of scratched numbers move nobody, so only rolls of running
horses matter, and each of those is horse ``h`` with probability ``q_h = p_h / sum(p)`` (``p_h``: the
ways two dice make ``h``), independently of everything before. Horse ``h`` wins when its
``r_h``-th roll (``r_h``: the moves it still needs) comes while every other horse ``g`` has had fewer
than ``r_g``. Summing over how many rolls ``k_g`` each other horse had:

    P(h wins) = q_h^r_h * sum over k_g < r_g of multinomial(r_h - 1 + sum k; r_h - 1, k_g...) * prod q_g^k_g

which is a product of small polynomials in exponential-generating-function form: with
``A_g[k] = q_g^k`` for ``k < r_g`` and ``G = prod_{g != h} A_g`` (binomial convolution),
``P(h wins) = q_h^r_h * sum_n C(n + r_h - 1, n) * G[n]``. Every term lies in [0, 1], so floats are
safe; a board costs a few thousand multiply-adds per horse.

Before the race (and during the scratch round) the horses still to be scratched are unknown: the
odds average the race from the start over every way the remaining scratch slots can fill (a roll of
a scratched number is rolled again, so the next scratch is ``x`` with probability ``p_x`` over the
unscratched total). Only the 330 distinct sets of four scratched horses matter, and each set's answer
is built from per-horse polynomials shared by every set (see ``_before_race``). Horses alike in dice
weight and moves (on the shipped boards 2 and 12, 3 and 11, ...) are interchangeable, so the 330 sets
collapse to a few dozen multisets of kinds: about 10 ms per board the first time (bench/bench_odds.py),
against 30-40 ms for the sets one by one; results are cached per board and scratches so far.
"""

from __future__ import annotations

from functools import lru_cache
from operator import mul
from typing import Any

from bot.games.horserace.board import HORSES
from bot.games.horserace.scratch import SLOTS
from bot.games.odds import Odds

WAYS: dict[int, int] = {h: 6 - abs(h - 7) for h in HORSES}
"""How many of the 36 throws of two dice make each total."""


def odds(view: dict[str, Any], *, samples: int | None = None, budget_ms: float | None = None) -> Odds:
    """Each horse's exact chance to win the race in ``view`` (``samples`` and ``budget_ms`` are accepted
    for the shared signature and ignored: exact odds need no sampling)."""
    del samples, budget_ms
    moves = {int(h): int(m) for h, m in view["board"]["moves"].items()}
    positions = {int(h): int(p) for h, p in (view.get("positions") or {}).items()}
    scratched = [int(s["horse"]) for s in view.get("scratched") or []]
    winner = view.get("winner")
    phase = view.get("phase")
    if winner is not None:
        return Odds(win={str(h): 1.0 if h == winner else 0.0 for h in HORSES}, exact=True)
    if phase == "race" or (phase != "between" and len(scratched) >= SLOTS):
        need = tuple((h, max(1, moves[h] - positions.get(h, 0))) for h in HORSES if h not in scratched)
        win = race_odds(need)
    else:
        # Between races the next race starts from scratch; during the scratch round from what is scratched.
        fresh = [] if phase == "between" else scratched
        win = _before_race(tuple(sorted(moves.items())), tuple(fresh))
    return Odds(win={str(h): win.get(h, 0.0) for h in HORSES}, exact=True)


@lru_cache(maxsize=4096)
def race_odds(need: tuple[tuple[int, int], ...]) -> dict[int, float]:
    """``need``: (horse, rolls of its number it still needs) for every running horse -> P(horse wins)."""
    total = sum(WAYS[h] for h, _ in need)
    q = {h: WAYS[h] / total for h, _ in need}
    size = sum(r for _, r in need)
    comb = _binomials(-(-size // 64) * 64)  # rounded up, so boards share one triangle
    # Products of every horse's polynomial before and after each one, so each leave-one-out product
    # costs one multiplication instead of five or six.
    polys = [_powers(q[h], r) for h, r in need]
    before = [[1.0]]
    for poly in polys[:-1]:
        before.append(_egf_product(before[-1], poly, comb))
    after = [[1.0]]
    for poly in reversed(polys[1:]):
        after.append(_egf_product(after[-1], poly, comb))
    after.reverse()
    out: dict[int, float] = {}
    for i, (h, r_h) in enumerate(need):
        g = _egf_product(before[i], after[i], comb)
        row = r_h - 1
        out[h] = q[h] ** r_h * sum(comb[n + row][row] * gn for n, gn in enumerate(g))
    return out


def _powers(q: float, count: int) -> list[float]:
    out = [1.0] * count
    for k in range(1, count):
        out[k] = out[k - 1] * q
    return out


def _egf_product(b: list[float], a: list[float], comb: list[list[float]]) -> list[float]:
    """The product of two exponential generating functions: c[n] = sum_k C(n, k) a[k] b[n - k]."""
    la, lb = len(a), len(b)
    out = [0.0] * (la + lb - 1)
    for n in range(la + lb - 1):
        row = comb[n]
        lo = max(0, n - lb + 1)
        hi = min(la, n + 1)
        out[n] = sum([row[k] * a[k] * b[n - k] for k in range(lo, hi)])
    return out


@lru_cache(maxsize=8)
def _binomials(size: int) -> list[list[float]]:
    """Pascal's triangle as floats up to row ``size`` (rows grow on demand through the cache key)."""
    rows: list[list[float]] = [[1.0]]
    for n in range(1, size + 1):
        prev = rows[-1]
        rows.append([1.0] + [prev[k - 1] + prev[k] for k in range(1, n)] + [1.0])
    return rows


@lru_cache(maxsize=64)
def _before_race(moves: tuple[tuple[int, int], ...], scratched: tuple[int, ...]) -> dict[int, float]:
    """The race from the start, averaged over every way the scratch slots left can fill.

    Only the distinct sets of scratched horses matter (330 sets of 4), and each set's answer is made of
    per-horse terms that do not depend on the set once the dice weights are kept unnormalised:
    with ``a_g[k] = w_g^k / k!`` (ordinary generating functions, so products are plain convolutions)
    and ``T`` the running horses' total weight, ``P(h wins) = (w_h/T)^r_h * sum_n (n+r_h-1)!/(r_h-1)!
    * G[n] / T^n`` where ``G`` is the product of the other running horses' ``a_g``.

    What makes it small: a horse's chance given the runners depends only on its own (dice weight, moves)
    and on the multiset of the others' (weight, moves) pairs, and a board's horses come in few such
    kinds (the shipped boards are mirror images around 7: 2 and 12 run alike, 3 and 11 ...). So the
    330 sets collapse to a few dozen multisets of kinds, each solved once, and the products of kinds are
    memoised by sorted prefix. A board with no two horses alike still works, only without the saving.
    """
    board = dict(moves)
    kind_of = {h: (WAYS[h], max(1, board[h])) for h in HORSES}
    kinds = sorted(set(kind_of.values()))
    index = {k: i for i, k in enumerate(kinds)}
    horse_kind = {h: index[kind_of[h]] for h in HORSES}
    ogf: list[list[float]] = []
    for w, r in kinds:
        terms = [1.0] * r
        for k in range(1, r):
            terms[k] = terms[k - 1] * w / k
        ogf.append(terms)
    products: dict[tuple[int, ...], list[float]] = {(): [1.0]}

    def product(group: tuple[int, ...]) -> list[float]:
        known = products.get(group)
        if known is None:
            known = _convolve(product(group[:-1]), ogf[group[-1]])
            products[group] = known
        return known

    # (r, T) -> [(n + r - 1)! / (r - 1)! / T^n for n ...]: few distinct pairs, shared by many sets.
    weights: dict[tuple[int, int], list[float]] = {}
    # sorted kinds of the runners -> each kind's chance for one horse of that kind to win
    solved: dict[tuple[int, ...], dict[int, float]] = {}
    win = dict.fromkeys(HORSES, 0.0)
    for out, p in _scratch_outcomes(tuple(sorted(scratched))).items():
        running = [h for h in HORSES if h not in out]
        group = tuple(sorted(horse_kind[h] for h in running))
        chances = solved.get(group)
        if chances is None:
            chances = {}
            total_ways = sum(kinds[i][0] for i in group)
            for at, i in enumerate(group):
                if i in chances:
                    continue
                w, r = kinds[i]
                g = product(group[:at] + group[at + 1 :])
                row = weights.get((r, total_ways))
                if row is None or len(row) < len(g):
                    row = [1.0]
                    for n in range(1, len(g) + 64):
                        row.append(row[-1] * (n + r - 1) / total_ways)
                    weights[(r, total_ways)] = row
                chances[i] = (w / total_ways) ** r * sum(map(mul, row, g))
            solved[group] = chances
        for h in running:
            win[h] += p * chances[horse_kind[h]]
    return win


@lru_cache(maxsize=16)
def _scratch_outcomes(scratched: tuple[int, ...]) -> dict[frozenset[int], float]:
    """The chance of each final set of scratched horses, given those scratched so far (any board).

    Level by level: the orders reaching a set merge. A roll of a scratched number is rolled again, so
    the next scratch is ``x`` with chance ``p_x`` over the unscratched total.
    """
    sets: dict[frozenset[int], float] = {frozenset(scratched): 1.0}
    for _ in range(len(scratched), SLOTS):
        grown: dict[frozenset[int], float] = {}
        for done, p in sets.items():
            left = [h for h in HORSES if h not in done]
            total = sum(WAYS[h] for h in left)
            for h in left:
                key = done | {h}
                grown[key] = grown.get(key, 0.0) + p * WAYS[h] / total
        sets = grown
    return sets


def _convolve(b: list[float], a: list[float]) -> list[float]:
    if len(a) > len(b):
        a, b = b, a
    lb = len(b)
    out = [0.0] * (len(a) + lb - 1)
    for k, ak in enumerate(a):
        out[k : k + lb] = [x + ak * y for x, y in zip(out[k : k + lb], b, strict=True)]
    return out
