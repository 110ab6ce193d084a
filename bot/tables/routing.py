"""Clicks on a game another process drives: acknowledged here, applied there, answered once.

Discord sends DMs, and clicks on buttons in DMs, to shard 0 only, but a game is driven by the
process of its guild's shard. So a click on a game this process does not drive is acknowledged at
once (deferred, well inside Discord's 3 seconds), stored for the owner (``Storage.route_click``,
keyed by the interaction id, so a click is passed on once), and the owner, woken by PostgreSQL's
NOTIFY or by its next poll, applies it through the same code as a local click and answers the
player with the interaction's token (a followup, which any process may send).

Nothing is lost or applied twice: the stored click is forgotten only after the owner handled it; a
click handled but not yet forgotten when its owner crashed is handled again by the next owner, and
the decision's step number (in the button's id) then makes it "already decided", never a second move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import speaking
from bot.storage import RoutedClick, StorageError
from bot.storage.leases import TOKEN_LIFETIME
from bot.tables import clicks, custom_ids
from bot.tables.answers import ELSEWHERE, GONE, SAVE_FAILED, followup
from bot.tables.directory import Directory

if TYPE_CHECKING:
    from bot.tables.host import Host

log = logging.getLogger(__name__)


async def pass_on(bot: Host, interaction: discord.Interaction, click: custom_ids.Parsed) -> bool:
    """A click on a game with no table here: pass it to the game's owner if the game is still open.

    Returns False (nothing said yet) when the game is over or unknown, for the caller's usual answer.
    """
    game_id = getattr(click, "game", None)
    if game_id is None or getattr(bot, "leases", None) is None or not bot.storage.shared:
        return False  # one process on its database (SQLite): nobody else could apply it
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.defer()  # first: the database may be slower than Discord's 3 s
    try:
        if not await bot.storage.game_is_open(game_id):
            return False
        if not isinstance(click, custom_ids.Decide):
            # Lobby, "My hand" and menu pages live in the game's channel, which its owner hears.
            await followup(interaction, ELSEWHERE)
            return True
        data: dict[str, Any] = dict(interaction.data or {})
        await bot.storage.route_click(
            RoutedClick(
                id=interaction.id,
                game_id=game_id,
                user_id=interaction.user.id,
                custom_id=str(data.get("custom_id", "")),
                values=data.get("values"),
                application_id=int(interaction.application_id),
                token=interaction.token,
            )
        )
    except StorageError:
        log.exception("Could not pass a click on game %s on", game_id)
        await followup(interaction, SAVE_FAILED)
    return True


@dataclass
class _User:
    id: int
    display_name: str

    @property
    def name(self) -> str:
        return self.display_name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class _Answered:
    """The response of an interaction another process acknowledged already: only followups remain."""

    def __init__(self, followup: discord.Webhook) -> None:
        self._followup = followup

    def is_done(self) -> bool:
        return True

    async def defer(self, **_: Any) -> None:
        return None

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        await self._followup.send(content or discord.utils.MISSING, **kwargs)


class RoutedInteraction:
    """What ``clicks.on_decision`` reads of an interaction, for a click that came through the database."""

    guild_id = None
    message = None
    # Where it was clicked (a DM or a channel) is not passed on: its answers are private followups
    # (``bot.tables.clicks``), never an edit of the clicked message, which may be a public prompt.
    routed = True

    def __init__(self, bot: Any, click: RoutedClick, name: str = "") -> None:
        self.id = click.id
        self.user = _User(click.user_id, name)  # the name is not passed on: the seat's, if any
        payload: Any = {"id": click.application_id, "type": 3, "token": click.token}
        self.followup = discord.Webhook.from_state(data=payload, state=bot._connection)
        self.response = _Answered(self.followup)


class Router:
    """Applies the clicks other processes passed on for this process's games."""

    def __init__(self, bot: Host, directory: Directory) -> None:
        self.bot = bot
        self.directory = directory
        self._lock = asyncio.Lock()
        self._stop_listening: Any = None
        self._waking: asyncio.Task[None] | None = None
        # Set by every wake-up, cleared as a drain begins: a wake-up that comes while a drain runs (a
        # click stored just after that drain read the waiting ones) makes it drain once more, at once.
        # Without it the click waited for the lease keeper's next tick, up to 5 s (issue 26, point 13).
        self._woken = False
        self._swept = 0.0

    async def start(self) -> None:
        self._stop_listening = await self.bot.storage.listen_for_clicks(self.wake)

    def wake(self) -> None:
        self._woken = True
        if self._waking is None or self._waking.done():
            self._waking = asyncio.create_task(self._drain_while_woken(), name="routed-clicks")

    async def _drain_while_woken(self) -> None:
        while self._woken:
            self._woken = False
            await self.drain()

    async def stop(self) -> None:
        if self._waking is not None:
            self._waking.cancel()
        if self._stop_listening is not None:
            with contextlib.suppress(Exception):
                await self._stop_listening()

    async def drain(self) -> None:
        """Apply every waiting click for a game driven here, oldest first, each once."""
        async with self._lock:
            tables = self.directory
            try:
                waiting = await self.bot.storage.routed_clicks(list(tables.by_id))
            except StorageError:
                log.warning("Could not read the clicks passed on", exc_info=True)
                return
            for routed in waiting:
                table = tables.by_id.get(routed.game_id)
                if table is None:
                    continue  # the game's next owner applies it
                click = custom_ids.parse(routed.custom_id, routed.values)
                if isinstance(click, custom_ids.Decide) and not table.closed:
                    seat = table.seat_of(routed.user_id)
                    name = table.seats[seat].name if seat is not None else ""
                    interaction: Any = RoutedInteraction(self.bot, routed, name)
                    # Ruling: the clicker's locale is not stored with the click (a schema change for
                    # one sentence); it is answered in their language as known here, else the server's.
                    try:
                        with speaking(self.bot.languages.person(routed.user_id, table.guild_id)):
                            await clicks.on_decision(table, interaction, click)
                    except discord.HTTPException:
                        log.warning("Could not answer a click passed on for game %s", routed.game_id)
                elif isinstance(click, custom_ids.Decide):  # the game ended since: say so, once
                    with speaking(self.bot.languages.person(routed.user_id, table.guild_id)):
                        await followup(RoutedInteraction(self.bot, routed), GONE)  # type: ignore[arg-type]
                try:  # handled (or its game is over): its token is deleted at once
                    await self.bot.storage.drop_routed_click(routed.id)
                except StorageError:
                    log.warning("Could not forget a click passed on; it will be answered as stale")
            now = time.monotonic()
            if now - self._swept > 60:  # once a minute is plenty for what is kept 15 minutes
                self._swept = now
                with contextlib.suppress(StorageError):
                    await self.bot.storage.drop_old_routed_clicks(TOKEN_LIFETIME)
