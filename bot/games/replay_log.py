"""A race's frames as they happened, kept small until the race ends: the first frame whole, then for
each card or roll only what changed (a horse's position, the last roll, the odds...).

A presenter keeps one log per race (a field of its own) while the race runs (tens of frames, each of them a
whole public view of a few kilobytes if kept as is); the replay is drawn from ``frames()``, rebuilt
off the event loop when the race is over, and the log is dropped with it. Pure and game-agnostic:
frames are JSON-like dicts, compared key by key, nested dicts by their own keys.

A log's ``key`` names its race to the process that draws the live pictures, which keeps each picture's
GIF block under it (``bot.games.kept_frames``); the replay takes them (``bot.workers.replay``) and
draws only the frames nobody drew.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bot.games.kept_frames import Block
from bot.games.odds import Odds

T = TypeVar("T")

_GONE = object()  # a key the newer frame no longer has


class _Nested(dict[str, Any]):
    """The changes inside a nested dict (a plain dict value replaces the old one whole)."""


class ReplayLog:
    __slots__ = ("race", "key", "_first", "_last", "_changes", "_odds")

    def __init__(self, race: int | None = None) -> None:
        self.race = race
        self.key = uuid.uuid4().hex  # unique among every race a process's workers draw, restarts included
        self._first: dict[str, Any] | None = None
        self._last: dict[str, Any] = {}
        self._changes: list[dict[str, Any]] = []
        self._odds: list[Odds | None] = []

    def __len__(self) -> int:
        return len(self._odds)

    def add(self, frame: dict[str, Any], odds: Odds | None = None) -> None:
        """Record ``frame`` (not copied: the caller hands over a frame it no longer changes)."""
        if self._first is None:
            self._first = frame
        else:
            self._changes.append(_diff(self._last, frame))
        self._last = frame
        self._odds.append(odds)

    def set_odds(self, index: int, odds: Odds | None) -> None:
        """The odds frame ``index`` was shown with, known only once its picture was drawn (a live race
        works them out for the frames it draws: ``Outgoing.ready``)."""
        self._odds[index] = odds

    def frames(self) -> list[dict[str, Any]]:
        """Every frame, oldest first, rebuilt (unchanged parts are shared between frames)."""
        if self._first is None:
            return []
        out = [self._first]
        for change in self._changes:
            out.append(_patch(out[-1], change))
        return out

    @property
    def odds(self) -> list[Odds | None]:
        """Each frame's odds; a frame that has none (never drawn live: merged away, or a card that
        changed nothing on the track) shows the last odds before it.

        Ruling: its odds were never worked out (only a frame drawn pays for them), and a replay whose odds
        bars came and went between cards would flicker; the last odds shown are what the channel saw."""
        out: list[Odds | None] = []
        last: Odds | None = None
        for odds in self._odds:
            last = odds if odds is not None else last
            out.append(last)
        return out

    def drawn(
        self, replay: Callable[..., T], /, kept: Mapping[str, Block] | None = None, **options: Any
    ) -> T:
        """The race drawn by ``replay`` (a game's ``race_replay``) from the rebuilt frames and their odds,
        and the GIF blocks ``kept`` when its live pictures were drawn (only the others are drawn).

        Sent to the replay worker as this bound method and an engine's function: the frames are rebuilt
        there, and the worker never loads discord.py or the cogs for it.
        """
        if kept:
            options["kept"] = kept
        return replay(self.frames(), odds=self.odds, **options)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            out[key] = value
            continue
        before = old[key]
        if before is value or before == value:
            continue
        if isinstance(before, dict) and isinstance(value, dict) and not isinstance(value, _Nested):
            out[key] = _Nested(_diff(before, value))
        else:
            out[key] = value
    for key in old:
        if key not in new:
            out[key] = _GONE
    return out


def _patch(base: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in change.items():
        if value is _GONE:
            out.pop(key, None)
        elif isinstance(value, _Nested):
            out[key] = _patch(base.get(key) or {}, value)
        else:
            out[key] = value
    return out
