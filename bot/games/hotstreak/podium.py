"""The podium: who took which place, and which place each mascot is paid as.

Finishers take the best free place (the leftmost podium space); disqualified mascots
the worst free place (the rightmost). Mascots put out together (by one card, or by one
fold of the yellow bar) take the worst free places together and are each paid as the
worst of them: "anyone who bets on them gets the lower of the payouts".
"""

from __future__ import annotations

from bot.games.base import JSON


class Podium:
    def __init__(self, size: int, slots: list[str | None] | None = None, paid: dict[str, int] | None = None):
        self.slots: list[str | None] = list(slots) if slots is not None else [None] * size
        self.paid: dict[str, int] = dict(paid or {})

    @property
    def free(self) -> list[int]:
        return [i for i, m in enumerate(self.slots) if m is None]

    def place_finisher(self, mascot: str) -> dict[str, JSON]:
        slot = self.free[0]
        return self._put(mascot, slot, slot + 1)

    def place_outs(self, mascots: list[str]) -> list[dict[str, JSON]]:
        """Put out together: the worst ``len(mascots)`` free places, each paid as the worst."""
        if not mascots:
            return []
        slots = self.free[-len(mascots) :]
        worst = slots[-1] + 1
        return [self._put(m, slot, worst) for m, slot in zip(mascots, slots, strict=True)]

    def place_last_runner(self, mascot: str) -> dict[str, JSON]:
        """The race is decided: the one mascot still running takes the place left."""
        slot = self.free[0]
        return self._put(mascot, slot, slot + 1)

    def _put(self, mascot: str, slot: int, paid: int) -> dict[str, JSON]:
        self.slots[slot] = mascot
        self.paid[mascot] = paid
        return {"mascot": mascot, "slot": slot, "place": paid}

    def to_json(self) -> dict[str, JSON]:
        return {"slots": list(self.slots), "paid": dict(self.paid)}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Podium:
        return cls(len(data["slots"]), data["slots"], data["paid"])
