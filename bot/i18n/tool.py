"""Keeping the catalogs in step with the code: ``python -m bot.i18n.tool check|update [language]``.

``check`` lists every message in the code (and every slash-command string) that a language has no
translation for, and every translation whose placeholders differ; it exits 1 if there is any.
``update`` adds the missing messages (untranslated) to the right file and drops the ones the code no
longer has, so a translator only fills in ``msgstr`` lines. A message goes to the file of the area
whose code first uses it: ``<game>.po`` for a game's engine and cog, ``commands.po`` for slash
commands, ``common.po`` for the rest.
"""

from __future__ import annotations

import asyncio
import datetime
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalogs import load
from bot.i18n.languages import DEFAULT, LANGUAGES, Language, babel_locale
from bot.paths import ROOT

STAMP = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
HEADER = """\
# {language}: the messages of {area}.
# Fill in each msgstr (keep every {{placeholder}}), then run: python -m bot.i18n.tool check
# Game terms are chosen once, in docs/glossary.pt-BR.md."""
KEYWORDS = {"_": None, "_n": (1, 2), "_p": ((1, "c"), 2), "N_": None}
SOURCES = ("bot", "cogs")


@dataclass
class Found:
    """One message the code shows: its English (a pair for plurals), context and where it is used."""

    id: str | tuple[str, ...]
    context: str | None
    places: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.id[0] if isinstance(self.id, tuple) else self.id

    def area(self, games: tuple[str, ...]) -> str:
        if self.context in ("command", "command name"):
            # A game's own commands are translated with the game; the shared ones together.
            groups = {place.split("/")[1] for place in self.places if place.startswith("/")}
            return groups.pop() if len(groups) == 1 and next(iter(groups)) in games else "commands"
        areas = []
        for place in sorted(self.places):
            parts = Path(place).parts
            if len(parts) > 2 and parts[0] in ("bot", "cogs") and parts[:2] != ("bot", "i18n"):
                game = parts[2] if parts[1] == "games" else parts[1]
                areas.append(game if game in games else "common")
            else:
                areas.append("common")
        return "common" if "common" in areas else areas[0]


def game_kinds() -> tuple[str, ...]:
    from bot.games.catalog import ENTRIES

    return tuple(entry.kind for entry in ENTRIES)


def from_code() -> dict[tuple[str | None, str], Found]:
    """Every marked message in the bot's source."""
    found: dict[tuple[str | None, str], Found] = {}
    for source in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS, strip_comment_tags=True
        ):
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            ident = tuple(message) if isinstance(message, tuple | list) else message
            item = Found(ident, context)
            item = found.setdefault(item.key, item)
            item.places.append(f"{source}/{filename}:{lineno}")
    return found


def group_of(data: object) -> str:
    """The top command a command string belongs to (``hotstreak`` for ``/hotstreak start``'s options)."""
    from discord.app_commands import Parameter

    command = data.command if isinstance(data, Parameter) else data
    root = getattr(command, "root_parent", None) or command
    return str(getattr(root, "name", "") or "")


def from_commands() -> dict[tuple[str | None, str], Found]:
    """Every string of every slash command, as discord.py hands them to a translator."""
    import discord
    from discord import app_commands

    from bot.client import EXTENSIONS, RaceBot
    from bot.config import Settings
    from bot.i18n.commands import context_for

    found: dict[tuple[str | None, str], Found] = {}
    walking = [""]  # the top command being walked: a choice's context names only the choice itself

    class Recorder(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            item = Found(string.message, context_for(context.location))
            group = walking[0] if isinstance(context.data, app_commands.Choice) else group_of(context.data)
            found.setdefault(item.key, item).places.append(f"/{group}/{context.location.name}")
            return None

    async def walk() -> None:
        bot = RaceBot(Settings(token="-"))
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        recorder = Recorder()
        for command in bot.tree.get_commands():
            walking[0] = command.name
            await command.get_translated_payload(bot.tree, recorder)
        await bot.http.close()

    asyncio.run(walk())
    return found


def everything() -> dict[tuple[str | None, str], Found]:
    found = from_code()
    for key, item in from_commands().items():
        found.setdefault(key, item).places.extend(item.places)
    return found


@dataclass
class Report:
    missing: list[Found]
    problems: list[str]
    obsolete: list[tuple[str | None, str]]


def check(language: Language, found: dict[tuple[str | None, str], Found] | None = None) -> Report:
    found = everything() if found is None else found
    loaded = load(language)
    missing = []
    for key, item in found.items():
        message = loaded.catalog.get(key[1], context=key[0])
        if message is None:
            missing.append(item)
            continue
        if isinstance(item.id, tuple) != isinstance(message.id, tuple | list):
            loaded.problems.append(f"{key[1]!r}: plural in one place and not in the other")
    present = {
        (m.context, m.id[0] if isinstance(m.id, tuple | list) else m.id) for m in loaded.catalog if m.id
    }
    obsolete = sorted(present - set(found), key=lambda k: (k[0] or "", k[1]))
    return Report(missing, loaded.problems, obsolete)


def _files(language: Language) -> Iterator[Path]:
    folder = ROOT / "assets" / "locales" / babel_locale(language)
    folder.mkdir(parents=True, exist_ok=True)
    yield from sorted(folder.glob("*.po"))


def update(language: Language) -> None:
    found = everything()
    games = game_kinds()
    folder = ROOT / "assets" / "locales" / babel_locale(language)
    catalogs: dict[str, Catalog] = {}
    for path in _files(language):
        with path.open("rb") as handle:
            catalogs[path.stem] = read_po(handle, locale=babel_locale(language))
    placed: set[tuple[str | None, str]] = set()
    for catalog in catalogs.values():
        for message in list(catalog):
            if not message.id:
                continue
            key = (message.context, message.id[0] if isinstance(message.id, tuple | list) else message.id)
            if key not in found or key in placed:
                catalog.delete(message.id, context=message.context)
                continue
            placed.add(key)
            message.locations = []
    for key, item in found.items():
        if key in placed:
            continue
        area = item.area(games)
        if area not in catalogs:
            catalogs[area] = Catalog(
                locale=babel_locale(language),
                project="racing-bets-bot",
                version="1",
                creation_date=STAMP,  # fixed, so an update changes a file only where its messages change
                revision_date=STAMP,
                fuzzy=False,
                header_comment=HEADER.format(language=LANGUAGES[language][1], area=area),
                last_translator="racing-bets-bot",
                language_team=LANGUAGES[language][1],
                msgid_bugs_address="-",
            )
        catalog = catalogs[area]
        plural = isinstance(item.id, tuple)
        catalog.add(item.id, ("",) * catalog.num_plurals if plural else "", context=item.context)
    for area, catalog in catalogs.items():
        with (folder / f"{area}.po").open("wb") as handle:
            write_po(handle, catalog, width=0, omit_header=False, no_location=True, sort_output=False)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    languages = [lang for lang in LANGUAGES if lang != DEFAULT]
    if len(argv) > 1:
        languages = [cast(Language, argv[1])]  # as named on the command line
    if command == "update":
        for language in languages:
            update(language)
        command = "check"
    if command != "check":
        print(__doc__)
        return 2
    failed = False
    found = everything()
    for language in languages:
        report = check(language, found)
        for item in report.missing:
            print(f"{language}: no translation for {item.key[1]!r} ({item.places[0]})")
        for problem in report.problems:
            print(f"{language}: {problem}")
        failed = failed or bool(report.missing or report.problems)
        print(f"{language}: {len(found) - len(report.missing)} of {len(found)} messages translated")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
