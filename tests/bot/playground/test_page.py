"""The playground's page in a real headless browser (Debian's chromium through Playwright), in English and
in Portuguese, each game started from the page's command box and played by clicking: a whole Hot Streak
game as three people, one of whom takes no DMs and picks through "My hand"; a Downforce auction and the
race's first cards until a person has played one; one Horse Race race, its dice rolled by hand.

Skipped where Playwright or /usr/bin/chromium is missing; .ci/run installs both and runs these tests
once, on the newest Python. ``UPDATE_SCREENSHOTS=1`` writes the README's pictures of the playground."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.i18n import _, _n, _p, speaking
from bot.i18n.languages import from_locale
from bot.playground.server import make_app
from bot.playground.world import LANGUAGES as LOCALES
from bot.playground.world import World, running_world
from cogs.downforce import present as downforce_present
from cogs.hotstreak import present as hotstreak_present
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
    "--disable-background-timer-throttling",  # a tab in the background still sees its updates at once
]
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
BET = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):bet:")
HAND = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:hand")
PICK = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(submit|double)")
# Downforce: a person's choice buttons for the card they played (in the channel, with their seat), their
# secret menus (a bid card, a card to play, an end space) and their secret bets, by DM.
DF_CHOICE = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):(move|wild|power|ignore|defensive):i\d+")
DF_MENU = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(bid|play|move)")
DF_BET = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):(bet|keep):i\d+")
ROLL = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):\d+:roll:")
LANGUAGES = ("en", "pt-BR")


def words_in(language: str) -> dict[str, Any]:
    """The words the test reads the page by, as the bot writes them in ``language`` (from its catalogs:
    the Portuguese run looks for the Portuguese words, so an untranslated one fails it)."""
    cut = "\x00"  # where a placeholder stood: the words before it

    with speaking(from_locale(LOCALES[language])):
        return {
            "commands": {game: _p("command name", game) for game in ("hotstreak", "downforce", "horserace")},
            "start": _p("command name", "start"),
            "prompts": (_("secret picks"), _("Race 3 — pick your double")),
            "waiting": (_("Waiting for"), _("Deadline")),
            "final": _("🏁 Final standings").removeprefix("🏁 "),
            # a race card from the third on (at a pace, the race's lines of several cards come together)
            "card": re.compile(re.escape(_("Card {n}", n=cut).split(cut)[0]) + r"([3-9]|\d\d) ·"),
            "times_up": _("⏰ Time's up for {names}: the AI decided for them.", names=cut).split(cut)[0],
            "join": _p("button", "Join"),
            "start_button": _p("button", "Start"),
            "add_ai": _p("button", "Add AI"),
            "ai": _("{name} (AI)", name=""),
            # Downforce: a card a person played, as the race's message says it ("Card 4 · alice plays ...")
            "played": re.compile(
                r"\d+".join(
                    re.escape(part.replace("**", ""))
                    for part in _("**Card {number}** · {what}", number=cut, what="").split(cut)
                )
                + "@?(alice|bob) "
                + re.escape(
                    _("{seat} plays {card}: {moves}.", seat=cut, card=cut, moves="").split(cut)[1].strip()
                )
            ),
            # The Horse Race: the final standings after its one race
            "hr_final": _n(
                "🏁 Final standings after {n} race", "🏁 Final standings after {n} races", 1, n=1
            ).removeprefix("🏁 "),
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
        await self.page.locator(f"{selector}.selected").wait_for()

    async def enabled(self, pattern: re.Pattern[str], kind: str = "button") -> list[str]:
        ids = await self.page.eval_on_selector_all(
            f"#messages {kind}[data-custom-id]:not([disabled])", "nodes => nodes.map(n => n.dataset.customId)"
        )
        return [i for i in ids if pattern.fullmatch(i) or pattern.match(i)]

    async def front(self) -> None:
        """Bring this tab to the front, as a person looks at their screen before clicking: a background tab
        draws no frames, and Playwright waits up to 2 s on frames to see that a button stands still."""
        await self.page.bring_to_front()

    async def click(self, custom_id: str) -> bool:
        """Click the newest enabled button ``custom_id``; False if there was none to click within 10 s: the
        page moved on between reading it and clicking (a prompt edited, its button disabled), as it may
        on a busy machine, and the caller reads the page again."""
        await self.front()
        button = self.page.locator(f"#messages button[data-custom-id='{custom_id}']:not([disabled])").last
        try:
            await button.click(timeout=10_000)
        except playwright.TimeoutError:
            return False
        return True

    async def choose_first(self, custom_id: str) -> None:
        await self.front()
        select = self.page.locator(f"#messages select[data-custom-id='{custom_id}']").last
        if await select.evaluate("s => s.multiple"):
            await select.select_option(index=0)
            await select.locator("xpath=following-sibling::button").click()
        else:
            await select.select_option(index=1)  # 0 is the placeholder

    async def text(self) -> str:
        """The conversation's words as shown (its text content: unlike the rendered text, reading it lays
        nothing out, and the tests read it several times a second)."""
        return str(await self.page.eval_on_selector("#messages", "list => list.textContent"))

    async def shot(self, folder: Path, name: str) -> None:
        await self.front()
        await self.page.wait_for_function("() => [...document.images].every((image) => image.complete)")
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
                if not await self.threads[self.seats[seat]].click(bets[-1]):
                    return True  # gone before the click: read the page again
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
                    if not await thread.click(hands[-1]):
                        return True  # gone before the click: read the page again
                    self.answered = prompt
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
        """The channel's newest message with a "My hand" button, as carol reads it (read in one go: the
        page redraws messages as they are edited)."""
        return str(
            await self.threads["carol"].page.evaluate(
                """() => {
                    const all = [...document.querySelectorAll("#messages li.message")]
                        .filter((li) => li.querySelector("button[data-custom-id*=':hand']"));
                    return all.length ? all[all.length - 1].innerText : "";
                }"""
            )
        )

    def waits_for_carol(self, prompt: str) -> bool:
        """Whether ``prompt`` asks for secret picks and still waits for carol (and is not the one she
        answered a moment ago, before the bot took her name off it)."""
        waiting, deadline = self.words["waiting"]
        asks = any(w in prompt for w in self.words["prompts"])
        return asks and prompt != self.answered and "carol" in prompt.split(waiting)[-1].split(deadline)[0]

    async def finished(self) -> bool:
        return self.words["final"] in await self.threads["alice"].text()


@dataclass
class Dealer:
    """Whatever a Downforce or Horse Race table asks of its people, done in their tabs: a button of the
    game's thread for the seat it waits for (a roll, a choice), a secret menu, bet or choice by DM."""

    threads: dict[str, Tab]
    dms: dict[str, Tab]
    seats: dict[int, str]
    done: set[str] = field(default_factory=set)
    played: int = 0  # Downforce race cards the people played

    async def step(self, public: re.Pattern[str]) -> bool:
        """One move that is due; False if none is."""
        first = next(iter(self.threads.values()))
        for custom_id in await first.enabled(public):
            seat = int(public.match(custom_id).group(1))  # type: ignore[union-attr]
            if seat in self.seats and custom_id not in self.done:
                if await self.threads[self.seats[seat]].click(custom_id):
                    self.done.add(custom_id)
                return True
        for name, tab in self.dms.items():
            # The choices of a card played by DM (where each car ends its move) are asked there too.
            for custom_id in await tab.enabled(public):
                asked = custom_id.rsplit(":", 1)[0]  # one of the buttons answers it
                if asked not in self.done:
                    if await tab.click(custom_id):
                        self.done.add(asked)
                    return True
            for menu in await tab.enabled(DF_MENU, "select"):
                if menu not in self.done:
                    self.done.add(menu)
                    self.played += menu.endswith(":play")
                    await tab.choose_first(menu)
                    return True
            bets = await tab.enabled(DF_BET)
            if bets and bets[0] not in self.done:  # one bet (or one power kept) of the several offered
                self.done.update(bets)
                if not await tab.click(bets[(len(self.done) + len(name)) % len(bets)]):
                    self.done.difference_update(bets)  # gone before the click: read the page again
                return True
        return False


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The race pictures' odds as a busy bot gives them: each game's quickest estimate (Hot Streak's 64
    simulated races for 2,000; Downforce's fitted model either way). The page shows the same picture;
    the 2,000 races were a fifth of a Hot Streak game's CPU here, and their precision is tested where
    the odds are (tests/bot/games)."""
    monkeypatch.setattr(hotstreak_present, "ODDS_BUDGET_MS", 0.0)
    monkeypatch.setattr(downforce_present, "ODDS_BUDGET_MS", 0.0)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def playground(tmp_path: Path, language: str) -> AsyncIterator[tuple[str, World]]:
    async with running_world(
        tmp_path, ["alice", "bob", "carol"], language, dms_closed={"carol"}, timing=FAST
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
    await page.goto(f"{url}?as={name}")
    await page.wait_for_selector("body[data-ready=yes]", timeout=10_000)
    return Tab(name, page)


def screenshots(tmp_path: Path, language: str) -> Path:
    """Where the pictures go: the README's folder with UPDATE_SCREENSHOTS=1 (the English run's), else
    the test's own."""
    return SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") and language == "en" else tmp_path


