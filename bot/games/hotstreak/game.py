"""Hot Streak, the match: three races of draft -> submit -> (double, race 3) -> race -> payout.

Phases (``view()["phase"]``):

* ``draft``: one seat at a time takes a ticket or side-bet slip (``bet``), snake order
  from the race's first better.
* ``submit``: every seat at once secretly submits 1 card (2 with 2 players) from hand.
* ``double`` (race 3 only, after the submissions): every seat at once picks one of its
  bets to pay double (losses double too).
* ``race``: table steps ``flip`` (``player=None``). The first flip of a race burns 3
  first; a flip on an empty pile folds the yellow bar, reshuffles, burns 3 and flips.
  The step that ends the race also pays out and sets up the next race (or ends the game).
* ``over``.

Rulings where the rules are silent (also in the tests):

* With 2 players hands start at 4 and each race deals 1 back after 2 are submitted, so
  hands go 4 -> 3 -> 2, exactly enough for race 3.
* Cards left after dealing become the next race's face-up cards; the bordered cards are
  not special after setup (one dealt to a player is just a card in a hand).
* Doubles are chosen openly (like the bets themselves); nothing after them is secret.
* The dealt cards after a race go one to each seat in seat order.
* Stakes (for the results): each bet held when a race ended, labelled by what it backed
  ("Gobbler, risky", "Side bet yes, safe"), won when it paid something. Net is cash minus $10.

State (the one idiom of ``base.Game``): ``s`` holds the plain JSON part; ``race``, ``deck`` and
``book`` are the live objects of the race in progress, encoded as they are when stored.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from itertools import combinations
from typing import Any, ClassVar, Self

from bot.games.base import JSON, Action, Decision, Event, Game, SeatResult, Stake
from bot.games.hotstreak.betting import Book, draft_order, settle
from bot.games.hotstreak.cards import MASCOTS, card_sort_key, parse_card
from bot.games.hotstreak.content import Content, default_content
from bot.games.hotstreak.deck import RaceDeck
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.sidebets import condition_holds
from bot.games.hotstreak.track import Track
from bot.games.rng import GameRng

RACES = 3
START_CASH = 10
DOUBLE_RACE = 3


def hand_size(seats: int) -> int:
    return 4 if seats == 2 else 3


def submit_count(seats: int) -> int:
    return 2 if seats == 2 else 1


class HotStreak(Game):
    kind = "hotstreak"
    min_players = 2
    max_players = 8

    codecs: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {
        "rng": lambda value, game: GameRng.from_json(value),
        "race": lambda value, game: Race.from_json(value),
        "deck": lambda value, game: RaceDeck.from_json(value),
        "book": lambda value, game: Book.from_json(value),
    }

    def __init__(self, state: dict[str, JSON], rng: GameRng, race: Race, deck: RaceDeck, book: Book) -> None:
        self.s = state
        self.rng = rng
        self.race = race
        self.deck = deck
        self.book = book

    # --- setup ---------------------------------------------------------------

    @classmethod
    def new(
        cls, seats: int, seed: int, settings: dict[str, JSON] | None = None, *, content: Content | None = None
    ) -> Self:
        """``settings``: ``{"first_better": seat}`` (default 0). ``content`` overrides the shipped edition
        (the simulator tunes with it); the game then carries what it needs in its own state."""
        if not cls.min_players <= seats <= cls.max_players:
            raise ValueError(f"Hot Streak takes {cls.min_players} to {cls.max_players} players, not {seats}.")
        settings = dict(settings or {})
        first = settings.get("first_better", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < seats:
            raise ValueError(f"first_better must be a seat from 0 to {seats - 1}, not {first!r}.")
        content = content or default_content()
        rng = GameRng(seed)
        box = list(content.cards)
        rng.shuffle(box)
        count = content.face_up[seats]
        face_up, box = list(content.bordered) + box[:count], box[count:]
        hands = []
        for _ in range(seats):
            hands.append(sorted(box[: hand_size(seats)], key=card_sort_key))
            box = box[hand_size(seats) :]
        # The rest of the box is put away for the whole game.
        side_deck = [copy.deepcopy(card) for card in content.side_bets]
        rng.shuffle(side_deck)
        side_bet = side_deck.pop(0)
        state: dict[str, JSON] = {
            "version": 1,
            "seats": seats,
            "settings": settings,
            "mascot_info": {
                m: {"name": i["name"], "colour": i["colour"], "animal": i["animal"]}
                for m, i in content.mascots.items()
            },
            "ticket_set": copy.deepcopy(content.tickets),
            "side_deck": side_deck,
            "cash": [START_CASH] * seats,
            "race_no": 1,
            "first_better": first,
            "phase": "draft",
            "hands": hands,
            "face_up": face_up,
            "submissions": [None] * seats,
            "order": draft_order(seats, first),
            "order_pos": 0,
            "bets": [[] for _ in range(seats)],
            "doubles": [None] * seats,
            "flips": [],
            "history": [],
            "opening": [],
        }
        game = cls(state, rng, Race.start(content.track), RaceDeck(), Book(content.tickets, side_bet))
        game.s["opening"] = [e.to_json() for e in game._race_setup_events(dealt=hands)]
        return game

    def opening_events(self) -> list[Event]:
        """The events of the game's setup (race 1 laid out, each hand dealt), for the host to show first."""
        return [
            Event(e["kind"], e["data"], tuple(e["visible_to"]) if "visible_to" in e else None)
            for e in self.s["opening"]
        ]

    def _race_setup_events(self, dealt: list[list[str]]) -> list[Event]:
        book = self.book.public()
        events = [
            Event(
                "race_setup",
                {
                    "race": self.s["race_no"],
                    "face_up": list(self.s["face_up"]),
                    "side_bet": book["side_bet"],
                    "first_better": self.s["first_better"],
                    "order": list(self.s["order"]),
                    "cash": list(self.s["cash"]),
                },
            )
        ]
        for seat, cards in enumerate(dealt):
            events.append(
                Event("dealt", {"seat": seat, "cards": list(cards), "race": self.s["race_no"]}, (seat,))
            )
        return events

    # --- the surface -----------------------------------------------------------

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
        phase = self.phase
        if phase == "draft":
            seat = self.s["order"][self.s["order_pos"]]
            return [Decision(seat, "bet", tuple(self.book.options()), "Take a ticket or a side-bet slip.")]
        if phase == "submit":
            return [
                Decision(seat, "submit", tuple(self.submit_options(seat)), self._submit_prompt())
                for seat in range(self.seats)
                if self.s["submissions"][seat] is None
            ]
        if phase == "double":
            return [
                Decision(
                    seat, "double", tuple(range(len(self.s["bets"][seat]))), "Pick one bet to pay double."
                )
                for seat in range(self.seats)
                if self.s["doubles"][seat] is None and self.s["bets"][seat]
            ]
        if phase == "race":
            return [Decision(None, "flip", ("flip",), "Flip the next race card.")]
        return []

    def _submit_prompt(self) -> str:
        count = submit_count(self.seats)
        return f"Secretly add {count} card{'s' if count > 1 else ''} from your hand to the race deck."

    def submit_options(self, seat: int) -> list[list[str]]:
        """Every distinct choice of cards from the seat's hand (identical cards are interchangeable)."""
        hand = self.s["hands"][seat]
        picks = {tuple(sorted(combo)) for combo in combinations(hand, submit_count(self.seats))}
        return [list(p) for p in sorted(picks)]

    def _apply(self, action: Action, decision: Decision) -> list[Event]:
        player = action.player
        if player is None:  # the flip, the table's step: every other decision is a seat's
            return self._flip()
        if decision.kind == "bet":
            return self._bet(player, action.choice)
        if decision.kind == "submit":
            return self._submit(player, list(action.choice))
        if decision.kind == "double":
            return self._double(player, action.choice)
        return self._flip()

    # --- draft, submissions, doubles --------------------------------------------

    def _bet(self, seat: int, option: str) -> list[Event]:
        names = {m: i["name"] for m, i in self.s["mascot_info"].items()}
        bet = self.book.take(option, names)
        self.s["bets"][seat].append(bet)
        self.s["order_pos"] += 1
        events = [Event("bet_taken", {"seat": seat, "race": self.s["race_no"], **bet})]
        # Ruling: a pick with every stack empty is passed (options shrink; see Book).
        while self.s["order_pos"] < len(self.s["order"]) and not self.book.options():
            self.s["order_pos"] += 1
        if self.s["order_pos"] >= len(self.s["order"]):
            events += self._enter("submit")
        return events

    def _submit(self, seat: int, cards: list[str]) -> list[Event]:
        hand = self.s["hands"][seat]
        for card in cards:
            hand.remove(card)
        self.s["submissions"][seat] = sorted(cards)
        events = [
            Event("submitted", {"seat": seat, "race": self.s["race_no"], "count": len(cards)}),
            Event("submission", {"seat": seat, "race": self.s["race_no"], "cards": sorted(cards)}, (seat,)),
        ]
        if all(sub is not None for sub in self.s["submissions"]):
            race_cards = list(self.s["face_up"])
            for sub in self.s["submissions"]:
                race_cards += sub
            self.deck = RaceDeck.shuffled(race_cards, self.rng)
            events += self._enter("double" if self._doubles_due() else "race")
        return events

    def _doubles_due(self) -> bool:
        return self.s["race_no"] == DOUBLE_RACE and any(self.s["bets"])

    def _double(self, seat: int, index: int) -> list[Event]:
        self.s["doubles"][seat] = index
        bet = self.s["bets"][seat][index]
        bet["doubled"] = True
        events = [
            Event("doubled", {"seat": seat, "bet": index, "label": bet["label"], "race": self.s["race_no"]})
        ]
        if all(d is not None or not bets for d, bets in zip(self.s["doubles"], self.s["bets"], strict=True)):
            events += self._enter("race")
        return events

    def _enter(self, phase: str) -> list[Event]:
        self.s["phase"] = phase
        data: dict[str, JSON] = {"phase": phase, "race": self.s["race_no"]}
        if phase == "race":
            data["cards"] = len(self.deck.pile)
        return [Event("phase", data)]

    # --- the race -----------------------------------------------------------------

    def _flip(self) -> list[Event]:
        events: list[Event] = []
        if not self.deck.started:
            events.append(Event("burned", {"count": self.deck.burn(), "race": self.s["race_no"]}))
        elif not self.deck.pile:
            folded = self.race.fold()
            events.append(Event("bar_folded", {"race": self.s["race_no"], **folded, "frame": self.frame()}))
            if self.race.ended:
                events += self._end_race()
                return events
            self.deck.reshuffle(self.rng)
            events.append(Event("reshuffled", {"race": self.s["race_no"], "cards": len(self.deck.pile)}))
            events.append(Event("burned", {"count": self.deck.burn(), "race": self.s["race_no"]}))
        card = self.deck.flip()
        self.s["flips"].append(card)
        result = self.race.resolve(parse_card(card))
        result["flip"] = len(self.s["flips"])
        result["race"] = self.s["race_no"]
        result["frame"] = self.frame()
        events.append(Event("card_flipped", result))
        if self.race.ended:
            events += self._end_race()
        return events

    def _end_race(self) -> list[Event]:
        race_no = self.s["race_no"]
        side_bet = self.book.side_bet
        places = {m: self.race.place_of(m) for m in MASCOTS}
        happened = condition_holds(side_bet["condition"], self.race)
        events = [
            Event(
                "race_over",
                {
                    "race": race_no,
                    "podium": list(self.race.podium.slots),
                    "places": places,
                    "status": {m: r.status for m, r in self.race.runners.items()},
                    "side_bet": {"id": side_bet["id"], "text": side_bet["text"], "happened": happened},
                    "flips": len(self.s["flips"]),
                    "folds": self.race.tally["folds"],
                },
            )
        ]
        payouts = []
        for seat in range(self.seats):
            payout = settle(seat, self.s["bets"][seat], self.race, side_bet, self.s["cash"][seat])
            self.s["cash"][seat] = payout["cash_after"]
            payouts.append(payout)
        events.append(Event("payouts", {"race": race_no, "seats": payouts}))
        self.s["history"].append(
            {
                "race": race_no,
                "podium": list(self.race.podium.slots),
                "places": places,
                "side_bet": {"id": side_bet["id"], "text": side_bet["text"], "happened": happened},
                "tally": dict(self.race.tally),
                "payouts": payouts,
            }
        )
        if race_no == RACES:
            self.s["phase"] = "over"
            standings = self._standings()
            events.append(
                Event(
                    "game_over",
                    {"standings": standings, "winners": [s["seat"] for s in standings if s["won"]]},
                )
            )
            return events
        return events + self._next_race()

    def _next_race(self) -> list[Event]:
        used = self.deck.all_cards()
        self.rng.shuffle(used)
        dealt = []
        for seat in range(self.seats):
            card = used.pop(0)
            self.s["hands"][seat] = sorted([*self.s["hands"][seat], card], key=card_sort_key)
            dealt.append([card])
        track = Track.from_json(self.race.track.to_json())
        self.s["race_no"] += 1
        self.s["first_better"] = (self.s["first_better"] + 1) % self.seats
        self.s.update(
            {
                "phase": "draft",
                "face_up": used,
                "submissions": [None] * self.seats,
                "order": draft_order(self.seats, self.s["first_better"]),
                "order_pos": 0,
                "bets": [[] for _ in range(self.seats)],
                "doubles": [None] * self.seats,
                "flips": [],
            }
        )
        self.race = Race.start(track)
        self.deck = RaceDeck()
        self.book = Book(self.s["ticket_set"], self.s["side_deck"].pop(0))
        return self._race_setup_events(dealt)

    def _standings(self) -> list[dict[str, JSON]]:
        cash = self.s["cash"]
        out = []
        for seat in range(self.seats):
            place = 1 + sum(1 for other in cash if other > cash[seat])
            out.append({"seat": seat, "cash": cash[seat], "place": place, "won": place == 1})
        return sorted(out, key=lambda s: (s["place"], s["seat"]))

    # --- views, storage, results -----------------------------------------------

    def frame(self) -> dict[str, JSON]:
        """The race as it stands, for a picture of this moment (events carry it because one
        step can end a race and set up the next, after which the view shows the new race)."""
        return {
            "game": self.kind,
            "phase": "race",
            "race": self.s["race_no"],
            "races": RACES,
            "track": self.race.track.to_json(),
            "bar": self.race.bar,
            "mascots": self.race.mascots_view(),
            "mascot_info": self.kept_copy("mascot_info", self.s["mascot_info"]),
            "last_card": self.s["flips"][-1] if self.s["flips"] else None,
            "cards_left": len(self.deck.pile),
            "burned": len(self.deck.burned),
            "podium": list(self.race.podium.slots),
        }

    def view(self, viewer: int | None) -> dict[str, JSON]:
        s = self.s
        book = self.book.public(self.kept_copy)
        view: dict[str, JSON] = {
            "game": self.kind,
            "phase": s["phase"],
            "race": s["race_no"],
            "races": RACES,
            "seats": self.seats,
            "cash": list(s["cash"]),
            "start_cash": START_CASH,
            "submit_count": submit_count(self.seats),
            "first_better": s["first_better"],
            "turn": s["order"][s["order_pos"]] if s["phase"] == "draft" else None,
            "draft_order": list(s["order"]),
            "draft_pick": s["order_pos"],
            "track": self.race.track.to_json(),
            "bar": self.race.bar,
            "mascots": self.race.mascots_view(),
            "mascot_info": self.kept_copy("mascot_info", s["mascot_info"]),
            "last_card": s["flips"][-1] if s["flips"] else None,
            "flipped": list(s["flips"]),
            "cards_left": len(self.deck.pile),
            "burned": len(self.deck.burned),
            "podium": list(self.race.podium.slots),
            "face_up": list(s["face_up"]),
            "hand_sizes": [len(hand) for hand in s["hands"]],
            "submitted": [seat for seat, sub in enumerate(s["submissions"]) if sub is not None],
            "tickets": book["tickets"],
            "side_bet": book["side_bet"],
            "bets": self.kept_copy("bets", s["bets"]),
            "doubles": list(s["doubles"]),
            "history": self.kept_copy("history", s["history"]),
        }
        if s["phase"] == "over":
            view["standings"] = self._standings()
        if viewer is not None:
            view["seat"] = viewer
            view["hand"] = list(s["hands"][viewer])
            view["my_submission"] = self.kept_copy(f"submission:{viewer}", s["submissions"][viewer])
        return view

    def results(self) -> list[SeatResult]:
        standings = {s["seat"]: s for s in self._standings()}
        out = []
        for seat in range(self.seats):
            races = []
            mascot_bets = dict.fromkeys(MASCOTS, 0)
            side = {"right": 0, "wrong": 0}
            stakes = []
            for record in self.s["history"]:
                payout = record["payouts"][seat]
                for line in payout["lines"]:
                    if line["kind"] == "ticket":
                        mascot_bets[line["mascot"]] += 1
                        label = f"{self.s['mascot_info'][line['mascot']]['name']}, {line['risk']}"
                        won = line["value"] > 0
                    else:
                        side["right" if line["right"] else "wrong"] += 1
                        label = f"Side bet {line['answer']}, {line['risk']}"
                        won = bool(line["right"])
                    stakes.append(Stake(label, "won" if won else "lost", max(0, line["paid"]) if won else 0))
                races.append(
                    {
                        "race": record["race"],
                        "podium": record["podium"],
                        "side_bet": record["side_bet"],
                        **{k: payout[k] for k in ("lines", "net", "change", "capped", "cash_after")},
                    }
                )
            standing = standings[seat]
            out.append(
                SeatResult(
                    seat=seat,
                    cash=standing["cash"],
                    place=standing["place"],
                    won=standing["won"] and self.is_over,
                    detail={"races": races, "mascot_bets": mascot_bets, "side_bets": side},
                    net=standing["cash"] - START_CASH,
                    stakes=tuple(stakes),
                )
            )
        return out
