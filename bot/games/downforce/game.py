"""Downforce, the game: grid, secret auctions, the race card by card, secret bets, scoring.

Phases (``view()["phase"]``):

* ``auction``: the cars are sold one at a time in the order of the shuffled Speed-8 cards. Every
  eligible seat at once secretly picks a card from its hand (``bid``); its bid is that card's speed
  for the auctioned colour. The bids are revealed together.
* ``race``: the seat on turn plays a card (``play``), then names a colour for a wild line
  (``wild``) and picks where a car ends (``move``) whenever there is a real choice.
* ``keep``: with powers on, a seat that won several power cards secretly keeps one (``keep``).
* ``bet``: after a card that took a car across a yellow line for the first time, every seat at
  once secretly bets on the car it thinks will win (one round per line crossed, in order).
* ``over``.

Decision kinds (``Decision.kind``; options in brackets):

* ``bid`` [card ids], ``play`` [card ids], ``wild`` [colours], ``move`` [end space ids, or
  ``FINISH``; rules 2 also ``end~via`` for another way to an end that reads differently for a
  power, with ``choice["reads"]``: ruling (c)], ``bet`` [colours]: the base game.
* ``keep`` [power names]: after the auctions, a seat with several powers keeps one (private,
  simultaneous; the kept powers are revealed together when the race starts).
* ``power`` ["yes", "no"]: an optional power (``choice["power"]`` names it; ``choice["car"]`` the
  car it would move). May be asked of a seat that is not on turn (``determined``, ``ambitious``,
  ``experienced``, ``tough``): it interrupts the turn, which goes on after the answer.
* ``ignore`` [colours on the card, "none"]: ``strategic``: a colour of the card to ignore.
* ``defensive`` [colours]: ``defensive``: which of the seat's cars makes the 3-space move.
* A ``move`` may also be asked of a seat not on turn: the owner of a ``cunning`` car, or the owner
  of a power's extra move (``choice["power"]`` is then set).

Settings: ``track`` (see ``content.TRACKS``), ``betting`` (``standard``, ``odds``,
``odds-winner-only``), ``powers`` (``off``, ``base``, ``all``). Powers and their rulings:
``powers.py`` (the record of one power: ``power.py``); track features: ``movement.py`` (loops,
cracks, ramps) and ``race.py`` (animals).

Rulings where the rules text is silent (players at a table would expect these):

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
  of the same card included, of a car still racing (a finished car cannot use it: setting
  ``wild: racing``; games stored before this ruling keep ``any``, so their logs replay). With one
  such colour left it is given without asking; with none, the line does nothing.
* A line for a car that has finished does nothing. A bet may name any car, even one that has
  already finished.
* Among ways to the same end space the engine keeps the shortest (ties: through the smallest
  space ids), so a move is one choice of end space; except (rules 2, ruling (c) of issue 27) when
  the ways to one end differ for the moved car's owner's Determined or Reckless: then the end is
  offered once per reading (``end`` and ``end~via``, ``_line_ways``) by whoever picks the end.
* The race ends at once when every car has finished (later lines of the card do nothing), after
  the bets of that card; or when no seat has a card left.
* Final money ties share the win (place 1 for each); places count like 1, 1, 3.
* The state's ``rules`` is the rules version the game started under (``movement.RULES`` for new
  games; none means 1, games stored before issue 27): a race never changes its rules half-way.
"""

from __future__ import annotations

import copy
from typing import Self

