"""The fake Discord, exercised by the real discord.py client running a tiny demo bot.

Each test starts its own fake and bot; what a test asserts is what a Discord user would see.
"""

from __future__ import annotations

import asyncio
import io
import re
import zlib

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord_endpoints import DISCORD_API_BASE, DISCORD_GATEWAY_URL, use_endpoints
from bot.fakediscord import FakeDiscord, ImpossibleAction, running_bot, text_of
from bot.fakediscord.http_api import route

BOARD_PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
REDRAWN_PNG = b"\x89PNG\r\n\x1a\n" + b"redrawn" * 50


# ---- the demo bot ---------------------------------------------------------------------------------------
class PingView(discord.ui.View):
    @discord.ui.button(label="Pong", custom_id="demo:pong")
    async def pong(self, interaction: discord.Interaction, button: discord.ui.Button[PingView]) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"clicked by {interaction.user.name}", view=self)

    @discord.ui.button(label="Later", custom_id="demo:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[PingView]) -> None:
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content="edited later")


class BoardView(discord.ui.View):
    @discord.ui.button(label="Redraw", custom_id="demo:redraw")
    async def redraw(self, interaction: discord.Interaction, button: discord.ui.Button[BoardView]) -> None:
        file = discord.File(io.BytesIO(REDRAWN_PNG), "board2.png", description="The redrawn board")
        await interaction.response.edit_message(content="redrawn", attachments=[file], view=None)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick a horse",
        options=[
            discord.SelectOption(label="Red horse", value="red"),
            discord.SelectOption(label="Blue horse", value="blue"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[PickView]) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"demo:join:(?P<game>\w+)"
):
    """A button that outlives restarts: its custom_id carries the game."""

    def __init__(self, game: str) -> None:
        super().__init__(
            discord.ui.Button(label="Join", custom_id=f"demo:join:{game}", style=discord.ButtonStyle.success)
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[discord.ui.View], match: re.Match[str]
    ) -> JoinButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined {self.game}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.errors: list[discord.HTTPException] = []
        self.heard: list[discord.Message] = []

    async def on_message(self, message: discord.Message) -> None:
        self.heard.append(message)

    async def setup_hook(self) -> None:
        self.tree.add_command(demo_commands(self))
        self.tree.add_command(admin)
        self.add_dynamic_items(JoinButton)
        await self.tree.sync()


