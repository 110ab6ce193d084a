"""Downforce in Discord: secret auctions and bets by DM, the card on turn by DM, end spaces and wild
colours with buttons in the channel, and a track picture with one line of narration per card.

Channel messages are built from the public view and public events; a seat's DM from that seat's
view and its own events (the table splits every batch before this presenter sees it). Bids are
shown only when the auction reveals them together, bets only in the final scores.
"""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Any

import discord

from bot import workers
from bot.games.base import Decision, Event
from bot.games.downforce.cards import bid_value
from bot.games.downforce.narration import bet_name, both, colour_name, option_label
from bot.games.downforce.powers import power_asking, summary, title
from bot.games.downforce.render import alt_text, render_track
from bot.games.downforce.replay import race_replay
from bot.games.downforce.rules import RULES as GAME_RULES
from bot.games.downforce.track import FINISH
from bot.games.odds import Odds
from bot.games.replay_log import ReplayLog
from bot.i18n import N_, _, _n, _p
from bot.i18n.formatting import number
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter, TableView
from cogs.downforce.picture import marked_spaces, render_choice
from cogs.downforce.words import (
    CAR_EMOJI,
    car,
    card_label,
    line,
    money,
    ordinal,
    places,
    signed,
    where,
)

if TYPE_CHECKING:
    from bot.games.catalog import Entry

COLOUR = discord.Colour.from_rgb(214, 40, 40)
WAIT_FIELDS = 2  # "Waiting for" and "Deadline", the last fields of a prompt that waits for people
BETTING = {
    "standard": N_("standard (9/6/3, 6/4/2, 3/2/1)"),
    "odds": N_("odds (position when you bet x 3/2/1, 2/1/0, 1/0/0)"),
    "odds-winner-only": N_("odds, winner only (position x 3, 2, 1)"),
}
HERE = N_(
    """**Here:** your hand comes by DM (no DM? press **My hand**). Bids, the card you play and your bets \
are picked there, in secret; end spaces and wild colours are buttons in the channel for the player on \
turn. A player who misses the deadline is played by the AI."""
)
NO_DM = N_("I've sent you a DM. No DM? Press My hand.")
POWERS = {"off": N_("off"), "base": N_("the six base powers"), "all": N_("six of all twelve powers")}
PHASES = {
    "auction": N_("auctions"),
    "keep": N_("keeping powers"),
    "race": N_("racing"),
    "bet": N_("secret bets"),
    "over": N_("over"),
}
# Decisions shown as buttons in the channel, for the seat that takes them (not always the one on turn).
CHANNEL_KINDS = ("wild", "move", "power", "ignore", "defensive")
ODDS_BUDGET_MS = 150
"""Simulation time per picture: a busy bot shows odds from fewer races rather than hold a card up."""


