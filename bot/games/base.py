"""The one small surface every game implements (after OpenSpiel's ``State``).

The Discord layer, the storage, the AI players, the simulator and the demo all talk
to a game through this surface only:

* ``pending()``: who must decide what now, with the legal options. Several entries
  at once where the rules are simultaneous (secret submissions, doubles). An entry
  whose ``player`` is ``None`` is a *table step* (flip the next card, roll for the
  table): nobody chooses, the host applies it when its pace allows, and the game's
  own seeded RNG decides the outcome. Chance is explicit, never hidden in a move.
* ``apply(action)``: validate, then apply one decision and return the events it
  caused. An illegal action raises ``IllegalAction`` and changes nothing.
* ``view(viewer)``: what one seat (or the public, ``viewer=None``) may see. Messages
  are built from views only, so a hidden card cannot leak by accident.
* ``to_json()`` / ``from_json()``: the whole state, RNG included, with nothing lost. One idiom for
  every game: the engine's attributes *are* its state, each a JSON value or an object with
  ``to_json()``; ``Game`` encodes them all, and a game lists in ``codecs`` how to rebuild the objects.

Because every chance outcome comes from the game's RNG and every step goes through
``apply``, a game is rebuilt exactly by replaying its start and its action log.
"""

from __future__ import annotations

import copy
import json
import pickle
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

JSON = Any  # a value made of dict, list, str, int, float, bool and None only


class GameError(Exception):
    """Base of every error a game raises on purpose."""


class IllegalAction(GameError):
    """An action that is not allowed now; the game is unchanged."""


class ContentError(GameError):
    """A game data file is broken; the message names the file and the field."""


@dataclass(frozen=True)
class Decision:
    """A request: ``player`` (a seat, or ``None`` for a table step) must choose ``kind``.

    ``options`` are JSON values in the game's notation (``"gobbler:risky"``,
    ``"flip"``); the chosen value is passed back in ``Action.choice``.
    """

    player: int | None
    kind: str
    options: tuple[JSON, ...]
    prompt: str = ""
    # A *timed* table step (``player is None``) may not be taken before this unix time (for example
    # "time is up" in a game that ends on the clock). The engine keeps no clock: the time is a
    # setting fixed at the start, and the host only takes the step once the time has come.
    not_before: float | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "player": self.player,
            "kind": self.kind,
            "options": list(self.options),
            "prompt": self.prompt,
        }
        if self.not_before is not None:
            out["not_before"] = self.not_before
        return out


@dataclass(frozen=True)
class Action:
    """One decision taken: ``player`` chose ``choice`` for a pending ``kind``."""

    player: int | None
    kind: str
    choice: JSON = None

    def to_json(self) -> dict[str, JSON]:
        return {"player": self.player, "kind": self.kind, "choice": self.choice}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Action:
        return cls(player=data["player"], kind=data["kind"], choice=data.get("choice"))


@dataclass(frozen=True)
class Event:
    """Something that happened, rich enough to narrate and render.

    ``visible_to`` is ``None`` for a public event, or the seats that may see it
    (a dealt card, a secret pick); the host must not show it to anyone else.
    """

    kind: str
    data: dict[str, JSON] = field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind, "data": self.data}
        if self.visible_to is not None:
            out["visible_to"] = list(self.visible_to)
        return out

    def is_visible_to(self, viewer: int | None) -> bool:
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)


@dataclass(frozen=True)
class Stake:
    """One thing a seat put money on, in words any game can use (a ticket, a side bet, a bet, a car).

    ``label`` is what the stake was on, as players read it (``"Gobbler, risky"``, ``"horse 7"``);
    ``outcome`` is ``"won"`` or ``"lost"``; ``amount`` is what it paid (0 when lost). Storage and
    ``/stats`` see only these three fields, so they never need to know a game's own words.
    """

    label: str
    outcome: str
    amount: int

    def to_json(self) -> dict[str, JSON]:
        return {"label": self.label, "outcome": self.outcome, "amount": self.amount}


@dataclass(frozen=True)
class SeatResult:
    """A seat's standing when the game ends (what the results table stores).

    ``net`` is the money won or lost over the game (cash at the end minus cash at the start, or
    a game's own score for games without a bank); ``stakes`` lists what the seat bet on.
    """

    seat: int
    cash: int
    place: int
    won: bool
    detail: dict[str, JSON] = field(default_factory=dict)
    net: int = 0
    stakes: tuple[Stake, ...] = ()


