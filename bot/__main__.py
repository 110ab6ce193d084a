"""``python -m bot``: run the bot; ``python -m bot demo|sim GAME ...``: offline tools."""

import os
import sys

from bot.cli import main


def _main() -> int:
    try:
        return main()
    except BrokenPipeError:
        # The reader went away (``... | head``): not an error. Point stdout at /dev/null so the
        # interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


# Guarded: a spawned worker process (the simulators' pool) imports this module again as
# ``__mp_main__``, and must not run the command line a second time.
if __name__ == "__main__":
    raise SystemExit(_main())
