"""Hot Streak in Discord: the betting board, secret picks by DM, a track picture per flipped card.

Channel messages are built from the public view and public events; a seat's DM from that seat's
view and its own events (the table splits every batch before this presenter sees it).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from babel.numbers import format_decimal

from bot import workers
from bot.games.base import Decision, Event
from bot.games.hotstreak.narration import (
    bet_label,
    changes_track,
    names_and,
    out_words,
    podium_places,
    side_bet_text,
)
from bot.games.hotstreak.odds import expected_payouts
from bot.games.hotstreak.render import alt_text, holdings_alt_text, render_holdings, render_race
from bot.games.hotstreak.replay import live_picture, race_replay
from bot.games.odds import Odds
from bot.games.replay_log import ReplayLog
from bot.i18n import N_, _, _n, _p, current
from bot.i18n.formatting import money, number, ordinal, percent, signed
from bot.i18n.languages import babel_locale
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter, TableView
from bot.tables.spectating import bet_asks
from cogs.hotstreak.frames import odds_view
from cogs.hotstreak.words import (
    bet_short,
    card_label,
    cards_label,
    emoji,
    option_label,
    payout_line,
    place,
    race_line,
    slip_line,
    ticket_line,
)

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from bot.games.catalog import Entry

LIVE_LINES = 4
"""Lines of narration on a race's live message: the cards just flipped (the picture shows the rest)."""

ODDS_BUDGET_MS = 30
"""Simulation time per frame while the picture worker has nothing else waiting (a busy one gives each frame
the quick estimate: ``bot.workers.odds``). Ruling: 30 ms, 500 to 1,000 simulated races, about 0.6 points
off a 20,000-race simulation on average (issue 31 asks 1.5); it was 150, the whole 2,000 races (0.43
points, 40-70 ms), and at 200 games those frames took 16 s of the picture worker's 180, the time of
1,800 pictures. The Odds button still simulates 2,000."""

COLOUR = discord.Colour.from_rgb(232, 93, 4)
PHASES = {
    "draft": N_("betting"),
    "submit": N_("secret picks"),
    "double": N_("doubling"),
    "race": N_("racing"),
}
# One message per paragraph, so a translator handles each on its own.
RULES = (
    N_("**Goal:** have the most cash after 3 races. Everyone starts with {start}."),
    N_(
        "**Betting:** players take turns (snake order; the unluckiest player starts, the start moves one "
        "seat each race) picking a mascot ticket or a side-bet slip. A ticket pays if its mascot places 1st, "
        "2nd or 3rd; its *risky* side pays more for 1st and less for 2nd and 3rd. A side-bet slip pays if "
        "you guessed right whether the side bet happens; its *risky* side pays more but costs money when "
        "wrong. 2 bets each (3 with 2 players)."
    ),
    N_(
        "**Secret picks:** everyone adds a card from their hand (2 with 2 players) to the face-up race deck, "
        "in secret: I DM you your hand (or press **{my_hand}**)."
    ),
    N_(
        "**The race:** 3 cards are burned, then cards flip one at a time and move the mascots: numbers, "
        "stars, falls, turns, swerves, recoveries, and green cards that move everyone. Mascots knocked over "
        "twice, run off the back or swerved off the track are disqualified. When the deck runs dry the "
        "yellow bar folds to the next white line and everyone behind it is out. The race ends when 3 "
        "mascots have places."
    ),
    N_("**Race 3:** each player picks one bet to pay double (losses double too)."),
    N_("Payouts: you can never lose more than you have."),
)


ODDS_ON_THE_PICTURE = N_(
    "📊 The betting is over: each racer's chances are on the live race picture, updated after every card."
)
LATE_ODDS = {
    "submit": N_(
        "📊 The betting is over: the odds come back on the race picture once the secret cards are in "
        "and the race starts."
    ),
    "double": N_(
        "📊 The betting is over: the odds come back on the race picture once the doubles are chosen "
        "and the race starts."
    ),
    "race": ODDS_ON_THE_PICTURE,
    "over": N_("📊 The game is over: there are no odds left to show."),
}
"""What the Odds button of a betting message answers once the table has moved on."""


