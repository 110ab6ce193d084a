"""What a server's admins may change with ``/config``: one declaration per setting, read with defaults.

A new setting is one ``declare(Setting(...))`` line in this module: ``/config show`` lists it,
``/config set`` offers it (its name is a choice, its value is checked by ``parse``) and
``/config reset`` puts it back to its default. Values live in the storage's server-settings
table (one row per changed setting), so several bot processes sharing a database agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.storage import Storage


@dataclass(frozen=True)
class Setting:
    key: str
    description: str  # shown by /config show and as the choice's name in /config set (at most 100 characters)
    default: int | str | bool
    choices: tuple[str, ...] = ()  # a text setting's allowed values; empty for a number or yes/no
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str) -> int | str | bool:
        """The value ``text`` stands for; raises ValueError with a sentence a server admin can act on."""
        text = text.strip()
        if isinstance(self.default, bool):
            lowered = text.lower()
            if lowered in ("yes", "on", "true", "1"):
                return True
            if lowered in ("no", "off", "false", "0"):
                return False
            raise ValueError(f"`{self.key}` is yes or no.")
        if isinstance(self.default, int):
            try:
                number = int(text)
            except ValueError:
                raise ValueError(f"`{self.key}` is a whole number.") from None
            low = self.minimum if self.minimum is not None else -(2**31)
            high = self.maximum if self.maximum is not None else 2**31
            if not low <= number <= high:
                raise ValueError(f"`{self.key}` is between {low} and {high}.")
            return number
        if self.choices and text.lower() not in self.choices:
            raise ValueError(f"`{self.key}` is one of: {', '.join(self.choices)}.")
        return text.lower() if self.choices else text[:100]

    def read(self, stored: dict[str, Any]) -> int | str | bool:
        """The stored value if it is still valid (a setting's range may have changed since), else the default."""
        if self.key not in stored:
            return self.default
        try:
            return self.parse(str(stored[self.key]))
        except ValueError:
            return self.default

    def show(self, value: int | str | bool) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)


SETTINGS: dict[str, Setting] = {}


def declare(setting: Setting) -> Setting:
    if setting.key in SETTINGS:
        raise ValueError(f"setting {setting.key!r} is declared twice")
    SETTINGS[setting.key] = setting
    return setting


MAX_HOSTED = declare(
    Setting(
        "max_hosted_tables",
        "Most open games one member may host at once (games they left still count)",
        2,
        minimum=1,
        maximum=25,
    )
)
MAX_GAMES = declare(
    Setting(
        "max_running_games",
        "Most games open at once in this server (lobbies count)",
        10,
        minimum=1,
        maximum=200,
    )
)

WHERE = declare(
    Setting(
        "where",
        "Where a game is played: in a thread of its own, or in the channel",
        "thread",
        choices=("thread", "channel"),
    )
)


LANGUAGE = declare(
    Setting(
        "language",
        "The language of the bot's messages in this server (auto: the server's Discord language)",
        "auto",
        choices=("auto", "en", "pt-br"),
    )
)


async def server_value(storage: Storage, guild_id: int, setting: Setting) -> int | str | bool:
    """One setting of one server, as it applies now (raises StorageError like any read)."""
    return setting.read(await storage.get_server_settings(guild_id))
