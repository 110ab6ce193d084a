"""One line of table talk per event, e.g. ``Gobbler +3: Gobbler runs from 4 to 7 and knocks over Mum.``

Pure functions of an event's kind and data; private events are narrated for their owner.
"""

from __future__ import annotations

from bot.games.base import JSON, Event

_PLACE = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def _name(mascot: str | None) -> str:
    return mascot.capitalize() if mascot else "?"


def _money(value: int) -> str:
    return f"-${-value}" if value < 0 else f"${value}"


def _card_title(card: str) -> str:
    words = card.split()
    return " ".join([_name(words[0]), *words[1:]]) if words and words[0] != "all" else card.capitalize()


# Seats are shown counting from 1 ("Seat 1" is seat 0), as players count them.
def narrate(event: Event | dict[str, JSON]) -> str:
    """A one-line description of ``event`` (an ``Event`` or its ``to_json()`` form)."""
    if isinstance(event, Event):
        kind, data = event.kind, event.data
    else:
        kind, data = event["kind"], event["data"]
    handler = _HANDLERS.get(kind)
    return handler(data) if handler else f"{kind}."


def _race_setup(d: dict[str, JSON]) -> str:
    return (
        f"Race {d['race']}: face up {', '.join(d['face_up'])}. Side bet: {d['side_bet']['text']} "
        f"Seat {d['first_better'] + 1} bets first."
    )


def _bet_taken(d: dict[str, JSON]) -> str:
    values = d["values"]
    if d["kind"] == "ticket":
        pays = f"pays {values[0]}/{values[1]}/{values[2]}"
    else:
        pays = f"pays {_money(values[0])} if right, {_money(values[1])} if wrong"
    return f"Seat {d['seat'] + 1} takes {d['label']} ({pays})."


def _steps(
    steps: list[dict[str, JSON]], finished: set[str] = frozenset(), ran_off: set[str] = frozenset()
) -> list[str]:
    """The moves of one card. A move that ends beyond either end of the track says so in words
    ("runs off the back of the track and is out", "runs from 7 across the finish line") rather than
    naming a space that does not exist, and a green move that cannot go on is "stays at the line"."""
    parts: list[str] = []
    for st in steps:
        t = st["type"]
        who = _name(st.get("mascot"))
        if t == "move":
            verb = "crawls" if st["crawling"] else "runs"
            start, end = st["from"][1], st["to"][1]
            if st.get("mascot") in ran_off and st["toward"] == "back" and end < start:
                line = f"{who} {verb} off the back of the track and is out"
            elif st.get("mascot") in finished and st["toward"] == "finish":
                line = f"{who} {verb} from {start} across the finish line"
            elif st.get("stopped_at_line") and end == start:
                line = f"{who} stays at {start}, on the finish line (a green card never crosses it)"
            elif st.get("stopped_at_line"):
                line = f"{who} {verb} from {start} to {end} and stops at the finish line"
            else:
                line = f"{who} {verb} from {start} to {end}"
            parts.append(line)
        elif t == "swerve":
            parts.append(f"swerves {st['side']} into lane {st['to'][0] + 1}")  # lanes are shown 1 to 4
        elif t == "knock_over":
            parts.append(f"knocks out {who}" if st["result"] == "out" else f"knocks over {who}")
        elif t == "fall":
            parts.append(
                f"{who} falls again and is knocked out" if st["result"] == "out" else f"{who} falls down"
            )
        elif t == "turn":
            parts.append(f"{who} turns to face {'the finish' if st['facing'] == 'forward' else 'the start'}")
        elif t == "recover":
            parts.append(f"{who} gets back up facing the finish")
        elif t == "no_effect":
            reason = "has no star ahead" if st["reason"] == "no star ahead" else "is no longer racing"
            parts.append(f"{who} {reason}, nothing happens")
        elif t == "bar_fold":
            parts.append(f"the yellow bar folds from {st['from']} to {st['to']}")
    return parts


