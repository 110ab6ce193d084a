"""The Horse Race Game engine: races of scratches, rolls and a jackpot, until the game's end.

Rulings (the rules text leaves these open; a player at the table would expect these):

* Seats are numbered clockwise: "left of" a seat is the next seat number.
* Each race starts with a table step ``next_race`` (the host's pause between races, and the
  start of race 1): every player pays the entry fee, the deck is shuffled and dealt.
* Only a player holding cards rolls. A player sitting out (all cards scratched, or broke in
  "broke" mode) takes no turns, in the scratch round or the race. If nobody holds a card any
  more, the table rolls (a ``roll`` table step) and nobody pays a scratch penalty.
* The scratch round: a roll of an unscratched number fills the next slot; an already scratched
  number passes the dice to the next player, free. The race is started by the player left of
  the roller who filled the fourth slot.
* A player left without cards pays 5x the fee the moment their last card is surrendered.
* Anyone who must pay more than they have pays what they have. In "broke" mode, a player
  whose money reaches 0 surrenders their cards and sits out, and that race is the last.
* A winning horse whose cards nobody holds (all surrendered by broke players) pays nobody:
  the jackpot stays.
* "minutes" mode: the engine keeps no clock. ``time_up`` is a timed table step, pending (besides
  whatever else is) until taken, whose ``not_before`` is the setting ``ends_at`` fixed at the
  start: the host takes it once that time has come. Its only option is ``None`` (as stored by
  the bot before it was a pending decision). The race in progress is then the last; between
  races, the game ends at once.
* Stakes (for the results): each horse a seat held when a race ended, won if it won that race
  (paying the seat's jackpot share), lost otherwise. Net is cash minus the starting bank.
* Final places: most money first; equal money shares a place (1, 1, 3); every seat in
  place 1 has won.
* Rolls by hand or by the table: a seat's ``roll`` offers ``roll`` (this roll) and ``auto``
  (this roll, and the table rolls for this seat for the rest of the game). A seat that chose
  ``auto`` is recorded in ``auto_rolls`` (the choice is in the action log, so a restart keeps it)
  and from then on its roll offers only ``auto``, which the table takes at its pace
  (``start.is_automatic``). The bot chooses ``auto`` for a person who misses a roll's deadline
  (``start.late_choice``), and the event ``auto_rolls`` tells the table once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Self

from bot.games.base import Action, Decision, Event, Game, SeatResult, Stake
from bot.games.horserace import scratch
from bot.games.horserace.board import Board, load_board
from bot.games.horserace.deck import build_deck, deal, left_of
from bot.games.horserace.jackpot import split_jackpot
from bot.games.horserace.race import Track, roll_dice
from bot.games.horserace.settings import BadSettings, Settings
from bot.games.rng import GameRng

ROLL = "roll"
AUTO_ROLL = "auto"
NEXT_RACE = "next_race"
TIME_UP = "time_up"
STAT_KEYS = ("races_won", "winnings", "fees", "penalties", "sit_out_fees")


class HorseRace(Game):
    kind: ClassVar[str] = "horserace"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 15

    def __init__(self, seats: int, settings: Settings, board: Board, rng: GameRng) -> None:
        self.seats = seats
        self.settings = settings
        self.board = board
        self.rng = rng
        self.cash: list[int] = [settings.bank] * seats
        self.jackpot = 0
        self.race = 0  # number of the current (or last finished) race; 0 before the first
        self.phase = "between"  # between | scratch | race | over
        self.dealer = settings.dealer
        self.turn: int | None = None
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.track = Track(board.moves)
        self.sitting_out: list[int] = []
        self.broke: list[int] = []
        self.last_roll: dict[str, Any] | None = None
        self.last_race = False  # set by a broke player or time_up: the current race ends the game
        self.time_up = False
        self.race_rolls = 0
        self.stats: list[dict[str, int]] = [dict.fromkeys(STAT_KEYS, 0) for _ in range(seats)]
        self.stakes: list[list[dict[str, Any]]] = [[] for _ in range(seats)]  # Stake.to_json() dicts
        self.auto_rolls: list[int] = []  # seats the table rolls for, for the rest of the game

    codecs: ClassVar[dict[str, Callable[[Any, Any], Any]]] = {
        "settings": lambda value, game: Settings.from_json(value),
        "board": lambda value, game: Board.from_json(value),
        "rng": lambda value, game: GameRng.from_json(value),
        "track": lambda value, game: Track.from_json(game.board.moves, value),
    }

    # --- the surface -------------------------------------------------------

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        game = super().from_json(data)
        if not hasattr(game, "auto_rolls"):  # stored before a seat's rolls could go automatic
            game.auto_rolls = []
        return game

    @classmethod
    def new(cls, seats: int, seed: int, settings: dict[str, Any] | None = None) -> Self:
        if (
            isinstance(seats, bool)
            or not isinstance(seats, int)
            or not cls.min_players <= seats <= cls.max_players
        ):
            raise BadSettings(
                f"The Horse Race Game takes {cls.min_players} to {cls.max_players} players, not {seats!r}."
            )
        parsed = Settings.parse(settings, seats)
        return cls(seats, parsed, load_board(parsed.board), GameRng(seed))

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def pending(self) -> list[Decision]:
        if self.phase == "over":
            return []
        if self.phase == "between":
            pending = [Decision(None, NEXT_RACE, (NEXT_RACE,), f"Start race {self.race + 1}.")]
        else:
            what = "scratch roll" if self.phase == "scratch" else "race roll"
            if self.turn is None:  # nobody holds a card: the table rolls
                options: tuple[str, ...] = (ROLL,)
            elif self.turn in self.auto_rolls:
                options = (AUTO_ROLL,)
            else:
                options = (ROLL, AUTO_ROLL)
            pending = [Decision(self.turn, ROLL, options, f"Roll the dice ({what}).")]
        if self.settings.end == "minutes" and not self.time_up:
            pending.append(Decision(None, TIME_UP, (None,), "Time is up.", not_before=self.settings.ends_at))
        return pending

    def _apply(self, action: Action, decision: Decision) -> list[Event]:
        if decision.kind == TIME_UP:
            return self._time_up()
        if decision.kind == NEXT_RACE:
            return self._start_race()
        events: list[Event] = []
        if (
            action.choice == AUTO_ROLL
            and decision.player is not None
            and decision.player not in self.auto_rolls
        ):
            self.auto_rolls.append(decision.player)
            events.append(Event("auto_rolls", {"seat": decision.player}))
        if self.phase == "scratch":
            return events + self._scratch_roll(decision.player)
        return events + self._race_roll(decision.player)

    # --- race setup --------------------------------------------------------

    def _start_race(self) -> list[Event]:
        self.race += 1
        self.dealer = (self.settings.dealer + self.race - 1) % self.seats
        self.track = Track(self.board.moves)
        self.sitting_out = []
        self.last_roll = None
        self.race_rolls = 0
        carried = self.jackpot
        fees = {
            seat: self._pay(seat, self.settings.fee, "fees")
            for seat in self._seats_from(left_of(self.dealer, self.seats))
        }
        deck = build_deck(self.seats)
        self.rng.shuffle(deck)
        self.hands = deal(deck, self.seats, self.dealer)
        events = [
            Event(
                "race_setup",
                {
                    "race": self.race,
                    "races": self._races_total(),
                    "dealer": self.dealer,
                    "fee": self.settings.fee,
                    "fees_paid": {str(seat): paid for seat, paid in sorted(fees.items())},
                    "carried": carried,
                    "jackpot": self.jackpot,
                    "deck": len(deck),
                    "hands": {str(seat): list(hand) for seat, hand in enumerate(self.hands)},
                },
            )
        ]
        for seat in self._seats_from(left_of(self.dealer, self.seats)):
            events += self._broke_check(seat)
        self.phase = "scratch"
        self.turn = self._next_roller(self.dealer)
        return events

    # --- the scratch round -------------------------------------------------

    def _scratch_roll(self, roller: int | None) -> list[Event]:
        dice = roll_dice(self.rng)
        total = sum(dice)
        slot = self.track.scratch_roll(total)
        base = {"roller": roller, "dice": list(dice), "total": total, "horse": total}
        events: list[Event] = []
        if slot is None:
            events.append(Event("scratch_reroll", {**base, "slot": self.track.slot_of(total)}))
            self.last_roll = {**base, "kind": "reroll", "slot": self.track.slot_of(total)}
        else:
            given = scratch.surrender(self.hands, total)
            mult = scratch.multiplier(slot)
            events.append(
                Event(
                    "scratch",
                    {
                        **base,
                        "slot": slot,
                        "multiplier": mult,
                        "penalty": mult * self.settings.fee,
                        "surrendered": {str(seat): n for seat, n in given.items()},
                    },
                )
            )
            self.last_roll = {**base, "kind": "scratch", "slot": slot, "multiplier": mult}
            for seat in self._seats_from(left_of(self.dealer, self.seats)):
                if seat in given and not self.hands[seat] and seat not in self.sitting_out:
                    events += self._sit_out(seat)
        start_after = roller if roller is not None else self.dealer
        if not self.track.scratching:
            self.phase = "race"
            self.turn = self._next_roller(start_after)
            events.append(
                Event(
                    "race_start",
                    {"race": self.race, "first": self.turn, "scratched": list(self.track.scratched)},
                )
            )
        else:
            self.turn = self._next_roller(start_after)
        return events

    def _sit_out(self, seat: int) -> list[Event]:
        due = scratch.SIT_OUT_FEES * self.settings.fee
        paid = self._pay(seat, due, "sit_out_fees")
        self.sitting_out.append(seat)
        return [
            Event("sit_out", {"seat": seat, "due": due, "paid": paid, "jackpot": self.jackpot}),
            *self._broke_check(seat),
        ]

    # --- the race ----------------------------------------------------------

    def _race_roll(self, roller: int | None) -> list[Event]:
        dice = roll_dice(self.rng)
        total = sum(dice)
        before = self.track.positions[total]
        mult = self.track.race_roll(total)
        self.race_rolls += 1
        data: dict[str, Any] = {"roller": roller, "dice": list(dice), "total": total, "horse": total}
        events: list[Event] = []
        if mult:
            due = mult * self.settings.fee
            paid = self._pay(roller, due, "penalties") if roller is not None else 0
            data |= {
                "scratched": True,
                "slot": self.track.slot_of(total),
                "multiplier": mult,
                "due": due,
                "paid": paid,
            }
            data["jackpot"] = self.jackpot
            self.last_roll = {**data, "kind": "penalty"}
            events.append(Event("roll", data))
            if roller is not None:
                events += self._broke_check(roller)
        else:
            data |= {
                "scratched": False,
                "from": before,
                "to": self.track.positions[total],
                "moves": self.board.moves[total],
            }
            self.last_roll = {**data, "kind": "move"}
            events.append(Event("roll", data))
        if self.track.winner is not None:
            return events + self._finish_race()
        self.turn = self._next_roller(roller if roller is not None else self.dealer)
        return events

    def _finish_race(self) -> list[Event]:
        horse = self.track.winner
        assert horse is not None
        held = {seat: hand.count(horse) for seat, hand in enumerate(self.hands) if horse in hand}
        pot = self.jackpot
        split = split_jackpot(pot, held)
        for seat, amount in split.payouts.items():
            self.cash[seat] += amount
            self.stats[seat]["winnings"] += amount
            self.stats[seat]["races_won"] += 1
        self.jackpot = split.remainder
        self.turn = None
        for seat, hand in enumerate(self.hands):
            for held_horse in sorted(set(hand)):
                won = held_horse == horse
                paid = split.payouts.get(seat, 0) if won else 0
                stake = Stake(f"horse {held_horse}", "won" if won else "lost", paid)
                self.stakes[seat].append(stake.to_json())
        events = [
            Event(
                "race_won",
                {
                    "race": self.race,
                    "horse": horse,
                    "jackpot": pot,
                    "winners": {str(seat): n for seat, n in held.items()},
                    "share": split.share,
                    "payouts": {str(seat): n for seat, n in split.payouts.items()},
                    "remainder": split.remainder,
                    "rolls": self.race_rolls,
                },
            )
        ]
        if self.last_race or (self.settings.end == "races" and self.race >= self.settings.races):
            return events + self._game_over()
        self.phase = "between"
        return events

    # --- the end -----------------------------------------------------------

    def _time_up(self) -> list[Event]:
        self.time_up = True
        self.last_race = True
        events = [
            Event(
                "time_up",
                {"minutes": self.settings.minutes, "race": self.race, "finishing": self.phase != "between"},
            )
        ]
        if self.phase == "between":
            events += self._game_over()
        return events

    def _game_over(self) -> list[Event]:
        self.phase = "over"
        self.turn = None
        standings = [
            {"seat": r.seat, "cash": r.cash, "place": r.place, "won": r.won}
            for r in sorted(self.results(), key=lambda r: (r.place, r.seat))
        ]
        return [
            Event("game_over", {"races": self.race, "jackpot_left": self.jackpot, "standings": standings})
        ]

    def results(self) -> list[SeatResult]:
        places = [1 + sum(other > mine for other in self.cash) for mine in self.cash]
        return [
            SeatResult(
                seat=seat,
                cash=self.cash[seat],
                place=places[seat],
                won=places[seat] == 1,
                detail=dict(self.stats[seat]),
                net=self.cash[seat] - self.settings.bank,
                stakes=tuple(Stake(**s) for s in self.stakes[seat]),
            )
            for seat in range(self.seats)
        ]

    # --- money and turns ---------------------------------------------------

    def _pay(self, seat: int, amount: int, what: str) -> int:
        """Pay into the jackpot what is due, or all the seat has if less."""
        paid = min(amount, self.cash[seat])
        self.cash[seat] -= paid
        self.jackpot += paid
        self.stats[seat][what] += paid
        return paid

    def _broke_check(self, seat: int) -> list[Event]:
        """In "broke" mode, a player out of money surrenders their cards; this race is the last."""
        if self.settings.end != "broke" or self.cash[seat] > 0 or seat in self.broke:
            return []
        self.broke.append(seat)
        self.last_race = True
        surrendered = self.hands[seat]
        self.hands[seat] = []
        if seat not in self.sitting_out:
            self.sitting_out.append(seat)
        return [Event("broke", {"seat": seat, "surrendered": list(surrendered)})]

    def _seats_from(self, first: int) -> list[int]:
        return [(first + i) % self.seats for i in range(self.seats)]

    def _next_roller(self, after: int) -> int | None:
        """The next seat left of ``after`` still in the race (``after`` itself last), or None."""
        for seat in self._seats_from(left_of(after, self.seats)):
            if seat not in self.sitting_out and self.hands[seat]:
                return seat
        return None

    def _races_total(self) -> int | None:
        return self.settings.races if self.settings.end == "races" else None

    # --- views and storage -------------------------------------------------

    def view(self, viewer: int | None) -> dict[str, Any]:
        """Everything is public: cards are dealt face up."""
        return {
            "game": self.kind,
            "phase": self.phase,
            "race": self.race,
            "races": self._races_total(),
            "end": self.settings.end,
            "minutes": self.settings.minutes,
            "time_up": self.time_up,
            "last_race": self.last_race,
            "fee": self.settings.fee,
            "seats": self.seats,
            "dealer": self.dealer,
            "turn": self.turn,
            "auto_rolls": sorted(self.auto_rolls),
            "cash": list(self.cash),
            "jackpot": self.jackpot,
            "board": {
                "name": self.board.name,
                "title": self.board.title,
                "titles": dict(self.board.titles),
                "moves": {str(h): m for h, m in self.board.moves.items()},
            },
            "positions": {str(h): p for h, p in self.track.positions.items()},
            "scratched": [
                {"slot": i + 1, "multiplier": scratch.multiplier(i + 1), "horse": horse}
                for i, horse in enumerate(self.track.scratched)
            ],
            "hands": [list(hand) for hand in self.hands],
            "sitting_out": sorted(self.sitting_out),
            # Its dice are a list of numbers: copied, so no reader holds the game's own.
            "last_roll": None
            if self.last_roll is None
            else {k: list(v) if isinstance(v, list) else v for k, v in self.last_roll.items()},
            "winner": self.track.winner,
            "rolls": self.race_rolls,
        }


__all__ = ["AUTO_ROLL", "HorseRace", "NEXT_RACE", "ROLL", "TIME_UP"]
