"""``/leaderboard``, ``/stats`` and ``/history``: what the results table remembers, per server."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import workers
from bot.games.catalog import CATALOG, entry, titles
from bot.i18n import N_, Language, _, _n, speaking
from bot.i18n.formatting import number, percent, signed
from bot.leaderboard_image import BoardLine, Ranking, alt_text, render_leaderboard, trend_text
from bot.seasons import season_at
from bot.server_settings import SEASON, server_value
from bot.storage import ACROSS_GAMES as EVERY_GAME
from bot.storage import RatingRow, StorageError, period_start
from bot.tables import custom_ids
from bot.tables.answers import UNREADABLE, reply
from bot.tables.seats import ai_named, shown

if TYPE_CHECKING:
    from bot.client import RaceBot

PER_PAGE = 10
GAME_TITLES = titles()  # from the catalog: a new game is offered here by its catalog line (marked titles)
PERIODS = {
    "all": N_("All time"),
    "season": N_("This season"),
    "month": N_("This month"),
    "week": N_("This week"),
}
NO_SEASONS = N_("This server has no seasons (`season` is off in its settings): pick another period.")
ACROSS_GAMES = N_(
    "*Ranked by wins: each game counts its money its own way (in dollars, or in millions), so money is "
    "never added across games; pick a game to see its winnings.*"
)
STORAGE_DOWN = N_("I can't read the results right now (storage problem); please try again later.")
RANKINGS = {"winnings": N_("Winnings"), "rating": N_("Rating")}
# A rating board's pages carry this in place of a period (``custom_ids.board_page``): ratings have none.
RATING_PAGES = "rating"
RATED = N_(
    "*Rating: a cautious estimate of skill from final places against everyone at the table (AI seats "
    "included), 1,500 to start; it rises as the games show more. Trend: the change over the last 5 games.*"
)
RATINGS_HAVE_NO_PERIOD = N_(
    "Ratings count every game ever rated, so they have no period: leave out `period`, or rank by winnings."
)

# Spectator bets (issue 30): ``/leaderboard game:spectators``, the people who bet on others' races,
# ranked by the chips their settled bets won (all time: play chips have no period and no rating).
SPECTATORS = "spectators"
SPECTATORS_ALL_TIME = N_(
    "The spectators' board counts every settled spectator bet, all time: leave out `period` and `by`."
)
SPECTATORS_NOTE = N_(
    "*Spectator bets are in play chips (nothing of real value: no buying, no giving, no cashing out); "
    "ranked by the chips won over settled bets.*"
)


def chips(net: int) -> str:
    """Chips won (or lost) on the spectators' board: ``+15 chips``, ``-40 chips``."""
    return _n("{count} chip", "{count} chips", abs(net), count=("+" if net > 0 else "") + str(net))


# Ruling: /leaderboard, /stats and /history answer in public, so they speak the server's language
# (like the games' public messages), whoever asked; a failure is told privately, in the asker's.


