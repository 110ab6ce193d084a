"""Hot Streak live odds: Monte Carlo over the cards the public has not seen.

What the public knows (``game.view(None)``): the race's face-up cards (all in the deck), every card
flipped so far, how many cards are left and how many were burned, and the whole card list of the
edition. What it does not know: the submitted cards and the order of the pile. Each simulated race
draws the unknown submissions from the cards that could still be them (the edition's cards minus the
face-up ones, minus submissions already revealed by a flip), deals the unseen cards in a random order,
and plays the race to the end with the lean simulator (``odds_sim``), reshuffling and folding the bar
exactly as the game does.

Rulings:

* Every card not face up is equally likely to be a submission (players choose, but the public cannot
  see their hands, so the odds do not guess at their intentions).
* "Place" is finishing 1st or 2nd (paid as); a mascot put out with others is paid as the worst of them.
* The numbers are seeded from the state, so the same state always shows the same numbers, and cached
  per state and sample count.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import Any

from bot.games.hotstreak.content import Content, default_content
from bot.games.hotstreak.game import submit_count
from bot.games.hotstreak.odds_sim import Card, LeanRace, encode, fold, play, side_bet_holds
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.track import Track
from bot.games.odds import Odds

SAMPLES = 2000
"""Simulated races per state (the Odds button's payouts and side bet; a frame's odds while the picture
worker is free); a busy bot may ask for fewer (the result says how many)."""
RACE_SAMPLES = 64
"""Simulated races per state during a race when the bot is busy (``budget_ms`` 0: the picture worker
has a queue), so every flipped card's frame still shows odds (issue 31: about 2 ms a state on one core,
where 2,000 took 40-70 ms and a busy bot showed odds on 1% of its frames). Ruling: held to the 20,000-race references of
``tests/bot/games/hotstreak/odds_references.json`` it is within 3 points on average (the issue's
fallback), not 1.5, nor 3 in the worst case: Monte Carlo noise shrinks only as one over the root of the
count, so 1.5 points on average takes about 150 races (4 ms) and 3 points at worst about 2,000 (the
40 ms of before). A model fitted to simulated races (a conditional logit on each mascot's distance and
the cards to come, fitted to 6,843 simulated states) was further off: 6 points on average, 45 at worst."""
CHUNK = 250
"""With a time budget, samples are cut in steps of this many."""
BURN = 3
_CACHE: OrderedDict[tuple[str, int], Odds] = OrderedDict()
_CACHE_SIZE = 512


def odds(
    view: dict[str, Any],
    *,
    samples: int | None = None,
    content: Content | None = None,
    budget_ms: float | None = None,
) -> Odds:
    """Each mascot's chance to win and to place (and the side bet's chance) from the public ``view``.

    ``samples`` is the number of simulated races (at least 1; ``SAMPLES`` by default); ``content`` is
    the edition the cards come from (the shipped one by default). ``budget_ms`` caps the time: a busy bot
    gets fewer samples (in steps of ``CHUNK``, at least one step), and with 0 during a race the quick
    estimate of ``RACE_SAMPLES`` races; ``Odds.samples`` says how many. The first ``k`` samples are the
    same whatever the target, so a state shows the same numbers for the same count. Works in every
    phase: before the race it simulates the race to come, during it the rest of the race.
    """
    if samples is None:
        quick = budget_ms is not None and budget_ms <= 0 and view.get("phase") == "race"
        samples, budget_ms = (RACE_SAMPLES, None) if quick else (SAMPLES, budget_ms)
    samples = max(1, int(samples))
    state = _state_key(view)
    hit = _CACHE.get((state, samples))
    if hit is not None:
        _CACHE.move_to_end((state, samples))
        return hit
    deadline = time.perf_counter() + budget_ms / 1000 if budget_ms is not None else None
    result = _compute(view, samples, content or default_content(), state, deadline)
    key = (state, result.samples or samples)
    _CACHE[key] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


_PUBLIC_KEYS = (
    "race",
    "phase",
    "seats",
    "face_up",
    "flipped",
    "cards_left",
    "burned",
    "bar",
    "mascots",
    "track",
)
"""What the odds read of a view, but the side bet (of which only its condition counts)."""


def _state_key(view: dict[str, Any]) -> str:
    """Everything public the odds depend on, as one string (also the seed)."""
    parts = {k: view.get(k) for k in _PUBLIC_KEYS}
    parts["side_bet"] = (view.get("side_bet") or {}).get("condition")
    return hashlib.blake2b(json.dumps(parts, sort_keys=True).encode(), digest_size=16).hexdigest()


# --- what the public knows ------------------------------------------------------------------


class _Knowledge:
    """The deck as the public sees it, in encoded cards."""

    def __init__(self, view: dict[str, Any], content: Content, mascots: Sequence[str]) -> None:
        face_up = list(view.get("face_up") or [])
        seats = int(view.get("seats") or 2)
        n_subs = seats * submit_count(seats)
        size = len(face_up) + n_subs
        self.burn = max(0, min(BURN, size - 1))
        flipped = list(view.get("flipped") or [])
        in_race = view.get("phase") == "race"
        self.started = in_race and bool(flipped or view.get("burned"))
        self.cards_left = int(view.get("cards_left") or 0) if self.started else size
        this_cycle = size - self.cards_left - int(view.get("burned") or 0) if self.started else 0
        this_cycle = max(0, min(this_cycle, len(flipped)))
        earlier = flipped[: len(flipped) - this_cycle]
        cycle_len = max(1, size - self.burn)
        self.cycles = [earlier[i : i + cycle_len] for i in range(0, len(earlier), cycle_len)]
        self.current = flipped[len(flipped) - this_cycle :]
        # Submissions a flip has already shown: more copies of a card in one pass than are face up.
        up = Counter(face_up)
        shown: Counter[str] = Counter()
        for cycle in [*self.cycles, self.current]:
            for card, count in Counter(cycle).items():
                shown[card] = max(shown[card], count - up[card])
        shown = +shown
        while sum(shown.values()) > n_subs:  # a view inconsistent with the edition: trust the count
            shown[next(iter(shown))] -= 1
            shown = +shown
        pool = Counter(content.bordered + content.cards)
        pool.subtract(up)
        pool.subtract(shown)
        code = {c: encode(c, mascots) for c in set(pool) | set(up) | set(shown)}
        self.pool: list[Card] = [code[c] for c, k in sorted(pool.items()) if k > 0 for _ in range(k)]
        self.unknown = max(0, min(n_subs - sum(shown.values()), len(self.pool)))
        known = up + shown
        self.known_deck: list[Card] = [code[c] for c in sorted(known.elements())]
        left = Counter(known)
        left.subtract(Counter(self.current))
        self.known_left: list[Card] = [code[c] for c, k in sorted(left.items()) if k > 0 for _ in range(k)]


def _race_now(view: dict[str, Any], mascots: Sequence[str], know: _Knowledge, tally: bool = True) -> LeanRace:
    """The race as it stands, with its tally rebuilt by replaying the public flips (only a side bet
    reads the tally: without one, ``tally=False`` spares the replay)."""
    if view.get("phase") != "race" or not tally:
        # Before a race the mascots stand on the start; after the game the view shows the last race.
        return LeanRace.from_view(view, mascots)
    track = Track.from_json(view["track"])
    replay = LeanRace.from_race_json(Race.start(track).to_json(), mascots)
    for cycle in know.cycles:
        play(replay, [encode(c, mascots) for c in cycle], None)
        if not replay.ended:
            fold(replay)
    play(replay, [encode(c, mascots) for c in know.current], None)
    # The view is the truth for where everyone stands; the replay only supplies the tally.
    return LeanRace.from_view(view, mascots, replay.tally)


# --- the simulation ------------------------------------------------------------------------


def _compute(
    view: dict[str, Any], samples: int, content: Content, seed: str, deadline: float | None = None
) -> Odds:
    mascots = list(view["mascots"])
    n = len(mascots)
    know = _Knowledge(view, content, mascots)
    condition = (view.get("side_bet") or {}).get("condition")
    now = _race_now(view, mascots, know, tally=condition is not None)
    if now.ended:
        decided = _decided(now, mascots, condition)
        history = view.get("history") or []
        if view.get("phase") == "over" and history:
            decided.events["side_bet"] = 1.0 if history[-1]["side_bet"]["happened"] else 0.0
        return decided
    rng = random.Random(int(seed, 16))
    rand, sample = rng.random, rng.sample
    pool, unknown, burn = know.pool, know.unknown, know.burn
    known_left, known_deck, cards_left, started = (
        know.known_left,
        know.known_deck,
        know.cards_left,
        know.started,
    )
    counts = [[0] * n for _ in range(n)]
    outcomes: Counter[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = Counter()
    track_condition = condition is not None
    done = 0
    for done in range(1, samples + 1):  # ``done``: the count actually simulated
        subs = sample(pool, unknown) if unknown else []
        # A shuffle by random sort keys: the same uniform order as random.shuffle, in a third of the time.
        left = [
            c
            for _, c in sorted(
                zip([rand() for _ in range(len(known_left) + unknown)], known_left + subs, strict=True)
            )
        ]
        pile = left[len(left) - cards_left :] if started else left[burn:]
        deck = known_deck + subs

        def refill(deck: list[Card] = deck) -> list[Card]:
            return [c for _, c in sorted(zip([rand() for _ in deck], deck, strict=True))][burn:]

        race = now.copy()
        play(race, pile, refill)
        paid = race.paid
        for m in range(n):
            counts[m][paid[m] - 1] += 1
        if track_condition:
            outcomes[(tuple(race.status), tuple(paid), tuple(race.tally))] += 1
        if deadline is not None and done % CHUNK == 0 and time.perf_counter() > deadline:
            break
    samples = done
    places = {m: tuple(c / samples for c in counts[i]) for i, m in enumerate(mascots)}
    events: dict[str, float] = {}
    if condition is not None:  # track_condition, spelled so that mypy narrows condition
        hits = sum(k for key, k in outcomes.items() if side_bet_holds(condition, mascots, *key))
        events["side_bet"] = hits / samples
    return Odds(
        win={m: p[0] for m, p in places.items()},
        place={m: p[0] + (p[1] if len(p) > 1 else 0.0) for m, p in places.items()},
        samples=samples,
        exact=False,
        places=places,
        events=events,
    )


def _decided(race: LeanRace, mascots: Sequence[str], condition: dict[str, Any] | None) -> Odds:
    n = len(mascots)
    places = {
        m: tuple(1.0 if race.paid[i] == k + 1 else 0.0 for k in range(n)) for i, m in enumerate(mascots)
    }
    events = {}
    if condition is not None:
        events["side_bet"] = (
            1.0 if side_bet_holds(condition, mascots, race.status, race.paid, race.tally) else 0.0
        )
    return Odds(
        win={m: p[0] for m, p in places.items()},
        place={m: p[0] + p[1] for m, p in places.items()},
        exact=True,
        places=places,
        events=events,
    )


# --- what a bet is worth at these odds ---------------------------------------------------------


def bet_value(bet: dict[str, Any], chances: Odds) -> float:
    """What a bet already taken (a ``view["bets"]`` entry) is expected to pay at ``chances``, doubling included."""
    values = bet.get("values") or []
    if bet.get("kind") == "ticket":
        places = (chances.places or {}).get(bet.get("mascot", ""), ())
        value = sum(p * v for p, v in zip(places, values, strict=False))
    else:
        p_yes = chances.events.get("side_bet", 0.0)
        right = p_yes if bet.get("answer") == "yes" else 1 - p_yes
        value = right * values[0] + (1 - right) * values[1] if len(values) >= 2 else 0.0
    return value * 2 if bet.get("doubled") else value


def expected_payouts(view: dict[str, Any], chances: Odds | None = None) -> list[dict[str, Any]]:
    """Every ticket and side-bet slip a player could take now, with its expected payout in dollars.

    One entry per option of the ``bet`` decision (``ticket:<mascot>:<risk>``, ``side:<answer>:<risk>``),
    in the draft's option order: ``option``, ``label`` (``"Gobbler ticket (safe)"``), ``values`` (as on
    the ticket or slip) and ``expected``: the sum over outcomes of chance times payout (a ticket pays
    its value for the 1st, 2nd or 3rd place the mascot is paid as; a slip its win if right, its loss if
    wrong). ``chances`` defaults to ``odds(view)``.
    """
    chances = chances or odds(view)
    names = {m: info.get("name", m.title()) for m, info in (view.get("mascot_info") or {}).items()}
    out: list[dict[str, Any]] = []
    for mascot, stack in (view.get("tickets") or {}).items():
        if not stack:
            continue
        places = (chances.places or {}).get(mascot, ())
        for risk in ("safe", "risky"):
            values = list(stack[0][risk])
            expected = sum(p * v for p, v in zip(places, values, strict=False))
            out.append(
                {
                    "option": f"ticket:{mascot}:{risk}",
                    "label": f"{names.get(mascot, mascot.title())} ticket ({risk})",
                    "values": values,
                    "expected": expected,
                }
            )
    side = view.get("side_bet") or {}
    p_yes = chances.events.get("side_bet")
    for answer in ("yes", "no"):
        slips = (side.get("slips") or {}).get(answer) or []
        if not slips or p_yes is None:
            continue
        right = p_yes if answer == "yes" else 1 - p_yes
        for risk in ("safe", "risky"):
            values = [slips[0]["safe"], 0] if risk == "safe" else list(slips[0]["risky"])
            out.append(
                {
                    "option": f"side:{answer}:{risk}",
                    "label": f"Side bet {answer.upper()} ({risk}): {side.get('text', '')}".rstrip(": "),
                    "values": values,
                    "expected": right * values[0] + (1 - right) * values[1],
                }
            )
    return out
