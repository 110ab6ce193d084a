"""One line of table talk per event, e.g.
``Seat 2 plays red 4, blue 2, wild 3 (wild: green): red moves 4 to row 9, blue is blocked, green finishes 1st.``

Pure functions of an event's kind and data; private events (a dealt hand, a bid card, a secret
bet) are narrated for their owner only, so the host must check ``visible_to`` as for any event.
Seats are shown counting from 1, as players count them.
"""

from __future__ import annotations

from bot.games.base import JSON, Event
from bot.games.downforce.powers import EXTRA, SUMMARY, TITLES
from bot.games.downforce.scoring import ORDINALS
from bot.games.downforce.track import FINISH


def seat_name(seat: int) -> str:
    return f"Seat {seat + 1}"


def _money(value: int) -> str:
    return f"-${-value}M" if value < 0 else f"${value}M"


def option_label(view: dict[str, JSON], kind: str, option: JSON) -> str:
    """How a decision's option reads on a button or in a menu (``view`` is the deciding seat's).

    ``keep``: the power and what it does; ``power``: ``Use Aggressive (red car)`` / ``No, thanks``;
    ``ignore``: ``Ignore red`` / ``Ignore none``; ``defensive``: the car.
    ``bid``/``play``: the card (``red 4, blue 2``); ``wild``/``bet``: the car; ``move``: where
    the car would end (``row 9, lane 2`` or ``the finish``, plus ``dead end`` when it would stop
    short of its speed there).
    """
    if kind in ("bid", "play"):
        card = next((c for c in view.get("hand", []) if c["id"] == option), None)
        text = card["text"] if card else str(option)
        if kind == "bid" and card and view.get("auction"):
            colour = view["auction"]["colour"]
            value = next((n for c, n in card["lines"] if c == colour), 0)
            return f"bid {value}: {text}"
        return text
    if kind == "keep":
        return f"{TITLES.get(option, option)}: {SUMMARY.get(option, '')}"
    if kind == "power":
        choice = view.get("choice") or {}
        power = TITLES.get(choice.get("power"), "the power")
        if option == "yes":
            return f"Use {power}" + (f" ({choice['car']} car)" if choice.get("car") else "")
        return "No, thanks"
    if kind == "ignore":
        return "Ignore none" if option == "none" else f"Ignore {option}"
    if kind in ("wild", "bet", "defensive"):
        return f"{option} car"
    if kind == "move":
        if option == FINISH:
            return "the finish"
        space = next((s for s in view["track"]["spaces"] if s["id"] == option), None)
        if space is None:
            return str(option)
        label = f"row {space['row']}, lane {space['lane'] + 1}"
        choice = view.get("choice") or {}
        path = (choice.get("paths") or {}).get(option)
        if path is not None and len(path) < choice.get("speed", 0):
            label += " (dead end)"
        return label
    return str(option)


def narrate(event: Event | dict[str, JSON]) -> str:
    """A one-line description of ``event`` (an ``Event`` or its ``to_json()`` form)."""
    if isinstance(event, Event):
        kind, data = event.kind, event.data
    else:
        kind, data = event["kind"], event["data"]
    handler = _HANDLERS.get(kind)
    return handler(data) if handler else f"{kind}."


def _grid(d: dict[str, JSON]) -> str:
    cars = ", ".join(f"{i + 1}. {c}" for i, c in enumerate(d["order"]))
    return f"The grid, pole first: {cars}."


def _auction_open(d: dict[str, JSON]) -> str:
    who = "everyone" if d.get("everyone") else ", ".join(seat_name(s) for s in d["eligible"])
    power = f" with the {TITLES[d['power']]} power" if d.get("power") else ""
    return (
        f"Auction {d['number']} of 6: the {d['colour']} car{power} (grid slot {d['grid_slot']}); "
        f"bidding: {who}."
    )


def _power_used(d: dict[str, JSON]) -> str:
    power = d["power"]
    who = seat_name(d["seat"])
    car = d.get("car")
    if power == "tricky":
        return f"{who} plays Tricky: the card moves bottom line first."
    if power == "strategic":
        return f"{who} plays Strategic: the {car} line is ignored."
    if power == "daring":
        return f"Daring: the {car} car goes on to make 3 spaces."
    if power == "defensive":
        return f"Defensive: none of {who}'s cars moved, so the {car} car moves 3."
    if power == "experienced":
        return f"{who} plays Experienced: the {car} car takes the space just left ahead of it."
    return f"{who} plays {TITLES[power]}: the {car} car moves {EXTRA.get(power, 0)} more."


def _animal_moved(d: dict[str, JSON]) -> str:
    if d["to"] is None:
        return f"The {d['kind']} leaves the track."
    return f"A car passed the {d['kind']}: it wanders on to row {d['row']}."


def _powers_kept(d: dict[str, JSON]) -> str:
    kept = ", ".join(f"{seat_name(int(s))} {TITLES[p]}" for s, p in d["powers"].items())
    return f"Powers kept: {kept}." if kept else "Nobody holds a power."


