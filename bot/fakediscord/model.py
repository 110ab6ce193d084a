"""What exists inside the fake Discord: users, guilds (roles, members, channels), messages and attachments.

These objects are the test's view of the world. Tests create users, guilds and channels through
:class:`~bot.fakediscord.FakeDiscord` and read messages back to assert on what each user would see.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.fakediscord.snowflakes import SnowflakeMint

if TYPE_CHECKING:
    from bot.fakediscord.interactions import FakeInteraction

EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: What @everyone may do in a fresh guild: read, talk, start threads, embed, attach, react, use commands
#: (Discord's defaults for a new server, voice left out).
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
#: The bot's own managed role: what a board-game bot is invited with.
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(manage_messages=True).value
ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
MANAGE_GUILD = discord.Permissions(manage_guild=True).value
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MENTION_EVERYONE = 1 << 17
SEND_MESSAGES_IN_THREADS = 1 << 38


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class World(Protocol):
    """The part of the fake that model objects call back into (ids, and gateway news for the bot)."""

    mint: SnowflakeMint

    def _on_channel_added(self, channel: FakeChannel) -> None: ...

    def _on_role_added(self, guild: FakeGuild, role: FakeRole) -> None: ...

    def _on_member_added(self, guild: FakeGuild, member: FakeMember) -> None: ...


@dataclass(eq=False)
class FakeUser:
    """A Discord account. ``dms_open=False`` makes the bot's DMs to it fail with 403/50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"  # the language of their Discord client, sent with each of their interactions

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    #: Anyone may ping a mentionable role; otherwise only members with Mention Everyone.
    mentionable: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeRole {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    roles: list[FakeRole]
    joined_at: datetime.datetime = field(default_factory=now)
    nick: str | None = None


class FakeGuild:
    """A server: @everyone (id = guild id), roles, members and text channels.

    Guild-wide permissions are @everyone plus the member's roles, everything for administrators and the
    owner; in a channel its overwrites apply on top (``permissions_in``), as Discord computes them.
    """

    def __init__(self, world: World, name: str, owner_id: int | None, *, id: int | None = None) -> None:
        self._world = world
        self.id = id if id is not None else world.mint.next()
        self.name = name
        # Ruling: with no owner given, the owner is an account that is not a member, so no test user
        # gets the owner's implicit permissions by accident.
        self.owner_id = owner_id if owner_id is not None else world.mint.next()
        self.roles: dict[int, FakeRole] = {self.id: FakeRole(self.id, "@everyone", EVERYONE_PERMISSIONS)}
        self.members: dict[int, FakeMember] = {}
        self.channels: list[FakeChannel] = []
        #: Threads, archived and deleted ones included (Discord lists them apart from channels).
        self.threads: list[FakeChannel] = []
        #: The server's language as Discord has it (only Community servers can change it in Discord).
        self.preferred_locale = "en-US"
        #: The bot's own managed role (set by ``FakeDiscord.add_guild``).
        self.bot_role: FakeRole | None = None

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def add_text_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        channel = FakeChannel(self._world.mint.next(), name, 0, guild=self, topic=topic)
        channel.position = len(self.channels)
        self.channels.append(channel)
        self._world._on_channel_added(channel)
        return channel

    def add_role(
        self,
        name: str,
        permissions: int | discord.Permissions = 0,
        *,
        managed: bool = False,
        mentionable: bool = False,
    ) -> FakeRole:
        value = permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)
        role = FakeRole(
            self._world.mint.next(),
            name,
            value,
            position=len(self.roles),
            managed=managed,
            mentionable=mentionable,
        )
        self.roles[role.id] = role
        self._world._on_role_added(self, role)
        return role

    def add_member(
        self,
        user: FakeUser,
        *,
        roles: tuple[FakeRole, ...] | list[FakeRole] = (),
        manage_guild: bool = False,
        administrator: bool = False,
    ) -> FakeMember:
        """Make ``user`` join; ``manage_guild``/``administrator`` give them a role with that permission."""
        wanted = list(roles)
        if manage_guild:
            wanted.append(self._role_with("Managers", MANAGE_GUILD))
        if administrator:
            wanted.append(self._role_with("Admins", ADMINISTRATOR))
        member = FakeMember(user, wanted)
        self.members[user.id] = member
        self._world._on_member_added(self, member)
        return member

    def member(self, user: FakeUser) -> FakeMember | None:
        return self.members.get(user.id)

    def channel(self, name: str) -> FakeChannel:
        for channel in self.channels:
            if channel.name == name and not channel.deleted:
                return channel
        raise KeyError(f"{self.name} has no channel named {name!r}")

    def thread(self, name: str) -> FakeChannel:
        """The live thread called ``name`` (the newest, if several)."""
        for thread in reversed(self.threads):
            if thread.name == name and not thread.deleted:
                return thread
        raise KeyError(f"{self.name} has no thread named {name!r}; have {[t.name for t in self.threads]}")

    @property
    def active_threads(self) -> list[FakeChannel]:
        return [t for t in self.threads if not t.deleted and not t.archived]

    def permissions_of(self, user: FakeUser) -> int:
        """The member's permission bits (0 for a non-member)."""
        member = self.members.get(user.id)
        if member is None:
            return 0
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        for role in member.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def permissions_in(self, user: FakeUser, channel: FakeChannel) -> int:
        """The member's permission bits in ``channel``, Discord's way: the guild-wide bits, then the
        channel's overwrites for @everyone, for the member's roles (together) and for the member; a
        thread takes its parent's. Without View Channel nothing is left; without Send Messages (Send
        Messages in Threads, in a thread) neither are Embed Links, Attach Files nor Mention Everyone."""
        value = self.permissions_of(user)
        if value == ALL_PERMISSIONS:  # the owner and administrators: overwrites do not apply
            return value
        where = channel.parent if channel.parent is not None else channel
        member = self.members[user.id]
        overwrites = where.overwrites
        if self.id in overwrites:
            allow, deny = overwrites[self.id]
            value = (value & ~deny) | allow
        allow = deny = 0
        for role in member.roles:
            if role.id in overwrites:
                allow |= overwrites[role.id][0]
                deny |= overwrites[role.id][1]
        value = (value & ~deny) | allow
        if user.id in overwrites:
            allow, deny = overwrites[user.id]
            value = (value & ~deny) | allow
        if not value & VIEW_CHANNEL:
            return 0
        talk = SEND_MESSAGES_IN_THREADS if channel.parent is not None else SEND_MESSAGES
        if not value & talk:
            value &= ~(EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE)
        return value

    def _role_with(self, name: str, permissions: int) -> FakeRole:
        for role in self.roles.values():
            if role.name == name and role.permissions == permissions:
                return role
        return self.add_role(name, permissions)


