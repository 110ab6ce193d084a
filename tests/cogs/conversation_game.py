"""One whole game of any kind played as the conversation issue tells it: three people join a four-seat
table, the host adds one AI seat and presses Start, everyone's DMs open (or some closed), pace 0; then
what the bot said, counted by the fake (``bot.fakediscord.conversation``).

Shared by ``tests/cogs/test_conversation.py`` (the budgets) and ``bench/bench_conversation.py`` (the
figures).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from bot.fakediscord.conversation import Talk
from bot.games import catalog
from bot.games.base import Action
from bot.storage.records import StoredGame
from bot.storage.store import Storage
from tests.cogs.table_player import People

# Each game's start options: four seats at pace 0 (Horse Race with manual rolls, where people press Roll).
START: dict[str, dict[str, Any]] = {
    "hotstreak": {"players": 4, "pace": 0.0},
    "horserace": {"rolls": "manual", "pace": 0.0},
    "downforce": {"players": 4, "pace": 0.0, "track": "aloha-sands", "powers": "all"},
}
FINAL = ("Final standings", "Final scores")  # Downforce says scores


@dataclass
class Played:
    """What one game made: the fake's counts, the requests that count against the global limit (from
    Start to the final standings), how many decisions the people made, and each person's waits."""

    talk: Talk
    limited_requests: int
    clicks: int
    seconds: float
    waits: dict[int, int]  # user id -> waits (``waits``)
    table_steps: int  # cards flipped or played, dice rolled: the steps that move a race
    race_requests: int  # requests counted against the global limit while a race's live message ran

    @property
    def requests_per_card(self) -> float:
        return self.race_requests / max(1, self.table_steps)

    def figures(self, names: dict[int, str]) -> dict[str, Any]:
        return self.talk.as_dict(names) | {
            "waits": {names.get(u, str(u)): n for u, n in sorted(self.waits.items())},
            "requests": self.limited_requests,
            "race_steps": self.table_steps,
            "race_requests": self.race_requests,
            "requests_per_card": round(self.requests_per_card, 2),
            "clicks": self.clicks,
            "seconds": round(self.seconds, 1),
        }


def waits(stored: StoredGame) -> tuple[dict[int, int], int]:
    """Each person's waits in a stored game, told by its engine alone (not by the bot's prompts): a wait
    ends with an action of theirs after which the game no longer waits on them (their consecutive
    decisions, a card then its end space, are one wait); and the race-moving steps: the actions of
    the table itself and the cards played (Downforce's ``play``)."""
    entry = catalog.entry(stored.kind)
    engine = entry.new_engine(len(stored.seats), stored.seed, entry.stored_engine_settings(stored.settings))
    ended: Counter[int] = Counter()
    steps = 0
    for raw in stored.actions:
        action = Action.from_json(raw)
        engine.apply(action)
        if action.player is None or action.kind in ("play", "roll"):
            steps += 1  # a card or a roll moves the race (a person's roll is also a decision of theirs)
        if action.player is None:
            continue
        if all(d.player != action.player for d in engine.pending()):
            user = stored.seats[action.player].get("user_id")
            if user is not None:
                ended[int(user)] += 1
    return dict(ended), steps


def _final(fake: FakeDiscord, channel: FakeChannel) -> bool:
    places = [channel, *fake.threads_in(channel)]
    return any(word in m.text for place in places for m in fake.channel_messages(place) for word in FINAL)


async def play_one(
    fake: FakeDiscord,
    storage: Storage,
    channel: FakeChannel,
    kind: str,
    people: list[FakeUser],
    *,
    within: float = 240.0,
    **options: Any,
) -> Played:
    """``people[0]`` hosts ``kind`` in ``channel`` (``START``, changed by ``options``); the others join; one
    AI seat; played to the end."""
    host = people[0]
    ix = await fake.slash(host, channel, f"{kind} start", **(START[kind] | options))
    lobby: FakeMessage = await ix.reply()
    game_id = int(re.search(r"g:(\d+)(?:\.[0-9a-z]+)?:lobby", lobby.buttons[0].custom_id or "").group(1))  # type: ignore[union-attr]
    for person in people[1:]:
        await (await fake.click_button(person, lobby, "Join")).wait_response()

        def seated(person: FakeUser = person) -> bool:
            return person.mention in lobby.text

        await fake.wait_for(seated, timeout=5, what=f"{person.name} joined")
    requests_before = sum(fake.traffic.limited_per_second.values())
    began = time.monotonic()
    await (await fake.click_button(host, lobby, "Add AI")).wait_response()
    if any(b.label == "Start" and not b.disabled for b in lobby.buttons):
        await (await fake.click_button(host, lobby, "Start")).wait_response()
    table = People(fake, channel, dict(enumerate(people)))
    await table.play(lambda: _final(fake, channel), within=within)
    ended = time.monotonic()
    await asyncio.sleep(1.0)  # a replay follows its results
    stored = await storage.load_game(game_id)
    assert stored is not None
    people_waits, steps = waits(stored)
    spans = fake.conversation.live_spans(channel)
    return Played(
        fake.conversation.summary(channel),
        sum(fake.traffic.limited_per_second.values()) - requests_before,
        table.clicks,
        ended - began,
        people_waits,
        steps,
        sum(fake.traffic.limited_between(start, end) for start, end in spans),
    )
