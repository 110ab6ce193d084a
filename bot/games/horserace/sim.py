"""Simulate many races on a board: how often each horse wins, and how long a race runs.

``python -m bot sim horserace --races N --seed S [--board NAME] [--json]``

``python -m bot sim horserace --games N --players P [--seed S] [--json]`` plays N whole games at
the default settings instead (``simulate_games``): how much of the money owed goes unpaid, and
how often the last race decides the game.

Who holds which card and who pays does not change which horse wins, so the simulator runs
only the horses: the scratch round, then race rolls, through the engine's own ``Track`` (one
copy of the rules). Dice totals are drawn in batches from the 36 equally likely throws, which
is the same distribution as ``roll_dice`` at a fifth of the cost. ``mean_rolls`` counts race rolls only (after the
scratch round), including rolls of scratched numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from typing import Any

from bot.games.base import Action, ContentError
from bot.games.command_line import Progress, UsageError, add_progress_option, one_of, standalone, whole
from bot.games.horserace.board import HORSES, Board, available_boards, load_board
from bot.games.horserace.game import NEXT_RACE, HorseRace
from bot.games.horserace.race import DICE_TOTALS, Track


def simulate(board: Board, races: int, seed: int, progress: Progress | None = None) -> dict[str, Any]:
    """Run ``races`` races; win rates are over all races, a scratched horse counting as a loss."""
    totals = _dice_totals(random.Random(seed))
    wins = dict.fromkeys(HORSES, 0)
    scratched = dict.fromkeys(HORSES, 0)
    rolls = 0
    longest = 0
    for done in range(1, races + 1):
        track = Track(board.moves)
        while track.scratching:
            track.scratch_roll(next(totals))
        count = 0
        while track.winner is None:  # (a new track has none)
            track.race_roll(next(totals))
            count += 1
        wins[track.winner] += 1
        for horse in track.scratched:
            scratched[horse] += 1
        rolls += count
        longest = max(longest, count)
        if progress is not None and (done % 1000 == 0 or done == races):
            progress.advance(1000 if done % 1000 == 0 else done % 1000)
    if progress is not None:
        progress.finish()
    n = max(races, 1)
    return {
        "board": board.name,
        "races": races,
        "seed": seed,
        "win_rate": {str(h): wins[h] / n for h in HORSES},
        "scratch_rate": {str(h): scratched[h] / n for h in HORSES},
        "mean_rolls": rolls / n,
        "max_rolls": longest,
    }


def _dice_totals(rng: random.Random, batch: int = 4096) -> Iterator[int]:
    while True:
        yield from rng.choices(DICE_TOTALS, k=batch)


# --- whole games --------------------------------------------------------------


class Money:
    """Dollars owed and paid over many games, by what they were owed for."""

    KINDS = ("fees", "penalties", "sit_out_fees")

    def __init__(self) -> None:
        self.owed = dict.fromkeys(self.KINDS, 0)
        self.paid = dict.fromkeys(self.KINDS, 0)

    def add(self, kind: str, owed: int, paid: int) -> None:
        self.owed[kind] += owed
        self.paid[kind] += paid

    def short(self, kind: str | None = None) -> float:
        """The share of the dollars owed (for ``kind``, or for anything) that went unpaid."""
        kinds = self.KINDS if kind is None else (kind,)
        owed = sum(self.owed[k] for k in kinds)
        return (owed - sum(self.paid[k] for k in kinds)) / owed if owed else 0.0


def play_game(seats: int, seed: int, settings: dict[str, Any] | None, money: Money) -> bool:
    """One whole game, every step taken as an AI seat takes it; counts what was owed and paid into
    ``money`` and returns whether the last race decided it (see ``simulate_games``)."""
    game = HorseRace.new(seats, seed, settings)
    before_last: list[int] = list(game.cash)
    while not game.is_over:
        decision = game.pending()[0]
        if decision.kind == NEXT_RACE:
            before_last = list(game.cash)
        for event in game.apply(Action(decision.player, decision.kind, decision.options[0])):
            data = event.data
            if event.kind == "race_setup":
                fees = data["fees_paid"]
                money.add("fees", data["fee"] * len(fees), sum(fees.values()))
            elif event.kind == "roll" and data.get("scratched"):
                money.add("penalties", data["due"], data["paid"])
            elif event.kind == "sit_out":
                money.add("sit_out_fees", data["due"], data["paid"])
    return _firsts(before_last) != _firsts(game.cash)


def _firsts(cash: list[int]) -> set[int]:
    return {seat for seat, amount in enumerate(cash) if amount == max(cash)}


def simulate_games(
    games: int, players: int, seed: int, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Play ``games`` whole games (default settings unless given) with AI players.

    ``paid_short``: the share of the dollars owed (entry fees, scratch penalties, sit-out fees)
    that went unpaid because the payer had less. ``decided_in_last_race``: the share of games
    whose winners (everyone sharing first place) are not who led before the last race.
    """
    money = Money()
    decided = 0
    for index in range(games):
        decided += play_game(players, seed * 1_000_003 + index, settings, money)
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "settings": HorseRace.new(players, seed, settings).settings.to_json(),
        "paid_short": round(money.short(), 4),
        "paid_short_by_kind": {kind: round(money.short(kind), 4) for kind in Money.KINDS},
        "owed_per_game": round(sum(money.owed.values()) / max(games, 1), 2),
        "decided_in_last_race": round(decided / max(games, 1), 4),
    }


