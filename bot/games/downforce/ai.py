"""AI players for Downforce: ``choose(view, decision, level, rng)`` picks one of ``decision.options``.

Reads only ``view`` (``game.view(seat)``: the public table plus the seat's own hand and bets).

Levels:

* ``easy``: a random legal option.
* ``normal``:

  - a bid: prices the car by its grid slot (a front car is worth more), what the seat's hand
    can do for that colour, and whether the seat still needs a car; bids the strongest card
    that stays within that price.
  - a card: tries every card in hand, steering each line its best way (its own cars and the
    cars it bet on as far as they can go, rivals' cars into the shortest way or a dead end), and
    plays the card that gains the most for the seat (rows gained by its cars, less part of what
    rivals gain).
  - a wild colour / an end space: the same steering, one line at a time.
  - a power: keeps the strongest (the lowest ``Power.keep_rank``); takes every extra move for its cars;
    reverses a card (tricky) when its last line is its own car; ignores (strategic) the leading
    rival on the card; moves (defensive) its leading car.
  - a bet: the car with the best expected payout under the betting setting, from a simple model
    of the race (cars further ahead are likelier to finish ahead; its own cars a little likelier,
    since it plays their cards).

Ties go to the first option in the engine's order, so a choice depends only on the view and rng.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bot.games.base import JSON, Action, Decision
from bot.games.downforce.cards import COLOURS, WILD
from bot.games.downforce.game import Downforce
from bot.games.downforce.movement import Mover
from bot.games.downforce.power import Effect
from bot.games.downforce.powers import POWERS
from bot.games.downforce.race import Race
from bot.games.downforce.scoring import bet_payout, prize
from bot.games.downforce.track import FINISH, Track

LEVELS = ("easy", "normal")
RIVAL_WEIGHT = 0.35  # how much a rival car's gain counts against the seat
BET_WEIGHT = 0.5  # a car the seat bet on (and does not own) counts this much for it
FINISH_BONUS = 3.0
SLOT_PRICE = (9, 5.5, 4.5, 3.5, 2.5, 1.5)  # what a car is worth bidding for, by grid slot (1 = pole)
BET_SAMPLES = 300

_tracks: dict[tuple, Track] = {}


def choose(view: dict[str, JSON], decision: Decision, level: str, rng: random.Random) -> JSON:
    """One of ``decision.options`` for the seat whose ``view`` this is."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; expected one of {', '.join(LEVELS)}")
    options = decision.options
    if not options:
        raise ValueError(f"{decision.kind!r} has no options to choose from")
    if level == "easy" or len(options) == 1:
        return rng.choice(options)
    if decision.kind == "bid":
        return _bid(view, options)
    if decision.kind == "play":
        return _play(view, options)
    if decision.kind == "wild":
        return _wild(view, options)
    if decision.kind == "move":
        return _move(view, options)
    if decision.kind == "bet":
        return _bet(view, options, rng)
    if decision.kind == "keep":
        return min(options, key=lambda name: POWERS[str(name)].keep_rank)
    if decision.kind == "power":
        return _power(view, options)
    if decision.kind == "ignore":
        return _ignore(view, options)
    if decision.kind == "defensive":
        return _defensive(view, options)
    return rng.choice(options)


