"""One-line narration of the engine's events, for the channel and the game log.

Seats are shown 1-based ("Seat 1" is seat 0) unless the host passes the players' names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.base import Event

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def seat_name(seat: int | None, names: Sequence[str] | None = None) -> str:
    if seat is None:
        return "The table"
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}"


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(DIE_FACES[d - 1] for d in dice) + f" ({sum(dice)})"


def money(amount: int) -> str:
    return f"${amount}"


def narrate(event: Event, names: Sequence[str] | None = None) -> str:
    """A one-line sentence for ``event``."""
    tell = _TELLERS.get(event.kind)
    if tell is None:
        return event.kind.replace("_", " ")
    return tell(event.data, lambda seat: seat_name(seat, names))


Namer = Callable[[int | None], str]


def _race_setup(d: dict[str, Any], name: Namer) -> str:
    of = f" of {d['races']}" if d.get("races") else ""
    carried = f", {money(d['carried'])} carried over" if d["carried"] else ""
    return (
        f"Race {d['race']}{of}: {name(d['dealer'])} deals {d['deck']} cards; "
        f"entry fees in{carried}, jackpot {money(d['jackpot'])}."
    )


def _scratch(d: dict[str, Any], name: Namer) -> str:
    return (
        f"{name(d['roller'])} rolls {dice_text(d['dice'])}: horse {d['horse']} is scratched "
        f"into slot x{d['multiplier']} (rolling it costs {money(d['penalty'])})."
    )


def _scratch_reroll(d: dict[str, Any], name: Namer) -> str:
    return f"{name(d['roller'])} rolls {dice_text(d['dice'])}: horse {d['horse']} is already scratched, next player rolls."


def _sit_out(d: dict[str, Any], name: Namer) -> str:
    short = "" if d["paid"] == d["due"] else f" (all they had, of {money(d['due'])})"
    return f"{name(d['seat'])} has no cards left, pays {money(d['paid'])}{short} and sits out this race."


def _broke(d: dict[str, Any], name: Namer) -> str:
    return f"{name(d['seat'])} is out of money and surrenders their cards: this is the last race."


def _race_start(d: dict[str, Any], name: Namer) -> str:
    horses = ", ".join(str(h) for h in d["scratched"])
    return f"They're off! Scratched: {horses}. {name(d['first'])} rolls first."


def _roll(d: dict[str, Any], name: Namer) -> str:
    who = name(d["roller"])
    if d["scratched"]:
        if d["roller"] is None:
            return f"{who} rolls {dice_text(d['dice'])}: scratched horse {d['horse']}, nobody pays."
        short = "" if d["paid"] == d["due"] else f" (all they had, of {money(d['due'])})"
        return f"{who} rolls {dice_text(d['dice'])}: scratched horse {d['horse']} (x{d['multiplier']}), pays {money(d['paid'])}{short}."
    if d["to"] >= d["moves"]:
        return f"{who} rolls {dice_text(d['dice'])}: horse {d['horse']} gallops into the Champion Circle!"
    return f"{who} rolls {dice_text(d['dice'])}: horse {d['horse']} moves to {d['to']} of {d['moves']}."


def _race_won(d: dict[str, Any], name: Namer) -> str:
    payouts = d["payouts"]
    if not payouts:
        return f"Horse {d['horse']} wins race {d['race']}, but nobody holds its card: the {money(d['jackpot'])} jackpot stays."
    winners = ", ".join(f"{name(int(seat))} {money(amount)}" for seat, amount in payouts.items())
    left = f"; {money(d['remainder'])} stays in the pot" if d["remainder"] else ""
    return f"Horse {d['horse']} wins race {d['race']}! {money(d['share'])} per card: {winners}{left}."


def _time_up(d: dict[str, Any], name: Namer) -> str:
    return "Time is up: this race is the last." if d["finishing"] else "Time is up."


def _game_over(d: dict[str, Any], name: Namer) -> str:
    top = [s for s in d["standings"] if s["won"]]
    who = " and ".join(name(s["seat"]) for s in top)
    verb = "win" if len(top) > 1 else "wins"
    return f"Game over after {d['races']} race(s): {who} {verb} with {money(top[0]['cash'])}."


_TELLERS: dict[str, Callable[[dict[str, Any], Namer], str]] = {
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
