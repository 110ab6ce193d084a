"""The lobby before a game: join, leave, add AI, kick, start, cancel — the same for every game."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, cast

import discord

from bot.discord_io import threads
from bot.discord_io.outgoing import Outgoing, message_kwargs
from bot.games.catalog import Start
from bot.i18n import N_, _, _n, _p, speaking
from bot.storage import StorageError
from bot.storage.errors import AlreadyOpen
from bot.tables import clock, custom_ids
from bot.tables.answers import CANCEL_UNSAVED, SAVE_FAILED, reply
from bot.tables.components import button, select
from bot.tables.directory import Directory
from bot.tables.seats import AI_LEVELS, Seat, ai_level_name, ai_seat, is_manager, shown
from bot.tables.table import Table


def lobby_message(table: Table, note: str = "") -> Outgoing:
    """The lobby as the channel sees it, in the server's language (``note``: a marked message,
    translated here)."""
    with speaking(table.language):
        return _lobby_message(table, _(note) if note else "")


def _lobby_message(table: Table, note: str = "") -> Outgoing:
    presenter = table.presenter
    capacity = int(table.settings.get("players", table.entry.max_players))
    lines = []
    for index, seat in enumerate(table.seats, start=1):
        tag = _(" — host") if seat.user_id == table.host_id else ""
        kind = _(" *(AI, {level})*", level=ai_level_name(seat.ai)) if seat.ai else ""
        lines.append(f"`{index}.` {seat.mention()}{kind}{tag}")
    embed = discord.Embed(
        title=_("{game} — lobby", game=presenter.title),
        description="\n".join(lines) or _("*Nobody yet.*"),
        colour=discord.Colour.gold(),
    )
    embed.add_field(name=_("Seats"), value=f"{len(table.seats)} / {capacity}")
    for name, value in presenter.lobby_fields(table.view()):
        embed.add_field(name=name, value=value)
    closes = int(table.meta.get("lobby_closes", time.time()))
    embed.add_field(name=_("Lobby closes"), value=f"<t:{closes}:R>")
    embed.set_footer(
        text=_(
            "Game #{number} · the host or a server manager can start early, kick or cancel",
            number=table.game_id,
        )
    )
    view = discord.ui.View(timeout=None)
    gid, token = table.game_id, table.token

    def op(name: str) -> str:
        return custom_ids.lobby(gid, name, token=token)

    full = len(table.seats) >= capacity
    view.add_item(button(op("join"), _p("button", "Join"), style="success", disabled=full))
    view.add_item(button(op("leave"), _p("button", "Leave")))
    view.add_item(button(op("ai"), _p("button", "Add AI"), disabled=full))
    view.add_item(button(op("start"), _p("button", "Start"), style="primary"))
    view.add_item(button(op("cancel"), _p("button", "Cancel"), style="danger"))
    kickable = [(i, s) for i, s in enumerate(table.seats) if s.user_id != table.host_id]
    if kickable:  # at most 14 seats besides the host's: always one menu
        options = [discord.SelectOption(label=s.display_name[:100], value=str(i)) for i, s in kickable]
        kick = custom_ids.kick(gid, token=token)
        view.add_item(select(kick, options, placeholder=_("Remove a seat (host only)")))
    return Outgoing(content=note, embed=embed, view=view)


async def on_lobby(
    directory: Directory, table: Table, interaction: discord.Interaction, op: str, kicked: int | None
) -> None:
    """One lobby click, under the table's lock: clicks at the same moment each see the seats the one
    before left (unlocked, two joins both started from the same seats and one was lost).

    The click is acknowledged first (invisibly; refusals follow as private messages): waiting for the
    lock or for a database another program holds may take longer than the three seconds Discord
    gives a click, and an unanswered click shows "This interaction failed".
    """
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.defer()
    # A join also takes the server's seating lock: "one game per player in a server" is checked
    # across tables, so two joins in two channels at once must not both pass the check.
    seating = directory.seating(table.guild_id) if op == "join" else contextlib.nullcontext()
    async with seating, table.lock:
        start = await _lobby_change(directory, table, interaction, op, kicked)
    if start:
        # The lock was let go in between: a Leave may have come first, so the start checks again.
        refusal = await start_game(table, interaction.message, full=op != "start")
        if refusal and op == "start":
            await reply(interaction, refusal)


async def _lobby_change(
    directory: Directory, table: Table, interaction: discord.Interaction, op: str, kicked: int | None
) -> bool:
    """Apply the click; True when the game should start now (Start pressed, or a person took the last seat)."""
    if table.engine is not None or table.closed:
        await reply(interaction, _("This game has already started."))
        return False
    user = interaction.user
    manager = is_manager(user, table.host_id)
    capacity = int(table.settings.get("players", table.entry.max_players))
    seats = list(table.seats)
    host_id = table.host_id
    if op == "join":
        if table.seat_of(user.id) is not None:
            await reply(interaction, _("You're already in this game."))
            return False
        other = directory.of_user(table.guild_id, user.id)
        if other is not None:
            await reply(interaction, _one_at_a_time(other.place.place_id))
            return False
        if len(seats) >= capacity:
            await reply(interaction, _("The table is full."))
            return False
        seats.append(Seat(name=user.display_name, user_id=user.id))
    elif op == "leave":
        index = table.seat_of(user.id)
        if index is None:
            await reply(interaction, _("You're not in this game."))
            return False
        seats.pop(index)
        if user.id == table.host_id:
            successor = next((s for s in seats if s.user_id is not None), None)
            if successor is None:
                await _close(
                    directory,
                    table,
                    interaction,
                    N_("The host left and nobody else had joined, so the lobby closed."),
                )
                return False
            host_id = successor.user_id  # type: ignore[assignment]
    elif op in ("ai", "start", "cancel", "kick") and not manager:
        await reply(interaction, _("Only the host or someone with Manage Server can do that."))
        return False
    elif op == "ai":
        if len(seats) >= capacity:
            await reply(interaction, _("The table is full."))
            return False
        level = str(table.settings.get("ai_level", "normal"))
        seats.append(ai_seat(seats, level if level in AI_LEVELS else "normal"))
    elif op == "kick":
        index = -1 if kicked is None else kicked
        if not 0 <= index < len(seats) or seats[index].user_id == table.host_id:
            await reply(interaction, _("That seat can't be removed."))
            return False
        seats.pop(index)
    elif op == "cancel":
        await _close(directory, table, interaction, N_("Cancelled by {name}."), name=shown(user.display_name))
        return False
    elif op == "start":
        if len(seats) < table.entry.min_players:
            await reply(interaction, _at_least(table))
            return False
        return True
    else:
        await reply(interaction, _("Unknown lobby button."))
        return False
    settings = {**table.settings, "host_id": host_id}
    try:
        await table.host.storage.update_game(
            table.game_id, seats=[s.to_json() for s in seats], settings=settings
        )
    except AlreadyOpen as taken:
        # Seated at a table no process here knows of (another process's, or one whose owner crashed
        # and whose lease has not run out): the database refused the seat, nothing changed.
        await reply(interaction, _one_at_a_time(taken.place_id) if taken.user_id is not None else SAVE_FAILED)
        return False
    except StorageError:
        await reply(interaction, SAVE_FAILED)  # nothing changed: not the seats, not the host
        return False
    table.seats, table.settings, table.host_id = seats, settings, host_id
    with contextlib.suppress(discord.HTTPException):
        await interaction.edit_original_response(**message_kwargs(lobby_message(table), editing=True))
    # Ruling: a lobby starts by itself only when a person takes its last seat. Add AI never starts
    # the game (the host may be filling seats while waiting for a friend, or want a last look at the
    # table): the host presses Start.
    return op == "join" and len(seats) >= capacity and bool(table.settings.get("autostart", True))


async def start_game(table: Table, message: discord.Message | None, *, full: bool = False) -> str | None:
    """Fix the seats, store the engine's settings, and let the game run; or say why not.

    Everything is checked again here, under the lock (``full``: only if every seat is still taken,
    for a start because the table filled up): a Join then a quick Leave must not start a game of one.
    """
    async with table.lock:
        if table.engine is not None or table.closed:
            return _("This game has already started.")
        capacity = int(table.settings.get("players", table.entry.max_players))
        if len(table.seats) < table.entry.min_players:
            return _at_least(table)
        if full and len(table.seats) < capacity:
            return _("A seat was freed before the game could start.")
        try:
            engine_settings = await _engine_settings(table)
        except StorageError:
            await _say_unsaved(table)
            return _(SAVE_FAILED)
        table.settings["engine"] = engine_settings
        try:
            await table.host.storage.update_game(
                table.game_id,
                status="running",
                settings=table.settings,
                seats=[s.to_json() for s in table.seats],
            )
        except StorageError:
            await _say_unsaved(table)
            return _(SAVE_FAILED)
        table.start_engine([])
        if message is not None:
            started = message_kwargs(lobby_message(table, N_("The game has started.")), editing=True)
            await table.voice.edit(message, **{**started, "view": None})
        await _move_to_thread(table, message)
        assert table.engine is not None
        # The opening (hands dealt, a grid laid out) is announced like any batch: split by viewer.
        await table.publish(table.engine.opening_events())
        with speaking(table.language):
            snapshot = await table.presenter.snapshot(table.view())
        for out in snapshot:
            await table.send(out)
    table.run()
    return None


async def _move_to_thread(table: Table, lobby: discord.Message | None) -> None:
    """The game moves to a thread of its own started from its lobby (if it wants one and the bot may);
    the thread is stored with the game, so a restart carries on in it."""
    if table.settings.get("where", "thread") != "thread" or lobby is None or table.thread_id is not None:
        return
    with speaking(table.language):
        moved = await threads.move_to_thread(table.place, lobby, title=table.presenter.title)
    if moved:
        table.meta["thread_id"] = table.thread_id
        with contextlib.suppress(StorageError):
            await table.host.storage.update_game(table.game_id, meta=table.meta)


async def _engine_settings(table: Table) -> dict[str, Any]:
    """The game fixes its engine settings from the lobby's choices, the seed, the time and each
    human's lifetime net in this game here (for rules like "the unluckiest player goes first")."""
    humans = {seat.user_id: i for i, seat in enumerate(table.seats) if seat.user_id is not None}
    net: dict[int, int] = {}
    if humans:
        lifetime = await table.host.storage.lifetime_net(table.guild_id, table.entry.kind, list(humans))
        net = {humans[user]: value for user, value in lifetime.items() if user in humans}
    start = Start(len(table.seats), table.seed, clock.now(), dict(table.settings), net)
    return table.entry.engine_settings(start)


