"""The fake gateway: a v10 JSON websocket with HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME,
member chunks, and DISPATCH of whatever the fake makes happen (interactions, messages, new channels...).

Sharding, as Discord does it: a session may IDENTIFY with ``shard: [shard_id, shard_count]`` (none means
``[0, 1]``); it is sent READY and GUILD_CREATE for its own guilds only, and every guild event (messages,
interactions, channels, threads, members) goes to the sessions whose shard is
``(guild_id >> 22) % shard_count``; DMs, interactions in DMs included, go to shard 0 only. Several
sessions may be connected at once (one per shard, or two for the same shard if a bot is misconfigured:
both then get its events). A shard outside its count is closed with 4010 Invalid shard.

Transport compression: discord.py asks for ``compress=zlib-stream`` (or zstd-stream when zstandard is
installed). We honour zlib-stream exactly like Discord (one deflate stream, each payload ending in a sync
flush). For anything else we send plain text frames, which discord.py also accepts.
"""

from __future__ import annotations

import asyncio
import contextlib
import traceback
import zlib
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot.fakediscord import wire
from bot.fakediscord.payloads import guild_payload, member_payload, user_payload
from bot.fakediscord.snowflakes import shard_of

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    8,
    9,
    10,
    11,
)

# Intents a dispatch needs (Discord drops events the bot did not ask for).
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

HISTORY = 1000


class Session:
    """One identified bot session: its shard, sequence numbers and recent events, kept across reconnects."""

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] = (0, 1)) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        self.connection: Connection | None = None

    def push(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.history.append(payload)
        if self.connection is not None:
            self.connection.enqueue(payload)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets events of ``guild_id`` (None: a DM, shard 0's)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, shard_count) == shard_id


class Connection:
    """One websocket. Everything it sends goes through one queue, so events keep their order."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.session: Session | None = None
        self._deflate = zlib.compressobj() if compress == "zlib-stream" else None
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def enqueue(self, payload: dict[str, Any]) -> None:
        self._queue.put_nowait(payload)

    async def finish(self) -> None:
        """Stop writing (after what is already queued) and wait for the writer."""
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self._writer

    async def _write(self) -> None:
        while (payload := await self._queue.get()) is not None:
            if self.ws.closed:
                continue
            text = wire.dumps(payload)
            try:
                if self._deflate is None:
                    await self.ws.send_str(text)
                else:
                    data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
            except (ConnectionError, RuntimeError):
                return


class Gateway:
    def __init__(self, fake: FakeDiscord, heartbeat_interval: float) -> None:
        self.fake = fake
        self.heartbeat_interval = heartbeat_interval
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identified = asyncio.Event()
        self.identify_count = 0
        self.resume_count = 0

    @property
    def connected(self) -> bool:
        return any(c.session is not None and not c.ws.closed for c in self.connections)

    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every session connected now, sorted (repeats if doubled)."""
        return sorted(c.session.shard for c in self.connections if c.session is not None and not c.ws.closed)

    # ---- outgoing -------------------------------------------------------------------------------------
    def dispatch(
        self, event: str, data: dict[str, Any], *, intent: int = 0, guild_id: int | None = None
    ) -> None:
        """Send ``event`` to every session that asked for ``intent`` (0: always) and whose shard has
        ``guild_id`` (None: a DM, for shard 0)."""
        for session in self.sessions.values():
            if (intent == 0 or session.intents & intent) and session.receives(guild_id):
                session.push(event, data)

    def dispatch_message(
        self, event: str, data: dict[str, Any], *, dm: bool, author_id: int, guild_id: int | None = None
    ) -> None:
        """MESSAGE_CREATE/UPDATE, with content blanked unless the session may read it (Discord's rule:
        the MESSAGE_CONTENT intent, or a DM, or the bot's own message or a mention of it)."""
        intent = DIRECT_MESSAGES if dm else GUILD_MESSAGES
        bot_id = self.fake.bot_user.id
        readable = dm or author_id == bot_id or f"<@{bot_id}>" in str(data.get("content", ""))
        for session in self.sessions.values():
            if not session.intents & intent or not session.receives(guild_id):
                continue
            if readable or session.intents & MESSAGE_CONTENT:
                session.push(event, data)
            else:
                session.push(
                    event, {**data, "content": "", "embeds": [], "attachments": [], "components": []}
                )

    async def reconnect_all(self) -> None:
        """Ask the bot to reconnect (op 7); it should come back with RESUME."""
        for connection in list(self.connections):
            connection.enqueue({"op": RECONNECT, "d": None})

    async def close_all(self, code: int = 1001) -> None:
        for connection in list(self.connections):
            await connection.finish()
            await connection.ws.close(code=code)

    # ---- incoming -------------------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request.query.get("compress"))
        self.connections.add(connection)
        connection.enqueue({"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    try:
                        await self._on_payload(connection, wire.loads(message.data))
                    except Exception:
                        self.fake.internal_errors.append(
                            f"gateway {message.data[:200]}\n{traceback.format_exc()}"
                        )
                elif message.type is WSMsgType.ERROR:
                    break
        finally:
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            self.connections.discard(connection)
            await connection.finish()
        return ws

    async def _on_payload(self, connection: Connection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data: Any = payload.get("d")  # the client's JSON: each op's handler reads the fields it has
        if op == HEARTBEAT:
            connection.enqueue({"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            self._send_members(connection, data)
        # Presence (3) and voice (4) updates change nothing a test can see; ignore them.

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await connection.finish()
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        fake = self.fake
        shard = data.get("shard") or [0, 1]
        shard_id, shard_count = int(shard[0]), int(shard[1])
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await connection.finish()
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        # A new IDENTIFY (a restarted bot) makes sessions nobody is connected to unresumable, as on Discord.
        self.sessions = {k: s for k, s in self.sessions.items() if s.connection is not None}
        session = Session(
            f"session-{fake.mint.next():x}", int(data.get("intents", 0)), (shard_id, shard_count)
        )
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        guilds = [g for g in fake.bot_guilds() if session.receives(g.id)]
        me = {**user_payload(fake.bot_user), "verified": True, "mfa_enabled": False, "email": None}
        session.push(
            "READY",
            {
                "v": 10,
                "user": me,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": fake.gateway_url,
                "application": {"id": str(fake.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "shard": [shard_id, shard_count],
            },
        )
        for guild in guilds:
            session.push("GUILD_CREATE", guild_payload(guild))
        self.identify_count += 1
        self.identified.set()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.fake.token:
            connection.enqueue({"op": INVALID_SESSION, "d": False})
            return
        seq = int(data.get("seq") or 0)
        session.connection = connection
        connection.session = session
        for payload in session.history:
            if payload["s"] > seq:
                connection.enqueue(payload)
        session.push("RESUMED", {})
        self.resume_count += 1

    def _send_members(self, connection: Connection, data: dict[str, Any]) -> None:
        session = connection.session
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if session is None or guild is None or not session.receives(guild.id):
            return
        ids = {int(i) for i in data.get("user_ids") or []}
        query = str(data.get("query") or "")
        members = [
            member_payload(guild, m)
            for m in guild.members.values()
            if (not ids or m.user.id in ids) and m.user.name.startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.push("GUILD_MEMBERS_CHUNK", chunk)