class DownforcePresenter(Presenter):
    """One table's presenter; ``state`` below is ``view.state``, the engine's view for that audience."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(entry)
        # The running race's frames, for the replay posted with the final scores (compact: what
        # changed per card); dropped when the scores are posted.
        self.replay: ReplayLog | None = None
        # The end-space picture of the choice on show, by its prompt key: edits of that prompt reuse it.
        self.choice_pictures: dict[str, bytes] = {}

    def lobby_fields(self, view: TableView) -> list[tuple[str, str]]:
        s = view.settings
        # Ruling: track names are proper names, kept as the Portuguese rules keep them.
        track = str(s.get("track", "river-station")).replace("-", " ").title()
        betting, powers = str(s.get("betting", "standard")), str(s.get("powers", "off"))
        return [
            (_("Track"), track),
            (_("Betting"), _(BETTING[betting]) if betting in BETTING else betting),
            (_("Powers"), _(POWERS[powers]) if powers in POWERS else powers),
            (_("Pace"), _("{seconds} s between AI cards", seconds=number(view.pace))),
        ]

    # --- helpers ------------------------------------------------------------------

    def _drawn(self, view: TableView) -> dict[str, Any]:
        """The public state, with the players' names for the picture (a copy: ``view.state`` is kept)."""
        return {**view.state, "names": view.picture_names}

    async def _picture(self, view: TableView, name: str, *, frame: bool = False) -> Outgoing:
        """The track picture; from the start of the race on, with each car's chance to win. A ``frame``
        (the picture after a card) is also kept for the replay posted with the final scores."""
        drawn = self._drawn(view)
        chances: Odds | None = None
        if drawn["phase"] not in ("auction", "keep"):
            chances = await workers.odds("downforce", drawn, budget_ms=ODDS_BUDGET_MS)
        if frame:
            if self.replay is None:
                self.replay = ReplayLog()
            self.replay.add(drawn, chances)
        image = await workers.run(render_track, drawn, chances)
        return Outgoing(image=image, image_name=name, alt=alt_text(drawn, chances))

    async def _final(self, view: TableView, data: dict[str, Any]) -> Outgoing:
        """The final scores at once; the race's replay (from the frames this process saw: a game resumed
        after a restart replays from where it resumed) is drawn off the event loop afterwards and added
        to the scores message (``Outgoing.later``)."""
        embed = self._scores_embed(view, data)
        replay, self.replay = self.replay, None
        if replay is None or not len(replay):
            return Outgoing(embed=embed)
        return Outgoing(embed=embed, later=functools.partial(replay.drawn, race_replay))

    def _add_wait(self, embed: discord.Embed, view: TableView) -> None:
        """Whom a prompt waits for and by when: its last ``WAIT_FIELDS`` fields (see ``retired``)."""
        embed.add_field(name=_("Waiting for"), value=self._waiting(view), inline=False)
        embed.add_field(name=_("Deadline"), value=view.deadline_mark())

    def retired(self, key: str, out: Outgoing) -> Outgoing | None:
        """An auction, bet or keep prompt once its wait is over: a record that no longer says it waits
        for anyone (an auction sold read "Waiting for: Alice" until the end of the game)."""
        if out.embed is None or not key.startswith(("auction:", "bet:", "keep")):
            return None
        embed = out.embed.copy()
        for _field in range(WAIT_FIELDS):
            embed.remove_field(len(embed.fields) - 1)
        return Outgoing(content=out.content, embed=embed)

    def _waiting(self, view: TableView) -> str:
        """The people the table waits for, by name (as message text)."""
        shown = {view.seats[s].name: view.seats[s].shown for s in view.waiting}
        return ", ".join(shown[n] for n in sorted(shown)) or _("nobody")

    @staticmethod
    def _reader(view: TableView) -> int:
        """The seat a seat's view is for (the reader of a DM)."""
        if view.audience is None:
            raise ValueError("a seat's view was expected, not the channel's")
        return view.audience

    # --- the live prompt ---------------------------------------------------------------

    async def prompt(self, view: TableView) -> tuple[str, Outgoing] | None:
        state = view.state
        phase = state["phase"]
        if phase == "auction":
            return f"auction:{state['auction']['number']}", self._auction_prompt(view, state)
        if phase == "bet":
            return f"bet:{state['cards_played']}:{state['bet_line']}", self._bet_prompt(view, state)
        if phase == "keep":
            return "keep", self._keep_prompt(view)
        if phase != "race" or state["turn"] is None:
            return None
        choice = state["choice"]
        # Who decides: the player on turn, or the owner of a power or of a cunning car.
        decider = state["turn"] if choice is None or choice.get("seat") is None else choice["seat"]
        if view.seats[decider].is_ai:
            return None  # an AI plays at the table's pace; the picture after its card says it all
        if choice is None:
            return f"play:{state['cards_played']}", self._play_prompt(view, state)
        key = f"choice:{state['cards_played']}:{choice['kind']}:{decider}:{view.acted[decider]}"
        return key, await self._choice_prompt(view, state, key, decider)

    def _auction_prompt(self, view: TableView, state: dict[str, Any]) -> Outgoing:
        auction = state["auction"]
        colour = auction["colour"]
        slot = state["cars"][colour]["grid_slot"]
        embed = discord.Embed(
            title=_("Auction {number} of 6 — the {car} car", number=auction["number"], car=car(colour)),
            colour=COLOUR,
        )
        power = ((state.get("powers") or {}).get("by_car") or {}).get(colour)
        with_power = (
            " " + _("It comes with the **{power}** power: {does}.", power=title(power), does=summary(power))
            if power
            else ""
        )
        embed.description = (
            _(
                "Grid slot {slot}. Everyone bidding picks a card from their hand in secret: the bid is that "
                "card's **{colour}** speed (0 if it has none). Bids are revealed together; the highest wins "
                "the car and its Speed-8 card, and pays the bid. Your card comes back to your hand.",
                slot=slot,
                colour=colour_name(colour),
            )
            + with_power
        )
        names = view.names
        embed.add_field(
            name=_("Bidding"), value=", ".join(names[s] for s in auction["eligible"]), inline=False
        )
        sold = [f"{car(a['colour'])} → {names[a['seat']]} {money(a['price'])}" for a in state["auctions"]]
        if sold:
            embed.add_field(name=_("Sold"), value="\n".join(sold), inline=False)
        self._add_wait(embed, view)
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    def _bet_prompt(self, view: TableView, state: dict[str, Any]) -> Outgoing:
        embed = discord.Embed(
            title=_("🟡 Yellow line at row {row} — secret bets", row=state["bet_line"]), colour=COLOUR
        )
        embed.description = (
            _(
                "Everyone bets in secret on the car they think will win the race. Bets are revealed at the end."
            )
            + "\n"
            + places(state, view.names)
        )
        embed.add_field(name=_("Betting"), value=self._betting(state), inline=False)
        self._add_wait(embed, view)
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    def _keep_prompt(self, view: TableView) -> Outgoing:
        embed = discord.Embed(title=_("Powers — keep one"), colour=COLOUR)
        embed.description = _(
            "Players who won several power cards keep one of them, in secret; the kept powers are shown "
            "together when the race starts."
        )
        self._add_wait(embed, view)
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    def _play_prompt(self, view: TableView, state: dict[str, Any]) -> Outgoing:
        seat = view.seats[state["turn"]]
        left = state["hand_sizes"][state["turn"]]
        text = _n(
            "🏎️ Card {number}: {player} to play ({n} card in hand) · pick your card in DM or with **My hand** · "
            "deadline {deadline}",
            "🏎️ Card {number}: {player} to play ({n} cards in hand) · pick your card in DM or with **My hand** · "
            "deadline {deadline}",
            left,
            number=state["cards_played"] + 1,
            player=seat.mention,
            deadline=view.deadline_mark(),
        )
        return Outgoing(content=text, hand_button=True)

    async def _choice_prompt(
        self, view: TableView, state: dict[str, Any], key: str, decider: int
    ) -> Outgoing:
        """The channel's prompt for a choice taken in public; built from the channel's view alone."""
        turn = decider
        seat = view.seats[state["turn"]]
        choice = state["choice"]
        card = state["card_in_play"]
        done = [line({"kind": "car_moved", "data": m}, view.names) for m in card["moves"]]
        head = _("🃏 {player} plays {card}", player=seat.mention, card=card_label(card))
        if done:
            head += _(" · so far: {moves}", moves=" ".join(done))
        decision = view.decision(turn, choice["kind"])
        out = Outgoing()
        asked = view.seats[turn]
        if choice["kind"] in ("power", "ignore", "defensive"):
            power = choice.get("power") or power_asking(choice["kind"])
            out.content = (
                head
                + "\n"
                + _(
                    "⚡ {player}, your **{power}** power: {does}. Deadline {deadline} (then the AI picks the "
                    "better option).",
                    player=asked.mention,
                    power=title(power),
                    does=summary(power),
                    deadline=view.deadline_mark(),
                )
            )
            if decision is not None:
                # The labels read the choice on show, which the public state holds as the seat's does.
                buttons = [
                    Choice(
                        i,
                        option_label(state, choice["kind"], option),
                        style="secondary" if option in ("no", "none") else "primary",
                        emoji=CAR_EMOJI.get(option),
                    )
                    for i, option in enumerate(decision.options)
                ]
                out.controls = Controls(turn, choice["kind"], tuple(buttons))
            return out
        if choice["kind"] == "wild":
            out.content = (
                head
                + "\n"
                + _(
                    "Name a colour for the wild {speed} · deadline {deadline}",
                    speed=card["lines"][choice["line"]][1],
                    deadline=view.deadline_mark(),
                )
            )
            if decision is not None:
                buttons = [
                    Choice(i, colour_name(option), emoji=CAR_EMOJI.get(option))
                    for i, option in enumerate(decision.options)
                ]
                out.controls = Controls(turn, "wild", tuple(buttons))
            return out
        colour = choice["car"]
        values = {
            "car": car(colour),
            "speed": choice.get("speed", 1),
            "now": where(state, colour),
            "deadline": view.deadline_mark(),
        }
        if choice.get("power"):
            values["speed"] = _(
                "{speed} ({power} power)", speed=values["speed"], power=title(choice["power"])
            )
        if turn != state["turn"]:
            question = _(
                "{player}, where does the {car} car end its {speed}? ({now} now) · deadline {deadline}",
                player=asked.mention,
                **values,
            )
        else:
            question = _(
                "Where does the {car} car end its {speed}? ({now} now) · deadline {deadline}", **values
            )
        out.content = head + "\n" + question
        cache = self.choice_pictures
        if key not in cache:
            cache.clear()
            cache[key] = await asyncio.to_thread(render_choice, self._drawn(view), choice["options"])
        out.image, out.image_name = cache[key], "choice.png"
        out.alt = alt_text(self._drawn(view))
        if decision is not None:
            spaces = {s["id"] for s in state["track"]["spaces"]}
            letters = marked_spaces(list(decision.options), spaces)
            buttons = []
            for i, option in enumerate(decision.options):
                label = option_label(state, "move", option)
                if option == FINISH:
                    buttons.append(Choice(i, label, style="success", emoji="🏁"))
                else:
                    path = (choice.get("paths") or {}).get(option)
                    dead_end = path is not None and len(path) < choice.get("speed", 0)
                    style = "danger" if dead_end else "primary"
                    buttons.append(Choice(i, f"{letters.get(option, '?')} · {label}", style=style))
            out.controls = Controls(
                turn, "move", tuple(buttons), menu=len(buttons) > 20, placeholder=_("End space")
            )
        return out

    # --- private prompts -------------------------------------------------------------

    def private_prompt(self, view: TableView, decision: Decision) -> Outgoing:
        seat, state = self._reader(view), view.state
        out = self.hand(view)
        if decision.kind == "bid":
            colour = state["auction"]["colour"]
            out.content = _(
                "**Auction {number} of 6: the {car} car** (grid slot {slot}). Pick the card you bid: your bid "
                "is its {colour} speed. Nobody sees it until the bids are revealed together.",
                number=state["auction"]["number"],
                car=car(colour),
                slot=state["cars"][colour]["grid_slot"],
                colour=colour_name(colour),
            )
            cards = {c["id"]: c for c in state["hand"]}
            bids = [
                (bid_value(tuple(map(tuple, cards[o]["lines"])), colour) if o in cards else 0, i, o)
                for i, o in enumerate(decision.options)
            ]
            bids.sort(key=lambda b: -b[0])  # the strongest bid first, as the menu lists them
            choices = [Choice(i, option_label(state, "bid", option)[:100]) for _bid, i, option in bids]
            out.controls = Controls(
                seat, "bid", tuple(choices), menu=True, placeholder=_("Choose your bid card")
            )
        elif decision.kind == "keep":
            out.content = _(
                "**You won several power cards: keep one.** It works for every car you own. Nobody sees "
                "your choice until the race starts."
            )
            choices = [
                Choice(i, option_label(state, "keep", option)[:80], style="primary")
                for i, option in enumerate(decision.options)
            ]
            out.controls = Controls(seat, "keep", tuple(choices))
        elif decision.kind == "play":
            out.content = (
                _(
                    "**Your turn: card {number}.** Pick the card to play; you move every car on it, in order.",
                    number=state["cards_played"] + 1,
                )
                + "\n"
                + places(state, view.names)
            )
            cards = {c["id"]: c for c in state["hand"]}
            choices = [Choice(i, card_label(cards[option])) for i, option in enumerate(decision.options)]
            out.controls = Controls(
                seat, "play", tuple(choices), menu=True, placeholder=_("Choose your card")
            )
        else:
            number = len(state["my_bets"])
            out.content = _(
                "**Your secret {bet}** (yellow line at row {row}): which car will win the race? Nobody "
                "sees it until the end.",
                bet=bet_name(number),
                row=state["bet_line"],
            )
            choices = [
                Choice(
                    i,
                    _(
                        "{colour} · {place} now",
                        colour=colour_name(option),
                        place=ordinal(state["cars"][option]["position"]),
                    ),
                    emoji=CAR_EMOJI.get(option),
                    style="primary",
                )
                for i, option in enumerate(decision.options)
            ]
            out.controls = Controls(seat, "bet", tuple(choices))
        return out

    def hand(self, view: TableView) -> Outgoing:
        seat, state = self._reader(view), view.state
        embed = discord.Embed(title=_("Your hand — Downforce game #{game}", game=view.game_id), colour=COLOUR)
        embed.description = "\n".join(card_label(c) for c in state["hand"]) or _("*No cards left.*")
        mine = [c for c, info in state["cars"].items() if info["owner"] == seat]
        if mine:
            cars = [
                _(
                    "{car} (paid {price}, {where})",
                    car=car(c),
                    price=money(state["cars"][c]["price"]),
                    where=where(state, c),
                )
                for c in mine
            ]
            embed.add_field(name=_("Your cars"), value="\n".join(cars), inline=False)
        powers = state.get("powers")
        if powers:
            won = powers["won"].get(str(seat), [])
            kept = state.get("my_power")
            if kept:
                embed.add_field(name=_("Your power"), value=f"{title(kept)}: {summary(kept)}", inline=False)
            elif won:
                text = "\n".join(f"{title(p)}: {summary(p)}" for p in won)
                embed.add_field(name=_("Your power cards"), value=text[:1024], inline=False)
        if state.get("my_bid"):
            embed.add_field(name=_("Your secret bid"), value=card_label(state["my_bid"]), inline=False)
        if state["my_bets"]:
            bets = [_("{bet}: {car}", bet=bet_name(b["index"]), car=car(b["car"])) for b in state["my_bets"]]
            embed.add_field(name=_("Your secret bets"), value="\n".join(bets), inline=False)
        embed.set_footer(text=_("Spent at auction: {money}", money=money(state["spent"][seat])))
        return Outgoing(embed=embed)

    def tell(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        """The dealt hand by DM (bids and bets are confirmed to whoever makes them)."""
        out = []
        for event in events:
            if event.kind == "dealt":
                hand = self.hand(view)
                hand.content = _n(
                    "🃏 Downforce game #{game}: you were dealt {n} card.",
                    "🃏 Downforce game #{game}: you were dealt {n} cards.",
                    len(event.data["cards"]),
                    game=view.game_id,
                )
                out.append(hand)
        return out

    # --- announcements ------------------------------------------------------------------

    async def announce(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        names = view.names
        kinds = {e.kind for e in events}
        out: list[Outgoing] = []
        for event in events:
            data = event.data
            if event.kind == "grid":
                out.append(await self._opening(view, events))
            elif event.kind == "auction_won":
                out.append(Outgoing(content="🔨 " + line(event, names)))
            elif event.kind == "race_start":
                out.append(await self._race_start(view, event))
            elif event.kind == "card_played" and "card_resolved" not in kinds:
                out.append(Outgoing(content="🃏 " + line(event, names)))
            elif event.kind == "card_resolved":
                frame = await self._picture(view, f"card{data['number']}.png", frame=True)
                frame.content = _(
                    "**Card {number}** · {what}", number=data["number"], what=line(event, names)
                )
                out.append(frame)
            elif event.kind in ("power_used", "animal_moved", "powers_kept", "keep_open"):
                out.append(Outgoing(content="⚡ " + line(event, names)))
            elif event.kind == "race_over":
                out.append(Outgoing(content="🏁 " + line(event, names)))
            elif event.kind == "game_over":
                out.append(await self._final(view, data))
        return out

    async def _opening(self, view: TableView, events: list[Event]) -> Outgoing:
        state = view.state
        embed = discord.Embed(title=f"🏁 Downforce — {state['track']['title']}", colour=COLOUR)
        grid = " ".join(f"`{i + 1}` {car(c)}" for i, c in enumerate(state["grid"]))
        order = ", ".join(car(c) for c in state["auction_order"])
        each = state["hand_sizes"][0] if state["hand_sizes"] else 0
        left_out = next((e.data["left_out"] for e in events if e.kind == "auction_order"), 0)
        embed.description = (
            _("**The grid, pole first:** {grid}", grid=grid)
            + "\n"
            + _("**Auction order:** {order}", order=order)
            + "\n"
            + _n(
                "Each player holds {n} card (sent by DM); {out} are out of the race.",
                "Each player holds {n} cards (sent by DM); {out} are out of the race.",
                each,
                out=number(left_out),
            )
            + " "
            + _("Betting: {betting}.", betting=self._betting(state))
        )
        embed.add_field(name=_("Players"), value=", ".join(view.names), inline=False)
        picture = await self._picture(view, "grid.png")
        embed.set_image(url="attachment://grid.png")
        picture.embed = embed
        return picture

    async def _race_start(self, view: TableView, event: Event) -> Outgoing:
        names = view.names
        embed = discord.Embed(title=_("🏎️ The race starts"), colour=COLOUR)
        embed.description = line(event, names) + "\n" + places(view.state, names)
        spent = [f"{names[i]} {money(v)}" for i, v in enumerate(event.data["spent"])]
        embed.add_field(name=_("Spent at auction"), value=" · ".join(spent), inline=False)
        picture = await self._picture(view, "start.png")
        embed.set_image(url="attachment://start.png")
        picture.embed = embed
        return picture

    def _scores_embed(self, view: TableView, data: dict[str, Any]) -> discord.Embed:
        names = view.names
        winners = both([names[w] for w in data["winners"]])
        embed = discord.Embed(title=_("🏆 Final scores"), colour=discord.Colour.gold())
        ranking = sorted(data["scores"], key=lambda s: (s["place"], s["seat"]))
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        embed.description = "\n".join(
            f"{medals.get(s['place']) or ordinal(s['place'])} **{names[s['seat']]}** {money(s['money'])}"
            for s in ranking
        )
        for score in ranking:
            rows = [f"{car(c['car'])} {ordinal(c['place'])}: {signed(c['prize'])}" for c in score["cars"]]
            rows += [
                _(
                    "{bet} {car} (row {row}) → {finish}: {paid}",
                    bet=bet_name(b["index"]),
                    car=car(b["car"]),
                    row=b["line"],
                    finish=ordinal(b["place"]),
                    paid=signed(b["paid"]),
                )
                for b in score["bets"]
            ]
            rows.append(
                _(
                    "prizes {prizes} + bets {bets} − spent {spent} = **{money}**",
                    prizes=money(score["prizes"]),
                    bets=money(score["bet_winnings"]),
                    spent=money(score["spent"]),
                    money=money(score["money"]),
                )
            )
            embed.add_field(
                name=view.picture_names[score["seat"]][:256], value="\n".join(rows)[:1024], inline=False
            )
        verb = _("Winner") if len(data["winners"]) == 1 else _("Winners (tied)")
        embed.add_field(name=verb, value=f"🎉 {winners}", inline=False)
        embed.set_footer(
            text=_(
                "Bets revealed · results saved · /{leaderboard} · /{stats}",
                leaderboard=_p("command name", "leaderboard"),
                stats=_p("command name", "stats"),
            )
        )
        return embed

    async def snapshot(self, view: TableView) -> list[Outgoing]:
        if view.seq == 0:
            return []  # a new game: the opening announces the grid
        state = view.state
        if state["phase"] == "over":
            return []
        picture = await self._picture(view, "resumed.png")
        picture.content = _n(
            "🏎️ Downforce game #{game}: {n} card played so far.",
            "🏎️ Downforce game #{game}: {n} cards played so far.",
            state["cards_played"],
            game=view.game_id,
        )
        return [picture]

    def choice_label(self, view: TableView, decision: Decision, choice: Any) -> str:
        state = view.state
        if decision.kind == "bid":  # the bid card is back in the hand already
            card = next((c for c in state["hand"] if c["id"] == choice), None)
            if card:
                return _(
                    "🤫 Your bid card is in: {card}. The bids are revealed together when everyone has picked.",
                    card=card_label(card),
                )
            return _("🤫 Your bid card is in. The bids are revealed together when everyone has picked.")
        if decision.kind == "play":
            last = state["last_card"]
            return _("🃏 You played {card}.", card=card_label(last)) if last else _("🃏 Card played.")
        if decision.kind == "wild":
            return _("The wild line is {car}.", car=car(choice))
        if decision.kind == "move":
            return _("✅ Moved to the finish.") if choice == FINISH else _("✅ Moved.")
        if decision.kind == "keep":
            return _(
                "🤫 You keep {power}; the kept powers are shown when the race starts.", power=title(choice)
            )
        if decision.kind in ("power", "ignore", "defensive"):
            return f"✅ {option_label(state, decision.kind, choice)}."
        return _("🤫 Your bet on the {car} car is in; bets are revealed at the end.", car=car(choice))

    def status_lines(self, view: TableView) -> list[str]:
        state = view.state
        lines = [
            _n(
                "{track} · {phase} · {n} card played",
                "{track} · {phase} · {n} cards played",
                state["cards_played"],
                track=state["track"]["title"],
                phase=_(PHASES[state["phase"]]) if state["phase"] in PHASES else state["phase"],
            )
        ]
        if state["turn"] is not None:
            lines.append(_("{player} to play", player=view.names[state["turn"]]))
        if state["phase"] != "auction":
            lines.append(places(state, view.names))
        return lines

    def rules_text(self) -> str:
        return _(GAME_RULES) + "\n" + _(HERE)

    def _betting(self, state: dict[str, Any]) -> str:
        betting = state["settings"]["betting"]
        return _(BETTING[betting]) if betting in BETTING else str(betting)
