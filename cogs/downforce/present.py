"""Downforce in Discord: every decision in private (auctions, bets, the card on turn, and the card's end
spaces, wild colours and powers, asked where the card was played: the player's DM or **My hand**), and
in the channel one message for the auctions and one live message for the race, edited card by card (the
track picture, the last lines of narration, who is to play, the end spaces being chosen lettered on it).

Channel messages are built from the public view and public events; a seat's DM from that seat's
view and its own events (the table splits every batch before this presenter sees it). Bids are
shown only when the auction reveals them together, bets only in the final scores.
"""

from __future__ import annotations

import functools
from collections import deque
from typing import TYPE_CHECKING, Any

import discord

from bot import workers
from bot.games.base import Decision, Event
from bot.games.downforce.cards import bid_value
from bot.games.downforce.narration import bet_name, both, colour_name, option_label
from bot.games.downforce.powers import power_asking, summary, title
from bot.games.downforce.render import alt_text, render_track
from bot.games.downforce.render_hand import hand_alt, render_hand
from bot.games.downforce.replay import live_track, race_replay
from bot.games.downforce.rules import RULES as GAME_RULES
from bot.games.downforce.spectate import race as open_race
from bot.games.downforce.track import FINISH
from bot.games.odds import Odds
from bot.games.replay_log import ReplayLog
from bot.i18n import N_, _, _n, _p, in_language
from bot.i18n.formatting import number
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter, TableView
from bot.tables.spectating import bet_asks
from cogs.downforce.picture import marked_spaces
from cogs.downforce.words import (
    CAR_EMOJI,
    car,
    card_label,
    card_words,
    hand_line,
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
    """**Here:** your hand comes by DM (no DM? press **My hand**). Bids, the card you play, its end spaces, \
wild colours and powers, and your bets are picked there, in secret; the race is one live message in the \
channel. A player who misses the deadline is played by the AI."""
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
# Decisions about the card in play, asked of the seat that takes them (not always the one on turn).
CHOICE_KINDS = ("wild", "move", "power", "ignore", "defensive")
LIVE_LINES = 4
"""Lines of narration on the race's live message (the picture shows the rest)."""
ODDS_BUDGET_MS = 150
"""Simulation time per picture: a busy bot shows odds from fewer races rather than hold a card up."""


class DownforcePresenter(Presenter):
    """One table's presenter; ``state`` below is ``view.state``, the engine's view for that audience."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(entry)
        # The running race's frames, for the replay posted with the final scores (compact: what
        # changed per card); dropped when the scores are posted.
        self.replay: ReplayLog | None = None
        # The race's live picture: (what it shows: cards played and whether with odds, the picture, its
        # alt text), and the line saying who plays next; kept while a card's choices are made.
        self.live: tuple[tuple[int, bool], bytes, str] | None = None
        self.turn_line = ""
        # The cars sold so far (the auctions' message, once retired, lists them all).
        self.sold: list[str] = []
        # The race's last lines of narration, on its live message.
        self.lines: deque[str] = deque(maxlen=LIVE_LINES)
        # The odds of the last card's frame (cards played, odds): the live picture shows them.
        self.odds: tuple[int, Odds | None] = (-1, None)

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
        race = self.replay.key if frame and self.replay is not None and workers.keeps_frames() else None
        image = await workers.run(live_track, race, drawn, chances)
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
        if key == "setup":
            # The auctions' one message, once the race starts: every car sold and the last bids.
            embed = discord.Embed(title=_("Auctions — every car sold"), colour=COLOUR)
            if self.sold:
                embed.add_field(name=_("Sold"), value="\n".join(self.sold)[:1024], inline=False)
            revealed = [text for text in self.lines if text.startswith("🔨")][-2:]
            if revealed:
                embed.add_field(name=_("Bids revealed"), value="\n".join(revealed)[:1024], inline=False)
            return Outgoing(embed=embed)
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
        # One message for the six auctions and the keeping of powers, edited through them (every bid is
        # a DM, which is each wait's notification).
        if phase == "auction":
            return "setup", self._auction_prompt(view, state)
        if phase == "keep":
            return "setup", self._keep_prompt(view)
        if phase in ("race", "bet", "over") and state["cards_played"] + len(self.lines) > 0:
            # The race's live message, through its secret bets at the yellow lines too (the bets are
            # DMs: each better's notification).
            live = await self._live(view, state)
            return ("race", live) if live is not None else None
        return None

    async def _live(self, view: TableView, state: dict[str, Any]) -> Outgoing | None:
        """The race's live message: the track with the odds after the last card, the last lines of
        narration, who is to play, the yellow lines' secret bets; **My hand** for a player without DMs.

        Ruling (the request budget, docs/benchmarks.md): it changes once per card, when the card is
        resolved. A person's choices for their card (end spaces, a wild colour, a power) are made where
        they played it, each end-space choice with its own picture of the spaces lettered as on the
        buttons; mirroring each choice here cost one more edit per choice (3.3 requests per card against
        2.3, measured with ``bench/bench_conversation.py``)."""
        lines = list(self.lines)
        if state.get("card_in_play") is None:
            # Between cards: the track after the last card (with its odds) and who plays next. While a
            # card is in play its choices are made in private, and this message stays as it was.
            drawn = self._drawn(view)
            resolved, chances = self.odds
            if resolved != state["cards_played"]:
                chances = None
            if state["phase"] == "bet":
                turn = _(
                    "🟡 Yellow line at row {row}: everyone bets in secret on the car they think will win "
                    "(by DM, or **My hand**).",
                    row=state["bet_line"],
                )
            elif state["phase"] == "race" and state["turn"] is not None:
                turn = _(
                    "▶️ Card {number}: {player} to play",
                    number=state["cards_played"] + 1,
                    player=view.seats[state["turn"]].shown,
                )
            else:
                turn = ""
            key = (state["cards_played"], chances is not None)
            if self.live is None or self.live[0] != key:
                # (Its GIF block is kept where it is drawn, for the race's replay: bot.games.kept_frames.)
                race = self.replay.key if self.replay is not None and workers.keeps_frames() else None
                picture = await workers.run(live_track, race, drawn, chances)
                self.live = (key, picture, alt_text(drawn, chances))
            self.turn_line = turn
        if self.live is None:
            return None
        _key, picture, alt = self.live
        if self.turn_line:
            lines.append(self.turn_line)
        out = Outgoing(content="\n".join(lines)[:2000], image=picture, image_name="race.png", alt=alt)
        out.hand_button = state["phase"] in ("race", "bet")
        out.asks = bet_asks(open_race(state) is None)  # spectators bet while it runs (bot.tables.spectating)
        return out

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
        revealed = [text for text in self.lines if text.startswith("🔨")][-2:]
        if revealed:
            embed.add_field(name=_("Bids revealed"), value="\n".join(revealed)[:1024], inline=False)
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
        revealed = [text for text in self.lines if text.startswith("🔨")][-1:]
        if revealed:  # the last auction's bids, revealed as the keeping begins
            embed.add_field(name=_("Bids revealed"), value=revealed[0][:1024], inline=False)
        self._add_wait(embed, view)
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    # --- private prompts -------------------------------------------------------------

    def private_prompt(self, view: TableView, decision: Decision) -> Outgoing:
        seat, state = self._reader(view), view.state
        if decision.kind in CHOICE_KINDS:
            return self._choice(view, state, decision)
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
            bids.sort(key=lambda b: -b[0])  # the strongest bid first; each names its card's number
            choices = [Choice(i, self._bid_line(state, option, value)[:100]) for value, i, option in bids]
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
            # The hand once: drawn on the picture, and in words in this menu, numbered alike.
            numbers = self._numbers(state)
            cards = {c["id"]: c for c in state["hand"]}
            choices = [
                Choice(i, hand_line(numbers[option], cards[option])[:100])
                for i, option in enumerate(decision.options)
            ]
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

    def _choice(self, view: TableView, state: dict[str, Any], decision: Decision) -> Outgoing:
        """A choice about the card in play (an end space, a wild colour, a power), asked of its seat where
        the card was played; each end-space choice with its own picture, the spaces lettered as on the buttons."""
        seat = self._reader(view)
        choice = state["choice"] or {}
        card = state["card_in_play"]
        head = _("🃏 Card {number}: {card}", number=state["cards_played"] + 1, card=card_label(card))
        done = [line({"kind": "car_moved", "data": m}, view.names) for m in card["moves"]]
        if done:
            head += _(" · so far: {moves}", moves=" ".join(done))
        out = Outgoing()
        if decision.kind in ("power", "ignore", "defensive"):
            power = choice.get("power") or power_asking(decision.kind)
            out.content = (
                head
                + "\n"
                + _(
                    "⚡ Your **{power}** power: {does}. Deadline {deadline} (then the AI picks the better option).",
                    power=title(power),
                    does=summary(power),
                    deadline=view.deadline_mark(),
                )
            )
            buttons = [
                Choice(
                    i,
                    option_label(state, decision.kind, option),
                    style="secondary" if option in ("no", "none") else "primary",
                    emoji=CAR_EMOJI.get(option),
                )
                for i, option in enumerate(decision.options)
            ]
            out.controls = Controls(seat, decision.kind, tuple(buttons))
            return out
        if decision.kind == "wild":
            out.content = (
                head
                + "\n"
                + _(
                    "Name a colour for the wild {speed} · deadline {deadline}",
                    speed=card["lines"][choice["line"]][1],
                    deadline=view.deadline_mark(),
                )
            )
            buttons = [
                Choice(i, colour_name(option), emoji=CAR_EMOJI.get(option))
                for i, option in enumerate(decision.options)
            ]
            out.controls = Controls(seat, "wild", tuple(buttons))
            return out
        colour = choice["car"]
        speed: object = choice.get("speed", 1)
        if choice.get("power"):
            speed = _("{speed} ({power} power)", speed=speed, power=title(choice["power"]))
        out.content = (
            head
            + "\n"
            + _(
                "Where does the {car} car end its {speed}? ({now} now; the spaces are lettered on the "
                "picture) · deadline {deadline}",
                car=car(colour),
                speed=speed,
                now=where(state, colour),
                deadline=view.deadline_mark(),
            )
        )
        spaces = {sp["id"] for sp in state["track"]["spaces"]}
        letters = marked_spaces(list(decision.options), spaces)
        buttons = []
        for i, option in enumerate(decision.options):
            label = option_label(state, "move", option)
            if option == FINISH:
                buttons.append(Choice(i, label, style="success", emoji="🏁"))
            else:
                path = (choice.get("paths") or {}).get(option)
                dead_end = path is not None and len(path) < choice.get("speed", 0)
                buttons.append(
                    Choice(
                        i,
                        f"{letters.get(str(option).split('~')[0], '?')} · {label}",
                        style="danger" if dead_end else "primary",
                    )
                )
        out.controls = Controls(
            seat, "move", tuple(buttons), menu=len(buttons) > 20, placeholder=_("End space")
        )
        drawn = self._drawn(view)
        # Drawn in a picture worker when sent (``voice.drawn``): the engine's renderer, not this module's;
        # in the reader's language (the prompt is sent after its ``speaking`` block is over).
        out.render = in_language(out.language, functools.partial(render_track, drawn, marks=letters))
        out.image_name, out.alt = "choice.png", alt_text(drawn)
        return out

    @staticmethod
    def _numbers(state: dict[str, Any]) -> dict[str, int]:
        """Each card of the seat's hand -> its number on the hand's picture (1 to n, the hand's order)."""
        return {c["id"]: i for i, c in enumerate(state["hand"], start=1)}

    def _bid_line(self, state: dict[str, Any], option: str, value: int) -> str:
        """A bid menu's line: the card's number on the picture, what it bids, the card in words."""
        card = next((c for c in state["hand"] if c["id"] == option), None)
        if card is None:
            return option_label(state, "bid", option)
        return _(
            "{number} · bid {value}: {card}",
            number=self._numbers(state)[option],
            value=value,
            card=card_words(card),
        )

    def hand(self, view: TableView) -> Outgoing:
        """The seat's hand and secrets, the base of every private prompt but a card's choices.

        Ruling (a player on a phone): the hand is a picture (``render_hand``: each card a small numbered
        card, each line a chip with the car's two letters and its speed, so no line relies on colour),
        in the embed, drawn in a picture worker when sent. In words it is only where a card is picked:
        the play and bid menus, one short line per card numbered as on the picture (``3 · red 4 · blue
        2``); and in the picture's alt text. The embed listed every card with emojis before (up to 850
        characters on every private prompt, and the play prompt listed each card twice, its menu
        again): on a phone, a screen of text to scroll before the menu."""
        seat, state = self._reader(view), view.state
        embed = discord.Embed(title=_("Your hand — Downforce game #{game}", game=view.game_id), colour=COLOUR)
        lines = [c["lines"] for c in state["hand"]]
        if not lines:
            embed.description = _("*No cards left.*")
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
        if not lines:
            return Outgoing(embed=embed)
        embed.set_image(url="attachment://hand.png")
        return Outgoing(
            embed=embed,
            render=functools.partial(render_hand, lines),
            image_name="hand.png",
            alt=hand_alt(lines),
        )

    # --- announcements ------------------------------------------------------------------

    async def announce(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        """New messages only for the grid, the race's start and the final scores; everything else is a
        line on the auctions' message (``Sold``) or on the race's live message (``prompt``)."""
        names = view.names
        out: list[Outgoing] = []
        for event in events:
            data = event.data
            if event.kind == "grid":
                self.lines.clear()
                out.append(await self._opening(view, events))
            elif event.kind == "auction_won":
                # The bids revealed together: on the auctions' message (and the race's, as it starts).
                self.lines.append("🔨 " + line(event, names))
                self.sold = [
                    f"{car(a['colour'])} → {names[a['seat']]} {money(a['price'])}"
                    for a in view.state["auctions"]
                ]
            elif event.kind == "race_start":
                out.append(await self._race_start(view, event))
            elif event.kind == "card_resolved":
                await self._keep_frame(view)
                self.lines.append(
                    _("**Card {number}** · {what}", number=data["number"], what=line(event, names))
                )
            elif event.kind in ("power_used", "animal_moved", "powers_kept", "keep_open"):
                self.lines.append("⚡ " + line(event, names))
            elif event.kind == "race_over":
                self.lines.append("🏁 " + line(event, names))
            elif event.kind == "game_over":
                out.append(await self._final(view, data))
        return out

    async def _keep_frame(self, view: TableView) -> None:
        """The track after a card, with its odds, for the live picture and the race's replay."""
        drawn = self._drawn(view)
        chances = await workers.odds("downforce", drawn, budget_ms=ODDS_BUDGET_MS)
        self.odds = (view.state["cards_played"], chances)
        if self.replay is None:
            self.replay = ReplayLog()
        self.replay.add(drawn, chances)

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
