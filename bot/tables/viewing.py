"""Who may see what: the one place a batch of events is split by viewer, before any presenter runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.base import Event


@dataclass
class Split:
    public: list[Event] = field(default_factory=list)
    private: dict[int, list[Event]] = field(default_factory=dict)  # seat -> the events only it may see


def split(events: list[Event], seats: int) -> Split:
    """Public events for the channel; each private event to each seat in its ``visible_to`` only."""
    out = Split()
    for event in events:
        if event.visible_to is None:
            out.public.append(event)
            continue
        for seat in event.visible_to:
            if 0 <= seat < seats:
                out.private.setdefault(seat, []).append(event)
    return out
