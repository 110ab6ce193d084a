"""One line of table talk per event, e.g.
``Seat 2 plays red 4, blue 2, wild 3 (green): red moves 4 to row 9, blue is blocked, green finishes 1st.``

Pure functions of an event's kind and data, in the reader's language (``bot.i18n``: the caller
chooses it); private events (a dealt hand, a bid card, a secret bet) are narrated for their owner
only, so the host must check ``visible_to`` as for any event. Seats are shown counting from 1, as
players count them (``Seat 2`` is seat 1), unless the host passes the players' names (``narrate``'s
``names``), which are then written as given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot.games.base import JSON, Event
from bot.games.downforce.cards import WILD, parse_card
from bot.games.downforce.powers import POWERS, summary, title
from bot.games.downforce.track import FINISH
from bot.i18n import N_, _, _n, _p
from bot.i18n.formatting import money, ordinal

Namer = Callable[[int], str]
"""How a narration writes a seat: ``seat_name`` with or without the host's names."""


def seat_name(seat: int, names: Sequence[str] | None = None) -> str:
    """``names[seat]`` when the host gives the names (as it wants them written), else ``Seat 2``."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return _("Seat {number}", number=seat + 1)


def colour_name(colour: str | None) -> str:
    """A car's colour (or ``wild``) as the reader says it; car colours are masculine in Portuguese,
    like ``carro``."""
    names = {
        "black": _p("car colour", "black"),
        "blue": _p("car colour", "blue"),
        "green": _p("car colour", "green"),
        "yellow": _p("car colour", "yellow"),
        "orange": _p("car colour", "orange"),
        "red": _p("car colour", "red"),
        WILD: _p("card line", "wild"),
    }
    return names.get(colour or "", str(colour))


def card_text(lines: Sequence[Sequence[JSON]]) -> str:
    """A card in words: ``red 4, blue 2, wild 3``."""
    return ", ".join(_("{colour} {speed}", colour=colour_name(str(c)), speed=n) for c, n in lines)


def millions(value: int) -> str:
    """Downforce money (millions): ``$12M`` (``$ 12 mi`` in Portuguese); nothing is ``$0`` (not ``$0M``)."""
    return _("{amount}M", amount=money(value)) if value else money(0)


def signed_millions(value: int) -> str:
    """A gain or a loss in Downforce money: ``+$5M``, ``-$5M``, ``$0`` (for boards and records)."""
    return f"+{millions(value)}" if value > 0 else millions(value)


def bet_name(index: int) -> str:
    """``1st bet`` for bet ``index`` 0 (``1ª aposta``: the ordinal agrees with the noun)."""
    names = (N_("1st bet"), N_("2nd bet"), N_("3rd bet"))
    return _(names[index]) if 0 <= index < len(names) else _("bet {number}", number=index + 1)


def both(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}", first=", ".join(names[:-1]), last=names[-1])


def option_label(view: dict[str, JSON], kind: str, option: JSON) -> str:
    """How a decision's option reads on a button or in a menu (``view`` is the deciding seat's).

    ``keep``: the power and what it does; ``power``: ``Use Aggressive (red car)`` / ``No, thanks``;
    ``ignore``: ``Ignore red`` / ``Ignore none``; ``defensive``: the car.
    ``bid``/``play``: the card (``red 4, blue 2``); ``wild``/``bet``: the car; ``move``: where
    the car would end (``row 9, lane 2`` or ``the finish``, plus ``dead end`` when it would stop
    short of its speed there; when two ways to one end differ for a power, each says so:
    ``row 14, lane 1 (through row 13, lane 2: Reckless)`` / ``(...: no Reckless)``).
    """
    if kind in ("bid", "play"):
        card = next((c for c in view.get("hand", []) if c["id"] == option), None)
        text = card_text(card["lines"]) if card else str(option)
        if kind == "bid" and card and view.get("auction"):
            colour = view["auction"]["colour"]
            value = next((n for c, n in card["lines"] if c == colour), 0)
            return _("bid {value}: {card}", value=value, card=text)
        return text
    if kind == "keep":
        return _("{power}: {does}", power=title(str(option)), does=summary(str(option)))
    if kind == "power":
        choice = view.get("choice") or {}
        power = title(choice["power"]) if choice.get("power") else _("the power")
        if option == "yes":
            if choice.get("car"):
                return _("Use {power} ({colour} car)", power=power, colour=colour_name(choice["car"]))
            return _("Use {power}", power=power)
        return _("No, thanks")
    if kind == "ignore":
        return _("Ignore none") if option == "none" else _("Ignore {colour}", colour=colour_name(str(option)))
    if kind in ("wild", "bet", "defensive"):
        return _("{colour} car", colour=colour_name(str(option)))
    if kind == "move":
        if option == FINISH:
            return _("the finish")
        end = str(option).split("~")[0]  # "14a~12b-13b": another way to 14a (ruling (c))
        space = next((s for s in view["track"]["spaces"] if s["id"] == end), None)
        if space is None:
            return str(option)
        choice = view.get("choice") or {}
        path = (choice.get("paths") or {}).get(option)
        if path is not None and len(path) < choice.get("speed", 0):
            where = _("row {row}, lane {lane} (dead end)", row=space["row"], lane=space["lane"] + 1)
        else:
            where = _("row {row}, lane {lane}", row=space["row"], lane=space["lane"] + 1)
        read = (choice.get("reads") or {}).get(option)
        if read is None:
            return where
        return _way_label(view, choice, str(option), where, read)
    return str(option)


def _way_label(view: dict[str, JSON], choice: dict[str, JSON], option: str, where: str, read: dict) -> str:
    """A move option that is one of two ways to the same end differing for a power (ruling (c)):
    ``row 14, lane 1 (through row 13, lane 2: Reckless)`` or ``(...: no Reckless)``; through: the
    first space of this way that the other way to the same end does not take."""
    power = title(read["power"])
    end = option.split("~")[0]
    paths = choice.get("paths") or {}
    other = next((o for o in paths if o != option and str(o).split("~")[0] == end), None)
    mine, theirs = paths.get(option) or [], paths.get(other) or []
    via = next((p for p in mine[:-1] if p not in theirs), None)
    space = next((s for s in view["track"]["spaces"] if s["id"] == via), None)
    if space is None:
        if read["sets_off"]:
            return _("{where} ({power})", where=where, power=power)
        return _("{where} (no {power})", where=where, power=power)
    through = _("row {row}, lane {lane}", row=space["row"], lane=space["lane"] + 1)
    if read["sets_off"]:
        return _("{where} (through {through}: {power})", where=where, through=through, power=power)
    return _("{where} (through {through}: no {power})", where=where, through=through, power=power)


def narrate(event: Event | dict[str, JSON], names: Sequence[str] | None = None) -> str:
    """A one-line description of ``event`` (an ``Event`` or its ``to_json()`` form); each seat is
    ``names[seat]`` when ``names`` are given (as the host wants them written: the narration adds
    nothing), else ``Seat 2``."""
    if isinstance(event, Event):
        kind, data = event.kind, event.data
    else:
        kind, data = event["kind"], event["data"]
    handler = _HANDLERS.get(kind)
    return handler(data, lambda seat: seat_name(seat, names)) if handler else f"{kind}."


def _grid(d: dict[str, JSON], name: Namer) -> str:
    cars = ", ".join(f"{i + 1}. {colour_name(c)}" for i, c in enumerate(d["order"]))
    return _("The grid, pole first: {cars}.", cars=cars)


def _auction_open(d: dict[str, JSON], name: Namer) -> str:
    colour = colour_name(d["colour"])
    who = _("everyone") if d.get("everyone") else ", ".join(name(s) for s in d["eligible"])
    if d.get("power"):
        return _(
            "Auction {number} of 6: the {colour} car with the {power} power (grid slot {slot}); "
            "bidding: {who}.",
            number=d["number"],
            colour=colour,
            power=title(d["power"]),
            slot=d["grid_slot"],
            who=who,
        )
    return _(
        "Auction {number} of 6: the {colour} car (grid slot {slot}); bidding: {who}.",
        number=d["number"],
        colour=colour,
        slot=d["grid_slot"],
        who=who,
    )


def _power_used(d: dict[str, JSON], name: Namer) -> str:
    """The power's own ``used`` line, else how many spaces its extra move adds."""
    power = POWERS.get(d["power"])
    who = name(d["seat"])
    car = colour_name(d.get("car"))
    if power is not None and power.used is not None:
        return _(power.used, seat=who, power=title(power.name), colour=car)
    return _n(
        "{seat} plays {power}: the {colour} car moves {n} more.",
        "{seat} plays {power}: the {colour} car moves {n} more.",
        power.extra if power is not None else 0,
        seat=who,
        power=title(d["power"]),
        colour=car,
    )


