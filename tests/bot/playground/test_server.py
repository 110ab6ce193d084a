"""The playground's JSON API as the page uses it: the real bot on the fake Discord, people acting through
HTTP, and each person seeing only what is theirs. (The page itself, in a browser: test_page.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.playground.server import make_app
from bot.playground.world import World, running_world
from tests.cogs.timings import FAST


class Page:
    """The API as one browser tab sees it, switching between people like the page's switcher."""

    def __init__(self, client: TestClient, world: World) -> None:
        self.client = client
        self.world = world

    def id_of(self, name: str) -> str:
        return next(str(p.id) for p in self.world.people if p.name == name)

    async def state(self, name: str) -> dict[str, Any]:
        response = await self.client.get("/api/state", params={"as": self.id_of(name)})
        assert response.status == 200
        return await response.json()

    async def act(self, name: str, **request: Any) -> tuple[int, dict[str, Any]]:
        response = await self.client.post("/api/act", json={"as": self.id_of(name), **request})
        return response.status, await response.json()

    async def messages(self, name: str, channel: str = "games") -> list[dict[str, Any]]:
        state = await self.state(name)
        return next(c for c in state["channels"] if c["name"] == channel)["messages"]

    async def wait_for(self, name: str, check: Any, what: str, channel: str = "games") -> dict[str, Any]:
        for _ in range(250):
            found = next((m for m in await self.messages(name, channel) if check(m)), None)
            if found is not None:
                return found
            await asyncio.sleep(0.02)
        raise AssertionError(f"{name} never saw {what}: {await self.messages(name, channel)}")


def words(message: dict[str, Any]) -> str:
    parts = [message["content"]]
    for embed in message["embeds"]:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def buttons(message: dict[str, Any]) -> dict[str, str]:
    """label -> custom_id of the message's buttons."""
    return {c["label"]: c["custom_id"] for row in message["components"] for c in row.get("components", [])}


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[Page]:
    async with running_world(tmp_path, ["alice", "bob", "carol"], "en", timing=FAST) as world:
        async with TestClient(TestServer(make_app(world))) as client:
            yield Page(client, world)


def games_id(page: Page) -> str:
    return str(page.world.games.id)


async def test_alice_starts_hot_streak_from_the_command_box_and_bob_joins_by_clicking(page: Page) -> None:
    status, _ = await page.act("alice", kind="command", command="hotstreak start", channel=games_id(page))
    assert status == 200
    lobby = await page.wait_for("bob", lambda m: "Join" in buttons(m), "the lobby")
    assert lobby["used"] == {"name": "alice", "command": "hotstreak start"}
    status, _ = await page.act("bob", kind="button", message=lobby["id"], custom_id=buttons(lobby)["Join"])
    assert status == 200
    bob = f"<@{page.id_of('bob')}>"
    await page.wait_for("carol", lambda m: m["id"] == lobby["id"] and bob in words(m), "bob in the lobby")


async def test_a_private_answer_is_seen_only_by_the_person_it_is_for(page: Page) -> None:
    await page.act("alice", kind="command", command="hotstreak start", channel=games_id(page))
    await page.wait_for("alice", lambda m: "Join" in buttons(m), "the lobby")
    await page.act("bob", kind="command", command="hotstreak status", channel=games_id(page))
    answer = await page.wait_for("bob", lambda m: m["ephemeral"], "bob's private answer")
    assert "lobby" in words(answer)
    assert not any(m["ephemeral"] for m in await page.messages("alice"))
    assert not any(m["ephemeral"] for m in await page.messages("carol"))


async def test_the_command_list_offers_the_games_with_their_options_and_choices(page: Page) -> None:
    answer = await (await page.client.get("/api/commands")).json()
    assert answer["locale"] == "en-US" and answer["labels"]["send"] == "Send"
    by_name = {c["name"]: c for c in answer["commands"]}
    assert {"hotstreak", "horserace", "downforce", "help"} <= set(by_name)
    start = next(o for o in by_name["downforce"]["options"] if o["name"] == "start")
    track = next(o for o in start["options"] if o["name"] == "track")
    assert "river-station" in {c["value"] for c in track["choices"]}


