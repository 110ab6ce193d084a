"""Command line: the bot itself, and each game's offline demo and simulator, in one argparse tree.

``python -m bot [run]``                run the Discord bot (needs DISCORD_TOKEN)
``python -m bot demo GAME [options]``  play a game with AI players in the terminal
``python -m bot sim GAME [options]``   simulate many games and print statistics
``python -m bot playground [options]`` the real bot on a fake Discord, played in a browser (bot.playground)

The tools are found by game name, never named here: ``bot.games.<game>.<tool>`` contributes its
options with ``add_arguments(parser)`` and does its work in ``run(args) -> int``. A tool module
that has only ``main(argv) -> int`` still works: it gets the rest of the command line as is.
Every bad argument ends in one line naming it and exit code 2; nothing here prints a traceback.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

from bot.games.command_line import USAGE_ERROR, Parser, run_checked

PROG = "python -m bot"
TOOLS = {
    "demo": "play one game with AI players and print what the channel would show",
    "sim": "simulate many games with AI players and print statistics",
}
SETTINGS = """\
settings (environment variables, or a .env file in the working directory):
  DISCORD_TOKEN       the bot's token (required)
  DATABASE_URL        SQLite file (default ./data/bot.db)
  DISCORD_API_BASE    REST base URL (default Discord's)
  DISCORD_GATEWAY_URL gateway URL (default Discord's)
  DEV_GUILD_ID        sync slash commands to this one server at once
  LOG_LEVEL           DEBUG, INFO, WARNING, ERROR or CRITICAL (default INFO)
  LOG_FORMAT          text or json, one JSON object per line (default text)
  METRICS_PORT        port of /healthz and /metrics (default: none served)
  METRICS_HOST        address of that port (default 127.0.0.1)
  (all of them, with their defaults: .env.example)

SIGTERM or Ctrl-C stops the bot cleanly: no new games, the moves in progress are saved, exit code 0."""


def game_kinds() -> list[str]:
    """Every game the bot knows, in the catalog's order."""
    # Until the catalog (bot.games.catalog) lands, the engines' own list is the list of games.
    from bot.games import GAMES

    return list(GAMES)


def tool_games(tool: str) -> list[str]:
    """The games that have ``tool`` (a game without a demo yet is simply not offered one)."""
    return [kind for kind in game_kinds() if _has_module(f"bot.games.{kind}.{tool}")]


def _has_module(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ImportError:  # the game's package itself is missing or broken
        return False


def _doc_line(module: ModuleType) -> str:
    return (module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else ""


def build_parser(tool_to_load: str | None = None) -> argparse.ArgumentParser:
    """The whole tree. Game tools are imported only for ``tool_to_load`` (running the bot imports none)."""
    parser = Parser(
        prog=PROG,
        description="Racing-and-betting board games for Discord: run the bot, or try the games offline.",
        epilog=f"Without a command, runs the bot. '{PROG} COMMAND --help' shows a command's options.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    commands.add_parser(
        "run",
        help="run the Discord bot (the default)",
        description="Connect to Discord and host games until stopped.",
        epilog=SETTINGS,
    )
    playground = commands.add_parser(
        "playground",
        help="every game in a browser, no Discord application needed",
        description="Start the real bot against a fake Discord in this process and serve a page to play in.",
    )
    if tool_to_load == "playground":  # its options import nothing heavy, but running the bot needs none
        from bot.playground.command_line import add_arguments

        add_arguments(playground)
    for tool, summary in TOOLS.items():
        games = tool_games(tool)
        sub = commands.add_parser(
            tool,
            help=summary,
            description=f"{summary[0].upper()}{summary[1:]}.",
            usage=f"{PROG} {tool} GAME [options]",
        )
        if tool != tool_to_load:
            continue
        per_game = sub.add_subparsers(dest="game", metavar="GAME", title="games", required=True)
        usages = []
        for kind in games:
            module = import_module(f"bot.games.{kind}.{tool}")
            prog = f"{PROG} {tool} {kind}"
            if hasattr(module, "add_arguments") and hasattr(module, "run"):
                game_parser = per_game.add_parser(
                    kind, help=_doc_line(module), description=module.__doc__, prog=prog
                )
                module.add_arguments(game_parser)
                game_parser.set_defaults(tool_run=module.run, tool_prog=prog)
                usages.append(" ".join(game_parser.format_usage().split()[1:]))
            else:  # only main(argv): it parses its own options (see main below)
                per_game.add_parser(kind, help=_doc_line(module), add_help=False, prog=prog)
                usages.append(f"{prog} [options]  (see {prog} --help)")
        wrapped = (textwrap.fill(u, 100, initial_indent="  ", subsequent_indent="      ") for u in usages)
        sub.epilog = "options of each game (GAME --help explains them):\n" + "\n".join(wrapped)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["help"]:
        args = ["--help", *args[1:]]
    tool = args[0] if args and args[0] in TOOLS else None
    if tool is not None:
        games = tool_games(tool)
        named = args[1] if len(args) > 1 and not args[1].startswith("-") else None
        if named is None and not {"-h", "--help"} & set(args[1:]):
            return _usage_error(f"{PROG} {tool}", f"name a game: {', '.join(games)}")
        if named is not None and named not in games:
            if named in game_kinds():
                return _usage_error(
                    f"{PROG} {tool}", f"{named} has no {tool} yet; games with one: {', '.join(games)}"
                )
            return _usage_error(f"{PROG} {tool}", f"unknown game {named!r}; games: {', '.join(games)}")
        if named is not None:
            module = import_module(f"bot.games.{named}.{tool}")
            if not (hasattr(module, "add_arguments") and hasattr(module, "run")):
                return int(module.main(args[2:]) or 0)
    parser = build_parser("playground" if args[:1] == ["playground"] else tool)
    try:
        parsed = parser.parse_args(args)
    except SystemExit as stop:  # --help (0), or a bad argument already reported in one line (2)
        return int(stop.code or 0)
    if parsed.command in (None, "run"):
        from bot.main import run

        return run()
    if parsed.command == "playground":
        from bot.playground.command_line import run as run_playground

        return run_playground(parsed)
    return run_checked(parsed.tool_prog, parsed.tool_run, parsed)


def _usage_error(prog: str, message: str) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return USAGE_ERROR
