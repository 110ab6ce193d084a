"""Small tracks and helpers for the Downforce rule tests."""

from __future__ import annotations

from bot.games.base import Action
from bot.games.downforce.game import Downforce


def space(ident: str, row: int, lane: int, ahead: list[str], **flags) -> dict:
    return {"id": ident, "row": row, "lane": lane, "ahead": ahead, **flags}


def lane_track(rows: int, lanes: int = 2, lines: tuple[int, ...] = (1, 2, 3)) -> dict:
    """A straight track ``rows`` long and ``lanes`` wide: ids ``a0, b0`` (row 0), ``a1, b1``..."""
    letters = "abcdef"[:lanes]
    spaces = []
    for r in range(rows):
        for i, letter in enumerate(letters):
            if r + 1 == rows:
                ahead = ["FINISH"]
            else:
                ahead = [f"{letters[j]}{r + 1}" for j in (i - 1, i, i + 1) if 0 <= j < lanes]
            spaces.append(space(f"{letter}{r}", r, i, ahead))
    return {"spaces": spaces, "lines": list(lines)}


def do(game: Downforce, seat: int | None, kind: str, choice) -> list:
    return game.apply(Action(seat, kind, choice))


def bid_all(game: Downforce, picks: dict[int, str]) -> list:
    events = []
    for seat, card in picks.items():
        events += do(game, seat, "bid", card)
    return events


def skip_auctions(game: Downforce) -> None:
    """Every auction settled by each seat bidding its first card."""
    while game.phase == "auction":
        decision = game.pending()[0]
        do(game, decision.player, "bid", decision.options[0])
