"""The playground's page in a real headless browser (Debian's chromium through Playwright): a whole Hot
Streak game played by clicking, as three people, one of whom takes no DMs and picks through "My hand".

Skipped where Playwright or /usr/bin/chromium is missing; .ci/run installs both and runs these tests
once, on the newest Python. ``UPDATE_SCREENSHOTS=1`` writes the README's pictures of the playground."""

from __future__ import annotations

import os
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.playground.server import make_app
from bot.playground.world import World, running_world
from tests.cogs.timings import FAST

CHROMIUM = "/usr/bin/chromium"
try:
    import playwright.async_api as playwright
except ImportError:
    playwright = None
MISSING = "Playwright (pip install playwright)" if playwright is None else None
MISSING = MISSING or (
    None if Path(CHROMIUM).exists() else f"Debian's chromium at {CHROMIUM} (apt-get install chromium)"
)
if MISSING and os.environ.get("PLAYGROUND_BROWSER") == "required":  # .ci/run, on the newest Python
    pytest.fail(f"the browser tests need {MISSING}", pytrace=False)
if MISSING:
    pytest.skip(f"the browser tests need {MISSING}", allow_module_level=True)

# Nothing of the browser's own reaches out: no updates, no sync, no QUIC, no first-run pages.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
BET = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):bet:")
HAND = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:hand")
PICK = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(submit|double)")
WORDS = {
    "en": {
        "prompts": ("secret picks", "pick your double"),
        "waiting": ("Waiting for", "Deadline"),
        "final": "Final standings",
        "card": "Card 3 ·",
        "times_up": "Time's up",
        "join": "Join",
        "start": "Start",
        "add_ai": "Add AI",
        "results": "Race 1",
    },
}


@dataclass
class Tab:
    """One browser tab as one person: what they see and what they click."""

    name: str
    page: Any

    async def show(self, where: str) -> None:
        """Open a channel from the sidebar: "games", "thread" (the newest) or "dm"."""
        selector = {"games": "#channels li.text", "thread": "#channels li.thread", "dm": "#dms li"}[where]
        await self.page.locator(selector).last.click()

    async def enabled(self, pattern: re.Pattern[str], kind: str = "button") -> list[str]:
        ids = await self.page.eval_on_selector_all(
            f"#messages {kind}[data-custom-id]:not([disabled])", "nodes => nodes.map(n => n.dataset.customId)"
        )
        return [i for i in ids if pattern.fullmatch(i) or pattern.match(i)]

    async def click(self, custom_id: str) -> None:
        await self.page.locator(f"#messages button[data-custom-id='{custom_id}']").last.click()

    async def choose_first(self, custom_id: str) -> None:
        select = self.page.locator(f"#messages select[data-custom-id='{custom_id}']").last
        if await select.evaluate("s => s.multiple"):
            await select.select_option(index=0)
            await select.locator("xpath=following-sibling::button").click()
        else:
            await select.select_option(index=1)  # 0 is the placeholder

    async def text(self) -> str:
        return await self.page.inner_text("#messages")

    async def shot(self, folder: Path, name: str) -> None:
        await self.page.screenshot(path=str(folder / f"playground-{name}.png"))


@dataclass
class Table:
    """Three people at one Hot Streak table, each in a tab of their own; carol takes no DMs."""

    tabs: dict[str, Tab]
    threads: dict[str, Tab]
    seats: dict[int, str]
    words: dict[str, Any]
    done: set[str] = field(default_factory=set)
    answered: str = ""  # the prompt as it read when carol last picked from her hand

    async def step(self) -> bool:
        """Make one move that is due, as the person it is due from; False if none is (a race is on)."""
        bets = await self.threads["alice"].enabled(BET)
        if bets:
            seat = int(BET.match(bets[-1]).group(1))  # type: ignore[union-attr]
            if seat in self.seats:
                await self.threads[self.seats[seat]].click(bets[-1])
                await self.threads["alice"].page.wait_for_function(
                    "id => !document.querySelector(`#messages button[data-custom-id='${id}']:not([disabled])`)",
                    arg=bets[-1],
                )
                return True
        for name, thread in self.threads.items():
            if name == "carol":
                hands = await thread.enabled(HAND)
                prompt = await self.hand_prompt()
                if hands and self.waits_for_carol(prompt):
                    self.answered = prompt
                    await thread.click(hands[-1])
                    for _ in range(50):  # her hand, with the menu to pick from, only she sees
                        if [p for p in await thread.enabled(PICK, "select") if p not in self.done]:
                            break
                        await thread.page.wait_for_timeout(100)
            # A secret pick comes as a DM, or (to whoever just clicked in the thread) as a private answer there.
            for tab in [thread] if self.tabs[name] is thread else [thread, self.tabs[name]]:
                picks = [p for p in await tab.enabled(PICK, "select") if p not in self.done]
                if picks:
                    self.done.add(picks[0])
                    await tab.choose_first(picks[0])
                    return True
        return False

    async def hand_prompt(self) -> str:
        """The channel's newest message with a "My hand" button, as carol reads it."""
        carol = self.threads["carol"]
        with_hand = carol.page.locator(
            "#messages li.message", has=carol.page.locator("button[data-custom-id*=':hand']")
        )
        return await with_hand.last.inner_text() if await with_hand.count() else ""

    def waits_for_carol(self, prompt: str) -> bool:
        """Whether ``prompt`` asks for secret picks and still waits for carol (and is not the one she
        answered a moment ago, before the bot took her name off it)."""
        waiting, deadline = self.words["waiting"]
        asks = any(w in prompt for w in self.words["prompts"])
        return asks and prompt != self.answered and "carol" in prompt.split(waiting)[-1].split(deadline)[0]

    async def finished(self) -> bool:
        return self.words["final"] in await self.threads["alice"].text()