async def test_bad_requests_are_refused_with_a_reason_and_change_nothing(page: Page) -> None:
    await page.act("alice", kind="command", command="hotstreak start", channel=games_id(page))
    lobby = await page.wait_for("alice", lambda m: "Join" in buttons(m), "the lobby")
    before = await page.state("alice")
    refused = [
        await page.client.post("/api/act", data=b"{not json"),
        await page.client.post("/api/act", json={"as": "12345", "kind": "button"}),
        await page.client.post("/api/act", json=["a list"]),
        await page.client.get("/api/state", params={"as": "mallory"}),
    ]
    refused_acts = [
        await page.act("bob", kind="button", message=lobby["id"], custom_id="hs:stale:join"),
        await page.act("bob", kind="button", message="999", custom_id=buttons(lobby)["Join"]),
        await page.act(
            "bob", kind="select", message=lobby["id"], custom_id=buttons(lobby)["Join"], values="x"
        ),
        await page.act("bob", kind="command", command="nosuchgame start", channel=games_id(page)),
        await page.act(
            "bob",
            kind="command",
            command="hotstreak start",
            channel=games_id(page),
            options={"players": "many"},
        ),
        await page.act("bob", kind="form", form="1", values={}),
        await page.act("bob", kind="dance"),
    ]
    assert [r.status for r in refused] == [400] * 4
    for response in refused:
        assert (await response.json())["error"]
    for status, answer in refused_acts:
        assert status == 400 and answer["error"], answer
    await asyncio.sleep(0.2)
    assert (await page.state("alice"))["channels"] == before["channels"]


async def test_pictures_are_served_to_the_people_of_the_server_and_nobody_else(page: Page) -> None:
    await page.act("alice", kind="command", command="leaderboard", channel=games_id(page))
    board = await page.wait_for(
        "alice", lambda m: m["files"] or any(e.get("image") for e in m["embeds"]), "a board"
    )
    url = next(
        iter(
            [f["url"] for f in board["files"]]
            + [e["image"]["url"] for e in board["embeds"] if e.get("image")]
        )
    )
    picture = await page.client.get(url)
    assert picture.status == 200 and picture.content_type == "image/png"
    assert (await page.client.get(url.replace(page.id_of("alice"), "12345"))).status == 404
    assert (await page.client.get(url.rsplit("/", 1)[0] + "/999")).status == 404


async def test_the_page_hears_of_every_change_as_it_happens(page: Page) -> None:
    response = await page.client.get("/api/events")
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert await response.content.readuntil(b"\n\n") == b"event: change\ndata: hello\n\n"
    await page.act("alice", kind="command", command="hotstreak start", channel=games_id(page))
    changed = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 5)
    assert changed.startswith(b"event: change")
    response.close()


async def test_the_page_and_its_script_are_served_from_the_package(page: Page) -> None:
    html = await (await page.client.get("/")).text()
    assert '<script src="/static/app.js">' in html and "http" not in html.replace("http-equiv", "")
    script = await page.client.get("/static/app.js")
    assert script.status == 200 and "textContent" in await script.text()
    assert (await page.client.get("/static/secrets.txt")).status == 404


def test_an_emoji_id_too_big_for_javascript_reaches_the_page_as_text() -> None:
    from bot.playground.seen import _ids_as_text

    row = [
        {
            "type": 1,
            "components": [
                {"type": 2, "emoji": {"id": 1578029785458671616, "name": "hs_gobbler"}, "style": 1}
            ],
        }
    ]
    assert _ids_as_text(row)[0]["components"][0] == {
        "type": 2,
        "emoji": {"id": "1578029785458671616", "name": "hs_gobbler"},
        "style": 1,
    }


async def test_in_portuguese_the_page_the_commands_and_the_bot_speak_portuguese(tmp_path: Path) -> None:
    async with running_world(tmp_path, ["ana", "bia"], "pt-BR", timing=FAST) as world:
        async with TestClient(TestServer(make_app(world))) as client:
            page = Page(client, world)
            answer = await (await client.get("/api/commands")).json()
            assert answer["locale"] == "pt-BR" and answer["labels"]["send"] == "Enviar"
            hotstreak = next(c for c in answer["commands"] if c["name"] == "hotstreak")
            start = next(o for o in hotstreak["options"] if o["name"] == "start")
            assert start["name_localizations"]["pt-BR"] == "iniciar"
            await page.act("ana", kind="command", command="hotstreak start", channel=games_id(page))
            lobby = await page.wait_for("bia", lambda m: m["components"], "the lobby")
            assert "Entrar" in buttons(lobby), buttons(lobby)
