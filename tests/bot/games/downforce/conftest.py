"""Small tracks and helpers for the Downforce rule tests.

A rule test reads in card notation, like a card on the table::

    race = play("red 2", on=lane_track(12, 1), cars="red a0", owners={"red": 0}, powers={0: "aggressive"},
                answers="yes")
    assert moved(race) == ["red a2", "red a3 aggressive"]
"""

from __future__ import annotations

from bot.games.base import JSON, Action
from bot.games.downforce.game import Downforce
from bot.games.downforce.scenario import run_scenario


def space(ident: str, row: int, lane: int, ahead: list[str], **flags) -> dict:
    return {"id": ident, "row": row, "lane": lane, "ahead": ahead, **flags}


def lane_track(rows: int, lanes: int = 2, lines: tuple[int, ...] = (1, 2, 3)) -> dict:
    """A straight track ``rows`` long and ``lanes`` wide: ids ``a0, b0`` (row 0), ``a1, b1``..."""
    letters = "abcdef"[:lanes]
    spaces = []
    for r in range(rows):
        for i, letter in enumerate(letters):
            if r + 1 == rows:
                ahead = ["FINISH"]
            else:
                ahead = [f"{letters[j]}{r + 1}" for j in (i - 1, i, i + 1) if 0 <= j < lanes]
            spaces.append(space(f"{letter}{r}", r, i, ahead))
    return {"spaces": spaces, "lines": list(lines)}


def do(game: Downforce, seat: int | None, kind: str, choice) -> list:
    return game.apply(Action(seat, kind, choice))


def bid_all(game: Downforce, picks: dict[int, str]) -> list:
    events = []
    for seat, card in picks.items():
        events += do(game, seat, "bid", card)
    return events


def skip_auctions(game: Downforce) -> None:
    """Every auction settled by each seat bidding its first card."""
    while game.phase == "auction":
        decision = game.pending()[0]
        do(game, decision.player, "bid", decision.options[0])


def rules_content(rows: int = 14, lanes: int = 2, lines: tuple[int, int, int] = (4, 8, 11)):
    """An edition for rule tests: cards named for what they do, a plain straight track."""
    from bot.games.downforce.cards import COLOURS, parse_card
    from bot.games.downforce.content import Content
    from bot.games.downforce.track import Track

    cards = {}
    for speed in range(1, 7):
        cards[f"all{speed}"] = parse_card(", ".join(f"{c} {speed}" for c in COLOURS))
    cards["wild1"] = parse_card("wild 1")
    for colour in COLOURS:
        for speed in range(1, 7):
            cards[f"{colour}{speed}"] = parse_card(f"{colour} {speed}")
    speed_cards = tuple(list(cards)[:42])
    speed8 = {}
    for colour in COLOURS:
        speed8[colour] = f"s8-{colour}"
        cards[f"s8-{colour}"] = ((colour, 8),)
    track = lane_track(rows, lanes, lines)
    letters = "abcdef"
    track["grid"] = [f"{letters[i % lanes]}{2 - i // lanes}" for i in range(6)]
    track["name"] = "river-station"
    return Content(cards, speed_cards, speed8, {"river-station": Track(track), "marina-bay": Track(track)})


def make_game(seats: int = 2, seed: int = 1, hands: list[list[str]] | None = None, **settings) -> Downforce:
    game = Downforce.new(seats, seed, settings or None, content=rules_content())
    if hands is not None:
        game.s["hands"] = [sorted(h) for h in hands]
    return game


def place(game: Downforce, **spaces: str) -> None:
    """Put cars on spaces (the rest stay where they are)."""
    game.race.spaces.update(spaces)
    game._sync()


def cars_at(text: str) -> dict[str, str]:
    """``"red a0, blue a5"`` -> ``{"red": "a0", "blue": "a5"}`` (each car and its space)."""
    pairs = [part.split() for part in text.split(",") if part.strip()]
    return {colour: ident for colour, ident in pairs}


def play(
    *cards: str,
    on: dict | str,
    cars: str = "",
    owners: dict[str, int] | None = None,
    powers: dict[int, str] | None = None,
    player: int | list[int] = 0,
    answers: str = "",
    choose: tuple[int, ...] | list[int] = (),
    rules: int | None = None,
    ways: str = "",
) -> dict[str, JSON]:
    """Play ``cards`` (each in card notation, ``"red 4, blue 2"``) on the track ``on`` with the
    scenario runner: ``cars`` where the cars stand (``"red a0, blue a5"``), ``owners`` colour ->
    seat, ``powers`` seat -> the power it kept, ``player`` the seat on turn, ``answers`` the
    yes/no answers to optional powers in order (``"yes, no"``), ``choose`` the picks among end
    spaces, ``rules`` the rules version (default: today's), ``ways`` the runner's yes/no picks of
    a way that sets a power off (ruling (c); ``"yes, no"``). Returns the runner's result."""
    data: dict[str, JSON] = {
        "track": on,
        "cars": cars_at(cars),
        "cards": list(cards),
        "player": player,
        "choose": list(choose),
        "owners": owners or {},
        "powers": {str(seat): power for seat, power in (powers or {}).items()},
        "answers": [a.strip() for a in answers.split(",") if a.strip()],
    }
    if rules is not None:
        data["rules"] = rules
    if ways:
        data["ways"] = [w.strip() for w in ways.split(",") if w.strip()]
    return run_scenario(data)


def moved(result: dict[str, JSON]) -> list[str]:
    """Each move of a played race in notation: the car and where it ended, then the power that
    moved it if one did (``["red a2", "red a3 aggressive"]``)."""
    return [" ".join(filter(None, (m["car"], m["to"], m.get("power")))) for m in result["moves"]]
