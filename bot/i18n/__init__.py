"""Every word the bot shows, in the language of whoever reads it.

Messages are written in English in the code, marked with ``_`` (or ``_n`` for counts, ``_p`` where one
English word means two things), and translated from gettext catalogs in ``assets/locales/<lang>/*.po``.
Which language a message is in is not passed around: it is the *current language* of the code that
builds it (a context variable), set where the reader is known — the table speaks the server's language
in public and each player's own in their DMs; a click is answered in the clicker's locale. Pure engine
code (narration, pictures) only ever reads it, so it stays deterministic given the language.

Placeholders are ``str.format`` names (``_("{name} wins", name=...)``): a translation may move them but
must keep the same ones (``tests/bot/i18n`` checks every catalog).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.i18n.catalogs import translations
from bot.i18n.languages import DEFAULT, LANGUAGES, Language, from_locale

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "Language",
    "N_",
    "_",
    "_n",
    "_p",
    "current",
    "from_locale",
    "in_language",
    "speaking",
    "use",
]

_current: ContextVar[Language] = ContextVar("language", default=DEFAULT)

T = TypeVar("T")


def current() -> Language:
    return _current.get()


@contextlib.contextmanager
def speaking(language: Language) -> Iterator[None]:
    """Everything built inside speaks ``language``."""
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)


def use(language: Language) -> None:
    """The language for the rest of this task (a click's handler, a table's loop)."""
    _current.set(language)


@dataclass(frozen=True)
class InLanguage(Generic[T]):
    """``work`` to be run later (in a thread, a worker process, after a pause), still speaking
    ``language``. A class, not a closure, so it pickles: a picture drawn in a worker process
    (``bot.workers``) is drawn in the language of the message it is for."""

    language: Language
    work: Callable[[], T]

    def __call__(self) -> T:
        with speaking(self.language):
            return self.work()


def in_language(language: Language, work: Callable[[], T]) -> Callable[[], T]:
    return InLanguage(language, work)


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``values``."""
    text = translations(_current.get()).gettext(message)
    return text.format(**values) if values else text


def _n(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """A message about ``n`` things, in the plural form the current language uses for ``n``;
    ``{n}`` is ``n`` written the language's way (``1.200`` in Portuguese)."""
    from bot.i18n.formatting import number

    text = translations(_current.get()).ngettext(singular, plural, n)
    return text.format(**{"n": number(n), **values})


def _p(context: str, message: str, /, **values: Any) -> str:
    """``message`` where the same English means different things (a command name, a button)."""
    text = translations(_current.get()).pgettext(context, message)
    return text.format(**values) if values else text


def N_(message: str, /) -> str:
    """Marks a message kept in a constant, translated with ``_`` where it is shown."""
    return message
