"""The REST surface: routing, auth, request bodies (JSON or multipart with files), Discord-style errors,
and the record of every request, unknown routes included.

Ruling: JSON replies carry exactly ``Content-Type: application/json`` because discord.py only decodes a body
whose content type is exactly that. No X-RateLimit headers unless rate limits are enforced, so discord.py
never throttles itself and the fake sees the bot's real request pattern.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from bot.fakediscord import wire
from bot.fakediscord.faults import FaultRule, cut
from bot.fakediscord.traffic import exempt_from_global_limit

if TYPE_CHECKING:
    from bot.fakediscord.fake import FakeDiscord

API_PREFIX = "/api/v10"


class DiscordHTTPError(Exception):
    """Raised by a handler to answer like Discord: ``status`` with ``{"code": code, "message": message}``."""

    def __init__(self, status: int, code: int, message: str, **extra: Any) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message, **extra}
        self.headers: dict[str, str] = {}


def rate_limited(retry_after: float, *, is_global: bool = False, scope: str = "user") -> DiscordHTTPError:
    """A 429 as Discord sends it: body with ``retry_after`` and ``global``, and the headers discord.py reads
    (it treats a 429 without ``Via`` as a Cloudflare ban)."""
    error = DiscordHTTPError(429, 0, "You are being rate limited.", retry_after=retry_after)
    error.body["global"] = is_global
    error.headers = {"Via": "1.1 google", "Retry-After": str(retry_after), "X-RateLimit-Scope": scope}
    if is_global:
        error.headers["X-RateLimit-Global"] = "true"
        error.headers["X-RateLimit-Scope"] = "global"
    return error


def unknown(what: str, code: int) -> DiscordHTTPError:
    return DiscordHTTPError(404, code, f"Unknown {what}")


@dataclass(frozen=True)
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class RequestBody:
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)

    @property
    def payload(self) -> dict[str, Any]:
        return self.json if isinstance(self.json, dict) else {}


@dataclass(frozen=True)
class RequestRecord:
    """One REST call the bot made, with what the fake answered."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int
    error: dict[str, Any] | None = None
    #: Set when the fake injected a fault here (see :mod:`faults`): "drop", "reset", "timeout", "429", "5xx".
    fault: str | None = None

    def __str__(self) -> str:
        suffix = f" -> {self.error}" if self.error else ""
        if self.fault:
            suffix += f" [fault: {self.fault}]"
        return f"{self.method} {self.path} {self.status}{suffix}"


Handler = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    needs_auth: bool
    #: The path as written in the route table, e.g. ``/channels/{channel_id}/messages``.
    path: str = ""


def route(method: str, path: str, handler: Handler, *, needs_auth: bool = True) -> Route:
    """``path`` like ``/channels/{channel_id}/messages``; ``{name}`` captures one path segment."""
    regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(path).replace(r"\{", "{").replace(r"\}", "}"))
    return Route(method, re.compile(f"^{regex}$"), handler, needs_auth, path)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=wire.dump_bytes(data),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


async def read_body(request: web.Request) -> RequestBody:
    if request.content_type.startswith("multipart/"):
        body = RequestBody()
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):  # (a multipart nested in it: Discord's API sends none)
                raise TypeError(f"a nested multipart body in {request.method} {request.path}")
            name = getattr(part, "name", None) or ""
            data = await part.read()
            if name == "payload_json":
                body.json = wire.loads(data)
            elif match := re.fullmatch(r"files\[(\d+)\]", name):
                filename = getattr(part, "filename", None) or f"file{match.group(1)}"
                content_type = part.headers.get("Content-Type")
                body.files.append(UploadedFile(int(match.group(1)), filename, bytes(data), content_type))
        return body
    raw = await request.read()
    return RequestBody(json=wire.loads(raw) if raw else None)


