"""One line of table talk per event, e.g. ``Gobbler +3: Gobbler runs from 4 to 7 and knocks over Mum.``

Pure functions of an event's kind and data; private events are narrated for their owner.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set as AbstractSet

from bot.games.base import JSON, Event
from bot.i18n import DEFAULT, N_, _, _n, _p, current
from bot.i18n.formatting import money, ordinal

# Why a mascot is out, as the engine records it; said in the reader's language.
CAUSES = {
    "knocked out": N_("knocked out"),
    "ran off the back": N_("ran off the back"),
    "swerved off the track": N_("swerved off the track"),
    "behind the bar": N_("behind the bar"),
}


def _name(mascot: str | None) -> str:
    return mascot.capitalize() if mascot else "?"


@functools.cache
def _females() -> frozenset[str]:
    from bot.games.hotstreak.content import default_content

    return frozenset(k for k, m in default_content().mascots.items() if m.get("gender") == "female")


def is_female(mascot: str | None) -> bool:
    """A mascot a message must speak of in the feminine where its language has genders (Mum, a queen:
    "Mum é desclassificada"); ``assets/hotstreak/mascots.json`` gives each mascot's gender."""
    return mascot in _females()


def podium_places(slots: list[str | None], places: dict[str, int | None]) -> list[tuple[int, list[str]]]:
    """The podium as players are told it: each place a mascot is paid as, with the mascots holding it,
    in podium order.

    Ruling (rules: "if 2 mascots are disqualified at the same time, put them between the 2 lowest
    spaces on the podium; anyone who bets on them gets the lower of the 2 payouts"): a mascot's place
    is the place it is paid as. Mascots put out together share the worst of their places, so the
    place above it stays empty: ``1st Gobbler, 3rd Dangle and Mum, 4th Hurley``. Narration, results,
    payout lines and the picture all tell this same fact.
    """
    groups: list[tuple[int, list[str]]] = []
    for mascot in slots:
        place = places.get(mascot) if mascot else None
        if mascot is None or place is None:
            continue
        if groups and groups[-1][0] == place:
            groups[-1][1].append(mascot)
        else:
            groups.append((place, [mascot]))
    return groups


def out_words(who: list[str]) -> str:
    """The mark after disqualified mascots wherever their place is told (the results, the alt text):
    put out together and sharing one place, or one alone, in its gender."""
    if len(who) > 1:
        return _("(disqualified together)")
    return _p("female mascot", "(disqualified)") if is_female(who[0]) else _("(disqualified)")


def names_and(names: list[str]) -> str:
    """``Dangle``, ``Dangle and Mum``, ``Dangle, Mum and Hurley``."""
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def card_name(card: str, names: dict[str, str] | None = None) -> str:
    """A card as players call it: ``Gobbler +3``, ``All +2``, ``Mum swerve left 2``, ``Dangle star``.
    The notation (``mum swerve-left 2``) is the engine's; these words are the reader's language."""
    words = card.split()
    if len(words) < 2:
        return card
    who, what, rest = words[0], words[1], words[2:]
    if who == "all":
        return _("All {n}", n=what)
    name = (names or {}).get(who) or _name(who)
    size = rest[0] if rest else ""
    if what.startswith(("+", "-")):
        return f"{name} {what}"
    if what == "star":
        return _("{name} star", name=name)
    if what == "fall":
        return _("{name} fall", name=name)
    if what == "turn":
        return _("{name} turn", name=name)
    if what == "recover":
        return _("{name} recover {n}", name=name, n=size)
    if what == "swerve-left":
        return _("{name} swerve left {n}", name=name, n=size)
    if what == "swerve-right":
        return _("{name} swerve right {n}", name=name, n=size)
    return " ".join([name, *words[1:]])


def _cards(cards: list[str]) -> str:
    return ", ".join(card_name(c) for c in cards)


