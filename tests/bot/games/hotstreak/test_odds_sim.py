"""The lean race simulator behind the live odds plays exactly the engine's race rules."""

from __future__ import annotations

import random

from bot.games.hotstreak.cards import MASCOTS, parse_card
from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.odds_sim import STATUS_NAMES, LeanRace, encode, play
from bot.games.hotstreak.race import TALLY_KEYS, Race
from bot.games.hotstreak.track import Track


def _random_track(rng: random.Random) -> Track:
    lanes = rng.randint(2, 5)
    length = rng.randint(5, 16)
    stars = tuple(tuple(sorted(rng.sample(range(1, length), rng.randint(0, 3)))) for _ in range(lanes))
    lines = tuple(sorted(rng.sample(range(1, length), rng.randint(0, 3))))
    return Track(lanes=lanes, length=length, stars=stars, white_lines=lines)


def _engine(track: Track, chunks: list[list[str]]) -> Race:
    """The engine's race, played as the game plays it: a dry pile folds the bar, then the next pile."""
    race = Race.start(track)
    for n, chunk in enumerate(chunks):
        if n:
            race.fold()
            if race.ended:
                return race
        for card in chunk:
            race.resolve(parse_card(card))
            if race.ended:
                return race
    while not race.ended:
        race.fold()
    return race


def _lean(track: Track, chunks: list[list[str]]) -> LeanRace:
    race = LeanRace.from_race_json(Race.start(track).to_json(), MASCOTS)
    encoded = [[encode(c, MASCOTS) for c in chunk] for chunk in chunks]
    rest = iter(encoded[1:])
    play(race, encoded[0], lambda: next(rest, ()))
    return race


def _same(engine: Race, lean: LeanRace) -> None:
    for i, m in enumerate(MASCOTS):
        r = engine.runners[m]
        assert (lean.lane[i], lean.pos[i], lean.fallen[i], STATUS_NAMES[lean.status[i]]) == (
            r.lane,
            r.pos,
            r.fallen,
            r.status,
        ), m
        assert lean.face[i] == (1 if r.facing == "forward" else -1), m
        assert lean.paid[i] == engine.podium.paid[m], m
    assert [MASCOTS[s] for s in lean.slots] == engine.podium.slots
    assert lean.bar == engine.bar
    assert lean.tally == [engine.tally[k] for k in TALLY_KEYS]


def test_lean_race_matches_the_engine_on_the_shipped_track() -> None:
    content = default_content()
    cards = list(content.bordered + content.cards)
    rng = random.Random(1)
    for _ in range(3000):
        chunks = [rng.sample(cards, rng.randint(1, 20)) for _ in range(rng.randint(1, 5))]
        _same(_engine(content.track, chunks), _lean(content.track, chunks))


def test_lean_race_matches_the_engine_on_random_tracks_and_cards() -> None:
    rng = random.Random(2)
    kinds = ["+1", "+2", "+3", "+5", "-1", "-2", "star", "fall", "turn", "swerve-left 1", "swerve-right 2"]
    kinds += ["recover 2", "recover 1", "swerve-left 3"]
    for _ in range(3000):
        track = _random_track(rng)
        pool = [f"{m} {k}" for m in MASCOTS for k in kinds] + ["all +2", "all -1", "all +1"]
        chunks = [[rng.choice(pool) for _ in range(rng.randint(1, 25))] for _ in range(rng.randint(1, 4))]
        try:
            engine = _engine(track, chunks)
        except (IndexError, ValueError):
            continue  # a track too narrow for four mascots is not a race the engine can start
        _same(engine, _lean(track, chunks))