def _one_at_a_time(place_id: int) -> str:
    where = f"<#{place_id}>"
    return _("You're already playing in {channel}; one game at a time.", channel=where)


def _at_least(table: Table) -> str:
    return _n(
        "At least {n} player is needed (add an AI?).",
        "At least {n} players are needed (add an AI?).",
        table.entry.min_players,
    )


async def _say_unsaved(table: Table) -> None:
    """The channel hears that the start could not be saved (in its language: the clicker's is private)."""
    with speaking(table.language):
        out = Outgoing(content=_(SAVE_FAILED))
    await table.send(out)


async def _close(
    directory: Directory, table: Table, interaction: discord.Interaction, why: str, **values: str
) -> None:
    """Close the lobby; ``why`` (a marked message) is stored in English and shown in the channel's language."""
    if not await directory.close(table, "cancelled", why.format(**values), keep_if_unsaved=True):
        await reply(interaction, CANCEL_UNSAVED)
        return
    with speaking(table.language):
        shown_why = _(why, **values)
    with contextlib.suppress(discord.HTTPException):
        await interaction.edit_original_response(
            content=f"🛑 {shown_why}", embed=None, view=None, attachments=[]
        )


LOBBY_MESSAGE = "lobby_message"  # meta: the id of the lobby's message on show (for its expiry)