def format_games(stats: dict[str, Any]) -> str:
    s = stats["settings"]
    by_kind = stats["paid_short_by_kind"]
    return "\n".join(
        [
            f"The Horse Race Game: {stats['games']} games, {stats['players']} players (seed {stats['seed']}); "
            f"bank ${s['bank']}, fee ${s['fee']}, {s['races']} races, board {s['board']!r}",
            "",
            f"dollars owed per game: {stats['owed_per_game']:.1f}; unpaid: {stats['paid_short']:.1%} "
            f"(entry fees {by_kind['fees']:.1%}, scratch penalties {by_kind['penalties']:.1%}, "
            f"sit-out fees {by_kind['sit_out_fees']:.1%})",
            f"games decided in the last race: {stats['decided_in_last_race']:.1%}",
        ]
    )


def format_table(stats: dict[str, Any]) -> str:
    moves = stats["moves"]
    lines = [
        f"The Horse Race Game: {stats['races']} races on board {stats['board']!r} (seed {stats['seed']})",
        "",
        "horse  moves  wins     scratched",
    ]
    for h in HORSES:
        key = str(h)
        bar = "#" * round(stats["win_rate"][key] * 100)
        lines.append(
            f"{h:>5}  {moves[key]:>5}  {stats['win_rate'][key]:>6.1%}  {stats['scratch_rate'][key]:>8.1%}  {bar}"
        )
    lines += [
        "",
        f"race rolls after the scratch round: mean {stats['mean_rolls']:.1f}, longest {stats['max_rolls']}",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--races", metavar="N", type=whole(1), default=10_000, help="races to simulate")
    parser.add_argument("--seed", metavar="N", type=int, default=1, help="same seed, same figures")
    boards = available_boards()
    parser.add_argument(
        "--board",
        type=one_of(boards, "board"),
        default="standard",
        help=f"board layout ({', '.join(boards)})",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--games",
        metavar="N",
        type=whole(1),
        help="play this many whole games at the default settings instead",
    )
    parser.add_argument(
        "--players",
        metavar="N",
        type=whole(2, 15),
        default=4,
        help="players in each game with --games",
    )
    add_progress_option(parser)


def run(args: argparse.Namespace) -> int:
    if args.games is not None:
        return _games_main(args)
    try:
        board = load_board(args.board)
    except ContentError as error:  # a broken board file: the file and the field, in one line
        raise UsageError(f"argument --board: {error}") from None
    started = time.perf_counter()
    stats = simulate(board, args.races, args.seed, Progress(args.races, "races", enabled=args.progress))
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    stats["moves"] = {str(h): m for h, m in board.moves.items()}
    print(format_table(stats))
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


def _games_main(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    stats = simulate_games(args.games, args.players, args.seed)
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    print(format_games(stats))
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    return standalone("python -m bot sim horserace", __doc__, add_arguments, run, argv)