async def open_lobby(host: Tab, words: dict[str, Any], game: str, **options: str) -> None:
    """The host opens a lobby from the command box, as on Discord: "/", the command as the language names
    it (the box offers it so), then its options (a number typed, a choice picked from its list)."""
    typed = f"/{words['commands'][game]} {words['start']}"
    await host.page.fill("#command", typed)
    suggestion = host.page.locator(f"#suggestions li[data-command='{game} start']")
    assert (await suggestion.inner_text()).startswith(typed)
    await suggestion.click()
    for name, value in options.items():
        field = host.page.locator(f"#options [name='{name}']")
        if await field.evaluate("f => f.tagName") == "SELECT":
            await field.select_option(value=f'"{value}"')
        else:
            await field.fill(value)
    await host.page.press("#command", "Enter")
    await host.page.locator("#messages button", has_text=words["join"]).wait_for()


async def join_as(host: Tab, words: dict[str, Any], *names: str) -> None:
    """The switcher: the same tab becomes each of ``names`` in turn, who joins; then the host again."""
    for name in names:
        await host.page.select_option("#person", label=name)
        await host.page.wait_for_function(
            "n => document.querySelector('#dms li')?.textContent.includes(n)", arg=name
        )
        await host.page.locator("#messages button", has_text=words["join"]).click()
        await host.page.locator("#messages li.message", has_text=f"@{name}").wait_for()
    await host.page.select_option("#person", label=host.name)
    await host.page.locator("#messages li.message", has_text=f"@{names[-1]}").wait_for()