from bot.games.base import JSON, Action, Decision, Event, Game, SeatResult, Stake, fresh
from bot.games.downforce.auction import auction_winner, eligible_seats
from bot.games.downforce.cards import COLOURS, WILD, Line, bid_value, card_text
from bot.games.downforce.content import Content, default_content
from bot.games.downforce.movement import RULES, Mover, Way
from bot.games.downforce.power import Effect, LineMove, Power, When
from bot.games.downforce.powers import POWERS
from bot.games.downforce.powers import deal as deal_powers
from bot.games.downforce.race import Race
from bot.games.downforce.scoring import ORDINALS, bet_payout, prize
from bot.games.downforce.settings import BadSettings, Settings
from bot.games.downforce.track import FINISH, Track
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
        # The rules version the game started under: stored games without one are version 1 and
        # finish under those rules; new games record ``RULES`` (see ``movement.Mover``, ``Race.move_animals``).
        self.rules: int = state.get("rules", 1)
        self.mover = Mover(self.track, self.rules)
        self.whole_turn = self.rules >= 2  # rule 3 of issue 27: animals judged over the whole turn

    # --- setup ----------------------------------------------------------------

    @classmethod
    def new(
        cls, seats: int, seed: int, settings: dict[str, JSON] | None = None, *, content: Content | None = None
    ) -> Self:
        """``settings``: ``{"track": one of content.TRACKS, "betting": "standard"|"odds"|
        "odds-winner-only", "powers": "off"|"base"|"all"}``. ``content`` overrides the shipped edition (for tuning); the game
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
        # Drawn only with powers on: a game without them takes nothing more from its seed.
        dealt = deal_powers(parsed.powers, rng.sample)
        state: dict[str, JSON] = {
            "version": 1,
            "rules": RULES,
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
        if parsed.powers != "off":
            state["powers_dealt"] = dealt  # in auction order
            state["powers_won"] = [[] for _ in range(seats)]
            state["powers"] = {}  # str(seat) -> the kept power
            state["keep_picks"] = None
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
        if phase == "keep":
            return [
                Decision(
                    seat,
                    "keep",
                    tuple(s["powers_won"][seat]),
                    "Keep one of your powers (the others are discarded); it works for all your cars.",
                )
                for seat in range(self.seats)
                if len(s["powers_won"][seat]) > 1 and s["keep_picks"][seat] is None
            ]
        if phase == "race":
            seat = s["turn"]
            if s["choice"] is not None:
                choice = s["choice"]
                seat = choice.get("seat", seat)
                if choice["kind"] == "power":
                    return [
                        Decision(
                            seat,
                            "power",
                            ("yes", "no"),
                            f"Use your {choice['power']} power"
                            + (f" on the {choice['car']} car?" if choice.get("car") else "?"),
                        )
                    ]
                if choice["kind"] == "ignore":
                    return [
                        Decision(seat, "ignore", tuple(choice["options"]), "Strategic: ignore one colour?")
                    ]
                if choice["kind"] == "defensive":
                    return [
                        Decision(seat, "defensive", tuple(choice["options"]), "Defensive: which car moves 3?")
                    ]
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
        if seat is None:
            raise ValueError("every Downforce decision belongs to a seat")
        if decision.kind == "bid":
            return self._bid(seat, choice)
        if decision.kind == "play":
            return self._play(seat, choice)
        if decision.kind == "wild":
            return self._wild(choice)
        if decision.kind == "move":
            return self._move_choice(choice)
        if decision.kind == "keep":
            return self._keep(seat, choice)
        if decision.kind == "power":
            return self._power_answer(choice)
        if decision.kind == "ignore":
            return self._ignore(choice)
        if decision.kind == "defensive":
            return self._defend(choice)
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
                    **({"power": self._dealt(s["auction_index"])} if "powers_dealt" in s else {}),
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
        power = self._dealt(s["auction_index"])
        if power is not None:
            record["power"] = power
            s["powers_won"][seat].append(power)
        s["auctions"].append(record)
        s["bids"] = [None] * self.seats
        events = [Event("auction_won", dict(record))]
        s["auction_index"] += 1
        if s["auction_index"] < len(COLOURS):
            return events + self._open_auction()
        return events + self._after_auctions()

    # --- powers -----------------------------------------------------------------------

    def _dealt(self, index: int) -> str | None:
        dealt = self.s.get("powers_dealt")
        return dealt[index] if dealt else None

    def power_of(self, seat: int | None) -> Power | None:
        """The power ``seat`` kept (it works for all its cars), if any."""
        if seat is None:
            return None
        name = self.s.get("powers", {}).get(str(seat))
        return POWERS[name] if name is not None else None

    def _held(self, seat: int) -> Power:
        """The power ``seat`` kept, which the choice it is answering comes from."""
        power = self.power_of(seat)
        if power is None:
            raise ValueError(f"seat {seat} holds no power")
        return power

    def _after_auctions(self) -> list[Event]:
        """A seat with one power keeps it; seats with several choose in secret, then the race starts."""
        s = self.s
        if "powers_won" not in s:
            return self._start_race()
        for seat, won in enumerate(s["powers_won"]):
            if len(won) == 1:
                s["powers"][str(seat)] = won[0]
        if any(len(won) > 1 for won in s["powers_won"]):
            s["phase"] = "keep"
            s["eligible"] = []
            s["keep_picks"] = [None] * self.seats
            return [Event("keep_open", {"seats": [i for i, w in enumerate(s["powers_won"]) if len(w) > 1]})]
        return self._reveal_powers()

    def _keep(self, seat: int, power: str) -> list[Event]:
        s = self.s
        s["keep_picks"][seat] = power
        s["powers"][str(seat)] = power
        events = [Event("power_kept_secret", {"seat": seat, "power": power}, (seat,))]
        if any(len(w) > 1 and s["keep_picks"][i] is None for i, w in enumerate(s["powers_won"])):
            return events
        return events + self._reveal_powers()

    def _reveal_powers(self) -> list[Event]:
        kept = {int(k): v for k, v in self.s["powers"].items()}
        return [
            Event("powers_kept", {"powers": {str(k): kept[k] for k in sorted(kept)}}),
            *self._start_race(),
        ]

    def _mover_seat(self, colour: str) -> int:
        """Who picks where ``colour`` ends: the player on turn, or its owner if that owner is cunning."""
        turn = self.s["turn"]
        owner = self.s["owners"][colour]
        power = self.power_of(owner)
        if owner != turn and power is not None and power.effect is Effect.OWNER_CHOOSES_ENDS:
            return owner
        return turn

    def _pre_play(self, seat: int) -> list[Event]:
        """Powers asked before the first line moves (strategic's colour to ignore, tricky's yes/no)."""
        card = self.s["card"]
        power = self.power_of(seat)
        printed = [c for c, _ in card["lines"]]
        if power is None or power.when is not When.BEFORE_THE_CARD or not power.on_card(printed):
            return []
        if power.effect is Effect.IGNORE_A_COLOUR:
            self.s["choice"] = {"kind": "ignore", "seat": seat, "options": [*printed, "none"]}
        else:
            self.s["choice"] = {"kind": "power", "seat": seat, "power": power.name, "options": ["yes", "no"]}
        return []

    def _power_answer(self, answer: str) -> list[Event]:
        s = self.s
        card = s["card"]
        choice = s["choice"]
        s["choice"] = None
        power = choice["power"]
        events: list[Event] = []
        if POWERS[power].effect is Effect.REVERSE_THE_CARD:
            if answer == "yes":
                card["order"].reverse()
                events.append(Event("power_used", {"seat": choice["seat"], "power": power}))
            return events + self._resolve()
        offer = card["offers"].pop(0)
        if answer == "yes":
            card["extras"].append(offer)
            events.append(Event("power_used", {"seat": offer["seat"], "power": power, "car": offer["car"]}))
        return events + self._resolve()

    def _ignore(self, colour: str) -> list[Event]:
        s = self.s
        choice = s["choice"]
        s["choice"] = None
        if colour != "none":
            s["card"]["ignored"] = colour
            power = self._held(choice["seat"]).name
            return [
                Event("power_used", {"seat": choice["seat"], "power": power, "car": colour}),
                *self._resolve(),
            ]
        return self._resolve()

    def _defend(self, colour: str) -> list[Event]:
        s = self.s
        seat = s["choice"]["seat"]
        s["choice"] = None
        return self._defensive_move(seat, colour) + self._resolve()

    def _defensive_move(self, seat: int, colour: str) -> list[Event]:
        power = self._held(seat)
        self.s["card"]["extras"].append(
            {"seat": seat, "power": power.name, "car": colour, "speed": power.extra}
        )
        return [Event("power_used", {"seat": seat, "power": power.name, "car": colour})]

    def _triggers(self, colour: str, moved: dict[str, JSON], index: int) -> list[Event]:
        """Queue the powers one line's move sets off (order: see ``powers.py``); an automatic one
        (daring) applies at once."""
        s = self.s
        card = s["card"]
        turn = card["seat"]
        owner = s["owners"][colour]
        power = self.power_of(owner)
        steps = moved["steps"]
        spaces = self.track.spaces
        events: list[Event] = []
        offers: list[dict[str, JSON]] = []
        if moved["to"] != FINISH and power is not None and power.when is When.AFTER_ITS_CARS_MOVE:
            move = LineMove(
                self.track,
                index,
                moved["from"],
                moved["to"],
                tuple(p for p in moved["path"] if p != FINISH),
                steps,
            )
            if (owner == turn or not power.own_turn) and power.after_move(move):
                offer = {"seat": owner, "power": power.name, "car": colour, "speed": power.extra_speed(steps)}
                if not power.automatic:
                    offers.append(offer)
                elif self._offer_ways(offer):  # narrated only when the car really can go on
                    card["extras"].append(offer)
                    events.append(Event("power_used", {"seat": owner, "power": power.name, "car": colour}))
        if steps:
            left = moved["from"]
            for step in range(self.seats):
                seat = (turn + step) % self.seats
                held = self.power_of(seat)
                if held is None or held.when is not When.AFTER_A_CAR_LEAVES_AHEAD:
                    continue
                for car in self._cars_of(seat):
                    here = self.race.spaces[car]
                    if (
                        car != colour
                        and here is not None
                        and self.race.racing(car)
                        and spaces[here].flags.get("straight") == left
                    ):
                        offers.append({"seat": seat, "power": held.name, "car": car, "to": left})
        card["offers"].extend(offers)
        return events

    def _offer_ways(self, offer: dict[str, JSON]) -> dict[str, Way]:
        """Where an offered or accepted extra move can end now (empty: it cannot move)."""
        colour = offer["car"]
        if not self.race.racing(colour):
            return {}
        if POWERS[offer["power"]].effect is Effect.TAKE_THE_SPACE_LEFT:
            target = offer["to"]
            here = self.race.where(colour)
            steps = self.mover_for(colour).steps_from(here, self.race.occupied())
            return {target: Way((target,))} if target in steps else {}
        ways = self.ways(colour, offer["speed"])
        return {end: way for end, way in ways.items() if way.steps}

    def _take_extra(self, extra: dict[str, JSON], way: Way, *, chosen: bool, options: list[str]) -> Event:
        card = self.s["card"]
        moved = self.race.move(extra["car"], way, card["number"])
        moved.update(
            {
                "speed": extra.get("speed", 1),
                "line": None,
                "chosen": chosen,
                "card": card["number"],
                "power": extra["power"],
                "seat": extra["seat"],
                "options": options,
            }
        )
        card["moves"].append(moved)
        card["extras"].pop(0)
        self.s["choice"] = None
        self._sync()
        return Event("car_moved", dict(moved))

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
            "order": list(range(len(lines))),
            "offers": [],
            "extras": [],
            "ignored": None,
            "defended": False,
        }
        events = [
            Event(
                "card_played",
                {"seat": seat, "card": card, "text": card_text(lines), "number": len(s["played"])},
            )
        ]
        events += self._pre_play(seat)
        if s["choice"] is not None:
            return events
        return events + self._resolve()

    def wild_options(self) -> list[str]:
        card = self.s["card"]
        power = self.power_of(card["seat"])
        if power is not None and power.effect is Effect.ANY_WILD_COLOUR:
            options = list(COLOURS)
        else:
            named = {c for c in card["colours"] if c is not None}
            options = [c for c in COLOURS if c not in named]
        if self.settings.wild == "racing":  # a finished car cannot use a wild line: never offered
            options = [c for c in options if self.race.racing(c)]
        return options

    def _resolve(self) -> list[Event]:
        """Resolve the card in play from its current line, stopping at a real choice."""
        s = self.s
        card = s["card"]
        card.setdefault("order", list(range(len(card["lines"]))))
        for key in ("offers", "extras"):
            card.setdefault(key, [])
        events: list[Event] = []
        while True:
            if card["offers"]:
                offer = card["offers"][0]
                if not self._offer_ways(offer):
                    card["offers"].pop(0)
                    continue
                s["choice"] = {
                    "kind": "power",
                    "seat": offer["seat"],
                    "power": offer["power"],
                    "car": offer["car"],
                    "options": ["yes", "no"],
                }
                return events
            if card["extras"]:
                extra = card["extras"][0]
                ways = self._offer_ways(extra)
                if not ways:
                    card["extras"].pop(0)
                    continue
                if len(ways) > 1:
                    s["choice"] = {
                        "kind": "move",
                        "seat": extra["seat"],
                        "car": extra["car"],
                        "speed": extra.get("speed", 1),
                        "line": None,
                        "power": extra["power"],
                        "options": sorted(ways),
                        "paths": {end: list(way.path) for end, way in ways.items()},
                    }
                    return events
                (way,) = ways.values()
                events.append(self._take_extra(extra, way, chosen=False, options=sorted(ways)))
                continue
            if card["line"] >= len(card["lines"]):
                seat = card["seat"]
                power = self.power_of(seat)
                if power is not None and power.when is When.AFTER_THE_CARD and not card.get("defended"):
                    card["defended"] = True
                    mine = self._cars_of(seat)
                    moved = any(m["car"] in mine and m["steps"] for m in card["moves"])
                    racing = [c for c in mine if self.race.racing(c)]
                    if not moved and len(racing) == 1:
                        events += self._defensive_move(seat, racing[0])
                        continue
                    if not moved and racing:
                        s["choice"] = {"kind": "defensive", "seat": seat, "options": racing}
                        return events
                break
            index = card["order"][card["line"]]
            if card["colours"][index] is None:
                options = self.wild_options()
                if not options:  # every colour it could take is a finished car's: the line does nothing
                    card["line"] += 1
                    continue
                if len(options) > 1:
                    s["choice"] = {"kind": "wild", "line": index, "options": options}
                    return events
                card["colours"][index] = options[0]
                events.append(
                    Event("wild_named", {"seat": card["seat"], "line": index, "colour": options[0]})
                )
            colour = card["colours"][index]
            speed = card["lines"][index][1]
            if not self.race.racing(colour) or (
                card.get("ignored") == colour and card["lines"][index][0] == colour
            ):
                card["line"] += 1
                continue
            ways, reads = self._line_ways(colour, speed, index)
            if len(ways) > 1:
                options = sorted(ways)
                s["choice"] = {
                    "kind": "move",
                    "seat": self._mover_seat(colour),
                    "car": colour,
                    "speed": speed,
                    "line": index,
                    "options": options,
                    "paths": {end: list(way.path) for end, way in ways.items()},
                }
                if reads:
                    s["choice"]["reads"] = reads
                return events
            (way,) = ways.values()
            events += self._take(colour, speed, way, chosen=False, options=sorted(ways))
        return events + self._card_done()

    def _line_ways(self, colour: str, speed: int, index: int) -> tuple[dict[str, Way], dict[str, JSON]]:
        """The options of a card line's move: ``ways``, and under rules 2 (ruling (c) of issue 27)
        an end whose ways differ for the car's owner's Determined or Reckless (the power would be
        set off by one way and not by another) offered twice: ``end`` (its shortest way, as ever)
        and ``end~via`` (the shortest way that reads the other way for the power; ``via`` its
        spaces before the end, joined by "-"). ``reads``: for each such option, the power and
        whether that way sets it off (empty when no end splits)."""
        ways = self.ways(colour, speed)
        power = self._reading_power(colour)
        if power is None:
            return ways, {}
        if power.name == "determined":
            mark = lambda space: self.track.spaces[space].flags.get("shape") == "rectangular"  # noqa: E731
        else:
            mark = lambda space: not self.track.spaces[space].flags.get("tight")  # noqa: E731
        here = self.race.where(colour)
        apart = self.mover_for(colour).ways_apart(here, speed, self.race.occupied(), mark)
        options = dict(ways)
        reads: dict[str, JSON] = {}
        for end, way in ways.items():
            if end == FINISH or len(apart.get(end, {})) < 2:
                continue
            other = next(w for w in apart[end].values() if w != way)
            mine, theirs = (
                power.after_move(LineMove(self.track, index, here, end, w.path, w.steps))
                for w in (way, other)
            )
            if mine == theirs:
                continue
            key = f"{end}~{'-'.join(other.path[:-1])}"
            options[key] = other
            reads[end] = {"power": power.name, "sets_off": mine}
            reads[key] = {"power": power.name, "sets_off": theirs}
        return options, reads

    def _reading_power(self, colour: str) -> Power | None:
        """The power of ``colour``'s owner that reads the way a card line's move took (Determined,
        or Reckless on its owner's turn) when it could be set off now (rules 2 only; ruling (c))."""
        if self.rules < 2 or "powers" not in self.s:
            return None
        owner = self.s["owners"][colour]
        power = self.power_of(owner)
        if power is None or power.name not in ("determined", "reckless"):
            return None
        if power.own_turn and owner != self.s["card"]["seat"]:
            return None
        return power

    def ways(self, colour: str, speed: int) -> dict[str, Way]:
        """The ends a line of ``speed`` for ``colour`` can reach now, each with its way."""
        return self.mover_for(colour).ways(self.race.where(colour), speed, self.race.occupied())

    def mover_for(self, colour: str) -> Mover:
        """The movement rules for ``colour``'s move: the base game's for every car. The hook where
        powers (which belong to a car's owner) will swap in their own ``Mover``."""
        return self.mover

    def _take(self, colour: str, speed: int, way: Way, *, chosen: bool, options: list[str]) -> list[Event]:
        card = self.s["card"]
        index = card.get("order", range(len(card["lines"])))[card["line"]]
        moved = self.race.move(colour, way, card["number"])
        moved.update(
            {"speed": speed, "line": index, "chosen": chosen, "card": card["number"], "options": options}
        )
        card["moves"].append(moved)
        card["line"] += 1
        self.s["choice"] = None
        self._sync()
        events = [Event("car_moved", dict(moved))]
        if "powers" in self.s:
            events += self._triggers(colour, moved, index)
        return events

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
        options = list(choice["options"])
        if choice.get("power"):
            extra = self.s["card"]["extras"][0]
            return [self._take_extra(extra, way, chosen=True, options=options), *self._resolve()]
        events = self._take(choice["car"], choice["speed"], way, chosen=True, options=options)
        return [*events, *self._resolve()]

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
        for moved in self.race.move_animals(card["moves"], whole_turn=self.whole_turn):
            events.append(Event("animal_moved", moved))
        self._sync()
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
            cars: list[dict[str, JSON]] = [
                {"car": c, "place": places[c], "prize": prize(places[c])} for c in self._cars_of(seat)
            ]
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
            "crossings": self.kept_copy("crossings", race.crossings),
            "animals": self.kept_copy("animals", race.animals),
            "owners": dict(s["owners"]),
            "spent": list(s["spent"]),
            "auction_order": list(s["auction_order"]),
            "auction": auction,
            "auctions": self.kept_copy("auctions", s["auctions"]),
            "turn": s["turn"],
            "card_in_play": None
            if card is None
            else {
                "seat": card["seat"],
                **self.card_view(card["id"]),
                "colours": list(card["colours"]),
                "line": card["line"],
                "moves": fresh(card["moves"]),
            },
            "choice": fresh(s["choice"]),
            "bet_line": self.track.lines[s["bet_queue"][0]] if s["phase"] == "bet" else None,
            "bet_waiting": [i for i, p in enumerate(s["bet_picks"] or []) if p is None],
            "bet_counts": [len(b) for b in s["bets"]],
            "hand_sizes": [len(h) for h in s["hands"]],
            "cards_played": len(s["played"]),
            "played": list(s["played"]),  # face up on the table; the odds deal hands from the rest
            "last_card": None if last is None else self.card_view(last),
            "turns": list(s["turns"]),
            "ended_by": s["ended_by"],
        }
        if "powers_dealt" in s:
            revealed = s["phase"] not in ("auction", "keep")
            view["powers"] = {
                "by_car": dict(zip(s["auction_order"], s["powers_dealt"], strict=True)),
                "won": {str(i): list(w) for i, w in enumerate(s["powers_won"])},
                "kept": dict(s["powers"]) if revealed else {},
            }
            if viewer is not None:
                view["my_power"] = (
                    s["powers"].get(str(viewer)) if (revealed or s["phase"] == "keep") else None
                )
        if over:
            view["bets"] = self.kept_copy("bets", s["bets"])
            view["scores"] = self.scores()
        if viewer is not None:
            view["seat"] = viewer
            view["hand"] = [self.card_view(c) for c in s["hands"][viewer]]
            bid = s["bids"][viewer] if s["phase"] == "auction" else None
            view["my_bid"] = None if bid is None else self.card_view(bid)
            view["my_bets"] = self.kept_copy(f"bets:{viewer}", s["bets"][viewer])
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