def remember_lobby(table: Table, message: discord.Message | None) -> None:
    """The lobby's message on show (opened, or posted again after a restart), so its expiry can take
    its buttons away."""
    if message is not None:
        table.meta[LOBBY_MESSAGE] = message.id


async def expire_lobby(directory: Directory, table: Table, seconds: float) -> None:
    """An abandoned lobby closes by itself; its message loses its buttons and says so (one edit), so
    nobody is left pressing a Join that can only answer that the game has ended.

    Ruling: the edit is all; a new message only where there is no lobby message to edit (it was
    deleted, or its id was never known). Nobody waits on a lobby nobody started, so nobody needs a
    notification, and the same line twice in a row was noise."""
    await asyncio.sleep(seconds)
    if table.engine is None and not table.closed:
        await directory.close(table, "cancelled", "Nobody started the game in time.")
        note = N_("🛑 {game}: lobby closed, nobody started it in time.")
        home = table.place.home
        shown_id = table.meta.get(LOBBY_MESSAGE)
        if isinstance(shown_id, int) and isinstance(home, discord.TextChannel | discord.Thread):
            closed = message_kwargs(lobby_message(table), editing=True)
            with speaking(table.language):
                closed["content"] = _(note, game=table.presenter.title)
            shown = cast(discord.Message, home.get_partial_message(shown_id))  # its channel and id suffice
            if await table.voice.edit(shown, **{**closed, "view": None}):
                return
        with speaking(table.language):
            out = Outgoing(content=_(note, game=table.presenter.title))
        await table.send(out)
