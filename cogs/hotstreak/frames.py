"""Which public view each race picture's odds come from, and the tickets it shows.

The table announces a batch of events after applying it, so the game's public view is the state
after the batch. A flip in the middle of a race is a batch of its own: its view is the view.
Two frames need another view: a card that ends the race (the view has moved on to the next race,
but the race's result is known, so its odds are certain) and a fold of the bar that the next flip
follows in the same batch (its odds are those of the state after the reshuffle and the burn,
before that flip).
"""

from __future__ import annotations

from typing import Any

from bot.games.hotstreak.game import submit_count
from bot.games.hotstreak.odds import BURN


def odds_view(
    state: dict[str, Any], frame: dict[str, Any], *, ended: bool, flips_after: int
) -> dict[str, Any]:
    """The public view the odds of ``frame`` are computed from.

    ``state``: the engine's public view after the batch (the channel's ``TableView.state``, not
    changed here); ``ended``: the race ended with this frame; ``flips_after``: how many cards of the
    same batch were flipped after it (only a fold is followed by a flip in one batch).
    """
    if ended:
        # The places are all taken: the odds of a finished race (certain), from the frame alone.
        return {**frame, "phase": "finished", "seats": state.get("seats"), "face_up": [], "flipped": []}
    flipped = list(state.get("flipped") or [])
    out = {**state, **frame, "phase": "race", "flipped": flipped[: len(flipped) - flips_after]}
    if frame.get("cards_left") == 0 and flips_after:
        # A fold: the pile is reshuffled and cards burned before the next flip.
        seats = int(state.get("seats") or 2)
        size = len(state.get("face_up") or []) + seats * submit_count(seats)
        burn = max(0, min(BURN, size - 1))
        out["cards_left"], out["burned"] = size - burn, burn
    return out
