"""Hot Streak in words for Discord: cards, tickets, slips and payouts as players read them."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot import emojis
from bot.games.hotstreak.narration import narrate
from bot.games.hotstreak.symbols import Symbol, emoji_name, symbols

ALL = "🟩"  # a green card moves every mascot


@cache
def _symbols() -> dict[str, Symbol]:
    return symbols()


def emoji(key: str) -> str:
    """A mascot as text: the application emoji of its token (the same picture as on the track), or
    the coloured circle nearest its token's colour until that is uploaded or where it failed."""
    if key == "all":
        return ALL
    symbol = _symbols().get(key)
    return emojis.text(emoji_name(key), symbol.unicode) if symbol is not None else ""


PLACES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def money(amount: int) -> str:
    return f"-${-amount}" if amount < 0 else f"${amount}"


def signed(amount: int) -> str:
    return f"+${amount}" if amount > 0 else money(amount)


def card_label(notation: str) -> str:
    """``gobbler swerve-left 2`` -> ``🐻 Gobbler swerve left 2``."""
    who, _, what = notation.partition(" ")
    what = what.replace("swerve-", "swerve ")
    return f"{emoji(who)} {who.title()} {what}".strip()


def cards_label(notations: list[str]) -> str:
    return " + ".join(card_label(card) for card in notations)


def option_label(option: str) -> str:
    """A bet option (``ticket:gobbler:risky``, ``side:yes:safe``) as a button label."""
    parts = option.split(":")
    return f"{parts[1].title()} · {parts[2]}"


def ticket_line(mascot: str, name: str, stack: list[dict[str, list[int]]]) -> str:
    if not stack:
        return f"{emoji(mascot)} **{name}** — no tickets left"
    top = stack[0]
    safe = "/".join(f"${v}" for v in top["safe"])
    risky = "/".join(f"${v}" for v in top["risky"])
    return f"{emoji(mascot)} **{name}** — safe {safe} · risky {risky} *(1st/2nd/3rd; {len(stack)} left)*"


def slip_line(answer: str, slips: list[dict[str, Any]]) -> str:
    if not slips:
        return f"**{answer.title()}** — no slips left"
    top = slips[0]
    win, loss = top["risky"]
    return (
        f"**{answer.title()}** — safe {money(top['safe'])} if right · risky {money(win)} if right, "
        f"{money(loss)} if wrong *({len(slips)} left)*"
    )


def bet_short(bet: dict[str, Any]) -> str:
    doubled = " ×2" if bet.get("doubled") else ""
    if bet["kind"] == "ticket":
        return f"{emoji(bet['mascot'])} {bet['mascot'].title()} {bet['risk']}{doubled}"
    return f"side {bet['answer']} {bet['risk']}{doubled}"


def payout_line(line: dict[str, Any]) -> str:
    doubled = " (doubled)" if line.get("doubled") else ""
    if line["kind"] == "ticket":
        place = PLACES.get(line.get("place") or 0, "—")
        return f"{bet_short(line)} → {place}: {signed(line['value'])}{doubled}"
    verdict = "right" if line["right"] else "wrong"
    return f"{bet_short(line)} → {verdict}: {signed(line['value'])}{doubled}"


def race_line(event_kind: str, data: dict[str, Any]) -> str:
    """The engine's narration of a flipped card or a fold (mascot names only, nothing hidden)."""
    return narrate({"kind": event_kind, "data": data}).replace("swerve-", "swerve ")
