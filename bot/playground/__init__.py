"""``python -m bot playground``: every game in a browser, no Discord application needed.

The real bot (the same client, cogs and tables) runs against the fake Discord of :mod:`bot.fakediscord`
inside this process, on SQLite in a folder of its own; a small web server on 127.0.0.1 shows what each
pretend person sees and lets them act (:mod:`.world` builds the server and the people, :mod:`.seen` turns
the fake's messages into what one person sees, :mod:`.acts` turns a browser's request into a person's
action, :mod:`.server` serves the page and the JSON API, :mod:`.command_line` is the command).

This is the only part of the bot that imports the fake: the bot that talks to Discord never loads it.
"""
