"""A game's record: the engine, built from its seed and replayed from its stored actions, moved on
only by actions that were stored first, and settled (its results stored) once.

The order of every change is: check the action against the engine (which changes nothing), store
it (committed), then apply it. So a decision that could not be stored is never applied, and one
that was stored is replayed exactly after a restart. An engine that fails while applying an action
it accepted cannot go on (its stored log would fail the same way after a restart): ``EngineFailed``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.games.base import Action, Event, Game
from bot.storage import LeaseLost, PlayerResult, StorageError
from bot.tables.host import Host
from bot.tables.results import result_row
from bot.tables.seats import Seat

if TYPE_CHECKING:
    from bot.games.catalog import Entry

log = logging.getLogger(__name__)


class EngineFailed(Exception):
    """The engine raised while applying an action it had accepted and that is now stored."""


class Ledger:
    def __init__(self, host: Host, entry: Entry, game_id: int, seed: int) -> None:
        self.host = host
        self.entry = entry
        self.game_id = game_id
        self.seed = seed
        self.engine: Game | None = None
        self.seq = 0  # actions stored so far: the next one's number
        self.acted: list[int] = []  # each seat's actions so far (a button's step is its seat's count)
        self.last_events: list[Event] = []  # what the last replayed action caused (for a resume)
        self.settled = False  # the results are stored (presenters say "Results saved" only then)
        self.announced = False  # stored that the ending was posted (``Storage.mark_announced``)

    def start(self, seats: int, settings: dict[str, Any], actions: list[dict[str, Any]] | None) -> None:
        """Build the engine from the seed and replay the stored actions (the game's whole history)."""
        engine = self.entry.new_engine(seats, self.seed, self.entry.stored_engine_settings(settings))
        self.acted = [0] * seats
        self.last_events = []
        for raw in actions or []:
            action = Action.from_json(raw)
            self.last_events = engine.apply(action)
            if action.player is not None:
                self.acted[action.player] += 1
        self.engine = engine
        self.seq = len(actions or [])

    async def commit(self, action: Action) -> list[Event]:
        """Check, store, then apply. Raises IllegalAction or StorageError and changes nothing, or
        EngineFailed. No copy of the engine is made: ``check`` changes nothing."""
        assert self.engine is not None
        decision = self.engine.check(action)
        await self.host.storage.append_action(self.game_id, self.seq, action.to_json())
        try:
            events = self.engine.apply_checked(action, decision)
        except Exception as error:
            log.error("Game %s: the engine failed on %r", self.game_id, action)
            raise EngineFailed(f"game {self.game_id} failed on its action {self.seq}") from error
        self.seq += 1
        if action.player is not None:
            self.acted[action.player] += 1
        return events

    def results(self, seats: list[Seat]) -> list[PlayerResult]:
        """The engine's generic results as the rows the results table stores (one per seat)."""
        assert self.engine is not None
        return [result_row(seats, r) for r in self.engine.results()]

    async def settle(self, seats: list[Seat], *, announced: bool = False) -> bool:
        """Write the results once (the storage refuses a second write, so calling this again is safe).

        ``announced``: the ending was posted already (results saved after the final standings went
        out). True once they are stored. If not, the caller keeps trying, and the action log holds the
        whole game, so the next start writes them whatever the game's age.
        """
        try:
            stored = await self.host.storage.finish_game(
                self.game_id, self.results(seats), announced=announced
            )
        except LeaseLost:
            raise  # another process drives the game now: it settles it, and says so
        except StorageError:
            log.exception("Could not store the results of game %s; retrying", self.game_id)
            return False
        self.settled = True
        if announced and stored:
            self.announced = True
        elif announced:  # settled before (a try whose answer was lost): the note is stored on its own
            await self.mark_announced()
        return True

    async def mark_announced(self) -> bool:
        """Store that the ending of this settled game was posted; True once it is."""
        if self.announced:
            return True
        try:
            await self.host.storage.mark_announced(self.game_id)
        except StorageError:
            log.exception("Could not note that the ending of game %s was posted; retrying", self.game_id)
            return False
        self.announced = True
        return True
