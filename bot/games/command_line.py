"""What the games' command-line tools (``demo``, ``sim``) share: argument checks, one-line errors, progress.

A tool module ``bot.games.<game>.<tool>`` exposes ``add_arguments(parser)`` and ``run(args) -> int``
(``python -m bot <tool> <game>`` puts its parser in one tree with the others) and ``main(argv) -> int``
(the same tool on its own, built here by ``standalone``). The person at the terminal made a typo,
not a bug: every bad argument ends in one line naming it and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

USAGE_ERROR = 2


class UsageError(Exception):
    """A bad argument found after parsing (a folder that cannot be written...): one line, exit code 2."""


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Shows every option's default (an unset one says so in its help), keeps the docstrings' line breaks."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (no usage block in front): ``prog: error: message``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An ``int`` option with bounds; the message says the range and what was given."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def one_of(allowed: Sequence[str], what: str) -> Callable[[str], str]:
    """One name from ``allowed``; the message lists them (``--board``: the boards in the assets)."""

    def parse(text: str) -> str:
        if text not in allowed:
            raise argparse.ArgumentTypeError(f"no such {what} {text!r}; choose from {', '.join(allowed)}")
        return text

    parse.__name__ = what
    return parse


def choices_list(allowed: Sequence[str], what: str) -> Callable[[str], list[str]]:
    """A comma-separated list of names from ``allowed`` (``--ai easy,normal``)."""

    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in allowed]
        if not names or unknown:
            given = ", ".join(unknown) or "nothing"
            raise argparse.ArgumentTypeError(f"unknown {what} {given}; choose from {', '.join(allowed)}")
        return names

    parse.__name__ = what
    return parse


def writable_folder(folder: Path, option: str) -> Path:
    """Create ``folder`` (and its parents) and make sure a file can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise UsageError(f"argument {option}: cannot write to {folder}: {error.strerror or error}") from None
    return folder


def writable_file(path: Path, option: str) -> Path:
    """Fail before the work, not after it, if ``path`` cannot be written (a missing folder, a directory)."""
    if path.is_dir():
        raise UsageError(f"argument {option}: {path} is a folder; give a file name")
    try:
        existed = path.exists()
        with path.open("ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as error:
        raise UsageError(f"argument {option}: cannot write {path}: {error.strerror or error}") from None
    return path


def standalone(
    prog: str,
    description: str | None,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    run: Callable[[argparse.Namespace], int],
    argv: Sequence[str] | None,
) -> int:
    """``main(argv)`` of a tool run on its own: the same options and errors as under ``python -m bot``."""
    parser = Parser(prog=prog, description=description)
    add_arguments(parser)
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as stop:  # --help (0) or a bad argument (2, already said)
        return int(stop.code or 0)
    return run_checked(prog, run, args)


def run_checked(prog: str, run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return int(run(args) or 0)
    except UsageError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return USAGE_ERROR


class Progress:
    """``done/total`` on one rewritten stderr line, at most a few times a second.

    Shown only when asked, or by default when stderr is a terminal (a log file or a pipe gets
    no progress lines mixed into it).
    """

    def __init__(
        self, total: int, what: str, *, enabled: bool | None = None, stream: IO[str] | None = None
    ) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = total
        self.what = what
        self.done = 0
        self.started = time.monotonic()
        self._shown_at = 0.0

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if self.enabled and (now - self._shown_at >= 0.25 or self.done >= self.total):
            self._shown_at = now
            share = self.done / self.total if self.total else 1.0
            self.stream.write(
                f"\r{self.done}/{self.total} {self.what} ({share:.0%}, {now - self.started:.0f} s)"
            )
            self.stream.flush()

    def finish(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: only when stderr is a terminal)",
    )
