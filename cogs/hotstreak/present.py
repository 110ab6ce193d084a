"""Hot Streak in Discord: the betting board, secret picks by DM, a track picture per flipped card.

Channel messages are built from the public view and public events; a seat's DM from that seat's
view and its own events (the table splits every batch before this presenter sees it).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import discord

from bot import workers
from bot.games.base import Decision, Event
from bot.games.hotstreak.narration import changes_track
from bot.games.hotstreak.odds import expected_payouts
from bot.games.hotstreak.render import alt_text, render_race
from bot.games.hotstreak.replay import race_replay
from bot.games.odds import Odds
from bot.tables.presenter import Choice, Controls, Outgoing, Presenter
from cogs.hotstreak.frames import odds_view
from cogs.hotstreak.words import (
    PLACES,
    bet_short,
    card_label,
    cards_label,
    emoji,
    money,
    option_label,
    payout_line,
    race_line,
    signed,
    slip_line,
    ticket_line,
)

if TYPE_CHECKING:
    from bot.tables.table import Table

ODDS_BUDGET_MS = 150
"""Simulation time per frame: a busy bot shows odds from fewer races rather than hold a card up."""

COLOUR = discord.Colour.from_rgb(232, 93, 4)
RULES = """\
**Goal:** have the most cash after 3 races. Everyone starts with $10.
**Betting:** players take turns (snake order; the unluckiest player starts, the start moves one seat each \
race) picking a mascot ticket or a side-bet slip. A ticket pays if its mascot places 1st, 2nd or 3rd; its \
*risky* side pays more for 1st and less for 2nd and 3rd. A side-bet slip pays if you guessed right whether \
the side bet happens; its *risky* side pays more but costs money when wrong. 2 bets each (3 with 2 players).
**Secret picks:** everyone adds a card from their hand (2 with 2 players) to the face-up race deck, in \
secret: I DM you your hand (or press **My hand**).
**The race:** 3 cards are burned, then cards flip one at a time and move the mascots: numbers, stars, \
falls, turns, swerves, recoveries, and green cards that move everyone. Mascots knocked over twice, run off \
the back or swerved off the track are disqualified. When the deck runs dry the yellow bar folds to the next \
white line and everyone behind it is out. The race ends when 3 mascots have places.
**Race 3:** each player picks one bet to pay double (losses double too).
Payouts: you can never lose more than you have."""


class HotStreakPresenter(Presenter):
    def lobby_fields(self, table: Table) -> list[tuple[str, str]]:
        return [("Pace", f"{table.pace:g} s per card")]

    # --- prompts ------------------------------------------------------------------

    def _names(self, table: Table) -> list[str]:
        return [seat.shown for seat in table.seats]  # message text: markdown and mentions escaped

    async def prompt(self, table: Table) -> tuple[str, Outgoing] | None:
        view = table.public_view()
        phase, race = view["phase"], view["race"]
        if phase == "draft":
            return f"draft:{race}", self._draft_prompt(table, view)
        if phase in ("submit", "double"):
            waiting = sorted(
                {table.seats[d.player].shown for d in table.human_pending() if d.player is not None}
            )
            if phase == "submit":
                n = view["submit_count"]
                what = f"Everyone adds {n} card{'s' if n > 1 else ''} from their hand to the race deck, face down."
                title = f"Race {race} — secret picks"
            else:
                what = "Race 3 pays double: everyone picks one of their bets to double (losses double too)."
                title = "Race 3 — pick your double"
            embed = discord.Embed(title=title, colour=COLOUR, description=what)
            embed.add_field(name="Waiting for", value=", ".join(waiting) or "nobody", inline=False)
            embed.add_field(name="Deadline", value=table.deadline_mark())
            embed.set_footer(text="I've sent you a DM. No DM? Press My hand.")
            return f"{phase}:{race}", Outgoing(embed=embed, hand_button=True)
        return None

    def _draft_prompt(self, table: Table, view: dict[str, Any]) -> Outgoing:
        turn = view["turn"]
        names = self._names(table)
        info = view["mascot_info"]
        embed = discord.Embed(title=f"Race {view['race']} of 3 — place your bets", colour=COLOUR)
        picks = len(view["draft_order"])
        embed.description = f"{table.seats[turn].mention()} to bet (pick {view['draft_pick'] + 1} of {picks}) · deadline {table.deadline_mark()}"
        embed.add_field(
            name="Tickets (pay by place)",
            value="\n".join(ticket_line(m, info[m]["name"], stack) for m, stack in view["tickets"].items()),
            inline=False,
        )
        side = view["side_bet"]
        embed.add_field(
            name=f"Side bet: {side['text']}",
            value=f"{slip_line('yes', side['slips']['yes'])}\n{slip_line('no', side['slips']['no'])}",
            inline=False,
        )
        taken = [
            f"**{names[seat]}**: {', '.join(bet_short(b) for b in bets)}"
            for seat, bets in enumerate(view["bets"])
            if bets
        ]
        if taken:
            embed.add_field(name="Bets so far", value="\n".join(taken)[:1024], inline=False)
        embed.add_field(
            name="Face-up race cards",
            value=", ".join(card_label(c) for c in view["face_up"])[:1024],
            inline=False,
        )
        cash = " · ".join(f"{names[i]} {money(c)}" for i, c in enumerate(view["cash"]))
        embed.set_footer(text=f"Cash: {cash}")
        out = Outgoing(embed=embed, hand_button=True, hand_row=3, asks=(("odds", "Odds", "📊"),))
        decision = table.pending_for(turn, "bet")
        if decision is not None and not table.seats[turn].is_ai:
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

    async def answer(self, table: Table, seat: int | None, topic: str) -> Outgoing | None:
        """The Odds button: each racer's chances and what every ticket and slip still on offer is worth."""
        view = table.public_view()
        if topic != "odds" or view["phase"] != "draft":
            return None
        chances = await _odds(view)
        if chances is None:
            return None
        return Outgoing(embed=odds_embed(view, chances))

    def private_prompt(self, table: Table, seat: int, decision: Decision) -> Outgoing:
        view = table.seat_view(seat)
        out = self.hand(table, seat)
        if decision.kind == "submit":
            n = len(decision.options[0]) if decision.options else 1
            out.content = (
                f"**Race {view['race']}: pick {n} card{'s' if n > 1 else ''} to add to the race deck.** "
                "Nobody else sees it until it is flipped."
            )
            choices = [Choice(i, cards_label(option)) for i, option in enumerate(decision.options)]
            placeholder = "Choose your secret card" + ("s" if n > 1 else "")
        else:
            out.content = "**Race 3: pick the bet to pay double** (a loss doubles too)."
            bets = view["bets"][seat]
            choices = [Choice(i, bets[option]["label"]) for i, option in enumerate(decision.options)]
            placeholder = "Choose the bet to double"
        out.controls = Controls(seat, decision.kind, tuple(choices), menu=True, placeholder=placeholder)
        return out

    def hand(self, table: Table, seat: int) -> Outgoing:
        view = table.seat_view(seat)
        embed = discord.Embed(title=f"Your hand — Hot Streak game #{table.game_id}", colour=COLOUR)
        embed.description = "\n".join(card_label(card) for card in view["hand"]) or "*No cards in hand.*"
        if view.get("my_submission"):
            embed.add_field(name="Your secret pick", value=cards_label(view["my_submission"]), inline=False)
        bets = view["bets"][seat]
        if bets:
            embed.add_field(name="Your bets", value="\n".join(b["label"] for b in bets)[:1024], inline=False)
        embed.set_footer(text=f"Cash: {money(view['cash'][seat])} · race {view['race']} of 3")
        return Outgoing(embed=embed)

    # --- announcements -------------------------------------------------------------

    async def announce(self, table: Table, events: list[Event]) -> list[Outgoing]:
        names = self._names(table)
        view = table.public_view()
        if view["phase"] == "race":
            # The tickets on the frames: a race's bets and the cash before its payouts.
            table.notes["holdings"] = {"race": view["race"], "bets": view["bets"], "cash": view["cash"]}
        frames = [e for e in events if e.kind in ("card_flipped", "bar_folded")]
        ended = any(e.kind == "race_over" for e in events)
        out: list[Outgoing] = []
        reshuffled = False
        results: dict[str, Any] = {}
        for event in events:
            data = event.data
            if event.kind == "race_setup":
                out.append(await self._race_setup(table, data))
            elif event.kind == "reshuffled":
                reshuffled = True
            elif event.kind == "burned" and not reshuffled:
                out.append(
                    Outgoing(
                        content=f"🏁 **Race {data['race']}** — 3… 2… 1… Three cards burned face down. Go!"
                    )
                )
            elif event.kind in ("card_flipped", "bar_folded"):
                index = frames.index(event)
                later = sum(1 for e in frames[index + 1 :] if e.kind == "card_flipped")
                last = ended and index == len(frames) - 1
                out.append(await self._frame(table, view, event, ended=last, flips_after=later))
            elif event.kind == "doubled":
                out.append(
                    Outgoing(content=f"✖️2 **{names[data['seat']]}** doubles {data['label'].rstrip('.')}.")
                )
            elif event.kind in ("race_over", "payouts"):
                results[event.kind] = data
                if len(results) == 2:
                    out.append(await self._results(table, results["race_over"], results["payouts"]))
                    results = {}
            elif event.kind == "game_over":
                out.append(Outgoing(embed=self._standings_embed(table, data)))
        return out

    def tell(self, table: Table, seat: int, events: list[Event]) -> list[Outgoing]:
        """A seat's dealt cards by DM (its own secret pick is confirmed to it when it picks)."""
        out = []
        for event in events:
            if event.kind == "dealt":
                hand = ", ".join(card_label(c) for c in table.seat_view(seat)["hand"])
                dealt = ", ".join(card_label(c) for c in event.data["cards"])
                out.append(
                    Outgoing(
                        content=f"🃏 Race {event.data['race']}: you were dealt {dealt}.\nYour hand: {hand}"
                    )
                )
        return out

    async def _frame(
        self, table: Table, view: dict[str, Any], event: Event, *, ended: bool, flips_after: int
    ) -> Outgoing:
        frame = event.data["frame"]
        held = table.notes.get("holdings") or {}
        if held.get("race") == frame["race"]:
            frame = {**frame, "bets": held["bets"], "cash": held["cash"]}
        chances = await _odds(odds_view(view, frame, ended=ended, flips_after=flips_after))
        replay = table.notes.setdefault("replay", {"race": frame["race"], "frames": [], "odds": []})
        if replay["race"] != frame["race"]:
            replay.update(race=frame["race"], frames=[], odds=[])
        replay["frames"].append(frame)
        replay["odds"].append(chances)
        number = f"Card {event.data.get('flip')}" if event.kind == "card_flipped" else "Deck dry"
        content = f"**{number}** · {race_line(event.kind, event.data)}"
        if not changes_track(event):
            # Ruling: a card that changes nothing on the track gets its line of narration, no picture.
            return Outgoing(content=content)
        players = self._names(table)
        return Outgoing(
            content=content,
            # Drawn when sent, off the event loop; never drawn if merged into the next as stale.
            render=functools.partial(render_race, frame, odds=chances, players=players),
            image_name=f"race{frame['race']}-{event.data.get('flip', 'fold')}.png",
            alt=alt_text(frame, odds=chances, players=players),
        )

    async def _results(self, table: Table, over: dict[str, Any], payouts: dict[str, Any]) -> Outgoing:
        """The race's results with its replay (built off the event loop from the frames this process saw)."""
        embed = self._results_embed(table, over, payouts)
        replay = table.notes.pop("replay", None)
        if not replay or replay["race"] != over["race"] or not replay["frames"]:
            return Outgoing(embed=embed)
        try:
            animation = await workers.run(
                race_replay,
                replay["frames"],
                odds=replay["odds"],
                players=self._names(table),
                lane=workers.REPLAYS,
            )
        except (ValueError, OSError, workers.Busy):
            return Outgoing(embed=embed)
        embed.set_image(url=f"attachment://{animation.filename}")
        return Outgoing(embed=embed, image=animation.data, image_name=animation.filename, alt=animation.alt)

    async def _race_setup(self, table: Table, data: dict[str, Any]) -> Outgoing:
        view = table.public_view()
        embed = discord.Embed(title=f"🏁 Hot Streak — race {data['race']} of 3", colour=COLOUR)
        embed.description = f"**{table.seats[data['first_better']].shown}** bets first this race."
        embed.add_field(
            name="Face-up race cards",
            value=", ".join(card_label(c) for c in data["face_up"])[:1024],
            inline=False,
        )
        embed.add_field(name="Side bet", value=data["side_bet"]["text"], inline=False)
        embed.set_image(url="attachment://track.png")
        # The deck is built when the picks are in: face-up cards plus each seat's secret card(s).
        per_seat = view["submit_count"]
        view["cards_left"] = len(data["face_up"]) + per_seat * len(table.seats)
        chances = await _odds(view)
        image = await workers.run(render_race, view, odds=chances)
        return Outgoing(embed=embed, image=image, image_name="track.png", alt=alt_text(view, odds=chances))

    def _results_embed(self, table: Table, over: dict[str, Any], payouts: dict[str, Any]) -> discord.Embed:
        names = self._names(table)
        info = table.public_view()["mascot_info"]
        embed = discord.Embed(title=f"🏆 Race {over['race']} results", colour=discord.Colour.gold())
        podium = [
            f"{PLACES[i + 1]} {emoji(m)} **{info[m]['name']}**"
            + (" *(disqualified)*" if over["status"][m] == "out" else "")
            for i, m in enumerate(over["podium"])
        ]
        side = over["side_bet"]
        embed.description = (
            "\n".join(podium) + f"\nSide bet — {side['text']} **{'Yes' if side['happened'] else 'No'}**"
        )
        for seat in payouts["seats"]:
            lines = [payout_line(line) for line in seat["lines"]] or ["no bets"]
            capped = " *(paid all they had)*" if seat["capped"] else ""
            lines.append(f"**{signed(seat['change'])} → {money(seat['cash_after'])}**{capped}")
            embed.add_field(name=names[seat["seat"]], value="\n".join(lines)[:1024], inline=True)
        return embed

    def _standings_embed(self, table: Table, data: dict[str, Any]) -> discord.Embed:
        names = self._names(table)
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        lines = [
            f"{medals.get(row['place'], PLACES.get(row['place'], str(row['place'])))} **{names[row['seat']]}** "
            f"{money(row['cash'])}"
            for row in data["standings"]
        ]
        winners = " and ".join(names[w] for w in data["winners"])
        embed = discord.Embed(
            title="🏁 Final standings", description="\n".join(lines), colour=discord.Colour.gold()
        )
        embed.add_field(
            name="Winner" if len(data["winners"]) == 1 else "Winners (tied)", value=f"🎉 {winners}"
        )
        embed.set_footer(
            text="Results saved · /leaderboard · /stats"
            if table.settled
            else "⚠️ The results are not saved yet; I'll keep trying and say so here."
        )
        return embed

    async def snapshot(self, table: Table) -> list[Outgoing]:
        if table.seq == 0:
            return []  # a new game: the table announces its opening
        view = table.public_view()
        if view["phase"] == "race":
            table.notes["holdings"] = {"race": view["race"], "bets": view["bets"], "cash": view["cash"]}
            players = self._names(table)
            chances = await _odds(view)
            image = await workers.run(render_race, view, odds=chances, players=players)
            alt = alt_text(view, odds=chances, players=players)
            return [Outgoing(content=f"Race {view['race']} in progress.", image=image, alt=alt)]
        return []

    def choice_label(self, table: Table, seat: int, decision: Decision, choice: Any) -> str:
        if decision.kind == "bet":
            bets = table.seat_view(seat)["bets"][seat]
            return f"✅ You took {bets[-1]['label'].rstrip('.')}." if bets else "✅ Bet taken."
        if decision.kind == "submit":
            return (
                f"🤫 Your secret pick is in: {cards_label(choice)}. Nobody else sees it until it's flipped."
            )
        return f"✖️2 You doubled {table.seat_view(seat)['bets'][seat][choice]['label'].rstrip('.')}."

    def status_lines(self, table: Table) -> list[str]:
        view = table.public_view()
        return [
            f"Race {view['race']} of 3 · {view['phase']}",
            " · ".join(f"{s.shown} {money(c)}" for s, c in zip(table.seats, view["cash"], strict=True)),
        ]

    def rules_text(self) -> str:
        return RULES


