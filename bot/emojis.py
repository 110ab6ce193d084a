"""The game pieces as the application's own emojis, so text shows the same token as the pictures.

At start the bot lists its application emojis and uploads the missing ones (a restart finds them
listed and uploads nothing; a name is never uploaded twice). Until that is done, and wherever it
fails (no permission, Discord down, the 2,000-emoji cap), text uses each piece's Unicode fallback.
The names and pictures come from the games' symbol modules; a new game adds its pieces to ``wanted``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Callable

import discord

log = logging.getLogger(__name__)

_shown: dict[str, str] = {}  # emoji name -> "<:name:id>" for the emojis this process may use
_fallbacks: dict[str, str] = {}  # "<:name:id>" -> the Unicode fallback it was given (``plain``)
_MARKUP = re.compile(r"<a?:\w+:\d+>")


def text(name: str, fallback: str) -> str:
    """The emoji ``name`` as message text (or a button's emoji), else ``fallback`` (Unicode)."""
    shown = _shown.get(name)
    if shown is None:
        return fallback
    _fallbacks[shown] = fallback
    return shown


def plain(label: str) -> str:
    """``label`` for a place Discord shows as plain text, not markdown (a button's or a menu option's
    label, a menu's placeholder): each custom emoji as its Unicode fallback.

    Why: a secret pick's menu read "<:hs_dangle:1579...> Dangle recover 3" on Discord, where it meant
    to read "🐻 Dangle recover 3" (labels are text; only a component's own emoji field shows one)."""
    if "<" not in label:
        return label
    return " ".join(_MARKUP.sub(lambda m: _fallbacks.get(m.group(0), ""), label).split())


def wanted() -> dict[str, Callable[[], bytes]]:
    """Every piece's emoji name and a way to draw its picture (drawn only if it must be uploaded)."""
    from bot.games.horserace import symbols as horses
    from bot.games.horserace.board import HORSES
    from bot.games.hotstreak import symbols as mascots

    out: dict[str, Callable[[], bytes]] = {}
    for key in mascots.symbols():
        out[mascots.emoji_name(key)] = functools.partial(mascots.emoji_png, key)
    for horse in HORSES:
        out[horses.emoji_name(horse)] = functools.partial(horses.emoji_png, horse)
    return out


async def install(client: discord.Client, pieces: dict[str, Callable[[], bytes]] | None = None) -> int:
    """Reuse the uploaded emojis and upload the missing ones; returns how many were uploaded.

    Every failure leaves the Unicode fallback in place for the emojis it concerns, and is logged once.
    """
    _shown.clear()  # ids belong to one application: never carry them over from another client
    pieces = wanted() if pieces is None else pieces
    try:
        existing = {e.name: e for e in await client.fetch_application_emojis()}
    except discord.HTTPException as error:
        log.warning("Could not list the application's emojis (%s); text uses Unicode symbols", error)
        return 0
    uploaded = 0
    for name, draw in pieces.items():
        emoji = existing.get(name)
        if emoji is None:
            try:
                image = await asyncio.to_thread(draw)
                emoji = await client.create_application_emoji(name=name, image=image)
                uploaded += 1
            except discord.HTTPException as error:
                log.warning("Could not upload the emoji %s (%s); text uses its Unicode symbol", name, error)
                continue
        _shown[name] = str(emoji)
    return uploaded
