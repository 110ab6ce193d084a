"""How a bot talks in a game, counted as players feel it (``fake.conversation``).

    talk = fake.conversation.summary(channel)   # the channel and the threads started in it
    talk.left, talk.made, talk.edits, talk.pictures, talk.notified[alice.id], talk.acks

Counted when it happens, because a message's notification is decided when it is made (an edit
never notifies, and a ping later edited away still rang):

- **made**: the bot's messages made in the channel or its threads, ephemerals left out; **left**: those
  still there (not deleted) when asked;
- **edits**: edits of those messages (filling in a deferred "thinking" answer is not an edit);
- **pictures**: files sent with new messages, and edits that sent a file;
- **notified**: per user, the new messages that notified them as Discord does (mentions let through by
  ``allowed_mentions``, in the channel or a thread) plus every new DM the bot sent them; **mentioned**:
  the channel part of it alone;
- **acks**: ephemeral answers to a click without controls of their own, by what was clicked (the decision's
  kind, ``hand``, ``ask:odds``, ``lobby:join``...), with their words: a click that changes a public message
  should not need one (a private prompt given in answer to a click is not counted).
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.fakediscord.mentions import pings
from bot.fakediscord.model import EPHEMERAL, LOADING, FakeChannel, FakeMessage

if TYPE_CHECKING:
    from bot.fakediscord.interactions import FakeInteraction

_DECISION = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:\d+:\d+:([a-z0-9_]+):")
_MENU = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:\d+:\d+:([a-z0-9_]+)")
_OTHER = re.compile(r"gs?:\d+(?:\.[0-9a-z]+)?:(hand|ask:[a-z0-9_]+|lobby:[a-z]+|m:\d+:\d+:[a-z0-9_]+)")


def click_kind(custom_id: str | None) -> str:
    """What a click was, from its custom_id: a decision's kind, ``hand``, ``ask:<topic>``, ``lobby:<op>``."""
    text = custom_id or ""
    for pattern in (_DECISION, _MENU, _OTHER):
        match = pattern.match(text)
        if match:
            return match.group(1).split(":")[0] if match.group(1).startswith("m:") else match.group(1)
    return text or "?"


@dataclass
class Said:
    """One new message the bot made, as it was when made."""

    message: FakeMessage
    notified: frozenset[int]
    files: int
    controls: bool = False  # it came with components (a prompt, not an acknowledgement)
    at: float = field(default_factory=time.monotonic)


@dataclass
class Talk:
    """What ``Conversation.summary`` counts for one channel (with its threads)."""

    made: int = 0
    left: int = 0
    edits: int = 0
    pictures: int = 0
    notified: Counter[int] = field(default_factory=Counter)
    mentioned: Counter[int] = field(default_factory=Counter)
    acks: Counter[str] = field(default_factory=Counter)
    ack_words: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def as_dict(self, names: dict[int, str] | None = None) -> dict[str, object]:
        def named(counts: Counter[int]) -> dict[str, int]:
            return {(names or {}).get(u, str(u)): n for u, n in sorted(counts.items())}

        return {
            "messages_made": self.made,
            "messages_left": self.left,
            "edits": self.edits,
            "pictures": self.pictures,
            "notifications": named(self.notified),
            "channel_mentions": named(self.mentioned),
            "ack_ephemerals": dict(self.acks),
        }


class Conversation:
    """Every new message and edit of the bot's, recorded as it happens (hooked in ``posting``)."""

    def __init__(self, bot_id: int) -> None:
        self.bot_id = bot_id
        self.said: list[Said] = []
        self.edited: list[tuple[FakeMessage, int, float]] = []  # (message, files sent with it, when)
        self.filled: list[FakeMessage] = []  # deferred answers filled in (not edits)
        self.filled_prompts: set[int] = set()  # ... filled in with controls

    def made(self, message: FakeMessage) -> None:
        if message.author.id != self.bot_id:
            return
        notified: frozenset[int] = frozenset()
        if not message.flags & (EPHEMERAL | LOADING):
            if message.channel.recipient is not None:  # a DM always notifies its reader
                notified = frozenset({message.channel.recipient.id})
            else:
                notified = pings(message).users
        self.said.append(Said(message, notified, len(message.attachments), bool(message.components)))

    def changed(self, message: FakeMessage, *, files: int, was_loading: bool, controls: bool = False) -> None:
        if message.author.id != self.bot_id:
            return
        if was_loading:
            self.filled.append(message)
            if controls:
                self.filled_prompts.add(message.id)
        else:
            self.edited.append((message, files, time.monotonic()))

    def live_spans(self, channel: FakeChannel, *, pictures: int = 3) -> list[tuple[float, float]]:
        """When each live message of ``channel`` (and its threads) ran: from its making to its last edit,
        for every message the bot edited with a new picture at least ``pictures`` times (a race's live
        message, a live board)."""
        made = {s.message.id: s.at for s in self.said}
        spans: dict[int, list[float]] = {}
        for message, files, at in self.edited:
            where = message.channel
            if files and message.id in made and (where.id == channel.id or where.parent is channel):
                spans.setdefault(message.id, []).append(at)
        return [(made[i], max(times)) for i, times in spans.items() if len(times) >= pictures]

    def summary(self, channel: FakeChannel) -> Talk:
        """The counts for ``channel`` and every thread in it, plus the DMs the bot sent (notifications)."""

        def here(where: FakeChannel) -> bool:
            return where.id == channel.id or (where.parent is not None and where.parent.id == channel.id)

        talk = Talk()
        for said in self.said:
            message = said.message
            if message.channel.recipient is not None:
                talk.notified.update(said.notified)
                continue
            if not here(message.channel):
                continue
            if message.ephemeral:
                continue
            talk.made += 1
            talk.left += not message.deleted
            talk.pictures += said.files
            talk.notified.update(said.notified)
            talk.mentioned.update(said.notified)
        for message, files, _at in self.edited:
            if message.ephemeral or message.channel.recipient is not None or not here(message.channel):
                continue
            talk.edits += 1
            talk.pictures += files > 0
        prompts = {s.message.id for s in self.said if s.controls}
        prompts |= self.filled_prompts
        for message in {s.message.id: s.message for s in self.said}.values():
            interaction: FakeInteraction | None = message.interaction
            if not message.ephemeral or interaction is None or interaction.custom_id is None:
                continue
            if message.flags & LOADING and not message.text:
                continue
            if message.id in prompts or message.components:
                continue  # a private prompt (controls to use), not an acknowledgement
            kind = click_kind(interaction.custom_id)
            talk.acks[kind] += 1
            talk.ack_words[kind].append(message.text[:80])
        return talk
