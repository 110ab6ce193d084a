"""The Horse Race Game in Discord: one live board message, a running roll log, announcements.

The board is a single message whose image is replaced after every roll (edits are paced like
messages), so a 50-roll race does not flood the channel. Scratch penalties appear in the running
log on that message; race setups (who holds which horses), wins with their jackpot split, and
the final standings are messages of their own.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from typing import TYPE_CHECKING, Any

import discord

from bot import emojis, workers
from bot.games.base import Decision, Event
from bot.games.horserace.narration import narrate
from bot.games.horserace.render import alt_text, render_board
from bot.games.horserace.replay import race_replay
from bot.games.horserace.settings import DEFAULT_BANK
from bot.games.horserace.symbols import emoji_name, unicode
from bot.games.odds import Odds, odds_for
from bot.games.replay_log import ReplayLog
from bot.i18n import N_, _, _n
from bot.i18n.formatting import money, number, signed
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter

if TYPE_CHECKING:
    from bot.tables.table import Table

LOG_LINES = 6
ODDS_WAIT = 0.2
"""Seconds a board waits for its odds. Exact odds take milliseconds (the first pre-race table of a board
about 10 ms); on a bot too busy to give them in time the picture goes out without them rather than wait,
and the computation carries on in its thread to fill the cache for the next roll."""
RULES = N_("""\
**Goal:** hold the card of the horse that reaches the Champion Circle first, and end with the most money.
**Each race:** everyone pays the entry fee into the jackpot; all cards are dealt face up (2 per horse with \
fewer than 7 players, otherwise 4).
**Scratch round:** players roll in turn; each new number is scratched into slots x1, x2, x3, x4, and every \
card of that horse is surrendered. A number already scratched passes the dice on. A player left with no cards \
pays 5 x the fee and sits out the race.
**The race:** players roll in turn. A scratched number costs the roller its slot's multiplier x the fee, paid \
into the jackpot; any other number moves that horse one step. The first horse home wins: its card holders split \
the jackpot per card (whole dollars, the rest stays for the next race).
**The end:** after the chosen number of races, when a player goes broke (that race is the last), or after the \
chosen minutes. Most money wins. Anyone who must pay more than they have pays what they have.
**Here:** press **Roll** on your turn (or let the bot roll for everyone with `rolls: auto`); a player who \
doesn't roll before the deadline is rolled for.""")
PHASES = {
    "scratch": N_("scratch round"),
    "race": N_("racing"),
    "between": N_("between races"),
    "over": N_("game over"),
}
"""The engine's phases as /horserace status names them."""


