"""The README's screenshots: real games played through the fake Discord, drawn as Discord shows them.

Each test plays a game, picks the moments a newcomer should see (the lobby, a betting prompt, a secret
pick, a race frame, results, standings, the Horse Race board), draws them with ``render_messages`` and
checks the pictures. They are always written to the test's tmp_path; with ``UPDATE_SCREENSHOTS=1`` they
also replace the files in docs/screenshots/ that the README shows.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, MessageVersion, text_of
from bot.fakediscord.screenshot import Shown, render_messages
from bot.paths import ROOT
from tests.cogs.conftest import World, join
from tests.cogs.hotstreak_player import BET_ID, SELECT_ID, HotStreakTable

DOCS = ROOT / "docs" / "screenshots"
WIDTH = 560  # a narrow chat column: the pictures in it at the size Discord shows them
MAX_BYTES = 300_000


def versions(message: FakeMessage) -> list[tuple[FakeMessage, MessageVersion]]:
    """Every look the message had, oldest first, each paired with the message it belongs to."""
    return [(message, version) for version in [*message.edits, message.snapshot()]]


def has_button(version: MessageVersion, label: str) -> bool:
    return any(c.get("label") == label for row in version.components for c in row.get("components", [row]))


def custom_ids(version: MessageVersion) -> list[str]:
    return [str(c.get("custom_id") or "") for row in version.components for c in row.get("components", [row])]


def save(png: bytes, name: str, tmp_path: Path) -> Image.Image:
    """Check the picture is a sensible PNG, write it to tmp_path, and to docs/ when asked to."""
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG"
    assert picture.width == WIDTH
    assert 100 <= picture.height <= 2000, f"{name} is {picture.height} px tall"
    assert len(png) <= MAX_BYTES, f"{name} is {len(png)} bytes"
    # Not a blank page: Discord's background plus text, buttons and pictures make many colours.
    assert len(picture.convert("RGB").getcolors(1 << 20) or []) > 50
    (tmp_path / name).write_bytes(png)
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        (DOCS / name).write_bytes(png)
    return picture


def names_of(world: World) -> dict[int, str]:
    return {user.id: user.name for user in world.users.values()}


async def test_a_hot_streak_game_is_drawn_from_lobby_to_final_standings(
    world: World, bot: RaceBot, tmp_path: Path
) -> None:
    fake, users = world.fake, world.users
    lobby = await (await fake.slash(users["alice"], world.channel, "hotstreak start", pace=0.0)).reply()
    await join(fake, lobby, users["bob"])
    await (await fake.click_button(users["alice"], lobby, "Add AI")).wait_response()
    table = HotStreakTable(world, {0: users["alice"], 1: users["bob"]})
    await (await fake.click_button(users["alice"], lobby, "Start")).wait_response()
    await table.play_to_the_end(dm_less={"bob"})  # bob plays through "My hand", as if his DMs were closed

    channel = fake.channel_messages(world.channel)
    every = [pair for message in channel for pair in versions(message)]
    names = names_of(world)

    def draw(shown: list[Shown], name: str, viewer: str | None = None) -> Image.Image:
        png = render_messages(
            shown,
            names=names,
            viewer_name=viewer,
            width=WIDTH,
            title="# games",
            emojis=world.fake.application_emojis,  # the mascots' own emojis, as uploaded at start
        )
        return save(png, name, tmp_path)

    # The lobby while it was open: full of players, Join still there.
    open_lobby = [pair for pair in versions(lobby) if has_button(pair[1], "Join")][-1]
    assert "Ada (AI)" in text_of(open_lobby[1]) and lobby.interaction is not None
    draw([open_lobby], "01-lobby.png")

    # The first betting prompt of the game, as the player on turn sees it (mentioned, so highlighted).
    betting = next(
        pair
        for pair in every
        if "place your bets" in text_of(pair[1]) and any(BET_ID.match(c) for c in custom_ids(pair[1]))
    )
    seat = next(int(m.group(1)) for c in custom_ids(betting[1]) if (m := BET_ID.match(c)))
    better = table.seats[seat]  # the unluckiest human bets first; with no history, drawn by lot
    assert better.mention in betting[1].embeds[0]["description"]
    draw([betting], "02-betting.png", viewer=better.name)

    # The secret-pick prompt in the channel, then bob's "My hand" answer with the menu only he sees.
    prompt = next(
        pair for pair in every if "secret picks" in text_of(pair[1]) and has_button(pair[1], "My hand")
    )
    hand = next(
        pair
        for message in fake.ephemeral_for(users["bob"])
        for pair in versions(message)
        if any(SELECT_ID.match(c) and c.endswith("submit") for c in custom_ids(pair[1]))
    )
    assert "Your hand" in text_of(hand[1]) and hand[1].flags & 64
    draw([prompt, hand], "03-secret-pick.png", viewer="bob")

    # A frame from the middle of the first race: the flipped card and the track it left.
    # The race's live message is edited card by card: any of its looks with a card's picture will do.
    race_one = [
        pair
        for pair in every
        if pair[1].content.startswith("**Card")
        and any(a.filename.startswith("race1-") for a in pair[1].attachments)
    ]
    moving = [
        pair for pair in race_one if "runs from" in pair[1].content
    ] or race_one  # not "nothing happens"
    assert moving, [
        (v.content[:40], [a.filename for a in v.attachments]) for _, v in every if "Card" in v.content
    ]
    frame = moving[len(moving) // 2]
    picture = draw([frame], "04-race-frame.png")
    assert picture.height > 300  # the track picture is in it, not just the caption

    results = next(m for m in channel if "Race 1 results" in m.text)
    draw([results], "05-results.png")

    standings = next(m for m in channel if "Final standings" in m.text)
    for name in ("alice", "bob", "Ada (AI)"):
        assert name in standings.text
    draw([standings], "06-standings.png")


async def test_a_horse_race_is_drawn_on_its_live_board(world: World, bot: RaceBot, tmp_path: Path) -> None:
    fake, users = world.fake, world.users
    ix = await fake.slash(users["alice"], world.channel, "horserace start", races=1, rolls="auto", pace=0.0)
    lobby = await ix.reply()
    await join(fake, lobby, users["bob"])
    await (await fake.click_button(users["alice"], lobby, "Start")).wait_response()
    await fake.wait_for(
        lambda: any("Final standings" in m.text for m in fake.channel_messages(world.channel)), timeout=30
    )
    channel = fake.channel_messages(world.channel)
    board = next(m for m in channel if any(a.filename == "board.png" for a in m.attachments))
    setup = channel[channel.index(board) - 1]
    assert "Race 1" in setup.text and len(board.edits) >= 5
    # Two thirds into the race proper: horses strung out, scratch penalties in the log. (Not the last
    # version: the board is not redrawn for the winning roll, see cogs/horserace/present.py.)
    looks = versions(board)
    off = next(i for i, (_, v) in enumerate(looks) if "They're off" in v.content)
    racing = looks[off + (len(looks) - off) * 2 // 3]
    png = render_messages(
        [setup, racing],
        names=names_of(world),
        viewer_name="alice",
        width=WIDTH,
        title="# games",
        emojis=world.fake.application_emojis,
    )
    picture = save(png, "07-horserace-board.png", tmp_path)
    assert picture.height > 400  # the setup, the log and the board picture