async def _odds(view: dict[str, Any]) -> Odds | None:
    """The odds of a public view, simulated off the event loop within ``ODDS_BUDGET_MS``."""
    return await workers.odds("hotstreak", view, budget_ms=ODDS_BUDGET_MS)


def odds_embed(view: dict[str, Any], chances: Odds) -> discord.Embed:
    """The private answer to **Odds**: chances first, then each available bet's expected payout, best first."""
    info = view["mascot_info"]
    how = "exact" if chances.exact else f"from {chances.samples:,} simulated races"
    embed = discord.Embed(title=f"📊 Race {view['race']} odds", colour=COLOUR)
    embed.description = "\n".join(
        f"{emoji(m)} **{info[m]['name']}** {chances.percent(m)}% to win · "
        f"{chances.percent(m, 'place')}% to place"
        for m in sorted(info, key=lambda m: -chances.win.get(m, 0.0))
    )
    payouts = sorted(expected_payouts(view, chances), key=lambda row: -row["expected"])
    lines = []
    for row in payouts:
        kind, who, _ = row["option"].split(":")
        mark = emoji(who) if kind == "ticket" else "🎲"
        values = "/".join(money(v) for v in row["values"])
        lines.append(f"{mark} {row['label']} · pays {values} → **worth {signed_cents(row['expected'])}**")
    embed.add_field(
        name="Expected payout of each bet on offer", value="\n".join(lines)[:1024] or "—", inline=False
    )
    side = view.get("side_bet") or {}
    if "side_bet" in chances.events and side.get("text"):
        embed.add_field(
            name="Side bet",
            value=f"{side['text']}: {round(chances.events['side_bet'] * 100)}% likely",
            inline=False,
        )
    embed.set_footer(text=f"Odds {how}, from what everyone can see (the secret cards are unknown).")
    return embed


def signed_cents(amount: float) -> str:
    return f"-${-amount:.2f}" if amount < 0 else f"+${amount:.2f}"
