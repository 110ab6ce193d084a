"""Loading the gettext catalogs: every ``assets/locales/<lang>/*.po`` of a language, merged.

A language's messages are split into a few ``.po`` files by area (the bot's shared words, each game)
so they stay readable; the split means nothing at run time. Catalogs are read with Babel (no
compiled ``.mo`` files to forget to rebuild) and checked as they load: a translation whose
placeholders differ from its English is dropped, with an error in the log naming the file and the
message, so a typo in a catalog shows that message in English instead of failing the reader's click.
"""

from __future__ import annotations

import gettext
import io
import logging
import string
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n.languages import DEFAULT, Language, babel_locale
from bot.paths import ASSETS

log = logging.getLogger(__name__)

LOCALES = ASSETS / "locales"


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills (format specs and conversions ignored)."""
    names: set[str] = set()
    try:
        for _literal, name, _spec, _conversion in string.Formatter().parse(text):
            if name is not None:
                names.add(name.split(".")[0].split("[")[0])
    except ValueError:
        names.add("<unbalanced braces>")
    return names


def folder(language: Language) -> Path:
    return LOCALES / babel_locale(language)


@dataclass
class Loaded:
    catalog: Catalog
    problems: list[str] = field(default_factory=list)


def _key(message: Message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return message.context, msgid


def _problem(message: Message) -> str | None:
    """Why this translation can't be used, or None."""
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    if not any(strings):
        return None  # untranslated: English is shown, and the catalog test lists it
    wanted = set().union(*(placeholders(i) for i in ids)) - {"n"}
    for text in strings:
        if not text:
            return "a plural form is empty"
        got = placeholders(text) - {"n"}
        if got != wanted:
            return f"placeholders {sorted(got)} differ from the English {sorted(wanted)}"
    return None


def load(language: Language, where: Path | None = None) -> Loaded:
    """Every ``.po`` file of ``language`` merged into one catalog, bad translations left out."""
    merged = Catalog(locale=babel_locale(language))
    problems: list[str] = []
    base = where if where is not None else folder(language)
    for path in sorted(base.glob("*.po")):
        with path.open("rb") as handle:
            try:
                catalog = read_po(handle, locale=babel_locale(language))
            except Exception as error:  # a catalog that can't be read is one error, not a dead bot
                problems.append(f"{path.name}: unreadable ({error})")
                continue
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            problem = _problem(message)
            if problem is not None:
                problems.append(f"{path.name}: {_key(message)[1]!r}: {problem}")
                continue
            if not any(message.string if isinstance(message.string, tuple | list) else (message.string,)):
                continue
            existing = merged.get(message.id, context=message.context)
            if existing is not None and existing.string != message.string:
                problems.append(f"{path.name}: {_key(message)[1]!r} is translated differently in two files")
                continue
            merged.add(message.id, message.string, context=message.context)
    return Loaded(merged, problems)


@cache
def translations(language: Language) -> gettext.NullTranslations:
    """The language's messages; English (the messages as written) has no catalog."""
    if language == DEFAULT:
        return gettext.NullTranslations()
    loaded = load(language)
    for problem in loaded.problems:
        log.error("Catalog %s: %s (shown in English)", language, problem)
    buffer = io.BytesIO()
    write_mo(buffer, loaded.catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
