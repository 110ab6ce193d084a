"""The fake Discord lives in the package (bot/fakediscord) so that the tests, the benches and the
playground share it; the bot itself, when it runs against the real Discord, must never load it."""

from __future__ import annotations

import subprocess
import sys

from bot.client import EXTENSIONS


def test_the_running_bot_and_its_cogs_never_import_the_fake_discord() -> None:
    modules = ", ".join(["bot.main", "bot.cli", "bot.client", *EXTENSIONS])
    code = f"import sys, importlib; [importlib.import_module(m) for m in '{modules}'.split(', ')]; print(sorted(m for m in sys.modules if m.startswith('bot.fakediscord')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