def _auction_won(d: dict[str, JSON]) -> str:
    bids = ", ".join(f"{seat_name(int(s))} {v}" for s, v in d["bids"].items())
    text = f"{seat_name(d['seat'])} wins the {d['colour']} car for {_money(d['price'])}"
    if bids:
        text += f" (bids: {bids})"
    if not d["bids"]:
        text += " (the only seat still without a car)"
    elif d["drawn"]:
        text += "; a tie, settled by a draw"
    elif d["tie"]:
        text += "; a tie, won by the seat with fewer cars"
    return text + f" and takes the {d['colour']} Speed-8 card."


def _where(move: dict[str, JSON]) -> str:
    car = move["car"]
    if move["to"] == FINISH:
        return f"{car} finishes {ORDINALS[move['place'] - 1]}"
    if move["steps"] == 0:
        return f"{car} is blocked"
    row = move["row"]
    short = " (dead end)" if move["steps"] < move["speed"] else ""
    return f"{car} moves {move['steps']} to row {row}{short}"


def _card_resolved(d: dict[str, JSON]) -> str:
    wilds = set(d.get("wilds", []))
    text = ", ".join(
        f"wild {n} ({c or 'unused'})" if i in wilds else f"{c} {n}" for i, (c, n) in enumerate(d["lines"])
    )
    head = f"{seat_name(d['seat'])} plays {text}"
    parts = [_where(m) for m in d["moves"]]
    body = ", ".join(parts) if parts else "no car can use it"
    tail = ""
    if d["first_lines"]:
        rows = " and ".join(str(r) for r in d["first_lines"])
        tail = (
            f"; yellow line{'s' if len(d['first_lines']) > 1 else ''} at row {rows} crossed: place your bets"
        )
    return f"{head}: {body}{tail}."


def _card_played(d: dict[str, JSON]) -> str:
    return f"{seat_name(d['seat'])} plays card {d['number']}: {d['text']}."


def _game_over(d: dict[str, JSON]) -> str:
    parts = [
        f"{seat_name(s['seat'])} {_money(s['money'])} (prizes {s['prizes']}, bets {s['bet_winnings']}, "
        f"spent {s['spent']})"
        for s in sorted(d["scores"], key=lambda s: (s["place"], s["seat"]))
    ]
    who = " and ".join(seat_name(w) for w in d["winners"])
    verb = "win" if len(d["winners"]) > 1 else "wins"
    return f"Game over: {who} {verb}. " + "; ".join(parts) + "."


def _bets_revealed(d: dict[str, JSON]) -> str:
    parts = []
    for seat, bets in enumerate(d["bets"]):
        if bets:
            parts.append(f"{seat_name(seat)}: " + ", ".join(b["car"] for b in bets))
    return "Bets revealed: " + ("; ".join(parts) if parts else "nobody bet") + "."


def _race_over(d: dict[str, JSON]) -> str:
    how = "every car has finished" if d["ended_by"] == "finish" else "the cards ran out"
    order = ", ".join(f"{i + 1}. {c}" for i, c in enumerate(d["order"]))
    return f"The race is over ({how}): {order}."


_HANDLERS = {
    "grid": _grid,
    "dealt": lambda d: f"{seat_name(d['seat'])} is dealt {len(d['cards'])} cards.",
    "auction_order": lambda d: "The cars go up for auction in this order: " + ", ".join(d["order"]) + ".",
    "auction_open": _auction_open,
    "bid_placed": lambda d: f"{seat_name(d['seat'])} has bid on the {d['colour']} car.",
    "bid_card": lambda d: (
        f"{seat_name(d['seat'])} bids {d['value']} on the {d['colour']} car (card {d['card']})."
    ),
    "auction_won": _auction_won,
    "race_start": lambda d: (
        f"The race starts: the {d['pole']} car is on pole, so {seat_name(d['first'])} plays first."
    ),
    "card_played": _card_played,
    "wild_named": lambda d: f"The wild line becomes {d['colour']}.",
    "car_moved": lambda d: _where(d).capitalize() + ".",
    "card_resolved": _card_resolved,
    "turn": lambda d: f"{seat_name(d['seat'])} to play.",
    "bets_open": lambda d: (
        f"The first car crossed the yellow line at row {d['line']}: everyone bets in secret."
    ),
    "bet_placed": lambda d: f"{seat_name(d['seat'])} has placed a secret {ORDINALS[d['index']]} bet.",
    "bet_secret": lambda d: f"Your {ORDINALS[d['index']]} bet: {d['car']} (now in position {d['position']}).",
    "race_over": _race_over,
    "keep_open": lambda d: (
        "Players with several powers now keep one in secret: "
        + ", ".join(seat_name(s) for s in d["seats"])
        + "."
    ),
    "power_kept_secret": lambda d: f"You keep {TITLES[d['power']]}: {SUMMARY[d['power']]}.",
    "powers_kept": _powers_kept,
    "power_used": _power_used,
    "animal_moved": _animal_moved,
    "bets_revealed": _bets_revealed,
    "game_over": _game_over,
}
