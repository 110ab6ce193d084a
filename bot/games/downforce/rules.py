"""The rules in a few lines, as ``/downforce rules`` can show them (Discord markdown), rulings included.

Kept next to the engine so the words and the code that enforces them change together.
"""

from __future__ import annotations

from bot.i18n import N_

# Shown translated: ``_(RULES)``.
RULES = N_(
    """\
**Goal:** the most money at the end: race prizes for the cars you own, plus your bets, minus what you \
paid for your cars.
**The grid:** the six cars (black, blue, green, yellow, orange, red) start in a random order, shown to all.
**Auctions:** the cars are sold one at a time. Everyone secretly picks a card from their hand: the bid is \
that card's speed for the car's colour (0 if the card has none; wilds count 0). Bids are revealed \
together; the highest bid wins the car and its Speed-8 card, and pays the bid. Ties go to the player with \
fewer cars, then to a draw. Bid cards go back to your hand. Everyone gets at least one car: when the cars \
left equal the players without one, only they bid (the last one alone gets the car free).
**The race:** the owner of the car on pole plays first, then clockwise. On your turn play a card: each \
line moves its car, top to bottom, up to its speed, straight or diagonally ahead, never into or through \
another car. A car must keep moving while it can; you move every car, your rivals' too, and choose where \
each ends when there is a choice, a dead end included. A wild line gets a colour not already on the card.
**Bets:** the first time a car crosses each yellow line, once the card is done, everyone secretly bets \
on the winner. Bets are revealed at the end. Bets pay 9/6/3 (1st bet), 6/4/2 (2nd), 3/2/1 (3rd) if the \
car finishes 1st/2nd/3rd. *Odds betting:* the car's position when you bet times 3/2/1 (1st bet), 2/1/0 \
(2nd), 1/0/0 (3rd); *winner only:* only bets on the winner pay.
**The end:** when every car has finished, or nobody has a card left (cars still racing are ranked by \
how far they got; ties: the left lane). Prizes 12/9/6/4/2/0. Equal money shares the win."""
)


POWERS = """\
**Powers** (setting `powers`: off, base, or all twelve): a power card is shown with each car before its \
auction; the winner takes it. With several, you keep one in secret right after the auctions (revealed \
together). Your power works for all your cars. "May" powers ask you (the deadline picks for you); the \
others just happen.
**Base:** *Aggressive:* your car on the card's top line may move 1 more. *Determined* (any turn): your car \
that moved only through rectangular (straight) spaces may move 2 more. *Strategic:* a card with all six \
colours: you may ignore one. *Tricky:* you may move the card bottom line first. *Unpredictable:* a wild \
may take a colour already on the card. *Cunning:* you choose where your cars end, even on others' turns.
**Danger Circuit:** *Ambitious* (any turn): your car that crosses a yellow line may move 2 more. \
*Experienced* (any turn): when a car leaves the space straight ahead of yours, you may move into it. \
*Tough* (any turn): your car that ends beside a rumble strip (red-white kerb) may move 2 more. *Daring:* \
on your turn a car of yours that moves 1 or 2 goes on to 3. *Defensive:* if none of your cars moved on \
your turn, one of them moves 3 at the end. *Reckless:* on your turn, your car that went through a tight \
(amber, one-car) space may move 2 more.
**Rulings:** an extra move is a normal move (must keep moving; no loops skipped, no stopping on a crack, \
never through an animal), you choose where it ends; extra moves never set off more powers; a finished \
car gets none. After one line, powers are asked in this order: the moved car's owner, then Experienced \
players clockwise from the player on turn. A car must take at least one step to trigger Determined or \
Tough; Ambitious counts any yellow line, not only the first crossing."""

TRACKS = """\
**Tracks:** River Station and Marina Bay are plain. Every track shows curved (bluer) and rectangular \
spaces, rumble strips and tight spaces, for the powers.
**Crosstown Speedway:** two crossover loops (violet): a car that enters a loop goes round it (no step \
from entry to exit, not even with a power) and two split sections (two roads with no crossing).
**Switchback Pass:** cracked spaces (dark, jagged) may be driven through to get past cars but never \
stopped on: a car that would end there falls back along its path to the last regular space it passed, \
or stays where it began.
**Aloha Sands:** ramps (sand, arrow): a car that drives onto a ramp with a line of at least the ramp's \
speed and 1+ space left may jump to the ringed landing if it is empty: the jump costs 1 space and the \
car goes on from there. Jumping is one of the ways a move can go, so it is picked with the end space.
**Savanna Stretch:** animals (A antelope, E elephant, P python) block their space. At the end of a \
turn in which a car passed one (from behind its row to beyond it), it moves on to the next empty space \
of its path, or leaves the track from its last one."""
