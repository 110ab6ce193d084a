"""Scenario runner: put cars on a track, apply speed cards, print where everything ends (JSON).

``python -m bot.games.downforce.scenario FILE.json`` (``-`` reads stdin). A tool for bug reports
and tests: each movement ruling can be shown as a small file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.games.base import JSON, GameError
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.content import default_content
from bot.games.downforce.movement import Mover
from bot.games.downforce.race import Race
from bot.games.downforce.track import FINISH, Track, track_problem

SCHEMA = """\
Input (one JSON object):
  {"track": {"spaces": [{"id": "a1", "row": 0, "lane": 0, "ahead": ["b1", "b2"]}, ...],
             "lines": [8, 16, 24]},
   "cars": {"red": "a1", "blue": "a2", ...},
   "cards": [[["red", 4], ["blue", 2]], ...],
   "choose": [0, 1, ...]}

  track   the spaces: id, row (steps ahead always go to a later row), lane (0 = left), ahead (the
          spaces one step away, straight or diagonal; "FINISH" there means that step crosses the
          finish); lines: the rows of the yellow betting lines, in order. Optional space flags
          (carried, not yet used by the base game): straight, shape (curved|rectangular), rumble,
          tight, crack, ramp, loop, loop_entry, loop_exit. "track" may also name a shipped track
          ("river-station", "marina-bay").
  cars    colour -> start space (black, blue, green, yellow, orange, red); a car not listed is
          not on the track.
  cards   each card a list of lines [colour, speed], applied top to bottom (wilds already given
          their colour).
  choose  where a move can end in several spaces, the next number picks one of its sorted
          options (0 = the first); none left: the first.

A move ends at full speed, at FINISH, or early in a space with no empty space and no finish ahead
(a dead end); a car must keep moving while it can. Options are those end spaces, sorted by id as
plain strings; steps is the length of the way taken (to FINISH: the fewest steps). A blocked car
stays (steps 0, options its own space). A line naming a car that has finished or is not on the
track does nothing and adds no move. A car crosses line r when it moves from a row below r to
row r or beyond, or to FINISH.

Output:
  {"cars": {"red": {"space": "c2", "finished": false, "place": null}, ...},
   "lines": [{"line": 8, "car": "red", "card": 0}, ...],
   "moves": [{"card": 0, "car": "red", "steps": 3, "options": ["c1", "c2"], "to": "c2"}, ...]}
  lines: each line's first crossing (a line nobody crossed is absent); a finished car's space is
  "FINISH". Bad input: exit code 2 and one line on stderr naming what is wrong.
"""


class ScenarioError(GameError, ValueError):
    """A scenario file that cannot be played."""


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def build_track(data: object) -> Track:
    if isinstance(data, str):
        tracks = default_content().tracks
        if data not in tracks:
            raise ScenarioError(f"track: unknown track {data!r}; shipped: {', '.join(tracks)}")
        return tracks[data]
    problem = track_problem(data, line_count=None)
    if problem:
        raise ScenarioError(f"track.{problem[0]}: {problem[1]}")
    return Track(data)  # type: ignore[arg-type]


def run_scenario(data: dict[str, JSON]) -> dict[str, JSON]:
    """Apply the scenario's cards; return the printed result."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    unknown = set(data) - {"track", "cars", "cards", "choose"}
    if unknown:
        raise ScenarioError(f"unknown scenario key {sorted(unknown)[0]!r}")
    if "track" not in data:
        raise ScenarioError("track is missing")
    track = build_track(data["track"])
    cars = data.get("cars", {})
    if not isinstance(cars, dict):
        raise ScenarioError("cars must be an object: colour -> space id")
    spaces: dict[str, str | None] = dict.fromkeys(COLOURS)
    for colour, space in cars.items():
        if colour not in COLOURS:
            raise ScenarioError(f"cars.{colour}: unknown colour; expected one of {', '.join(COLOURS)}")
        if space not in track.spaces:
            raise ScenarioError(f"cars.{colour}: unknown space {space!r}")
        if space in spaces.values():
            raise ScenarioError(f"cars.{colour}: space {space!r} already holds another car")
        spaces[colour] = space
    cards = data.get("cards", [])
    if not isinstance(cards, list):
        raise ScenarioError("cards must be a list of cards, each a list of [colour, speed] lines")
    for i, card in enumerate(cards):
        if not isinstance(card, list) or not card:
            raise ScenarioError(f"cards[{i}]: must be a non-empty list of [colour, speed] lines")
        for j, line in enumerate(card):
            if (
                not isinstance(line, list)
                or len(line) != 2
                or line[0] not in COLOURS
                or not _whole(line[1])
                or not 0 <= line[1] <= 99
            ):
                raise ScenarioError(
                    f"cards[{i}][{j}]: must be [colour, speed] with a colour and a speed 0..99"
                )
    choose = data.get("choose", [])
    if not isinstance(choose, list) or not all(_whole(c) and c >= 0 for c in choose):
        raise ScenarioError("choose must be a list of whole numbers >= 0")
    race = Race(track, spaces)
    mover = Mover(track)
    picks = list(choose)
    moves: list[dict[str, JSON]] = []
    for number, card in enumerate(cards):
        for colour, speed in card:
            if not race.racing(colour):
                continue
            ways = mover.ways(race.spaces[colour], speed, race.occupied())
            options = sorted(ways)
            pick = 0
            if len(options) > 1 and picks:
                pick = picks.pop(0)
                if pick >= len(options):
                    raise ScenarioError(
                        f"choose: {pick} is out of range for the {colour} car's {len(options)} options "
                        f"in card {number}"
                    )
            end = options[pick]
            moved = race.move(colour, ways[end], number)
            moves.append(
                {"card": number, "car": colour, "steps": moved["steps"], "options": options, "to": end}
            )
    out_cars = {
        c: {"space": race.spaces[c], "finished": race.spaces[c] == FINISH, "place": race.place_of(c)}
        for c in COLOURS
        if race.spaces[c] is not None
    }
    lines = sorted(race.crossings, key=lambda c: c["line"])
    return {"cars": out_cars, "lines": lines, "moves": moves}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.games.downforce.scenario",
        description="Apply Downforce speed cards to cars on a track and print the result as JSON.",
        epilog=SCHEMA,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the scenario JSON file, or - for stdin")
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        result = run_scenario(json.loads(text))
    except OSError as err:
        print(f"error: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as err:
        print(f"error: {args.file} is not valid JSON: {err}", file=sys.stderr)
        return 2
    except ScenarioError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
