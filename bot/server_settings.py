"""What a server's admins may change with ``/config``: one declaration per setting, read with defaults.

A new setting is one ``declare(Setting(...))`` line in this module: ``/config show`` lists it,
``/config set`` offers it (its name is a choice, its value is checked by ``parse``) and
``/config reset`` puts it back to its default. Values live in the storage's server-settings
table (one row per changed setting), so several bot processes sharing a database agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.i18n import N_, _

if TYPE_CHECKING:
    from bot.storage import Storage


@dataclass(frozen=True)
class Setting:
    key: str
    # Shown by /config show and as the choice's name in /config set (at most 100 characters); marked
    # (``N_``), translated where shown.
    description: str
    default: int | str | bool
    choices: tuple[str, ...] = ()  # a text setting's allowed values; empty for a number or yes/no
    minimum: int | None = None
    maximum: int | None = None
    # What each choice means, for the admin's picker (``/config set``'s suggestions); marked. The value
    # typed stays the English key (``thread``), so a setting reads the same in every language.
    meanings: tuple[tuple[str, str], ...] = ()
    # A channel or a role of the server ("channel", "role"; "" for plain values): stored as its id (text),
    # "" for none. ``/config set`` accepts a mention, an id or a name (the cog finds the name).
    refers_to: str = ""

    def parse(self, text: str) -> int | str | bool:
        """The value ``text`` stands for; raises ValueError with a sentence a server admin can act on,
        in the admin's language."""
        text = text.strip()
        if self.refers_to:
            return _reference(self, text)
        if isinstance(self.default, bool):
            lowered = text.lower()
            if lowered in ("yes", "on", "true", "1", _("yes").lower()):
                return True
            if lowered in ("no", "off", "false", "0", _("no").lower()):
                return False
            raise ValueError(_("`{setting}` is yes or no.", setting=self.key))
        if isinstance(self.default, int):
            try:
                number = int(text)
            except ValueError:
                raise ValueError(_("`{setting}` is a whole number.", setting=self.key)) from None
            low = self.minimum if self.minimum is not None else -(2**31)
            high = self.maximum if self.maximum is not None else 2**31
            if not low <= number <= high:
                raise ValueError(
                    _("`{setting}` is between {low} and {high}.", setting=self.key, low=low, high=high)
                )
            return number
        if self.choices and text.lower() not in self.choices:
            raise ValueError(
                _("`{setting}` is one of: {choices}.", setting=self.key, choices=", ".join(self.choices))
            )
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
        if self.refers_to:
            if not value:
                return _("none")
            return f"<#{value}>" if self.refers_to == "channel" else f"<@&{value}>"
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return str(value)

    def meaning(self, value: str) -> str:
        """What a choice means, in the reader's language ("" if it goes without saying)."""
        found = dict(self.meanings).get(value, "")
        return _(found) if found else ""


def _reference(setting: Setting, text: str) -> str:
    """A channel's or role's id from a mention (``<#1>``, ``<@&1>``) or an id; "" for none."""
    if text.lower() in ("", "none", "off", "-", _("none").lower()):
        return ""
    digits = text.removeprefix("<#").removeprefix("<@&").removesuffix(">")
    if digits.isdigit() and 15 <= len(digits) <= 21:
        return digits
    if setting.refers_to == "channel":
        raise ValueError(_("`{setting}` is a channel (pick it with #), or none.", setting=setting.key))
    raise ValueError(_("`{setting}` is a role (pick it with @), or none.", setting=setting.key))


SETTINGS: dict[str, Setting] = {}


def declare(setting: Setting) -> Setting:
    if setting.key in SETTINGS:
        raise ValueError(f"setting {setting.key!r} is declared twice")
    SETTINGS[setting.key] = setting
    return setting


MAX_HOSTED = declare(
    Setting(
        "max_hosted_tables",
        N_("Most open games one member may host at once (games they left still count)"),
        2,
        minimum=1,
        maximum=25,
    )
)
MAX_GAMES = declare(
    Setting(
        "max_running_games",
        N_("Most games open at once in this server (lobbies count)"),
        10,
        minimum=1,
        maximum=200,
    )
)

WHERE = declare(
    Setting(
        "where",
        N_("Where a game is played: in a thread of its own, or in the channel"),
        "thread",
        choices=("thread", "channel"),
        meanings=(("thread", N_("in a thread of its own")), ("channel", N_("in the channel"))),
    )
)


LANGUAGE = declare(
    Setting(
        "language",
        N_("The language of the bot's messages in this server (auto: the server's Discord language)"),
        "auto",
        choices=("auto", "en", "pt-br"),
        # Each language named in itself, as a reader looking for their own expects.
        meanings=(
            ("auto", N_("the server's Discord language")),
            ("en", "English"),
            ("pt-br", "Português do Brasil"),
        ),
    )
)


SEASON = declare(
    Setting(
        "season",
        N_("How long a season of the boards lasts; at its end, a recap (off: no seasons)"),
        "monthly",
        choices=("monthly", "weekly", "quarterly", "off"),
        meanings=(
            ("monthly", N_("from the 1st of each month (UTC)")),
            ("weekly", N_("from each Monday (UTC)")),
            ("quarterly", N_("from January, April, July and October 1st (UTC)")),
            ("off", N_("no seasons, no recaps")),
        ),
    )
)

RECAP_CHANNEL = declare(
    Setting(
        "recap_channel",
        N_("Where each season's recap is posted (none: the channel of the season's last game)"),
        "",
        refers_to="channel",
    )
)

CHAMPION_ROLE = declare(
    Setting(
        "champion_role",
        N_("A role given to each season's champion, moved from the last one (none: no role)"),
        "",
        refers_to="role",
    )
)


async def server_value(storage: Storage, guild_id: int, setting: Setting) -> int | str | bool:
    """One setting of one server, as it applies now (raises StorageError like any read)."""
    return setting.read(await storage.get_server_settings(guild_id))
