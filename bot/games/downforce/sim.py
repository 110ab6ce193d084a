"""Simulate many Downforce games with AI players and print what the cards and tracks do.

``python -m bot sim downforce --games N --seed S [--players P] [--ai easy|normal,...] [--json]
[--track NAME] [--betting NAME] [--powers off|base|all] [--workers W]``

Every game is played through the engine itself (``ai.play_ai_game``). Reported (shares are
fractions of games):

* ``win_share_by_colour``: which car won the race; ``win_share_by_grid``: which grid slot's car
  (1 = pole) won the race; ``win_share_by_seat``: which seat won the game on money (a shared
  win counts as a share for each seat sharing it);
* ``price_by_grid``: the mean winning bid for the car in each grid slot;
* ``turns_per_player``: cards each player played in the race (mean over games of the cards
  played divided by the players; max: the most any one player played in a game);
* ``ended_by_cards_out``: the share of races that ended because nobody had a card left;
* ``head_to_head``: per AI level, the share of seat-games won (levels go round the seats and
  rotate by one seat each game, so every level sits in every seat equally often).

Games are independent and seeded from ``--seed`` and their index, so the figures do not depend
on ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from typing import Any, TypeVar

from bot.games.downforce.ai import LEVELS, play_ai_game
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.content import TRACKS
from bot.games.downforce.game import Downforce
from bot.games.downforce.powers import SETTINGS as POWER_SETTINGS
from bot.games.downforce.scoring import BETTING

Key = TypeVar("Key")


def _add(mine: dict[Key, float], theirs: dict[Key, float]) -> None:
    for key, value in theirs.items():
        mine[key] += value


class Tally:
    """Everything counted over a batch of games; batches merge into one."""

    def __init__(self, players: int) -> None:
        self.games = 0
        self.colour = dict.fromkeys(COLOURS, 0.0)
        self.seat = dict.fromkeys(range(players), 0.0)
        self.grid = dict.fromkeys(range(1, 7), 0.0)
        self.price = {slot: [0, 0] for slot in range(1, 7)}  # slot -> [sum, count]
        self.turns_total = 0.0
        self.turns_max = 0
        self.cards_out = 0
        self.level_seats: dict[str, int] = {}
        self.level_wins: dict[str, float] = {}

    def add_game(self, game: Downforce, levels: list[str]) -> None:
        self.games += 1
        view = game.view(None)
        winner = view["standings"][0]
        self.colour[winner] += 1
        self.grid[view["cars"][winner]["grid_slot"]] += 1
        results = game.results()
        winners = [r.seat for r in results if r.won]
        for seat in winners:
            self.seat[seat] += 1 / len(winners)
        for auction in view["auctions"]:
            cell = self.price[auction["grid_slot"]]
            cell[0] += auction["price"]
            cell[1] += 1
        self.turns_total += view["cards_played"] / game.seats
        self.turns_max = max(self.turns_max, *view["turns"])
        self.cards_out += view["ended_by"] == "cards_out"
        for r in results:
            level = levels[r.seat]
            self.level_seats[level] = self.level_seats.get(level, 0) + 1
            self.level_wins[level] = self.level_wins.get(level, 0) + (1 / len(winners) if r.won else 0)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        _add(self.colour, other.colour)
        _add(self.seat, other.seat)
        _add(self.grid, other.grid)
        for slot, (total, count) in other.price.items():
            self.price[slot][0] += total
            self.price[slot][1] += count
        self.turns_total += other.turns_total
        self.turns_max = max(self.turns_max, other.turns_max)
        self.cards_out += other.cards_out
        for key, value in other.level_seats.items():
            self.level_seats[key] = self.level_seats.get(key, 0) + value
        for key, wins in other.level_wins.items():
            self.level_wins[key] = self.level_wins.get(key, 0) + wins


def seat_levels(levels: list[str], seats: int, game_index: int) -> list[str]:
    """Levels round the seats, rotated one seat per game."""
    return [levels[(seat + game_index) % len(levels)] for seat in range(seats)]


def game_seed(seed: int, game_index: int) -> int:
    return seed * 1_000_003 + game_index


def _play_batch(job: tuple[int, int, int, int, list[str], int, dict[str, str]]) -> Tally:
    """Games ``first, first + step, ...`` below ``games`` (one worker's share)."""
    seed, first, step, games, levels, players, settings = job
    tally = Tally(players)
    for index in range(first, games, step):
        by_seat = seat_levels(levels, players, index)
        game = play_ai_game(players, game_seed(seed, index), by_seat, settings)
        tally.add_game(game, by_seat)
    return tally


def simulate(
    games: int,
    seed: int,
    players: int = 4,
    levels: list[str] | None = None,
    settings: dict[str, str] | None = None,
    *,
    workers: int = 1,
) -> dict[str, Any]:
    """Play ``games`` AI games and return the figures as one JSON-able dict."""
    levels = list(levels or ["easy"])
    settings = dict(settings or {})
    started = time.perf_counter()
    workers = max(1, min(workers, games))
    jobs = [(seed, w, workers, games, levels, players, settings) for w in range(workers)]
    if workers == 1:
        parts = [_play_batch(jobs[0])]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_play_batch, jobs)
    tally = Tally(players)
    for part in parts:
        tally.merge(part)
    return report(tally, seed, players, levels, settings, time.perf_counter() - started)


