"""``python -m bot playground [--port 8080] [--host 127.0.0.1] [--people alice,bob,carol] [--language en|pt-BR]
[--data FOLDER]``: the real bot on a fake Discord, and a page to play it in.

Safe to run anywhere: the settings are built here, so DISCORD_TOKEN, DATABASE_URL, DISCORD_API_BASE and
DISCORD_GATEWAY_URL (in the environment or in .env) are never read; the bot talks only to the fake
Discord inside this process, on 127.0.0.1; the database is a SQLite file in a temporary folder (or
``--data``); the page is served on 127.0.0.1 unless ``--host`` says otherwise. Ctrl-C stops everything
within a few seconds. The command line speaks English, like the bot's other tools."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import signal
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from aiohttp import web

from bot.playground.world import DEFAULT_PEOPLE, LANGUAGES, BadPeople, people_from

STOP_SECONDS = 5.0  # the bot's own close, then the fake's and the page's


class PortTaken(Exception):
    """The address the page should be served on is in use (or not ours to use)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port", type=int, default=8080, help="the page's port (default 8080; 0 picks a free one)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="the page's address (default 127.0.0.1, this machine only)"
    )
    parser.add_argument(
        "--people",
        default=",".join(DEFAULT_PEOPLE),
        help="who plays, comma-separated (default alice,bob,carol; the first may manage the server)",
    )
    parser.add_argument(
        "--language", choices=sorted(LANGUAGES), default="en", help="the server's and everyone's language"
    )
    parser.add_argument(
        "--data",
        type=Path,
        help="folder for the SQLite database (default: a temporary one, deleted at the end)",
    )
    parser.add_argument(
        "--dms-closed",
        default="",
        metavar="NAMES",
        help="people who take no DMs from the bot, comma-separated: they pick through the channel's 'My hand'",
    )
    parser.add_argument("--workers", type=int, default=None, help=argparse.SUPPRESS)  # tests: 0, no processes


def run(args: argparse.Namespace) -> int:
    try:
        names = people_from(args.people)
        dms_closed = {n.strip() for n in args.dms_closed.split(",") if n.strip()}
        if dms_closed - set(names):
            raise BadPeople(
                f"--dms-closed names someone not in --people: {', '.join(sorted(dms_closed - set(names)))}"
            )
    except BadPeople as error:
        print(f"python -m bot playground: error: {error}", file=sys.stderr)
        return 2
    from bot import logs, workers
    from bot.main import quiet_voice_warnings

    logs.setup("WARNING", "text")
    quiet_voice_warnings()
    workers.start(workers.processes_for(args.workers))  # the bot's worker processes, as in production
    try:
        with _folder(args.data) as folder:
            return asyncio.run(serve(args.host, args.port, names, args.language, folder, dms_closed))
    except PortTaken as error:
        print(f"python -m bot playground: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        workers.stop()


@contextlib.contextmanager
def _folder(given: Path | None) -> Iterator[Path]:
    if given is not None:
        given.mkdir(parents=True, exist_ok=True)
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="racing-bets-playground-") as folder:
        yield Path(folder)


async def serve(
    host: str, port: int, names: list[str], language: str, folder: Path, dms_closed: set[str]
) -> int:
    """Take the port (first, so that a taken one is said at once), start the bot on its fake Discord,
    serve the page, print its address, and run until SIGINT or SIGTERM."""
    from bot.playground.server import make_app
    from bot.playground.world import running_world

    listening = _bind(host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        async with running_world(folder, names, language, dms_closed=dms_closed) as world:
            runner = web.AppRunner(make_app(world), access_log=None, shutdown_timeout=1.0)
            await runner.setup()
            try:
                await web.SockSite(runner, listening).start()
                print(f"Playground ready: open {_address(listening)}  (Ctrl-C stops it)", flush=True)
                await stop.wait()
                print("Stopping...", flush=True)
            finally:
                await asyncio.wait_for(runner.cleanup(), STOP_SECONDS)
    finally:
        listening.close()
    return 0


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; :class:`PortTaken` saying so when it is in use."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listening = socket.socket(family, socket.SOCK_STREAM)
    except OSError as error:
        raise PortTaken(f"cannot listen on {host}:{port}: {error.strerror}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise PortTaken(
                f"port {port} on {host} is taken (another playground, or another program, listens there); "
                f"choose another with --port, e.g. --port {port + 1}"
            ) from None
        raise PortTaken(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listening.setblocking(False)
    return listening


def _address(listening: socket.socket) -> str:
    host, port = listening.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"
