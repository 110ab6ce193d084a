"""Plays Downforce through the fake Discord the way people would: bid cards, cards, bets, and the card's
end spaces, wild colours and powers from menus and buttons in DMs (or in the ephemeral "My hand" answer
for a player whose DMs are closed, pressed when the channel mentions them)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.fakediscord import FakeMessage, FakeUser, text_of
from tests.cogs.conftest import World

CHANNEL_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):(move|wild|power|ignore|defensive):i\d+")
BET_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:d:(\d+):(\d+):(bet|keep):i\d+")
MENU_ID = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(bid|play)")
CHOICE_MENU_ID = re.compile(r"gs:\d+(?:\.[0-9a-z]+)?:(\d+):(\d+):(move)")
HAND_ID = re.compile(r"g:\d+(?:\.[0-9a-z]+)?:hand")
# The few words the player reads to know where the game is, in the language the table speaks.
ENGLISH = {
    "final": "Final scores",
    "waiting": "Waiting for",
    "deadline": "Deadline",
    "to play": "{mention} to play",
}


@dataclass
class DownforceTable:
    world: World
    seats: dict[int, FakeUser]  # seat -> user, humans only
    bids: dict[str, list[str]] = field(default_factory=dict)  # user name -> labels of bid cards
    bets: dict[str, list[str]] = field(default_factory=dict)  # user name -> labels of bet buttons
    done: set[str] = field(default_factory=set)  # private custom ids already answered
    # (user, prompt state) "My hand" was pressed for
    hand_asked: set[tuple[str, str]] = field(default_factory=set)
    clicked: list[str] = field(default_factory=list)  # the kinds of choice buttons pressed, in order
    mentions_seen: dict[str, int] = field(default_factory=dict)  # user name -> mentions when last looked
    words: dict[str, str] = field(default_factory=lambda: dict(ENGLISH))

    @property
    def fake(self):  # noqa: ANN201 - the fake's type is long and obvious here
        return self.world.fake

    def channel(self) -> list[FakeMessage]:
        return self.fake.channel_messages(self.world.channel)

    def public_text(self) -> str:
        parts = []
        for message in self.channel():
            parts.append(message.text)
            parts.extend(text_of(version) for version in message.edits)
        return "\n".join(parts)

    def finished(self) -> bool:
        return any(self.words["final"] in m.text for m in self.channel())

    def channel_buttons(self) -> list[tuple[FakeMessage, str, int]]:
        found = []
        for message in self.channel():
            for button in message.buttons:
                match = CHANNEL_ID.match(button.custom_id or "")
                if match and not button.disabled:
                    found.append((message, button.custom_id or "", int(match.group(1))))
        return found

    def private(self, user: FakeUser) -> list[tuple[FakeMessage, str, str]]:
        """Open private controls: (message, custom id, "menu" | "bet" | "choice")."""
        found = []
        for message in self.fake.dm_messages(user) + self.fake.ephemeral_for(user):
            for menu in message.selects:
                if (MENU_ID.match(menu.custom_id) or CHOICE_MENU_ID.match(menu.custom_id)) and (
                    menu.custom_id not in self.done
                ):
                    found.append((message, menu.custom_id, "menu"))
            bets = [b for b in message.buttons if BET_ID.match(b.custom_id or "")]
            if bets and bets[0].custom_id not in self.done:
                found.append((message, bets[0].custom_id or "", "bet"))
            choices = [b for b in message.buttons if CHANNEL_ID.match(b.custom_id or "") and not b.disabled]
            if choices and choices[-1].custom_id not in self.done:
                found.append((message, choices[-1].custom_id or "", "choice"))
        return found

    def prompt_with_hand_button(self) -> FakeMessage | None:
        with_hand = [
            m for m in self.channel() if any(HAND_ID.fullmatch(b.custom_id or "") for b in m.buttons)
        ]
        return with_hand[-1] if with_hand else None

    def signature(self) -> tuple[object, ...]:
        messages = self.channel()
        return (
            len(messages),
            sum(len(m.edits) for m in messages),
            tuple(c for _, c, _ in self.channel_buttons()),
            tuple(c for user in self.seats.values() for _, c, _ in self.private(user)),
        )

    async def step(self, dm_less: set[str]) -> bool:
        """Make one move that is due; False if nothing was due."""
        buttons = self.channel_buttons()
        if buttons:
            message, custom_id, seat = buttons[-1]
            if seat in self.seats:
                self.clicked.append(custom_id.split(":")[5])
                ix = await self.fake.click(self.seats[seat], message, custom_id)
                await ix.wait_response()
                await self.fake.wait_for(
                    lambda: custom_id not in {c for _, c, _ in self.channel_buttons()}, timeout=10
                )
                return True
        for user in self.seats.values():
            if user.name in dm_less and await self._ask_for_hand(user):
                return True
            for message, custom_id, what in self.private(user):
                self.done.add(custom_id)
                if what == "choice":
                    self.clicked.append(custom_id.split(":")[5])
                    ix = await self.fake.click(user, message, custom_id)
                elif what == "menu":
                    menu = next(m for m in message.selects if m.custom_id == custom_id)
                    if custom_id.endswith("bid"):
                        self.bids.setdefault(user.name, []).append(menu.labels[0])
                    ix = await self.fake.select(user, message, custom_id, [menu.values[0]])
                else:
                    # Bets spread over the cars, as people's would (powers are kept likewise).
                    bets = self.bets.setdefault(user.name, [])
                    options = [b for b in message.buttons if BET_ID.match(b.custom_id or "")]
                    button = options[(len(bets) + len(user.name)) % len(options)]
                    if ":bet:" in custom_id:
                        bets.append(button.label or "")
                    ix = await self.fake.click(user, message, button.custom_id or "")
                await ix.wait_response()
                return True
        return False

    async def _ask_for_hand(self, user: FakeUser) -> bool:
        """A player without DMs presses My hand when the channel's prompt waits for them, or when the
        channel mentions them (their turn, their secret pick)."""
        prompt = self.prompt_with_hand_button()
        if prompt is None:
            return False
        mentions = sum(1 for said in self.fake.conversation.said if user.id in said.notified)
        if mentions > self.mentions_seen.get(user.name, 0):
            self.mentions_seen[user.name] = mentions
            hand = next(b for b in prompt.buttons if HAND_ID.fullmatch(b.custom_id or ""))
            ix = await self.fake.click(user, prompt, hand.custom_id or "")
            await ix.wait_response()
            return True
        text = prompt.text
        words = self.words
        waiting = (
            text.split(words["waiting"])[-1].split(words["deadline"])[0] if words["waiting"] in text else ""
        )
        if user.name not in waiting and words["to play"].format(mention=user.mention) not in text:
            return False
        state = (user.name, f"{prompt.id}:{len(prompt.edits)}")
        if state in self.hand_asked:
            return False
        self.hand_asked.add(state)
        hand = next(b for b in prompt.buttons if HAND_ID.fullmatch(b.custom_id or ""))
        ix = await self.fake.click(user, prompt, hand.custom_id or "")
        await ix.wait_response()
        return True

    async def play_to_the_end(
        self,
        dm_less: set[str] = frozenset(),  # type: ignore[assignment]
        steps: int = 2000,
        between: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        """Play until the final scores; ``between(step)`` runs before each step (a player asking for
        the status or the rules mid-game)."""
        for step in range(steps):
            if self.finished():
                return
            if between is not None:
                await between(step)
            before = self.signature()
            if not await self.step(set(dm_less)):
                await self.fake.wait_for(
                    lambda b=before: self.finished() or self.signature() != b, timeout=30
                )
        tail = "\n---\n".join(m.text[:300] for m in self.channel()[-4:])
        raise AssertionError(f"the game did not finish; the channel ends with:\n{tail}")