PUBLIC_THREAD, PRIVATE_THREAD = 11, 12


class FakeChannel:
    """A guild text channel (type 0), a DM (type 1, ``recipient`` set) or a thread (type 11 public, 12
    private; ``parent`` set). ``messages`` holds every message ever posted in it, ephemeral ones included;
    use the fake's query helpers to see one user's view. A deleted channel keeps its messages, which
    nobody can see any more."""

    def __init__(
        self,
        id: int,
        name: str,
        type: int,
        *,
        guild: FakeGuild | None = None,
        recipient: FakeUser | None = None,
        topic: str | None = None,
        parent: FakeChannel | None = None,
        owner: FakeUser | None = None,
    ) -> None:
        self.id = id
        self.name = name
        self.type = type
        self.guild = guild
        self.recipient = recipient
        self.topic = topic
        self.position = 0
        self.messages: list[FakeMessage] = []
        self.deleted = False
        # Threads only.
        self.parent = parent
        self.owner = owner
        self.archived = False
        self.locked = False
        self.auto_archive_duration = 1440
        self.archive_timestamp = now()
        self.created_at = now()
        self.starter: FakeMessage | None = None
        self.member_ids: set[int] = set()
        #: Permission overwrites (guild channels only): role or member id -> (allow, deny) bits.
        self.overwrites: dict[int, tuple[int, int]] = {}

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        where = f"DM with {self.recipient.name}" if self.recipient else f"#{self.name}"
        if self.parent is not None:
            where = f"thread {self.name!r} in #{self.parent.name}"
        return f"<FakeChannel {where} id={self.id}>"


