"""A fake Discord that the real, unmodified discord.py client connects to, and the driver tests use to act
as users (slash commands, clicks, selects, modals, DMs) and to read what each user sees.

    async with FakeDiscord() as fake:                      # or the ``fake_discord`` fixture
        guild = fake.add_guild("Test Server")
        games = guild.add_text_channel("games")
        alice = fake.add_user("alice", guild=guild, manage_guild=True)
        carol = fake.add_user("carol", guild=guild, dms_open=False)
        async with running_bot(fake, MyBot()) as bot:      # endpoints, token, ready; closed on exit
            ix = await fake.slash(alice, games, "demo ping", players=4)   # returns once the bot responded
            reply = await ix.reply()                       # the message holding the answer
            click = await fake.click_button(carol, reply, "Join")
            assert "joined" in (await click.reply()).text
            await fake.select(alice, fake.dm_messages(alice)[-1], "pick", ["red"])
        assert fake.rate_limit_violations == [] and fake.unknown_routes == []

Acting: slash, autocomplete, click, click_button, select, submit_modal, say (plain message), force_reconnect.
Seeing: channel_messages, dm_messages, ephemeral_for, visible_to, last_message, wait_for, wait_for_message;
FakeMessage.text / text_of(...), .buttons, .selects, .attachments (bytes in .data), .edits.
Watching the bot: requests, refused_requests, unknown_routes, late_interactions, rate_limit_violations,
commands()/command_names(), pings(message) (who a message notifies; message.allowed_mentions as sent),
nonce_replays. Anything a real user could not do raises ImpossibleAction.
Permissions: set_permissions(channel, role_or_user, allow=, deny=) (a channel's overwrites; threads follow
their parent's), set_role_permissions(guild, role, bits), guild.bot_role; the bot's posts and edits are
refused as Discord does (50001 Missing Access without View Channel, 50013 Missing Permissions, embeds
dropped without Embed Links and 50006 for a message left empty).
Threads and emojis: start_thread (as a user), archive_thread, unarchive_thread, delete_channel,
threads_in(channel), guild.threads / guild.thread(name); application_emojis, add_application_emoji.
Load: FakeDiscord(global_limit=50) answers 429 global beyond 50 requests/s (interactions exempt);
fake.traffic counts requests per second, per route, 429s and GET /users/{id} per user (summary()).
Shards: FakeDiscord(shard_count=2) (what GET /gateway/bot recommends), add_guild(name, shard=1),
shard_of(guild), wait_for_shards(0, 1), gateway.connected_shards(); guild events go to the guild's
shard, DMs to shard 0; several running_bot blocks (one per shard) may be open at once.
Breaking things: fake.faults.drop_next / reset_next / timeout_next / rate_limit_next / error_next on chosen
requests (see faults.py).
See tests/test_fakediscord.py for every feature in use.
"""

from bot.fakediscord.bot_runner import running_bot
from bot.fakediscord.fake import FakeDiscord
from bot.fakediscord.faults import FaultRule, Faults
from bot.fakediscord.http_api import RequestRecord
from bot.fakediscord.interactions import FakeInteraction, ImpossibleAction, InteractionCallback
from bot.fakediscord.mentions import Pings
from bot.fakediscord.model import (
    Button,
    FakeAttachment,
    FakeChannel,
    FakeEmoji,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageVersion,
    SelectMenu,
)
from bot.fakediscord.posting import NonceReplay
from bot.fakediscord.rate_limits import RateLimitViolation
from bot.fakediscord.text import text_of
from bot.fakediscord.traffic import Traffic

__all__ = [
    "Button",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeEmoji",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "FaultRule",
    "Faults",
    "ImpossibleAction",
    "InteractionCallback",
    "MessageVersion",
    "NonceReplay",
    "Pings",
    "RateLimitViolation",
    "RequestRecord",
    "SelectMenu",
    "Traffic",
    "running_bot",
    "text_of",
]
