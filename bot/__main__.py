"""``python -m bot``: run the bot; ``python -m bot demo|sim GAME ...``: offline tools."""

from bot.cli import main

raise SystemExit(main())