def _power(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    """An extra move for its own car is always worth taking; reversing the card (tricky) only when
    the last line is one of its cars (moving it first gives it the open road)."""
    choice = view.get("choice") or {}
    power = POWERS.get(choice.get("power") or "")
    if power is not None and power.effect is Effect.REVERSE_THE_CARD:
        card = view.get("card_in_play") or {}
        last = (card.get("lines") or [[None]])[-1][0]
        return "yes" if view["owners"].get(last) == view.get("seat") else "no"
    return "yes"


def _ignore(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    """Strategic: ignore the rival car furthest ahead (none if every car on the card is its own)."""
    seat = view.get("seat")
    rivals = [c for c in view["standings"] if c in options and view["owners"][c] != seat]
    return rivals[0] if rivals else "none"


def _defensive(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    """Defensive: the car furthest ahead among its own (the race is won at the front)."""
    return next(c for c in view["standings"] if c in options)


# --- reading the view ---------------------------------------------------------------


def track_of(view: dict[str, JSON]) -> Track:
    """The view's track, built once per track graph (every view of a game carries the same track)."""
    data = view["track"]
    key = (
        data.get("name"),
        tuple(
            (s["id"], s["row"], s["lane"], tuple(s["ahead"]), repr(sorted(s.items()))) for s in data["spaces"]
        ),
        tuple(data["lines"]),
    )
    track = _tracks.get(key)
    if track is None:
        if len(_tracks) > 16:
            _tracks.clear()
        track = _tracks[key] = Track(data)
    return track


def race_of(view: dict[str, JSON]) -> Race:
    cars = view["cars"]
    finished = sorted((c for c in COLOURS if cars[c]["finished"]), key=lambda c: cars[c]["place"])
    return Race(
        track_of(view),
        {c: cars[c]["space"] for c in COLOURS},
        finished,
        list(view["crossings"]),
        [dict(a) for a in view.get("animals", [])],
    )


def weights(view: dict[str, JSON]) -> dict[str, float]:
    """How much each car's progress is worth to the seat: its own +1, its bets +0.5, rivals' -0.35."""
    seat = view["seat"]
    backed = {b["car"] for b in view.get("my_bets", [])}
    out = {}
    for colour in COLOURS:
        owner = view["owners"][colour]
        if owner == seat:
            out[colour] = 1.0
        elif colour in backed:
            out[colour] = BET_WEIGHT
        elif owner is None:
            out[colour] = 0.0
        else:
            out[colour] = -RIVAL_WEIGHT
    return out


def _progress(track: Track, space: str) -> float:
    if space == FINISH:
        return track.last_row + 1 + FINISH_BONUS
    # A little credit for room to move next time (a car boxed in is worth less than its row).
    return track.row(space) + 0.1 * len(track.ahead(space))


def _best_end(race: Race, mover: Mover, colour: str, speed: int, weight: float) -> tuple[str, float]:
    """The end the seat would pick for ``colour`` and the value of moving there."""
    ways = mover.ways(race.where(colour), speed, race.occupied())
    start = _progress(race.track, race.where(colour))
    scored = []
    for end in sorted(ways):
        gain = _progress(race.track, end) - start
        if end != FINISH:
            free = [
                s
                for s in race.track.ahead(end)
                if s == FINISH or s not in race.occupied() - {race.spaces[colour]}
            ]
            if not free:
                gain -= 1.0  # a dead end: the next move starts blocked
        scored.append((end, gain))
    if weight >= 0:
        end, gain = max(scored, key=lambda eg: eg[1])
    else:
        end, gain = min(scored, key=lambda eg: eg[1])
    return end, weight * gain


def _apply_line(race: Race, mover: Mover, colour: str, speed: int, weights_: dict[str, float]) -> float:
    if not race.racing(colour):
        return 0.0
    end, value = _best_end(race, mover, colour, speed, weights_[colour])
    ways = mover.ways(race.where(colour), speed, race.occupied())
    race.move(colour, ways[end], 0)
    return value


def _card_value(view: dict[str, JSON], lines: Sequence[Sequence[JSON]]) -> float:
    race = race_of(view)
    mover = Mover(race.track)
    w = weights(view)
    total = 0.0
    named = {c for c, _ in lines if c != WILD}
    for colour, speed in lines:
        if colour == WILD:
            free = [c for c in COLOURS if c not in named and race.racing(c)]
            if not free:
                continue
            colour = max(free, key=lambda c: w[c])
            named.add(colour)
        total += _apply_line(race, mover, colour, speed, w)
    return total


# --- decisions ------------------------------------------------------------------------


def _hand(view: dict[str, JSON]) -> dict[str, dict[str, JSON]]:
    return {card["id"]: card for card in view["hand"]}


def _bid(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    colour = view["auction"]["colour"]
    slot = view["cars"][colour]["grid_slot"]
    hand = _hand(view)
    seat = view["seat"]
    mine = sum(1 for c in COLOURS if view["owners"][c] == seat)
    strength = sum(n for card in hand.values() for c, n in card["lines"] if c == colour)
    price = SLOT_PRICE[slot - 1] + (strength - 8) / 6 - 1.5 * mine
    left = len(COLOURS) - view["auction"]["number"] + 1
    without = sum(1 for s in range(view["seats"]) if not any(view["owners"][c] == s for c in COLOURS))
    if not mine and left <= without + 1:
        price += 2  # the last chances to get a car at all
    value = {card: _value_for(hand[card], colour) for card in options}
    affordable = [card for card in options if value[card] <= price]
    if not affordable:
        return min(options, key=lambda card: (value[card], options.index(card)))
    return max(affordable, key=lambda card: (value[card], -options.index(card)))


def _value_for(card: dict[str, JSON], colour: str) -> int:
    return next((n for c, n in card["lines"] if c == colour), 0)


def _play(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    hand = _hand(view)
    scores = [_card_value(view, hand[card]["lines"]) for card in options]
    return _argmax(options, scores)


def _wild(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    card = view["card_in_play"]
    speed = card["lines"][card["line"]][1]
    mover = Mover(track_of(view))
    w = weights(view)
    scores = [_apply_line(race_of(view), mover, colour, speed, w) for colour in options]
    return _argmax(options, scores)


def _move(view: dict[str, JSON], options: Sequence[JSON]) -> JSON:
    choice = view["choice"]
    colour = choice["car"]
    race = race_of(view)
    end, _ = _best_end(race, Mover(race.track), colour, choice["speed"], weights(view)[colour])
    if end not in options:
        return options[0]
    # Two ways to that end differing for the car's owner's power (ruling (c)): for its own car
    # the one that sets it off (an extra move is always worth taking), for a rival's the other.
    reads = choice.get("reads") or {}
    wanted = view["owners"].get(colour) == view.get("seat")
    for option in options:
        read = reads.get(option)
        if str(option).split("~")[0] == end and read is not None and read["sets_off"] == wanted:
            return option
    return end


def place_odds(
    view: dict[str, JSON], rng: random.Random, samples: int = BET_SAMPLES
) -> dict[str, list[float]]:
    """For each car, the chance of finishing 1st, 2nd, 3rd (a rough model, by sampling)."""
    race = race_of(view)
    track = race.track
    seat = view.get("seat")
    fixed = list(race.finished)
    racing = [c for c in COLOURS if race.racing(c)]
    lead = max((track.row(race.where(c)) for c in racing), default=0)
    strength = {}
    for c in racing:
        gap = lead - track.row(race.where(c))
        strength[c] = math.exp(-gap / 4) * (1.3 if view["owners"][c] == seat else 1.0)
    odds = {c: [0.0, 0.0, 0.0] for c in COLOURS}
    for i, c in enumerate(fixed[:3]):
        odds[c][i] = 1.0
    if len(fixed) >= 3 or not racing:
        return odds
    for _ in range(samples):
        pool = dict(strength)
        for place in range(len(fixed), 3):
            if not pool:
                break
            pick = rng.random() * sum(pool.values())
            chosen = next(iter(pool))
            for colour, s in pool.items():
                chosen = colour
                pick -= s
                if pick <= 0:
                    break
            odds[chosen][place] += 1 / samples
            del pool[chosen]
    return odds


def _bet(view: dict[str, JSON], options: Sequence[JSON], rng: random.Random) -> JSON:
    odds = place_odds(view, rng)
    betting = view["settings"]["betting"]
    index = len(view.get("my_bets", []))
    scores = []
    for colour in options:
        position = view["cars"][colour]["position"]
        value = sum(odds[colour][p] * bet_payout(betting, index, p + 1, position) for p in range(3))
        # Backing its own car also backs its prize: a little extra reason to.
        if view["owners"][colour] == view["seat"]:
            value += 0.1 * sum(odds[colour][p] * prize(p + 1) for p in range(3))
        scores.append(value)
    return _argmax(options, scores)


def _argmax(options: Sequence[JSON], scores: Sequence[float]) -> JSON:
    best = max(range(len(options)), key=lambda i: (scores[i], -i))
    return options[best]


# --- whole games ------------------------------------------------------------------------


def ai_action(game: Downforce, levels: Sequence[str], rng: random.Random) -> Action:
    """The next action of an all-AI table (the first pending decision).

    Easy seats never read their view, so none is built for them (it keeps the simulator fast).
    """
    decision = game.pending()[0]
    seat = decision.player
    if seat is None:
        raise ValueError("every Downforce decision belongs to a seat")
    level = levels[seat]
    view = game.view(seat) if level != "easy" else {}
    return Action(seat, decision.kind, choose(view, decision, level, rng))


def play_ai_game(
    seats: int, seed: int, levels: Sequence[str], settings: dict[str, JSON] | None = None
) -> Downforce:
    """A whole game played by AI seats (``levels[s]`` for seat ``s``, round-robin if shorter)."""
    by_seat = [levels[s % len(levels)] for s in range(seats)]
    game = Downforce.new(seats, seed, settings)
    rng = ai_rng(seed)
    while not game.is_over:
        game.apply(ai_action(game, by_seat, rng))
    return game


def ai_rng(seed: int) -> random.Random:
    """The AI players' generator for the game with ``seed`` (kept apart from the game's own)."""
    return random.Random(f"downforce-ai:{seed}")
