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
from discord.utils import escape_markdown

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
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter
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
    from bot.tables.table import Table

COLOUR = discord.Colour.from_rgb(214, 40, 40)
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
    def lobby_fields(self, table: Table) -> list[tuple[str, str]]:
        s = table.settings
        # Ruling: track names are proper names, kept as the Portuguese rules keep them.
        track = str(s.get("track", "river-station")).replace("-", " ").title()
        betting, powers = str(s.get("betting", "standard")), str(s.get("powers", "off"))
        return [
            (_("Track"), track),
            (_("Betting"), _(BETTING[betting]) if betting in BETTING else betting),
            (_("Powers"), _(POWERS[powers]) if powers in POWERS else powers),
            (_("Pace"), _("{seconds} s between AI cards", seconds=number(table.pace))),
        ]

    # --- helpers ------------------------------------------------------------------

    def _names(self, table: Table) -> list[str]:
        return [seat.display_name for seat in table.seats]

    def _view(self, table: Table) -> dict[str, Any]:
        """The public view, with the players' names for the picture."""
        return {**table.public_view(), "names": self._names(table)}

    async def _picture(self, table: Table, name: str, *, frame: bool = False) -> Outgoing:
        """The track picture; from the start of the race on, with each car's chance to win. A ``frame``
        (the picture after a card) is also kept for the replay posted with the final scores."""
        view = self._view(table)
        chances: Odds | None = None
        if view["phase"] not in ("auction", "keep"):
            chances = await workers.odds("downforce", view, budget_ms=ODDS_BUDGET_MS)
        if frame:
            replay = table.notes.get("replay")
            if not isinstance(replay, ReplayLog):
                replay = table.notes["replay"] = ReplayLog()  # compact: what changed per card
            replay.add(view, chances)
        image = await workers.run(render_track, view, chances)
        return Outgoing(image=image, image_name=name, alt=alt_text(view, chances))

    async def _final(self, table: Table, data: dict[str, Any]) -> Outgoing:
        """The final scores at once; the race's replay (from the frames this process saw: a game resumed
        after a restart replays from where it resumed) is drawn off the event loop afterwards and added
        to the scores message (``Outgoing.later``)."""
        embed = self._scores_embed(table, data)
        replay = table.notes.pop("replay", None)
        if not isinstance(replay, ReplayLog) or not len(replay):
            return Outgoing(embed=embed)
        return Outgoing(embed=embed, later=functools.partial(replay.drawn, race_replay))

    def _waiting(self, table: Table) -> str:
        names = sorted({table.seats[d.player].name for d in table.human_pending() if d.player is not None})
        return ", ".join(escape_markdown(n) for n in names) or _("nobody")

    # --- the live prompt ---------------------------------------------------------------

    async def prompt(self, table: Table) -> tuple[str, Outgoing] | None:
        view = table.public_view()
        phase = view["phase"]
        if phase == "auction":
            return f"auction:{view['auction']['number']}", self._auction_prompt(table, view)
        if phase == "bet":
            return f"bet:{view['cards_played']}:{view['bet_line']}", self._bet_prompt(table, view)
        if phase == "keep":
            return "keep", self._keep_prompt(table)
        if phase != "race" or view["turn"] is None:
            return None
        choice = view["choice"]
        # Who decides: the player on turn, or the owner of a power or of a cunning car.
        decider = view["turn"] if choice is None or choice.get("seat") is None else choice["seat"]
        if table.seats[decider].is_ai:
            return None  # an AI plays at the table's pace; the picture after its card says it all
        if choice is None:
            return f"play:{view['cards_played']}", self._play_prompt(table, view)
        key = f"choice:{view['cards_played']}:{choice['kind']}:{decider}:{table.acted[decider]}"
        return key, await self._choice_prompt(table, view, key, decider)

    def _auction_prompt(self, table: Table, view: dict[str, Any]) -> Outgoing:
        auction = view["auction"]
        colour = auction["colour"]
        slot = view["cars"][colour]["grid_slot"]
        embed = discord.Embed(
            title=_("Auction {number} of 6 — the {car} car", number=auction["number"], car=car(colour)),
            colour=COLOUR,
        )
        power = ((view.get("powers") or {}).get("by_car") or {}).get(colour)
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
        names = self._names(table)
        embed.add_field(
            name=_("Bidding"),
            value=", ".join(escape_markdown(names[s]) for s in auction["eligible"]),
            inline=False,
        )
        sold = [
            f"{car(a['colour'])} → {escape_markdown(names[a['seat']])} {money(a['price'])}"
            for a in view["auctions"]
        ]
        if sold:
            embed.add_field(name=_("Sold"), value="\n".join(sold), inline=False)
        embed.add_field(name=_("Waiting for"), value=self._waiting(table), inline=False)
        embed.add_field(name=_("Deadline"), value=table.deadline_mark())
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    def _bet_prompt(self, table: Table, view: dict[str, Any]) -> Outgoing:
        embed = discord.Embed(
            title=_("🟡 Yellow line at row {row} — secret bets", row=view["bet_line"]), colour=COLOUR
        )
        embed.description = (
            _(
                "Everyone bets in secret on the car they think will win the race. Bets are revealed at the end."
            )
            + "\n"
            + places(view, self._names(table))
        )
        embed.add_field(name=_("Betting"), value=self._betting(view), inline=False)
        embed.add_field(name=_("Waiting for"), value=self._waiting(table), inline=False)
        embed.add_field(name=_("Deadline"), value=table.deadline_mark())
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    def _keep_prompt(self, table: Table) -> Outgoing:
        embed = discord.Embed(title=_("Powers — keep one"), colour=COLOUR)
        embed.description = _(
            "Players who won several power cards keep one of them, in secret; the kept powers are shown "
            "together when the race starts."
        )
        embed.add_field(name=_("Waiting for"), value=self._waiting(table), inline=False)
        embed.add_field(name=_("Deadline"), value=table.deadline_mark())
        embed.set_footer(text=_(NO_DM))
        return Outgoing(embed=embed, hand_button=True)

    def _play_prompt(self, table: Table, view: dict[str, Any]) -> Outgoing:
        seat = table.seats[view["turn"]]
        left = view["hand_sizes"][view["turn"]]
        text = _n(
            "🏎️ Card {number}: {player} to play ({n} card in hand) · pick your card in DM or with **My hand** · "
            "deadline {deadline}",
            "🏎️ Card {number}: {player} to play ({n} cards in hand) · pick your card in DM or with **My hand** · "
            "deadline {deadline}",
            left,
            number=view["cards_played"] + 1,
            player=seat.mention(),
            deadline=table.deadline_mark(),
        )
        return Outgoing(content=text, hand_button=True)

    async def _choice_prompt(self, table: Table, view: dict[str, Any], key: str, decider: int) -> Outgoing:
        turn = decider
        seat = table.seats[view["turn"]]
        choice = view["choice"]
        card = view["card_in_play"]
        names = self._names(table)
        done = [line({"kind": "car_moved", "data": m}, names) for m in card["moves"]]
        head = _("🃏 {player} plays {card}", player=seat.mention(), card=card_label(card))
        if done:
            head += _(" · so far: {moves}", moves=" ".join(done))
        decision = table.pending_for(turn, choice["kind"])
        out = Outgoing()
        asked = table.seats[turn]
        if choice["kind"] in ("power", "ignore", "defensive"):
            power = choice.get("power") or power_asking(choice["kind"])
            out.content = (
                head
                + "\n"
                + _(
                    "⚡ {player}, your **{power}** power: {does}. Deadline {deadline} (then the AI picks the "
                    "better option).",
                    player=asked.mention(),
                    power=title(power),
                    does=summary(power),
                    deadline=table.deadline_mark(),
                )
            )
            if decision is not None:
                seat_view = table.seat_view(turn)
                buttons = [
                    Choice(
                        i,
                        option_label(seat_view, choice["kind"], option),
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
                    deadline=table.deadline_mark(),
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
            "now": where(view, colour),
            "deadline": table.deadline_mark(),
        }
        if choice.get("power"):
            values["speed"] = _(
                "{speed} ({power} power)", speed=values["speed"], power=title(choice["power"])
            )
        if turn != view["turn"]:
            question = _(
                "{player}, where does the {car} car end its {speed}? ({now} now) · deadline {deadline}",
                player=asked.mention(),
                **values,
            )
        else:
            question = _(
                "Where does the {car} car end its {speed}? ({now} now) · deadline {deadline}", **values
            )
        out.content = head + "\n" + question
        cache = table.notes.setdefault("choice_pictures", {})
        if key not in cache:
            cache.clear()
            cache[key] = await asyncio.to_thread(render_choice, {**view, "names": names}, choice["options"])
        out.image, out.image_name = cache[key], "choice.png"
        out.alt = alt_text({**view, "names": names})
        if decision is not None:
            spaces = {s["id"] for s in view["track"]["spaces"]}
            letters = marked_spaces(list(decision.options), spaces)
            buttons = []
            for i, option in enumerate(decision.options):
                label = option_label(view, "move", option)
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

    def private_prompt(self, table: Table, seat: int, decision: Decision) -> Outgoing:
        view = table.seat_view(seat)
        out = self.hand(table, seat)
        if decision.kind == "bid":
            colour = view["auction"]["colour"]
            out.content = _(
                "**Auction {number} of 6: the {car} car** (grid slot {slot}). Pick the card you bid: your bid "
                "is its {colour} speed. Nobody sees it until the bids are revealed together.",
                number=view["auction"]["number"],
                car=car(colour),
                slot=view["cars"][colour]["grid_slot"],
                colour=colour_name(colour),
            )
            cards = {c["id"]: c for c in view["hand"]}
            bids = [
                (bid_value(tuple(map(tuple, cards[o]["lines"])), colour) if o in cards else 0, i, o)
                for i, o in enumerate(decision.options)
            ]
            bids.sort(key=lambda b: -b[0])  # the strongest bid first, as the menu lists them
            choices = [Choice(i, option_label(view, "bid", option)[:100]) for _bid, i, option in bids]
            out.controls = Controls(
                seat, "bid", tuple(choices), menu=True, placeholder=_("Choose your bid card")
            )
        elif decision.kind == "keep":
            out.content = _(
                "**You won several power cards: keep one.** It works for every car you own. Nobody sees "
                "your choice until the race starts."
            )
            choices = [
                Choice(i, option_label(view, "keep", option)[:80], style="primary")
                for i, option in enumerate(decision.options)
            ]
            out.controls = Controls(seat, "keep", tuple(choices))
        elif decision.kind == "play":
            out.content = (
                _(
                    "**Your turn: card {number}.** Pick the card to play; you move every car on it, in order.",
                    number=view["cards_played"] + 1,
                )
                + "\n"
                + places(view, self._names(table))
            )
            cards = {c["id"]: c for c in view["hand"]}
            choices = [Choice(i, card_label(cards[option])) for i, option in enumerate(decision.options)]
            out.controls = Controls(
                seat, "play", tuple(choices), menu=True, placeholder=_("Choose your card")
            )
        else:
            number = len(view["my_bets"])
            out.content = _(
                "**Your secret {bet}** (yellow line at row {row}): which car will win the race? Nobody "
                "sees it until the end.",
                bet=bet_name(number),
                row=view["bet_line"],
            )
            choices = [
                Choice(
                    i,
                    _(
                        "{colour} · {place} now",
                        colour=colour_name(option),
                        place=ordinal(view["cars"][option]["position"]),
                    ),
                    emoji=CAR_EMOJI.get(option),
                    style="primary",
                )
                for i, option in enumerate(decision.options)
            ]
            out.controls = Controls(seat, "bet", tuple(choices))
        return out

    def hand(self, table: Table, seat: int) -> Outgoing:
        view = table.seat_view(seat)
        embed = discord.Embed(
            title=_("Your hand — Downforce game #{game}", game=table.game_id), colour=COLOUR
        )
        embed.description = "\n".join(card_label(c) for c in view["hand"]) or _("*No cards left.*")
        mine = [c for c, info in view["cars"].items() if info["owner"] == seat]
        if mine:
            cars = [
                _(
                    "{car} (paid {price}, {where})",
                    car=car(c),
                    price=money(view["cars"][c]["price"]),
                    where=where(view, c),
                )
                for c in mine
            ]
            embed.add_field(name=_("Your cars"), value="\n".join(cars), inline=False)
        powers = view.get("powers")
        if powers:
            won = powers["won"].get(str(seat), [])
            kept = view.get("my_power")
            if kept:
                embed.add_field(name=_("Your power"), value=f"{title(kept)}: {summary(kept)}", inline=False)
            elif won:
                text = "\n".join(f"{title(p)}: {summary(p)}" for p in won)
                embed.add_field(name=_("Your power cards"), value=text[:1024], inline=False)
        if view.get("my_bid"):
            embed.add_field(name=_("Your secret bid"), value=card_label(view["my_bid"]), inline=False)
        if view["my_bets"]:
            bets = [_("{bet}: {car}", bet=bet_name(b["index"]), car=car(b["car"])) for b in view["my_bets"]]
            embed.add_field(name=_("Your secret bets"), value="\n".join(bets), inline=False)
        embed.set_footer(text=_("Spent at auction: {money}", money=money(view["spent"][seat])))
        return Outgoing(embed=embed)

    def tell(self, table: Table, seat: int, events: list[Event]) -> list[Outgoing]:
        """The dealt hand by DM (bids and bets are confirmed to whoever makes them)."""
        out = []
        for event in events:
            if event.kind == "dealt":
                hand = self.hand(table, seat)
                hand.content = _n(
                    "🃏 Downforce game #{game}: you were dealt {n} card.",
                    "🃏 Downforce game #{game}: you were dealt {n} cards.",
                    len(event.data["cards"]),
                    game=table.game_id,
                )
                out.append(hand)
        return out

    # --- announcements ------------------------------------------------------------------

    async def announce(self, table: Table, events: list[Event]) -> list[Outgoing]:
        names = self._names(table)
        kinds = {e.kind for e in events}
        out: list[Outgoing] = []
        for event in events:
            data = event.data
            if event.kind == "grid":
                out.append(await self._opening(table, events))
            elif event.kind == "auction_won":
                out.append(Outgoing(content="🔨 " + line(event, names)))
            elif event.kind == "race_start":
                out.append(await self._race_start(table, event))
            elif event.kind == "card_played" and "card_resolved" not in kinds:
                out.append(Outgoing(content="🃏 " + line(event, names)))
            elif event.kind == "card_resolved":
                frame = await self._picture(table, f"card{data['number']}.png", frame=True)
                frame.content = _(
                    "**Card {number}** · {what}", number=data["number"], what=line(event, names)
                )
                out.append(frame)
            elif event.kind in ("power_used", "animal_moved", "powers_kept", "keep_open"):
                out.append(Outgoing(content="⚡ " + line(event, names)))
            elif event.kind == "race_over":
                out.append(Outgoing(content="🏁 " + line(event, names)))
            elif event.kind == "game_over":
                out.append(await self._final(table, data))
        return out

    async def _opening(self, table: Table, events: list[Event]) -> Outgoing:
        view = table.public_view()
        names = self._names(table)
        embed = discord.Embed(title=f"🏁 Downforce — {view['track']['title']}", colour=COLOUR)
        grid = " ".join(f"`{i + 1}` {car(c)}" for i, c in enumerate(view["grid"]))
        order = ", ".join(car(c) for c in view["auction_order"])
        each = view["hand_sizes"][0] if view["hand_sizes"] else 0
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
            + _("Betting: {betting}.", betting=self._betting(view))
        )
        embed.add_field(name=_("Players"), value=", ".join(escape_markdown(n) for n in names), inline=False)
        picture = await self._picture(table, "grid.png")
        embed.set_image(url="attachment://grid.png")
        picture.embed = embed
        return picture

    async def _race_start(self, table: Table, event: Event) -> Outgoing:
        names = self._names(table)
        view = table.public_view()
        embed = discord.Embed(title=_("🏎️ The race starts"), colour=COLOUR)
        embed.description = line(event, names) + "\n" + places(view, names)
        spent = [f"{escape_markdown(names[i])} {money(v)}" for i, v in enumerate(event.data["spent"])]
        embed.add_field(name=_("Spent at auction"), value=" · ".join(spent), inline=False)
        picture = await self._picture(table, "start.png")
        embed.set_image(url="attachment://start.png")
        picture.embed = embed
        return picture

    def _scores_embed(self, table: Table, data: dict[str, Any]) -> discord.Embed:
        names = self._names(table)
        winners = both([escape_markdown(names[w]) for w in data["winners"]])
        embed = discord.Embed(title=_("🏆 Final scores"), colour=discord.Colour.gold())
        ranking = sorted(data["scores"], key=lambda s: (s["place"], s["seat"]))
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        embed.description = "\n".join(
            f"{medals.get(s['place']) or '`' + ordinal(s['place']) + '`'} "
            f"**{escape_markdown(names[s['seat']])}** "
            f"{money(s['money'])}"
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
            embed.add_field(name=names[score["seat"]][:256], value="\n".join(rows)[:1024], inline=False)
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

    async def snapshot(self, table: Table) -> list[Outgoing]:
        if table.seq == 0:
            return []  # a new game: the opening announces the grid
        view = table.public_view()
        if view["phase"] == "over":
            return []
        picture = await self._picture(table, "resumed.png")
        picture.content = _n(
            "🏎️ Downforce game #{game}: {n} card played so far.",
            "🏎️ Downforce game #{game}: {n} cards played so far.",
            view["cards_played"],
            game=table.game_id,
        )
        return [picture]

    def choice_label(self, table: Table, seat: int, decision: Decision, choice: Any) -> str:
        view = table.seat_view(seat)
        if decision.kind == "bid":  # the bid card is back in the hand already
            card = next((c for c in view["hand"] if c["id"] == choice), None)
            if card:
                return _(
                    "🤫 Your bid card is in: {card}. The bids are revealed together when everyone has picked.",
                    card=card_label(card),
                )
            return _("🤫 Your bid card is in. The bids are revealed together when everyone has picked.")
        if decision.kind == "play":
            last = view["last_card"]
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
            return f"✅ {option_label(view, decision.kind, choice)}."
        return _("🤫 Your bet on the {car} car is in; bets are revealed at the end.", car=car(choice))

    def status_lines(self, table: Table) -> list[str]:
        view = table.public_view()
        names = self._names(table)
        lines = [
            _n(
                "{track} · {phase} · {n} card played",
                "{track} · {phase} · {n} cards played",
                view["cards_played"],
                track=view["track"]["title"],
                phase=_(PHASES[view["phase"]]) if view["phase"] in PHASES else view["phase"],
            )
        ]
        if view["turn"] is not None:
            lines.append(_("{player} to play", player=escape_markdown(names[view["turn"]])))
        if view["phase"] != "auction":
            lines.append(places(view, names))
        return lines

    def rules_text(self) -> str:
        return _(GAME_RULES) + "\n" + _(HERE)

    def _betting(self, view: dict[str, Any]) -> str:
        betting = view["settings"]["betting"]
        return _(BETTING[betting]) if betting in BETTING else str(betting)
