"""Hot Streak in Discord: the betting board, secret picks by DM, a track picture per flipped card.

Every message is built from engine views or from public events; private events (a dealt card,
one's own secret pick) go only to their seat's DM or ephemeral "My hand" answer.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import Decision, Event, Game
from bot.games.hotstreak import ai
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.render import alt_text, render_race
from bot.storage import PlayerResult, StakeRecord
from bot.tables.components import GameButton, GameSelect, decision_id, option_value, select_id
from bot.tables.presenter import Outgoing, Presenter
from cogs.hotstreak.words import (
    EMOJI,
    PLACES,
    bet_short,
    card_label,
    cards_label,
    money,
    option_label,
    payout_line,
    race_line,
    signed,
    slip_line,
    ticket_line,
)

if TYPE_CHECKING:
    from bot.client import RaceBot
    from bot.tables.table import Table

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
    kind = "hotstreak"
    title = "Hot Streak"
    min_players = HotStreak.min_players
    max_players = HotStreak.max_players

    def __init__(self, bot: RaceBot) -> None:
        self.bot = bot

    def new_engine(self, seats: int, seed: int, settings: dict[str, Any]) -> Game:
        return HotStreak.new(seats, seed, settings)

    def ai_choice(self, view: dict[str, Any], decision: Decision, level: str, rng: random.Random) -> Any:
        return ai.choose(view, decision, level, rng)

    def is_private(self, decision: Decision) -> bool:
        return decision.kind in ("submit", "double")

    def delay(self, table: Table, decision: Decision) -> float:
        view = table.view(None)
        if decision.kind == "flip" and view["last_card"] is None and view["burned"] == 0:
            return 3 * min(table.pace, table.bot.timing.countdown_seconds)  # the "3, 2, 1" before a race
        return table.pace

    async def starting_settings(self, table: Table) -> dict[str, Any]:
        """The unluckiest human (lowest lifetime Hot Streak winnings here) bets first; ties by lot."""
        humans = {seat.user_id: i for i, seat in enumerate(table.seats) if seat.user_id is not None}
        if not humans:
            return {"first_better": 0}
        winnings = await table.bot.storage.lifetime_net(table.guild_id, self.kind, list(humans))
        lowest = min(winnings.values())
        tied = sorted(user for user, net in winnings.items() if net == lowest)
        return {"first_better": humans[random.Random(table.seed).choice(tied) if len(tied) > 1 else tied[0]]}

    def lobby_fields(self, table: Table) -> list[tuple[str, str]]:
        return [("Pace", f"{table.pace:g} s per card")]

    # --- prompts ------------------------------------------------------------------

    def _names(self, table: Table) -> list[str]:
        return [seat.name for seat in table.seats]

    async def prompt(self, table: Table) -> tuple[str, Outgoing] | None:
        view = table.view(None)
        phase, race = view["phase"], view["race"]
        if phase == "draft":
            return f"draft:{race}", self._draft_prompt(table, view)
        if phase in ("submit", "double"):
            waiting = sorted(
                {table.seats[d.player].name for d in table.human_pending() if d.player is not None}
            )
            if phase == "submit":
                n = 2 if table.engine.seats == 2 else 1  # type: ignore[union-attr]
                what = f"Everyone adds {n} card{'s' if n > 1 else ''} from their hand to the race deck, face down."
                title = f"Race {race} — secret picks"
            else:
                what = "Race 3 pays double: everyone picks one of their bets to double (losses double too)."
                title = "Race 3 — pick your double"
            embed = discord.Embed(title=title, colour=COLOUR, description=what)
            embed.add_field(name="Waiting for", value=", ".join(waiting) or "nobody", inline=False)
            embed.add_field(name="Deadline", value=table.deadline_mark())
            embed.set_footer(text="I've sent you a DM. No DM? Press My hand.")
            return f"{phase}:{race}", Outgoing(embed=embed, view=self._hand_only(table))
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
        ui = discord.ui.View(timeout=None)
        decision = table.engine.decision_for(turn, "bet")  # type: ignore[union-attr]
        if decision is not None and not table.seats[turn].is_ai:
            for option in decision.options:
                parts = option.split(":")
                row = (
                    ("gobbler", "hurley", "dangle", "mum").index(parts[1]) // 2 if parts[0] == "ticket" else 2
                )
                style = discord.ButtonStyle.danger if parts[2] == "risky" else discord.ButtonStyle.success
                emoji = EMOJI.get(parts[1]) if parts[0] == "ticket" else None
                ui.add_item(
                    GameButton(
                        decision_id(table.game_id, turn, table.acted[turn], "bet", option),
                        option_label(option),
                        style=style,
                        emoji=emoji,
                        row=row,
                    )
                )
        ui.add_item(self._hand_button(table, row=3))
        return Outgoing(embed=embed, view=ui)

    def _hand_button(self, table: Table, row: int | None = None) -> GameButton:
        return GameButton(f"g:{table.game_id}:hand", "My hand", emoji="🃏", row=row)

    def _hand_only(self, table: Table) -> discord.ui.View:
        ui = discord.ui.View(timeout=None)
        ui.add_item(self._hand_button(table))
        return ui

    def private_prompt(self, table: Table, seat: int, decision: Decision) -> Outgoing:
        view = table.view(seat)
        out = self.hand(table, seat)
        ui = discord.ui.View(timeout=None)
        if decision.kind == "submit":
            n = len(decision.options[0]) if decision.options else 1
            out.content = (
                f"**Race {view['race']}: pick {n} card{'s' if n > 1 else ''} to add to the race deck.** "
                "Nobody else sees it until it is flipped."
            )
            options = [
                discord.SelectOption(label=cards_label(option)[:100], value=option_value(option))
                for option in decision.options
            ]
            placeholder = "Choose your secret card" + ("s" if n > 1 else "")
        else:
            out.content = "**Race 3: pick the bet to pay double** (a loss doubles too)."
            bets = view["bets"][seat]
            options = [
                discord.SelectOption(label=bets[i]["label"][:100], value=option_value(i))
                for i in decision.options
            ]
            placeholder = "Choose the bet to double"
        ui.add_item(
            GameSelect(select_id(table.game_id, seat, table.acted[seat], decision.kind), options, placeholder)
        )
        out.view = ui
        return out

    def hand(self, table: Table, seat: int) -> Outgoing:
        view = table.view(seat)
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
        out: list[Outgoing] = []
        reshuffled = False
        results: dict[str, Any] = {}
        for event in events:
            data = event.data
            if not event.is_visible_to(None):  # a private event: only its seat may see it
                if event.kind == "dealt":
                    seat = data["seat"]
                    hand = ", ".join(card_label(c) for c in table.view(seat)["hand"])
                    dealt = ", ".join(card_label(c) for c in data["cards"])
                    out.append(
                        Outgoing(
                            seat=seat,
                            content=f"🃏 Race {data['race']}: you were dealt {dealt}.\nYour hand: {hand}",
                        )
                    )
                continue  # other private events (one's own pick) are confirmed to the picker only
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
                out.append(await self._frame(event))
            elif event.kind == "doubled":
                out.append(
                    Outgoing(content=f"✖️2 **{names[data['seat']]}** doubles {data['label'].rstrip('.')}.")
                )
            elif event.kind in ("race_over", "payouts"):
                results[event.kind] = data
                if len(results) == 2:
                    out.append(
                        Outgoing(embed=self._results_embed(table, results["race_over"], results["payouts"]))
                    )
                    results = {}
            elif event.kind == "game_over":
                out.append(Outgoing(embed=self._standings_embed(table, data)))
        return out

    async def _frame(self, event: Event) -> Outgoing:
        frame = event.data["frame"]
        image = await asyncio.to_thread(render_race, frame)
        number = f"Card {event.data.get('flip')}" if event.kind == "card_flipped" else "Deck dry"
        return Outgoing(
            content=f"**{number}** · {race_line(event.kind, event.data)}",
            image=image,
            image_name=f"race{frame['race']}-{event.data.get('flip', 'fold')}.png",
            alt=alt_text(frame),
        )

    async def _race_setup(self, table: Table, data: dict[str, Any]) -> Outgoing:
        view = table.view(None)
        embed = discord.Embed(title=f"🏁 Hot Streak — race {data['race']} of 3", colour=COLOUR)
        embed.description = f"**{table.seats[data['first_better']].name}** bets first this race."
        embed.add_field(
            name="Face-up race cards",
            value=", ".join(card_label(c) for c in data["face_up"])[:1024],
            inline=False,
        )
        embed.add_field(name="Side bet", value=data["side_bet"]["text"], inline=False)
        embed.set_image(url="attachment://track.png")
        # The deck is built when the picks are in: face-up cards plus each seat's secret card(s).
        per_seat = 2 if table.engine.seats == 2 else 1  # type: ignore[union-attr]
        view["cards_left"] = len(data["face_up"]) + per_seat * len(table.seats)
        image = await asyncio.to_thread(render_race, view)
        return Outgoing(embed=embed, image=image, image_name="track.png", alt=alt_text(view))

    def _results_embed(self, table: Table, over: dict[str, Any], payouts: dict[str, Any]) -> discord.Embed:
        names = self._names(table)
        info = table.view(None)["mascot_info"]
        embed = discord.Embed(title=f"🏆 Race {over['race']} results", colour=discord.Colour.gold())
        podium = [
            f"{PLACES[i + 1]} {EMOJI.get(m, '')} **{info[m]['name']}**"
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
        embed.set_footer(text="Results saved · /leaderboard · /stats")
        return embed

    async def snapshot(self, table: Table) -> list[Outgoing]:
        assert table.engine is not None
        if table.seq == 0:
            return await self.announce(table, table.engine.opening_events())  # type: ignore[attr-defined]
        view = table.view(None)
        if view["phase"] == "race":
            image = await asyncio.to_thread(render_race, view)
            return [Outgoing(content=f"Race {view['race']} in progress.", image=image, alt=alt_text(view))]
        return []

    def choice_label(self, table: Table, seat: int, decision: Decision, choice: Any) -> str:
        if decision.kind == "bet":
            bets = table.view(seat)["bets"][seat]
            return f"✅ You took {bets[-1]['label'].rstrip('.')}." if bets else "✅ Bet taken."
        if decision.kind == "submit":
            return (
                f"🤫 Your secret pick is in: {cards_label(choice)}. Nobody else sees it until it's flipped."
            )
        return f"✖️2 You doubled {table.view(seat)['bets'][seat][choice]['label'].rstrip('.')}."

    def status_lines(self, table: Table) -> list[str]:
        view = table.view(None)
        return [
            f"Race {view['race']} of 3 · {view['phase']}",
            " · ".join(f"{s.name} {money(c)}" for s, c in zip(table.seats, view["cash"], strict=True)),
        ]

    def results(self, table: Table) -> list[PlayerResult]:
        assert table.engine is not None
        rows = []
        for result in table.engine.results():
            seat = table.seats[result.seat]
            bets = []
            for race in result.detail.get("races", []):
                for line in race["lines"]:
                    if line["kind"] == "ticket":
                        label, won = f"{line['mascot'].title()}, {line['risk']}", line["value"] > 0
                    else:
                        label, won = f"Side bet {line['answer']}, {line['risk']}", bool(line["right"])
                    bets.append(
                        StakeRecord(label, "won" if won else "lost", max(0, line["paid"]) if won else 0)
                    )
            rows.append(
                PlayerResult(
                    seat=result.seat,
                    user_id=seat.owner_id,
                    name=seat.owner_name,
                    cash=result.cash,
                    net=result.cash - 10,
                    place=result.place,
                    won=result.won,
                    stakes=bets,
                )
            )
        return rows

    def rules_text(self) -> str:
        return RULES