def animal_name(kind: str) -> str:
    return {
        "antelope": _("antelope"),
        "elephant": _("elephant"),
        "python": _("python"),
    }.get(kind, kind)


def _animal_moved(d: dict[str, JSON], name: Namer) -> str:
    if d["to"] is None:
        return _("The {animal} leaves the track.", animal=animal_name(d["kind"]))
    return _(
        "A car passed the {animal}: it wanders on to row {row}.", animal=animal_name(d["kind"]), row=d["row"]
    )


def _powers_kept(d: dict[str, JSON], name: Namer) -> str:
    kept = ", ".join(f"{name(int(s))} {title(p)}" for s, p in d["powers"].items())
    return _("Powers kept: {kept}.", kept=kept) if kept else _("Nobody holds a power.")


def _auction_won(d: dict[str, JSON], name: Namer) -> str:
    bids = ", ".join(f"{name(int(s))} {v}" for s, v in d["bids"].items())
    colour = colour_name(d["colour"])
    text = _(
        "{seat} wins the {colour} car for {price}",
        seat=name(d["seat"]),
        colour=colour,
        price=millions(d["price"]),
    )
    if bids:
        text += _(" (bids: {bids})", bids=bids)
    if not d["bids"]:
        text += _(" (the only seat still without a car)")
    elif d["drawn"]:
        text += _("; a tie, settled by a draw")
    elif d["tie"]:
        text += _("; a tie, won by the seat with fewer cars")
    return text + _(" and takes the {colour} Speed-8 card.", colour=colour)


