"""Play a game with AI players in the terminal: ``python -m bot demo horserace [options]``."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.games.base import Action
from bot.games.horserace.game import HorseRace
from bot.games.horserace.narration import narrate


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot demo horserace")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--races", type=int, default=2)
    parser.add_argument("--board", default="standard")
    parser.add_argument(
        "--quiet", action="store_true", help="print only race results and the final standings"
    )
    parser.add_argument("--png", type=Path, help="write the final board to this PNG file")
    args = parser.parse_args(argv)
    game = HorseRace.new(args.players, seed=args.seed, settings={"races": args.races, "board": args.board})
    loud = {"race_setup", "race_won", "game_over", "sit_out", "broke"}
    while not game.is_over:
        decision = game.pending()[0]
        for event in game.apply(Action(decision.player, decision.kind, decision.options[0])):
            if not args.quiet or event.kind in loud:
                print(narrate(event))
    for result in sorted(game.results(), key=lambda r: r.place):
        print(f"{result.place}. Seat {result.seat + 1}: ${result.cash}  {result.detail}")
    if args.png:
        from bot.games.horserace.render import render_board

        args.png.write_bytes(render_board(game.view(None)))
    return 0
