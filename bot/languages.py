"""Which language each reader gets: the server's for public messages, each member's own in private.

A server's language is its ``/config set language`` value, else ("auto") the locale the server
prefers (Discord lets Community servers change it). A member's is the locale of their Discord client,
learnt from each of their interactions; the bot sends some DMs before a member has clicked anything,
and after a restart it has forgotten them: those go in the server's language. Ruling: members'
locales are kept in memory only (a few bytes each, the most recent 100,000), since the next click
tells the bot again.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from bot import i18n
from bot.i18n import Language, from_locale
from bot.server_settings import LANGUAGE
from bot.storage import StorageError

if TYPE_CHECKING:
    import discord

    from bot.storage import Storage

log = logging.getLogger(__name__)

REMEMBERED = 100_000
FRESH_SECONDS = 60.0  # another process may have changed a server's setting: read it again after this


class Languages:
    def __init__(self, client: Any) -> None:
        self._client = client
        self._settings: dict[int, tuple[str, float]] = {}  # guild -> (setting value, when read)
        self._guild_locales: dict[int, Language] = {}
        self._people: OrderedDict[int, Language] = OrderedDict()

    @property
    def _storage(self) -> Storage | None:
        return getattr(self._client, "storage", None)

    # --- servers -------------------------------------------------------------

    def server(self, guild_id: int | None) -> Language:
        """The language of this server's public messages (no database read: see ``refresh``)."""
        if guild_id is None:
            return i18n.DEFAULT
        setting = self._settings.get(guild_id, ("auto", 0.0))[0]
        if setting != "auto":
            return from_locale(setting)
        if guild_id in self._guild_locales:
            return self._guild_locales[guild_id]
        guild = self._client.get_guild(guild_id) if hasattr(self._client, "get_guild") else None
        return from_locale(getattr(guild, "preferred_locale", None))

    async def refresh(self, guild_id: int | None, *, force: bool = False) -> Language:
        """Read the server's setting again if it may be stale; a storage error keeps what we had."""
        if guild_id is None:
            return i18n.DEFAULT
        known = self._settings.get(guild_id)
        if force or known is None or time.monotonic() - known[1] > FRESH_SECONDS:
            storage = self._storage
            if storage is not None:
                try:
                    stored = await storage.get_server_settings(guild_id)
                except StorageError:
                    log.warning("Could not read the language of server %s; keeping the last known", guild_id)
                else:
                    self._settings[guild_id] = (str(LANGUAGE.read(stored)), time.monotonic())
        return self.server(guild_id)

    def set_server(self, guild_id: int, value: str) -> None:
        """``/config`` changed it in this process: no need to wait for the next read."""
        self._settings[guild_id] = (value, time.monotonic())

    # --- people --------------------------------------------------------------

    def person(self, user_id: int | None, guild_id: int | None) -> Language:
        """A member's language for a DM: their client's, else the server's."""
        if user_id is not None and user_id in self._people:
            return self._people[user_id]
        return self.server(guild_id)

    def forget(self, user_id: int) -> None:
        """Forget a member's language (``/privacy erase``)."""
        self._people.pop(user_id, None)

    def hear(self, interaction: discord.Interaction) -> Language:
        """Learn from an interaction (the member's locale, the server's) and answer it in the member's
        language for the rest of its handling."""
        language = from_locale(interaction.locale)
        user = getattr(interaction, "user", None)
        if user is not None:
            self._people[user.id] = language
            self._people.move_to_end(user.id)
            while len(self._people) > REMEMBERED:
                self._people.popitem(last=False)
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._guild_locales[interaction.guild_id] = from_locale(interaction.guild_locale)
        i18n.use(language)
        return language