def report(
    tally: Tally, seed: int, players: int, levels: list[str], settings: dict[str, str], seconds: float
) -> dict[str, Any]:
    n = max(tally.games, 1)
    return {
        "games": tally.games,
        "players": players,
        "seed": seed,
        "ai": levels,
        "track": settings.get("track", "river-station"),
        "betting": settings.get("betting", "standard"),
        "powers": settings.get("powers", "off"),
        "win_share_by_colour": {c: round(tally.colour[c] / n, 4) for c in COLOURS},
        "win_share_by_seat": {str(s + 1): round(v / n, 4) for s, v in tally.seat.items()},
        "win_share_by_grid": {str(g): round(v / n, 4) for g, v in tally.grid.items()},
        "price_by_grid": {
            str(g): round(total / count, 3) if count else 0.0 for g, (total, count) in tally.price.items()
        },
        "turns_per_player": {"mean": round(tally.turns_total / n, 2), "max": tally.turns_max},
        "ended_by_cards_out": round(tally.cards_out / n, 4),
        "head_to_head": {
            level: {
                "seat_games": tally.level_seats[level],
                "win_rate": round(tally.level_wins[level] / tally.level_seats[level], 4),
            }
            for level in levels
            if tally.level_seats.get(level)
        },
        "seconds": round(seconds, 2),
    }


def _table(out: dict[str, Any]) -> str:
    def shares(d: dict[str, float]) -> str:
        return "  ".join(f"{k} {v:.1%}" for k, v in d.items())

    lines = [
        f"Downforce: {out['games']} games on {out['track']}, {out['players']} players, "
        f"AI {','.join(out['ai'])}, betting {out['betting']}, powers {out['powers']}, seed {out['seed']} ({out['seconds']} s)",
        "",
        "Race wins by colour:     " + shares(out["win_share_by_colour"]),
        "Race wins by grid slot:  " + shares(out["win_share_by_grid"]),
        "Game wins by seat:       " + shares(out["win_share_by_seat"]),
        "Winning bid by grid slot: " + "  ".join(f"{k} ${v:.2f}" for k, v in out["price_by_grid"].items()),
        f"Cards played per player: mean {out['turns_per_player']['mean']}, max {out['turns_per_player']['max']}",
        f"Races ended by cards out: {out['ended_by_cards_out']:.1%}",
    ]
    if len(out["head_to_head"]) > 1:
        lines.append(
            "Head to head: "
            + "  ".join(
                f"{k} {h['win_rate']:.1%} of {h['seat_games']}" for k, h in out["head_to_head"].items()
            )
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot sim downforce")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ai", default="easy", help="comma-separated levels, round the seats (easy, normal)")
    parser.add_argument("--track", default="river-station", choices=TRACKS)
    parser.add_argument("--betting", default="standard", choices=BETTING)
    parser.add_argument("--powers", default="off", choices=POWER_SETTINGS)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes to spread the games over"
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    levels = [level.strip() for level in args.ai.split(",") if level.strip()]
    unknown = [level for level in levels if level not in LEVELS]
    if not levels or unknown:
        print(
            f"unknown AI level {', '.join(unknown) or '(none)'}; choose from {', '.join(LEVELS)}",
            file=sys.stderr,
        )
        return 2
    if not Downforce.min_players <= args.players <= Downforce.max_players or args.games < 1:
        print(
            f"--players must be {Downforce.min_players}..{Downforce.max_players} and --games at least 1",
            file=sys.stderr,
        )
        return 2
    settings = {"track": args.track, "betting": args.betting, "powers": args.powers}
    out = simulate(args.games, args.seed, args.players, levels, settings, workers=args.workers)
    print(json.dumps(out, sort_keys=True) if args.json else _table(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
