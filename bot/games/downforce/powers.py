"""The power cards: the twelve records, how they are dealt, and the rulings that make them exact.

``powers`` setting: ``off`` (none), ``base`` (the six base powers, one to each car before its
auction), ``all`` (six drawn from all twelve). The winner of a car's auction takes its power; a
player left with several keeps one (a private choice right after the auctions), and the kept
power works for every car that player owns.

When a power triggers (each record's ``when`` and conditions; ``power.py`` describes the fields):

* ``aggressive`` (your turn): the card's top line is one of your cars: you may move that car 1
  more space, right after that line.
* ``determined`` (any turn): your car's move went only through rectangular spaces (at least one
  step, every space it stepped into rectangular): you may move it 2 more.
* ``strategic`` (your turn): the card has six lines naming all six colours (as printed): you may
  ignore one of its colours (that line does nothing).
* ``tricky`` (your turn): you may resolve the card bottom line first.
* ``unpredictable`` (your turn): a wild line may also take a colour already on the card (the
  choice of colour is the option; nothing else is asked).
* ``cunning`` (any turn): you choose where your own cars end, even on other players' turns (the
  choice of end space is asked of you instead of the player on turn).
* ``ambitious`` (any turn): your car crossed a yellow betting line during its move (any line, not
  only a first crossing): you may move it 2 more.
* ``experienced`` (any turn): another car starts a move (and leaves) from the space directly
  ahead of your car (the ``straight`` step of your car's space): you may move your car into the
  space it left, right after that move.
* ``tough`` (any turn): your car ends its move on a space beside a rumble strip (marked ``rumble``):
  you may move it 2 more.
* ``daring`` (your turn, automatic): your car moves exactly 1 or 2 spaces: it goes on to make 3
  in all (as far as the track lets it).
* ``defensive`` (your turn, automatic): none of your cars took a step during your whole turn: one
  of your cars (your choice when several still race) moves 3 spaces at the end of the card.
* ``reckless`` (your turn): your car stepped through or into a tight space: you may move it 2 more.

Rulings common to all:

* An extra move is an ordinary move (must keep moving, never into or through a car or an
  animal, loops are gone round, a cracked space is not stopped on); the power's owner chooses
  where it ends. Extra moves do not trigger powers themselves (no chains), and a car that has
  finished gets none. Only moves made by a card's lines trigger powers.
* After one line's move, the powers it triggers are offered in this order: the moved car's
  owner's power first, then ``experienced`` owners, clockwise from the player on turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.downforce.cards import COLOURS
from bot.games.downforce.power import Effect, LineMove, Power, When
from bot.i18n import N_, _


def _six_colours(printed: Sequence[str]) -> bool:
    return len(printed) == len(COLOURS) and set(printed) == set(COLOURS)


def _several_lines(printed: Sequence[str]) -> bool:
    return len(printed) > 1


def _top_line(move: LineMove) -> bool:
    return move.line == 0


def _only_rectangular(move: LineMove) -> bool:
    spaces = move.track.spaces
    return move.steps > 0 and all(spaces[p].flags.get("shape") == "rectangular" for p in move.path)


def _crossed_a_line(move: LineMove) -> bool:
    return bool(move.track.lines_crossed(move.start, move.end))


def _ended_beside_a_rumble_strip(move: LineMove) -> bool:
    return move.steps > 0 and bool(move.track.spaces[move.end].flags.get("rumble"))


def _one_or_two_spaces(move: LineMove) -> bool:
    return move.steps in (1, 2)


def _through_a_tight_space(move: LineMove) -> bool:
    return any(move.track.spaces[p].flags.get("tight") for p in move.path)


AGGRESSIVE = Power(
    "aggressive",
    N_("Aggressive"),
    N_("your car on the card's top line may move 1 more space"),
    keep_rank=4,
    when=When.AFTER_ITS_CARS_MOVE,
    effect=Effect.EXTRA_MOVE,
    own_turn=True,
    extra=1,
    after_move=_top_line,
)
DETERMINED = Power(
    "determined",
    N_("Determined"),
    N_("on any turn, your car that moved only through rectangular spaces may move 2 more"),
    keep_rank=1,
    when=When.AFTER_ITS_CARS_MOVE,
    effect=Effect.EXTRA_MOVE,
    own_turn=False,
    extra=2,
    after_move=_only_rectangular,
)
STRATEGIC = Power(
    "strategic",
    N_("Strategic"),
    N_("playing a card with all six colours, you may ignore one of them"),
    keep_rank=10,
    when=When.BEFORE_THE_CARD,
    effect=Effect.IGNORE_A_COLOUR,
    own_turn=True,
    used=N_("{seat} plays {power}: the {colour} line is ignored."),
    on_card=_six_colours,
)
TRICKY = Power(
    "tricky",
    N_("Tricky"),
    N_("on your turn you may move the cars bottom line first"),
    keep_rank=9,
    when=When.BEFORE_THE_CARD,
    effect=Effect.REVERSE_THE_CARD,
    own_turn=True,
    used=N_("{seat} plays {power}: the card moves bottom line first."),
    on_card=_several_lines,
)
UNPREDICTABLE = Power(
    "unpredictable",
    N_("Unpredictable"),
    N_("your wild lines may take a colour already on the card"),
    keep_rank=11,
    when=When.NAMING_A_WILD,
    effect=Effect.ANY_WILD_COLOUR,
    own_turn=True,
)
CUNNING = Power(
    "cunning",
    N_("Cunning"),
    N_("you choose where your cars end, even on other players' turns"),
    keep_rank=0,
    when=When.CHOOSING_AN_END,
    effect=Effect.OWNER_CHOOSES_ENDS,
    own_turn=False,
)
AMBITIOUS = Power(
    "ambitious",
    N_("Ambitious"),
    N_("on any turn, your car that crosses a yellow line may move 2 more"),
    keep_rank=2,
    when=When.AFTER_ITS_CARS_MOVE,
    effect=Effect.EXTRA_MOVE,
    own_turn=False,
    extra=2,
    after_move=_crossed_a_line,
)
EXPERIENCED = Power(
    "experienced",
    N_("Experienced"),
    N_("on any turn, when a car leaves the space straight ahead of yours, you may take it"),
    keep_rank=7,
    when=When.AFTER_A_CAR_LEAVES_AHEAD,
    effect=Effect.TAKE_THE_SPACE_LEFT,
    own_turn=False,
    used=N_("{seat} plays {power}: the {colour} car takes the space just left ahead of it."),
)
TOUGH = Power(
    "tough",
    N_("Tough"),
    N_("on any turn, your car that ends beside a rumble strip may move 2 more"),
    keep_rank=3,
    when=When.AFTER_ITS_CARS_MOVE,
    effect=Effect.EXTRA_MOVE,
    own_turn=False,
    extra=2,
    after_move=_ended_beside_a_rumble_strip,
)
DARING = Power(
    "daring",
    N_("Daring"),
    N_("on your turn, your car that moves 1 or 2 spaces moves 3 instead"),
    keep_rank=5,
    when=When.AFTER_ITS_CARS_MOVE,
    effect=Effect.EXTRA_MOVE,
    own_turn=True,
    automatic=True,
    extra=3,
    in_all=True,
    used=N_("{power}: the {colour} car goes on to make 3 spaces."),
    after_move=_one_or_two_spaces,
)
DEFENSIVE = Power(
    "defensive",
    N_("Defensive"),
    N_("if none of your cars moved on your turn, one of them moves 3"),
    keep_rank=8,
    when=When.AFTER_THE_CARD,
    effect=Effect.EXTRA_MOVE,
    own_turn=True,
    automatic=True,
    extra=3,
    used=N_("{power}: none of {seat}'s cars moved, so the {colour} car moves 3."),
)
RECKLESS = Power(
    "reckless",
    N_("Reckless"),
    N_("on your turn, your car that went through a tight space may move 2 more"),
    keep_rank=6,
    when=When.AFTER_ITS_CARS_MOVE,
    effect=Effect.EXTRA_MOVE,
    own_turn=True,
    extra=2,
    after_move=_through_a_tight_space,
)

POWERS: dict[str, Power] = {
    p.name: p
    for p in (
        AGGRESSIVE,
        DETERMINED,
        STRATEGIC,
        TRICKY,
        UNPREDICTABLE,
        CUNNING,
        AMBITIOUS,
        EXPERIENCED,
        TOUGH,
        DARING,
        DEFENSIVE,
        RECKLESS,
    )
}
BASE = ("aggressive", "determined", "strategic", "tricky", "unpredictable", "cunning")
ADDITIONAL = ("ambitious", "experienced", "tough", "daring", "defensive", "reckless")
ALL = BASE + ADDITIONAL
SETTINGS = ("off", "base", "all")


def title(power: str) -> str:
    """A power's name in the reader's language."""
    return _(POWERS[power].title) if power in POWERS else power


def summary(power: str) -> str:
    """What a power does, in the reader's language."""
    return _(POWERS[power].summary) if power in POWERS else ""


def power_asking(kind: str) -> str:
    """The power a decision of ``kind`` asks about when its choice names none: ``ignore`` is
    strategic's colour to ignore, ``defensive`` is defensive's car (other kinds: ``kind`` itself)."""
    effects = {"ignore": Effect.IGNORE_A_COLOUR}
    whens = {"defensive": When.AFTER_THE_CARD}
    for power in POWERS.values():
        if power.effect is effects.get(kind) or power.when is whens.get(kind):
            return power.name
    return kind


def deal(setting: str, rng_sample) -> list[str | None]:
    """Six powers in auction order (``None`` each with powers off); ``rng_sample(items, k)`` draws."""
    if setting == "off":
        return [None] * 6
    pool = list(BASE) if setting == "base" else list(ALL)
    return list(rng_sample(pool, 6))