class HorseRacePresenter(Presenter):
    def lobby_fields(self, table: Table) -> list[tuple[str, str]]:
        s = table.settings
        mode = s.get("end", "races")
        if mode == "broke":
            end = _("when someone goes broke")
        elif mode == "minutes":
            end = _n("after {n} minute", "after {n} minutes", int(s.get("minutes", 30)))
        else:
            end = _n("after {n} race", "after {n} races", int(s.get("races", 5)))
        rolls = _("auto") if s.get("rolls", "manual") == "auto" else _("manual")
        return [
            (
                _("Bank / fee"),
                _(
                    "{bank} / {fee}",
                    bank=money(int(s.get("bank", DEFAULT_BANK))),
                    fee=money(int(s.get("fee", 1))),
                ),
            ),
            (_("Ends"), end),
            (_("Rolls"), _("{rolls} · {pace} s pace", rolls=rolls, pace=number(table.pace))),
        ]

    # --- what the channel sees ---------------------------------------------------

    def _names(self, table: Table) -> list[str]:
        return [seat.display_name for seat in table.seats]

    def _log(self, table: Table) -> deque[str]:
        return table.notes.setdefault("log", deque(maxlen=LOG_LINES))

    async def prompt(self, table: Table) -> tuple[str, Outgoing] | None:
        view = {**table.public_view(), "names": self._names(table)}
        finished = view["phase"] in ("between", "over") and view["winner"] is not None
        if view["phase"] not in ("scratch", "race") and not finished:
            return None
        chances = await _odds(view)
        image = await workers.run(render_board, view, odds=chances)
        lines = list(self._log(table))
        turn = view["turn"]
        out = Outgoing(
            content="\n".join(lines) or _("The dice are ready."),
            image=image,
            alt=alt_text(view, odds=chances),
        )
        out.image_name = "board.png"
        # A Roll button only for a person who rolls by hand (not an AI, not rolls the table takes itself).
        decision = next((d for d in table.human_pending() if d.player == turn), None)
        if not finished and turn is not None and decision is not None:
            out.content += "\n" + _(
                "🎲 {who} to roll · deadline {deadline}",
                who=table.seats[turn].mention(),
                deadline=table.deadline_mark(),
            )
            out.controls = Controls(turn, decision.kind, (Choice(0, _("Roll"), style="primary", emoji="🎲"),))
        return f"board:{view['race']}", out

    def private_prompt(self, table: Table, seat: int, decision: Decision) -> Outgoing:
        return self.hand(table, seat)

    def hand(self, table: Table, seat: int) -> Outgoing:
        view = table.seat_view(seat)
        held = ", ".join(str(h) for h in sorted(view["hands"][seat])) or _("no cards (sitting out)")
        return Outgoing(
            content=_(
                "Your horses this race: {horses}. Cash: {cash}.", horses=held, cash=money(view["cash"][seat])
            )
        )

    async def announce(self, table: Table, events: list[Event]) -> list[Outgoing]:
        names = [seat.shown for seat in table.seats]  # as message text (the board image draws _names)
        out: list[Outgoing] = []
        log = self._log(table)
        if any(e.kind in ("scratch", "scratch_reroll", "roll", "race_start", "race_won") for e in events):
            await self._keep_frame(table)
        for event in events:
            line = narrate(event, names)
            if event.kind in ("scratch", "scratch_reroll", "roll", "race_start"):
                penalty = event.kind == "roll" and event.data.get("scratched")
                log.append(f"**{line}**" if penalty else line)
            elif event.kind == "race_setup":
                log.clear()
                out.append(Outgoing(embed=self._setup_embed(event.data, names, line)))
            elif event.kind == "race_won":
                out.append(await self._win(table, self._win_embed(event.data, names, line)))
            elif event.kind == "game_over":
                out.append(Outgoing(embed=self._standings_embed(event.data, names)))
            else:  # sit_out, broke, time_up
                out.append(Outgoing(content=line))
        return out

    async def _keep_frame(self, table: Table) -> None:
        """The board after this roll, for the race's replay (this process's frames: after a restart the
        replay starts where the bot came back). Kept as a compact log (what changed per roll) until the
        race is won."""
        view = {**table.public_view(), "names": self._names(table)}
        replay = table.notes.get("replay")
        if not isinstance(replay, ReplayLog) or replay.race != view["race"]:
            replay = table.notes["replay"] = ReplayLog(view["race"])
        replay.add(view, await _odds(view))

    async def _win(self, table: Table, embed: discord.Embed) -> Outgoing:
        """The win at once; its replay is drawn afterwards and added to it (``Outgoing.later``)."""
        replay = table.notes.pop("replay", None)
        if not isinstance(replay, ReplayLog) or not len(replay):
            return Outgoing(embed=embed)
        return Outgoing(embed=embed, later=functools.partial(replay.drawn, race_replay))

    def _setup_embed(self, data: dict[str, Any], names: list[str], line: str) -> discord.Embed:
        embed = discord.Embed(
            title=_("🏇 Race {race}", race=data["race"]), description=line, colour=discord.Colour.dark_green()
        )
        hands = [
            f"**{names[int(seat)]}**: {' '.join(horse_text(h) for h in sorted(horses)) or '—'}"
            for seat, horses in data["hands"].items()
        ]
        embed.add_field(name=_("Cards (face up)"), value="\n".join(hands)[:1024], inline=False)
        return embed

    def _win_embed(self, data: dict[str, Any], names: list[str], line: str) -> discord.Embed:
        embed = discord.Embed(
            title=_("🏆 Horse {horse} wins race {race}!", horse=data["horse"], race=data["race"]),
            colour=discord.Colour.gold(),
        )
        embed.description = line
        payouts = [f"**{names[int(seat)]}** {signed(amount)}" for seat, amount in data["payouts"].items()]
        embed.add_field(
            name=_("Jackpot split"), value="\n".join(payouts) or _("Nobody held this horse."), inline=False
        )
        if data["remainder"]:
            embed.add_field(name=_("Carried over"), value=money(data["remainder"]))
        return embed

    def _standings_embed(self, data: dict[str, Any], names: list[str]) -> discord.Embed:
        lines = [
            f"{place_mark(row['place'])} **{names[row['seat']]}** {money(row['cash'])}"
            for row in data["standings"]
        ]
        winners = [names[row["seat"]] for row in data["standings"] if row["won"]]
        embed = discord.Embed(
            title=_n(
                "🏁 Final standings after {n} race", "🏁 Final standings after {n} races", int(data["races"])
            ),
            description="\n".join(lines),
            colour=discord.Colour.gold(),
        )
        embed.add_field(
            name=_("Winner") if len(winners) == 1 else _("Winners (tied)"), value=", ".join(winners)
        )
        return embed

    async def snapshot(self, table: Table) -> list[Outgoing]:
        if table.seq == 0:
            return []  # a new game: the first race's setup message says it all
        view = table.public_view()
        hands = [
            f"**{seat.shown}**: {', '.join(str(h) for h in sorted(view['hands'][i])) or '—'} · "
            + money(view["cash"][i])
            for i, seat in enumerate(table.seats)
        ]
        if not view["race"]:
            race = _("about to start")
        elif view["races"]:
            race = _("Race {race} of {races}", race=view["race"], races=view["races"])
        else:
            race = _("Race {race}", race=view["race"])
        # The title as the catalog gives it, translated (the catalog marks it for translation).
        title = _(self.entry.title)
        text = _(
            "🏇 **{title}** · {race} · jackpot {jackpot}",
            title=title,
            race=race,
            jackpot=money(view["jackpot"]),
        )
        return [Outgoing(content=text + "\n" + "\n".join(hands))]

    def choice_label(self, table: Table, seat: int, decision: Decision, choice: Any) -> str:
        return _("🎲 Rolled.")

    def status_lines(self, table: Table) -> list[str]:
        view = table.public_view()
        turn = view["turn"]
        phase = _(PHASES[view["phase"]]) if view["phase"] in PHASES else view["phase"]
        lines = [
            _(
                "Race {race} · {phase} · jackpot {jackpot}",
                race=view["race"],
                phase=phase,
                jackpot=money(view["jackpot"]),
            )
        ]
        if turn is not None:
            lines.append(_("{who} to roll", who=table.seats[turn].shown))
        return lines

    def rules_text(self) -> str:
        return _(RULES)


def horse_text(horse: int) -> str:
    """A horse as text: the board's numbered disc (an application emoji), else its keycap."""
    return emojis.text(emoji_name(horse), unicode(horse))


def place_mark(place: int) -> str:
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, f"`{place}.`")


async def _odds(view: dict[str, Any]) -> Odds | None:
    """The board's exact odds, or None if they are not ready within ``ODDS_WAIT`` (see there)."""
    work = asyncio.ensure_future(asyncio.to_thread(odds_for, "horserace", view))
    done, _pending = await asyncio.wait({work}, timeout=ODDS_WAIT)
    if not done:
        work.add_done_callback(
            lambda task: task.cancelled() or task.exception()
        )  # finishes in the background (fills the cache)
        return None
    return work.result()