async def play(step: Any, done: Any, tab: Tab, what: str, steps: int = 600) -> None:
    """``step()`` until ``done()``; whenever nothing is due, until the page shows something new (every
    change wakes every tab) or a second has passed: the test does not poll a slow bot all the faster."""
    for _attempt in range(steps):
        seen = await tab.page.evaluate("() => document.body.dataset.updates")
        if await done():
            return
        if not await step():
            with contextlib.suppress(playwright.TimeoutError):
                await tab.page.wait_for_function(
                    "n => document.body.dataset.updates !== n", arg=seen, polling=50, timeout=1000
                )
    raise AssertionError(f"{what} did not end:\n" + (await tab.text())[-2000:])


@pytest.mark.timeout(300)  # a guard against a hang; a loaded machine took 156 s
async def test_three_people_play_a_whole_hot_streak_game_by_clicking(
    playground: tuple[str, World], browser: Any, tmp_path: Path, language: str
) -> None:
    url, world = playground
    words = words_in(language)
    shots = screenshots(tmp_path, language)
    errors: list[str] = []
    host = await open_tab(browser, url, "alice", errors)  # (how soon it is usable: bench/bench_playground.py)

    await open_lobby(host, words, "hotstreak", pace="0.1")
    await join_as(host, words, "bob", "carol")
    await host.page.locator("#messages button", has_text=words["add_ai"]).click()
    await host.page.locator("#messages li.message", has_text=words["ai"]).wait_for()
    await host.shot(shots, "lobby")
    await host.page.locator("#messages button", has_text=words["start_button"]).click()

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

    shot = {"betting": False, "race": False}

    async def step() -> bool:
        if not shot["betting"] and await threads["alice"].enabled(BET):
            await threads["alice"].shot(shots, "betting")
            shot["betting"] = True
        if not shot["race"] and words["card"].search(await threads["alice"].text()):
            await threads["alice"].shot(shots, "race")
            shot["race"] = True
        return await table.step()

    await play(step, table.finished, threads["alice"], "the game")
    await threads["alice"].shot(shots, "standings")
    assert shot == {"betting": True, "race": True}, "the README's pictures were taken"
    final = await threads["alice"].text()
    standings = final.split(words["final"])[-1]
    assert all(name in standings for name in ("alice", "bob", "carol", words["ai"])), standings
    assert words["times_up"] not in final, "everyone made every move in time, by clicking"
    assert table.answered, "carol picked through My hand"
    assert await threads["alice"].page.locator("img.embed-image, img.file-image").count() > 0
    assert errors == []
    assert world.fake.unknown_routes == []


