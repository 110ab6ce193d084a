"""Try Hot Streak editions quickly: how their races swing, without the whole match around them.

``python -m bot.games.hotstreak.tune [--races N] [--players P] [--seed S] [CANDIDATE.json ...]``

A candidate is a JSON object overriding parts of the shipped edition: ``"track"`` (as in
``track.json``), ``"cards"`` (a list of ``{"card", "count"}`` as in ``cards.json``), ``"bordered"``
(the four bordered cards), ``"face_up"`` (player count -> cards). With no file, the shipped edition is tried.

The cards travel as in a game of ``easy`` (random) players: setup deals from the shuffled box,
each race's deck is the face-up cards plus one random card from each hand, and the race's
cards are then dealt one to each seat and the rest laid face up for the next race. Every
race is played with the engine's own ``Race`` and ``RaceDeck`` (``ai_outlook.play_race``'s
order of burning, flipping and folding), so only the betting is left out: that is what makes
it fast enough to sweep. ``python -m bot sim hotstreak`` then confirms a choice with whole games.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bot.games.hotstreak.ai_outlook import _card
from bot.games.hotstreak.cards import MASCOTS, parse_card
from bot.games.hotstreak.content import Content, default_content
from bot.games.hotstreak.deck import RaceDeck
from bot.games.hotstreak.game import RACES, hand_size, submit_count
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.swings import RaceWatch, Swings
from bot.games.hotstreak.track import Track, track_problem


def candidate(overrides: dict[str, Any], base: Content | None = None) -> Content:
    """The shipped edition with ``overrides`` applied (checked like the content files)."""
    content = base or default_content()
    changes: dict[str, Any] = {}
    if "track" in overrides:
        problem = track_problem(overrides["track"])
        if problem:
            raise ValueError(f"track: {problem[0]}: {problem[1]}")
        changes["track"] = Track.from_json(overrides["track"])
    if "cards" in overrides:
        cards: list[str] = []
        for entry in overrides["cards"]:
            cards += [parse_card(entry["card"]).notation] * entry.get("count", 1)
        changes["cards"] = tuple(cards)
    if "bordered" in overrides:
        changes["bordered"] = tuple(parse_card(text).notation for text in overrides["bordered"])
    if "face_up" in overrides:
        changes["face_up"] = {int(k): int(v) for k, v in overrides["face_up"].items()}
    return dataclasses.replace(content, **changes)


def watched_race(track: Track, cards: list[str], rng: random.Random, swings: Swings) -> Race:
    """``ai_outlook.play_race``, watched step by step."""
    race = Race.start(track)
    watch = RaceWatch(race.mascots_view(), race.bar)
    deck = RaceDeck.shuffled(cards, rng)
    deck.burn()
    while not race.ended:
        if not deck.pile:
            race.fold()
            watch.step(race.mascots_view(), race.bar, flip=False)
            if race.ended:
                break
            deck.reshuffle(rng)
            deck.burn()
        race.resolve(_card(deck.flip()))
        watch.step(race.mascots_view(), race.bar, flip=True)
    swings.add(watch.finish())
    return race


def try_edition(content: Content, races: int, players: int = 4, seed: int = 1) -> dict[str, Any]:
    """Play games of random players until ``races`` races are run; the figures as one dict."""
    rng = random.Random(seed)
    swings = Swings()
    wins: Counter[str] = Counter()
    places: dict[str, Counter[int | None]] = {m: Counter() for m in MASCOTS}  # None: unplaced
    folds = outs = 0
    played = 0
    while played < races:
        box = list(content.cards)
        rng.shuffle(box)
        count = content.face_up[players]
        face_up, box = list(content.bordered) + box[:count], box[count:]
        size = hand_size(players)
        hands = [box[i * size : (i + 1) * size] for i in range(players)]
        for _ in range(RACES):
            deck = list(face_up)
            for hand in hands:
                for card in rng.sample(hand, submit_count(players)):
                    hand.remove(card)
                    deck.append(card)
            race = watched_race(content.track, deck, rng, swings)
            played += 1
            for m in MASCOTS:
                places[m][race.place_of(m)] += 1
                wins[m] += race.place_of(m) == 1
            folds += race.tally["folds"] >= 1
            outs += sum(r.status == "out" for r in race.runners.values())
            rng.shuffle(deck)
            for hand in hands:
                hand.append(deck.pop())
            face_up = deck
    out: dict[str, Any] = swings.summary()
    out.update(
        races=played,
        mean_flips=round(swings.flips / played, 2),
        fold_share=round(folds / played, 3),
        outs_per_race=round(outs / played, 2),
        mascot_wins={m: round(wins[m] / played, 3) for m in MASCOTS},
        no_winner=round(1 - sum(wins.values()) / played, 3),
        place_shares={p: round(sum(places[m][p] for m in MASCOTS) / (4 * played), 3) for p in range(1, 5)},
    )
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.games.hotstreak.tune")
    parser.add_argument("candidates", nargs="*", help="JSON files overriding parts of the edition")
    parser.add_argument("--races", type=int, default=6000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for path in args.candidates or [None]:
        overrides = json.loads(Path(path).read_text()) if path else {}
        try:
            content = candidate(overrides)
        except (ValueError, KeyError) as err:
            print(f"{path}: {err}", file=sys.stderr)
            return 2
        print(
            json.dumps(
                {"candidate": path or "shipped", **try_edition(content, args.races, args.players, args.seed)}
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
