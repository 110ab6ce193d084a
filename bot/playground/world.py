"""The pretend Discord the playground runs the bot in: one server with a games channel, and the people."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field
from pathlib import Path

from bot.client import PERMISSIONS, RaceBot
from bot.config import Settings
from bot.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, running_bot
from bot.tables.timing import Timing

#: The people when ``--people`` is not given: three, the fewest that show secret picks and betting well.
DEFAULT_PEOPLE = ("alice", "bob", "carol")
LANGUAGES = {"en": "en-US", "pt-BR": "pt-BR"}  # --language -> the Discord locale the pretend clients send


class BadPeople(ValueError):
    """``--people`` names nobody, a name twice, or a name Discord would refuse."""


def people_from(text: str) -> list[str]:
    """``alice,bob,carol`` -> the names; :class:`BadPeople` saying what is wrong."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise BadPeople("name at least one person, e.g. --people alice,bob,carol")
    if len({n.casefold() for n in names}) != len(names):
        raise BadPeople("each person needs a name of their own")
    for name in names:
        if len(name) > 32:  # Discord's limit on a user name
            raise BadPeople(f"{name[:32]}...: a name has at most 32 characters")
    return names


def id_number(text: object) -> int:
    """An id as the page sends it (a string of digits) -> the number; -1, which nothing has, for anything else."""
    digits = str(text)
    return int(digits) if digits.isascii() and digits.isdigit() else -1


@dataclass
class World:
    """The fake Discord with one server, its games channel and the people in it (the first may manage the
    server, as whoever installed the bot would)."""

    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    people: list[FakeUser] = field(default_factory=list)

    def person(self, user_id: object) -> FakeUser | None:
        """One of the people, by id (as the page sends it: a string or a number); None for anyone else."""
        return next((p for p in self.people if p.id == id_number(user_id)), None)


def build_world(
    fake: FakeDiscord, names: list[str], language: str, dms_closed: Collection[str] = ()
) -> World:
    locale = LANGUAGES[language]
    guild = fake.add_guild("Playground", bot_permissions=PERMISSIONS.value)
    guild.preferred_locale = locale
    games = guild.add_text_channel("games", topic="Start a game with /hotstreak, /horserace or /downforce")
    world = World(fake, guild, games)
    for number, name in enumerate(names):
        person = fake.add_user(name, guild=guild, manage_guild=number == 0, dms_open=name not in dms_closed)
        person.locale = locale
        world.people.append(person)
    return world


@contextlib.asynccontextmanager
async def running_world(
    folder: Path,
    names: list[str],
    language: str,
    *,
    dms_closed: Collection[str] = (),
    timing: Timing | None = None,
) -> AsyncIterator[World]:
    """The fake Discord, its world and the real bot on it, on SQLite in ``folder``, until the block ends.

    The settings are built here, never read from the environment or ``.env``: whatever DISCORD_TOKEN,
    DATABASE_URL, DISCORD_API_BASE or DISCORD_GATEWAY_URL say, the playground talks only to its own fake
    and writes only to ``folder``. ``dms_closed``: people who take no DMs from the bot (they play their
    secret picks through the channel's "My hand" button, as such players do on Discord)."""
    async with FakeDiscord(bot_name="Racing Bets") as fake:
        world = build_world(fake, names, language, dms_closed)
        settings = Settings(
            token=fake.token,
            database_url=str(folder / "playground.db"),
        )
        async with running_bot(fake, RaceBot(settings, timing=timing), timeout=30.0):
            yield world
