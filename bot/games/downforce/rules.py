"""The rules in a few lines, as ``/downforce rules`` can show them (Discord markdown), rulings included.

Kept next to the engine so the words and the code that enforces them change together.
"""

from __future__ import annotations

RULES = """\
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
