"""Finding English in what a Portuguese-speaking player sees.

The English vocabulary is every word of every message the bot can show (the catalogs' source text)
less the words the Portuguese translations use themselves (``total``, ``normal``, names kept as
they are) and the names a test says are allowed (players, mascots, horses). A word of that
vocabulary in a message shown to a Portuguese reader is English that leaked: a message not marked
for translation, or one the catalog lacks.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from bot.i18n.catalogs import load
from bot.i18n.tool import everything

WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
# Things in a message that are not words a person reads: mentions, custom emojis, timestamps,
# links, file names, ids in code spans.
NOT_WORDS = re.compile(
    r"<a?:\w+:\d+>|<[@#&!]+\d+>|<t:\d+(:\w)?>|https?://\S+|\b[\w-]+\.(png|gif|webp|jpg|jpeg)\b|:\w+:"
)


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text) if len(w) >= 2}


def _messages() -> dict:
    """``everything()`` walks the slash commands with ``asyncio.run``, which an async test's running
    loop forbids in its own thread: there it runs in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return everything()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(everything).result()


@cache
def vocabulary() -> frozenset[str]:
    english: set[str] = set()
    for item in _messages().values():
        for message in item.id if isinstance(item.id, tuple) else (item.id,):
            english |= _words(re.sub(r"\{[^}]*\}", " ", message))
    portuguese: set[str] = set()
    for message in load("pt-BR").catalog:
        for text in message.string if isinstance(message.string, tuple | list) else (message.string,):
            portuguese |= _words(re.sub(r"\{[^}]*\}", " ", text or ""))
    return frozenset(english - portuguese)


def english_in(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words in ``text`` (in order, once each), names in ``allowed`` excepted."""
    allow = set()
    for name in allowed:
        allow |= _words(name)
    seen: list[str] = []
    for word in WORD.findall(NOT_WORDS.sub(" ", text)):
        lowered = word.lower()
        if len(lowered) >= 2 and lowered in vocabulary() and lowered not in allow and lowered not in seen:
            seen.append(lowered)
    return seen
