"""AI players for Hot Streak: ``choose(view, decision, level, rng)`` picks one of ``decision.options``.

Levels:

* ``easy``: a random legal option.
* ``normal``: prices every option by imagining a few hundred races from what the seat can
  see (``ai_outlook``; never anything else: the view is ``game.view(seat)``):

  - a bet: the expected payout of the ticket or slip on top of its stack, plus, in race 3,
    what it adds to the bet that will be doubled. The seat has not submitted yet, so it plans
    both at once: each possible submission of its own is imagined, and a bet is worth its
    value under the submission that will then suit everything it holds best.
  - a submission: the card(s) giving the highest expected payout of the bets it holds
    (in race 3 counting the double it will then put on its best bet).
  - a double: the bet with the highest expected payout (plain expected value, no risk taste).

Ties go to the first option in the engine's order, so a choice depends only on the view and
``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from bot.games.base import JSON, Action, Decision
from bot.games.hotstreak.ai_outlook import Outlook, imagine
from bot.games.hotstreak.content import Content
from bot.games.hotstreak.game import DOUBLE_RACE, HotStreak

LEVELS = ("easy", "normal")
RACE_BUDGET = 480
"""Imagined races per normal decision, shared among the seat's own submission choices
(about 20 ms on the lean race rules; see bench/bench_hotstreak_ai.py)."""
MIN_RACES_EACH = 40


def choose(
    view: dict[str, JSON],
    decision: Decision,
    level: str,
    rng: random.Random,
    *,
    content: Content | None = None,
    budget: int = RACE_BUDGET,
    effort: float = 1.0,
) -> JSON:
    """One of ``decision.options`` for the seat whose ``view`` this is.

    ``content`` is the edition the seat knows the box list of (the shipped one by default);
    ``budget`` the imagined races per decision (tests and the simulator may lower it); ``effort``
    (0 to 1) the share of them a busy bot can afford (``MIN_RACES_EACH`` per choice shrinks with it).
    """
    effort = min(1.0, max(0.0, effort))
    budget, least = max(1, round(budget * effort)), max(4, round(MIN_RACES_EACH * effort))
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")
    options = decision.options
    if not options:
        raise ValueError(f"{decision.kind!r} has no options to choose from")
    if level == "easy":
        return rng.choice(options)
    if len(options) == 1:
        return options[0]
    if decision.kind == "bet":
        return _best_bet(view, options, rng, content, budget, least)
    if decision.kind == "submit":
        return _best_submission(view, options, rng, content, budget, least)
    if decision.kind == "double":
        return _best_double(view, options, rng, content, budget)
    return rng.choice(options)


# --- pricing ----------------------------------------------------------------------


def option_bet(view: dict[str, JSON], option: str) -> dict[str, JSON]:
    """The bet a draft option would give (same shape as the engine's bet dict, enough to price it)."""
    kind, what, risk = option.split(":")
    if kind == "ticket":
        return {"kind": "ticket", "mascot": what, "values": list(view["tickets"][what][0][risk])}
    slip = view["side_bet"]["slips"][what][0]
    values = [slip["safe"], 0] if risk == "safe" else list(slip["risky"])
    return {"kind": "side", "answer": what, "values": values}


def holding_value(outlook: Outlook, bets: Sequence[dict[str, JSON]], doubling: bool) -> float:
    """Expected payout of ``bets`` together; with ``doubling`` the best of them will pay twice."""
    values = [outlook.bet_value(bet) for bet in bets]
    total = sum(values)
    if doubling and values:
        total += max(0.0, max(values))
    return total


def _doubling_ahead(view: dict[str, JSON]) -> bool:
    return view["race"] == DOUBLE_RACE


def _my_bets(view: dict[str, JSON]) -> list[dict[str, JSON]]:
    return list(view["bets"][view["seat"]])


def _races_each(budget: int, choices: int, least: int = MIN_RACES_EACH) -> int:
    return max(least, budget // max(1, choices))


def _own_choices(view: dict[str, JSON]) -> list[list[str]]:
    """The submissions this seat could still make (one empty choice once it has submitted)."""
    if view.get("my_submission") is not None:
        return [[]]
    count = 2 if view["seats"] == 2 else 1
    hand = view.get("hand", [])
    if len(hand) < count:
        return [list(hand)]
    return [list(c) for c in sorted({tuple(sorted(c)) for c in combinations(hand, count)})]


def _argmax(options: Sequence[JSON], scores: Sequence[float]) -> JSON:
    best = max(range(len(options)), key=lambda i: (scores[i], -i))
    return options[best]


def _best_bet(
    view: dict[str, JSON],
    options: Sequence[JSON],
    rng: random.Random,
    content: Content | None,
    budget: int,
    least: int = MIN_RACES_EACH,
) -> JSON:
    choices = _own_choices(view)
    outlooks = imagine(view, choices, _races_each(budget, len(choices), least), rng, content)
    held = _my_bets(view)
    doubling = _doubling_ahead(view)
    scores = []
    for option in options:
        bets = [*held, option_bet(view, option)]
        scores.append(max(holding_value(o, bets, doubling) for o in outlooks))
    return _argmax(options, scores)


def _best_submission(
    view: dict[str, JSON],
    options: Sequence[JSON],
    rng: random.Random,
    content: Content | None,
    budget: int,
    least: int = MIN_RACES_EACH,
) -> JSON:
    races = _races_each(budget, len(options), least)
    outlooks = imagine(view, [list(o) for o in options], races, rng, content)
    held = _my_bets(view)
    doubling = _doubling_ahead(view)
    return _argmax(options, [holding_value(o, held, doubling) for o in outlooks])


def _best_double(
    view: dict[str, JSON], options: Sequence[JSON], rng: random.Random, content: Content | None, budget: int
) -> JSON:
    (outlook,) = imagine(view, [[]], budget, rng, content)
    held = _my_bets(view)
    return _argmax(options, [outlook.bet_value(held[i]) for i in options])


# --- whole games ------------------------------------------------------------------


def ai_action(
    game: HotStreak,
    levels: Sequence[str],
    rng: random.Random,
    *,
    content: Content | None = None,
    budget: int = RACE_BUDGET,
) -> Action:
    """The next action of an all-AI table: the first pending decision (a flip is a table step).

    Seat ``s`` plays at ``levels[s]``. Easy seats never read their view, so none is built for
    them (a view copies the whole match history, which dominates a fast simulation).
    """
    decision = game.pending()[0]
    if decision.player is None:
        return Action(None, decision.kind, decision.options[0])
    level = levels[decision.player]
    view = game.view(decision.player) if level != "easy" else {}
    choice = choose(view, decision, level, rng, content=content, budget=budget)
    return Action(decision.player, decision.kind, choice)


def play_ai_game(
    seats: int,
    seed: int,
    levels: list[str],
    settings: dict[str, JSON] | None = None,
    *,
    content: Content | None = None,
    budget: int = RACE_BUDGET,
) -> HotStreak:
    """A whole game played by AI seats (``levels[s]`` for seat ``s``, or round-robin if shorter).

    The AI's own randomness comes from a generator seeded from ``seed`` apart from the
    game's, so the same seed and levels replay the same game.
    """
    if not levels:
        raise ValueError("levels must name at least one AI level")
    by_seat = [levels[s % len(levels)] for s in range(seats)]
    game = HotStreak.new(seats, seed, settings, content=content)
    rng = ai_rng(seed)
    while not game.is_over:
        game.apply(ai_action(game, by_seat, rng, content=content, budget=budget))
    return game


def ai_rng(seed: int) -> random.Random:
    """The AI players' generator for the game with ``seed`` (kept apart from the game's own)."""
    return random.Random(f"hotstreak-ai:{seed}")
