"""Upgrades while a process of the previous release still runs (issue 26): a rolling restart of shards.

The new release's migrations are applied (by a process of the new release starting) while a process
of the previous release stays connected to the same PostgreSQL database; that process goes on opening,
playing and settling games on the new schema. The previous release's code is taken from git
(``PREVIOUS_RELEASE``), so this runs its real SQL, not a copy of it.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage
from bot.storage.migrations import SCHEMA_VERSION, schema_version
from tests.bot.storage.databases import postgres_database

ROOT = Path(__file__).resolve().parents[3]
# The last release (schema 9, before seasons and spectator bets): the migrations since must be additive.
PREVIOUS_RELEASE = "53dad26"
CLIENT = Path(__file__).with_name("previous_release.py")


def previous_release(into: Path) -> Path:
    """The previous release's ``bot`` package, unpacked from git into ``into``; skips without history."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", PREVIOUS_RELEASE, "bot"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(
            f"the previous release ({PREVIOUS_RELEASE}) is not in this checkout's git history: {error}"
        )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "client.py").write_text(CLIENT.read_text())  # run from here: its own directory comes first
    return into


class OldProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def ask(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{line}\n".encode())
        await self.process.stdin.drain()
        answer = await asyncio.wait_for(self.process.stdout.readline(), timeout=60)
        if not answer:
            assert self.process.stderr is not None
            failed = (await self.process.stderr.read()).decode(errors="replace")
            raise AssertionError(f"the previous release's process ended: {failed[-2000:]}")
        return dict(json.loads(answer))


@pytest.mark.timeout(120)
async def test_a_process_of_the_previous_release_keeps_playing_while_the_new_one_migrates(
    postgres_url: str, tmp_path: Path
) -> None:
    old_tree = previous_release(tmp_path)
    async for database in postgres_database(postgres_url):
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(old_tree / "client.py"),
            cwd=old_tree,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(old_tree)},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        old = OldProcess(process)
        try:
            assert await old.ask(f"open {database.url} old-shard") == {"ok": True}
            before = await old.ask("play")
            assert before["ok"] and before["settled"], before
            assert (await database.fetch("SELECT MAX(version) FROM schema_version"))[0][0] < SCHEMA_VERSION

            async with await Storage.open(database.url) as new:  # a shard of the new release starts
                assert await schema_version(new._backend) == SCHEMA_VERSION
                during = await old.ask("play")  # the old shard, still running, on the new schema
                assert during["ok"] and during["settled"], during
                assert during["board"] == [[901, 60]] and during["ranked"] == 1
                stored = await new.load_game(during["game"])
                assert stored is not None and stored.status == "finished" and len(stored.actions) == 2
                assert [r.net for r in await new.game_results(during["game"])] == [30, -30]
        finally:
            if process.returncode is None:
                assert process.stdin is not None
                process.stdin.write(b"quit\n")
                await process.stdin.drain()
            await process.wait()
