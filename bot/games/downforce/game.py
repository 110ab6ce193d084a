"""Downforce, the game: grid, secret auctions, the race card by card, secret bets, scoring.

Phases (``view()["phase"]``):

* ``auction``: the cars are sold one at a time in the order of the shuffled Speed-8 cards. Every
  eligible seat at once secretly picks a card from its hand (``bid``); its bid is that card's speed
  for the auctioned colour. The bids are revealed together.
* ``race``: the seat on turn plays a card (``play``), then names a colour for a wild line
  (``wild``) and picks where a car ends (``move``) whenever there is a real choice.
* ``bet``: after a card that took a car across a yellow line for the first time, every seat at
  once secretly bets on the car it thinks will win (one round per line crossed, in order).
* ``over``.

Rulings where the rules text and the issue are silent (players at a table would expect these):

* Seats sit clockwise in seat order: after seat ``n`` comes seat ``n + 1``. A seat with no cards
  left is skipped.
* The grid is drawn from the seed before the auctions: ``grid[0]`` is on pole. Cars are sold in
  the order of the shuffled Speed-8 cards.
* Bids are revealed as amounts (what each seat bid), not as the cards that made them: the rest
  of a card would tell the table about a hand for nothing.
* When only one seat may bid (the one-car rule leaves one seat without a car for the last car),
  it gets the car for $0 without being asked: a bid with no rival is only a formality.
* A tie between the highest bids goes to the seat with fewer cars, then to a draw from the seed;
  a winning bid of 0 costs nothing.
* A wild line may be given any colour not already on the card, colours given to earlier wilds
  of the same card included. With one such colour left it is given without asking.
* A line for a car that has finished does nothing. A bet may name any car, even one that has
  already finished.
* Among ways to the same end space the engine keeps the shortest (ties: through the smallest
  space ids), so a move is one choice of end space, never of a path.
* The race ends at once when every car has finished (later lines of the card do nothing), after
  the bets of that card; or when no seat has a card left.
* Final money ties share the win (place 1 for each); places count like 1, 1, 3.
"""

from __future__ import annotations

import copy
from typing import Self

from bot.games.base import JSON, Action, Decision, Event, Game, SeatResult, Stake
from bot.games.downforce.auction import auction_winner, eligible_seats
from bot.games.downforce.cards import COLOURS, WILD, Line, bid_value, card_text
from bot.games.downforce.content import Content, default_content
from bot.games.downforce.movement import Mover, Way
from bot.games.downforce.race import Race
from bot.games.downforce.scoring import ORDINALS, bet_payout, prize
from bot.games.downforce.settings import BadSettings, Settings
from bot.games.downforce.track import Track
from bot.games.rng import GameRng

SPEED_CARDS = 42


