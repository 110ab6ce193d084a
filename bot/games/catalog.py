"""Every game the bot knows, one entry each: the only list a new game is added to.

The client loads each entry's cog, ``/leaderboard`` and ``/stats`` offer their titles, the command
line finds their demo and simulator, resume finds their engine, and the table reads the rest
(AI, pacing, who decides in private, the engine's settings at start). Entries name modules as
strings and import them on first use, so this module has no Discord import, loading it costs
nothing, and one broken game does not stop the others.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from bot.games.base import JSON, Decision, Game
from bot.i18n import DEFAULT, N_, current
from bot.i18n.formatting import signed

Choose = Callable[[dict[str, JSON], Decision, str, random.Random], JSON]
"""An AI: ``choose(view, decision, level, rng)`` -> one of ``decision.options``, from that seat's view only."""


@dataclass(frozen=True)
class Start:
    """What a game may use to fix its engine settings when the host presses Start."""

    seats: int
    seed: int
    now: float  # unix time at the start (a game on the clock fixes its end from it)
    options: dict[str, JSON]  # what the lobby chose (players, pace, and the game's own options)
    lifetime_net: dict[int, int]  # seat -> that human's lifetime net in this game here; AI seats absent


@dataclass(frozen=True)
class Entry:
    kind: str  # stored with every game; never rename
    title: str  # English, marked: shown translated (``Presenter.title``, ``_(entry.title)``)
    engine: str  # "module:Class" of the ``Game``
    ai: str  # "module:function" with the ``Choose`` signature
    start: str  # "module:function": ``(Start) -> dict`` the engine's settings, fixed at Start
    presenter: str  # "module:Class" of the Discord presenter
    cog: str  # the extension holding the slash-command group
    command: str  # the slash-command group's name
    demo: str | None = None  # module with ``main(argv) -> int`` (``python -m bot demo <kind>``)
    sim: str | None = None  # module with ``main(argv) -> int`` (``python -m bot sim <kind>``)
    # Decisions each seat takes in its DM (or the ephemeral "My hand" answer): secret ones, and
    # simultaneous ones where each seat picks from its own options.
    private: frozenset[str] = frozenset()
    # "module:function" ``(options, decision) -> bool``: a seat's decision the table takes by
    # itself at its pace (rolls the host set to automatic); None when a game has none.
    automatic: str | None = None
    # "module:function" ``(decision) -> choice | None``: what the table chooses for a person who missed
    # a decision's deadline (None: the AI decides for them, as for every game without it).
    late: str | None = None
    # "module:function" ``(public view, decision, pace, countdown) -> seconds`` to wait before a
    # table step; None: every step waits one pace.
    pause: str | None = None
    # "module:function" ``(stored table settings) -> engine settings`` for games stored by an older
    # version of the bot; None: the stored ``settings["engine"]`` as is.
    stored: str | None = None
    # "module:function" ``(public view, decision, pace) -> seconds`` an AI seat waits before it
    # takes a decision (a game whose players, not the table, play the cards paces them here);
    # None: AI seats decide at once.
    ai_pause: str | None = None
    # "module:function" ``(stored stake label) -> str``: a stake's label (stored in English with the
    # results) in the reader's language, for ``/stats``; None: shown as stored.
    stake_words: str | None = None
    # "module:function" ``(net) -> str``: a player's net in the game's own money, signed, for
    # ``/leaderboard`` and ``/stats`` (Downforce counts millions); None: dollars.
    net_words: str | None = None
    # Two lines for ``/help`` (English, marked: shown translated): what the game is, and how it is won.
    summary: str = ""
    _loaded: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def _load(self, ref: str) -> Any:
        if ref not in self._loaded:
            module_name, name = ref.split(":")
            self._loaded[ref] = getattr(import_module(module_name), name)
        return self._loaded[ref]

    @property
    def engine_class(self) -> type[Game]:
        return self._load(self.engine)

    @property
    def min_players(self) -> int:
        return self.engine_class.min_players

    @property
    def max_players(self) -> int:
        return self.engine_class.max_players

    def new_engine(self, seats: int, seed: int, settings: dict[str, JSON]) -> Game:
        return self.engine_class.new(seats, seed, settings)

    def choose(
        self, view: dict[str, JSON], decision: Decision, level: str, rng: random.Random, effort: float = 1.0
    ) -> JSON:
        """The AI's choice; ``effort`` below 1 asks an AI that can think less (one with an ``effort``
        parameter) to do so: a busy bot's AI plays a little worse rather than keep people waiting."""
        ai = self._load(self.ai)
        if effort < 1.0 and "effort" in inspect.signature(ai).parameters:
            return ai(view, decision, level, rng, effort=effort)
        return ai(view, decision, level, rng)

    def engine_settings(self, start: Start) -> dict[str, JSON]:
        return self._load(self.start)(start)

    def is_automatic(self, options: dict[str, JSON], decision: Decision) -> bool:
        return self.automatic is not None and bool(self._load(self.automatic)(options, decision))

    def late_choice(self, decision: Decision) -> JSON | None:
        return None if self.late is None else self._load(self.late)(decision)

    def step_pause(self, view: dict[str, JSON], decision: Decision, pace: float, countdown: float) -> float:
        if self.pause is None:
            return pace
        return float(self._load(self.pause)(view, decision, pace, countdown))

    def ai_wait(self, view: dict[str, JSON], decision: Decision, pace: float) -> float:
        if self.ai_pause is None:
            return 0.0
        return float(self._load(self.ai_pause)(view, decision, pace))

    def stored_engine_settings(self, table_settings: dict[str, JSON]) -> dict[str, JSON]:
        if self.stored is None:
            return dict(table_settings.get("engine", {}))
        return self._load(self.stored)(table_settings)

    def stake_label(self, label: str) -> str:
        """A stored stake label as the reader reads it (English: as stored)."""
        if self.stake_words is None or current() == DEFAULT:
            return label
        return str(self._load(self.stake_words)(label))

    def net_text(self, net: int) -> str:
        """A net result in this game's money, signed (``+$5``; Downforce ``+$5M``)."""
        return signed(net) if self.net_words is None else str(self._load(self.net_words)(net))

    def presenter_class(self) -> type:
        return self._load(self.presenter)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Sent to a worker as its kind: the worker finds the same entry in its own catalog, and
        what this process has loaded (the Discord presenter among it) stays here."""
        return entry, (self.kind,)


ENTRIES: tuple[Entry, ...] = (
    Entry(
        kind="hotstreak",
        title=N_("Hot Streak"),
        summary=N_(
            "Four mascots race on a card-driven track; 2 to 8 players bet on them in a draft and secretly "
            "stack the race deck.\nThree races; the richest player at the end wins."
        ),
        stake_words="bot.games.hotstreak.narration:stake_words",
        engine="bot.games.hotstreak.game:HotStreak",
        ai="bot.games.hotstreak.ai:choose",
        start="bot.games.hotstreak.start:engine_settings",
        presenter="cogs.hotstreak.present:HotStreakPresenter",
        cog="cogs.hotstreak",
        command="hotstreak",
        demo="bot.games.hotstreak.demo",
        sim="bot.games.hotstreak.sim",
        private=frozenset({"submit", "double"}),
        pause="bot.games.hotstreak.start:step_pause",
    ),
    Entry(
        kind="horserace",
        title=N_("The Horse Race Game"),
        summary=N_(
            "Dice move horses 2 to 12; players hold cards of the horses, scratched horses cost whoever "
            "rolls them.\nThe winning horse's cards share the jackpot; the most money after the last race wins."
        ),
        stake_words="bot.games.horserace.narration:stake_words",
        engine="bot.games.horserace.game:HorseRace",
        ai="bot.games.horserace.ai:choose",
        start="bot.games.horserace.start:engine_settings",
        presenter="cogs.horserace.present:HorseRacePresenter",
        cog="cogs.horserace",
        command="horserace",
        demo="bot.games.horserace.demo",
        sim="bot.games.horserace.sim",
        automatic="bot.games.horserace.start:is_automatic",
        late="bot.games.horserace.start:late_choice",
        pause="bot.games.horserace.start:step_pause",
        stored="bot.games.horserace.start:stored_settings",
    ),
    Entry(
        kind="downforce",
        title=N_("Downforce"),
        summary=N_(
            "Buy cars at secret auctions, race them with speed cards that move rivals' cars too, and bet "
            "on the winner.\nPrizes and bets minus what your cars cost: the most money wins."
        ),
        stake_words="bot.games.downforce.narration:stake_words",
        net_words="bot.games.downforce.narration:signed_millions",
        engine="bot.games.downforce.game:Downforce",
        ai="bot.games.downforce.ai:choose",
        start="bot.games.downforce.start:engine_settings",
        presenter="cogs.downforce.present:DownforcePresenter",
        cog="cogs.downforce",
        command="downforce",
        sim="bot.games.downforce.sim",
        # Every decision in private: a card's end spaces, wild colours and powers are asked where the
        # card was played (the player's DM, or My hand), in the same wait (``bot.tables.prompts``).
        private=frozenset({"bid", "play", "bet", "keep", "move", "wild", "power", "ignore", "defensive"}),
        ai_pause="bot.games.downforce.start:ai_pause",
        stored="bot.games.downforce.start:stored_settings",
    ),
)

CATALOG: dict[str, Entry] = {entry.kind: entry for entry in ENTRIES}


def entry(kind: str) -> Entry:
    """The catalog entry for a stored or chosen game kind; a clear error for an unknown one."""
    try:
        return CATALOG[kind]
    except KeyError:
        raise KeyError(f"Unknown game {kind!r}; known: {', '.join(sorted(CATALOG))}") from None


def titles() -> dict[str, str]:
    """kind -> title, in catalog order (for command choices and headings)."""
    return {e.kind: e.title for e in ENTRIES}