class Game(ABC):
    """A game in progress. Subclasses keep their state JSON-able and their chance in ``self.rng``."""

    kind: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    # --- the surface -------------------------------------------------------

    @classmethod
    @abstractmethod
    def new(cls, seats: int, seed: int, settings: dict[str, JSON] | None = None) -> Self:
        """Set up a game for ``seats`` players; all chance from ``seed``."""

    @abstractmethod
    def pending(self) -> list[Decision]:
        """Who must decide what now (empty once the game is over)."""

    @abstractmethod
    def _apply(self, action: Action, decision: Decision) -> list[Event]:
        """Apply an action already checked against ``decision``; must not fail."""

    @abstractmethod
    def view(self, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (a seat, or ``None`` for the channel) may see."""

    # attribute -> how to rebuild it from its JSON (``(value, game so far) -> object``), for the
    # attributes that are objects; attributes are rebuilt in the order ``__init__`` set them, so a
    # codec may read one set before it (a track reads its board).
    codecs: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {}

    def to_json(self) -> dict[str, JSON]:
        """The whole state; ``from_json(to_json())`` continues identically."""
        return {"kind": self.kind, "state": {name: _encode(value) for name, value in vars(self).items()}}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Self:
        game = cls.__new__(cls)
        for name, value in copy.deepcopy(data["state"]).items():
            codec = cls.codecs.get(name)
            setattr(game, name, codec(value, game) if codec is not None else value)
        return game

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def results(self) -> list[SeatResult]:
        """Final standings; only meaningful once ``is_over``."""

    def opening_events(self) -> list[Event]:
        """What setting up the game caused (hands dealt, a grid drawn), to announce when it starts.

        Part of the surface so the host never digs into a fresh game's state to announce it.
        """
        return []

    # --- shared behaviour --------------------------------------------------

    def decision_for(self, player: int | None, kind: str | None = None) -> Decision | None:
        for decision in self.pending():
            if decision.player == player and (kind is None or decision.kind == kind):
                return decision
        return None

    def check(self, action: Action) -> Decision:
        """The pending decision ``action`` answers, or IllegalAction; changes nothing.

        Split from ``apply`` so the table can check an action, store it, and only then apply it
        (``apply_checked``) with no copy of the game in between (at 500 games the copy the
        table made of every game for every action was the event loop's largest cost).
        """
        if self.is_over:
            raise IllegalAction("The game is over.")
        pending = self.pending()
        mine = [d for d in pending if d.player == action.player]
        if not mine:
            if action.player is None:
                raise IllegalAction("No table step is due now; players must decide first.")
            raise IllegalAction(f"Seat {action.player} has nothing to decide now.")
        decision = next((d for d in mine if d.kind == action.kind), None)
        if decision is None:
            wanted = ", ".join(d.kind for d in mine)
            raise IllegalAction(f"Not a {action.kind!r} now; expected {wanted}.")
        if not _option_matches(action.choice, decision.options):
            raise IllegalAction(f"{action.choice!r} is not a legal {action.kind!r}.")
        return decision

    def apply_checked(self, action: Action, decision: Decision) -> list[Event]:
        """Apply an action ``check`` accepted against ``decision``, with nothing changed in between."""
        return self._apply(action, decision)

    def apply(self, action: Action) -> list[Event]:
        """Validate ``action`` against ``pending()`` and apply it, or raise and change nothing."""
        return self.apply_checked(action, self.check(action))

    def copy(self) -> Self:
        """A deep copy, by a pickle round trip: the same copy as ``copy.deepcopy`` for plain state in a
        quarter of the time (the AI and the odds imagine futures on copies)."""
        try:
            return fresh(self)
        except (pickle.PicklingError, AttributeError, TypeError):
            return copy.deepcopy(self)  # a game holding something that does not pickle

    def kept_copy(self, part: str, value: Any) -> Any:
        """``fresh(value)``, made again only when ``value`` changed since this game last copied ``part``;
        else the copy made then, shared.

        Why: a view copies the game's state so no reader can change the game, and most of it does not
        change from one card to the next (a Hot Streak game's history between two races, its mascots,
        the ticket stacks between two picks). At 500 games the views' copies were a fifteenth of the
        event loop and a tenth of what its young garbage collections walked, each a new tree of lists
        and dicts. Comparing the pickled bytes costs the first half of a copy and makes no objects.
        Readers never change a view (``bot.tables.ledger``); with ``CHECK_COPIES`` (on in the tests) a
        shared part a reader changed raises when it is next asked for.

        The copies live beside the game, not in it (a weak map): ``to_json`` and ``copy`` see none."""
        data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        parts = _kept.get(self)
        if parts is None:
            parts = _kept[self] = {}
        kept = parts.get(part)
        if kept is not None and kept[0] == data:
            if CHECK_COPIES and kept[1] != value:  # (equal bytes mean an equal value: the copy's changed)
                raise RuntimeError(f"a reader changed the shared copy of {part!r} of a {self.kind} game")
            return kept[1]
        copied = pickle.loads(data)
        parts[part] = (data, copied)
        return copied

    def dumps(self) -> str:
        """Canonical JSON text: equal states give equal bytes."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


CHECK_COPIES = False
"""When set (the tests set it), a part ``Game.kept_copy`` shares that a reader changed raises."""

_kept: weakref.WeakKeyDictionary[Game, dict[str, tuple[bytes, Any]]] = weakref.WeakKeyDictionary()


def fresh(value: Any) -> Any:
    """A deep copy of plain (JSON-like) state, by a pickle round trip: what ``copy.deepcopy`` makes, in a
    fifth of the time. Views copy the game's state so no reader can change it; the table asks for a
    view several times a card, and at 500 games the deep copies were a sixth of the loop."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _encode(value: Any) -> JSON:
    """A state attribute as JSON: objects by their ``to_json()``, containers copied."""
    if hasattr(value, "to_json"):
        return value.to_json()
    return copy.deepcopy(value)


def _option_matches(choice: JSON, options: tuple[JSON, ...]) -> bool:
    # JSON round-trips turn tuples into lists; compare through a canonical form.
    canon = json.dumps(choice, sort_keys=True)
    return any(json.dumps(option, sort_keys=True) == canon for option in options)
