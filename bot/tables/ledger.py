"""A game's record: the engine, built from its seed and replayed from its stored actions, moved on
only by actions that were stored first, and settled (its results stored) once.

The order of every change is: check the action against the engine (which changes nothing), store
it (committed), then apply it. So a decision that could not be stored is never applied, and one
that was stored is replayed exactly after a restart. An engine that fails while applying an action
it accepted cannot go on (its stored log would fail the same way after a restart): ``EngineFailed``.
"""

from __future__ import annotations

import logging
import pickle
from typing import TYPE_CHECKING, Any

from bot.games.base import Action, Event, Game
from bot.storage import LeaseLost, PlayerResult, StorageError
from bot.tables.host import Host
from bot.tables.results import result_row
from bot.tables.seats import Seat

if TYPE_CHECKING:
    from bot.games.catalog import Entry

log = logging.getLogger(__name__)

CHECK_VIEWS = False
"""Check that no reader changed a shared view (``Ledger.view``): on in the tests (tests/conftest.py)."""


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
        # The engine's views at this step, by audience (``view``), and what they were when made.
        self._views: dict[int | None, dict[str, Any]] = {}
        self._views_of: tuple[Game | None, int] = (None, -1)
        self._made: dict[int | None, bytes] = {}

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

    def view(self, audience: int | None = None) -> dict[str, Any]:
        """The engine's view for ``audience`` (None: the channel) at this step, made once and shared by
        everything that reads it until the game moves: the presenters, the prompts, the pacing.

        Why: the engine copies its state for each view so no reader can change the game, and the table
        asked for the same view several times a card (the announcement, the prompts, the pause, each AI
        seat's wait): at 500 games those copies were a ninth of the event loop. Readers must not change
        a view (none does; with ``CHECK_VIEWS``, on in the tests, a changed one raises)."""
        assert self.engine is not None
        if self._views_of[0] is not self.engine or self._views_of[1] != self.seq:
            self.forget_views()
            self._views_of = (self.engine, self.seq)
        view = self._views.get(audience)
        if view is None:
            view = self._views[audience] = self.engine.view(audience)
            if CHECK_VIEWS:
                self._made[audience] = pickle.dumps(view)
        return view

    def forget_views(self) -> None:
        """The game moved (or may have): views are made again when next asked for."""
        if CHECK_VIEWS:
            for audience, view in self._views.items():
                if pickle.dumps(view) != self._made.get(audience):
                    raise RuntimeError(f"game {self.game_id}: a reader changed the shared view of {audience}")
        self._views, self._made, self._views_of = {}, {}, (None, -1)

    async def commit(self, action: Action) -> list[Event]:
        """Check, store, then apply. Raises IllegalAction or StorageError and changes nothing, or
        EngineFailed. No copy of the engine is made: ``check`` changes nothing."""
        assert self.engine is not None
        decision = self.engine.check(action)
        await self.host.storage.append_action(self.game_id, self.seq, action.to_json())
        self.forget_views()
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
