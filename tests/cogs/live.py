"""Reading a race's live message as players saw it: one message per race, edited card by card, each
edit that brought a new picture a frame of its own (``Outgoing.live``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.fakediscord import FakeAttachment, FakeMessage


@dataclass(frozen=True)
class Frame:
    """One version of a live message that showed a new picture: its words and that picture."""

    message: FakeMessage
    content: str
    picture: FakeAttachment


def frames(messages: list[FakeMessage], prefix: str = "race") -> list[Frame]:
    """Every new picture a live message showed, in order (an edit that kept its picture is not a frame),
    for pictures whose file name starts with ``prefix``."""
    found: list[Frame] = []
    for message in messages:
        seen: set[int] = set()
        for version in [*message.edits, message]:
            for picture in version.attachments:
                if picture.filename.startswith(prefix) and picture.id not in seen:
                    seen.add(picture.id)
                    found.append(Frame(message, version.content, picture))
    return found


def live_messages(messages: list[FakeMessage], prefix: str = "race") -> list[FakeMessage]:
    """The messages that showed at least one such picture (a race's live message)."""
    return list({f.message.id: f.message for f in frames(messages, prefix)}.values())