class BoardPageButton(discord.ui.DynamicItem[discord.ui.Item[Any]], template=custom_ids.BOARD_PAGE_TEMPLATE):
    """A leaderboard's Previous and Next buttons, answered by the cog that shows leaderboards."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardPageButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        client: Any = interaction.client
        client.languages.hear(interaction)
        click = custom_ids.parse(self.custom_id)
        cog = client.get_cog(StatsCog.__cog_name__)
        if not isinstance(click, custom_ids.BoardPage):
            await reply(interaction, UNREADABLE)
            return
        if cog is None:
            await interaction.response.send_message(_("This button no longer works."), ephemeral=True)
            return
        await cog.on_page(interaction, click)


def page_button(custom_id: str, label: str, disabled: bool) -> BoardPageButton:
    return BoardPageButton(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))


class NoSeasons(Exception):
    """A season board asked of a server whose ``season`` is off."""


class StatsCog(commands.Cog):
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(BoardPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(BoardPageButton)

    async def _public(self, interaction: discord.Interaction) -> Language:
        return await self.bot.languages.refresh(interaction.guild_id)

    async def since(self, guild_id: int, period: str) -> float | None:
        """Where a period starts; "season": the server's season running now (bot/seasons.py), and
        ``NoSeasons`` when it has none."""
        if period != "season":
            return period_start(period)
        season = season_at(str(await server_value(self.bot.storage, guild_id, SEASON)), time.time())
        if season is None:
            raise NoSeasons
        return season.start

    async def _no_seasons(self, guild_id: int) -> bool:
        """Whether the server has seasons off, read before the command is acknowledged so the refusal is
        private; a read slower than a second (or failing) is left to the board, after acknowledging."""
        try:
            kind = await asyncio.wait_for(server_value(self.bot.storage, guild_id, SEASON), 1.0)
        except (TimeoutError, StorageError):
            return False
        return kind == "off"

    async def board(self, guild_id: int, game: str, period: str, page: int) -> dict:
        kind = None if game == "all" else game
        since = await self.since(guild_id, period)
        rows, total = await self.bot.storage.leaderboard(guild_id, kind, since, page, PER_PAGE)
        pages = max(1, -(-total // PER_PAGE))
        which = _(GAME_TITLES[game]) if game in GAME_TITLES else _("all games")
        title = _("Leaderboard — {game}", game=which)
        subtitle = " · ".join(
            [
                _(PERIODS[period]),
                _("page {page} of {pages}", page=page + 1, pages=pages),
                _n("{n} player", "{n} players", total),
            ]
        )
        # A game's own money (some games count in millions); the board across games shows none.
        net_text: Callable[[int], str] = signed if kind is None else entry(game).net_text
        if kind is None:
            # Ruling (see bot/storage/standings.py): across games the money is never added up (the
            # games count it in different currencies), so this board ranks by wins and says so; its
            # picture has no money column.
            by: Ranking = "wins"
            lines = [BoardLine(r.rank, r.name, None, r.games, r.wins, r.win_rate) for r in rows]
            text = "\n".join(
                f"`{line.rank:>3}.` **{shown(line.name)}** "
                + _n("{n} win", "{n} wins", line.wins)
                + " · "
                + _n("{n} game", "{n} games", line.games)
                + f" ({percent(line.win_rate)})"
                for line in lines
            )
            if text:
                text += "\n\n" + _(ACROSS_GAMES)
        else:
            by = "net"
            lines = [BoardLine(r.rank, r.name, r.net or 0, r.games, r.wins, r.win_rate) for r in rows]
            text = "\n".join(
                f"`{line.rank:>3}.` **{shown(line.name)}** {net_text(line.net or 0)} · "
                + _n("{n} game", "{n} games", line.games)
                + " · "
                + _n("{n} win", "{n} wins", line.wins)
                + f" ({percent(line.win_rate)})"
                for line in lines
            )
        embed = discord.Embed(
            title=title, description=text or _("No finished games yet."), colour=discord.Colour.gold()
        )
        return await self._page(embed, subtitle, lines, by, net_text, self._pages(game, period, page, pages))

    @staticmethod
    async def _page(
        embed: discord.Embed,
        subtitle: str,
        lines: list[BoardLine],
        by: Ranking,
        net_text: Callable[[int], str],
        pages: discord.ui.View,
    ) -> dict:
        """A board's message: its embed with its picture (and the picture's words) and its page buttons."""
        title = embed.title or ""
        try:
            # In a picture worker (bot.workers), as the races' pictures: 86 ms a page on the event loop's
            # process kept a core busy when many asked at once.
            image: bytes | None = await workers.run(
                render_leaderboard, title, subtitle, lines, by=by, net_text=net_text
            )
        except workers.WorkerTimeout:  # the worker hung (replaced now): the board goes without its picture
            image = None
        embed.set_footer(text=subtitle)
        content: dict[str, Any] = {"embed": embed, "view": pages}
        if image is not None:
            embed.set_image(url="attachment://leaderboard.png")
            alt = alt_text(title, lines, by=by, net_text=net_text)
            content["file"] = discord.File(io.BytesIO(image), filename="leaderboard.png", description=alt)
        return content

    async def rating_board(self, guild_id: int, game: str, page: int) -> dict:
        """A page of the guild's rating board at ``game`` ("all": the rating across games)."""
        kind = None if game == "all" else game
        rows, total = await self.bot.storage.rating_board(guild_id, kind, page, PER_PAGE)
        pages = max(1, -(-total // PER_PAGE))
        which = _(GAME_TITLES[game]) if game in GAME_TITLES else _("all games")
        title = _("Ratings — {game}", game=which)
        subtitle = " · ".join(
            [
                _("page {page} of {pages}", page=page + 1, pages=pages),
                _n("{n} player", "{n} players", total),
            ]
        )
        lines = [
            BoardLine(page * PER_PAGE + i + 1, r.name, None, r.games, 0, 0.0, rating=r.shown, trend=r.trend)
            for i, r in enumerate(rows)
        ]
        text = "\n".join(
            f"`{line.rank:>3}.` **{shown(line.name)}** "
            + _n(
                "**{rating}** · {n} game · trend {trend}",
                "**{rating}** · {n} games · trend {trend}",
                line.games,
                rating=number(line.rating),
                trend=trend_text(line.trend),
            )
            for line in lines
        )
        if text:
            text += "\n\n" + _(RATED)
        embed = discord.Embed(
            title=title, description=text or _("No rated games yet."), colour=discord.Colour.gold()
        )
        return await self._page(
            embed, subtitle, lines, "rating", signed, self._pages(game, RATING_PAGES, page, pages)
        )

    async def spectators_board(self, guild_id: int, page: int) -> dict:
        """A page of the guild's spectators' board (``bot.storage.spectators``)."""
        rows, total = await self.bot.storage.spectators.board(guild_id, page, PER_PAGE)
        pages = max(1, -(-total // PER_PAGE))
        title = _("Leaderboard — spectator bets")
        subtitle = " · ".join(
            [_("page {page} of {pages}", page=page + 1, pages=pages), _n("{n} player", "{n} players", total)]
        )
        lines = [
            BoardLine(page * PER_PAGE + i + 1, r.name, r.net // 100, r.bets, 0, 0.0)
            for i, r in enumerate(rows)
        ]
        text = "\n".join(
            f"`{line.rank:>3}.` **{shown(line.name)}** {chips(line.net or 0)} · "
            + _n("{n} bet", "{n} bets", line.games)
            for line in lines
        )
        if text:
            text += "\n\n" + _(SPECTATORS_NOTE)
        embed = discord.Embed(
            title=title, description=text or _("No spectator bets settled yet."), colour=discord.Colour.gold()
        )
        return await self._page(
            embed, subtitle, lines, "net", chips, self._pages(SPECTATORS, "all", page, pages)
        )

    @staticmethod
    def _pages(game: str, period: str, page: int, pages: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(page_button(custom_ids.board_page(game, period, page - 1), _("◀ Previous"), page <= 0))
        view.add_item(
            page_button(custom_ids.board_page(game, period, page + 1), _("Next ▶"), page + 1 >= pages)
        )
        return view

    @app_commands.command(
        name="leaderboard", description="This server's top players, by winnings or by rating"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game (default: all)",
        period="Which period (default: all time)",
        by="Rank by winnings or by rating (default: winnings)",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name="All games", value="all")]
        + [app_commands.Choice(name=title, value=kind) for kind, title in GAME_TITLES.items()]
        + [app_commands.Choice(name="Spectator bets", value=SPECTATORS)],
        period=[app_commands.Choice(name=title, value=key) for key, title in PERIODS.items()],
        by=[app_commands.Choice(name=title, value=key) for key, title in RANKINGS.items()],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, game: str = "all", period: str = "all", by: str = "winnings"
    ) -> None:
        if game == SPECTATORS and (period != "all" or by != "winnings"):
            await interaction.response.send_message(_(SPECTATORS_ALL_TIME), ephemeral=True)
            return
        if by == "rating" and period != "all":
            # Ruling: a rating is all time (it is built game after game), so a period is refused
            # rather than quietly ignored.
            await interaction.response.send_message(_(RATINGS_HAVE_NO_PERIOD), ephemeral=True)
            return
        if period == "season" and await self._no_seasons(interaction.guild_id or 0):
            await interaction.response.send_message(_(NO_SEASONS), ephemeral=True)
            return
        await interaction.response.defer()
        try:
            with speaking(await self._public(interaction)):
                if game == SPECTATORS:
                    page = await self.spectators_board(interaction.guild_id or 0, 0)
                elif by == "rating":
                    page = await self.rating_board(interaction.guild_id or 0, game, 0)
                else:
                    page = await self.board(interaction.guild_id or 0, game, period, 0)
        except StorageError:
            await interaction.followup.send(_(STORAGE_DOWN), ephemeral=True)
            return
        except NoSeasons:
            await interaction.followup.send(_(NO_SEASONS), ephemeral=True)
            return
        await interaction.followup.send(**page)

    async def on_page(self, interaction: discord.Interaction, click: custom_ids.BoardPage) -> None:
        game, period, page = click.scope, click.period, click.page
        if (
            game not in (*GAME_TITLES, "all", SPECTATORS)
            or period not in (*PERIODS, RATING_PAGES)
            or page < 0
        ):
            await interaction.response.send_message(_("This button is not valid any more."), ephemeral=True)
            return
        await interaction.response.defer()
        try:
            with speaking(await self._public(interaction)):
                if game == SPECTATORS:
                    content = await self.spectators_board(interaction.guild_id or 0, page)
                elif period == RATING_PAGES:
                    content = await self.rating_board(interaction.guild_id or 0, game, page)
                else:
                    content = await self.board(interaction.guild_id or 0, game, period, page)
        except StorageError:
            await interaction.followup.send(_(STORAGE_DOWN), ephemeral=True)
            return
        except NoSeasons:
            await interaction.followup.send(_(NO_SEASONS), ephemeral=True)
            return
        file = content.pop("file", None)
        await interaction.edit_original_response(attachments=[file] if file else [], **content)

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose record (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user
        await interaction.response.defer()  # before the database: a slow read must not fail the command
        try:
            records = await self.bot.storage.player_stats(interaction.guild_id or 0, target.id)
            ratings = await self.bot.storage.player_ratings(interaction.guild_id or 0, target.id)
        except StorageError:
            await interaction.followup.send(_(STORAGE_DOWN), ephemeral=True)
            return
        with speaking(await self._public(interaction)):
            embed = record_embed(shown(target.display_name), records, ratings)
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="history", description="The last games in this server and who won")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # before the database, like /stats
        try:
            rows = await self.bot.storage.history(interaction.guild_id or 0, 10)
        except StorageError:
            await interaction.followup.send(_(STORAGE_DOWN), ephemeral=True)
            return
        with speaking(await self._public(interaction)):
            lines = [
                f"`#{row.game_id}` {game_title(row.kind)} · <t:{int(row.finished_at)}:R> · "
                + _n("{n} player", "{n} players", row.players)
                + " · "
                + _(
                    "won by **{winners}**",
                    winners=", ".join(shown(ai_named(w)) for w in row.winners) or _("nobody"),
                )
                for row in rows
            ]
            embed = discord.Embed(
                title=_("Recent games"),
                description="\n".join(lines) or _("No finished games yet."),
                colour=discord.Colour.blue(),
            )
        embed.timestamp = datetime.fromtimestamp(time.time(), UTC)
        await interaction.followup.send(embed=embed)


def game_title(kind: str) -> str:
    return _(GAME_TITLES[kind]) if kind in GAME_TITLES else kind


def rating_words(rating: RatingRow) -> str:
    """A rating with the games it rests on and its trend, as /stats writes it."""
    return _n(
        "Rating **{rating}** from {n} game · trend **{trend}**",
        "Rating **{rating}** from {n} games · trend **{trend}**",
        rating.games,
        rating=number(rating.shown),
        trend=trend_text(rating.trend),
    )


def record_embed(name: str, records: list, ratings: dict[str, RatingRow] | None = None) -> discord.Embed:
    """A player's record per game, in the current language, with their ratings (per game and across
    games) when they have any."""
    ratings = ratings or {}
    embed = discord.Embed(title=_("{name}'s record", name=name), colour=discord.Colour.teal())
    if not records:
        embed.description = _("No finished games in this server yet.")
    elif EVERY_GAME in ratings:
        embed.description = _("Across games: {rating}", rating=rating_words(ratings[EVERY_GAME]))
    for record in records:
        net_text = entry(record.kind).net_text if record.kind in CATALOG else signed
        if record.streak > 0:
            streak = _n("{n} win in a row", "{n} wins in a row", record.streak)
        elif record.streak < 0:
            streak = _n("{n} without a win", "{n} without a win", -record.streak)
        else:
            streak = "—"
        lines = [
            _(
                "Games **{games}** · wins **{wins}** ({rate})",
                games=record.games,
                wins=record.wins,
                rate=percent(record.wins / max(1, record.games)),
            ),
            _(
                "Total winnings **{total}** · best **{best}**",
                total=net_text(record.total_net),
                best=net_text(record.best_net),
            ),
            _("Current streak: {streak}", streak=streak),
        ]
        if record.kind in ratings:
            lines.insert(0, rating_words(ratings[record.kind]))
        if record.favourite_stake:
            bet = (
                entry(record.kind).stake_label(record.favourite_stake)
                if record.kind in CATALOG
                else record.favourite_stake
            )
            lines.append(_("Favourite bet: **{bet}**", bet=bet))
        if record.stakes_won or record.stakes_lost:
            lines.append(_("Bets: {won} won, {lost} lost", won=record.stakes_won, lost=record.stakes_lost))
        embed.add_field(name=game_title(record.kind), value="\n".join(lines), inline=False)
    return embed


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(StatsCog(bot))
