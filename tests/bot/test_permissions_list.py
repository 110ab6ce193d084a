"""One list of the bot's permissions (``bot.discord_io.permissions.NEEDED``): the invite link, the
README and the operators' docs say the same, and the start check needs exactly the required ones."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import discord

from bot.client import PERMISSIONS, invite_url
from bot.discord_io import permissions
from bot.discord_io.permissions import NEEDED, for_game

ROOT = Path(__file__).resolve().parents[2]


def flat(path: str) -> str:
    return " ".join((ROOT / path).read_text(encoding="utf-8").split())


def test_the_invite_asks_for_every_permission_of_the_list_and_nothing_else() -> None:
    listed = discord.Permissions.none()
    for needed in NEEDED:
        setattr(listed, needed.flag, True)
    assert PERMISSIONS == listed  # iterating Permissions names View Channel by its old alias
    query = urllib.parse.parse_qs(urllib.parse.urlparse(invite_url(123)).query)
    assert query["permissions"] == [str(PERMISSIONS.value)]
    assert PERMISSIONS.read_message_history  # the old invite (309237697536) lacked it


def test_the_readme_and_the_docs_name_the_list_and_its_integer() -> None:
    readme, docs = flat("README.md"), flat("docs/operating.md")
    for text in (readme, docs):
        assert (
            f"only these permissions: {permissions.invite_list()} (permission integer `{PERMISSIONS.value}`"
            in text
        )
        assert f"permissions={PERMISSIONS.value}`" in text
        assert set(re.findall(r"permissions=(\d+)", text)) == {str(PERMISSIONS.value)}
    assert permissions.docs_table() in (ROOT / "docs/operating.md").read_text(encoding="utf-8")


def test_in_a_channel_a_game_needs_view_send_and_embed_and_names_only_what_must_be_granted() -> None:
    everything = permissions.permissions()
    assert for_game(everything, in_thread=False) == []
    for flag in ("view_channel", "send_messages", "embed_links"):
        without = discord.Permissions(everything.value & ~discord.Permissions(**{flag: True}).value)
        assert [n.flag for n in for_game(without, in_thread=False)] == [flag]
    without_threads = discord.Permissions(
        everything.value & ~discord.Permissions(send_messages_in_threads=True).value
    )
    assert for_game(without_threads, in_thread=False) == []  # a game in the channel posts in no thread
    assert [n.flag for n in for_game(without_threads, in_thread=False, want_thread=True)] == [
        "send_messages_in_threads"
    ]


def test_optional_permissions_are_named_but_never_required() -> None:
    assert {n.flag for n in NEEDED if not n.required} == {
        "create_public_threads",
        "attach_files",
        "read_message_history",
    }
    everything = permissions.permissions()
    no_threads = discord.Permissions(
        everything.value
        & ~discord.Permissions(create_public_threads=True, send_messages_in_threads=True).value
    )
    # No thread can be started: the game plays in the channel, so Send Messages in Threads is not needed.
    assert [n.flag for n in for_game(no_threads, in_thread=False, want_thread=True)] == [
        "create_public_threads"
    ]
