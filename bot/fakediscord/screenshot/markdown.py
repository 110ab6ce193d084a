"""Discord's inline markdown (bold, italic, code, mentions, timestamps, links) as styled spans."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from bot.fakediscord.screenshot.theme import BACKGROUND, LINK, MENTION_BG, MENTION_TEXT, RGB, mix

Names = Mapping[int, str] | Callable[[int], str | None] | None


@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    underline: bool = False
    colour: RGB | None = None
    chip: RGB | None = None  # a mention or timestamp: one unbreakable piece on a tinted background
    picture: bytes | None = None  # a custom emoji whose image is known: drawn as that image


@dataclass(frozen=True)
class Span:
    text: str
    style: Style


# The bold and italic patterns are simple-markdown's (Discord's parser): an italic may hold a bold pair.
INLINE = re.compile(
    r"(?P<code>`+)(?P<code_text>.+?)(?P=code)"
    r"|\*\*(?P<bold>.+?)\*\*(?!\*)"
    r"|__(?P<underline>.+?)__"
    r"|~~(?P<strike>.+?)~~"
    r"|\*(?=\S)(?P<italic>(?:\*\*|\s+(?:[^\s*]|\*\*)|[^\s*])+?)\*(?!\*)"
    r"|(?<!\w)_(?P<italic2>[^_\s](?:.*?[^_\s])?)_(?!\w)"
    r"|<@!?(?P<user>\d+)>|<@&(?P<role>\d+)>|<#(?P<channel>\d+)>"
    r"|<t:(?P<time>-?\d+)(?::(?P<time_style>[tTdDfFR]))?>"
    r"|<a?:(?P<emoji_name>\w+):(?P<emoji_id>\d+)>"
    r"|\[(?P<link_text>[^\]]+)\]\((?P<link_url>[^)\s]+)\)"
    r"|(?P<url>https?://[^\s<>]+)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Context:
    """What inline markdown needs to know: who the ids are, when the message was sent, and the pictures
    of the custom emojis it may show (by emoji id)."""

    names: Names
    sent: datetime.datetime
    emojis: Mapping[int, bytes] = field(default_factory=dict)
    language: str = "en"  # the client's: relative timestamps ("in 20 seconds", "em 20 segundos")

    def name_of(self, snowflake: int) -> str | None:
        if self.names is None:
            return None
        if callable(self.names):
            return self.names(snowflake)
        return self.names.get(snowflake)


def parse_inline(text: str, context: Context, style: Style = Style()) -> list[Span]:
    """Discord's inline markdown as styled spans (nesting allowed, code spans taken literally)."""
    spans: list[Span] = []
    position = 0
    for match in INLINE.finditer(text):
        if match.start() > position:
            spans.append(Span(text[position : match.start()], style))
        position = match.end()
        groups = match.groupdict()
        if groups["code_text"] is not None:
            spans.append(Span(groups["code_text"], replace(style, code=True)))
        elif groups["bold"] is not None:
            spans += parse_inline(groups["bold"], context, replace(style, bold=True))
        elif groups["underline"] is not None:
            spans += parse_inline(groups["underline"], context, replace(style, underline=True))
        elif groups["strike"] is not None:
            spans += parse_inline(groups["strike"], context, replace(style, strike=True))
        elif groups["italic"] is not None or groups["italic2"] is not None:
            inner = groups["italic"] if groups["italic"] is not None else groups["italic2"]
            spans += parse_inline(inner, context, replace(style, italic=True))
        elif groups["user"] is not None or groups["role"] is not None:
            name = context.name_of(int(groups["user"] or groups["role"])) or "unknown-user"
            spans.append(Span(f"@{name}", replace(style, colour=MENTION_TEXT, chip=MENTION_BG)))
        elif groups["channel"] is not None:
            name = context.name_of(int(groups["channel"])) or "unknown"
            spans.append(Span(f"#{name}", replace(style, colour=MENTION_TEXT, chip=MENTION_BG)))
        elif groups["time"] is not None:
            shown = format_timestamp(
                int(groups["time"]), groups["time_style"] or "f", context.sent, context.language
            )
            spans.append(Span(shown, replace(style, chip=mix(BACKGROUND, (255, 255, 255), 0.06))))
        elif groups["emoji_name"] is not None:
            picture = context.emojis.get(int(groups["emoji_id"]))
            if picture is not None:
                spans.append(Span(groups["emoji_name"], replace(style, picture=picture)))
            else:
                spans.append(Span(f":{groups['emoji_name']}:", style))
        elif groups["link_text"] is not None:
            spans += parse_inline(groups["link_text"], context, replace(style, colour=LINK))
        else:
            assert groups["url"] is not None
            spans.append(Span(groups["url"], replace(style, colour=LINK)))
    if position < len(text):
        spans.append(Span(text[position:], style))
    return spans


#: A relative timestamp's words in the client's language: (future, past, units by size).
RELATIVE = {
    "en": ("in {}", "{} ago", {"day": "day", "hour": "hour", "minute": "minute", "second": "second"}),
    "pt-BR": ("em {}", "há {}", {"day": "dia", "hour": "hora", "minute": "minuto", "second": "segundo"}),
}


def format_timestamp(seconds: int, style: str, sent: datetime.datetime, language: str = "en") -> str:
    """``<t:...>`` as Discord shows it; relative ones are relative to when the message was sent, in the
    client's language (Discord draws them on the reader's side)."""
    when = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    if style == "R":
        future, past, units = RELATIVE.get(language, RELATIVE["en"])
        delta = (when - sent).total_seconds()
        amount = abs(delta)
        for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
            if amount >= size or unit == "second":
                count = round(amount / size)
                words = f"{count} {units[unit]}{'' if count == 1 else 's'}"
                return (future if delta >= 0 else past).format(words)
    formats = {
        "t": "%H:%M",
        "T": "%H:%M:%S",
        "d": "%d/%m/%Y",
        "D": "{day} %B %Y",
        "f": "{day} %B %Y %H:%M",
        "F": "%A, {day} %B %Y %H:%M",
    }
    return when.strftime(formats.get(style, formats["f"])).format(day=when.day)  # %-d is not portable
