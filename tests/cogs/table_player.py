"""People who play any game of the bot through the fake Discord as players do: each looks where the bot
shows them something to decide (the game's channel and its threads, their DMs, the private answers they
got), and clicks one of their own decision buttons or picks in one of their own menus.

It knows no game: a decision's controls carry the seat in their ids (``bot.tables.custom_ids``), and the
people sit in the order they joined (the host first), so ``seats`` says who is who. Used by the
conversation test (``tests/cogs/test_conversation.py``) and its benchmark (``bench/bench_conversation.py``).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, ImpossibleAction

DECISION = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):([a-z0-9_]+):i\d+")
MENU = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):([a-z0-9_]+)")
HAND = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:hand")


@dataclass
class People:
    fake: FakeDiscord
    channel: FakeChannel
    seats: dict[int, FakeUser]  # seat -> person
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    done: set[str] = field(default_factory=set)  # "<seat>:<n>:<kind>" already answered
    clicks: int = 0
    # For a person whose DMs are closed: how many mentions of them they had seen when they last pressed
    # **My hand** (they press it when the channel mentions them again and nothing is due).
    hand_pressed_at: dict[int, int] = field(default_factory=dict)

    def where(self, user: FakeUser) -> list[FakeMessage]:
        """The recent messages this person can act on, newest first."""
        places = [self.channel, *self.fake.threads_in(self.channel)]
        seen: list[FakeMessage] = []
        for place in places:
            seen.extend(self.fake.channel_messages(place)[-12:])
        seen.extend(self.fake.dm_messages(user)[-6:])
        seen.extend(self.fake.ephemeral_for(user)[-6:])
        return sorted(seen, key=lambda m: m.id, reverse=True)

    def due(self) -> tuple[FakeUser, FakeMessage, str, str | None] | None:
        """One decision a person may make now: (who, where, the control's id, a menu value or None)."""
        for seat, user in self.seats.items():
            for message in self.where(user):
                buttons: dict[str, list[str]] = {}
                for button in message.buttons:
                    match = DECISION.fullmatch(button.custom_id or "")
                    if match and not button.disabled and int(match.group(1)) == seat:
                        buttons.setdefault(":".join(match.groups()), []).append(button.custom_id or "")
                for key, ids in buttons.items():
                    if key not in self.done:
                        return user, message, self.rng.choice(ids), None
                for menu in message.selects:
                    match = MENU.fullmatch(menu.custom_id)
                    if match and not menu.disabled and int(match.group(1)) == seat:
                        key = ":".join(match.groups())
                        if key not in self.done and menu.values:
                            return user, message, menu.custom_id, self.rng.choice(menu.values)
        return None

    async def play(self, finished: Callable[[], bool], *, within: float = 120.0) -> None:
        """Everyone makes what is due until ``finished()``; fails after ``within`` seconds."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + within
        while not finished():
            if loop.time() > ends:
                raise AssertionError(
                    f"the game did not finish in {within} s:\n{self.fake.describe()[-3000:]}"
                )
            found = self.due()
            if found is None:
                if not await self.press_my_hand():
                    await asyncio.sleep(0.05)
                continue
            user, message, custom_id, value = found
            match = DECISION.fullmatch(custom_id) or MENU.fullmatch(custom_id)
            assert match is not None
            self.done.add(":".join(match.groups()))
            self.clicks += 1
            try:
                if value is None:
                    ix = await self.fake.click(user, message, custom_id)
                else:
                    ix = await self.fake.select(user, message, custom_id, [value])
                await ix.wait_response()
            except ImpossibleAction:
                continue

    async def press_my_hand(self) -> bool:
        """A person without DMs who was mentioned since they last looked presses **My hand** (on the
        newest message that has it), as the mention told them to; True if someone did."""
        for user in self.seats.values():
            if user.dms_open:
                continue
            mentions = sum(1 for said in self.fake.conversation.said if user.id in said.notified)
            if mentions <= self.hand_pressed_at.get(user.id, 0):
                continue
            for message in self.where(user):
                hand = [b for b in message.buttons if HAND.fullmatch(b.custom_id or "") and not b.disabled]
                if hand:
                    self.hand_pressed_at[user.id] = mentions
                    try:
                        ix = await self.fake.click(user, message, hand[0].custom_id or "")
                        await ix.wait_response()
                    except ImpossibleAction:
                        return False
                    return True
        return False
