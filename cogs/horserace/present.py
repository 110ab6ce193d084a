"""The Horse Race Game in Discord: one live board message, a running roll log, announcements.

The board is a single message whose image is replaced after every roll (edits are paced like
messages), so a 50-roll race does not flood the channel. Scratch penalties appear in the running
log on that message; race setups (who holds which horses), wins with their jackpot split, and
the final standings are messages of their own. The board's **Cards held** button shows whoever
presses it, privately, the detailed picture of who holds which cards (the board has room only for
seat-number chips).
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections import deque
from typing import TYPE_CHECKING, Any

import discord

from bot import emojis, workers
from bot.games.base import Decision, Event
from bot.games.horserace.narration import narrate
from bot.games.horserace.render import alt_text, holdings_alt_text, render_holdings
from bot.games.horserace.replay import live_board, race_replay
from bot.games.horserace.settings import DEFAULT_BANK
from bot.games.horserace.spectate import race as open_race
from bot.games.horserace.symbols import emoji_name, unicode
from bot.games.odds import Odds, odds_for
from bot.games.replay_log import ReplayLog
from bot.i18n import N_, _, _n
from bot.i18n.formatting import money, number, signed
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter, TableView
from bot.tables.spectating import bet_asks

if TYPE_CHECKING:
    from bot.games.catalog import Entry

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
**Here:** the bot rolls for everyone at the table's pace (`rolls: auto`, the default); with `rolls: manual` \
you press **Roll** on your turn, and a player who doesn't roll before the deadline is rolled for, by the bot, \
for the rest of the game.""")
PHASES = {
    "scratch": N_("scratch round"),
    "race": N_("racing"),
    "between": N_("between races"),
    "over": N_("game over"),
}
"""The engine's phases as /horserace status names them."""
CARDS_TOPIC = re.compile(r"cards_(\d{1,4})")
"""The Cards held button's question, ``cards_<race>``: the race of the board it is on, so a press on
an older race's board (one whose button a client still shows) can say the race has moved on."""