async def at_a_table(
    browser: Any,
    url: str,
    words: dict[str, Any],
    game: str,
    errors: list[str],
    people: tuple[str, ...],
    dms: bool,
    **options: str,
) -> tuple[dict[str, Tab], dict[str, Tab]]:
    """alice opens ``game``'s lobby, the other ``people`` join, alice adds an AI and starts it; then each
    person reads the game's thread in one tab and (if ``dms``: the game asks things there) their DMs in
    another."""
    host = await open_tab(browser, url, "alice", errors)
    await open_lobby(host, words, game, **options)
    if people[1:]:
        await join_as(host, words, *people[1:])
    await host.page.locator("#messages button", has_text=words["add_ai"]).click()
    await host.page.locator("#messages li.message", has_text=words["ai"]).wait_for()
    await host.page.locator("#messages button", has_text=words["start_button"]).click()
    await host.page.locator("#channels li.thread").wait_for()
    threads = {"alice": host} | {name: await open_tab(browser, url, name, errors) for name in people[1:]}
    for tab in threads.values():
        await tab.show("thread")
    private = {name: await open_tab(browser, url, name, errors) for name in people if dms}
    for tab in private.values():
        await tab.show("dm")
    return threads, private


@pytest.mark.timeout(300)  # a guard against a hang; a loaded machine took 156 s
async def test_two_people_bid_in_a_downforce_auction_and_play_a_race_card_by_clicking(
    playground: tuple[str, World], browser: Any, tmp_path: Path, language: str
) -> None:
    url, world = playground
    words = words_in(language)
    errors: list[str] = []
    threads, dms = await at_a_table(
        browser, url, words, "downforce", errors, ("alice", "bob"), dms=True, players="3"
    )
    dealer = Dealer(threads, dms, {0: "alice", 1: "bob"})

    async def a_person_played() -> bool:
        return words["played"].search(await threads["alice"].text()) is not None

    # The auction (a bid card for each car, picked in secret by DM), then the race until a card of
    # alice's or bob's is played (the AI's cards go meanwhile).
    await play(lambda: dealer.step(DF_CHOICE), a_person_played, threads["alice"], "the first cards")
    await threads["alice"].shot(screenshots(tmp_path, language), "downforce")
    bids = [i for i in dealer.done if i.endswith(":bid")]
    assert {DF_MENU.match(i).group(1) for i in bids} == {"0", "1"}, bids  # type: ignore[union-attr]
    assert dealer.played >= 1
    assert await threads["alice"].page.locator("img.embed-image, img.file-image").count() > 0
    assert words["times_up"] not in await threads["alice"].text()
    assert errors == []
    assert world.fake.unknown_routes == []


@pytest.mark.timeout(300)  # a guard against a hang; a loaded machine took 156 s
async def test_a_person_rolls_a_horse_race_by_clicking_against_the_ai(
    playground: tuple[str, World], browser: Any, tmp_path: Path, language: str
) -> None:
    url, world = playground
    words = words_in(language)
    errors: list[str] = []
    # (one person and the AI: a race is about sixty rolls, and the AI rolls its own at once)
    threads, _dms = await at_a_table(
        browser, url, words, "horserace", errors, ("alice",), dms=False, races="1", rolls="manual", pace="0.1"
    )
    dealer = Dealer(threads, {}, {0: "alice"})

    async def over() -> bool:
        return words["hr_final"] in await threads["alice"].text()

    await play(lambda: dealer.step(ROLL), over, threads["alice"], "the race")
    # The race's animated replay comes after its results, drawn off the event loop: shown on the results.
    await threads["alice"].page.locator("#messages img.embed-image").last.wait_for(timeout=60_000)
    await threads["alice"].shot(screenshots(tmp_path, language), "horserace")
    assert len(dealer.done) >= 5, "alice rolled on her turns"  # 4 scratches and the race: 5 at the least
    final = (await threads["alice"].text()).split(words["hr_final"])[-1]
    assert "alice" in final and words["ai"] in final
    assert words["times_up"] not in await threads["alice"].text()
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
