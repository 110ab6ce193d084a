"""What one seat can expect from the coming race: Monte-Carlo races built from its own view only.

A seat knows the edition's 53 cards (the box list is public), the face-up cards, its own
hand and its own submission. Every other card is unseen: the other seats' submissions
are drawn from the unseen cards (the edition minus what the seat knows), and the race
deck is shuffled. Each imagined race follows the same order of burning, flipping and folding
as ``HotStreak._flip``, with the same random draws as the engine's ``RaceDeck``; it is played
on the lean copy of the race rules the live odds use (``odds_sim``, checked card for card
against the engine's ``Race``), about eight times faster than the engine's ``Race``: at 200 games
the AI took a quarter of the machine's CPU. ``play_race`` (the engine's own race) stays the
reference the lean one is tested against.

Every seat decision (bets, submissions, doubles) comes before a race's first flip, so an
imagined race always starts from the start line of the view's track.

The result for one own-submission choice is an ``Outlook``: how often each mascot is paid
each place, and how often the side bet's condition holds. Every bet's expected value is
linear in those counts, so one set of races prices every ticket and slip at once.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from bot.games.base import JSON
from bot.games.hotstreak.cards import MASCOTS, Card, parse_card
from bot.games.hotstreak.content import Content, default_content
from bot.games.hotstreak.deck import BURN, RaceDeck
from bot.games.hotstreak.odds_sim import LeanRace, encode, play, side_bet_holds
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.track import Track

PLACES = len(MASCOTS)


@cache
def _card(notation: str) -> Card:
    return parse_card(notation)


@dataclass
class Outlook:
    """Tallies of imagined races: ``places[m][p - 1]`` races where mascot ``m`` was paid place ``p``."""

    races: int = 0
    places: dict[str, list[int]] = field(default_factory=lambda: {m: [0] * PLACES for m in MASCOTS})
    happened: int = 0  # races where the side bet's condition held

    def add(self, race: LeanRace, condition: dict[str, JSON] | None) -> None:
        """Count an ended imagined race (``play_lean``): each mascot's paid place, and the side bet."""
        self.races += 1
        for mascot, place in zip(MASCOTS, race.paid, strict=True):
            if place:
                self.places[mascot][place - 1] += 1
        if condition is not None and side_bet_holds(condition, MASCOTS, race.status, race.paid, race.tally):
            self.happened += 1

    def bet_value(self, bet: dict[str, JSON]) -> float:
        """Expected payout of one bet (an engine bet dict, or the same shape for an option), undoubled."""
        if not self.races:
            return 0.0
        values = bet["values"]
        if bet["kind"] == "ticket":
            counts = self.places[bet["mascot"]]
            return sum(c * v for c, v in zip(counts, values, strict=False)) / self.races
        p_yes = self.happened / self.races
        p_right = p_yes if bet["answer"] == "yes" else 1 - p_yes
        return p_right * values[0] + (1 - p_right) * values[1]


def edition_cards(content: Content | None = None) -> list[str]:
    content = content or default_content()
    return list(content.bordered) + list(content.cards)


def unseen_cards(view: dict[str, JSON], content: Content | None = None) -> list[str]:
    """The edition minus every card this seat has seen (face up, in hand, submitted by itself).

    Ruling: the seat does not try to remember earlier races' flips or who was dealt what;
    the unseen cards are simply everything not in front of it now.
    """
    left = Counter(edition_cards(content))
    for card in [*view["face_up"], *view.get("hand", []), *(view.get("my_submission") or [])]:
        if left[card] > 0:
            left[card] -= 1
    return sorted(left.elements())


def others_submitting(view: dict[str, JSON]) -> int:
    """How many cards the other seats add to this race's deck (1 each, 2 each with 2 players)."""
    per_seat = 2 if view["seats"] == 2 else 1
    return per_seat * (view["seats"] - 1)


def play_race(track: Track, cards: list[str], rng: random.Random) -> Race:
    """Shuffle ``cards`` into a race deck and flip until the race ends, as the table would.

    Mirrors ``HotStreak._flip``: burn before the first flip; on an empty pile fold the bar,
    and if the race goes on, reshuffle every race card, burn again and flip.
    """
    race = Race.start(track)
    deck = RaceDeck.shuffled(cards, rng)
    deck.burn()
    while not race.ended:
        if not deck.pile:
            race.fold()
            if race.ended:
                break
            deck.reshuffle(rng)
            deck.burn()
        race.resolve(_card(deck.flip()))
    return race


def lean_start(track: Track) -> LeanRace:
    """A lean race at the start line of ``track`` (``play_lean`` copies it for each imagined race)."""
    return LeanRace.from_race_json(Race.start(track).to_json(), MASCOTS)


def play_lean(start: LeanRace, cards: Sequence[str], rng: random.Random) -> LeanRace:
    """``play_race`` on the lean rules: the same race for the same ``rng`` state, card for card.

    The draws are ``RaceDeck``'s: one shuffle of ``cards``, a burn of ``BURN`` (never the last card),
    and on an empty pile (after the fold) a shuffle of the race's cards in the order the deck gathers
    them (those flipped, then those burned), then the burn again."""
    race = start.copy()
    order = [_lean_card(c) for c in cards]
    rng.shuffle(order)
    burn = max(0, min(BURN, len(order) - 1))

    def refill() -> list[tuple[int, int, int]]:
        nonlocal order
        order = order[burn:] + order[:burn]  # RaceDeck.reshuffle: flipped, then burned
        rng.shuffle(order)
        return order[burn:]

    play(race, order[burn:], refill)
    return race


@cache
def _lean_card(notation: str) -> tuple[int, int, int]:
    return encode(notation, MASCOTS)


def imagine(
    view: dict[str, JSON],
    choices: Sequence[Sequence[str]],
    races_each: int,
    rng: random.Random,
    content: Content | None = None,
) -> list[Outlook]:
    """One ``Outlook`` per own-submission choice (``[]`` if the submission is already made).

    Common random numbers: imagined race ``i`` uses the same other seats' cards and the same
    shuffle seed for every choice, so choices are compared on the same luck.
    """
    start = lean_start(Track.from_json(view["track"]))
    condition = view["side_bet"]["condition"] if view.get("side_bet") else None
    mine = list(view.get("my_submission") or [])
    base = list(view["face_up"]) + mine
    pool = unseen_cards(view, content)
    count = min(others_submitting(view), len(pool))
    outlooks = [Outlook() for _ in choices]
    for _ in range(races_each):
        others = rng.sample(pool, count)
        seed = rng.getrandbits(64)
        for outlook, choice in zip(outlooks, choices, strict=True):
            race = play_lean(start, base + list(choice) + others, random.Random(seed))
            outlook.add(race, condition)
    return outlooks