def _where(move: dict[str, JSON]) -> str:
    car = colour_name(move["car"])
    if move["to"] == FINISH:
        return _("{colour} finishes {place}", colour=car, place=ordinal(move["place"]))
    if move["steps"] == 0:
        return _("{colour} is blocked", colour=car)
    if move["steps"] < move["speed"]:
        return _(
            "{colour} moves {steps} to row {row} (dead end)", colour=car, steps=move["steps"], row=move["row"]
        )
    return _("{colour} moves {steps} to row {row}", colour=car, steps=move["steps"], row=move["row"])


def _card_resolved(d: dict[str, JSON], name: Namer) -> str:
    wilds = set(d.get("wilds", []))
    text = ", ".join(
        _("wild {speed} ({colour})", speed=n, colour=colour_name(c) if c else _("unused"))
        if i in wilds
        else _("{colour} {speed}", colour=colour_name(c), speed=n)
        for i, (c, n) in enumerate(d["lines"])
    )
    parts = [_where(m) for m in d["moves"]]
    body = ", ".join(parts) if parts else _("no car can use it")
    lines = d["first_lines"]
    if lines:
        return _n(
            "{seat} plays {card}: {moves}; yellow line at row {rows} crossed: place your bets.",
            "{seat} plays {card}: {moves}; yellow lines at rows {rows} crossed: place your bets.",
            len(lines),
            seat=name(d["seat"]),
            card=text,
            moves=body,
            rows=both([str(r) for r in lines]),
        )
    return _("{seat} plays {card}: {moves}.", seat=name(d["seat"]), card=text, moves=body)


def _card_played(d: dict[str, JSON], name: Namer) -> str:
    card = card_text(parse_card(d["text"]))
    return _("{seat} plays card {number}: {card}.", seat=name(d["seat"]), number=d["number"], card=card)


def _game_over(d: dict[str, JSON], name: Namer) -> str:
    parts = [
        _(
            "{seat} {money} (prizes {prizes}, bets {bets}, spent {spent})",
            seat=name(s["seat"]),
            money=millions(s["money"]),
            prizes=s["prizes"],
            bets=s["bet_winnings"],
            spent=s["spent"],
        )
        for s in sorted(d["scores"], key=lambda s: (s["place"], s["seat"]))
    ]
    who = both([name(w) for w in d["winners"]])
    return _n(
        "Game over: {who} wins. {scores}.",
        "Game over: {who} win. {scores}.",
        len(d["winners"]),
        who=who,
        scores="; ".join(parts),
    )


