"""A place that Discord refuses in the middle of a game: a permission was taken away (50013 Missing
Permissions) or the channel was hidden from the bot (50001 Missing Access).

Ruling: never silent, never closed at once. The place is *paused*: its owner hears it once
(``on_paused``, with the missing permissions as the bot's cache knows them), the senders that were
refused wait and try their message again every ``permission_retry_seconds``, and the bot's cache is
looked at as often (a server manager's fix is heard over the gateway). The first post that goes
through, or a cache that shows every required permission back, ends the pause (``on_back``, with how
long it lasted, so deadlines move on by as much). After ``permission_wait_seconds`` without it, the
pause is over for good (``on_over``): the owner closes the game.

A pause ended by the cache alone is not trusted yet: if Discord refuses again before a post went
through, the same pause goes on (its clock is not reset, the owner is not told twice), so a cache
that is wrong cannot keep a game paused forever.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from bot.tables import clock
from bot.tables.timing import Timing


class Pause:
    def __init__(self, timing: Timing, look: Callable[[], list[str] | None]) -> None:
        self.timing = timing
        self.look = look  # the required permissions missing where the game plays (None: unknown)
        self.since: float | None = None  # when this pause began (kept while the cache alone ended it)
        self.paused = False
        self.over = False
        self.on_paused: Callable[[list[str]], None] | None = None
        self.on_back: Callable[[float], None] | None = None
        self.on_over: Callable[[list[str]], None] | None = None
        self._episode = 0.0  # when this stretch of the pause began (deadlines move on by its length)
        self._back = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None

    def begin(self) -> None:
        """Discord refused a post or an edit: pause (once), and start watching for the permission."""
        if self.paused or self.over:
            return
        told = self.since is not None  # the cache ended it, but Discord still refuses: the same pause
        if self.since is None:
            self.since = clock.now()
        self._episode = clock.now()
        self.paused = True
        self._back = asyncio.Event()
        self._watcher = asyncio.create_task(self._watch(), name="permission-pause")
        if not told and self.on_paused is not None:
            self.on_paused(self.look() or [])

    def went_through(self) -> None:
        """A post or an edit went through: the permission is back for certain."""
        if self.paused:
            self._end()
        self.since = None

    async def wait(self) -> bool:
        """A refused sender waits here: True when it should try again (the pause ended, or one retry
        period passed), False once the pause is over for good (its message is given up)."""
        if self.over:
            return False
        if self.paused:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._back.wait(), self.timing.permission_retry_seconds)
        return not self.over

    async def until_back(self) -> None:
        """The table's own loop waits here, taking no step, until the pause ends either way."""
        while self.paused and not self.over:
            await self._back.wait()

    def stop(self) -> None:
        """The game is closing: stop watching, and every refused sender gives its message up."""
        self.over = True
        if self._watcher is not None and self._watcher is not asyncio.current_task():
            self._watcher.cancel()
        self._back.set()

    async def _watch(self) -> None:
        while self.paused and self.since is not None:
            left = self.since + self.timing.permission_wait_seconds - clock.now()
            if left <= 0:
                self._give_up()
                return
            await asyncio.sleep(min(self.timing.permission_retry_seconds, left))
            if self.paused and self.look() == []:  # the cache shows them back: let the senders try
                self._end()

    def _end(self) -> None:
        self.paused = False
        self._back.set()
        if self._watcher is not None and self._watcher is not asyncio.current_task():
            self._watcher.cancel()
        if self.on_back is not None:
            self.on_back(clock.now() - self._episode)

    def _give_up(self) -> None:
        self.over = True
        self.paused = False
        self._back.set()
        if self.on_over is not None:
            self.on_over(self.look() or [])
