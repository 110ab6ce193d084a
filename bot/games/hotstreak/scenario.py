"""Scenario runner: play a list of race cards on a mat and print where the mascots end up.

``python -m bot.games.hotstreak.scenario FILE.json`` (``-`` reads stdin). The file is::

    {"track": {"lanes": 4, "length": 9, "stars": [[3], [], [], []], "white_lines": [4]},
     "mascots": {"gobbler": {"lane": 0, "pos": 3, "facing": "back", "fallen": true}},
     "bar": 0,
     "cards": ["gobbler +3", "all +2", "dry"]}

``track`` (any of its keys) overrides the shipped track; ``mascots`` overrides any of
lane/pos/facing/fallen of the default start (lanes 0..3 in the order gobbler, hurley,
dangle, mum, space 0, facing forward, standing); ``bar`` (our addition) starts the
yellow bar elsewhere. Cards are flipped in order with no burns; ``dry`` is the draw pile
running out (the bar folds). Play stops when the race ends. Output::

    {"mascots": {"gobbler": {"lane", "pos", "facing", "fallen", "status", "place"}, ...},
     "ended": false, "bar": 0, "podium": [mascot or null, ...]}

Bad input prints one line on stderr and exits with code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bot.games.base import JSON, GameError
from bot.games.hotstreak.cards import MASCOTS, Card, CardError, parse_card
from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.race import Race, Runner
from bot.games.hotstreak.track import Track, track_problem


class ScenarioError(GameError, ValueError):
    """A scenario file that cannot be played."""


def build_race(data: dict[str, JSON]) -> Race:
    """The race a scenario starts from (shipped track and default start, with its overrides)."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    unknown = set(data) - {"track", "mascots", "cards", "bar"}
    if unknown:
        raise ScenarioError(f"unknown scenario key {sorted(unknown)[0]!r}")
    track_data = default_content().track.to_json()
    override = data.get("track", {})
    if not isinstance(override, dict):
        raise ScenarioError("track must be an object")
    track_data.update(override)
    problem = track_problem(track_data)
    if problem:
        raise ScenarioError(f"track.{problem[0]} {problem[1]}")
    track = Track.from_json(track_data)
    race = Race.start(track)
    bar = data.get("bar", 0)
    if not isinstance(bar, int) or isinstance(bar, bool) or not 0 <= bar <= track.length:
        raise ScenarioError(f"bar must be a whole number from 0 to {track.length}")
    race.bar = bar
    mascots = data.get("mascots", {})
    if not isinstance(mascots, dict):
        raise ScenarioError("mascots must be an object")
    for name, fields in mascots.items():
        if name not in MASCOTS or not isinstance(fields, dict):
            raise ScenarioError(
                f"mascots.{name}: must be one of {', '.join(MASCOTS)} with an object of fields"
            )
        extra = set(fields) - {"lane", "pos", "facing", "fallen"}
        if extra:
            raise ScenarioError(
                f"mascots.{name}.{sorted(extra)[0]}: not a start field (lane, pos, facing, fallen)"
            )
        runner = race.runners[name]
        merged = Runner(**{**runner.__dict__, **fields})
        if not _whole(merged.lane) or not 0 <= merged.lane < track.lanes:
            raise ScenarioError(f"mascots.{name}.lane must be from 0 to {track.lanes - 1}")
        if not _whole(merged.pos) or not bar <= merged.pos < track.length:
            raise ScenarioError(f"mascots.{name}.pos must be from {bar} to {track.length - 1}")
        if merged.facing not in ("forward", "back"):
            raise ScenarioError(f"mascots.{name}.facing must be forward or back")
        if not isinstance(merged.fallen, bool):
            raise ScenarioError(f"mascots.{name}.fallen must be true or false")
        race.runners[name] = merged
    for name, runner in race.runners.items():
        if runner.lane >= track.lanes:
            raise ScenarioError(f"mascots.{name}.lane {runner.lane} is off a {track.lanes}-lane track")
    return race


def run_scenario(data: dict[str, JSON]) -> dict[str, JSON]:
    """Play the scenario's cards; return the printed result."""
    race = build_race(data)
    cards = data.get("cards", [])
    if not isinstance(cards, list):
        raise ScenarioError("cards must be a list of card notations")
    parsed: list[Card | None] = []  # None: a dry card (the race folds)
    for i, text in enumerate(cards):
        if text == "dry":
            parsed.append(None)
            continue
        try:
            parsed.append(parse_card(text))
        except CardError as err:
            raise ScenarioError(f"cards[{i}]: {err}") from None
    for card in parsed:
        if race.ended:
            break
        if card is None:
            race.fold()
        else:
            race.resolve(card)
    return {"mascots": race.mascots_view(), "ended": race.ended, "bar": race.bar, "podium": race.podium.slots}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m bot.games.hotstreak.scenario FILE.json", file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if args[0] == "-" else Path(args[0]).read_text(encoding="utf-8")
        data = json.loads(text)
        result = run_scenario(data)
    except OSError as err:
        print(f"error: cannot read {args[0]}: {err.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as err:
        print(f"error: {args[0]} is not valid JSON: {err}", file=sys.stderr)
        return 2
    except ScenarioError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
