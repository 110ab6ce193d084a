"""Seasons: each server's season end noticed, its recap posted once, its champion given the role.

A check runs when the bot is ready and then every ``bot.seasons.CHECK_SECONDS`` (``bot.seasons.now`` is
"now": tests move it). For each server this process serves (its shards' guilds) it makes the ratings' soft reset when a
season has started (``Storage.season_reset``), and posts the recap of the season that ended when one is
due (``Storage.due_recaps``): claimed in the database first, then posted, then marked posted
(``bot/storage/seasons.py`` says why that is exactly once across restarts and processes).

Rulings where the issue is silent (docs/seasons.md):

* **No recap channel set**: the recap goes to the channel of the season's last game (where the server
  plays; a game's thread is not used, it may be archived). A server that wants none sets ``season off``.
* **A channel that refuses the recap** (deleted, no Send Messages or Attach Files): the recap is given up
  and marked so (``note``), not retried every minute; other failures (Discord unreachable) leave the
  claim, which is taken again once it is stale and posted then.
* **The champion** is the person with the most wins across games in the season (ties: fewer games,
  then the lower user id), as the board across games ranks, never by adding currencies. The role is
  *moved*: taken from the last season's champion, given to this one (a polished bot keeps one holder).
  When it cannot (no Manage Roles, a role at or above the bot's own, the role gone), the recap says why.
* **Pings**: each game's top three and its biggest single win are mentioned, and the champion; the
  unluckiest is named, not pinged (nobody earned a ping for losing). Allowed mentions are exactly those
  users, never a role or @everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import seasons, workers
from bot.games.catalog import CATALOG, entry, titles
from bot.i18n import _, _n, speaking
from bot.i18n.formatting import signed
from bot.recap_image import Placing, RecapBlock, RecapPicture, alt_text, render_recap
from bot.season_races import Race, dramatic_replay
from bot.server_settings import CHAMPION_ROLE, RECAP_CHANNEL, SEASON
from bot.storage import StorageError
from bot.storage.seasons import Placed, SeasonRecap
from bot.tables.seats import shown

if TYPE_CHECKING:
    from bot.client import RaceBot

log = logging.getLogger(__name__)

GAME_TITLES = titles()
MOST_GAMES = 200  # the newest games a recap replays to find the most dramatic race


def recap_nonce(guild_id: int, season: str) -> str:
    """One nonce per server and season (Discord enforces it for a few minutes: a second post is refused)."""
    return "s" + hashlib.sha256(f"{guild_id}:{season}".encode()).hexdigest()[:24]


def day(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d")


class SeasonsCog(commands.Cog):
    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot
        self.interval = seasons.CHECK_SECONDS
        self.stale = seasons.STALE_CLAIM_SECONDS
        self.posted: list[tuple[int, str]] = []  # (guild, season) this process posted, for the tests
        self._task: asyncio.Task[None] | None = None
        self._busy = asyncio.Lock()  # held while a check runs: a shutdown waits for a recap being posted
        self._stopping = False
        # guild -> (the season, when) it was last found with nothing due: looked at again when the season
        # changes, or after a claim's time (another process's claim may have gone stale meanwhile)
        self._quiet: dict[int, tuple[str, float]] = {}

    async def stop(self) -> None:
        """Before the storage closes (``RaceBot.close``): let a recap being posted be posted and marked (a
        post left unmarked would be posted again once its claim went stale), then stop checking."""
        self._stopping = True
        async with self._busy:
            await self.cog_unload()

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self._task is None and seasons.CHECKING:
            self._task = asyncio.create_task(self._run(), name="seasons")

    async def _run(self) -> None:
        while not self._stopping:
            try:
                async with self._busy:
                    await self.check()
            except Exception:  # a season check never stops the bot; the next one tries again
                log.exception("The season check failed")
            await asyncio.sleep(self.interval)

    async def check(self) -> None:
        """One look at every server this process serves."""
        now = seasons.now()
        for guild in list(self.bot.guilds):
            if self._stopping:
                return
            try:
                await self.check_guild(guild, now)
            except StorageError as error:
                log.warning("Season check of server %s: %s", guild.id, error)
            except Exception:  # one server's failure (Discord unreachable...) never skips the others
                log.exception("Season check of server %s failed", guild.id)

    async def check_guild(self, guild: discord.Guild, now: float) -> None:
        settings = await self.bot.storage.get_server_settings(guild.id)
        kind = str(SEASON.read(settings))
        current = seasons.season_at(kind, now)
        quiet = self._quiet.get(guild.id)
        if current is None or (quiet and quiet[0] == current.key and now - quiet[1] < self.stale):
            return
        await self.bot.storage.season_reset(guild.id, now)
        due = await self.bot.storage.due_recaps(guild.id, now, self.stale)
        for season, since, until in due:
            if await self.bot.storage.claim_recap(guild.id, season, since, until, now, self.stale):
                await self.post(guild, season, since, until, settings)
        if not due:
            self._quiet[guild.id] = (current.key, now)

    async def post(
        self, guild: discord.Guild, season: str, since: float, until: float, settings: dict
    ) -> None:
        recap = await self.bot.storage.season_recap(guild.id, season, since, until)
        configured = str(RECAP_CHANNEL.read(settings))
        channel_id = int(configured) if configured else recap.last_channel
        channel = await self._channel(channel_id)
        if channel is None:
            log.warning("Server %s: no channel for the recap of %s; given up", guild.id, season)
            await self.bot.storage.mark_recap_posted(guild.id, season, None, None, "no channel")
            return
        with speaking(await self.bot.languages.refresh(guild.id)):
            role_note, champion = await self._champion(guild, recap, str(CHAMPION_ROLE.read(settings)))
            games = []
            for game_id, _kind in recap.finished_games[:MOST_GAMES]:
                stored = await self.bot.storage.load_game(game_id)
                if stored is not None:
                    games.append(stored)
            try:
                found = await workers.run(dramatic_replay, games, lane=workers.REPLAYS)
            except (workers.WorkerTimeout, workers.Busy):
                found = None
            picture = recap_picture(recap, found[0] if found else None)
            image = await workers.run(render_recap, picture)
            content, pinged = recap_words(recap, found[0] if found else None)
            embed = discord.Embed(
                title=picture.title, description=role_note or None, colour=discord.Colour.gold()
            )
            embed.set_image(url="attachment://recap.png")
            files = [discord.File(io.BytesIO(image), filename="recap.png", description=alt_text(picture))]
            if found:
                animation = found[1]
                files.append(
                    discord.File(
                        io.BytesIO(animation.data), filename=animation.filename, description=animation.alt
                    )
                )
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in pinged]
        )
        try:
            message = await channel.send(
                content=content,
                embed=embed,
                files=files,
                allowed_mentions=mentions,
                nonce=recap_nonce(guild.id, season),
            )
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("Server %s: the recap of %s was refused (%s); given up", guild.id, season, error)
            await self.bot.storage.mark_recap_posted(guild.id, season, None, champion, "refused")
            return
        await self.bot.storage.mark_recap_posted(guild.id, season, message.id, champion, role_note)
        self.posted.append((guild.id, season))

    async def _channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _champion(
        self, guild: discord.Guild, recap: SeasonRecap, role_id: str
    ) -> tuple[str, int | None]:
        """The role moved to the season's champion if set and allowed: (what the recap says, the champion
        who holds it now or None)."""
        champion = recap.champion
        if not role_id or champion is None:
            return "", None
        role = guild.get_role(int(role_id))
        me = guild.me
        if me is None and self.bot.user is not None:  # a guild fetched, not cached: ask for the bot's member
            with contextlib.suppress(discord.HTTPException):
                me = await guild.fetch_member(self.bot.user.id)
        problem = role_problem(role, me)
        if problem:
            return _("I couldn't give the champion role: {why}", why=problem), None
        assert role is not None
        previous = await self.bot.storage.last_champion(guild.id)
        try:
            if previous is not None and previous != champion.user_id:
                with contextlib.suppress(discord.NotFound):  # they left the server: nothing to take back
                    await self.bot.http.remove_role(
                        guild.id, previous, role.id, reason="A new season's champion"
                    )
            await self.bot.http.add_role(guild.id, champion.user_id, role.id, reason="The season's champion")
        except discord.NotFound:
            return _("I couldn't give the champion role: the champion has left the server."), None
        except discord.Forbidden:
            return _(
                "I couldn't give the champion role: Discord refused (check my **Manage Roles** permission and that my role is above it)."
            ), None
        who = _mention(champion)
        return _("🏆 {who} is the new {role}!", who=who, role=role.mention), champion.user_id


def role_problem(role: discord.Role | None, me: discord.Member | None) -> str:
    """Why the bot (``me``) cannot give ``role`` ("" if it can): the role gone, no Manage Roles, or a role
    not below the bot's own highest (Discord's rule), or one Discord manages (a bot's or a booster's)."""
    if role is None:
        return _("the role no longer exists.")
    if me is None or not me.guild_permissions.manage_roles:
        return _("I need the **Manage Roles** permission.")
    if role >= me.top_role:
        return _("my highest role must be above {role} in the server's roles.", role=role.mention)
    if role.managed:
        return _("{role} is managed by Discord or an integration.", role=role.mention)
    return ""


def _money(kind: str, net: int) -> str:
    return entry(kind).net_text(net) if kind in CATALOG else signed(net)


def _title(kind: str) -> str:
    return _(GAME_TITLES[kind]) if kind in GAME_TITLES else kind


def recap_picture(recap: SeasonRecap, race: Race | None) -> RecapPicture:
    blocks = []
    for game in recap.per_game[:3]:
        best = worst = ""
        if game.best_win:
            best = _(
                "Biggest win: {name} {money}",
                name=game.best_win.name,
                money=_money(game.kind, game.best_win.net),
            )
        if game.unluckiest:
            worst = _(
                "Most lost: {name} {money}",
                name=game.unluckiest.name,
                money=_money(game.kind, game.unluckiest.net),
            )
        blocks.append(
            RecapBlock(
                _title(game.kind),
                [Placing(p.name, _money(game.kind, p.net), p.net) for p in game.top],
                best,
                worst,
            )
        )
    games = sum(g.games for g in recap.per_game)
    subtitle = " · ".join(
        [
            f"{day(recap.since)} – {day(recap.until - 1)}",
            _n("{n} game", "{n} games", games),
            *([_("champion: {name}", name=recap.champion.name)] if recap.champion else []),
        ]
    )
    return RecapPicture(_("Season recap"), subtitle, blocks, _race_words(race))


def _race_words(race: Race | None) -> str:
    if race is None:
        return ""
    return _n(
        "Most dramatic race: {game} #{id}, race {race}: the lead changed {n} time",
        "Most dramatic race: {game} #{id}, race {race}: the lead changed {n} times",
        race.lead_changes,
        game=_title(race.kind),
        id=race.game_id,
        race=race.race,
    )


def _mention(placed: Placed) -> str:
    return f"<@{placed.user_id}>"


def recap_words(recap: SeasonRecap, race: Race | None) -> tuple[str, list[int]]:
    """The recap's message: the winners mentioned (and who they are), and the users it pings."""
    pinged: list[int] = []

    def ping(placed: Placed) -> str:
        if placed.user_id not in pinged:
            pinged.append(placed.user_id)
        return _mention(placed)

    lines = [
        _(
            "🏁 **The season is over** ({since} – {until}).",
            since=day(recap.since),
            until=day(recap.until - 1),
        )
    ]
    if recap.champion:
        lines.append(
            _n(
                "👑 Champion: {who}, {n} win.",
                "👑 Champion: {who}, {n} wins.",
                recap.champion.wins,
                who=ping(recap.champion),
            )
        )
    medals = ("🥇", "🥈", "🥉")
    for game in recap.per_game:
        podium = " ".join(f"{medals[i]} {ping(p)} {_money(game.kind, p.net)}" for i, p in enumerate(game.top))
        line = f"**{_title(game.kind)}**: {podium}"
        if game.best_win:
            line += " · " + _(
                "biggest win {who} {money}",
                who=ping(game.best_win),
                money=_money(game.kind, game.best_win.net),
            )
        if game.unluckiest:
            named = "**" + shown(game.unluckiest.name) + "**"  # named, not pinged
            line += " · " + _(
                "most lost {name} {money}", name=named, money=_money(game.kind, game.unluckiest.net)
            )
        lines.append(line)
    if race is not None:
        lines.append("🎬 " + _race_words(race) + " " + _("(the replay is below)"))
    return "\n".join(lines)[:2000], pinged


async def setup(bot: RaceBot) -> None:
    await bot.add_cog(SeasonsCog(bot))
