"""Who a message pings, under Discord's rules for content mentions and ``allowed_mentions``.

    message = fake.last_message(games)
    message.allowed_mentions            # as the bot sent it (None: the bot sent none)
    assert not fake.pings(message)      # nobody notified
    assert fake.pings(message).users == {alice.id}

Discord's rules, as https://discord.com/developers/docs/resources/message#allowed-mentions-object states:
- Only mentions written in the content count (``<@id>``, ``<@!id>``, ``<@&id>``, ``@everyone``, ``@here``);
  embeds never ping.
- No ``allowed_mentions``: every kind is parsed (users, roles, everyone), and a reply pings its author.
- With ``allowed_mentions``: ``parse`` lists the kinds pinged wherever they appear; ``users``/``roles`` list
  the only ids pinged of that kind; ``replied_user`` (default false) pings a replied-to message's author.
  ``parse: ["users"]`` together with a ``users`` list is refused (400), as are more than 100 ids.
- ``@everyone``/``@here`` ping only if the bot may Mention Everyone in the guild; a role pings only if it
  is mentionable or the bot may Mention Everyone (``permissions=False`` skips these checks: what the
  message would ping if an admin granted the bot everything). A user pings only if they can see the
  channel. Ephemeral messages and DMs' @everyone ping nobody.

Ruling: mentions count wherever they stand in the content, inside code spans or after a backslash too, so
a bot that relies on escaping instead of ``allowed_mentions`` is caught by the stricter reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.fakediscord.validation import InvalidBody

if TYPE_CHECKING:
    from bot.fakediscord.model import FakeMessage

MENTION_EVERYONE = 1 << 17
ADMINISTRATOR = 1 << 3
USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
KINDS = ("users", "roles", "everyone")


@dataclass(frozen=True)
class Pings:
    """Who gets notified: user ids, role ids, and whether @everyone / @here fire. Falsy when nobody."""

    users: frozenset[int] = field(default_factory=frozenset)
    roles: frozenset[int] = field(default_factory=frozenset)
    everyone: bool = False
    here: bool = False

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone or self.here)


def check_allowed_mentions(value: Any) -> None:
    """Raise :class:`InvalidBody` where Discord refuses an ``allowed_mentions`` object."""
    if value is None:
        return
    problems: list[tuple[str, str]] = []
    if not isinstance(value, dict):
        problems.append(("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
    else:
        parse = value.get("parse") or []
        for kind in parse:
            if kind not in KINDS:
                problems.append(("BASE_TYPE_CHOICES", f"Value must be one of {KINDS}."))
        for kind in ("users", "roles"):
            ids = value.get(kind)
            if ids is None:
                continue
            if kind in parse and ids:
                problems.append(
                    (
                        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                        f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                    )
                )
            if len(ids) > 100:
                problems.append(("BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
            if any(not str(i).isdigit() for i in ids):
                problems.append(("NUMBER_TYPE_COERCE", "Value is not snowflake."))
    if problems:
        errors = {"allowed_mentions": {"_errors": [{"code": c, "message": m} for c, m in problems]}}
        raise InvalidBody({"code": 50035, "message": "Invalid Form Body", "errors": errors})


def pings(message: FakeMessage, *, permissions: bool = True) -> Pings:
    """Who ``message`` notifies as it stands now (content and allowed mentions of its latest version)."""
    if message.ephemeral:
        return Pings()
    allowed = message.allowed_mentions
    if allowed is None:
        parse, users_listed, roles_listed, replied = set(KINDS), set[int](), set[int](), True
    else:
        parse = set(allowed.get("parse") or [])
        users_listed = {int(i) for i in allowed.get("users") or []}
        roles_listed = {int(i) for i in allowed.get("roles") or []}
        replied = bool(allowed.get("replied_user", False))
    content = message.content
    channel = message.channel
    guild = channel.guild
    bot_perms = guild.permissions_of(message.author) if guild is not None else 0
    may_mention_everyone = not permissions or bool(bot_perms & (MENTION_EVERYONE | ADMINISTRATOR))

    def can_see(user_id: int) -> bool:
        if user_id == message.author.id:
            return False
        if guild is not None:
            return user_id in guild.members
        return channel.recipient is not None and channel.recipient.id == user_id

    users = {int(i) for i in USER_MENTION.findall(content) if "users" in parse or int(i) in users_listed}
    if replied and message.reference is not None:
        users.add(message.reference.author.id)
    users = {u for u in users if can_see(u)}
    roles: set[int] = set()
    if guild is not None:
        for found in ROLE_MENTION.findall(content):
            role = guild.roles.get(int(found))
            if role is None or role.id == guild.id:
                continue
            if ("roles" in parse or role.id in roles_listed) and (role.mentionable or may_mention_everyone):
                roles.add(role.id)
    mass = guild is not None and "everyone" in parse and may_mention_everyone
    return Pings(
        frozenset(users),
        frozenset(roles),
        everyone=mass and "@everyone" in content,
        here=mass and "@here" in content,
    )
