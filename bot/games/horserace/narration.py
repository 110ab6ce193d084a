"""One-line narration of the engine's events, for the channel and the game log.

Seats are shown 1-based ("Seat 1" is seat 0) unless the host passes the players' names. Every
sentence is in the current language (``bot.i18n``): the host picks it, the narration only reads it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from bot.games.base import Event
from bot.i18n import _, _n
from bot.i18n.formatting import money

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def seat_name(seat: int | None, names: Sequence[str] | None = None) -> str:
    if seat is None:
        return _("The table")
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return _("Seat {number}", number=seat + 1)


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(DIE_FACES[d - 1] for d in dice) + f" ({sum(dice)})"


def joined(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cid``."""
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def narrate(event: Event, names: Sequence[str] | None = None) -> str:
    """A one-line sentence for ``event``."""
    tell = _TELLERS.get(event.kind)
    if tell is None:
        return event.kind.replace("_", " ")
    return tell(event.data, lambda seat: seat_name(seat, names))


Namer = Callable[[int | None], str]


def _race_setup(d: dict[str, Any], name: Namer) -> str:
    race = (
        _("Race {race} of {races}", race=d["race"], races=d["races"])
        if d.get("races")
        else _("Race {race}", race=d["race"])
    )
    deals = _n(
        "{dealer} deals {n} card", "{dealer} deals {n} cards", int(d["deck"]), dealer=name(d["dealer"])
    )
    if d["carried"]:
        fees = _(
            "entry fees in, {carried} carried over, jackpot {jackpot}.",
            carried=money(d["carried"]),
            jackpot=money(d["jackpot"]),
        )
    else:
        fees = _("entry fees in, jackpot {jackpot}.", jackpot=money(d["jackpot"]))
    return f"{race}: {deals}; {fees}"


def _scratch(d: dict[str, Any], name: Namer) -> str:
    return _(
        "{who} rolls {dice}: horse {horse} is scratched into slot x{multiplier} (rolling it costs {penalty}).",
        who=name(d["roller"]),
        dice=dice_text(d["dice"]),
        horse=d["horse"],
        multiplier=d["multiplier"],
        penalty=money(d["penalty"]),
    )


def _scratch_reroll(d: dict[str, Any], name: Namer) -> str:
    return _(
        "{who} rolls {dice}: horse {horse} is already scratched, next player rolls.",
        who=name(d["roller"]),
        dice=dice_text(d["dice"]),
        horse=d["horse"],
    )


def _sit_out(d: dict[str, Any], name: Namer) -> str:
    if d["paid"] == d["due"]:
        return _(
            "{who} has no cards left, pays {paid} and sits out this race.",
            who=name(d["seat"]),
            paid=money(d["paid"]),
        )
    return _(
        "{who} has no cards left, pays {paid} (all they had, of {due}) and sits out this race.",
        who=name(d["seat"]),
        paid=money(d["paid"]),
        due=money(d["due"]),
    )


def _broke(d: dict[str, Any], name: Namer) -> str:
    return _("{who} is out of money and surrenders their cards: this is the last race.", who=name(d["seat"]))


def _race_start(d: dict[str, Any], name: Namer) -> str:
    horses = ", ".join(str(h) for h in d["scratched"])
    return _("They're off! Scratched: {horses}. {who} rolls first.", horses=horses, who=name(d["first"]))


def _roll(d: dict[str, Any], name: Namer) -> str:
    said = {"who": name(d["roller"]), "dice": dice_text(d["dice"]), "horse": d["horse"]}
    if d["scratched"]:
        if d["roller"] is None:
            return _("{who} rolls {dice}: scratched horse {horse}, nobody pays.", **said)
        said |= {"multiplier": d["multiplier"], "paid": money(d["paid"])}
        if d["paid"] == d["due"]:
            return _("{who} rolls {dice}: scratched horse {horse} (x{multiplier}), pays {paid}.", **said)
        return _(
            "{who} rolls {dice}: scratched horse {horse} (x{multiplier}), pays {paid} (all they had, of {due}).",
            **said,
            due=money(d["due"]),
        )
    if d["to"] >= d["moves"]:
        return _("{who} rolls {dice}: horse {horse} gallops into the Champion Circle!", **said)
    return _(
        "{who} rolls {dice}: horse {horse} moves to {to} of {moves}.", **said, to=d["to"], moves=d["moves"]
    )


def _race_won(d: dict[str, Any], name: Namer) -> str:
    payouts = d["payouts"]
    if not payouts:
        return _(
            "Horse {horse} wins race {race}, but nobody holds its card: the {jackpot} jackpot stays.",
            horse=d["horse"],
            race=d["race"],
            jackpot=money(d["jackpot"]),
        )
    winners = ", ".join(f"{name(int(seat))} {money(amount)}" for seat, amount in payouts.items())
    said = {"horse": d["horse"], "race": d["race"], "share": money(d["share"]), "winners": winners}
    if d["remainder"]:
        return _(
            "Horse {horse} wins race {race}! {share} per card: {winners}; {left} stays in the pot.",
            **said,
            left=money(d["remainder"]),
        )
    return _("Horse {horse} wins race {race}! {share} per card: {winners}.", **said)


def _time_up(d: dict[str, Any], name: Namer) -> str:
    return _("Time is up: this race is the last.") if d["finishing"] else _("Time is up.")


def _game_over(d: dict[str, Any], name: Namer) -> str:
    top = [s for s in d["standings"] if s["won"]]
    said = {"who": joined([name(s["seat"]) for s in top]), "cash": money(top[0]["cash"])}
    if len(top) > 1:
        return _n(
            "Game over after {n} race: {who} win with {cash}.",
            "Game over after {n} races: {who} win with {cash}.",
            int(d["races"]),
            **said,
        )
    return _n(
        "Game over after {n} race: {who} wins with {cash}.",
        "Game over after {n} races: {who} wins with {cash}.",
        int(d["races"]),
        **said,
    )


def _auto_rolls(d: dict[str, Any], name: Namer) -> str:
    return _("🎲 From now on the bot rolls for {who}, at the table's pace.", who=name(d["seat"]))


_TELLERS: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "auto_rolls": _auto_rolls,
    "race_setup": _race_setup,
    "scratch": _scratch,
    "scratch_reroll": _scratch_reroll,
    "sit_out": _sit_out,
    "broke": _broke,
    "race_start": _race_start,
    "roll": _roll,
    "race_won": _race_won,
    "time_up": _time_up,
    "game_over": _game_over,
}


def stake_words(label: str) -> str:
    """A stake as stored with the results (``horse 7``, English) in the reader's language, for ``/stats``."""
    found = re.fullmatch(r"horse (\d+)", label)
    return _("horse {horse}", horse=found[1]) if found else label
