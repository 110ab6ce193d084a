"""What a player sees of a race's replay: the results message first, then the replay added to it."""

from __future__ import annotations

from bot.fakediscord import FakeDiscord, FakeMessage


def has_replay(message: FakeMessage) -> bool:
    return any(a.filename.endswith(".gif") for a in message.attachments)


async def wait_for_replays(fake: FakeDiscord, messages: list[FakeMessage]) -> None:
    """The replays are drawn after their results are out: wait until each results message has one."""
    await fake.wait_for(lambda: all(has_replay(m) for m in messages), timeout=60, what="the replays")


def assert_replay_came_after_the_results(message: FakeMessage, alt_starts: str) -> None:
    """The message was first posted without its replay, and the replay was then added by an edit."""
    assert message.edits, "the results were posted with their replay, not before it"
    assert not any(a.filename.endswith(".gif") for a in message.edits[0].attachments)
    (replay,) = [a for a in message.attachments if a.filename.endswith(".gif")]
    assert replay.size < 8 * 1024 * 1024
    assert (replay.description or "").startswith(alt_starts)
    assert message.embeds[0]["image"]["url"] == f"attachment://{replay.filename}"
