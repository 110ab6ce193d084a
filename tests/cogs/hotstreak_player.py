"""Plays Hot Streak through the fake Discord the way people would: buttons in the channel, menus in DMs,
and the "My hand" button for a player whose DMs are closed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.fakediscord import FakeMessage, FakeUser, SelectMenu
from tests.cogs.conftest import World

BET_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):bet:")
HAND_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:hand")
SELECT_ID = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(submit|double)")


@dataclass
class HotStreakTable:
    world: World
    seats: dict[int, FakeUser]  # seat -> user, humans only
    picks: dict[str, list[str]] = field(default_factory=dict)  # user name -> labels of secret picks
    done: set[str] = field(default_factory=set)  # select custom ids already answered
    # The words of the channel's secret-pick and double prompts (titles, then the two field names),
    # in the server's language: a player without DMs reads them to know when to press My hand.
    prompts: tuple[str, ...] = ("secret picks", "pick your double")
    waiting: tuple[str, str] = ("Waiting for", "Deadline")
    final: str = "Final standings"

    @property
    def fake(self):  # noqa: ANN201 - the fake's type is long and obvious here
        return self.world.fake

    def channel(self) -> list[FakeMessage]:
        return self.fake.channel_messages(self.world.channel)

    def finished(self) -> bool:
        return any(self.final in m.text for m in self.channel())

    def bet_buttons(self) -> list[tuple[FakeMessage, str, int]]:
        found = []
        for message in self.channel():
            for button in message.buttons:
                match = BET_ID.match(button.custom_id or "")
                if match and not button.disabled:
                    found.append((message, button.custom_id or "", int(match.group(1))))
        return found

    def prompt_with_hand_button(self) -> FakeMessage | None:
        with_hand = [
            m for m in self.channel() if any(HAND_ID.fullmatch(b.custom_id or "") for b in m.buttons)
        ]
        return with_hand[-1] if with_hand else None

    def open_selects(self, user: FakeUser) -> list[tuple[FakeMessage, SelectMenu]]:
        found = []
        for message in self.fake.dm_messages(user) + self.fake.ephemeral_for(user):
            for menu in message.selects:
                if SELECT_ID.match(menu.custom_id) and menu.custom_id not in self.done:
                    found.append((message, menu))
        return found

    def signature(self) -> tuple[object, ...]:
        """Changes whenever anything a player could react to changes."""
        messages = self.channel()
        return (
            len(messages),
            sum(len(m.edits) for m in messages),
            tuple(_ids(self.bet_buttons())),
            tuple(menu.custom_id for user in self.seats.values() for _, menu in self.open_selects(user)),
        )

    async def step(self, dm_less: set[str]) -> bool:
        """Make one move that is due; False if nothing was due (the bot is busy racing)."""
        bets = self.bet_buttons()
        if bets:
            message, custom_id, seat = bets[-1]
            if seat in self.seats:
                ix = await self.fake.click(self.seats[seat], message, custom_id)
                await ix.wait_response()
                await self.fake.wait_for(lambda: custom_id not in _ids(self.bet_buttons()), timeout=5)
                return True
        for user in self.seats.values():
            if user.name in dm_less:
                prompt = self.prompt_with_hand_button()
                if prompt is None or not any(w in prompt.text for w in self.prompts):
                    continue
                if user.name not in prompt.text.split(self.waiting[0])[-1].split(self.waiting[1])[0]:
                    continue
                hand = next(b.custom_id for b in prompt.buttons if HAND_ID.fullmatch(b.custom_id or ""))
                ix = await self.fake.click(user, prompt, hand or "")
                await ix.reply()
            for message, menu in self.open_selects(user):
                self.done.add(menu.custom_id)
                if menu.custom_id.endswith("submit"):
                    self.picks.setdefault(user.name, []).append(menu.labels[0])
                ix = await self.fake.select(user, message, menu.custom_id, [menu.values[0]])
                await ix.wait_response()
                return True
        return False

    async def play_to_the_end(self, dm_less: set[str] = frozenset(), steps: int = 400) -> None:  # type: ignore[assignment]
        for _ in range(steps):
            if self.finished():
                return
            before = self.signature()
            if not await self.step(set(dm_less)):
                await self.fake.wait_for(
                    lambda b=before: self.finished() or self.signature() != b, timeout=30
                )
        tail = "\n---\n".join(m.text[:300] for m in self.channel()[-4:])
        tail += f"\nrefused: {self.fake.refused_requests[-3:]}"
        for user in self.seats.values():
            tail += f"\n{user.name} DMs: " + " | ".join(
                str([s.custom_id for s in m.selects]) + str(m.components)[:300]
                for m in self.fake.dm_messages(user)
            )
        tail += f"\ndone: {self.done} bets: {self.bet_buttons()}"
        raise AssertionError(f"the game did not finish; the channel ends with:\n{tail}")


def _ids(found: list[tuple[FakeMessage, str, int]]) -> set[str]:
    return {custom_id for _, custom_id, _ in found}
