"""The golden corpus: seeded random scenarios on every shipped track, run through the scenario runner.

``python -m tests.bot.games.downforce.golden_corpus`` wrote ``golden/<track>.json`` (each entry a
scenario and the runner's output) from the code *before* issue 27's three rule fixes; never
rewrite those. ``python -m tests.bot.games.downforce.golden_corpus --changes`` writes
``golden/changes.json``: each scenario whose output differs under today's rules, the one rule that
explains it (the output under the old rules with only that rule switched on is today's output),
and today's output. ``test_golden_corpus.py`` checks both (see ``golden/EXPLAINED.md``).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from bot.games.downforce.cards import COLOURS
from bot.games.downforce.content import default_content
from bot.games.downforce.powers import ALL as ALL_POWERS
from bot.games.downforce.race import Race, start_animals

HERE = Path(__file__).parent / "golden"
PER_TRACK = 200


def scenario(track_name: str, seed: int) -> dict:
    """One seeded scenario: 2-6 cars spread over the track, 1-4 cards, maybe owners and powers."""
    rng = random.Random(f"{track_name}:{seed}")
    track = default_content().tracks[track_name]
    taken = set(Race(track, {}, animals=start_animals(track)).animal_spaces())
    free = sorted(s.id for s in track.spaces.values() if not s.flags.get("crack") and s.id not in taken)
    colours = rng.sample(list(COLOURS), rng.randint(2, 6))
    # cars bunched in a window of rows, so they meet each other and the track's features
    start_row = rng.randint(0, max(0, track.last_row - 10))
    window = [s for s in free if start_row <= track.spaces[s].row <= start_row + 6] or free
    places = rng.sample(window, min(len(colours), len(window)))
    cars = dict(zip(colours, places, strict=False))
    cards = []
    for _ in range(rng.randint(1, 4)):
        lines = [[c, rng.randint(0, 5)] for c in rng.sample(list(cars), rng.randint(1, min(3, len(cars))))]
        cards.append(lines)
    data: dict = {"track": track_name, "cars": cars, "cards": cards}
    data["choose"] = [rng.randint(0, 1) for _ in range(rng.randint(0, 6))]
    if rng.random() < 0.6:
        seats = rng.randint(1, 3)
        data["owners"] = {c: rng.randrange(seats) for c in cars if rng.random() < 0.7}
        data["powers"] = {str(s): rng.choice(list(ALL_POWERS)) for s in range(seats) if rng.random() < 0.8}
        data["player"] = [rng.randrange(seats) for _ in cards]
        data["answers"] = [rng.choice(["yes", "no"]) for _ in range(rng.randint(0, 4))]
    return data


def corpus(track_name: str) -> list[dict]:
    from bot.games.downforce.scenario import ScenarioError, run_scenario

    out = []
    for seed in range(PER_TRACK):
        data = scenario(track_name, seed)
        try:
            result = run_scenario(json.loads(json.dumps(data)))
        except ScenarioError as err:  # e.g. a choose number out of range: kept, the error is golden too
            result = {"error": str(err)}
        out.append({"seed": seed, "scenario": data, "result": result})
    return out


RULES = ("crack", "loop", "animals")  # issue 27's three rules, in its order


@contextmanager
def only(rule: str | None) -> Iterator[None]:
    """Games under rules version 1 with only ``rule`` of issue 27 switched on (None: none)."""
    from bot.games.downforce.game import Downforce

    real = Downforce.__init__

    def init(self, state, rng) -> None:
        real(self, state, rng)
        self.mover.by_way = rule == "crack"
        self.mover.loop_shortcut = rule != "loop"
        self.whole_turn = rule == "animals"

    with mock.patch.object(Downforce, "__init__", init):
        yield


def run(data: dict, rules: int) -> dict:
    from bot.games.downforce.scenario import ScenarioError, run_scenario

    try:
        result = run_scenario(json.loads(json.dumps({**data, "rules": rules})))
    except ScenarioError as err:
        result = {"error": str(err)}
    return json.loads(json.dumps(result))


def changes() -> dict[str, dict[str, dict]]:
    """Per track, per seed: the scenarios whose output differs today, with the rule that explains it."""
    out: dict[str, dict[str, dict]] = {}
    for name in default_content().tracks:
        entries = json.loads((HERE / f"{name}.json").read_text())
        out[name] = {}
        for entry in entries:
            now = run(entry["scenario"], 2)
            if now == entry["result"]:
                continue
            rules = []
            for rule in RULES:
                with only(rule):
                    if run(entry["scenario"], 1) == now:
                        rules.append(rule)
            out[name][str(entry["seed"])] = {"rule": rules[0] if len(rules) == 1 else rules, "result": now}
    return out


def main() -> int:
    if sys.argv[1:] == ["--changes"]:
        (HERE / "changes.json").write_text(json.dumps(changes(), indent=1, sort_keys=True) + "\n")
        return 0
    HERE.mkdir(exist_ok=True)
    for name in default_content().tracks:
        (HERE / f"{name}.json").write_text(json.dumps(corpus(name), indent=None, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