def demo_commands(bot: DemoBot) -> app_commands.Group:
    demo = app_commands.Group(name="demo", description="Demo commands")

    @demo.command(description="Reply with a button")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", view=PingView())

    @demo.command(description="Open a game others can join")
    async def join(interaction: discord.Interaction, game: str) -> None:
        view = discord.ui.View(timeout=None).add_item(JoinButton(game))
        await interaction.response.send_message(f"Game {game} is open", view=view)

    @demo.command(description="DM someone a choice")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("Choose your horse", view=PickView())
        except discord.Forbidden as error:
            bot.errors.append(error)
            await interaction.response.send_message(f"I cannot DM {user.name}", ephemeral=True)
        else:
            await interaction.response.send_message("Check your DMs", ephemeral=True)

    @demo.command(description="Post the board")
    async def board(interaction: discord.Interaction) -> None:
        file = discord.File(io.BytesIO(BOARD_PNG), "board.png", description="A board with three horses")
        embed = discord.Embed(title="Race", description="Lap 1").add_field(name="Leader", value="Red horse")
        await interaction.response.send_message("the board", file=file, embed=embed, view=BoardView())

    @demo.command(description="Think, then answer")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("and one more thing")

    @demo.command(description="Whisper")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you can read this", ephemeral=True)

    @demo.command(description="Answer too late")
    async def late(interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as error:
            bot.errors.append(error)

    @demo.command(description="Ask for a name")
    async def form(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(description="Break the rules")
    async def rude(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        for attempt in (
            lambda: interaction.channel.send("x" * 2001),
            lambda: interaction.guild.fetch_emojis(),
        ):  # type: ignore[union-attr]
            try:
                await attempt()
            except discord.HTTPException as error:
                bot.errors.append(error)
        await interaction.followup.send("tried")

    @demo.command(description="Post many messages")
    @app_commands.describe(count="How many")
    async def spam(interaction: discord.Interaction, count: app_commands.Range[int, 1, 10]) -> None:
        await interaction.response.defer(ephemeral=True)
        for n in range(count):
            await interaction.channel.send(f"message {n}")  # type: ignore[union-attr]
        await interaction.followup.send("sent")

    @demo.command(description="Name a horse")
    async def horse(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"you picked {name}")

    @horse.autocomplete("name")
    async def horse_names(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        names = ["Red horse", "Blue horse", "Black horse"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.lower().startswith(typed.lower())]

    @demo.command(description="Pick a pace")
    @app_commands.choices(
        pace=[app_commands.Choice(name="fast", value=0), app_commands.Choice(name="slow", value=2)]
    )
    async def pace(interaction: discord.Interaction, pace: app_commands.Choice[int]) -> None:
        await interaction.response.send_message(f"pace {pace.name}={pace.value}")

    return demo


@app_commands.command(description="Managers only")
@app_commands.default_permissions(manage_guild=True)
async def admin(interaction: discord.Interaction) -> None:
    # Discord applies default permissions to top-level commands only, so this one is not in the group.
    await interaction.response.send_message(f"admin ok, manage_guild={interaction.permissions.manage_guild}")


# ---- a world to play in ---------------------------------------------------------------------------------
class World:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Test Server")
        self.games = self.guild.add_text_channel("games")
        self.alice = fake.add_user("alice", guild=self.guild, manage_guild=True)
        self.bob = fake.add_user("bob", guild=self.guild)
        self.carol = fake.add_user("carol", guild=self.guild, dms_open=False)


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    return World(fake_discord)


# ---- connecting ---------------------------------------------------------------------------------------------
async def test_the_real_client_connects_sees_the_guild_and_registers_its_commands(world: World) -> None:
    async with running_bot(world.fake, DemoBot()) as bot:
        guild = bot.get_guild(world.guild.id)
        assert guild is not None and guild.name == "Test Server"
        assert [c.name for c in guild.text_channels] == ["games"]
        me = guild.me
        assert me.guild_permissions.send_messages and me.guild_permissions.attach_files
        assert bot.user is not None and bot.user.id == world.fake.bot_user.id
    assert "demo ping" in world.fake.command_names()
    assert "admin" in world.fake.command_names()
    assert world.fake.unknown_routes == []


async def test_gateway_speaks_zlib_stream_when_asked(fake_discord: FakeDiscord) -> None:
    fake_discord.add_guild("Test Server")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(
            fake_discord.gateway_url + "?v=10&encoding=json&compress=zlib-stream"
        ) as ws:
            hello = await ws.receive_bytes()
            assert b'"heartbeat_interval"' in zlib.decompressobj().decompress(hello)


async def test_a_wrong_token_is_refused_like_discord(fake_discord: FakeDiscord) -> None:
    bot = DemoBot()
    use_endpoints(fake_discord.api_base, fake_discord.gateway_url)
    try:
        with pytest.raises(discord.LoginFailure):
            await bot.login("wrong")
    finally:
        await bot.close()
        use_endpoints(None, None)


async def test_the_bot_hears_what_happens_after_it_connected(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()) as bot:
        lounge = world.guild.add_text_channel("lounge")
        other = fake.add_guild("Other Server")
        await fake.wait_for(lambda: bot.get_channel(lounge.id) and bot.get_guild(other.id))
        await fake.say(world.bob, lounge, "anyone there?")
        await fake.say(world.bob, lounge, f"{fake.bot_user.mention} hi")
        await fake.wait_for(lambda: len(bot.heard) == 2)
    # Without the message content intent the bot only reads messages that mention it, as on Discord.
    assert [m.content for m in bot.heard] == ["", f"<@{fake.bot_user.id}> hi"]


async def test_the_bot_resumes_after_a_reconnect_request(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        await world.fake.force_reconnect()
        reply = await (await world.fake.slash(world.alice, world.games, "demo ping")).reply()
        assert reply.content == "pong"
    assert world.fake.gateway.identify_count == 1


# ---- slash commands and components ------------------------------------------------------------------------
async def test_a_slash_command_gets_a_reply_and_a_click_edits_it(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()):
        interaction = await fake.slash(world.alice, world.games, "demo ping")
        reply = await interaction.reply()
        assert reply.content == "pong" and not reply.ephemeral
        assert reply.button("Pong").disabled is False
        click = await fake.click_button(world.bob, reply, "Pong")
        edited = await click.reply()
    assert edited is reply
    assert reply.content == "clicked by bob"
    assert reply.button("Pong").disabled is True
    assert [v.content for v in reply.edits] == ["pong"]
    assert fake.channel_messages(world.games) == [reply]


async def test_a_disabled_button_cannot_be_clicked(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        reply = await (await world.fake.slash(world.alice, world.games, "demo ping")).reply()
        await (await world.fake.click_button(world.bob, reply, "Pong")).reply()
        with pytest.raises(ImpossibleAction, match="disabled"):
            await world.fake.click(world.alice, reply, "demo:pong")


async def test_a_dynamic_button_reaches_its_item_and_answers_ephemerally(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()):
        post = await (await fake.slash(world.alice, world.games, "demo join", game="derby")).reply()
        joined = await fake.click_button(world.bob, post, "Join")
        answer = await joined.reply()
    assert answer.content == "bob joined derby"
    assert answer.ephemeral and joined.ephemeral
    assert fake.ephemeral_for(world.bob) == [answer]
    assert answer not in fake.channel_messages(world.games)
    assert answer in fake.visible_to(world.bob)
    assert answer not in fake.visible_to(world.alice)


async def test_a_dynamic_button_still_works_after_the_bot_restarts(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()):
        post = await (await fake.slash(world.alice, world.games, "demo join", game="derby")).reply()
    async with running_bot(fake, DemoBot()):
        answer = await (await fake.click_button(world.carol, post, "Join")).reply()
    assert answer.content == "carol joined derby"
    assert fake.gateway.identify_count == 2


async def test_options_use_the_registered_types_and_choices(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        by_name = await (await world.fake.slash(world.alice, world.games, "demo pace", pace="slow")).reply()
        by_value = await (await world.fake.slash(world.alice, world.games, "demo pace", pace=0)).reply()
        with pytest.raises(ImpossibleAction, match="not a choice"):
            await world.fake.slash(world.alice, world.games, "demo pace", pace="medium")
        with pytest.raises(ImpossibleAction, match="within 1..10"):
            await world.fake.slash(world.alice, world.games, "demo spam", count=11)
        with pytest.raises(ImpossibleAction, match="missing required"):
            await world.fake.slash(world.alice, world.games, "demo join")
        with pytest.raises(ImpossibleAction, match="not registered"):
            await world.fake.slash(world.alice, world.games, "nosuch")
    assert by_name.content == "pace slow=2"
    assert by_value.content == "pace fast=0"


async def test_a_command_needing_manage_server_is_hidden_from_others(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        reply = await (await world.fake.slash(world.alice, world.games, "admin")).reply()
        with pytest.raises(ImpossibleAction, match="lacks the permissions"):
            await world.fake.slash(world.bob, world.games, "admin")
    assert reply.content == "admin ok, manage_guild=True"


async def test_a_deferred_click_is_answered_by_editing_the_message(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        reply = await (await world.fake.slash(world.alice, world.games, "demo ping")).reply()
        click = await world.fake.click_button(world.bob, reply, "Later")
        assert click.response_type == 6
        assert await click.reply() is reply
    assert reply.content == "edited later"


async def test_autocomplete_returns_the_bots_choices(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        choices = await world.fake.autocomplete(
            world.alice, world.games, "demo horse", focused="name", typed="bl"
        )
    assert [c["name"] for c in choices] == ["Blue horse", "Black horse"]


async def test_a_modal_is_shown_and_its_submission_reaches_the_bot(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        opened = await world.fake.slash(world.bob, world.games, "demo form")
        assert opened.modal is not None and opened.modal["title"] == "Your name"
        submitted = await world.fake.submit_modal(world.bob, opened, {"demo:name": "Bobby"})
        reply = await submitted.reply()
    assert reply.content == "hello Bobby"


# ---- DMs ------------------------------------------------------------------------------------------------
async def test_a_select_in_a_dm_reaches_the_view(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()):
        told = await (await fake.slash(world.bob, world.games, "demo dm", user=world.alice)).reply()
        assert told.content == "Check your DMs" and told.ephemeral_to is world.bob
        (prompt,) = fake.dm_messages(world.alice)
        assert prompt.select_menu("demo:pick").labels == ["Red horse", "Blue horse"]
        with pytest.raises(ImpossibleAction, match="does not offer"):
            await fake.select(world.alice, prompt, "demo:pick", ["green"])
        picked = await (await fake.select(world.alice, prompt, "demo:pick", ["blue"])).reply()
    assert picked is prompt and prompt.content == "picked blue" and prompt.selects == []
    assert prompt in fake.visible_to(world.alice) and not prompt.visible_to(world.bob)


async def test_a_dm_to_a_user_with_closed_dms_is_forbidden_50007(world: World) -> None:
    bot = DemoBot()
    async with running_bot(world.fake, bot):
        reply = await (await world.fake.slash(world.alice, world.games, "demo dm", user=world.carol)).reply()
    (error,) = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert reply.content == "I cannot DM carol"
    assert world.fake.dm_messages(world.carol) == []


# ---- responses: deadlines, deferrals, files, ephemerals -----------------------------------------------------
async def test_an_answer_after_the_deadline_gets_unknown_interaction_10062(world: World) -> None:
    bot = DemoBot()
    world.fake.response_deadline = 0.05
    async with running_bot(world.fake, bot):
        late = await world.fake.slash(world.alice, world.games, "demo late", seconds=0.15)
    (error,) = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert late.late and not late.acknowledged
    assert world.fake.late_interactions == [late]


async def test_answering_twice_gets_already_acknowledged_40060(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        interaction = await world.fake.slash(world.alice, world.games, "demo ping")
        url = f"{world.fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as response:
                assert response.status == 400
                assert (await response.json())["code"] == 40060
    assert [c.accepted for c in interaction.callbacks] == [True, False]


async def test_a_deferred_answer_is_filled_in_by_the_first_followup(world: World) -> None:
    async with running_bot(world.fake, DemoBot()):
        interaction = await world.fake.slash(world.alice, world.games, "demo slow", private=True)
        assert interaction.response_type == 5
        reply = await interaction.reply()
        second = await interaction.followup(1)
    assert reply.content == "done thinking" and reply.ephemeral and not reply.loading
    assert reply.edits == []
    assert second.content == "and one more thing" and not second.ephemeral
    assert interaction.text == "done thinking\n\nand one more thing"


async def test_ephemeral_messages_are_seen_only_by_their_user(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()):
        whisper = await (await fake.slash(world.alice, world.games, "demo secret")).reply()
    assert whisper.ephemeral
    assert fake.ephemeral_for(world.alice) == [whisper]
    assert fake.ephemeral_for(world.bob) == []
    assert whisper in fake.visible_to(world.alice) and whisper not in fake.visible_to(world.bob)
    assert fake.channel_messages(world.games) == []
    assert fake.channel_messages(world.games, include_ephemeral=True) == [whisper]


async def test_files_keep_their_bytes_and_alt_text_and_edits_replace_them(world: World) -> None:
    fake = world.fake
    async with running_bot(fake, DemoBot()) as bot:
        board = await (await fake.slash(world.alice, world.games, "demo board")).reply()
        channel = bot.get_channel(world.games.id)
        assert isinstance(channel, discord.TextChannel)
        fetched = await channel.fetch_message(board.id)
        assert await fetched.attachments[0].read() == BOARD_PNG
        await (await fake.click_button(world.bob, board, "Redraw")).reply()
    (old,) = board.edits[0].attachments
    assert (old.filename, old.data, old.description) == ("board.png", BOARD_PNG, "A board with three horses")
    (new,) = board.attachments
    assert (new.filename, new.data, new.description) == ("board2.png", REDRAWN_PNG, "The redrawn board")
    assert "Leader" in text_of(board.edits[0]) and "Red horse" in text_of(board)


# ---- what the bot got wrong is visible -----------------------------------------------------------------
async def test_refused_bodies_and_unknown_routes_are_recorded(world: World) -> None:
    bot = DemoBot()
    async with running_bot(world.fake, bot):
        await (await world.fake.slash(world.alice, world.games, "demo rude")).reply()
    too_long, unknown = bot.errors
    assert too_long.status == 400 and too_long.code == 50035 and "content" in str(too_long)
    assert isinstance(unknown, discord.NotFound)
    assert [r.path for r in world.fake.unknown_routes] == [f"/guilds/{world.guild.id}/emojis"]


async def test_going_over_the_channel_rate_limit_is_recorded() -> None:
    async with FakeDiscord(rate_limit=(3, 5.0)) as fake:
        world = World(fake)
        async with running_bot(fake, DemoBot()):
            await (await fake.slash(world.alice, world.games, "demo spam", count=5)).reply()
        assert len(fake.channel_messages(world.games)) == 5
        assert [(v.kind, v.count) for v in fake.rate_limit_violations] == [("create", 4), ("create", 5)]


async def test_enforced_rate_limits_answer_429_and_discord_py_retries() -> None:
    async with FakeDiscord(rate_limit=(2, 0.2), enforce_rate_limits=True) as fake:
        world = World(fake)
        async with running_bot(fake, DemoBot()):
            await (await fake.slash(world.alice, world.games, "demo spam", count=4)).reply(timeout=5)
        assert [m.content for m in fake.channel_messages(world.games)] == [f"message {n}" for n in range(4)]
        assert any(r.status == 429 for r in fake.requests)


# ---- endpoints ------------------------------------------------------------------------------------------
def test_use_endpoints_points_rest_and_gateway_elsewhere_and_back() -> None:
    try:
        use_endpoints("http://proxy.local/api/v10/", "ws://proxy.local/gateway")
        assert Route("GET", "/users/@me").url == "http://proxy.local/api/v10/users/@me"
        assert DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL("ws://proxy.local/gateway")
    finally:
        use_endpoints(None, None)
    assert Route.BASE == DISCORD_API_BASE
    assert DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL(DISCORD_GATEWAY_URL)


async def test_a_bug_in_the_fake_fails_the_test_instead_of_passing_quietly() -> None:
    fake = await FakeDiscord().start()

    async def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("oops")

    fake._rest.routes.insert(0, route("GET", "/users/@me", broken))
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": f"Bot {fake.token}"}
        ) as response:
            assert response.status == 400
    with pytest.raises(RuntimeError, match="KeyError: 'oops'"):
        await fake.stop()


async def test_a_bot_without_attach_files_is_refused_missing_permissions_50013(
    fake_discord: FakeDiscord,
) -> None:
    guild = fake_discord.add_guild(
        "Strict Server", bot_permissions=discord.Permissions(view_channel=True, send_messages=True).value
    )
    games = guild.add_text_channel("games")
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "board", "attachments": [{"id": 0, "filename": "b.png"}]}')
    form.add_field("files[0]", b"png", filename="b.png")
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        url = f"{fake_discord.api_base}/channels/{games.id}/messages"
        async with session.post(url, data=form, headers=headers) as response:
            assert (response.status, (await response.json())["code"]) == (403, 50013)
        async with session.post(url, json={"content": "words are fine"}, headers=headers) as response:
            assert response.status == 200
    assert [m.content for m in fake_discord.channel_messages(games)] == ["words are fine"]
