"""The power cards: which there are, how they are dealt, and the rulings that make them exact.

``powers`` setting: ``off`` (none), ``base`` (the six base powers, one to each car before its
auction), ``all`` (six drawn from all twelve). The winner of a car's auction takes its power; a
player left with several keeps one (a private choice right after the auctions), and the kept
power works for every car that player owns.

When a power triggers (``game.py`` asks for them after each line of a card has moved its car):

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

from bot.i18n import N_, _

BASE = ("aggressive", "determined", "strategic", "tricky", "unpredictable", "cunning")
ADDITIONAL = ("ambitious", "experienced", "tough", "daring", "defensive", "reckless")
ALL = BASE + ADDITIONAL
SETTINGS = ("off", "base", "all")

# Extra spaces for the powers that add a move after a line.
EXTRA = {"aggressive": 1, "determined": 2, "ambitious": 2, "tough": 2, "reckless": 2, "defensive": 3}

# The names and rules of the powers as players read them (translated where shown: ``title``/``summary``).
TITLES = {
    "aggressive": N_("Aggressive"),
    "determined": N_("Determined"),
    "strategic": N_("Strategic"),
    "tricky": N_("Tricky"),
    "unpredictable": N_("Unpredictable"),
    "cunning": N_("Cunning"),
    "ambitious": N_("Ambitious"),
    "experienced": N_("Experienced"),
    "tough": N_("Tough"),
    "daring": N_("Daring"),
    "defensive": N_("Defensive"),
    "reckless": N_("Reckless"),
}

SUMMARY = {
    "aggressive": N_("your car on the card's top line may move 1 more space"),
    "determined": N_("on any turn, your car that moved only through rectangular spaces may move 2 more"),
    "strategic": N_("playing a card with all six colours, you may ignore one of them"),
    "tricky": N_("on your turn you may move the cars bottom line first"),
    "unpredictable": N_("your wild lines may take a colour already on the card"),
    "cunning": N_("you choose where your cars end, even on other players' turns"),
    "ambitious": N_("on any turn, your car that crosses a yellow line may move 2 more"),
    "experienced": N_("on any turn, when a car leaves the space straight ahead of yours, you may take it"),
    "tough": N_("on any turn, your car that ends beside a rumble strip may move 2 more"),
    "daring": N_("on your turn, your car that moves 1 or 2 spaces moves 3 instead"),
    "defensive": N_("if none of your cars moved on your turn, one of them moves 3"),
    "reckless": N_("on your turn, your car that went through a tight space may move 2 more"),
}


def title(power: str) -> str:
    """A power's name in the reader's language."""
    return _(TITLES[power]) if power in TITLES else power


def summary(power: str) -> str:
    """What a power does, in the reader's language."""
    return _(SUMMARY[power]) if power in SUMMARY else ""


# The normal AI's preference when it must keep one of several powers (strongest first).
KEEP_ORDER = (
    "cunning",
    "determined",
    "ambitious",
    "tough",
    "aggressive",
    "daring",
    "reckless",
    "experienced",
    "defensive",
    "tricky",
    "strategic",
    "unpredictable",
)


def deal(setting: str, rng_sample) -> list[str | None]:
    """Six powers in auction order (``None`` each with powers off); ``rng_sample(items, k)`` draws."""
    if setting == "off":
        return [None] * 6
    pool = list(BASE) if setting == "base" else list(ALL)
    return list(rng_sample(pool, 6))
