"""What the fast Downforce odds read off a public view (``bot.games.odds_model``): per car racing.

A car's prospects are how many rows it has to go against how far the cards still to come should move
it: the speed cards not yet played are known (cards are played face up), the hands hold a known number
of them, so each unplayed card is in a hand with the same chance; a card's line for the car counts its
speed, a wild line its speed shared among the cars racing; the rest of the card in play moves its cars
first. From that: rows to go, who leads and by how much, how many cards each car should need to finish
against the fastest and against the cards left in the hands (when they run out, the leader wins).

What it does not see, and where it is furthest from the simulator (22 points in the worst fixture
state): late in a race, who wins turns on the few cards left, whose turn it is and which spaces are
blocked. On the 24 fixture states it is 2.1 points off on average (start 2.2, middle 1.8, late 2.2).
"""

from __future__ import annotations

from typing import Any

from bot.games.downforce.cards import COLOURS, WILD
from bot.games.downforce.content import default_content
from bot.games.downforce.odds import _unseen, decided
from bot.games.downforce.track import FINISH, Track


def features(view: dict[str, Any]) -> dict[str, list[float]]:
    """Car colour -> its features, for every car not across the finish while no car has crossed it."""
    if decided(view):
        return {}
    content = default_content()
    track = Track(view["track"])
    finish = track.last_row + 1
    rows = {c: float(track.row(view["cars"][c]["space"] or FINISH)) for c in COLOURS}
    racing = [c for c in COLOURS if rows[c] < finish]
    pool = _unseen(view, content)
    in_hand = sum(view["hand_sizes"]) / max(1, len(pool))
    speed = dict.fromkeys(COLOURS, 0.0)
    wild = 0.0
    for unplayed in pool:
        for colour, n in content.cards[unplayed]:
            if colour == WILD:
                wild += n
            else:
                speed[colour] += n
    # The rest of the card in play comes first: its lines move their cars in order (a wild line's
    # speed is shared among the cars racing), and the first car it takes across the finish has a
    # feature of its own.
    crosses = ""
    card = view.get("card_in_play")
    if card:
        for i in range(card["line"], len(card["lines"])):
            line: str = card["colours"][i] or card["lines"][i][0]
            n = card["lines"][i][1]
            for c in racing if line == WILD else [line] if line in rows else []:
                rows[c] = min(finish, rows[c] + (n / len(racing) if line == WILD else n))
                if rows[c] == finish and not crosses:
                    crosses = c
    cards = max(1.0, float(sum(view["hand_sizes"])))
    # How many cards it should take each car to finish: its rows to go over its speed per card.
    need = {c: (finish - rows[c]) * len(pool) / max(0.5, speed[c] + wild / len(racing)) for c in racing}
    fastest = min(need.values())
    lead = max(rows[c] for c in racing)
    out: dict[str, list[float]] = {}
    for c in racing:
        leads = 1.0 if rows[c] == lead else 0.0
        out[c] = [
            (finish - rows[c]) / finish,
            leads,
            leads * min(3.0, fastest / cards),
            1.0 if c == crosses else 0.0,
            min(3.0, need[c] / cards),
            (need[c] - fastest) / 10,
            min(3.0, (need[c] - fastest) / max(1.0, fastest)),
            min(5.0, (need[c] - fastest) / (1.0 + fastest) ** 0.5),
            in_hand * speed[c] / finish,
            in_hand * (finish - rows[c]) / finish,
            in_hand * (lead - rows[c]) / finish,
            (lead - rows[c]) / (1.0 + cards) ** 0.5,
        ]
    return out
