"""The playground's web server: the page (plain HTML, CSS and a small script, served from this package:
no build step, nothing fetched from elsewhere), the JSON API the page talks to, and live updates as
server-sent events.

    GET  /                              the page
    GET  /api/people                    the people one can be (id and name)
    GET  /api/state?as=ID&channel=CID   what person ID sees now, reading channel CID (bot.playground.seen)
    GET  /api/commands                  the slash commands the bot registered, with their options, and
                                        the page's own words (bot.playground.labels)
    POST /api/act                       a person acts (bot.playground.acts); 400 with {"error"} if they cannot
    GET  /api/events                    "change" each time anything changes in the fake Discord
    GET  /files/PERSON/MESSAGE/FILE     a picture of a message that person can see
    GET  /emojis/ID                     an application emoji's picture
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
from importlib import resources
from typing import Any

from aiohttp import web

from bot.playground.acts import BadAct, act
from bot.playground.labels import labels
from bot.playground.seen import person, seen_by
from bot.playground.world import World, id_number

STATIC = resources.files("bot.playground") / "static"
PAGE_FILES = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html"}
KEEP_ALIVE_SECONDS = 15.0  # a comment line now and then, so that nothing between closes a quiet stream
UPDATE_EVERY = 0.1  # at most ten updates a second: a race edits its message card by card

KEEP = {"Cache-Control": "private, max-age=3600"}  # a file or an emoji never changes under its id
WORLD = web.AppKey("world", World)
CLOSED_FORMS = web.AppKey("closed_forms", set)
STOPPING = web.AppKey("stopping", asyncio.Event)


def make_app(world: World) -> web.Application:
    app = web.Application(client_max_size=64 * 1024)
    app[WORLD] = world
    app[CLOSED_FORMS] = set()
    app[STOPPING] = asyncio.Event()
    app.router.add_get("/", _page)
    app.router.add_get("/static/{name}", _static)
    app.router.add_get("/api/people", _people)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/commands", _commands)
    app.router.add_post("/api/act", _act)
    app.router.add_get("/api/events", _events)
    app.router.add_get("/files/{person}/{message}/{file}", _file)
    app.router.add_get("/emojis/{emoji}", _emoji)
    app.on_shutdown.append(_stop_streams)
    return app


def _bad(message: str, status: int = 400) -> web.Response:
    return web.json_response({"error": message}, status=status)


async def _page(request: web.Request) -> web.Response:
    return _served("index.html")


async def _static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in PAGE_FILES:
        return _bad(f"no file {name!r}", 404)
    return _served(name)


def _served(name: str) -> web.Response:
    body = (STATIC / name).read_bytes()
    return web.Response(body=body, content_type=PAGE_FILES[name], charset="utf-8")


async def _people(request: web.Request) -> web.Response:
    return web.json_response([person(p) for p in request.app[WORLD].people])


async def _state(request: web.Request) -> web.Response:
    world = request.app[WORLD]
    viewer = world.person(request.query.get("as"))
    if viewer is None:
        return _bad(f"nobody here has the id {request.query.get('as')!r}")
    reading = id_number(request.query.get("channel", ""))
    return web.json_response(
        seen_by(world, viewer, request.app[CLOSED_FORMS], reading if reading > 0 else None)
    )


async def _commands(request: web.Request) -> web.Response:
    world = request.app[WORLD]
    # What the server's command box offers: the bot's global commands and any it registered for this server.
    registered = world.fake.commands() + world.fake.commands(world.guild)
    locale = world.guild.preferred_locale
    return web.json_response({"locale": locale, "labels": labels(locale), "commands": registered})


async def _act(request: web.Request) -> web.Response:
    try:
        asked: Any = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _bad("the body is not JSON")
    try:
        done = await act(request.app[WORLD], asked, request.app[CLOSED_FORMS])
    except BadAct as refused:
        return _bad(str(refused))
    return web.json_response({"interaction": str(done.id)})


async def _events(request: web.Request) -> web.StreamResponse:
    fake, stopping = request.app[WORLD].fake, request.app[STOPPING]
    stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
    await stream.prepare(request)
    await stream.write(b"event: change\ndata: hello\n\n")
    try:
        while not stopping.is_set():
            if await fake.next_change(KEEP_ALIVE_SECONDS):
                await asyncio.sleep(UPDATE_EVERY)  # let a burst of changes land, then say it once
                await stream.write(b"event: change\ndata: 1\n\n")
            else:
                await stream.write(b": still here\n\n")
    except ConnectionResetError:  # the page was closed or reloaded
        pass
    return stream


async def _stop_streams(app: web.Application) -> None:
    app[STOPPING].set()


async def _file(request: web.Request) -> web.Response:
    world = request.app[WORLD]
    viewer = world.person(request.match_info["person"])
    message = world.fake.messages.get(id_number(request.match_info["message"]))
    if viewer is None or message is None or not message.visible_to(viewer):
        return _bad("no such file for this person", 404)
    for attachment in message.attachments:
        if str(attachment.id) == request.match_info["file"]:
            guessed = mimetypes.guess_type(attachment.filename)[0]  # the upload says only "octet-stream"
            kind = guessed or attachment.content_type or "application/octet-stream"
            return web.Response(body=attachment.data, content_type=kind, headers=KEEP)
    return _bad("no such file for this person", 404)


async def _emoji(request: web.Request) -> web.Response:
    emoji = request.app[WORLD].fake.application_emojis.get(id_number(request.match_info["emoji"]))
    if emoji is None:
        return _bad("no such emoji", 404)
    return web.Response(body=emoji.image, content_type=emoji.content_type, headers=KEEP)