def side_bet_text(side: dict[str, JSON]) -> str:
    """The side bet's statement in the reader's language.

    Ruling: in English it is the edition's own text (``side_bets.json``); in another language it is
    said from its condition, one translated sentence per kind of condition, so a retuned or new
    side-bet card is translated without touching the catalogs. A condition the code does not know
    falls back to the file's text."""
    text = str(side.get("text") or "")
    if current() == DEFAULT:
        return text
    c = side.get("condition")
    if not isinstance(c, dict):  # a race's result names its side bet by id only
        from bot.games.hotstreak.content import default_content

        card = next((b for b in default_content().side_bets if b["id"] == side.get("id")), {})
        c = card.get("condition")
    if not isinstance(c, dict):
        return text
    kind, n = c.get("type"), c.get("n")
    mascot, other = _name(c.get("mascot")), _name(c.get("other"))
    if kind == "mascot_out":
        if is_female(c.get("mascot")):
            return _p("female mascot", "{mascot} is disqualified.", mascot=mascot)
        return _("{mascot} is disqualified.", mascot=mascot)
    if kind == "mascot_wins":
        return _("{mascot} wins the race.", mascot=mascot)
    if kind == "mascot_ahead":
        return _("{mascot} places ahead of {other}.", mascot=mascot, other=other)
    if kind == "finishers_at_least" and isinstance(n, int):
        return _n(
            "At least {n} mascot crosses the finish line.", "At least {n} mascots cross the finish line.", n
        )
    if kind == "outs_at_least" and isinstance(n, int):
        return _n("{n} or more mascot is disqualified.", "{n} or more mascots are disqualified.", n)
    if kind == "bar_folds":
        return _("The yellow bar folds at least once.")
    if kind == "knockouts_at_least" and isinstance(n, int):
        return _n(
            "A fallen mascot falls again and is knocked out.",
            "Fallen mascots fall again and are knocked out at least {n} times.",
            n,
        )
    if kind == "knock_overs_at_least" and isinstance(n, int):
        return _n(
            "A mascot is knocked over by another one.",
            "Mascots are knocked over by another one at least {n} times.",
            n,
        )
    if kind == "swerve_off":
        return _("A mascot swerves off the track.")
    if kind == "run_off_back":
        return _("A mascot runs off the back of the track.")
    if kind == "flips_at_most" and isinstance(n, int):
        return _n(
            "The race is decided within {n} flipped card.", "The race is decided within {n} flipped cards.", n
        )
    return text


def risk_word(risk: str, side: bool = False) -> str:
    """``safe`` / ``risky``; ``side``: of a side bet, which some languages say with another gender
    (a ticket is "bilhete seguro", a side bet "aposta paralela segura")."""
    if side:
        return _p("risk of a side bet", "risky") if risk == "risky" else _p("risk of a side bet", "safe")
    return _p("risk", "risky") if risk == "risky" else _p("risk", "safe")


def answer_word(answer: str) -> str:
    """``YES`` / ``NO``: the two answers of a side bet."""
    return _p("side bet", "YES") if answer == "yes" else _p("side bet", "NO")


def bet_label(
    bet: dict[str, JSON], names: dict[str, str] | None = None, side: str | None = None, *, the: bool = False
) -> str:
    """A bet as players read it (``Gobbler ticket 1 (risky)``), from its fields rather than the
    engine's English ``label``, so it reads in the reader's language. ``side``: the side bet's text.
    ``the``: with its article, for a sentence ("took the Gobbler ticket 1": "pegou o bilhete 1 de
    Gobbler", the article agreeing with a ticket or a side bet)."""
    number = bet.get("number")
    risk = risk_word(str(bet.get("risk")), side=bet.get("kind") != "ticket")
    if bet.get("kind") == "ticket":
        mascot = str(bet.get("mascot"))
        name = (names or {}).get(mascot) or _name(mascot)
        if number is None:
            if the:
                return _("the {mascot} ticket ({risk})", mascot=name, risk=risk)
            return _("{mascot} ticket ({risk})", mascot=name, risk=risk)
        if the:
            return _("the {mascot} ticket {number} ({risk})", mascot=name, number=number, risk=risk)
        return _("{mascot} ticket {number} ({risk})", mascot=name, number=number, risk=risk)
    answer = answer_word(str(bet.get("answer")))
    if number is None:
        label = (
            _("the side bet {answer} ({risk})", answer=answer, risk=risk)
            if the
            else _("Side bet {answer} ({risk})", answer=answer, risk=risk)
        )
    elif the:
        label = _("the side bet {answer} {number} ({risk})", answer=answer, number=number, risk=risk)
    else:
        label = _("Side bet {answer} {number} ({risk})", answer=answer, number=number, risk=risk)
    return f"{label}: {side}" if side else label


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
    return _(
        "Race {race}: face up {cards}. Side bet: {side} Seat {seat} bets first.",
        race=d["race"],
        cards=_cards(d["face_up"]),
        side=side_bet_text(d["side_bet"]),
        seat=d["first_better"] + 1,
    )


def _bet_taken(d: dict[str, JSON]) -> str:
    values = d["values"]
    if d["kind"] == "ticket":
        pays = _("pays {first}/{second}/{third}", first=values[0], second=values[1], third=values[2])
    else:
        pays = _("pays {win} if right, {loss} if wrong", win=money(values[0]), loss=money(values[1]))
    return _("Seat {seat} takes {bet} ({pays}).", seat=d["seat"] + 1, bet=bet_label(d, the=True), pays=pays)


