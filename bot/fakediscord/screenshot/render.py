"""A list of messages as one PNG, with the channel's title bar, kept under the README's size budget."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.fakediscord.model import FakeEmoji
from bot.fakediscord.screenshot.drawing import load_font, stack
from bot.fakediscord.screenshot.markdown import Names
from bot.fakediscord.screenshot.messages import Seen, Shown, message_block, seen_as_drawn
from bot.fakediscord.screenshot.theme import BACKGROUND, CHANNEL_BAR_LINE, HEADER, hex_rgb


def _title_bar(title: str, width: int) -> Image.Image:
    image = Image.new("RGB", (width, 49), BACKGROUND)
    draw = ImageDraw.Draw(image)
    symbol, _, name = title.partition(" ")
    draw.text((16, 31), symbol, font=load_font(22), fill=hex_rgb("#80848e"), anchor="ls")
    draw.text(
        (16 + load_font(22).getlength(symbol) + 8, 30),
        name,
        font=load_font(16, bold=True),
        fill=HEADER,
        anchor="ls",
    )
    draw.line((0, 48, width, 48), fill=CHANNEL_BAR_LINE, width=1)
    return image


def render_messages(
    messages: Sequence[Shown],
    *,
    viewer_name: str | None = None,
    width: int = 900,
    names: Names = None,
    bot_name: str = "Racing Bot",
    title: str | None = None,
    emojis: Mapping[int, bytes | FakeEmoji] | None = None,
    today: str | None = None,
    language: str = "en",
) -> bytes:
    """The messages as one PNG, top to bottom, the way Discord's dark theme shows them.

    ``names`` turns ``<@id>`` (and ``<#id>``, ``<@&id>``) into names, as a dict or a function.
    ``viewer_name`` is who is looking: messages mentioning them get Discord's gold highlight.
    ``title`` ("# games", "@ Racing Bot") draws the channel's header bar above the messages.
    ``emojis`` (``fake.application_emojis``, or id -> image bytes) draws custom emojis, in text and on
    buttons, as their uploaded pictures; unknown ones read ``:name:`` in text.
    Consecutive messages from one author share one header, as in Discord. ``today`` ("Hoje às") is
    the header's "Today at" in the viewer's language (by default from ``language``, the client's: "en"
    or "pt-BR", which also words relative timestamps).
    """
    today = today or ("Hoje às" if language == "pt-BR" else "Today at")
    pictures = {i: e.image if isinstance(e, FakeEmoji) else e for i, e in (emojis or {}).items()}
    blocks: list[Image.Image] = []
    if title:
        blocks.append(_title_bar(title, width))
    previous: Seen | None = None
    for item in messages:
        seen = seen_as_drawn(item, bot_name)
        first = (
            previous is None
            or previous.author_name != seen.author_name
            or seen.command is not None
            or seen.reply_to is not None
        )
        if first and blocks:
            blocks.append(Image.new("RGB", (width, 12), BACKGROUND))
        blocks.append(
            message_block(
                seen,
                width=width,
                first_in_group=first,
                names=names,
                viewer_name=viewer_name,
                emojis=pictures,
                today=today,
                language=language,
            )
        )
        previous = seen
    image = stack(
        [Image.new("RGB", (width, 8), BACKGROUND), *blocks, Image.new("RGB", (width, 16), BACKGROUND)],
        width,
        BACKGROUND,
        gap=0,
    )
    return _png(image)


#: README pictures stay below this size; bigger ones are reduced to a 256-colour palette.
PNG_BUDGET = 300_000


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    if out.tell() <= PNG_BUDGET:
        return out.getvalue()
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, "PNG", optimize=True
    )
    return out.getvalue()