def _outcome(d: dict[str, JSON], told: set[str] = frozenset()) -> list[str]:
    """Finishers, outs and places; ``told`` are mascots whose move already said they crossed or ran off."""
    parts = [f"{_name(m)} crosses the finish" for m in d["finished"] if m not in told]
    parts += [
        f"{_name(o['mascot'])} is out ({o['cause']})"
        for o in d["outs"]
        if o["cause"] != "knocked out" and not (o["cause"] == "ran off the back" and o["mascot"] in told)
    ]
    for p in d["places"]:
        parts.append(f"{_name(p['mascot'])} takes {_PLACE.get(p['place'], p['place'])}")
    return parts


def _card_flipped(d: dict[str, JSON]) -> str:
    finished = set(d["finished"])
    ran_off = {o["mascot"] for o in d["outs"] if o["cause"] == "ran off the back"}
    parts = _steps(d["steps"], finished, ran_off) + _outcome(d, finished | ran_off)
    text = f"{_card_title(d['card'])}: " + (", ".join(parts) if parts else "nothing happens")
    return text + (". The race is over." if d["ended"] else ".")


def _bar_folded(d: dict[str, JSON]) -> str:
    parts = [f"The deck runs dry: the yellow bar folds from {d['bar_from']} to {d['bar_to']}"] + _outcome(d)
    return ", ".join(parts) + "."


def _race_over(d: dict[str, JSON]) -> str:
    podium = ", ".join(f"{i + 1}. {_name(m)}" for i, m in enumerate(d["podium"]))
    side = d["side_bet"]
    return f"Race {d['race']} is over: {podium}. Side bet ({side['text']}): {'yes' if side['happened'] else 'no'}."


def _payouts(d: dict[str, JSON]) -> str:
    parts = []
    for p in d["seats"]:
        capped = " (paid what they had)" if p["capped"] else ""
        parts.append(f"seat {p['seat'] + 1} {_money(p['change'])} -> ${p['cash_after']}{capped}")
    return f"Payouts for race {d['race']}: " + "; ".join(parts) + "."


def _game_over(d: dict[str, JSON]) -> str:
    winners = d["winners"]
    cash = d["standings"][0]["cash"] if d["standings"] else 0
    who = " and ".join(f"seat {w + 1}" for w in winners)
    return f"Game over: {who} {'win' if len(winners) > 1 else 'wins'} with ${cash}."


_HANDLERS = {
    "race_setup": _race_setup,
    "dealt": lambda d: f"Seat {d['seat'] + 1} is dealt {', '.join(d['cards'])}.",
    "bet_taken": _bet_taken,
    "phase": lambda d: {
        "submit": "Bets are in: everyone secretly submits race cards.",
        "double": "Race 3: everyone picks one bet to pay double.",
        "race": f"Race {d['race']} is on! {d.get('cards', '?')} cards in the deck.",
        "draft": f"Race {d['race']}: place your bets.",
    }.get(d["phase"], f"Phase: {d['phase']}."),
    "submitted": lambda d: f"Seat {d['seat'] + 1} has submitted.",
    "submission": lambda d: f"Seat {d['seat'] + 1} submits {', '.join(d['cards'])}.",
    "doubled": lambda d: f"Seat {d['seat'] + 1} doubles {d['label']}.",
    "burned": lambda d: f"{d['count']} cards are burned face down.",
    "reshuffled": lambda d: f"The race cards are reshuffled into a new deck of {d['cards']}.",
    "card_flipped": _card_flipped,
    "bar_folded": _bar_folded,
    "race_over": _race_over,
    "payouts": _payouts,
    "game_over": _game_over,
}


def changes_track(event: Event | dict[str, JSON]) -> bool:
    """Whether a ``card_flipped`` / ``bar_folded`` event changed anything a picture shows.

    A card naming a mascot that has finished or is out, or a star with no star ahead, changes
    nothing: the host gives it a line of narration instead of a new picture.
    """
    kind, data = (event.kind, event.data) if isinstance(event, Event) else (event["kind"], event["data"])
    if kind == "bar_folded":
        return True
    if kind != "card_flipped":
        return False
    return any(step["type"] != "no_effect" for step in data["steps"]) or bool(data["places"])