def _bets_revealed(d: dict[str, JSON], name: Namer) -> str:
    parts = []
    for seat, bets in enumerate(d["bets"]):
        if bets:
            parts.append(f"{name(seat)}: " + ", ".join(colour_name(b["car"]) for b in bets))
    if not parts:
        return _("Bets revealed: nobody bet.")
    return _("Bets revealed: {bets}.", bets="; ".join(parts))


def _race_over(d: dict[str, JSON], name: Namer) -> str:
    order = ", ".join(f"{i + 1}. {colour_name(c)}" for i, c in enumerate(d["order"]))
    if d["ended_by"] == "finish":
        return _("The race is over (every car has finished): {order}.", order=order)
    return _("The race is over (the cards ran out): {order}.", order=order)


def _dealt(d: dict[str, JSON], name: Namer) -> str:
    count = len(d["cards"])
    return _n("{seat} is dealt {n} card.", "{seat} is dealt {n} cards.", count, seat=name(d["seat"]))


def _auction_order(d: dict[str, JSON], name: Namer) -> str:
    order = ", ".join(colour_name(c) for c in d["order"])
    return _("The cars go up for auction in this order: {order}.", order=order)


_HANDLERS: dict[str, Callable[[dict[str, JSON], Namer], str]] = {
    "grid": _grid,
    "dealt": _dealt,
    "auction_order": _auction_order,
    "auction_open": _auction_open,
    "bid_placed": lambda d, name: _(
        "{seat} has bid on the {colour} car.", seat=name(d["seat"]), colour=colour_name(d["colour"])
    ),
    "bid_card": lambda d, name: _(
        "{seat} bids {value} on the {colour} car (card {card}).",
        seat=name(d["seat"]),
        value=d["value"],
        colour=colour_name(d["colour"]),
        card=d["card"],
    ),
    "auction_won": _auction_won,
    "race_start": lambda d, name: _(
        "The race starts: the {colour} car is on pole, so {seat} plays first.",
        colour=colour_name(d["pole"]),
        seat=name(d["first"]),
    ),
    "card_played": _card_played,
    "wild_named": lambda d, name: _("The wild line becomes {colour}.", colour=colour_name(d["colour"])),
    "car_moved": lambda d, name: _where(d).capitalize() + ".",
    "card_resolved": _card_resolved,
    "turn": lambda d, name: _("{seat} to play.", seat=name(d["seat"])),
    "bets_open": lambda d, name: _(
        "The first car crossed the yellow line at row {row}: everyone bets in secret.", row=d["line"]
    ),
    "bet_placed": lambda d, name: _(
        "{seat} has placed their secret {bet}.", seat=name(d["seat"]), bet=bet_name(d["index"])
    ),
    "bet_secret": lambda d, name: _(
        "Your {bet}: {colour} (now in position {position}).",
        bet=bet_name(d["index"]),
        colour=colour_name(d["car"]),
        position=d["position"],
    ),
    "race_over": _race_over,
    "keep_open": lambda d, name: _(
        "Players with several powers now keep one in secret: {seats}.",
        seats=", ".join(name(s) for s in d["seats"]),
    ),
    "power_kept_secret": lambda d, name: _(
        "You keep {power}: {does}.", power=title(d["power"]), does=summary(d["power"])
    ),
    "powers_kept": _powers_kept,
    "power_used": _power_used,
    "animal_moved": _animal_moved,
    "bets_revealed": _bets_revealed,
    "game_over": _game_over,
}


def stake_words(label: str) -> str:
    """A stake as stored with the results (``1st bet: red``, ``car: red``: English) in the reader's
    language, for ``/stats``; anything else as it is."""
    found = re.fullmatch(r"(\d)(?:st|nd|rd|th) bet: (\w+)", label)
    if found:
        return _("{bet}: {car}", bet=bet_name(int(found[1]) - 1), car=colour_name(found[2]))
    found = re.fullmatch(r"car: (\w+)", label)
    if found:
        return _("car: {car}", car=colour_name(found[1]))
    return label