@dataclass(eq=False)
class FakeEmoji:
    """An application emoji: uploaded by the bot (or put there by a test), usable as ``<:name:id>``."""

    id: int
    name: str
    image: bytes
    content_type: str
    animated: bool = False

    @property
    def markdown(self) -> str:
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeEmoji :{self.name}: id={self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """A file as the bot uploaded it: exact bytes, filename, and ``description`` (Discord's alt text)."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename} {self.size} bytes>"


@dataclass(frozen=True)
class Button:
    """A button as a user sees it. ``custom_id`` is None for link buttons (which have ``url``)."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Button:
        emoji = data.get("emoji") or {}
        return cls(
            label=data.get("label"),
            custom_id=data.get("custom_id"),
            style=int(data.get("style", 1)),
            disabled=bool(data.get("disabled", False)),
            emoji=emoji.get("name") if emoji else None,
            url=data.get("url"),
        )


@dataclass(frozen=True)
class SelectMenu:
    """A select menu; ``options`` are the string select's choices as sent (label, value, description...)."""

    custom_id: str
    type: int
    options: tuple[dict[str, Any], ...]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SelectMenu:
        return cls(
            custom_id=data["custom_id"],
            type=int(data["type"]),
            options=tuple(data.get("options", [])),
            placeholder=data.get("placeholder"),
            min_values=int(data.get("min_values", 1)),
            max_values=int(data.get("max_values", 1)),
            disabled=bool(data.get("disabled", False)),
        )

    @property
    def labels(self) -> list[str]:
        return [str(o.get("label", "")) for o in self.options]

    @property
    def values(self) -> list[str]:
        return [str(o.get("value", "")) for o in self.options]


BUTTON = 2
SELECT_TYPES = (3, 5, 6, 7, 8)


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from iter_components([component[key]])


@dataclass(frozen=True)
class MessageVersion:
    """A message's content before one edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    flags: int
    at: datetime.datetime
    allowed_mentions: dict[str, Any] | None = None


@dataclass(eq=False)
class FakeMessage:
    """A message as stored by the fake. Current state is on the object; ``edits`` holds earlier versions.

    ``ephemeral_to`` is the only user who can see an ephemeral message. ``interaction`` is the interaction
    whose response or followup this message is (None for plain channel messages).
    ``allowed_mentions`` is the object the bot sent with it, None when it sent none (edits that carry one
    replace it); ``fake.pings(message)`` says who it notifies. ``nonce`` is the nonce the bot sent, and
    ``reference`` the message it replies to.
    """

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: datetime.datetime = field(default_factory=now)
    edited_at: datetime.datetime | None = None
    ephemeral_to: FakeUser | None = None
    interaction: FakeInteraction | None = None
    webhook_id: int | None = None
    deleted: bool = False
    reactions: list[str] = field(default_factory=list)
    edits: list[MessageVersion] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    nonce: str | None = None
    reference: FakeMessage | None = None
    #: The thread started from this message, if any.
    thread: FakeChannel | None = None

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage id={self.id} in {self.channel!r}{flags} {self.text[:60]!r}>"

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        from bot.fakediscord.text import text_of

        return text_of(self)

    @property
    def buttons(self) -> list[Button]:
        return [Button.from_dict(c) for c in iter_components(self.components) if c.get("type") == BUTTON]

    @property
    def selects(self) -> list[SelectMenu]:
        return [
            SelectMenu.from_dict(c) for c in iter_components(self.components) if c.get("type") in SELECT_TYPES
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        """The one button with this label (or custom_id); KeyError naming the buttons there are."""
        found = [
            b
            for b in self.buttons
            if (label is None or b.label == label) and (custom_id is None or b.custom_id == custom_id)
        ]
        if len(found) != 1:
            have = [(b.label, b.custom_id) for b in self.buttons]
            raise KeyError(f"{len(found)} buttons match label={label!r} custom_id={custom_id!r}; have {have}")
        return found[0]

    def select_menu(self, custom_id: str | None = None) -> SelectMenu:
        found = [s for s in self.selects if custom_id is None or s.custom_id == custom_id]
        if len(found) != 1:
            raise KeyError(
                f"{len(found)} selects match {custom_id!r}; have {[s.custom_id for s in self.selects]}"
            )
        return found[0]

    def attachment(self, filename: str) -> FakeAttachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def visible_to(self, user: FakeUser) -> bool:
        """Whether ``user`` can see this message (deleted ones are seen by nobody)."""
        if self.deleted:
            return False
        if self.ephemeral_to is not None:
            return self.ephemeral_to.id == user.id
        channel = self.channel
        if channel.deleted:
            return False
        if channel.is_dm:
            return channel.recipient is not None and channel.recipient.id == user.id
        if channel.type == PRIVATE_THREAD and user.id not in channel.member_ids:
            return False
        return channel.guild is not None and user.id in channel.guild.members

    def snapshot(self) -> MessageVersion:
        return MessageVersion(
            self.content,
            copy.deepcopy(self.embeds),
            copy.deepcopy(self.components),
            list(self.attachments),
            self.flags,
            self.edited_at or self.created_at,
            copy.deepcopy(self.allowed_mentions),
        )
