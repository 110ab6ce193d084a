"""Who sits where: a Discord user or an AI, as stored with the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import N_, _

AI_LEVELS = ("easy", "normal")
AI_LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal")}
AI_SUFFIX = " (AI)"  # stored with an AI seat's name; shown in the reader's language (``Seat.shown``)


@dataclass
class Seat:
    name: str
    user_id: int | None = None
    ai: str | None = None  # an AI level; a human who left is replaced by "normal"
    left_user_id: int | None = None  # who sat here before an AI took over

    @property
    def is_ai(self) -> bool:
        return self.ai is not None

    @property
    def owner_id(self) -> int | None:
        """Whose result this seat is. A player who left still owns the seat an AI finished for them,
        so leaving a losing game does not hide the loss from the leaderboard."""
        return self.user_id if self.user_id is not None else self.left_user_id

    @property
    def owner_name(self) -> str:
        return self.name.removesuffix(AI_SUFFIX) if self.left_user_id is not None else self.name

    @property
    def display_name(self) -> str:
        """The name in the reader's language: an AI seat's stored " (AI)" is translated ("Ada (IA)")."""
        return ai_named(self.name) if self.is_ai else self.name

    @property
    def shown(self) -> str:
        """The name as message text: names are display names, so markdown and mentions are escaped
        (a player called ``**bold**`` or ``@everyone`` is shown as typed and pings nobody)."""
        return shown(self.display_name)

    def mention(self) -> str:
        return f"<@{self.user_id}>" if self.user_id else f"**{self.shown}**"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "user_id": self.user_id, "ai": self.ai, "left_user_id": self.left_user_id}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            name=data["name"],
            user_id=data.get("user_id"),
            ai=data.get("ai"),
            left_user_id=data.get("left_user_id"),
        )


AI_NAMES = (
    "Ada",
    "Babbage",
    "Turing",
    "Hopper",
    "Lovelace",
    "Knuth",
    "Dijkstra",
    "Liskov",
    "Hamilton",
    "Shannon",
)


def ai_seat(taken: list[Seat], level: str = "normal") -> Seat:
    names = {seat.name for seat in taken}
    name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in names), f"Bot {len(taken) + 1} (AI)")
    return Seat(name=name, ai=level)


def ai_level_name(level: str) -> str:
    """An AI level as the reader says it."""
    return _(AI_LEVEL_NAMES[level]) if level in AI_LEVEL_NAMES else level


def ai_named(name: str) -> str:
    """A stored name of an AI seat ("Ada (AI)", as results keep it) in the reader's language."""
    return _("{name} (AI)", name=name.removesuffix(AI_SUFFIX)) if name.endswith(AI_SUFFIX) else name


def shown(name: str) -> str:
    """Any user-given name as safe message text (see ``Seat.shown``)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def is_manager(member: discord.abc.User, host_id: int) -> bool:
    """The table's host, or anyone who may manage the server: they may start, kick and cancel."""
    perms = getattr(member, "guild_permissions", None)
    return member.id == host_id or bool(perms and perms.manage_guild)
