"""A per-user limit on actions (slash commands, button clicks, menu picks, modals): beyond
``actions`` in ``seconds`` a person gets a short private answer and nothing else happens.

Where it is checked (``RaceBot.gate_interactions`` in ``bot.client``): in the gateway's
``INTERACTION_CREATE`` handler itself, before discord.py hands the interaction to the command tree or
to a button's handler. Every interaction passes there exactly once, whatever it is (a command, a game's
button, a leaderboard page, a privacy button), so nothing can be forgotten, and a refused one never
reaches a table, the storage or a lock. Autocomplete requests are not counted (typing sends many, and
they cannot be answered with a message). Clicks another process passed on (``bot.tables.routing``)
were counted where they arrived.

Rulings:
- A sliding window per user (the last ``seconds``), counted per process: a shard sees its own servers'
  clicks, which is where a flood comes from. Refused actions are not counted, so a person who waits is
  let back in as their earlier actions age out.
- Every refusal is answered (privately, in the clicker's language): no click is left unanswered, and
  an interaction's answer does not count against the bot's global request limit. Only the first
  refusal in a window is logged (``REFUSED``; the rest are ``DROPPED`` from the log), so a flood
  writes one line per user per window.
- The default, 8 in 5 s (``USER_RATE_LIMIT=8/5``), is above what play needs: a manual Horse Race roll
  waits for the board to move between turns, and a game's other decisions are one or two clicks a step.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from bot.i18n import N_

TOO_FAST = N_("You're going too fast: wait a few seconds, then try again.")
DEFAULT_ACTIONS, DEFAULT_SECONDS = 8, 5.0
ALLOWED, REFUSED, DROPPED = "allowed", "refused", "dropped"


class RateLimit:
    def __init__(
        self,
        actions: int = DEFAULT_ACTIONS,
        seconds: float = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.actions, self.seconds, self.clock = actions, seconds, clock
        self._recent: dict[int, deque[float]] = {}  # user -> when their last allowed actions were
        self._told: dict[int, float] = {}  # user -> when they were last told they go too fast
        self._swept = clock()
        self.refused = 0

    def check(self, user_id: int) -> str:
        """``ALLOWED`` (counted), ``REFUSED`` (answer it and log it) or ``DROPPED`` (answer it; logged
        already in this window)."""
        now = self.clock()
        if now - self._swept > self.seconds:
            self._sweep(now)
        recent = self._recent.setdefault(user_id, deque())
        while recent and now - recent[0] >= self.seconds:
            recent.popleft()
        if len(recent) < self.actions:
            recent.append(now)
            return ALLOWED
        self.refused += 1
        told = self._told.get(user_id)
        if told is not None and now - told < self.seconds:
            return DROPPED
        self._told[user_id] = now
        return REFUSED

    def _sweep(self, now: float) -> None:
        """Forget people with no action in the window (the maps stay as small as the active users)."""
        self._swept = now
        for user_id in [u for u, r in self._recent.items() if not r or now - r[-1] >= self.seconds]:
            del self._recent[user_id]
        for user_id in [u for u, t in self._told.items() if now - t >= self.seconds]:
            del self._told[user_id]


def parse(text: str) -> tuple[int, float] | None:
    """``USER_RATE_LIMIT``: ``actions/seconds`` (``8/5``), or ``off``/``none``/``0`` (None: no limit).
    Raises ValueError on anything else."""
    text = text.strip().lower()
    if text in ("off", "none", "0"):
        return None
    actions, slash, seconds = text.partition("/")
    if not slash or not actions.isascii() or not actions.isdigit() or int(actions) < 1:
        raise ValueError(text)
    window = float(seconds)
    if not 0 < window < float("inf"):
        raise ValueError(text)
    return int(actions), window
