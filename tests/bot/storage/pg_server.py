"""A throwaway PostgreSQL server for the tests, CI and the benchmark (standard library only).

    python3 tests/bot/storage/pg_server.py start DIR   # prints the database URL once it accepts connections
    python3 tests/bot/storage/pg_server.py stop DIR    # stops it and deletes DIR

It runs the installed server binaries (Debian: ``/usr/lib/postgresql/<version>/bin``; or
``PG_BIN``) on a data folder in DIR, listening on 127.0.0.1 only, on a free port, with trust
logins for the ``postgres`` user. initdb refuses to run as root, so as root every server command
runs as the ``postgres`` system user (DIR is handed to it).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATABASE = "bot_test"
SERVER_USER = "postgres"


class PgServerError(RuntimeError):
    """The server could not be started (the message says why, with the server's own log)."""


def find_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL server binaries, or None."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3].split(".")[0])
    )
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", SERVER_USER, "--", *command]
    return ["su", SERVER_USER, "-s", "/bin/sh", "-c", " ".join(_quote(part) for part in command)]


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _run(command: list[str], what: str, timeout: float = 120) -> None:
    done = subprocess.run(
        _as_server_user(command), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if done.returncode != 0:
        raise PgServerError(
            f"{what} failed (exit {done.returncode}): {done.stderr.strip() or done.stdout.strip()}"
        )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(folder: Path, *, durable: bool = False) -> str:
    """Create and start a server in ``folder`` (made if missing); return the URL of its test database.

    ``durable=False`` (tests): no fsync, as nothing in a throwaway server needs to survive a power cut.
    """
    bindir = find_bin()
    if bindir is None or not (bindir / "initdb").exists():
        raise PgServerError("PostgreSQL is not installed (no initdb found; apt-get install postgresql)")
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, SERVER_USER)
        folder.chmod(0o700)
    _run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-locale",
        ],
        "initdb",
    )
    options = ["listen_addresses = '127.0.0.1'", f"unix_socket_directories = '{folder}'"]
    if not durable:
        options += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]
    last_error: PgServerError | None = None
    for _attempt in range(5):
        port = _free_port()
        with open(data / "postgresql.auto.conf", "a") as conf:
            conf.write("\n".join([*options, f"port = {port}"]) + "\n")
        try:
            _run(
                [
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-l",
                    str(folder / "server.log"),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ],
                "starting the server",
            )
        except PgServerError as error:
            log = folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            last_error = PgServerError(f"{error}\n{tail}")
            continue
        (folder / "port").write_text(str(port))
        _run(
            [str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", DATABASE],
            "createdb",
        )
        return url(folder)
    raise last_error or PgServerError("the server did not start")


def url(folder: Path) -> str:
    port = (folder / "port").read_text().strip()
    return f"postgresql://postgres@127.0.0.1:{port}/{DATABASE}"


def stop(folder: Path, *, remove: bool = True) -> None:
    """Stop the server in ``folder`` (fast: open connections are cut) and delete the folder."""
    bindir = find_bin()
    data = folder / "data"
    if bindir is not None and (data / "postmaster.pid").exists():
        with contextlib.suppress(PgServerError, subprocess.TimeoutExpired):
            _run(
                [str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"], "stopping"
            )
    if remove:
        shutil.rmtree(folder, ignore_errors=True)


def restart(folder: Path) -> None:
    """Start again a server that ``stop(folder, remove=False)`` stopped, on the same port."""
    bindir = find_bin()
    assert bindir is not None
    data = folder / "data"
    _run(
        [
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        ],
        "restarting the server",
    )


def new_folder() -> Path:
    """A fresh folder under the system's temp dir (which the server user can reach, unlike pytest's)."""
    return Path(tempfile.mkdtemp(prefix="racing-bets-pg-"))


def wait_until_accepting(port: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise PgServerError(f"nothing accepts connections on 127.0.0.1:{port}")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: pg_server.py start|stop DIR", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    try:
        if argv[0] == "start":
            print(start(folder))
        else:
            stop(folder)
    except (PgServerError, OSError, subprocess.TimeoutExpired) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