class RestApi:
    """Dispatches ``/api/v10/...`` to the handlers in :mod:`rest_routes` and :mod:`interaction_routes`."""

    def __init__(self, fake: FakeDiscord, routes: list[Route]) -> None:
        self.fake = fake
        self.routes = routes

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        body = await read_body(request)
        logged_body = (
            body.json
            if not body.files
            else {"payload_json": body.json, "files": [f.filename for f in body.files]}
        )
        query = dict(request.query)
        found = self._match(request.method, path)
        traffic = self.fake.traffic
        limited = not exempt_from_global_limit(path)
        if found is None:
            traffic.record(request.method, path, path, {}, limited=limited)
            record = RequestRecord(
                request.method, path, query, logged_body, 404, {"code": 0, "message": "404: Not Found"}
            )
            self.fake.unknown_routes.append(record)
            self.fake.requests.append(record)
            return json_response(record.error, 404)
        chosen, params = found
        traffic.record(request.method, chosen.path, path, params, limited=limited)
        fault = self.fake.faults.take(request.method, path, chosen, params, logged_body)
        if fault is not None and not (fault.applied and fault.kind in ("drop", "reset", "timeout")):
            return await self._fault_instead(request, path, query, logged_body, fault)
        try:
            if limited and (wait := self.fake.global_limit.admit()) is not None:
                raise rate_limited(round(wait, 3), is_global=True)
            response = await self._answer(request, chosen, body, params)
        except DiscordHTTPError as error:
            record = RequestRecord(request.method, path, query, logged_body, error.status, error.body)
            response = json_response(error.body, error.status, error.headers)
            traffic.answered(error.status, is_global=bool(error.body.get("global")))
        except Exception:
            # A bug in the fake, not in the bot: answer 400 at once (a 5xx would make discord.py retry for
            # seconds) and keep the traceback; FakeDiscord.stop() raises it so the test cannot pass quietly.
            self.fake.internal_errors.append(f"{request.method} {path}\n{traceback.format_exc()}")
            error_body = {"code": 0, "message": "fake discord internal error"}
            self.fake.requests.append(
                RequestRecord(request.method, path, query, logged_body, 400, error_body)
            )
            return json_response(error_body, 400)
        else:
            record = RequestRecord(request.method, path, query, logged_body, response.status)
        if fault is not None:  # applied, and now the answer is lost
            record = replace(record, fault=fault.kind)
            self.fake.faults.note(fault, record)
        self.fake.requests.append(record)
        self.fake._touch()
        if fault is not None:
            await cut(request, fault, self.fake.faults.released)
        return response

    async def _answer(
        self, request: web.Request, chosen: Route, body: RequestBody, params: dict[str, str]
    ) -> web.StreamResponse:
        if chosen.needs_auth and request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")
        result = await chosen.handler(self.fake, request, body, **params)
        return result if isinstance(result, web.StreamResponse) else json_response(result)

    async def _fault_instead(
        self, request: web.Request, path: str, query: dict[str, str], logged_body: Any, fault: FaultRule
    ) -> web.StreamResponse:
        """Answer with the fault and leave the request unapplied."""
        if fault.kind == "429":
            error = rate_limited(fault.retry_after, is_global=fault.is_global)
            status, error_body, headers = 429, error.body, error.headers
        elif fault.kind == "5xx":
            status, error_body, headers = (
                fault.status,
                {"code": 0, "message": f"{fault.status}: Server Error"},
                {},
            )
        else:
            status, error_body, headers = 0, None, {}
        record = RequestRecord(request.method, path, query, logged_body, status, error_body, fault=fault.kind)
        self.fake.traffic.answered(status, is_global=fault.is_global)
        self.fake.faults.note(fault, record)
        self.fake.requests.append(record)
        self.fake._touch()
        if status:
            return json_response(error_body, status, headers)
        await cut(request, fault, self.fake.faults.released)
        return web.Response(status=500)  # never reaches the client: the connection is gone

    def _match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for candidate in self.routes:
            if candidate.method == method and (match := candidate.pattern.match(path)):
                return candidate, match.groupdict()
        return None