def _steps(
    steps: list[dict[str, JSON]],
    finished: AbstractSet[str] = frozenset(),
    ran_off: AbstractSet[str] = frozenset(),
) -> list[str]:
    """The moves of one card. A move that ends beyond either end of the track says so in words
    ("runs off the back of the track and is out", "runs from 7 across the finish line") rather than
    naming a space that does not exist, and a green move that cannot go on is "stays at the line"."""
    parts: list[str] = []
    for st in steps:
        t = st["type"]
        who = _name(st.get("mascot"))
        if t == "move":
            crawls = bool(st["crawling"])
            start, end = st["from"][1], st["to"][1]
            if st.get("mascot") in ran_off and st["toward"] == "back" and end < start:
                line = (
                    _("{who} crawls off the back of the track and is out", who=who)
                    if crawls
                    else _("{who} runs off the back of the track and is out", who=who)
                )
            elif st.get("mascot") in finished and st["toward"] == "finish":
                line = (
                    _("{who} crawls from {start} across the finish line", who=who, start=start)
                    if crawls
                    else _("{who} runs from {start} across the finish line", who=who, start=start)
                )
            elif st.get("stopped_at_line") and end == start:
                line = _(
                    "{who} stays at {start}, on the finish line (a green card never crosses it)",
                    who=who,
                    start=start,
                )
            elif st.get("stopped_at_line"):
                line = (
                    _(
                        "{who} crawls from {start} to {end} and stops at the finish line",
                        who=who,
                        start=start,
                        end=end,
                    )
                    if crawls
                    else _(
                        "{who} runs from {start} to {end} and stops at the finish line",
                        who=who,
                        start=start,
                        end=end,
                    )
                )
            else:
                line = (
                    _("{who} crawls from {start} to {end}", who=who, start=start, end=end)
                    if crawls
                    else _("{who} runs from {start} to {end}", who=who, start=start, end=end)
                )
            parts.append(line)
        elif t == "swerve":
            lane = st["to"][0] + 1  # lanes are shown 1 to 4
            parts.append(
                _("swerves left into lane {lane}", lane=lane)
                if st["side"] == "left"
                else _("swerves right into lane {lane}", lane=lane)
            )
        elif t == "knock_over":
            parts.append(
                _("knocks out {who}", who=who) if st["result"] == "out" else _("knocks over {who}", who=who)
            )
        elif t == "fall":
            if st["result"] != "out":
                parts.append(_("{who} falls down", who=who))
            elif is_female(st.get("mascot")):
                parts.append(_p("female mascot", "{who} falls again and is knocked out", who=who))
            else:
                parts.append(_("{who} falls again and is knocked out", who=who))
        elif t == "turn":
            parts.append(
                _("{who} turns to face the finish", who=who)
                if st["facing"] == "forward"
                else _("{who} turns to face the start", who=who)
            )
        elif t == "recover":
            parts.append(
                _p("female mascot", "{who} gets back up facing the finish", who=who)
                if is_female(st.get("mascot"))
                else _("{who} gets back up facing the finish", who=who)
            )
        elif t == "no_effect":
            parts.append(
                _("{who} has no star ahead, nothing happens", who=who)
                if st["reason"] == "no star ahead"
                else _("{who} is no longer racing, nothing happens", who=who)
            )
        elif t == "bar_fold":
            parts.append(_("the yellow bar folds from {start} to {end}", start=st["from"], end=st["to"]))
    return parts


def cause_words(cause: str) -> str:
    return _(CAUSES[cause]) if cause in CAUSES else cause


def _outcome(d: dict[str, JSON], told: AbstractSet[str] = frozenset()) -> list[str]:
    """Finishers, outs and places; ``told`` are mascots whose move already said they crossed or ran off."""
    parts = [_("{who} crosses the finish", who=_name(m)) for m in d["finished"] if m not in told]
    parts += [
        _("{who} is out ({cause})", who=_name(o["mascot"]), cause=cause_words(o["cause"]))
        for o in d["outs"]
        if o["cause"] != "knocked out" and not (o["cause"] == "ran off the back" and o["mascot"] in told)
    ]
    shared: dict[int, list[str]] = {}
    for p in d["places"]:
        shared.setdefault(p["place"], []).append(_name(p["mascot"]))
    for place, who in shared.items():
        if len(who) > 1:  # put out together: one place for all of them (see podium_places)
            parts.append(_("{who} share {place}", who=names_and(who), place=ordinal(place)))
        else:
            parts.append(_("{who} takes {place}", who=who[0], place=ordinal(place)))
    return parts