class Downforce(Game):
    kind = "downforce"
    min_players = 2
    max_players = 6

    def __init__(self, state: dict[str, JSON], rng: GameRng) -> None:
        self.s = state
        self.rng = rng
        self.settings = Settings.parse(state["settings"])
        self.track = Track(state["track"])
        self.cards: dict[str, tuple[Line, ...]] = {
            ident: tuple((c, n) for c, n in lines) for ident, lines in state["cards"].items()
        }
        self.race = Race.from_json(self.track, state["race"])
        self.mover = Mover(self.track)

    # --- setup ----------------------------------------------------------------

    @classmethod
    def new(
        cls, seats: int, seed: int, settings: dict[str, JSON] | None = None, *, content: Content | None = None
    ) -> Self:
        """``settings``: ``{"track": "river-station"|"marina-bay", "betting": "standard"|"odds"|
        "odds-winner-only"}``. ``content`` overrides the shipped edition (for tuning); the game
        carries its track and cards in its own state."""
        if (
            isinstance(seats, bool)
            or not isinstance(seats, int)
            or not cls.min_players <= seats <= cls.max_players
        ):
            raise BadSettings(
                f"Downforce takes {cls.min_players} to {cls.max_players} players, not {seats!r}."
            )
        parsed = Settings.parse(settings)
        content = content or default_content()
        track = content.tracks[parsed.track]
        rng = GameRng(seed)
        grid = list(COLOURS)
        rng.shuffle(grid)
        auction_order = list(COLOURS)
        rng.shuffle(auction_order)
        deck = list(content.speed_cards)
        rng.shuffle(deck)
        each = len(deck) // seats
        hands = [sorted(deck[i * each : (i + 1) * each]) for i in range(seats)]
        state: dict[str, JSON] = {
            "version": 1,
            "seats": seats,
            "settings": parsed.to_json(),
            "track": track.to_json(),
            "cards": {ident: [list(line) for line in lines] for ident, lines in content.cards.items()},
            "speed8": dict(content.speed8),
            "grid": grid,
            "race": Race.on_grid(track, grid).to_json(),
            "hands": hands,
            "out_of_race": sorted(deck[seats * each :]),
            "owners": dict.fromkeys(COLOURS),
            "price": dict.fromkeys(COLOURS),
            "spent": [0] * seats,
            "auction_order": auction_order,
            "auction_index": 0,
            "eligible": list(range(seats)),
            "bids": [None] * seats,
            "auctions": [],
            "phase": "auction",
            "turn": None,
            "card": None,
            "choice": None,
            "bet_queue": [],
            "bet_picks": None,
            "bets": [[] for _ in range(seats)],
            "played": [],
            "turns": [0] * seats,
            "ended_by": None,
            "opening": [],
        }
        game = cls(state, rng)
        opening = [
            Event("grid", {"order": list(grid), "spaces": list(track.grid), "track": track.name}),
            *[
                Event("dealt", {"seat": seat, "cards": list(hand)}, (seat,))
                for seat, hand in enumerate(hands)
            ],
            Event("auction_order", {"order": list(auction_order), "left_out": len(state["out_of_race"])}),
        ]
        opening += game._open_auction()
        game.s["opening"] = [e.to_json() for e in opening]
        return game

    def opening_events(self) -> list[Event]:
        return [
            Event(e["kind"], e["data"], tuple(e["visible_to"]) if "visible_to" in e else None)
            for e in self.s["opening"]
        ]

    # --- the surface ------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.s["seats"]

    @property
    def phase(self) -> str:
        return self.s["phase"]

    @property
    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    def pending(self) -> list[Decision]:
        s = self.s
        phase = s["phase"]
        if phase == "auction":
            colour = s["auction_order"][s["auction_index"]]
            return [
                Decision(
                    seat, "bid", tuple(s["hands"][seat]), f"Secretly pick a card to bid on the {colour} car."
                )
                for seat in s["eligible"]
                if s["bids"][seat] is None
            ]
        if phase == "race":
            seat = s["turn"]
            if s["choice"] is not None:
                choice = s["choice"]
                if choice["kind"] == "wild":
                    return [
                        Decision(seat, "wild", tuple(choice["options"]), "Name a colour for the wild line.")
                    ]
                return [
                    Decision(
                        seat,
                        "move",
                        tuple(choice["options"]),
                        f"Choose where the {choice['car']} car ends its move.",
                    )
                ]
            return [Decision(seat, "play", tuple(s["hands"][seat]), "Play a speed card.")]
        if phase == "bet":
            return [
                Decision(
                    seat,
                    "bet",
                    COLOURS,
                    f"Secret {ORDINALS[len(s['bets'][seat])]} bet: which car will win the race?",
                )
                for seat in range(self.seats)
                if s["bet_picks"][seat] is None
            ]
        return []

    def _apply(self, action: Action, decision: Decision) -> list[Event]:
        seat, choice = action.player, action.choice
        if decision.kind == "bid":
            return self._bid(seat, choice)
        if decision.kind == "play":
            return self._play(seat, choice)
        if decision.kind == "wild":
            return self._wild(choice)
        if decision.kind == "move":
            return self._move_choice(choice)
        return self._bet(seat, choice)

    # --- auctions -----------------------------------------------------------------

    def _cars_of(self, seat: int) -> list[str]:
        return [c for c in COLOURS if self.s["owners"][c] == seat]

    def _car_counts(self) -> dict[int, int]:
        return {seat: len(self._cars_of(seat)) for seat in range(self.seats)}

    def _open_auction(self) -> list[Event]:
        """Start the auction of the next car; a seat alone may take it unasked (see the rulings)."""
        s = self.s
        colour = s["auction_order"][s["auction_index"]]
        left = len(COLOURS) - s["auction_index"]
        eligible = eligible_seats(self.seats, self._car_counts(), left)
        s["eligible"] = eligible
        s["bids"] = [None] * self.seats
        events = [
            Event(
                "auction_open",
                {
                    "colour": colour,
                    "number": s["auction_index"] + 1,
                    "grid_slot": s["grid"].index(colour) + 1,
                    "eligible": list(eligible),
                },
            )
        ]
        if len(eligible) == 1:
            events += self._award(colour, eligible[0], 0, {}, tie=False, drawn=False)
        return events

    def _bid(self, seat: int, card: str) -> list[Event]:
        s = self.s
        colour = s["auction_order"][s["auction_index"]]
        s["bids"][seat] = card
        value = bid_value(self.cards[card], colour)
        events = [
            Event("bid_placed", {"seat": seat, "colour": colour}),
            Event("bid_card", {"seat": seat, "colour": colour, "card": card, "value": value}, (seat,)),
        ]
        if any(s["bids"][e] is None for e in s["eligible"]):
            return events
        values = {e: bid_value(self.cards[s["bids"][e]], colour) for e in s["eligible"]}
        winner, tie, drawn = auction_winner(values, self._car_counts(), self.rng)
        return events + self._award(colour, winner, values[winner], values, tie=tie, drawn=drawn)

    def _award(
        self, colour: str, seat: int, price: int, values: dict[int, int], *, tie: bool, drawn: bool
    ) -> list[Event]:
        s = self.s
        s["owners"][colour] = seat
        s["price"][colour] = price
        s["spent"][seat] += price
        eight = s["speed8"][colour]
        s["hands"][seat] = sorted([*s["hands"][seat], eight])
        record = {
            "colour": colour,
            "seat": seat,
            "price": price,
            "grid_slot": s["grid"].index(colour) + 1,
            "bids": {str(k): v for k, v in sorted(values.items())},
            "tie": tie,
            "drawn": drawn,
            "speed8": eight,
        }
        s["auctions"].append(record)
        s["bids"] = [None] * self.seats
        events = [Event("auction_won", dict(record))]
        s["auction_index"] += 1
        if s["auction_index"] < len(COLOURS):
            return events + self._open_auction()
        return events + self._start_race()

    def _start_race(self) -> list[Event]:
        s = self.s
        pole = s["grid"][0]
        first = s["owners"][pole]
        s["phase"] = "race"
        s["turn"] = first
        s["eligible"] = []
        return [
            Event(
                "race_start",
                {
                    "first": first,
                    "pole": pole,
                    "owners": dict(s["owners"]),
                    "spent": list(s["spent"]),
                    "hand_sizes": [len(h) for h in s["hands"]],
                },
            )
        ]

    # --- the race -----------------------------------------------------------------

    def _play(self, seat: int, card: str) -> list[Event]:
        s = self.s
        s["hands"][seat].remove(card)
        s["played"].append(card)
        s["turns"][seat] += 1
        lines = self.cards[card]
        s["card"] = {
            "seat": seat,
            "id": card,
            "number": len(s["played"]) - 1,
            "lines": [list(line) for line in lines],
            "colours": [c if c != WILD else None for c, _ in lines],
            "line": 0,
            "moves": [],
        }
        events = [
            Event(
                "card_played",
                {"seat": seat, "card": card, "text": card_text(lines), "number": len(s["played"])},
            )
        ]
        return events + self._resolve()

    def wild_options(self) -> list[str]:
        card = self.s["card"]
        named = {c for c in card["colours"] if c is not None}
        return [c for c in COLOURS if c not in named]

    def _resolve(self) -> list[Event]:
        """Resolve the card in play from its current line, stopping at a real choice."""
        s = self.s
        card = s["card"]
        events: list[Event] = []
        while card["line"] < len(card["lines"]):
            index = card["line"]
            if card["colours"][index] is None:
                options = self.wild_options()
                if len(options) > 1:
                    s["choice"] = {"kind": "wild", "line": index, "options": options}
                    return events
                card["colours"][index] = options[0]
                events.append(
                    Event("wild_named", {"seat": card["seat"], "line": index, "colour": options[0]})
                )
            colour = card["colours"][index]
            speed = card["lines"][index][1]
            if not self.race.racing(colour):
                card["line"] += 1
                continue
            ways = self.ways(colour, speed)
            if len(ways) > 1:
                options = sorted(ways)
                s["choice"] = {
                    "kind": "move",
                    "car": colour,
                    "speed": speed,
                    "line": index,
                    "options": options,
                    "paths": {end: list(way.path) for end, way in ways.items()},
                }
                return events
            (way,) = ways.values()
            events.append(self._take(colour, speed, way, chosen=False))
        return events + self._card_done()

    def ways(self, colour: str, speed: int) -> dict[str, Way]:
        """The ends a line of ``speed`` for ``colour`` can reach now, each with its way."""
        return self.mover_for(colour).ways(self.race.spaces[colour], speed, self.race.occupied())

    def mover_for(self, colour: str) -> Mover:
        """The movement rules for ``colour``'s move: the base game's for every car. The hook where
        powers (which belong to a car's owner) will swap in their own ``Mover``."""
        return self.mover

    def _take(self, colour: str, speed: int, way: Way, *, chosen: bool) -> Event:
        card = self.s["card"]
        moved = self.race.move(colour, way, card["number"])
        moved.update({"speed": speed, "line": card["line"], "chosen": chosen, "card": card["number"]})
        card["moves"].append(moved)
        card["line"] += 1
        self.s["choice"] = None
        self._sync()
        return Event("car_moved", dict(moved))

    def _wild(self, colour: str) -> list[Event]:
        card = self.s["card"]
        index = self.s["choice"]["line"]
        card["colours"][index] = colour
        self.s["choice"] = None
        event = Event("wild_named", {"seat": card["seat"], "line": index, "colour": colour})
        return [event, *self._resolve()]

    def _move_choice(self, end: str) -> list[Event]:
        choice = self.s["choice"]
        way = Way(tuple(choice["paths"][end]))
        event = self._take(choice["car"], choice["speed"], way, chosen=True)
        return [event, *self._resolve()]

    def _card_done(self) -> list[Event]:
        s = self.s
        card = s["card"]
        lines = sorted({i for m in card["moves"] for i in m["first_lines"]})
        played = {
            "seat": card["seat"],
            "card": card["id"],
            "number": card["number"] + 1,
            "lines": [[c, n] for c, (_, n) in zip(card["colours"], card["lines"], strict=True)],
            "wilds": [i for i, (c, _) in enumerate(card["lines"]) if c == WILD],
            "moves": copy.deepcopy(card["moves"]),
            "first_lines": [self.track.lines[i] for i in lines],
            "standings": self.race.standings(),
        }
        s["card"] = None
        events = [Event("card_resolved", played)]
        if lines:
            s["bet_queue"] = lines
            return events + self._open_bets()
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        s = self.s
        if self.race.all_finished:
            return self._end("finish")
        if not any(s["hands"]):
            return self._end("cards_out")
        seat = s["turn"]
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if s["hands"][nxt]:
                s["turn"] = nxt
                break
        s["phase"] = "race"
        return [Event("turn", {"seat": s["turn"]})]

    # --- bets ---------------------------------------------------------------------

    def _open_bets(self) -> list[Event]:
        s = self.s
        s["phase"] = "bet"
        s["bet_picks"] = [None] * self.seats
        line = s["bet_queue"][0]
        return [Event("bets_open", {"line": self.track.lines[line], "number": line + 1})]

    def _bet(self, seat: int, colour: str) -> list[Event]:
        s = self.s
        line = s["bet_queue"][0]
        s["bet_picks"][seat] = colour
        index = len(s["bets"][seat])
        bet = {
            "car": colour,
            "line": self.track.lines[line],
            "index": index,
            "position": self.race.position(colour),
        }
        s["bets"][seat].append(bet)
        events = [
            Event("bet_placed", {"seat": seat, "line": bet["line"], "index": index}),
            Event("bet_secret", {"seat": seat, **bet}, (seat,)),
        ]
        if any(p is None for p in s["bet_picks"]):
            return events
        s["bet_queue"].pop(0)
        s["bet_picks"] = None
        if s["bet_queue"]:
            return events + self._open_bets()
        s["phase"] = "race"
        return events + self._next_turn()

    # --- the end ------------------------------------------------------------------

    def final_places(self) -> dict[str, int]:
        return {colour: i + 1 for i, colour in enumerate(self.race.standings())}

    def scores(self) -> list[dict[str, JSON]]:
        """Each seat's prizes, bet payouts, auction spending and total (the final money)."""
        places = self.final_places()
        betting = self.settings.betting
        out = []
        for seat in range(self.seats):
            cars = [{"car": c, "place": places[c], "prize": prize(places[c])} for c in self._cars_of(seat)]
            bets = [
                {
                    **b,
                    "place": places[b["car"]],
                    "paid": bet_payout(betting, b["index"], places[b["car"]], b["position"]),
                }
                for b in self.s["bets"][seat]
            ]
            prizes = sum(c["prize"] for c in cars)
            won = sum(b["paid"] for b in bets)
            spent = self.s["spent"][seat]
            out.append(
                {
                    "seat": seat,
                    "cars": cars,
                    "bets": bets,
                    "prizes": prizes,
                    "bet_winnings": won,
                    "spent": spent,
                    "money": prizes + won - spent,
                }
            )
        money = [o["money"] for o in out]
        for o in out:
            o["place"] = 1 + sum(1 for m in money if m > o["money"])
            o["won"] = o["place"] == 1
        return out

    def _end(self, how: str) -> list[Event]:
        s = self.s
        s["phase"] = "over"
        s["turn"] = None
        s["ended_by"] = how
        places = self.final_places()
        scores = self.scores()
        return [
            Event("race_over", {"ended_by": how, "places": places, "order": self.race.standings()}),
            Event("bets_revealed", {"bets": copy.deepcopy(s["bets"])}),
            Event(
                "game_over",
                {"scores": scores, "winners": [o["seat"] for o in scores if o["won"]]},
            ),
        ]

    # --- views, storage, results -----------------------------------------------------

    def card_view(self, ident: str) -> dict[str, JSON]:
        lines = self.cards[ident]
        return {"id": ident, "text": card_text(lines), "lines": [list(line) for line in lines]}

    def view(self, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` may see: everything public, plus its own hand, bid and bets.

        Other seats' bids are hidden until the auction is revealed, bets until the game ends.
        """
        s = self.s
        race = self.race
        standings = race.standings()
        over = s["phase"] == "over"
        cars = {
            c: {
                "space": race.spaces[c],
                "finished": c in race.finished,
                "place": race.place_of(c),
                "position": standings.index(c) + 1,
                "owner": s["owners"][c],
                "price": s["price"][c],
                "grid_slot": s["grid"].index(c) + 1,
            }
            for c in COLOURS
        }
        auction = None
        if s["phase"] == "auction":
            colour = s["auction_order"][s["auction_index"]]
            auction = {
                "colour": colour,
                "number": s["auction_index"] + 1,
                "eligible": list(s["eligible"]),
                "waiting": [e for e in s["eligible"] if s["bids"][e] is None],
            }
        card = s["card"]
        last = s["played"][-1] if s["played"] else None
        view: dict[str, JSON] = {
            "game": self.kind,
            "phase": s["phase"],
            "seats": self.seats,
            "settings": dict(s["settings"]),
            "track": self.track.to_json(),
            "grid": list(s["grid"]),
            "cars": cars,
            "standings": standings,
            "crossings": copy.deepcopy(race.crossings),
            "owners": dict(s["owners"]),
            "spent": list(s["spent"]),
            "auction_order": list(s["auction_order"]),
            "auction": auction,
            "auctions": copy.deepcopy(s["auctions"]),
            "turn": s["turn"],
            "card_in_play": None
            if card is None
            else {
                "seat": card["seat"],
                **self.card_view(card["id"]),
                "colours": list(card["colours"]),
                "line": card["line"],
                "moves": copy.deepcopy(card["moves"]),
            },
            "choice": copy.deepcopy(s["choice"]),
            "bet_line": self.track.lines[s["bet_queue"][0]] if s["phase"] == "bet" else None,
            "bet_waiting": [i for i, p in enumerate(s["bet_picks"] or []) if p is None],
            "bet_counts": [len(b) for b in s["bets"]],
            "hand_sizes": [len(h) for h in s["hands"]],
            "cards_played": len(s["played"]),
            "last_card": None if last is None else self.card_view(last),
            "turns": list(s["turns"]),
            "ended_by": s["ended_by"],
        }
        if over:
            view["bets"] = copy.deepcopy(s["bets"])
            view["scores"] = self.scores()
        if viewer is not None:
            view["seat"] = viewer
            view["hand"] = [self.card_view(c) for c in s["hands"][viewer]]
            bid = s["bids"][viewer] if s["phase"] == "auction" else None
            view["my_bid"] = None if bid is None else self.card_view(bid)
            view["my_bets"] = copy.deepcopy(s["bets"][viewer])
        return view

    def _sync(self) -> None:
        self.s["race"] = self.race.to_json()

    def to_json(self) -> dict[str, JSON]:
        self._sync()
        return {"kind": self.kind, "state": copy.deepcopy(self.s), "rng": self.rng.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Self:
        return cls(copy.deepcopy(data["state"]), GameRng.from_json(data["rng"]))

    def results(self) -> list[SeatResult]:
        """Money = prizes + bets - spending. Stakes: each bet (``"1st bet: red"``), and each car
        owned (``"car: red"``, paid its prize): buying a car is the biggest stake of the game, and
        listing it lets ``/stats`` show a player's luck with cars next to their bets."""
        out = []
        for score in self.scores():
            stakes = [
                Stake(
                    f"{ORDINALS[b['index']]} bet: {b['car']}", "won" if b["paid"] > 0 else "lost", b["paid"]
                )
                for b in score["bets"]
            ]
            stakes += [
                Stake(f"car: {c['car']}", "won" if c["prize"] > 0 else "lost", c["prize"])
                for c in score["cars"]
            ]
            out.append(
                SeatResult(
                    seat=score["seat"],
                    cash=score["money"],
                    place=score["place"],
                    won=score["won"] and self.is_over,
                    detail={k: score[k] for k in ("cars", "bets", "prizes", "bet_winnings", "spent")},
                    net=score["money"],
                    stakes=tuple(stakes),
                )
            )
        return out
