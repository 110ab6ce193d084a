"""Pictures of what a user sees in Discord, drawn from the fake's messages: the README's screenshots.

    png = render_messages([lobby, (board, board.edits[3])], names={alice.id: "alice"}, title="# games")

Each item is a message as it is now, an earlier version (``message.edits[i]``, shown as the bot's), or a
``(message, version)`` pair: that message (author, command header, time) as it looked in that version.
The look follows Discord's dark theme at 100 % zoom (cozy mode): avatar, name, BOT tag and time; content
with simple markdown, mentions and timestamps; embeds with their colour bar, fields side by side and
images; image attachments; buttons coloured by style; select menus; the "Only you can see this" line.

Rulings, since Discord's own font and colour emoji are not ours to ship:
- Text uses the shipped DejaVu fonts. Common emoji are drawn as coloured stand-ins (a gold star for a
  trophy, a brown disc for a bear, a medal disc with its number); any other character the font lacks is
  dropped, never drawn as a tofu box.
- *Italic* is DejaVu Sans sheared by hand (no italic font is shipped); ``code`` gets Discord's dark chip.
- An embed image ``attachment://name`` shows that attachment inside the embed and not again below it,
  as Discord does. Images other than attachments (URLs) cannot be fetched and are left out.

The package, one module per part of the picture: ``theme`` (colours, sizes), ``drawing`` (fonts, rounded
boxes), ``emoji`` (stand-ins), ``markdown`` (inline spans), ``layout`` (wrapping and drawing text),
``blocks`` (block markdown, pictures, files), ``embeds``, ``components``, ``messages`` (one message) and
``render`` (the whole PNG).
"""

from bot.fakediscord.screenshot.markdown import Context, Names, Span, Style, format_timestamp, parse_inline
from bot.fakediscord.screenshot.messages import Shown
from bot.fakediscord.screenshot.render import PNG_BUDGET, render_messages
from bot.fakediscord.screenshot.theme import (
    AVATAR_COLOURS,
    BACKGROUND,
    BLURPLE,
    BUTTON_COLOURS,
    DARKEST,
    EMBED_BACKGROUND,
    HEADER,
    HIGHLIGHT_BAR,
    HIGHLIGHT_BG,
    LINK,
    MENTION_BG,
    MENTION_TEXT,
    MUTED,
    RGB,
    TEXT,
)

__all__ = [
    "AVATAR_COLOURS",
    "BACKGROUND",
    "BLURPLE",
    "BUTTON_COLOURS",
    "DARKEST",
    "EMBED_BACKGROUND",
    "HEADER",
    "HIGHLIGHT_BAR",
    "HIGHLIGHT_BG",
    "LINK",
    "MENTION_BG",
    "MENTION_TEXT",
    "MUTED",
    "PNG_BUDGET",
    "RGB",
    "TEXT",
    "Context",
    "Names",
    "Shown",
    "Span",
    "Style",
    "format_timestamp",
    "parse_inline",
    "render_messages",
]
