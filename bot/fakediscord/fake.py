"""FakeDiscord: the server the real discord.py client talks to, and the driver tests use to act as users.

This module holds the world (guilds, users, DMs), the server's lifecycle and the hooks the REST side and
the model call; acting as users is in :mod:`acting`, seeing as users and waiting in :mod:`seeing`."""

from __future__ import annotations

import asyncio
import io
import zlib
from typing import Any

import discord
from aiohttp import web
from PIL import Image

from bot.fakediscord import threads
from bot.fakediscord.acting import UserActions
from bot.fakediscord.conversation import Conversation
from bot.fakediscord.emoji_routes import ROUTES as EMOJI_ROUTES
from bot.fakediscord.emoji_routes import add_emoji
from bot.fakediscord.faults import Faults
from bot.fakediscord.gateway import GUILD_MEMBERS, GUILDS, Gateway
from bot.fakediscord.http_api import API_PREFIX, DiscordHTTPError, RequestRecord, RestApi
from bot.fakediscord.interaction_routes import ROUTES as INTERACTION_ROUTES
from bot.fakediscord.interactions import FakeInteraction, ImpossibleAction
from bot.fakediscord.mentions import Pings, pings
from bot.fakediscord.model import (
    BOT_PERMISSIONS,
    FakeChannel,
    FakeEmoji,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from bot.fakediscord.payloads import (
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    role_payload,
)
from bot.fakediscord.posting import NonceReplay
from bot.fakediscord.rate_limits import ChannelRateWatch
from bot.fakediscord.rest_routes import ROUTES as BOT_ROUTES
from bot.fakediscord.seeing import UserViews
from bot.fakediscord.snowflakes import SnowflakeMint, random_token, shard_of
from bot.fakediscord.thread_routes import ROUTES as THREAD_ROUTES
from bot.fakediscord.traffic import GlobalLimit, Traffic


class FakeDiscord(UserActions, UserViews):
    """A Discord for one bot, on 127.0.0.1 at a free port.

    ``response_deadline``: seconds the bot has for an interaction's initial response (Discord: 3).
    ``rate_limit``: (messages, seconds) allowed per channel; going over is recorded in
    ``rate_limit_violations``, and answered 429 only with ``enforce_rate_limits``.
    ``nonce_window``: seconds a message's enforced nonce is remembered (Discord: "the past few minutes");
    a POST repeating it gets the earlier message back (recorded in ``nonce_replays``).
    ``global_limit``: Discord's global rate limit in requests per second across all routes (interaction
    callbacks and webhooks exempt), answered 429 ``global: true`` beyond it; None (default) for no limit.
    ``traffic`` counts every request either way (see :mod:`traffic`).
    ``shard_count``: what GET /gateway/bot recommends, and the count ``add_guild(shard=...)`` aims at.
    Sessions identify with any ``[shard_id, shard_count]`` (see :mod:`gateway`).
    """

    def __init__(
        self,
        *,
        bot_name: str = "Bot",
        response_deadline: float = 3.0,
        rate_limit: tuple[int, float] = (5, 5.0),
        enforce_rate_limits: bool = False,
        heartbeat_interval: float = 41.25,
        nonce_window: float = 180.0,
        global_limit: float | None = None,
        shard_count: int = 1,
    ) -> None:
        self.mint = SnowflakeMint()
        self.token = random_token(self.mint, "fake-bot-token")
        self.bot_user = FakeUser(self.mint.next(), bot_name, bot=True)
        self.owner_user = FakeUser(self.mint.next(), "app-owner")
        self.application_id = self.bot_user.id
        self.response_deadline = response_deadline
        self.shard_count = shard_count
        self.enforce_rate_limits = enforce_rate_limits
        self.dm_app_permissions = BOT_PERMISSIONS
        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner_user.id: self.owner_user,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        # Indexes for the lookups made on every step of a busy test or bench (a scan of every message or
        # interaction was the fake's main cost at 500 games): ephemerals by the user who sees them,
        # interactions by token.
        self.ephemerals: dict[int, list[FakeMessage]] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        #: The application's own emojis (uploaded by the bot, or added by the test as if by an earlier run).
        self.application_emojis: dict[int, FakeEmoji] = {}
        #: Every REST call the bot made, in order, with the status it got.
        self.requests: list[RequestRecord] = []
        #: REST calls to routes the fake does not know (answered 404 like Discord).
        self.unknown_routes: list[RequestRecord] = []
        #: Interactions the bot tried to answer after the deadline.
        self.late_interactions: list[FakeInteraction] = []
        #: Tracebacks of bugs in the fake itself; stop() raises if there are any.
        self.internal_errors: list[str] = []
        self.nonce_window = nonce_window
        #: (author id, nonce) -> (monotonic time, message) of posts that enforced their nonce.
        self.nonces: dict[tuple[int, str], tuple[float, FakeMessage]] = {}
        #: POSTs answered with an earlier message because their enforced nonce repeated it.
        self.nonce_replays: list[NonceReplay] = []
        #: Request counters (per second, per route, user fetches, 429s) and the global limit.
        self.traffic = Traffic()
        self.conversation = Conversation(self.bot_user.id)
        self.global_limit = GlobalLimit(global_limit)
        #: Faults to inject on chosen requests (dropped connections, timeouts, 429s): see :mod:`faults`.
        self.faults = Faults()
        self._rates = ChannelRateWatch(*rate_limit)
        #: When the last bot run on this fake stopped (``running_bot``): a restart waits out the window.
        self.bot_stopped_at: float | None = None
        self._dms: dict[int, FakeChannel] = {}
        self._changed = asyncio.Event()
        self.gateway = Gateway(self, heartbeat_interval)
        self._rest = RestApi(self, BOT_ROUTES + THREAD_ROUTES + EMOJI_ROUTES + INTERACTION_ROUTES)
        self._runner: web.AppRunner | None = None
        self._port = 0

    # ---- lifecycle ------------------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application(
            client_max_size=10 * 1024 * 1024
        )  # Discord takes files up to 8 MB (plus the form around them)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close the bot's websockets and the server. Stop the bot first, or it will try to reconnect.
        Raises if the fake itself failed while serving (see ``internal_errors``)."""
        if self._runner is not None:
            self.faults.release()
            await self.gateway.close_all()
            await self._runner.cleanup()
            self._runner = None
        if self.internal_errors:
            raise RuntimeError("the fake Discord failed while serving:\n" + "\n".join(self.internal_errors))

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """What ``Route.BASE`` should be (``use_endpoints(fake.api_base, fake.gateway_url)``)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def cdn_base(self) -> str:
        return self.base_url

    # ---- the world ------------------------------------------------------------------------------------
    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        bot_permissions: int = BOT_PERMISSIONS,
        shard: int | None = None,
    ) -> FakeGuild:
        """A server the bot is in, with a managed role for the bot carrying ``bot_permissions``.
        ``shard``: give it an id whose events go to that shard of ``shard_count``."""
        guild_id = self.mint.next_on_shard(shard, self.shard_count) if shard is not None else None
        guild = FakeGuild(self, name, owner.id if owner is not None else None, id=guild_id)
        self.guilds[guild.id] = guild
        # @everyone applies to the bot too, so it may not grant what the bot was denied.
        guild.everyone.permissions &= bot_permissions
        bot_role = FakeRole(self.mint.next(), self.bot_user.name, bot_permissions, position=1, managed=True)
        guild.roles[bot_role.id] = bot_role
        guild.bot_role = bot_role
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [bot_role])
        if owner is not None:
            self.users[owner.id] = owner
            guild.members[owner.id] = FakeMember(owner, [])
        self.gateway.dispatch("GUILD_CREATE", guild_payload(guild), intent=GUILDS, guild_id=guild.id)
        return guild

    def shard_of(self, guild: FakeGuild, shard_count: int | None = None) -> int:
        """The shard (of ``shard_count``, default the fake's) that receives ``guild``'s events."""
        return shard_of(guild.id, shard_count or self.shard_count)

    def add_user(
        self,
        name: str,
        *,
        guild: FakeGuild | None = None,
        manage_guild: bool = False,
        administrator: bool = False,
        roles: tuple[FakeRole, ...] | list[FakeRole] = (),
        dms_open: bool = True,
    ) -> FakeUser:
        """A person; with ``guild`` they join it (``manage_guild``/``administrator``/``roles`` apply there)."""
        user = FakeUser(self.mint.next(), name, dms_open=dms_open)
        self.users[user.id] = user
        if guild is not None:
            guild.add_member(user, roles=roles, manage_guild=manage_guild, administrator=administrator)
        elif manage_guild or administrator or roles:
            raise ValueError("manage_guild, administrator and roles need a guild")
        return user

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (the same one every time)."""
        if user.id not in self._dms:
            channel = FakeChannel(self.mint.next(), user.name, 1, recipient=user)
            self._dms[user.id] = channel
            self.channels[channel.id] = channel
        return self._dms[user.id]

    # ---- threads and emojis, as users, moderators and Discord itself change them --------------------------
    def start_thread(
        self, user: FakeUser, where: FakeMessage | FakeChannel, name: str, *, private: bool = False
    ) -> FakeChannel:
        """``user`` starts a thread from a message (public) or in a channel; the bot hears THREAD_CREATE."""
        starter = where if isinstance(where, FakeMessage) else None
        parent = where.channel if isinstance(where, FakeMessage) else where
        if parent.guild is None or parent.type not in (0, 5):
            raise ImpossibleAction(f"threads cannot be started in {parent!r}")
        if not threads.may(self, user, parent, threads.thread_creation_permission(private)):
            raise ImpossibleAction(f"{user.name} may not start threads in {parent!r}")
        if starter is not None and (starter.thread is not None or not starter.visible_to(user)):
            raise ImpossibleAction(f"{starter!r} already has a thread, or {user.name} cannot see it")
        return threads.start_thread(self, parent, name, user, starter=starter, private=private)

    def archive_thread(self, thread: FakeChannel, *, locked: bool = False) -> None:
        """Archive ``thread`` as Discord does after its inactivity period (or a moderator, ``locked``)."""
        threads.set_archived(self, thread, True, locked=locked)

    def unarchive_thread(self, thread: FakeChannel) -> None:
        threads.set_archived(self, thread, False, locked=False)

    def delete_channel(self, channel: FakeChannel) -> None:
        """A moderator deletes ``channel`` (a thread: THREAD_DELETE; a channel: CHANNEL_DELETE)."""
        threads.delete_channel(self, channel)

    def set_permissions(
        self,
        channel: FakeChannel,
        target: FakeRole | FakeUser,
        *,
        allow: int | discord.Permissions = 0,
        deny: int | discord.Permissions = 0,
    ) -> None:
        """A server manager sets ``channel``'s overwrite for a role or a member (both 0: removes it);
        the bot hears CHANNEL_UPDATE. Threads have no overwrites of their own: set the parent's."""
        if channel.guild is None or channel.is_thread:
            raise ImpossibleAction(f"{channel!r} has no permission overwrites of its own")
        bits = [p.value if isinstance(p, discord.Permissions) else int(p) for p in (allow, deny)]
        if any(bits):
            channel.overwrites[target.id] = (bits[0], bits[1])
        else:
            channel.overwrites.pop(target.id, None)
        self.gateway.dispatch(
            "CHANNEL_UPDATE", channel_payload(channel), intent=GUILDS, guild_id=channel.guild.id
        )
        self._touch()

    def set_role_permissions(
        self, guild: FakeGuild, role: FakeRole, permissions: int | discord.Permissions
    ) -> None:
        """A server manager changes what ``role`` may do server-wide; the bot hears GUILD_ROLE_UPDATE."""
        role.permissions = (
            permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)
        )
        self.gateway.dispatch(
            "GUILD_ROLE_UPDATE",
            {"guild_id": str(guild.id), "role": role_payload(role)},
            intent=GUILDS,
            guild_id=guild.id,
        )
        self._touch()

    def threads_in(self, parent: FakeChannel) -> list[FakeChannel]:
        """Threads started in ``parent`` that still exist, archived ones included, oldest first."""
        assert parent.guild is not None
        return [t for t in parent.guild.threads if t.parent is parent and not t.deleted]

    def add_application_emoji(self, name: str, image: bytes | None = None) -> FakeEmoji:
        """An application emoji that already exists (as if uploaded by an earlier run of the bot); without
        ``image``, a small square PNG in a colour of its own."""
        if any(e.name == name for e in self.application_emojis.values()):
            raise ValueError(f"an application emoji is already called {name!r}")
        if image is None:
            colour = tuple(zlib.crc32(name.encode()).to_bytes(4, "big")[:3])
            out = io.BytesIO()
            Image.new("RGB", (32, 32), colour).save(out, "PNG")
            image = out.getvalue()
        return add_emoji(self, name, image, "image/png")

    def pings(self, message: FakeMessage, *, permissions: bool = True) -> Pings:
        """Who ``message`` notifies under Discord's rules (see :mod:`mentions`); falsy when nobody."""
        return pings(message, permissions=permissions)

    def bot_guilds(self) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if self.bot_user.id in g.members]

    # ---- commands the bot registered --------------------------------------------------------------------
    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Registered command payloads: global ones, or those registered for ``guild``."""
        return list(self.global_commands if guild is None else self.guild_commands.get(guild.id, []))

    def command_names(self, guild: FakeGuild | None = None) -> set[str]:
        """Every invocable name, subcommands spelled out: ``{"demo ping", "demo file", ...}``."""
        names: set[str] = set()

        def walk(prefix: str, options: list[dict[str, Any]]) -> None:
            subs = [o for o in options if o.get("type") in (1, 2)]
            if not subs:
                names.add(prefix)
            for sub in subs:
                walk(f"{prefix} {sub['name']}", sub.get("options") or [])

        for command in self.commands(guild):
            walk(command["name"], command.get("options") or [])
        return names

    # ---- internals called by the REST side and the model ------------------------------------------------
    def _touch(self) -> None:
        """Wake everything waiting in :meth:`wait_for`."""
        self._changed.set()
        self._changed = asyncio.Event()

    @property
    def rate_window(self) -> float:
        """The seconds of the per-channel rate limit's window."""
        return self._rates.window

    def _check_rate(self, kind: str, channel: FakeChannel) -> None:
        verdict = self._rates.record(kind, channel.id, enforce=self.enforce_rate_limits)
        if not verdict.allowed:
            error = DiscordHTTPError(
                429, 20028, "You are being rate limited.", retry_after=verdict.reset_after
            )
            error.body["global"] = False
            error.headers = {
                "Via": "1.1 google",
                "Retry-After": str(verdict.reset_after),
                "X-RateLimit-Scope": "user",
            }
            raise error

    def _announce_message(self, event: str, message: FakeMessage, data: dict[str, Any] | None = None) -> None:
        guild = message.channel.guild
        self.gateway.dispatch_message(
            event,
            data or message_payload(message),
            dm=message.channel.is_dm,
            author_id=message.author.id,
            guild_id=guild.id if guild is not None else None,
        )

    def _on_channel_added(self, channel: FakeChannel) -> None:
        self.channels[channel.id] = channel
        guild_id = channel.guild.id if channel.guild is not None else None
        self.gateway.dispatch("CHANNEL_CREATE", channel_payload(channel), intent=GUILDS, guild_id=guild_id)

    def _on_role_added(self, guild: FakeGuild, role: FakeRole) -> None:
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role_payload(role)},
            intent=GUILDS,
            guild_id=guild.id,
        )

    def _on_member_added(self, guild: FakeGuild, member: FakeMember) -> None:
        self.users[member.user.id] = member.user
        data = {"guild_id": str(guild.id), **member_payload(guild, member)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", data, intent=GUILD_MEMBERS, guild_id=guild.id)

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        for message in self.messages.values():
            for attachment in message.attachments:
                if str(attachment.id) == request.match_info["attachment_id"]:
                    return web.Response(
                        body=attachment.data,
                        content_type=attachment.content_type or "application/octet-stream",
                    )
        return web.Response(status=404)
