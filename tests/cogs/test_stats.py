"""/leaderboard, /stats and /history as people in a server see them, over results seeded through Storage.

The results are written with ``Storage.finish_game`` (a separate connection on the bot's own file,
before the bot starts) rather than by playing games: the cog only reads what the storage settled.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.client import RaceBot
from bot.fakediscord import FakeMessage, running_bot
from bot.ratings import Finish, Skill, rate
from bot.storage import PlayerResult, StakeRecord, Storage, period_start
from tests.cogs.conftest import World
from tests.cogs.test_config import private

NOW = time.time()
LONG_AGO = NOW - 400 * 86400  # in no period but "all time"
# Just before this week began: inside this month unless the month began this week too.
BEFORE_THIS_WEEK = (period_start("week", NOW) or NOW) - 30
IN_THIS_MONTH = BEFORE_THIS_WEEK >= (period_start("month", NOW) or NOW)


@dataclass
class Clock:
    now: float = NOW

    def __call__(self) -> float:
        return self.now


def result(
    seat: int, user_id: int | None, name: str, net: int, *, won: bool, bets: list[StakeRecord] | None = None
) -> PlayerResult:
    return PlayerResult(
        seat=seat, user_id=user_id, name=name, cash=100 + net, net=net, place=1 if won else 2, won=won,
        stakes=bets or [],
    )  # fmt: skip


async def settle(storage: Storage, world: World, kind: str, results: list[PlayerResult]) -> int:
    seats = [{"name": r.name, "user_id": r.user_id, "ai": None if r.user_id else "normal"} for r in results]
    game_id = await storage.create_game(kind, world.guild.id, world.channel.id, 1, {}, seats)
    assert await storage.finish_game(game_id, results)
    return game_id


def ids(world: World) -> dict[str, int]:
    return {name: user.id for name, user in world.users.items()}


async def seed_server(world: World) -> None:
    """Two kinds, AI seats, three periods, and enough players (14) for a second leaderboard page."""
    u = ids(world)
    clock = Clock()
    async with await Storage.open(str(world.db), clock=clock) as storage:
        # Seasons off: these games span months, and the ratings here are read without the soft reset at
        # each season's start (tests/bot/storage/test_storage_seasons.py and tests/cogs/test_seasons.py).
        await storage.set_server_setting(world.guild.id, "season", "off")
        clock.now = LONG_AGO
        # An old Hot Streak game: dave won big long ago (all time only).
        await settle(
            storage,
            world,
            "hotstreak",
            [result(0, u["dave"], "dave", 500, won=True), result(1, None, "Ada (AI)", 900, won=False)],
        )
        clock.now = BEFORE_THIS_WEEK
        await settle(
            storage,
            world,
            "horserace",
            [result(0, u["carol"], "carol", 40, won=True), result(1, u["alice"], "alice", -10, won=False)],
        )
        clock.now = NOW - 5
        # This week: alice wins twice at Hot Streak with bets on the Gobbler and a side bet each way.
        gobbler = StakeRecord("Gobbler", "won", 6)
        side_won = StakeRecord("Side bet yes, safe", "won", 3)
        side_lost = StakeRecord("Side bet no, risky", "lost", 0)
        await settle(
            storage,
            world,
            "hotstreak",
            [
                result(0, u["alice"], "alice", 30, won=True, bets=[gobbler, side_won]),
                result(1, u["bob"], "bob", -20, won=False),
                result(2, None, "Babbage (AI)", 1000, won=False),  # AI seats are never ranked
            ],
        )
        clock.now = NOW - 4
        await settle(
            storage,
            world,
            "hotstreak",
            [
                result(0, u["alice"], "alice", 50, won=True, bets=[gobbler, side_lost]),
                result(1, u["bob"], "bob", -30, won=False),
            ],
        )
        clock.now = NOW - 3
        # Ten more players in one Horse Race game, so the all-games board has 14 players: two pages.
        extras = [result(i, 9000 + i, f"extra{i:02d}", i - 5, won=i == 9) for i in range(10)]
        await settle(storage, world, "horserace", extras)


@pytest.fixture
async def seeded(world: World) -> AsyncIterator[RaceBot]:
    await seed_server(world)
    async with running_bot(world.fake, world.bot()) as running:
        yield running


def leaderboard_rows(message: FakeMessage) -> list[str]:
    description = message.embeds[0]["description"]
    return [line for line in description.splitlines() if line.startswith("`")]


async def test_the_board_across_games_ranks_by_wins_and_never_adds_their_money(
    world: World, seeded: RaceBot
) -> None:
    ix = await world.fake.slash(world.users["bob"], world.channel, "leaderboard")
    board = await ix.reply()
    assert not board.ephemeral  # a leaderboard is for the whole channel
    rows = leaderboard_rows(board)
    assert len(rows) == 10
    assert rows[0].startswith("`  1.` **alice** 2 wins · 3 games (67%)")
    assert [r.split("**")[1] for r in rows[1:4]] == sorted(
        ["dave", "carol", "extra09"], key=lambda name: world.users[name].id if name in world.users else 9009
    )
    assert "**dave** 1 win · 1 game (100%)" in board.text
    assert "$" not in board.embeds[0]["description"]  # no money at all
    assert "$500" not in board.text
    ruling = board.embeds[0]["description"].splitlines()[-1]
    assert ruling.startswith("*Ranked by wins") and "never added across games" in ruling
    assert "AI" not in board.text and "Babbage" not in board.text and "Ada" not in board.text
    footer = board.embeds[0]["footer"]["text"]
    assert footer == "All time · page 1 of 2 · 14 players"
    # Its picture too ranks by wins with no money column, and says so.
    picture = board.attachment("leaderboard.png")
    assert picture.data.startswith(b"\x89PNG")
    assert board.embeds[0]["image"]["url"] == "attachment://leaderboard.png"
    assert picture.description is not None and "$" not in picture.description
    assert picture.description.startswith(
        "Leaderboard — all games, ranked by wins: 1. alice, 2 wins in 3 games; "
    )
    assert world.fake.late_interactions == []


async def test_a_game_board_ranks_people_by_net_with_games_wins_and_win_rate(
    world: World, seeded: RaceBot
) -> None:
    board = await (
        await world.fake.slash(world.users["bob"], world.channel, "leaderboard", game="hotstreak")
    ).reply()
    rows = leaderboard_rows(board)
    assert rows[0].startswith("`  1.` **dave** +$500 · 1 game · 1 win (100%)")
    assert rows[1].startswith("`  2.` **alice** +$80 · 2 games · 2 wins (100%)")
    picture = board.attachment("leaderboard.png")
    assert picture.data.startswith(b"\x89PNG")
    assert board.embeds[0]["image"]["url"] == "attachment://leaderboard.png"
    assert picture.description is not None
    assert picture.description.startswith("Leaderboard — Hot Streak: 1. dave, +$500, 1 win in 1 game")


async def test_paging_buttons_edit_the_board_and_are_disabled_at_the_ends(
    world: World, seeded: RaceBot
) -> None:
    fake, bob = world.fake, world.users["bob"]
    board = await (await fake.slash(bob, world.channel, "leaderboard")).reply()
    assert board.button("◀ Previous").disabled and not board.button("Next ▶").disabled
    first_page = leaderboard_rows(board)

    await (await fake.click_button(bob, board, "Next ▶")).reply()
    second_page = leaderboard_rows(board)  # the same message, edited in place
    assert len(fake.channel_messages(world.channel)) == 1
    assert len(second_page) == 4 and second_page[0].startswith("` 11.`")
    assert not set(second_page) & set(first_page)
    assert board.embeds[0]["footer"]["text"] == "All time · page 2 of 2 · 14 players"
    assert len(board.attachments) == 1  # the page's picture, in place of the first page's
    assert ", ranked by wins: 11. " in (board.attachment("leaderboard.png").description or "")
    assert board.button("Next ▶").disabled and not board.button("◀ Previous").disabled

    await (await fake.click_button(world.users["carol"], board, "◀ Previous")).reply()
    assert leaderboard_rows(board) == first_page
    assert board.button("◀ Previous").disabled

    hot = await (await fake.slash(bob, world.channel, "leaderboard", game="hotstreak", period="week")).reply()
    assert len(hot.attachments) == 1


async def test_leaderboard_options_pick_the_game_and_the_period(world: World, seeded: RaceBot) -> None:
    fake, bob = world.fake, world.users["bob"]
    hot = await (await fake.slash(bob, world.channel, "leaderboard", game="hotstreak")).reply()
    assert [r.split("**")[1] for r in leaderboard_rows(hot)] == ["dave", "alice", "bob"]
    assert "Hot Streak" in hot.embeds[0]["title"]
    assert "**alice** +$80 · 2 games · 2 wins (100%)" in hot.text
    assert hot.button("Next ▶").disabled and hot.button("◀ Previous").disabled

    week = await (await fake.slash(bob, world.channel, "leaderboard", period="week")).reply()
    week_names = [r.split("**")[1] for r in leaderboard_rows(week)]
    assert "dave" not in week_names and "carol" not in week_names  # older than this week
    assert week_names[0] == "alice" and "**alice** 2 wins · 2 games" in week.text
    assert week.embeds[0]["footer"]["text"].startswith("This week · page 1 of 2 · 12 players")

    month = await (
        await fake.slash(bob, world.channel, "leaderboard", game="horserace", period="month")
    ).reply()
    month_names = [r.split("**")[1] for r in leaderboard_rows(month)]
    assert "dave" not in month_names and "bob" not in month_names
    assert ("carol" in month_names) == IN_THIS_MONTH
    assert month.embeds[0]["footer"]["text"].startswith("This month")

    # Paging keeps the game and period it was opened with.
    week_board = await (await fake.slash(bob, world.channel, "leaderboard", period="week")).reply()
    await (await fake.click_button(bob, week_board, "Next ▶")).reply()
    assert week_board.embeds[0]["footer"]["text"] == "This week · page 2 of 2 · 12 players"
    assert all("dave" not in row for row in leaderboard_rows(week_board))


async def test_stats_shows_a_players_record_per_game(world: World, seeded: RaceBot) -> None:
    ix = await world.fake.slash(world.users["alice"], world.channel, "stats")
    card = await ix.reply()
    embed = card.embeds[0]
    assert embed["title"] == "alice's record"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["Hot Streak", "The Horse Race Game"]  # most played first
    hot = fields["Hot Streak"]
    assert "Games **2** · wins **2** (100%)" in hot
    assert "Total winnings **+$80** · best **+$50**" in hot
    assert "Current streak: 2 wins in a row" in hot
    assert "Favourite bet: **Gobbler**" in hot
    assert "Bets: 3 won, 1 lost" in hot
    horse = fields["The Horse Race Game"]
    assert "Games **1** · wins **0** (0%)" in horse
    assert "Total winnings **-$10** · best **-$10**" in horse
    assert "Current streak: 1 without a win" in horse
    assert "Favourite bet" not in horse and "Bets:" not in horse


async def test_stats_for_another_user_and_for_a_newcomer(world: World, seeded: RaceBot) -> None:
    fake = world.fake
    card = await (
        await fake.slash(world.users["alice"], world.channel, "stats", user=world.users["bob"])
    ).reply()
    assert card.embeds[0]["title"] == "bob's record"
    assert "Games **2** · wins **0** (0%)" in card.text
    assert "Current streak: 2 without a win" in card.text
    assert "Total winnings **-$50** · best **-$20**" in card.text
    newcomer = await (
        await fake.slash(world.users["alice"], world.channel, "stats", user=world.users["mod"])
    ).reply()
    assert "No finished games in this server yet." in newcomer.text


async def test_history_lists_the_last_games_newest_first_with_their_winners(
    world: World, seeded: RaceBot
) -> None:
    recent = await (await world.fake.slash(world.users["dave"], world.channel, "history")).reply()
    lines = recent.embeds[0]["description"].splitlines()
    assert len(lines) == 5
    assert "The Horse Race Game" in lines[0] and "10 players" in lines[0] and "won by **extra09**" in lines[0]
    assert "Hot Streak" in lines[1] and "2 players" in lines[1] and "won by **alice**" in lines[1]
    assert "Hot Streak" in lines[2] and "3 players" in lines[2] and "won by **alice**" in lines[2]
    assert "won by **carol**" in lines[3]
    assert "won by **dave**" in lines[4] and f"<t:{int(LONG_AGO)}:R>" in lines[4]


async def test_an_empty_server_gets_a_friendly_answer_everywhere(world: World, bot: RaceBot) -> None:
    fake, alice = world.fake, world.users["alice"]
    board = await (await fake.slash(alice, world.channel, "leaderboard")).reply()
    assert "No finished games yet." in board.text
    assert (
        board.attachment("leaderboard.png").description
        == "Leaderboard — all games, ranked by wins: no finished games yet."
    )
    hot = await (await fake.slash(alice, world.channel, "leaderboard", game="hotstreak")).reply()
    assert hot.attachment("leaderboard.png").description == "Leaderboard — Hot Streak: no finished games yet."
    assert board.button("Next ▶").disabled and board.button("◀ Previous").disabled
    assert (
        "No finished games yet." in (await (await fake.slash(alice, world.channel, "history")).reply()).text
    )
    assert (
        "No finished games in this server yet."
        in (await (await fake.slash(alice, world.channel, "stats")).reply()).text
    )


async def test_results_of_another_server_are_not_shown(world: World, seeded: RaceBot) -> None:
    other = world.fake.add_guild("Elsewhere")
    channel = other.add_text_channel("lobby")
    visitor = world.fake.add_user("visitor", guild=other)
    await world.fake.wait_for(lambda: seeded.get_channel(channel.id) is not None, timeout=5)
    board = await (await world.fake.slash(visitor, channel, "leaderboard")).reply()
    assert "No finished games yet." in board.text
    assert (
        "No finished games yet." in (await (await world.fake.slash(visitor, channel, "history")).reply()).text
    )


@pytest.mark.parametrize(("command", "read"), [("stats", "player_stats"), ("history", "history")])
async def test_stats_and_history_answer_at_once_and_read_the_database_after(
    world: World, bot: RaceBot, monkeypatch: pytest.MonkeyPatch, command: str, read: str
) -> None:
    slow = asyncio.Event()
    original = getattr(bot.storage, read)

    async def held(*args: object, **kwargs: object) -> object:
        await slow.wait()  # a database busy for longer than the three seconds Discord gives
        return await original(*args, **kwargs)

    monkeypatch.setattr(bot.storage, read, held)
    ix = await world.fake.slash(world.users["alice"], world.channel, command, wait=False)
    first = await ix.wait_response()
    assert first.accepted and first.type == 5  # "thinking...", sent before the read
    slow.set()
    answer = await ix.reply()
    assert "No finished games" in answer.text


async def test_downforce_money_is_told_in_millions_and_never_added_to_dollars(world: World) -> None:
    u = ids(world)
    async with await Storage.open(str(world.db)) as storage:
        await settle(
            storage,
            world,
            "downforce",
            [result(0, u["dave"], "dave", 8, won=True), result(1, u["bob"], "bob", -3, won=False)],
        )
        await settle(storage, world, "hotstreak", [result(0, u["dave"], "dave", 5, won=True)])
    async with running_bot(world.fake, world.bot()):
        fake, bob = world.fake, world.users["bob"]
        board = await (await fake.slash(bob, world.channel, "leaderboard", game="downforce")).reply()
        assert leaderboard_rows(board)[0].startswith("`  1.` **dave** +$8M · 1 game")
        assert "**bob** -$3M" in board.text
        # The picture writes the nets as the text does, in millions.
        alt = board.attachment("leaderboard.png").description or ""
        assert "1. dave, +$8M, 1 win in 1 game" in alt and "bob, -$3M" in alt
        across = await (await fake.slash(bob, world.channel, "leaderboard")).reply()
        assert "**dave** 2 wins · 2 games" in across.text and "$13" not in across.text
        card = await (await fake.slash(bob, world.channel, "stats", user=world.users["dave"])).reply()
        fields = {f["name"]: f["value"] for f in card.embeds[0]["fields"]}
        assert "Total winnings **+$8M**" in fields["Downforce"]
        assert "Total winnings **+$5**" in fields["Hot Streak"]


def expected_ratings(world: World) -> tuple[dict[object, Skill], dict[object, Skill]]:
    """The seeded server's Hot Streak and across-games ratings, worked out game by game in the order
    the games were settled (dave's game against an AI alone rates nobody)."""
    u = ids(world)
    alice, bob, carol = u["alice"], u["bob"], u["carol"]
    hot: dict[object, Skill] = {}
    across: dict[object, Skill] = {}
    games = [
        ("horserace", [Finish(carol, 1), Finish(alice, 2)]),
        ("hotstreak", [Finish(alice, 1), Finish(bob, 2), Finish(None, 2, "normal")]),
        ("hotstreak", [Finish(alice, 1), Finish(bob, 2)]),
        ("horserace", [Finish(9000 + i, 1 if i == 9 else 2) for i in range(10)]),
    ]
    for kind, finishes in games:
        if kind == "hotstreak":
            hot.update(rate(finishes, hot))
        across.update(rate(finishes, across))
    return hot, across


async def test_leaderboard_by_rating_and_stats_show_each_rating_with_its_trend(
    world: World, seeded: RaceBot
) -> None:
    fake, bob, alice = world.fake, world.users["bob"], world.users["alice"]
    hot, across = expected_ratings(world)

    board = await (await fake.slash(bob, world.channel, "leaderboard", game="hotstreak", by="rating")).reply()
    assert not board.ephemeral
    assert board.embeds[0]["title"] == "Ratings — Hot Streak"
    a, b = hot[alice.id], hot[bob.id]
    assert a.shown > b.shown  # the winner of both games on top; each trend is the change since 1,500
    assert leaderboard_rows(board) == [
        f"`  1.` **alice** **{a.shown:,}** · 2 games · trend {a.shown - 1500:+,}",
        f"`  2.` **bob** **{b.shown:,}** · 2 games · trend {b.shown - 1500:+,}",
    ]
    assert "Rating: a cautious estimate of skill" in board.embeds[0]["description"]
    assert board.embeds[0]["footer"]["text"] == "page 1 of 1 · 2 players"
    alt = board.attachment("leaderboard.png").description or ""
    assert alt.startswith(
        f"Ratings — Hot Streak, ranked by rating: 1. alice, rating {a.shown:,} from 2 games"
    )
    assert "dave" not in board.text and "Babbage" not in board.text  # alone with an AI: not rated

    # Across games: one rating every game a person finishes updates; 13 people, two pages.
    everyone = await (await fake.slash(bob, world.channel, "leaderboard", by="rating")).reply()
    assert everyone.embeds[0]["footer"]["text"] == "page 1 of 2 · 13 players"
    ranked = sorted(across.items(), key=lambda kv: (-kv[1].shown, -kv[1].games, kv[0]))
    top = ranked[0]
    assert leaderboard_rows(everyone)[0].split("**")[3] == f"{top[1].shown:,}"
    await (await fake.click_button(bob, everyone, "Next ▶")).reply()
    assert everyone.embeds[0]["footer"]["text"] == "page 2 of 2 · 13 players"
    assert len(leaderboard_rows(everyone)) == 3 and leaderboard_rows(everyone)[0].startswith("` 11.`")

    # Ratings have no period: a short private answer, and nothing posted.
    refused = await fake.slash(bob, world.channel, "leaderboard", by="rating", period="week")
    answer = await refused.reply()
    assert answer.ephemeral and "no period" in answer.text
    assert len(fake.channel_messages(world.channel)) == 2

    card = await (await fake.slash(alice, world.channel, "stats")).reply()
    fields = {f["name"]: f["value"] for f in card.embeds[0]["fields"]}
    assert fields["Hot Streak"].splitlines()[0] == (
        f"Rating **{a.shown:,}** from 2 games · trend **+{a.shown - 1500:,}**"
    )
    whole = across[alice.id]
    assert card.embeds[0]["description"] == (
        f"Across games: Rating **{whole.shown:,}** from 3 games · trend **+{whole.shown - 1500:,}**"
    )
    assert "Rating **" in fields["The Horse Race Game"]
    dave = await (await fake.slash(alice, world.channel, "stats", user=world.users["dave"])).reply()
    assert "Rating" not in dave.text  # his one game was against an AI alone


async def test_the_season_board_follows_the_servers_season_setting(world: World, seeded: RaceBot) -> None:
    fake, mod, bob = world.fake, world.users["mod"], world.users["bob"]
    refused = await fake.slash(bob, world.channel, "leaderboard", game="hotstreak", period="season")
    assert "This server has no seasons" in await private(refused)  # the seed turned them off

    ix = await fake.slash(mod, world.channel, "config set", setting="season", value="weekly")
    assert "`season` is now **weekly**" in await private(ix)
    week = await (
        await fake.slash(bob, world.channel, "leaderboard", game="hotstreak", period="week")
    ).reply()
    season = await (
        await fake.slash(bob, world.channel, "leaderboard", game="hotstreak", period="season")
    ).reply()
    assert leaderboard_rows(season) == leaderboard_rows(week) != []
    assert season.embeds[0]["footer"]["text"].startswith("This season · ")