def _card_flipped(d: dict[str, JSON]) -> str:
    finished = set(d["finished"])
    ran_off = {o["mascot"] for o in d["outs"] if o["cause"] == "ran off the back"}
    parts = _steps(d["steps"], finished, ran_off) + _outcome(d, finished | ran_off)
    what = ", ".join(parts) if parts else _("nothing happens")
    if d["ended"]:
        return _("{card}: {what}. The race is over.", card=card_name(d["card"]), what=what)
    return _("{card}: {what}.", card=card_name(d["card"]), what=what)


def _bar_folded(d: dict[str, JSON]) -> str:
    parts = [
        _(
            "The deck runs dry: the yellow bar folds from {start} to {end}",
            start=d["bar_from"],
            end=d["bar_to"],
        )
    ] + _outcome(d)
    return ", ".join(parts) + "."


def _race_over(d: dict[str, JSON]) -> str:
    podium = ", ".join(
        f"{ordinal(place)} {names_and([_name(m) for m in who])}"
        for place, who in podium_places(d["podium"], d.get("places") or {})
    )
    side = d["side_bet"]
    return _(
        "Race {race} is over: {podium}. Side bet ({side}): {answer}.",
        race=d["race"],
        podium=podium,
        side=side_bet_text(side),
        answer=_("yes") if side["happened"] else _("no"),
    )


def _payouts(d: dict[str, JSON]) -> str:
    parts = []
    for p in d["seats"]:
        values = {"seat": p["seat"] + 1, "change": money(p["change"]), "cash": money(p["cash_after"])}
        parts.append(
            _("seat {seat} {change} -> {cash} (paid what they had)", **values)
            if p["capped"]
            else _("seat {seat} {change} -> {cash}", **values)
        )
    return _("Payouts for race {race}: {seats}.", race=d["race"], seats="; ".join(parts))


def _game_over(d: dict[str, JSON]) -> str:
    winners = d["winners"]
    cash = money(d["standings"][0]["cash"] if d["standings"] else 0)
    who = _(" and ").join(_("seat {seat}", seat=w + 1) for w in winners)
    if len(winners) > 1:
        return _("Game over: {who} win with {cash}.", who=who, cash=cash)
    return _("Game over: {who} wins with {cash}.", who=who, cash=cash)


def _phase(d: dict[str, JSON]) -> str:
    phase = d["phase"]
    if phase == "submit":
        return _("Bets are in: everyone secretly submits race cards.")
    if phase == "double":
        return _("Race 3: everyone picks one bet to pay double.")
    if phase == "race":
        return _("Race {race} is on! {cards} cards in the deck.", race=d["race"], cards=d.get("cards", "?"))
    if phase == "draft":
        return _("Race {race}: place your bets.", race=d["race"])
    return _("Phase: {phase}.", phase=phase)


_HANDLERS = {
    "race_setup": _race_setup,
    "dealt": lambda d: _("Seat {seat} is dealt {cards}.", seat=d["seat"] + 1, cards=_cards(d["cards"])),
    "bet_taken": _bet_taken,
    "phase": _phase,
    "submitted": lambda d: _("Seat {seat} has submitted.", seat=d["seat"] + 1),
    "submission": lambda d: _("Seat {seat} submits {cards}.", seat=d["seat"] + 1, cards=_cards(d["cards"])),
    "doubled": lambda d: _("Seat {seat} doubles {bet}.", seat=d["seat"] + 1, bet=d["label"]),
    "burned": lambda d: _n("{n} card is burned face down.", "{n} cards are burned face down.", d["count"]),
    "reshuffled": lambda d: _n(
        "The race cards are reshuffled into a new deck of {n}.",
        "The race cards are reshuffled into a new deck of {n}.",
        d["cards"],
    ),
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


def stake_words(label: str) -> str:
    """A stake as the game stored it with its results (``Gobbler, risky``, ``Side bet yes, safe``: English,
    kept so old results read the same), in the reader's language for ``/stats``; anything else as it is."""
    found = re.fullmatch(r"Side bet (yes|no), (safe|risky)", label)
    if found:
        return _(
            "Side bet {answer}, {risk}", answer=answer_word(found[1]), risk=risk_word(found[2], side=True)
        )
    found = re.fullmatch(r"(.+), (safe|risky)", label)
    if found:
        return _("{mascot}, {risk}", mascot=found[1], risk=risk_word(found[2]))
    return label
