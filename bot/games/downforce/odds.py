"""Downforce live odds: each car's chance to win the race, by Monte Carlo from the public view only.

What the public knows (``game.view(None)``): the track, where every car and animal is, who owns which
car, whose turn it is, how many cards each hand holds and which cards were played (``played``; cards
are played face up). What it does not: the hands. Each simulated race deals the speed cards not yet
played at random into hands of the public sizes (the rest stay out of the race, as in the game), then
plays the race to the end with a cheap policy, and counts which car crossed the finish first.

Rulings:

* The policy: the player on turn plays a random card of their hand; a line for one of their own cars
  takes the way that ends furthest ahead, a line for someone else's car a random way; a wild line
  names a random racing car not already named on the card. Powers and animals' later moves are left
  out (animals stay where they stand): the odds are a fair guess for spectators, not a solver.
* A view without ``played`` (older saves) draws the hands from every speed card but the last one.
* A car across the finish first has 100%; when cards run out, the leader on the track wins.
* Once a car has finished (``decided``), the odds are exact and say only who won: 100% and 0%. They do
  not simulate the places still paying (2nd to 5th), so the picture and its alt text show no odds from
  then on (``bot.games.downforce.render.odds_shown``) rather than a 0% that looks like "pays nothing".
* The numbers are seeded from the state, so the same state always shows the same numbers, and cached
  per state and sample count. ``place`` is ``None`` (Downforce odds are about the winner).

Issue 31: the bot's odds (``odds(view)``, no ``samples``) come from a model fitted to this simulator
(``bot.games.odds_model``, features in ``odds_features``), well under a millisecond a state instead of
600 simulated races (tens of milliseconds); ``odds(view, samples=n)`` is the simulator, the reference
the model is held to (``tests/bot/games/downforce/odds_references.json``, 20,000 races a state).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import OrderedDict
from functools import cache
from typing import Any

from bot.games.downforce.cards import COLOURS, WILD, Line
from bot.games.downforce.content import Content, default_content
from bot.games.downforce.movement import Mover
from bot.games.downforce.track import FINISH, Track
from bot.games.odds import Odds
from bot.games.odds_model import Model

SAMPLES = 600
"""Simulated races per state of the simulator; a busy bot may ask for fewer (the result says how many)."""
CHUNK = 50
"""With a time budget, samples are cut in steps of this many."""
_CACHE: OrderedDict[tuple[str, int, float | None], Odds] = OrderedDict()
_CACHE_SIZE = 256


def odds(
    view: dict[str, Any],
    *,
    samples: int | None = None,
    budget_ms: float | None = None,
    content: Content | None = None,
) -> Odds:
    """Each car's chance to win the race from the public ``view`` (``game.view(None)``).

    Without ``samples``, from the fitted model (``samples`` is ``None`` then, and ``budget_ms`` is moot);
    with it, from that many simulated races (``SAMPLES`` is the simulator's usual count).
    ``budget_ms`` caps the time: a busy bot gets fewer samples (in steps of ``CHUNK``, at least one
    step) and ``Odds.samples`` says how many. Samples are drawn from one seed made from the state, so
    the first ``k`` samples are the same whatever the target.
    """
    if samples is None:
        return _fitted(view)
    samples = max(1, int(samples))
    key = _state_key(view)
    cached = _CACHE.get((key, samples, budget_ms))
    if cached is not None:
        _CACHE.move_to_end((key, samples, budget_ms))
        return cached
    result = _compute(view, samples, budget_ms, content or default_content(), key)
    _CACHE[(key, samples, budget_ms)] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


def _fitted(view: dict[str, Any]) -> Odds:
    if decided(view):
        return _won(view)
    chances = _model().chances(view)
    return Odds(win={c: chances.get(c, 0.0) for c in COLOURS})


@cache
def _model() -> Model:
    return Model.of("downforce")


def _won(view: dict[str, Any]) -> Odds:
    """A decided race's odds: whoever crossed the finish first has won."""
    cars = view["cars"]
    first = min((c for c in COLOURS if cars[c]["finished"]), key=lambda c: cars[c]["place"] or 99)
    return Odds(win={c: 1.0 if c == first else 0.0 for c in COLOURS}, exact=True)


def decided(view: dict[str, Any]) -> bool:
    """Whether the win is settled: a car has crossed the finish. The odds of a decided race are exact
    (the winner 100%, the rest 0%) and not worth showing: the places still paying are not simulated."""
    return any(car["finished"] for car in view["cars"].values())


def _state_key(view: dict[str, Any]) -> str:
    public = {k: view.get(k) for k in _PUBLIC_KEYS}
    return hashlib.sha256(json.dumps(public, sort_keys=True, default=str).encode()).hexdigest()


# Only what every viewer sees; a player's own hand, bid or bets never reach the odds.
_PUBLIC_KEYS = (
    "phase",
    "seats",
    "track",
    "cars",
    "animals",
    "owners",
    "turn",
    "card_in_play",
    "hand_sizes",
    "played",
    "cards_played",
    "last_card",
)


def _compute(view: dict[str, Any], samples: int, budget_ms: float | None, content: Content, key: str) -> Odds:
    if decided(view):
        return _won(view)
    track = Track(view["track"])
    pool = _unseen(view, content)
    rng = random.Random(int(key[:16], 16))
    wins = dict.fromkeys(COLOURS, 0)
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000
    done = 0
    while done < samples:
        for _ in range(min(CHUNK, samples - done)):
            wins[_play_out(view, track, pool, content.cards, rng)] += 1
            done += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    return Odds(win={c: wins[c] / done for c in COLOURS}, samples=done)


def _unseen(view: dict[str, Any], content: Content) -> list[str]:
    if "played" in view:
        played = set(view["played"])
    else:
        played = {view["last_card"]["id"]} if view.get("last_card") else set()
    if view.get("card_in_play"):
        played.add(view["card_in_play"]["id"])
    return [c for c in content.speed_cards if c not in played]


def _play_out(
    view: dict[str, Any],
    track: Track,
    pool: list[str],
    cards: dict[str, tuple[Line, ...]],
    rng: random.Random,
) -> str:
    """One simulated rest of the race; returns the winning car."""
    sizes: list[int] = list(view["hand_sizes"])
    deck = list(pool)
    rng.shuffle(deck)
    hands: list[list[str]] = []
    at = 0
    for size in sizes:
        hands.append(deck[at : at + size])
        at += size
    spaces: dict[str, str] = {c: view["cars"][c]["space"] or FINISH for c in COLOURS}
    owners: dict[str, int | None] = dict(view["owners"])
    blocked = {a["path"][a["at"]] for a in view.get("animals") or [] if a.get("at") is not None}
    mover = Mover(track)
    first: list[str] = []

    def move(colour: str, speed: int, seat: int) -> None:
        if spaces[colour] == FINISH:
            return
        occupied = {s for s in spaces.values() if s != FINISH} | blocked
        ways = mover.ways(spaces[colour], speed, occupied)
        if not ways:
            return
        if owners.get(colour) == seat:
            end = max(ways, key=lambda e: (1_000_000 if e == FINISH else track.row(e), e))
        else:
            end = rng.choice(sorted(ways))
        spaces[colour] = end
        if end == FINISH:
            first.append(colour)

    def play(seat: int, lines: list[tuple[str | None, int]]) -> None:
        named = {c for c, _ in lines if c is not None}
        for colour, speed in lines:
            if colour is None:
                options = [c for c in COLOURS if spaces[c] != FINISH and c not in named] or [
                    c for c in COLOURS if spaces[c] != FINISH
                ]
                if not options:
                    return
                colour = rng.choice(options)
                named.add(colour)
            move(colour, speed, seat)

    card = view.get("card_in_play")
    turn = view.get("turn") or 0
    if card:  # the rest of the card in play comes first
        turn = card["seat"]
        rest = [(card["colours"][i], card["lines"][i][1]) for i in range(card["line"], len(card["lines"]))]
        play(card["seat"], rest)
        turn = (turn + 1) % len(hands)
    elif view.get("phase") == "bet":  # the card is done; the next seat plays after the bets
        turn = (turn + 1) % len(hands)
    seats = len(hands)
    while not first and any(hands):
        for step in range(seats):
            seat = (turn + step) % seats
            if hands[seat]:
                break
        hand = hands[seat]
        chosen = hand.pop(rng.randrange(len(hand)))
        play(seat, [(None if c == WILD else c, n) for c, n in cards[chosen]])
        turn = (seat + 1) % seats
    if first:
        return first[0]
    return min(COLOURS, key=lambda c: (-track.row(spaces[c]), track.spaces[spaces[c]].lane, c))
