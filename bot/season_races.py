"""The season's most dramatic race, found and drawn again from the stored action logs (no Discord here).

A replay is drawn from frames a presenter collected while the race ran; those frames are gone by the
end of a season, so the recap rebuilds them: each finished game is replayed from its seed and its stored
actions (every chance outcome comes from the game's RNG, so it is the same race), and the public frames
are collected the way the game's presenter collects them. Runs in a worker (``bot.workers``): it costs
a replay of each game of the season, about a millisecond an action.

Drama is the number of *lead changes*: how many times the runner in front changed during the race (a
tie in front changes nothing). Rulings: the newest race wins a tie between races (fresher in
memory); in Downforce the car in front is the first across the finish, or else the one car alone on
the furthest row of its track (the rules' running order breaks a tie on a row by lane, but a car
moving over within a row is not a new leader, as a tie in front is none in the other games).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.animation import Animation
from bot.games.base import Action
from bot.games.catalog import entry
from bot.storage.records import StoredGame

Frame = dict[str, Any]


@dataclass(frozen=True)
class Race:
    game_id: int
    kind: str
    race: int
    lead_changes: int
    frames: list[Frame]
    names: list[str]


def _hotstreak_frames(game: StoredGame) -> dict[int, list[Frame]]:
    """Hot Streak: the frame each flipped card and fold carries (``cogs/hotstreak/present.py``)."""
    races: dict[int, list[Frame]] = {}
    for events in _replayed(game):
        for event in events:
            if event.kind in ("card_flipped", "bar_folded") and isinstance(event.data.get("frame"), dict):
                frame = event.data["frame"]
                races.setdefault(int(frame["race"]), []).append(frame)
    return races


def _hotstreak_leader(frame: Frame) -> str | None:
    mascots = frame.get("mascots") or {}
    placed = [m for m, v in mascots.items() if v.get("place") == 1]
    if placed:
        return str(placed[0])
    running = {m: v.get("pos", 0) for m, v in mascots.items() if not v.get("fallen")}
    return _unique_best(running)


def _horserace_frames(game: StoredGame) -> dict[int, list[Frame]]:
    """The Horse Race Game: the public board after each roll, scratch and start (its presenter's frames)."""
    races: dict[int, list[Frame]] = {}
    names = [str(s.get("name", "")) for s in game.seats]
    kinds = ("scratch", "scratch_reroll", "roll", "race_start", "race_won")
    for events, engine in _replayed(game, with_engine=True):
        if any(e.kind in kinds for e in events):
            board = {**engine.view(None), "names": names}
            races.setdefault(int(board["race"]), []).append(board)
    return races


def _horserace_leader(frame: Frame) -> str | None:
    positions = frame.get("positions") or {}
    moves = (frame.get("board") or {}).get("moves") or {}
    scratched = {str(s.get("horse")) for s in frame.get("scratched") or []}
    progress = {
        h: p / max(1, int(moves.get(h, 1))) for h, p in positions.items() if h not in scratched and h in moves
    }
    return _unique_best(progress)


def _unique_best(scores: dict[str, Any]) -> str | None:
    if not scores:
        return None
    best = max(scores.values())
    leaders = [k for k, v in scores.items() if v == best]
    return leaders[0] if len(leaders) == 1 else None


def _downforce_frames(game: StoredGame) -> dict[int, list[Frame]]:
    """Downforce: the track after each card (its presenter's replay frames); one race."""
    frames: list[Frame] = []
    names = [str(s.get("name", "")) for s in game.seats]
    for events, engine in _replayed(game, with_engine=True):
        if any(e.kind == "card_resolved" for e in events):
            frames.append({**engine.view(None), "names": names})
    return {1: frames} if frames else {}


def _downforce_leader(frame: Frame) -> str | None:
    from bot.games.downforce.track import Track

    cars = frame.get("cars") or {}
    first = [c for c, car in cars.items() if car.get("place") == 1]
    if first:
        return str(first[0])
    track = Track(frame["track"])
    rows = {c: track.row(car["space"]) for c, car in cars.items() if car.get("space") is not None}
    return _unique_best(rows)


FRAMES: dict[str, tuple[Callable[[StoredGame], dict[int, list[Frame]]], Callable[[Frame], str | None]]] = {
    "hotstreak": (_hotstreak_frames, _hotstreak_leader),
    "horserace": (_horserace_frames, _horserace_leader),
    "downforce": (_downforce_frames, _downforce_leader),
}


def _replayed(game: StoredGame, *, with_engine: bool = False) -> Any:
    """Each stored action's events (with the engine after it, if asked), replayed from the seed."""
    game_entry = entry(game.kind)
    engine = game_entry.new_engine(
        len(game.seats), game.seed, game_entry.stored_engine_settings(game.settings)
    )
    for raw in game.actions:
        events = engine.apply(Action.from_json(raw))
        yield (events, engine) if with_engine else events


def lead_changes(leaders: Sequence[str | None]) -> int:
    """How many times the one runner in front changed (moments with no single leader are skipped)."""
    changes, last = 0, None
    for leader in leaders:
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def most_dramatic(games: Sequence[StoredGame]) -> Race | None:
    """The race with the most lead changes among ``games`` (newest first); None if none counts."""
    best: Race | None = None
    for game in games:
        if game.kind not in FRAMES or game.damage:
            continue
        collect, leader = FRAMES[game.kind]
        try:
            races = collect(game)
        except Exception:  # a log this release cannot replay (an old game's rules): left out
            continue
        for number, frames in sorted(races.items(), reverse=True):
            changes = lead_changes([leader(f) for f in frames])
            if changes and (best is None or changes > best.lead_changes):
                names = [str(s.get("name", "")) for s in game.seats]
                best = Race(game.id, game.kind, number, changes, frames, names)
    return best


def dramatic_replay(games: Sequence[StoredGame]) -> tuple[Race, Animation] | None:
    """The most dramatic race and its replay, drawn as the game draws its replays (in a worker)."""
    race = most_dramatic(games)
    if race is None:
        return None
    if race.kind == "hotstreak":
        from bot.games.hotstreak.replay import race_replay as hotstreak_replay

        animation = hotstreak_replay(race.frames, players=race.names)
    elif race.kind == "downforce":
        from bot.games.downforce.replay import race_replay as downforce_replay

        animation = downforce_replay(race.frames)
    else:
        from bot.games.horserace.replay import race_replay as horserace_replay

        animation = horserace_replay(race.frames)
    return Race(race.game_id, race.kind, race.race, race.lead_changes, [], race.names), animation
