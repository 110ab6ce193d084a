"""Scenario runner: put cars on a track, apply speed cards, print where everything ends (JSON).

``python -m bot.games.downforce.scenario FILE.json`` (``-`` reads stdin). A tool for bug reports
and tests: each movement ruling can be shown as a small file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TypeGuard

from bot.games.base import JSON, Action, Decision, GameError
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.content import default_content
from bot.games.downforce.game import Downforce
from bot.games.downforce.movement import RULES
from bot.games.downforce.powers import ALL as ALL_POWERS
from bot.games.downforce.race import Race, start_animals
from bot.games.downforce.track import FINISH, Track, track_problem
from bot.games.rng import GameRng

SCHEMA = """\
Input (one JSON object):
  {"track": {"spaces": [{"id": "a1", "row": 0, "lane": 0, "ahead": ["b1", "b2"]}, ...],
             "lines": [8, 16, 24], "animals": [{"kind": "elephant", "path": ["c1", "d1"], "at": 0}]},
   "cars": {"red": "a1", "blue": "a2", ...},
   "cards": [[["red", 4], ["blue", 2]], "green 3, red 1", ...],
   "choose": [0, 1, ...],
   "owners": {"red": 0, "blue": 1}, "powers": {"0": "aggressive"}, "player": 0,
   "answers": ["yes", "no", ...], "ways": ["yes", ...], "rules": 2}

  track   the spaces: id, row (steps ahead always go to a later row), lane (0 = left), ahead (the
          spaces one step away, straight or diagonal; "FINISH" there means that step crosses the
          finish); lines: the rows of the yellow betting lines, in order. "track" may also name a
          shipped track (river-station, marina-bay, crosstown-speedway, switchback-pass,
          aloha-sands, savanna-stretch). Optional keys on a space:
            straight    the id of the space directly ahead (one of ahead)
            shape       "curved" or "rectangular" (determined: only rectangular spaces)
            rumble      true: the space lies beside a rumble strip (tough)
            tight       true: a one-car space (reckless)
            crack       true: a car may pass it but never end there; it falls back along its
                        path to the last regular space it passed, else stays where it began
            ramp        {"speed": 5, "to": "id"}: a car that entered this space with a line of
                        speed >= 5 and movement left may jump to the empty landing "to" (one
                        space of movement); the jump is one of the move's ways (see choose)
            loop        the name of the crossover loop the space belongs to; loop_entry /
                        loop_exit (true) mark its ends: a car in a loop stays in it until its
                        exit, and enters it only at an entry
          "animals" (optional): each {"kind": antelope|elephant|python, "path": [ids in order],
          "at": index}: it blocks its space; at the end of a card during which a car passed it
          (from a row before it to one beyond, over all the car's moves of the card), it moves to
          the next empty space of its path, or leaves the board from its last one.
  cars    colour -> start space (black, blue, green, yellow, orange, red); a car not listed is
          not on the track.
  cards   each card a list of lines [colour, speed], applied top to bottom (wilds already given
          their colour), or the same in card notation: "red 4, blue 2".
  choose  where a move can end in several spaces, the next number picks one of its sorted
          options (0 = the first); none left: the first. Also picks, for strategic, the colour
          to ignore (options: the card's colours then "none") and, for defensive, the car.
  owners  colour -> seat (0, 1, ...); cars not listed have no owner (and no power).
  powers  seat (as a string) -> the power that seat kept: aggressive, determined, strategic,
          tricky, unpredictable, cunning, ambitious, experienced, tough, daring, defensive,
          reckless.
  player  the seat on turn for every card, or a list with one seat per card (default 0).
  answers the yes/no answers ("yes"/"no" or true/false) to optional powers, in the order they
          are asked; none left: no.
  ways    (optional) a list of "yes"/"no" (or true/false), rules 2 only: when the end a move
          picks (by choose, or its only end) can be reached by ways that differ for the car
          owner's Determined or Reckless (one way sets the power off, another does not; ruling
          (c)), the next entry says whether to take the way that sets it off ("yes") or not.
          None left, or no key: the shortest way to that end, as ever. choose and the output's
          options count end spaces only, so scenarios without ways play exactly as before.
  rules   (optional) the rules version, 1 or 2 (default 2, today's). 1 is how games stored
          before issue 27 still play: a crack falls back along one shortest way to it only, a
          loop's entry may step straight to its exit where the track links them, and an animal
          moves only when one single move passed it. 2: each way to a crack falls back along
          itself (two ways can give two options), no step goes from a loop's entry straight to
          its exit (power or not), and an animal moves when a car passed it over the whole
          turn (all the lines of the card and every power's move in it together).

What is checked (bad input: exit code 2): the track's ids are unique and not FINISH; every step
in ahead, every ramp's landing and every animal path must go forward (each space on a later row
than the one before); straight is one of ahead; some space has FINISH ahead; lines are rows in order
before the finish; an animal's kind is antelope, elephant or python and its "at" an index into its
path; no car starts on a crack, on an animal or on another car; colours, speeds (0..99), seats
(0..5), powers and choices are known and in range.

Defensive: when none of the seat's cars took a step during its turn and several still race, the
"defensive" choice lists them in colour order (black, blue, green, yellow, orange, red); choose
picks among them like an end space (with one, it moves without asking). Its 3-space move comes
after the card's last line and its powers.

A move ends at full speed, at FINISH, or early in a space with no empty space and no finish ahead
(a dead end); a car must keep moving while it can. Options are those end spaces, sorted by id as
plain strings; steps is the length of the way taken (to FINISH: the fewest steps). A blocked car
stays (steps 0, options its own space). A line naming a car that has finished or is not on the
track does nothing and adds no move. A car crosses line r when it moves from a row below r to
row r or beyond, or to FINISH.

Output:
  {"cars": {"red": {"space": "c2", "finished": false, "place": null}, ...},
   "lines": [{"line": 8, "car": "red", "card": 0}, ...],
   "moves": [{"card": 0, "car": "red", "steps": 3, "options": ["c1", "c2"], "to": "c2"}, ...],
   "animals": [{"kind": "elephant", "space": "d1"}, ...]}
  lines: each line's first crossing (a line nobody crossed is absent); a finished car's space is
  "FINISH". A move made by a power also has "power": its name. animals: where each is, or null
  once it has left the board (only when the track has animals). Bad input: exit code 2 and one
  line on stderr naming what is wrong.

Rulings where the rules are silent or loose (docs/games/downforce.md says why):
  (a) One move sets off the moved car's owner's power and Experienced (for the car behind it):
      the owner's power is asked first, then each Experienced owner clockwise from the player on
      turn; the accepted moves are made in that order.
  (b) A move made by a power never sets off another power (no chains); only a card's lines do.
  (c) Among ways to the same end the shortest is kept (ties: through the smallest ids), and
      Determined (all rectangular) and Reckless (through a tight space) read the way taken. Rules
      2: when ways to one end differ for the car's owner's Determined or Reckless (one sets it
      off, another does not), the game offers both as separate labelled options (the end, its
      shortest way; and "end~via", the shortest way reading the other way, via its spaces before
      the end joined by "-"); see ways. Rules 1: the shortest way only. Who picks the way: who
      picks the end, the player on turn, or the car's Cunning owner.
  (d) A ramp's jump counts as one step: steps is the length of the way, landing included.
  (e) A power's extra move whose every way falls back to where it began (a crack) is not offered
      (it would move the car 0 spaces); an automatic one (Daring) does nothing.
  (f) A power's move is a new move at the power's own speed: Aggressive 1, Determined /
      Ambitious / Tough / Reckless 2, Defensive 3, Daring the spaces left to make 3 ("3
      instead" = the first move plus an extra move of 3 minus its steps). A ramp needs that
      speed to reach its value.
  (g) Powers read a move as it fell back from a crack: its steps and path end at the space it
      fell back to (a move that fell back to where it began has 0 steps: no Tough, Determined or
      Daring).
  (h) A car that went past an animal's row on cracks and fell back behind it has not passed it:
      passing is judged from where the car's moves begin and end.
  (i) A passed animal moves to the next empty space of its path, skipping taken ones; with every
      later space taken it stays; from its last space it leaves the board.
  (j) A car level with an animal at the start of a turn has not passed it when it moves beyond:
      passing means going from a row before the animal's to one beyond it during one turn.
  (k) A ramp's jump over an animal passes it (rows decide, the jump is not blocked by it; only
      the landing must be empty).
  (l) A car may drive through a crack even when it passes no car by doing so: it can never stop
      there, so a crack only ever helps a car get by.
"""


class ScenarioError(GameError, ValueError):
    """A scenario file that cannot be played."""


def _whole(value: object) -> TypeGuard[int]:
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


def read_card(text: str, where: str = "card") -> list[list[JSON]]:
    """A scenario card in card notation: ``"red 4, blue 2"`` -> ``[["red", 4], ["blue", 2]]``
    (its colours and speeds are checked with the rest of the scenario)."""
    lines: list[list[JSON]] = []
    for part in text.split(","):
        words = part.split()
        if len(words) != 2 or not words[1].isdigit():
            raise ScenarioError(f"{where}: {part.strip()!r} is not a line like 'red 4'")
        lines.append([words[0].lower(), int(words[1])])
    return lines


def _seat(value: object, where: str) -> int:
    if not _whole(value) or not 0 <= value < 6:
        raise ScenarioError(f"{where}: must be a seat number from 0 to 5")
    return value


def run_scenario(data: dict[str, JSON]) -> dict[str, JSON]:
    """Apply the scenario's cards with the game's own rules (powers and track features included)."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    unknown = set(data) - {
        "track",
        "cars",
        "cards",
        "choose",
        "owners",
        "powers",
        "player",
        "answers",
        "rules",
        "ways",
    }
    if unknown:
        raise ScenarioError(f"unknown scenario key {sorted(unknown)[0]!r}")
    if "track" not in data:
        raise ScenarioError("track is missing")
    track = build_track(data["track"])
    cars = data.get("cars", {})
    if not isinstance(cars, dict):
        raise ScenarioError("cars must be an object: colour -> space id")
    spaces: dict[str, str | None] = dict.fromkeys(COLOURS)
    animals = start_animals(track)
    for colour, space in cars.items():
        if colour not in COLOURS:
            raise ScenarioError(f"cars.{colour}: unknown colour; expected one of {', '.join(COLOURS)}")
        if space not in track.spaces:
            raise ScenarioError(f"cars.{colour}: unknown space {space!r}")
        if space in spaces.values():
            raise ScenarioError(f"cars.{colour}: space {space!r} already holds another car")
        if space in Race(track, {}, animals=animals).animal_spaces():
            raise ScenarioError(f"cars.{colour}: space {space!r} holds an animal")
        if track.spaces[space].flags.get("crack"):
            raise ScenarioError(f"cars.{colour}: {space!r} is a cracked space; no car can stand there")
        spaces[colour] = space
    cards = data.get("cards", [])
    if not isinstance(cards, list):
        raise ScenarioError("cards must be a list of cards, each a list of [colour, speed] lines")
    cards = [
        read_card(card, f"cards[{i}]") if isinstance(card, str) else card for i, card in enumerate(cards)
    ]
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
    owners = data.get("owners", {})
    if not isinstance(owners, dict):
        raise ScenarioError("owners must be an object: colour -> seat")
    for colour, seat in owners.items():
        if colour not in COLOURS:
            raise ScenarioError(f"owners.{colour}: unknown colour")
        _seat(seat, f"owners.{colour}")
    powers = data.get("powers", {})
    if not isinstance(powers, dict):
        raise ScenarioError('powers must be an object: seat (as a string) -> power, e.g. {"0": "tricky"}')
    for seat, power in powers.items():
        if not isinstance(seat, str) or not seat.isdigit():
            raise ScenarioError(f"powers.{seat}: the key must be a seat number as a string")
        _seat(int(seat), f"powers.{seat}")
        if power not in ALL_POWERS:
            raise ScenarioError(
                f"powers.{seat}: unknown power {power!r}; expected one of {', '.join(ALL_POWERS)}"
            )
    player = data.get("player", 0)
    players = list(player) if isinstance(player, list) else [player] * len(cards)
    if len(players) != len(cards):
        raise ScenarioError(f"player: a list must give one seat per card ({len(cards)})")
    for i, seat in enumerate(players):
        _seat(seat, f"player[{i}]" if isinstance(player, list) else "player")
    answers = data.get("answers", [])
    if not isinstance(answers, list) or not all(a in ("yes", "no", True, False) for a in answers):
        raise ScenarioError('answers must be a list of "yes"/"no" (or true/false)')
    ways = data.get("ways", [])
    if not isinstance(ways, list) or not all(w in ("yes", "no", True, False) for w in ways):
        raise ScenarioError('ways must be a list of "yes"/"no" (or true/false)')
    rules = data.get("rules", RULES)
    if rules not in (1, 2) or isinstance(rules, bool):
        raise ScenarioError("rules must be 1 or 2 (the rules version; default 2)")
    seats = 1 + max([1, *owners.values(), *players, *(int(k) for k in powers)])
    game = _game(track, spaces, animals, cards, owners, powers, players, seats, rules)
    picks = list(choose)
    replies = ["yes" if a in ("yes", True) else "no" for a in answers]
    by_way = [w in ("yes", True) for w in ways]
    events = []
    for number in range(len(cards)):
        if game.is_over:
            break
        game.s["turn"] = players[number]  # the scenario says whose turn each card is
        events += game.apply(Action(players[number], "play", f"s{number}"))
        while (not game.is_over and game.phase != "race") or game.s["choice"] is not None:
            decision = game.pending()[0]
            choice = _answer(decision, picks, replies, number, by_way, game.s["choice"])
            events += game.apply(Action(decision.player, decision.kind, choice))
    moves = [
        {
            "card": m["card"],
            "car": m["car"],
            "steps": m["steps"],
            "options": [o for o in m["options"] if "~" not in o],  # ends only (ruling (c))
            "to": m["to"],
            **({"power": m["power"]} if m.get("power") else {}),
        }
        for m in (e.data for e in events if e.kind == "car_moved")
    ]
    race = game.race
    out_cars = {
        c: {"space": race.spaces[c], "finished": race.spaces[c] == FINISH, "place": race.place_of(c)}
        for c in COLOURS
        if race.spaces[c] is not None
    }
    lines = sorted(race.crossings, key=lambda c: c["line"])
    out: dict[str, JSON] = {"cars": out_cars, "lines": lines, "moves": moves}
    if race.animals:
        out["animals"] = [
            {"kind": a["kind"], "space": None if a["at"] is None else a["path"][a["at"]]}
            for a in race.animals
        ]
    return out


def _answer(
    decision: Decision,
    picks: list[int],
    replies: list[str],
    number: int,
    ways: list[bool],
    choice: dict[str, JSON] | None,
) -> JSON:
    options = list(decision.options)
    if decision.kind == "power":
        return replies.pop(0) if replies else "no"
    if decision.kind == "bet":
        return options[0]
    if decision.kind == "move":  # choose picks among the ends; ways among the ways to one end
        ends = [o for o in options if "~" not in str(o)]
        end = _pick(ends, picks, decision.kind, number)
        reads = (choice or {}).get("reads") or {}
        if end not in reads:
            return end
        sets_off = ways.pop(0) if ways else None
        if sets_off is None:
            return end  # no ways left: the shortest way, as without the key
        return next(o for o in options if str(o).split("~")[0] == end and reads[o]["sets_off"] == sets_off)
    return _pick(options, picks, decision.kind, number)


def _pick(options: list[JSON], picks: list[int], kind: str, number: int) -> JSON:
    pick = picks.pop(0) if picks and len(options) > 1 else 0
    if pick >= len(options):
        raise ScenarioError(
            f"choose: {pick} is out of range for the {len(options)} options of a {kind} in card {number}"
        )
    return options[pick]


def _game(
    track: Track,
    spaces: dict[str, str | None],
    animals: list[dict[str, JSON]],
    cards: list[list[list]],
    owners: dict[str, int],
    powers: dict[str, str],
    players: list[int],
    seats: int,
    rules: int = RULES,
) -> Downforce:
    """A game already in its race, holding exactly the scenario's cards (one per play)."""
    ids = {f"s{i}": [list(line) for line in card] for i, card in enumerate(cards)}
    hands: list[list[str]] = [[] for _ in range(seats)]
    for i, seat in enumerate(players):
        hands[seat].append(f"s{i}")
    state: dict[str, JSON] = {
        "version": 1,
        "rules": rules,
        "seats": seats,
        "settings": {"track": "river-station", "betting": "standard"},
        "track": track.to_json(),
        "cards": ids,
        "speed8": {},
        "grid": list(COLOURS),
        "race": Race(track, spaces, animals=animals).to_json(),
        "hands": hands,
        "out_of_race": [],
        "owners": {c: owners.get(c) for c in COLOURS},
        "price": dict.fromkeys(COLOURS, 0),
        "spent": [0] * seats,
        "auction_order": list(COLOURS),
        "auction_index": 6,
        "eligible": [],
        "bids": [None] * seats,
        "auctions": [],
        "phase": "race",
        "turn": players[0] if players else 0,
        "card": None,
        "choice": None,
        "bet_queue": [],
        "bet_picks": None,
        "bets": [[] for _ in range(seats)],
        "played": [],
        "turns": [0] * seats,
        "ended_by": None,
        "opening": [],
        "powers_dealt": [None] * 6,
        "powers_won": [[] for _ in range(seats)],
        "powers": dict(powers),
        "keep_picks": None,
    }
    return Downforce(state, GameRng(0))


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