@dataclass(frozen=True)
class Holdings:
    """A race's bets and the cash before its payouts: the tickets on that race's frames."""

    race: int
    bets: list[list[dict[str, Any]]]
    cash: list[int]

    @classmethod
    def of(cls, state: dict[str, Any]) -> Holdings:
        return cls(state["race"], state["bets"], state["cash"])


class HotStreakPresenter(Presenter):
    def __init__(self, entry: Entry) -> None:
        super().__init__(entry)
        # The running race as this process saw it, card by card, for the replay with its results.
        self.replay: ReplayLog | None = None
        # The tickets on the running race's frames (set while a race runs).
        self.holdings: Holdings | None = None
        # The running race's last lines of narration, shown on its live message (``Outgoing.live``).
        self.lines: deque[str] = deque(maxlen=LIVE_LINES)
        # Prompts whose last version ends with the wait ("Waiting for", "Deadline"): see ``retired``.
        self._waits: set[str] = set()

    def lobby_fields(self, view: TableView) -> list[tuple[str, str]]:
        return [(_("Pace"), _("{seconds} s per card", seconds=number(view.pace)))]

    # --- prompts ------------------------------------------------------------------

    async def prompt(self, view: TableView) -> tuple[str, Outgoing] | None:
        if not view.deciders:
            return None  # a race (only the table flips) or the end: nobody to prompt, no view to read
        state = view.state
        phase, race = state["phase"], state["race"]
        # One prompt message per race, edited through its betting, secret picks and doubling: each wait
        # still notifies its person once (``bot.tables.prompts``), and the thread keeps one message.
        if phase == "draft":
            self._waits.discard(f"bets:{race}")  # the betting's version has no wait fields to take away
            return f"bets:{race}", self._draft_prompt(view, state)
        if phase in ("submit", "double"):
            waiting = sorted({view.seats[seat].shown for seat in view.waiting})
            if phase == "submit":
                what = _n(
                    "Everyone adds {n} card from their hand to the race deck, face down.",
                    "Everyone adds {n} cards from their hand to the race deck, face down.",
                    state["submit_count"],
                )
                title = _("Race {race} — secret picks", race=race)
            else:
                what = _(
                    "Race 3 pays double: everyone picks one of their bets to double (losses double too)."
                )
                title = _("Race 3 — pick your double")
            embed = discord.Embed(title=title, colour=COLOUR, description=what)
            embed.add_field(name=_("Waiting for"), value=", ".join(waiting) or _("nobody"), inline=False)
            embed.add_field(name=_("Deadline"), value=view.deadline_mark())
            embed.set_footer(text=_("I've sent you a DM. No DM? Press {my_hand}.", my_hand=_("My hand")))
            self._waits.add(f"bets:{race}")
            return f"bets:{race}", Outgoing(embed=embed, hand_button=True, asks=(self._tickets_ask(),))
        return None

    def retired(self, key: str, out: Outgoing) -> Outgoing | None:
        """The secret picks' or the doubling's prompt once the race starts: a record that no longer says
        whom it waits for, by when, nor where to pick (it read "Waiting for carol · in 17 seconds" while
        the race ran and after)."""
        if key not in self._waits or out.embed is None or len(out.embed.fields) < 2:
            return None
        self._waits.discard(key)
        embed = out.embed.copy()
        for _field in range(2):  # "Waiting for" and "Deadline", its last two
            embed.remove_field(len(embed.fields) - 1)
        embed.remove_footer()
        return Outgoing(content=out.content, embed=embed)

    def _draft_prompt(self, view: TableView, state: dict[str, Any]) -> Outgoing:
        turn = state["turn"]
        names = view.names
        info = state["mascot_info"]
        embed = discord.Embed(
            title=_("Race {race} of 3 — place your bets", race=state["race"]), colour=COLOUR
        )
        embed.description = _(
            "{player} to bet (pick {pick} of {picks}) · deadline {deadline}",
            player=view.seats[turn].mention,
            pick=state["draft_pick"] + 1,
            picks=len(state["draft_order"]),
            deadline=view.deadline_mark(),
        )
        embed.add_field(
            name=_("Tickets (pay by place)"),
            value="\n".join(ticket_line(m, info[m]["name"], stack) for m, stack in state["tickets"].items()),
            inline=False,
        )
        side = state["side_bet"]
        embed.add_field(
            name=_("Side bet: {text}", text=side_bet_text(side)),
            value=f"{slip_line('yes', side['slips']['yes'])}\n{slip_line('no', side['slips']['no'])}",
            inline=False,
        )
        taken = [
            f"**{names[seat]}**: {', '.join(bet_short(b) for b in bets)}"
            for seat, bets in enumerate(state["bets"])
            if bets
        ]
        if taken:
            embed.add_field(name=_("Bets so far"), value="\n".join(taken)[:1024], inline=False)
        embed.add_field(
            name=_("Face-up race cards"),
            value=", ".join(card_label(c) for c in state["face_up"])[:1024],
            inline=False,
        )
        cash = " · ".join(f"{names[i]} {money(c)}" for i, c in enumerate(state["cash"]))
        embed.set_footer(text=_("Cash: {cash}", cash=cash))
        out = Outgoing(
            embed=embed, hand_button=True, hand_row=3, asks=(("odds", _("Odds"), "📊"), self._tickets_ask())
        )
        decision = view.decision(turn, "bet")
        if decision is not None and not view.seats[turn].is_ai:
            mascots = list(info)  # the edition's mascots, in its order: two per row
            choices = []
            for index, option in enumerate(decision.options):
                parts = option.split(":")
                ticket = parts[0] == "ticket"
                choices.append(
                    Choice(
                        index,
                        option_label(option),
                        style="danger" if parts[2] == "risky" else "success",
                        emoji=emoji(parts[1]) if ticket else None,
                        row=min(mascots.index(parts[1]) // 2, 1) if ticket and parts[1] in mascots else 2,
                    )
                )
            out.controls = Controls(turn, "bet", tuple(choices))
        return out

    @staticmethod
    def _tickets_ask() -> tuple[str, str, str | None]:
        return ("tickets", _("Tickets"), "🎟️")

    async def answer(self, view: TableView, seat: int | None, topic: str) -> Outgoing | None:
        """The Odds button: each racer's chances and what every ticket and slip still on offer is worth.
        The Tickets button: the detailed picture of everyone's tickets and side bets (the race's frames
        show one line per player, readable at the size Discord shows them)."""
        state = view.state
        if topic == "tickets":
            return await self._tickets(view)
        if topic != "odds":
            return None
        if state["phase"] != "draft":  # a press on an older betting message: say where the odds are now
            return Outgoing(content=_(LATE_ODDS.get(state["phase"], ODDS_ON_THE_PICTURE)))
        chances = await _odds(state)
        if chances is None:
            return Outgoing(
                content=_("📊 The odds are still being worked out; press **Odds** again in a moment.")
            )
        return Outgoing(embed=odds_embed(state, chances))

    async def _tickets(self, view: TableView) -> Outgoing:
        state = view.state
        chances = await _odds(state) if state["phase"] == "draft" else None
        players = view.picture_names
        image = await workers.run(render_holdings, state, odds=chances, players=players)
        return Outgoing(
            content=_("🎟️ Everyone's tickets and side bets, race {race}.", race=state["race"]),
            image=image,
            image_name="tickets.png",
            alt=holdings_alt_text(state, odds=chances, players=players),
        )

    def private_prompt(self, view: TableView, decision: Decision) -> Outgoing:
        seat = _seat(view)
        state = view.state
        out = self.hand(view)
        if decision.kind == "submit":
            n = len(decision.options[0]) if decision.options else 1
            out.content = _n(
                "**Race {race}: pick {n} card to add to the race deck.** Nobody else sees it until it is flipped.",
                "**Race {race}: pick {n} cards to add to the race deck.** Nobody else sees them until they are flipped.",
                n,
                race=state["race"],
            )
            choices = [Choice(i, cards_label(option)) for i, option in enumerate(decision.options)]
            placeholder = _n("Choose your secret card", "Choose your secret cards", n)
        else:
            out.content = _("**Race 3: pick the bet to pay double** (a loss doubles too).")
            bets = state["bets"][seat]
            choices = [
                Choice(i, self._bet_label(state, bets[option])) for i, option in enumerate(decision.options)
            ]
            placeholder = _("Choose the bet to double")
        out.controls = Controls(seat, decision.kind, tuple(choices), menu=True, placeholder=placeholder)
        return out

    def hand(self, view: TableView) -> Outgoing:
        seat = _seat(view)
        state = view.state
        embed = discord.Embed(
            title=_("Your hand — Hot Streak game #{game}", game=view.game_id), colour=COLOUR
        )
        embed.description = "\n".join(card_label(card) for card in state["hand"]) or _("*No cards in hand.*")
        if state.get("my_submission"):
            embed.add_field(
                name=_("Your secret pick"), value=cards_label(state["my_submission"]), inline=False
            )
        bets = state["bets"][seat]
        if bets:
            embed.add_field(
                name=_("Your bets"),
                value="\n".join(self._bet_label(state, b) for b in bets)[:1024],
                inline=False,
            )
        embed.set_footer(
            text=_("Cash: {cash} · race {race} of 3", cash=money(state["cash"][seat]), race=state["race"])
        )
        return Outgoing(embed=embed)

    # --- announcements -------------------------------------------------------------

    async def announce(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        names = view.names
        state = view.state
        if state["phase"] == "race":
            self.holdings = Holdings.of(state)  # the tickets on the frames
        frames = [e for e in events if e.kind in ("card_flipped", "bar_folded")]
        ended = any(e.kind == "race_over" for e in events)
        out: list[Outgoing] = []
        reshuffled = False
        results: dict[str, Any] = {}
        for event in events:
            data = event.data
            if event.kind == "race_setup":
                self.lines.clear()  # the race's prompt shows its setup (face-up cards, side bet)
            elif event.kind == "reshuffled":
                reshuffled = True
            elif event.kind == "burned" and not reshuffled:
                # The race's live message: posted now with the track as it starts, then edited card
                # by card (``_frame``).
                self.lines.append(
                    _("🏁 **Race {race}** — 3… 2… 1… Three cards burned face down. Go!", race=data["race"])
                )
                out.append(await self._start_line(view, data["race"]))
            elif event.kind in ("card_flipped", "bar_folded"):
                index = frames.index(event)
                later = sum(1 for e in frames[index + 1 :] if e.kind == "card_flipped")
                last = ended and index == len(frames) - 1
                then = frames[index + 1] if index < len(frames) - 1 else None
                if then is not None and then.kind == "card_flipped" and changes_track(then):
                    # Ruling: a fold and the card flipped with it are one moment (the deck ran dry, the
                    # bar folded, the next card came, all in one step): one picture, of the card, under
                    # both lines. A picture of the fold alone was edited away at once, or merged away
                    # on a busy bot. The fold's frame stays in the replay (drawn there, without odds).
                    # (A card that changes nothing is a line under the fold's picture, as after any.)
                    self._logged(event)
                    continue
                out.append(await self._frame(view, event, ended=last, flips_after=later))
            elif event.kind == "doubled":
                # Said on the race's live message when it starts (the results show what was paid).
                bet = state["bets"][data["seat"]][data["bet"]]
                self.lines.append(
                    _(
                        "✖️2 **{player}** doubles {bet}.",
                        player=names[data["seat"]],
                        bet=self._bet_label(state, bet, the=True).rstrip("."),
                    )
                )
            elif event.kind in ("race_over", "payouts"):
                results[event.kind] = data
                if len(results) == 2:
                    out.append(self._results(view, results["race_over"], results["payouts"]))
                    results = {}
            elif event.kind == "game_over":
                out.append(Outgoing(embed=self._standings_embed(view, data)))
        return out

    def _logged(self, event: Event) -> tuple[dict[str, Any], ReplayLog]:
        """``event``'s frame (with the race's tickets) added to the race's replay, and its line to the
        race's narration."""
        frame = event.data["frame"]
        held = self.holdings
        if held is not None and held.race == frame["race"]:
            frame = {**frame, "bets": held.bets, "cash": held.cash}
        replay = self.replay
        if replay is None or replay.race != frame["race"]:
            replay = self.replay = ReplayLog(frame["race"])  # compact: what changed per card
        replay.add(frame)  # its odds once its picture is drawn (``_frame``'s ``ready``)
        heading = _("Card {n}", n=event.data.get("flip")) if event.kind == "card_flipped" else _("Deck dry")
        self.lines.append(f"**{heading}** · {race_line(event.kind, event.data)}")
        return frame, replay

    async def _frame(self, view: TableView, event: Event, *, ended: bool, flips_after: int) -> Outgoing:
        frame, replay = self._logged(event)
        index = len(replay) - 1
        content = "\n".join(self.lines)
        live = f"race:{frame['race']}"
        if not changes_track(event):
            # Ruling: a card that changes nothing on the track gets its line of narration, no new picture.
            return Outgoing(content=content, race_line=True, live=live, asks=bet_asks(ended))
        players = view.picture_names
        public = odds_view(view.state, frame, ended=ended, flips_after=flips_after)  # now: the state moves on

        async def with_odds(out: Outgoing) -> Outgoing:
            """The frame's odds and its picture's description, worked out once its picture is about to be
            drawn (``Outgoing.ready``): a frame merged away as stale, or sent as its lines alone, never
            pays for them (at 500 games the descriptions of frames nobody saw were a twentieth of the
            event loop). Odds that fail leave the picture and its description without them."""
            try:
                chances = await _odds(public)
            except Exception:
                log.warning("Could not work out the odds of a race frame; drawing it without", exc_info=True)
                chances = None
            replay.set_odds(index, chances)  # the replay shows the frame as it was shown live
            return dataclasses.replace(
                out,
                # Kept for the replay unless the picture worker is catching up on a burst of cards
                # (``workers.catching_up``): then the picture first, and the replay draws this frame (at
                # 200 games 0.96-0.97 of the cards got a picture where 0.91-0.96 did).
                render=functools.partial(
                    live_picture,
                    None if workers.catching_up() else replay.key,
                    frame,
                    odds=chances,
                    players=players,
                ),
                alt=alt_text(frame, odds=chances, players=players),
                odds_shown=chances is not None,
            )

        return Outgoing(
            live=live,
            content=content,
            # Drawn when sent, off the event loop, with its odds (``with_odds``); never drawn if merged
            # into the next as stale. (Its GIF block is kept where it is drawn, for the race's replay:
            # bot.games.kept_frames.)
            render=functools.partial(live_picture, None, frame, odds=None, players=players),
            ready=with_odds,  # and its description (alt text) with them
            image_name=f"race{frame['race']}-{event.data.get('flip', 'fold')}.png",
            asks=bet_asks(ended),  # spectators bet while the race runs (bot.tables.spectating)
        )

    def _results(self, view: TableView, over: dict[str, Any], payouts: dict[str, Any]) -> Outgoing:
        """The race's results at once; its replay (from the frames this process saw) is drawn off the
        event loop afterwards and added to the results message (``Outgoing.later``)."""
        embed = self._results_embed(view, over, payouts)
        replay, self.replay = self.replay, None
        if replay is None or replay.race != over["race"] or not len(replay):
            return Outgoing(embed=embed)
        return Outgoing(
            embed=embed, later=functools.partial(replay.drawn, race_replay, players=view.picture_names)
        )

    async def _start_line(self, view: TableView, race: int) -> Outgoing:
        """The race's live message as it starts: the track before the first card, the opening lines."""
        state = view.state
        held = self.holdings
        frame = {**state, "bets": held.bets, "cash": held.cash} if held is not None else state
        players = view.picture_names
        return Outgoing(
            live=f"race:{race}",
            content="\n".join(self.lines),
            render=functools.partial(render_race, frame, odds=None, players=players),
            image_name=f"race{race}-start.png",
            alt=alt_text(frame, odds=None, players=players),
            asks=bet_asks(False),
        )

    def _results_embed(self, view: TableView, over: dict[str, Any], payouts: dict[str, Any]) -> discord.Embed:
        names = view.names
        info = view.state["mascot_info"]
        embed = discord.Embed(
            title=_("🏆 Race {race} results", race=over["race"]), colour=discord.Colour.gold()
        )
        podium = [
            f"{ordinal(at)} "
            + names_and([f"{emoji(m)} **{info[m]['name']}**" for m in who])
            + (_out_mark(who) if over["status"][who[0]] == "out" else "")
            for at, who in podium_places(over["podium"], over["places"])
        ]
        side = over["side_bet"]
        embed.description = (
            "\n".join(podium)
            + "\n"
            + _(
                "Side bet — {text} **{answer}**",
                text=side_bet_text(side),
                answer=_("Yes") if side["happened"] else _("No"),
            )
        )
        for seat in payouts["seats"]:
            lines = [payout_line(line) for line in seat["lines"]] or [_("no bets")]
            capped = _(" *(paid all they had)*") if seat["capped"] else ""
            lines.append(f"**{signed(seat['change'])} → {money(seat['cash_after'])}**{capped}")
            embed.add_field(name=names[seat["seat"]], value="\n".join(lines)[:1024], inline=True)
        return embed

    def _standings_embed(self, view: TableView, data: dict[str, Any]) -> discord.Embed:
        names = view.names
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        lines = [
            f"{medals.get(row['place'], place(row['place']))} **{names[row['seat']]}** {money(row['cash'])}"
            for row in data["standings"]
        ]
        winners = _(" and ").join(names[w] for w in data["winners"])
        embed = discord.Embed(
            title=_("🏁 Final standings"), description="\n".join(lines), colour=discord.Colour.gold()
        )
        embed.add_field(
            name=_("Winner") if len(data["winners"]) == 1 else _("Winners (tied)"), value=f"🎉 {winners}"
        )
        embed.set_footer(
            text=_(
                "Results saved · /{leaderboard} · /{stats}",
                leaderboard=_p("command name", "leaderboard"),
                stats=_p("command name", "stats"),
            )
            if view.settled
            else _("⚠️ The results are not saved yet; I'll keep trying and say so here.")
        )
        return embed

    async def snapshot(self, view: TableView) -> list[Outgoing]:
        if view.seq == 0:
            return []  # a new game: the table announces its opening
        state = view.state
        if state["phase"] == "race":
            self.holdings = Holdings.of(state)
            players = view.picture_names
            chances = await _odds(state)
            image = await workers.run(render_race, state, odds=chances, players=players)
            alt = alt_text(state, odds=chances, players=players)
            return [Outgoing(content=_("Race {race} in progress.", race=state["race"]), image=image, alt=alt)]
        return []

    def choice_label(self, view: TableView, decision: Decision, choice: Any) -> str:
        seat = _seat(view)
        if decision.kind == "bet":
            state = view.state
            bets = state["bets"][seat]
            if not bets:
                return _("✅ Bet taken.")
            return _("✅ You took {bet}.", bet=self._bet_label(state, bets[-1], the=True).rstrip("."))
        if decision.kind == "submit":
            return _(
                "🤫 Your secret pick is in: {cards}. Nobody else sees it until it's flipped.",
                cards=cards_label(choice),
            )
        state = view.state
        return _(
            "✖️2 You doubled {bet}.",
            bet=self._bet_label(state, state["bets"][seat][choice], the=True).rstrip("."),
        )

    @staticmethod
    def _bet_label(state: dict[str, Any], bet: dict[str, Any], the: bool = False) -> str:
        """A bet in the reader's words (the engine's ``label`` is English); a slip carries the side bet.
        ``the``: with its article, inside a sentence."""
        names = {m: info["name"] for m, info in (state.get("mascot_info") or {}).items()}
        side = (
            side_bet_text(state["side_bet"]) if bet.get("kind") == "side" and state.get("side_bet") else None
        )
        return bet_label(bet, names, side, the=the)

    def status_lines(self, view: TableView) -> list[str]:
        state = view.state
        return [
            _(
                "Race {race} of 3 · {phase}",
                race=state["race"],
                phase=_(PHASES.get(state["phase"], state["phase"])),
            ),
            " · ".join(f"{s.shown} {money(c)}" for s, c in zip(view.seats, state["cash"], strict=True)),
        ]

    def rules_text(self) -> str:
        values = {"start": money(10), "my_hand": _("My hand")}
        return "\n".join(_(paragraph).format(**values) for paragraph in RULES)


def _out_mark(who: list[str]) -> str:
    """After mascots disqualified on the results, in italics; the alt text says the same words."""
    return f" *{out_words(who)}*"


def _seat(view: TableView) -> int:
    """The seat a seat's view is for (its hand, its DM, its confirmation)."""
    assert view.audience is not None, "a seat's view, not the channel's"
    return view.audience


async def _odds(view: dict[str, Any]) -> Odds | None:
    """The odds of a public view, simulated off the event loop within ``ODDS_BUDGET_MS``."""
    return await workers.odds("hotstreak", view, budget_ms=ODDS_BUDGET_MS)


def _whole_lines(lines: list[str], limit: int) -> list[str]:
    """``lines`` joined into as few texts of at most ``limit`` characters as fit, never cutting a line
    (a line longer than ``limit`` alone is cut)."""
    chunks: list[str] = []
    for line in lines:
        line = line[:limit]
        if chunks and len(chunks[-1]) + 1 + len(line) <= limit:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return chunks


def odds_embed(view: dict[str, Any], chances: Odds) -> discord.Embed:
    """The private answer to **Odds**: chances first, then each available bet's expected payout, best first."""
    info = view["mascot_info"]
    embed = discord.Embed(title=_("📊 Race {race} odds", race=view["race"]), colour=COLOUR)
    embed.description = "\n".join(
        _(
            "{emoji} **{name}** {win} to win · {place} to place",
            emoji=emoji(m),
            name=info[m]["name"],
            win=percent(chances.percent(m) / 100),
            place=percent(chances.percent(m, "place") / 100),
        )
        for m in sorted(info, key=lambda m: -chances.win.get(m, 0.0))
    )
    payouts = sorted(expected_payouts(view, chances), key=lambda row: -row["expected"])
    lines = []
    for row in payouts:
        kind, who, risk = row["option"].split(":")
        mark = emoji(who) if kind == "ticket" else "🎲"
        bet = {"kind": kind, "mascot": who, "answer": who, "risk": risk}
        label = bet_label(
            bet,
            {m: info[m]["name"] for m in info},
            side_bet_text(view["side_bet"]) if kind == "side" else None,
        )
        lines.append(
            _(
                "{mark} {bet} · pays {values} → **worth {worth}**",
                mark=mark,
                bet=label,
                values="/".join(money(v) for v in row["values"]),
                worth=signed_cents(row["expected"]),
            )
        )
    # Whole lines in fields of at most 1,024 characters (Discord's limit): with the mascots' application
    # emojis (about 35 characters each) ten bets need two fields, and a cut line would lose a bet.
    fields = _whole_lines(lines, 1024) or ["—"]
    for index, value in enumerate(fields):
        name = _("Expected payout of each bet on offer") if index == 0 else "\u200b"
        embed.add_field(name=name, value=value, inline=False)
    side = view.get("side_bet") or {}
    if "side_bet" in chances.events and side.get("text"):
        embed.add_field(
            name=_("Side bet"),
            value=_(
                "{text}: {chance} likely",
                text=side_bet_text(side),
                chance=percent(chances.events["side_bet"]),
            ),
            inline=False,
        )
    embed.set_footer(
        text=_("Exact odds, from what everyone can see (the secret cards are unknown).")
        if chances.exact
        else _n(
            "Odds from {n} simulated race, from what everyone can see (the secret cards are unknown).",
            "Odds from {n} simulated races, from what everyone can see (the secret cards are unknown).",
            chances.samples or 0,  # set whenever the odds are not exact
        )
    )
    return embed


def signed_cents(amount: float) -> str:
    """``+$1.25`` / ``-$0.50``; ``+$ 1,25`` in Portuguese."""
    text = _("${amount}", amount=_cents(abs(amount)))
    return f"-{text}" if amount < 0 else f"+{text}"


def _cents(value: float) -> str:
    return format_decimal(value, format="#,##0.00", locale=babel_locale(current()))
