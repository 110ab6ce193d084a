"""Spectator bets in Discord (issue 30): the **Bet** button on a race's live message, the private
steps of a bet, and the paying and telling when the race ends. The rules are ``bot.spectators``'s,
the SQL ``bot.storage.spectators``'s; nothing here names a game.

The steps, all private to the bettor (answers to their clicks, edited in place):

1. **Bet** (``ask:bet`` on the live message): a seated player is told they are seated; anyone else
   gets a menu of the racers with their prices now, and their chips.
2. A racer: the amount buttons (those over a cap or over their chips are disabled).
3. An amount: the quote, priced on the frame on show now, and **Confirm**. The price is fixed when
   they confirm, if the race is still on the frame it was quoted on; if it moved on, they are quoted
   again and asked again (``Quote.frame``: the game's step number). The quotes of a frame are kept in
   memory (a confirm after a restart, or of a forged price, is quoted again).
4. **Confirm**: the bet is stored (its stake taken from the wallet) before it is confirmed to them.

Spectator bets never touch the seated game: no lock of the table is taken, nothing is written to its
log, its pace is not waited on; the settling runs in tasks of its own after the table has published.
A race is settled when a view shows its winner (``bot.games.<kind>.spectate.winners``), after any
publish of its game and after a bet is stored (a bet stored as its race ended is settled then);
bets of a race never seen to end are refunded when the game ends. Paying is exactly once (the
database's settled mark, ``bot.storage.spectators``), telling once (``told`` claimed first): a DM,
or for the people whose DMs are closed, one line where the game plays that mentions only them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import spectators as rules
from bot import workers
from bot.discord_io.outgoing import Outgoing
from bot.discord_io.place import DMClosed
from bot.i18n import N_, _, _n, speaking
from bot.storage import StorageError
from bot.storage.spectators import REFUSED_CHIPS, REFUSED_PER_BET, Placed, Settled
from bot.tables import answers, custom_ids
from bot.tables.answers import reply
from bot.tables.components import button, select

if TYPE_CHECKING:
    from bot.tables.table import Table

log = logging.getLogger(__name__)

BET = "bet"
"""The topic of the **Bet** question button (``Outgoing.asks``) a presenter puts on a race's live message."""
QUOTE_BUDGET_MS = 150.0
"""Simulation time for a quote's odds (a frame's own budget: the odds a picture would show)."""
QUOTE_TIMEOUT = 10.0
"""How long a quote may wait for its odds after the click was acknowledged (a hung picture worker)."""

SEATED = N_("🎟️ You are seated in this game: spectator bets are for the people watching it.")
NO_RACE = N_("🎟️ No race is running now: bets open when a race starts and close when it ends.")
NO_ODDS = N_("🎟️ I can't work out the odds right now (I'm busy), so I took no bet. Try again in a moment.")
NO_PRICE = N_("🎟️ That racer can't be bet on now (out of the race, or too sure a thing). No bet was taken.")
RACE_OVER = N_("🎟️ That race is over, so no bet was taken.")


def bet_asks(ended: bool) -> tuple[tuple[str, str, str | None], ...]:
    """The **Bet** button for a race's live message (``Outgoing.asks``), none once the race has ended."""
    return () if ended else ((BET, _("Bet"), "🎟️"),)


