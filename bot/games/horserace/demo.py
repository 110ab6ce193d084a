"""Play one Horse Race Game with AI players and print what the Discord channel would show.

``python -m bot demo horserace [--players 4] [--seed 1] [--races 2] [--board standard] [--quiet] [--png FILE]``

Every roll is narrated as in the channel's running log; the final standings say what each
seat won and paid. Same seed, same game.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bot.games.base import SeatResult
from bot.games.command_line import one_of, standalone, whole, writable_file
from bot.games.horserace.ai import ai_action
from bot.games.horserace.board import available_boards
from bot.games.horserace.game import HorseRace
from bot.games.horserace.narration import narrate

# With --quiet: what happened to the game, not every roll.
HEADLINES = {"race_setup", "race_won", "game_over", "sit_out", "broke"}
MAX_RACES = 1000  # the engine's own bound on the "races" setting


def add_arguments(parser: argparse.ArgumentParser) -> None:
    low, high = HorseRace.min_players, HorseRace.max_players
    parser.add_argument(
        "--players",
        metavar="N",
        type=whole(low, high),
        default=4,
        help=f"seats at the table ({low} to {high})",
    )
    parser.add_argument("--seed", metavar="N", type=int, default=1, help="same seed, same game")
    parser.add_argument("--races", metavar="N", type=whole(1, MAX_RACES), default=2, help="races in the game")
    boards = available_boards()
    parser.add_argument(
        "--board",
        type=one_of(boards, "board"),
        default="standard",
        help=f"board layout ({', '.join(boards)})",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only race results and the final standings"
    )
    parser.add_argument("--png", type=Path, metavar="FILE", help="write the final board to this PNG file")


def run(args: argparse.Namespace) -> int:
    png = writable_file(args.png, "--png") if args.png is not None else None
    game = play(args.players, args.seed, args.races, args.board, quiet=args.quiet)
    if png is not None:
        from bot.games.horserace.render import render_board

        png.write_bytes(render_board(game.view(None)))
        print(f"\nWrote the final board to {png}.")
    return 0


def play(
    players: int,
    seed: int,
    races: int,
    board: str,
    *,
    quiet: bool = False,
    echo: Callable[[str], None] = print,
) -> HorseRace:
    """Play and narrate one game, every seat (and the table) played by the AI."""
    game = HorseRace.new(players, seed=seed, settings={"races": races, "board": board})
    echo(f"The Horse Race Game demo: {players} players, {races} race(s) on board {board!r}, seed {seed}.")
    while not game.is_over:
        action = ai_action(game, game.pending()[0].player)
        assert action is not None  # something is always pending until the game is over
        for event in game.apply(action):
            if not quiet or event.kind in HEADLINES:
                echo(narrate(event))
    echo("")
    echo("Final standings:")
    for result in sorted(game.results(), key=lambda r: (r.place, r.seat)):
        echo(standing_line(result))
    return game


def standing_line(result: SeatResult) -> str:
    """``1. Seat 2: $30 (won 1 race; $15 won, $5 paid in fees and penalties)``."""
    detail = result.detail
    wins = int(detail.get("races_won", 0))
    paid = sum(int(detail.get(key, 0)) for key in ("fees", "penalties", "sit_out_fees"))
    crown = "  <- winner" if result.won else ""
    races = f"won {wins} race{'s' if wins != 1 else ''}" if wins else "won no race"
    return (
        f"  {result.place}. Seat {result.seat + 1}: ${result.cash} "
        f"({races}; ${detail.get('winnings', 0)} won, ${paid} paid in fees and penalties){crown}"
    )


def main(argv: list[str] | None = None) -> int:
    return standalone("python -m bot demo horserace", __doc__, add_arguments, run, argv)
