"""``python -m bot``: run the bot; ``python -m bot demo|sim GAME ...``: offline tools."""

import os
import sys

from bot.cli import main

try:
    code = main()
except BrokenPipeError:
    # The reader went away (``... | head``): not an error. Point stdout at /dev/null so the
    # interpreter's final flush does not fail again.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 0
raise SystemExit(code)