class HorseRacePresenter(Presenter):
    def __init__(self, entry: Entry) -> None:
        super().__init__(entry)
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        """The running roll log shown on the board message (this race's last rolls and penalties)."""
        self.replay: ReplayLog | None = None
        """The running race's frames for its replay, until the race is won."""

    def lobby_fields(self, view: TableView) -> list[tuple[str, str]]:
        s = view.settings
        mode = s.get("end", "races")
        if mode == "broke":
            end = _("when someone goes broke")
        elif mode == "minutes":
            end = _n("after {n} minute", "after {n} minutes", int(s.get("minutes", 30)))
        else:
            end = _n("after {n} race", "after {n} races", int(s.get("races", 5)))
        rolls = _("auto") if s.get("rolls", "auto") == "auto" else _("manual")
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
            (_("Rolls"), _("{rolls} · {pace} s pace", rolls=rolls, pace=number(view.pace))),
        ]

    # --- what the channel sees ---------------------------------------------------

    async def prompt(self, view: TableView) -> tuple[str, Outgoing] | None:
        board = {**view.state, "names": view.picture_names}
        finished = board["phase"] in ("between", "over") and board["winner"] is not None
        if board["phase"] not in ("scratch", "race") and not finished:
            return None
        chances = await _odds(board)
        image = await workers.run(live_board, self._race_key(board["race"]), board, odds=chances)
        lines = list(self.log)
        turn = board["turn"]
        out = Outgoing(
            content="\n".join(lines) or _("The dice are ready."),
            image=image,
            alt=alt_text(board, odds=chances),
            # Who holds which cards, for anyone who asks (cards are dealt face up); not once the game
            # is over: the final standings say how it ended.
            asks=(() if board["phase"] == "over" else (_cards_ask(board["race"]),))
            + bet_asks(open_race(board) is None),  # spectators bet while it runs (bot.tables.spectating)
        )
        out.image_name = "board.png"
        # A Roll button only for a person who rolls by hand (not an AI, not rolls the table takes itself).
        decision = view.decision(turn) if turn in view.waiting else None
        if not finished and turn is not None and decision is not None:
            out.content += "\n" + _(
                "🎲 {who} to roll · deadline {deadline}",
                who=view.seats[turn].mention,
                deadline=view.deadline_mark(),
            )
            out.controls = Controls(turn, decision.kind, (Choice(0, _("Roll"), style="primary", emoji="🎲"),))
        return f"board:{board['race']}", out

    async def answer(self, view: TableView, seat: int | None, topic: str) -> Outgoing | None:
        """The board's Cards held button: the detailed picture of every seat's cards, for a player or
        a watcher alike (the cards are dealt face up). When there is nothing to draw (no cards dealt
        yet, none left, the game over) a sentence says why instead of an empty picture."""
        asked = CARDS_TOPIC.fullmatch(topic)
        if asked is None:
            return None
        state = view.state
        race, pressed = state["race"], int(asked.group(1))
        if state["phase"] == "over":
            return Outgoing(
                content=_("🏁 The game is over, so nobody holds cards any more: see the final standings.")
            )
        if not race:
            return Outgoing(
                content=_("🃏 No cards are dealt yet: they are dealt face up when race 1 starts.")
            )
        if not any(state["hands"]):
            return Outgoing(content=_("🃏 Nobody holds a card in race {race} any more.", race=race))
        board = {**state, "names": view.picture_names}
        image = await workers.run(render_holdings, board)
        return Outgoing(
            content=_cards_heading(state, pressed),
            image=image,
            image_name=f"cards-race{race}.png",
            alt=holdings_alt_text(board),
        )

    def private_prompt(self, view: TableView, decision: Decision) -> Outgoing:
        return self.hand(view)

    def hand(self, view: TableView) -> Outgoing:
        seat = view.audience
        assert seat is not None, "a hand is shown to its seat"
        state = view.state
        held = ", ".join(str(h) for h in sorted(state["hands"][seat])) or _("no cards (sitting out)")
        return Outgoing(
            content=_(
                "Your horses this race: {horses}. Cash: {cash}.", horses=held, cash=money(state["cash"][seat])
            )
        )

    async def announce(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        names = view.names  # as message text (the board image draws view.picture_names)
        out: list[Outgoing] = []
        log = self.log
        if any(e.kind in ("scratch", "scratch_reroll", "roll", "race_start", "race_won") for e in events):
            await self._keep_frame(view)
        for event in events:
            line = narrate(event, names)
            if event.kind in ("scratch", "scratch_reroll", "roll", "race_start"):
                penalty = event.kind == "roll" and event.data.get("scratched")
                log.append(f"**{line}**" if penalty else line)
            elif event.kind == "race_setup":
                log.clear()
                out.append(Outgoing(embed=self._setup_embed(event.data, names, line)))
            elif event.kind == "race_won":
                out.append(await self._win(self._win_embed(event.data, names, line)))
            elif event.kind == "game_over":
                out.append(Outgoing(embed=self._standings_embed(event.data, names)))
            elif event.kind == "auto_rolls":  # once per seat: in the channel, pinging the one it means
                who = view.seats[event.data["seat"]]
                line = narrate(event, [s.mention for s in view.seats])
                out.append(Outgoing(content=line, ping=(who.user_id,) if who.user_id is not None else ()))
            else:  # sit_out, broke, time_up
                out.append(Outgoing(content=line))
        return out

    async def _keep_frame(self, view: TableView) -> None:
        """The board after this roll, for the race's replay (this process's frames: after a restart the
        replay starts where the bot came back). Kept as a compact log (what changed per roll) until the
        race is won."""
        board = {**view.state, "names": view.picture_names}
        replay = self.replay
        if replay is None or replay.race != board["race"]:
            replay = self.replay = ReplayLog(board["race"])
        replay.add(board, await _odds(board))

    def _race_key(self, race: int) -> str | None:
        """The key the board of ``race`` is kept under for its replay (``live_board``), if it has one and
        the pictures are not behind (``workers.keeps_frames``)."""
        if not workers.keeps_frames():
            return None
        if self.replay is not None and self.replay.race == race:
            return self.replay.key
        return None  # (the winning board is drawn after its race's replay is on its way: drawn there)

    async def _win(self, embed: discord.Embed) -> Outgoing:
        """The win at once; its replay is drawn afterwards and added to it (``Outgoing.later``)."""
        replay, self.replay = self.replay, None
        if replay is None or not len(replay):
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

    async def snapshot(self, view: TableView) -> list[Outgoing]:
        if view.seq == 0:
            return []  # a new game: the first race's setup message says it all
        state = view.state
        hands = [
            f"**{seat.shown}**: {', '.join(str(h) for h in sorted(state['hands'][i])) or '—'} · "
            + money(state["cash"][i])
            for i, seat in enumerate(view.seats)
        ]
        if not state["race"]:
            race = _("about to start")
        elif state["races"]:
            race = _("Race {race} of {races}", race=state["race"], races=state["races"])
        else:
            race = _("Race {race}", race=state["race"])
        # The title as the catalog gives it, translated (the catalog marks it for translation).
        title = _(self.entry.title)
        text = _(
            "🏇 **{title}** · {race} · jackpot {jackpot}",
            title=title,
            race=race,
            jackpot=money(state["jackpot"]),
        )
        return [Outgoing(content=text + "\n" + "\n".join(hands))]

    def choice_label(self, view: TableView, decision: Decision, choice: Any) -> str:
        return _("🎲 Rolled.")

    def status_lines(self, view: TableView) -> list[str]:
        state = view.state
        turn = state["turn"]
        phase = _(PHASES[state["phase"]]) if state["phase"] in PHASES else state["phase"]
        lines = [
            _(
                "Race {race} · {phase} · jackpot {jackpot}",
                race=state["race"],
                phase=phase,
                jackpot=money(state["jackpot"]),
            )
        ]
        if turn is not None:
            lines.append(_("{who} to roll", who=view.seats[turn].shown))
        return lines

    def rules_text(self) -> str:
        return _(RULES)


def _cards_ask(race: int) -> tuple[str, str, str | None]:
    return (f"cards_{race}", _("Cards held"), "🃏")


def _cards_heading(state: dict[str, Any], pressed: int) -> str:
    """What the Cards held picture shows: this race's cards as they stand, or as they ended if it is
    won; said so when the button was on an older race's board."""
    race, winner = state["race"], state.get("winner")
    if pressed != race:
        if winner is not None:
            return _(
                "🃏 Race {pressed} is over. Who held which cards in race {race}, won by horse {horse}:",
                pressed=pressed,
                race=race,
                horse=winner,
            )
        return _(
            "🃏 Race {pressed} is over. Who holds which cards now, in race {race}:",
            pressed=pressed,
            race=race,
        )
    if winner is not None:
        return _("🃏 Who held which cards in race {race}, won by horse {horse}:", race=race, horse=winner)
    return _("🃏 Who holds which cards in race {race}:", race=race)


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
