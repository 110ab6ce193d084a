"""Command line: the bot itself, and each game's offline demo and simulator.

``python -m bot``                      run the Discord bot (needs DISCORD_TOKEN)
``python -m bot demo GAME [options]``  play a game with AI players in the terminal
``python -m bot sim GAME [options]``   simulate many games and print statistics

Each game's tool is ``bot.games.<game>.<tool>.main(argv) -> int`` with its own options.
"""

from __future__ import annotations

import sys
from importlib import import_module

from bot.games import GAMES

TOOLS = ("demo", "sim")
USAGE = (
    "usage: python -m bot                      run the bot (needs DISCORD_TOKEN)\n"
    "       python -m bot demo GAME [options]  offline demo with AI players\n"
    "       python -m bot sim GAME [options]   simulate games, print statistics\n"
    f"games: {', '.join(sorted(GAMES))}"
)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] == "run":
        from bot.main import run

        return run()
    tool = args[0]
    if tool in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if tool not in TOOLS or len(args) < 2 or args[1] not in GAMES:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        module = import_module(f"bot.games.{args[1]}.{tool}")
    except ModuleNotFoundError:
        print(f"{args[1]} has no {tool} yet.", file=sys.stderr)
        return 2
    return int(module.main(args[2:]) or 0)