class Spectating:
    """One per bot (the registry's): the quotes of the frames on show and the settling of each game."""

    def __init__(self, host: Any) -> None:
        self.host = host
        # game id -> (frame, race, quotes by racer): the quotes of the last frame quoted.
        self._quotes: dict[int, tuple[int, rules.Race, dict[str, rules.Quote]]] = {}
        # game id -> races with bets not settled yet; a game not here is looked up once (after a restart).
        self._open: dict[int, set[int]] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()

    # --- the clicks -------------------------------------------------------------------

    async def on_click(self, table: Table, interaction: discord.Interaction, click: Any) -> None:
        """The **Bet** button (an ``Ask`` of topic ``bet``) or a step of a bet (``custom_ids.Spectate``)."""
        if table.engine is None:
            await reply(interaction, answers.NOT_STARTED)
            return
        if table.seat_of(interaction.user.id) is not None:
            await reply(interaction, SEATED)
            return
        if interaction.guild_id is None or rules.rules_for(table.entry.kind) is None:
            await reply(interaction, answers.NOTHING_TO_SHOW)
            return
        if isinstance(click, custom_ids.Ask):
            await self._start(table, interaction)
        elif click.op == "pick":
            await self._pick(table, interaction, click)
        elif click.op == "amount":
            await self._amount(table, interaction, click)
        else:
            await self._confirm(table, interaction, click)

    async def _start(self, table: Table, interaction: discord.Interaction) -> None:
        if not await _acknowledged(interaction, thinking=True):
            return
        quoted = await self._quoted(table)
        if isinstance(quoted, str):
            await answers.followup(interaction, quoted)
            return
        _frame, race, quotes = quoted
        try:
            chips, on_race = await self.host.storage.spectators.wallet(
                table.guild_id, interaction.user.id, table.game_id, race.number
            )
        except StorageError:
            await answers.followup(interaction, answers.STORAGE_BUSY)
            return
        view = discord.ui.View(timeout=None)
        options = [
            discord.SelectOption(label=f"{race.names.get(r, r)} — {rules.price_text(q.price)}"[:100], value=r)
            for r, q in quotes.items()
        ]
        if not options:
            await answers.followup(interaction, NO_PRICE)
            return
        view.add_item(
            select(
                custom_ids.spectate_menu(table.game_id, race.number, token=table.token),
                options,
                _("Pick a racer"),
            )
        )
        with contextlib.suppress(discord.HTTPException):
            await interaction.followup.send(
                content=_wallet_line(race, chips, on_race), view=view, ephemeral=True
            )

    async def _pick(self, table: Table, interaction: discord.Interaction, click: custom_ids.Spectate) -> None:
        if not await _acknowledged(interaction):
            return
        quoted = await self._quoted(table)
        if isinstance(quoted, str) or click.racer is None:
            await _edit(interaction, _(quoted if isinstance(quoted, str) else answers.PICK_FIRST))
            return
        _frame, race, quotes = quoted
        quote = quotes.get(click.racer)
        if race.number != click.race or quote is None:
            await _edit(interaction, _(RACE_OVER if race.number != click.race else NO_PRICE))
            return
        try:
            chips, on_race = await self.host.storage.spectators.wallet(
                table.guild_id, interaction.user.id, table.game_id, race.number
            )
        except StorageError:
            await _edit(interaction, _(answers.STORAGE_BUSY))
            return
        room = min(rules.PER_BET, rules.PER_RACE - on_race, chips // rules.CENT)
        view = discord.ui.View(timeout=None)
        for amount in rules.AMOUNTS:
            view.add_item(
                button(
                    custom_ids.spectate_amount(
                        table.game_id, race.number, click.racer, amount, token=table.token
                    ),
                    _n("{count} chip", "{count} chips", amount, count=amount),
                    style="primary",
                    disabled=amount > room,
                )
            )
        text = "\n".join(
            (
                _wallet_line(race, chips, on_race),
                _(
                    "**{racer}** is at **{price}** now. How many chips?",
                    racer=race.names.get(click.racer, click.racer),
                    price=rules.price_text(quote.price),
                ),
            )
        )
        await _edit(interaction, text, view)

    async def _amount(
        self, table: Table, interaction: discord.Interaction, click: custom_ids.Spectate
    ) -> None:
        if await _acknowledged(interaction):
            await self._offer(table, interaction, click.race, click.racer, click.amount, moved=False)

    async def _offer(
        self,
        table: Table,
        interaction: discord.Interaction,
        race_no: int | None,
        racer: str | None,
        amount: int | None,
        *,
        moved: bool,
    ) -> None:
        """The quote for ``amount`` on ``racer`` on the frame on show now, and its **Confirm**."""
        quoted = await self._quoted(table)
        if isinstance(quoted, str):
            await _edit(interaction, _(quoted))
            return
        frame, race, quotes = quoted
        quote = quotes.get(racer or "")
        if (race_no is not None and race.number != race_no) or racer is None or amount is None:
            await _edit(interaction, _(RACE_OVER))
            return
        if quote is None:
            await _edit(interaction, _(NO_PRICE))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(
            button(
                custom_ids.spectate_confirm(
                    table.game_id, frame, racer, amount, quote.price, token=table.token
                ),
                _("Confirm"),
                style="success",
                emoji="✅",
            )
        )
        lines = [_("⏩ The race moved on since that price, so here is the new one.")] if moved else []
        lines.append(
            _(
                "🎟️ Bet **{stake}** on **{racer}** at **{price}**: it pays **{payout}** chips if {racer} "
                "wins race {race}. The price is fixed when you confirm.",
                stake=_n("{count} chip", "{count} chips", amount, count=amount),
                racer=race.names.get(racer, racer),
                price=rules.price_text(quote.price),
                payout=rules.chips_text(amount * quote.price),
                race=race.number,
            )
        )
        await _edit(interaction, "\n".join(lines), view)

    async def _confirm(
        self, table: Table, interaction: discord.Interaction, click: custom_ids.Spectate
    ) -> None:
        if not await _acknowledged(interaction):
            return
        cached = self._quotes.get(table.game_id)
        quote = cached[2].get(click.racer or "") if cached is not None else None
        if (
            cached is None
            or quote is None
            or cached[0] != click.frame
            or table.seq != click.frame  # the race moved on: a quote older than the frame on show
            or quote.price != click.price
            or rules.rules_for(table.entry.kind) is None
        ):
            await self._offer(table, interaction, None, click.racer, click.amount, moved=True)
            return
        # The quote is of the frame on show: taken now, before anything else can move the race.
        user = interaction.user
        try:
            placed = await self.host.storage.spectators.place(
                table.guild_id, user.id, _name(user), quote, click.amount or 0
            )
        except StorageError:
            await _edit(interaction, _(answers.SAVE_FAILED))
            return
        race = cached[1]
        if not isinstance(placed, Placed):
            await _edit(interaction, _refusal(placed.why, placed.chips, placed.on_race))
            return
        if table.game_id in self._open:  # else looked up in full when next settled (after a restart)
            self._open[table.game_id].add(quote.race)
        stake = click.amount or 0
        await _edit(
            interaction,
            _(
                "✅ Bet placed: **{stake}** on **{racer}** at **{price}** (pays **{payout}** chips if it "
                "wins). You have {chips} chips left; I'll tell you the result when race {race} ends.",
                stake=_n("{count} chip", "{count} chips", stake, count=stake),
                racer=race.names.get(quote.racer, quote.racer),
                price=rules.price_text(quote.price),
                payout=rules.chips_text(stake * quote.price),
                chips=rules.chips_text(placed.chips),
                race=quote.race,
            ),
        )
        self.after_publish(table)  # a race that ended while the bet was being stored is settled now

    async def _quoted(self, table: Table) -> tuple[int, rules.Race, dict[str, rules.Quote]] | str:
        """The quotes of the frame on show (from its odds, computed for the quote if this frame has
        none yet), or why there are none (a marked answer)."""
        spectate = rules.rules_for(table.entry.kind)
        frame = table.seq
        state = table.view().state
        race = spectate.race(state) if spectate is not None else None
        if race is None:
            return NO_RACE
        cached = self._quotes.get(table.game_id)
        if cached is not None and cached[0] == frame:
            return cached
        try:
            odds = await asyncio.wait_for(
                workers.odds(table.entry.kind, state, budget_ms=QUOTE_BUDGET_MS), QUOTE_TIMEOUT
            )
        except Exception:  # a failing or hung worker, or too slow: no quote, no bet
            log.warning("No odds for a spectator's quote in game %s", table.game_id, exc_info=True)
            return NO_ODDS
        if odds is None:
            return NO_ODDS
        quoted = (frame, race, rules.quotes(table.game_id, race, frame, odds.win))
        self._quotes[table.game_id] = quoted
        return quoted

    # --- settling ---------------------------------------------------------------------

    def opened(self, game_id: int) -> None:
        """A new game (a lobby opened here): no bets yet, nothing to look up."""
        self._open[game_id] = set()

    def resumed(self, table: Table) -> None:
        """A stored game this process drives now (after a restart, or taken over from another): its
        open bets looked up at once, aside, and any settled but untold told; after that the database
        is asked only when a race with bets ends and when the game ends with bets open."""
        self._open.pop(table.game_id, None)
        self._aside(self._settle(table, refund=False), table)

    def after_publish(self, table: Table) -> None:
        """The table published a batch (``Table.after_publish``): settle, aside, a race of its game that
        has ended with bets open. Never waited on by the table; no database for a game without bets."""
        known = self._open.get(table.game_id)
        if known is not None:
            if not known:
                return  # no open bets: nothing to look at (the usual case)
            spectate = rules.rules_for(table.entry.kind)
            if spectate is None or table.engine is None:
                return
            if not any(race in known for race in spectate.winners(table.view().state)):
                return  # none of their races has ended
        self._aside(self._settle(table, refund=False), table)

    def on_end(self, table: Table, why: str) -> None:
        """The table ended: what has finished is paid, the rest refunded (its race will not finish),
        unless another process drives the game now (``LOST``: it settles)."""
        from bot.tables.table import LOST

        self._quotes.pop(table.game_id, None)
        if why == LOST or self._open.get(table.game_id) == set():
            self._open.pop(table.game_id, None)  # another process settles; or no bets at all
            return
        self._aside(self._settle(table, refund=True), table)

    async def refund_closed(self) -> None:
        """At start, once the stored games are back: the open bets of games that are no longer open
        (closed or ended while no process drove them) are refunded. Ruling: their bettors are not
        told (their game and its channel may be long gone); their chips are back in their wallet."""
        try:
            refunded = await self.host.storage.spectators.refund_closed()
        except StorageError:
            log.warning("Spectator bets of closed games not refunded yet (storage)", exc_info=True)
            return
        if refunded:
            log.info("Refunded %d spectator bets of games closed while no process drove them", len(refunded))

    def _aside(self, work: Any, table: Table) -> None:
        task = asyncio.create_task(work, name=f"spectators-{table.game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, table: Table, *, refund: bool) -> None:
        store = self.host.storage.spectators
        game_id = table.game_id
        async with self._locks[game_id]:
            try:
                first = game_id not in self._open
                if first:
                    self._open[game_id] = await store.open_races(game_id)
                settled: list[Settled] = []
                spectate = rules.rules_for(table.entry.kind)
                if self._open[game_id] and spectate is not None and table.engine is not None:
                    results = spectate.winners(table.view().state)
                    if any(race in results for race in self._open[game_id]):
                        settled += await store.settle(game_id, results)
                        self._open[game_id] -= set(results)
                if refund:
                    settled += await store.refund(game_id)
                    self._open.pop(game_id, None)
                if first or refund:
                    # After a restart: bets settled but not told before it (told are claimed, so never twice).
                    told = {s.bet_id for s in settled}
                    settled += [s for s in await store.untold(game_id) if s.bet_id not in told]
            except StorageError:
                log.warning("Spectator bets of game %s not settled yet (storage)", game_id, exc_info=True)
                self._open.pop(game_id, None)  # looked up again next time
                return
            if settled:
                await self._tell(table, settled)
            if refund:
                self._locks.pop(game_id, None)

    async def _tell(self, table: Table, settled: list[Settled]) -> None:
        """Each bettor told once: claimed first, then a DM; those whose DMs are closed get one line
        where the game plays, mentioning only them."""
        try:
            claimed = await self.host.storage.spectators.claim_told([s.bet_id for s in settled])
        except StorageError:
            log.warning("Spectator bets of game %s not told (storage)", table.game_id, exc_info=True)
            return
        by_user: dict[int, list[Settled]] = defaultdict(list)
        for s in settled:
            if s.bet_id in claimed:
                by_user[s.user_id].append(s)
        closed: list[tuple[int, list[Settled]]] = []
        spectate = rules.rules_for(table.entry.kind)
        for user_id, bets in sorted(by_user.items()):
            language = self.host.languages.person(user_id, table.guild_id)
            with speaking(language):
                names = _names(spectate)
                text = "\n".join(
                    [
                        _(
                            "🎟️ Your spectator bets on {game} #{number}:",
                            game=_(table.entry.title),
                            number=table.game_id,
                        )
                    ]
                    + [_bet_line(s, names) for s in bets]
                    + [_("You have {chips} chips.", chips=rules.chips_text(bets[-1].chips))]
                )
                out = Outgoing(content=text)
            try:
                await table.place.dm(user_id, out)
            except DMClosed:
                closed.append((user_id, bets))
            except Exception:  # a DM that failed otherwise is lost, as any DM (logged)
                log.warning("A spectator's result in game %s was not sent", table.game_id, exc_info=True)
        if closed:
            with speaking(table.language):
                names = _names(spectate)
                lines = [_("🎟️ Spectator bets (for those whose DMs are closed):")] + [
                    f"<@{user_id}> " + " · ".join(_bet_line(s, names) for s in bets)
                    for user_id, bets in closed
                ]
                out = Outgoing(content="\n".join(lines), ping=tuple(u for u, _b in closed))
            with contextlib.suppress(Exception):
                await table.place.send(out)


def _names(spectate: Any) -> Callable[[str], str]:
    """A racer's name in the reader's language (its id, for a game without spectator bets)."""
    return spectate.name if spectate is not None else str


def _bet_line(s: Settled, names: Callable[[str], str]) -> str:
    racer = names(s.racer)
    stake = _n("{count} chip", "{count} chips", s.stake, count=s.stake)
    price = rules.price_text(s.price)
    if s.outcome == "won":
        return _(
            "✅ {stake} on {racer} at {price} in race {race}: won **{payout}** chips.",
            stake=stake,
            racer=racer,
            price=price,
            race=s.race,
            payout=rules.chips_text(s.payout),
        )
    if s.outcome == "refunded":
        return _(
            "↩️ {stake} on {racer} in race {race}: the race did not finish, your stake is back.",
            stake=stake,
            racer=racer,
            race=s.race,
        )
    return _(
        "❌ {stake} on {racer} at {price} in race {race}: lost.",
        stake=stake,
        racer=racer,
        price=price,
        race=s.race,
    )


def _wallet_line(race: rules.Race, chips: int, on_race: int) -> str:
    return _(
        "🎟️ Race {race}: you have **{chips}** chips (play money, topped up to {allowance} each day). "
        "At most {per_bet} a bet and {per_race} a race; you have {on_race} on this race.",
        race=race.number,
        chips=rules.chips_text(chips),
        allowance=rules.ALLOWANCE,
        per_bet=rules.PER_BET,
        per_race=rules.PER_RACE,
        on_race=on_race,
    )


def _refusal(why: str, chips: int, on_race: int) -> str:
    if why == REFUSED_PER_BET:
        return _("🎟️ At most {count} chips a bet: no bet was taken.", count=rules.PER_BET)
    if why == REFUSED_CHIPS:
        return _("🎟️ You have only {chips} chips: no bet was taken.", chips=rules.chips_text(chips))
    return _(
        "🎟️ At most {count} chips a race, and you have {on_race} on it: no bet was taken.",
        count=rules.PER_RACE,
        on_race=on_race,
    )


def _name(user: discord.abc.User) -> str:
    return str(getattr(user, "display_name", None) or user.name)[:100]


async def _acknowledged(interaction: discord.Interaction, *, thinking: bool = False) -> bool:
    """The click acknowledged at once (the odds may take longer than Discord's 3 s): a new private
    answer (``thinking``) or an update of the private message clicked. False: Discord gave up on it,
    and nothing is done (the bettor sees "This interaction failed" and may click again)."""
    try:
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    except discord.HTTPException:
        log.warning("A spectator's click came too late to answer; nothing done")
        return False
    return True


async def _edit(interaction: discord.Interaction, text: str, view: discord.ui.View | None = None) -> None:
    """The private message of the bet, edited into its next step (or its answer, with no buttons)."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.edit_original_response(content=text, view=view)