@pytest.fixture
async def playground(tmp_path: Path) -> AsyncIterator[tuple[str, World]]:
    async with running_world(
        tmp_path, ["alice", "bob", "carol"], "en", dms_closed={"carol"}, timing=FAST
    ) as world:
        runner = web.AppRunner(make_app(world), access_log=None, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            yield f"http://127.0.0.1:{runner.addresses[0][1]}/", world
        finally:
            await runner.cleanup()


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Any]:
    async with playwright.async_playwright() as driver:
        launched = await driver.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),  # a fresh profile: nothing from this machine's browser
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport={"width": 1100, "height": 860},
        )
        try:
            yield launched
        finally:
            await launched.close()


async def open_tab(browser: Any, url: str, name: str, errors: list[str]) -> Tab:
    page = await browser.new_page()
    page.on("pageerror", lambda error: errors.append(f"{name}: {error}"))
    started = time.monotonic()
    await page.goto(f"{url}?as={name}")
    await page.wait_for_selector("body[data-ready=yes]", timeout=10_000)
    assert time.monotonic() - started < 3, "the page took over 3 s to be interactive"
    return Tab(name, page)


@pytest.mark.timeout(180)
async def test_three_people_play_a_whole_hot_streak_game_by_clicking(
    playground: tuple[str, World], browser: Any, tmp_path: Path
) -> None:
    url, world = playground
    words = WORDS["en"]
    shots = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path
    errors: list[str] = []
    host = await open_tab(browser, url, "alice", errors)

    # Alice opens a lobby from the command box, as on Discord: "/", pick the command, fill an option.
    await host.page.fill("#command", "/hotst")
    await host.page.locator("#suggestions li[data-command='hotstreak start']").click()
    await host.page.fill("#options input[name='pace']", "0")
    await host.page.press("#command", "Enter")
    await host.page.locator("#messages button", has_text=words["join"]).wait_for()

    # The switcher: the same tab becomes bob, then carol, and each joins.
    for name in ("bob", "carol"):
        await host.page.select_option("#person", label=name)
        await host.page.wait_for_function(
            "n => document.querySelector('#dms li')?.textContent.includes(n)", arg=name
        )
        await host.page.locator("#messages button", has_text=words["join"]).click()
        await host.page.locator("#messages li.message", has_text=f"@{name}").wait_for()
    await host.page.select_option("#person", label="alice")
    await host.page.locator("#messages li.message", has_text="@carol").wait_for()
    await host.page.locator("#messages button", has_text=words["add_ai"]).click()
    await host.page.locator("#messages li.message", has_text="(AI").wait_for()
    await host.shot(shots, "lobby")
    await host.page.locator("#messages button", has_text=words["start"]).click()

    # Each person in a tab of their own: the game's thread, and (but for carol) their DMs.
    await host.page.locator("#channels li.thread").wait_for()
    threads = {"alice": host}
    tabs: dict[str, Tab] = {}
    for name in ("bob", "carol"):
        threads[name] = await open_tab(browser, url, name, errors)
    for name in ("alice", "bob", "carol"):
        await threads[name].show("thread")
    for name in ("alice", "bob"):
        tabs[name] = await open_tab(browser, url, name, errors)
        await tabs[name].show("dm")
    tabs["carol"] = threads["carol"]
    table = Table(tabs, threads, {0: "alice", 1: "bob", 2: "carol"}, words)

    shot_betting = shot_race = False
    for _ in range(600):
        if await table.finished():
            break
        if not shot_betting and await threads["alice"].enabled(BET):
            await threads["alice"].shot(shots, "betting")
            shot_betting = True
        if not shot_race and words["card"] in await threads["alice"].text():
            await threads["alice"].shot(shots, "race")
            shot_race = True
        if not await table.step():
            await threads["alice"].page.wait_for_timeout(150)
    else:
        raise AssertionError("the game did not finish:\n" + (await threads["alice"].text())[-2000:])

    await threads["alice"].shot(shots, "standings")
    final = await threads["alice"].text()
    standings = final.split(words["final"])[-1]
    assert all(name in standings for name in ("alice", "bob", "carol", "(AI)")), standings
    assert words["times_up"] not in final, "everyone made every move in time, by clicking"
    assert table.answered, "carol picked through My hand"
    assert await threads["alice"].page.locator("img.embed-image, img.file-image").count() > 0
    assert errors == []
    assert world.fake.unknown_routes == []


SNEAKY = "<img src=x onerror=alert(1)>"


@pytest.fixture
async def sneaky_playground(tmp_path: Path) -> AsyncIterator[str]:
    async with running_world(tmp_path, [SNEAKY, "bob"], "en", timing=FAST) as world:
        runner = web.AppRunner(make_app(world), access_log=None, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            yield f"http://127.0.0.1:{runner.addresses[0][1]}/"
        finally:
            await runner.cleanup()


async def test_a_name_written_as_html_is_shown_as_the_text_it_is(
    sneaky_playground: str, browser: Any
) -> None:
    errors: list[str] = []
    tab = await open_tab(browser, sneaky_playground, "bob", errors)
    await tab.page.select_option("#person", label=SNEAKY)
    await tab.page.fill("#command", "/hotstreak start")
    await tab.page.locator("#suggestions li[data-command='hotstreak start']").click()
    await tab.page.press("#command", "Enter")
    await tab.page.locator("#messages .used", has_text=SNEAKY).wait_for()
    assert await tab.page.locator("img[src='x']").count() == 0
    assert SNEAKY in await tab.page.inner_text("#dms")
    assert errors == []
