"""Hot Streak in words for Discord: cards, tickets, slips and payouts as players read them."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot import emojis
from bot.games.hotstreak.narration import answer_word, card_name, narrate, risk_word
from bot.games.hotstreak.symbols import Symbol, emoji_name, symbols
from bot.i18n import _, _n
from bot.i18n.formatting import money, ordinal, signed

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


def place(n: int | None) -> str:
    """``1st`` / ``1º``; a dash for no place."""
    return ordinal(n) if n else "—"


def card_label(notation: str) -> str:
    """``gobbler swerve-left 2`` -> ``🐻 Gobbler swerve left 2``."""
    who = notation.partition(" ")[0]
    return f"{emoji(who)} {card_name(notation)}".strip()


def cards_label(notations: list[str]) -> str:
    return " + ".join(card_label(card) for card in notations)


def option_label(option: str) -> str:
    """A bet option (``ticket:gobbler:risky``, ``side:yes:safe``) as a button label."""
    kind, what, risk = option.split(":")
    who = what.title() if kind == "ticket" else answer_word(what).capitalize()
    return f"{who} · {risk_word(risk, side=kind != 'ticket')}"


def _values(values: list[int]) -> str:
    return "/".join(money(v) for v in values)


def ticket_line(mascot: str, name: str, stack: list[dict[str, list[int]]]) -> str:
    if not stack:
        return _("{emoji} **{name}** — no tickets left", emoji=emoji(mascot), name=name)
    top = stack[0]
    return _(
        "{emoji} **{name}** — safe {safe} · risky {risky} *({places}; {left})*",
        emoji=emoji(mascot),
        name=name,
        safe=_values(top["safe"]),
        risky=_values(top["risky"]),
        places="/".join(ordinal(p) for p in (1, 2, 3)),
        left=_n("{n} left", "{n} left", len(stack)),
    )


def slip_line(answer: str, slips: list[dict[str, Any]]) -> str:
    word = answer_word(answer).capitalize()
    if not slips:
        return _("**{answer}** — no slips left", answer=word)
    top = slips[0]
    win, loss = top["risky"]
    return _(
        "**{answer}** — safe {safe} if right · risky {win} if right, {loss} if wrong *({left})*",
        answer=word,
        safe=money(top["safe"]),
        win=money(win),
        loss=money(loss),
        left=_n("{n} left", "{n} left", len(slips)),
    )


def bet_short(bet: dict[str, Any]) -> str:
    doubled = " ×2" if bet.get("doubled") else ""
    risk = risk_word(bet["risk"], side=bet["kind"] != "ticket")
    if bet["kind"] == "ticket":
        return f"{emoji(bet['mascot'])} {bet['mascot'].title()} {risk}{doubled}"
    return _("side {answer} {risk}", answer=answer_word(bet["answer"]).lower(), risk=risk) + doubled


def payout_line(line: dict[str, Any]) -> str:
    """One bet's line under a race's results: what it paid (``paid``, twice ``value`` when doubled),
    so a seat's lines add up to the total under them."""
    if line["kind"] == "ticket":
        outcome = place(line.get("place"))
    else:
        outcome = _("right") if line["right"] else _("wrong")
    if line.get("doubled"):
        return _(
            "{bet} → {outcome}: {paid} ({value} doubled)",
            bet=bet_short(line),
            outcome=outcome,
            paid=signed(line["paid"]),
            value=signed(line["value"]),
        )
    return f"{bet_short(line)} → {outcome}: {signed(line['paid'])}"


def race_line(event_kind: str, data: dict[str, Any]) -> str:
    """The engine's narration of a flipped card or a fold (mascot names only, nothing hidden)."""
    return narrate({"kind": event_kind, "data": data})
