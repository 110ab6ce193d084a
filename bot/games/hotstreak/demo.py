"""Play one Hot Streak game with AI players and print what the Discord channel would show.

``python -m bot demo hotstreak [--players 4] [--seed 7] [--ai normal] [--out DIR]``

Every public event is narrated (``narration.narrate``); private ones (dealt hands, the
cards in a submission) stay private, as in the channel: a submission is announced, never
shown. Payouts are listed bet by bet. With ``--out`` every race picture is written as a PNG:
``raceR_cardNN.png`` after flip NN of race R and ``raceR_foldK.png`` when the bar folds,
each from the event's own ``frame`` (one step can end a race and set up the next).

The first better is a seeded choice (the rules say the unluckiest player, which a demo
cannot know). Same seed, same game, same frames.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

from bot.games.base import JSON, Event
from bot.games.command_line import choices_list, standalone, whole, writable_folder
from bot.games.hotstreak.ai import LEVELS, RACE_BUDGET, ai_action, ai_rng
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.narration import narrate
from bot.games.hotstreak.render import render_race


def _money(value: int) -> str:
    return f"-${-value}" if value < 0 else f"+${value}"


def _seat(seat: int, levels: list[str]) -> str:
    return f"Seat {seat + 1} ({levels[seat]})"


def payout_lines(data: dict[str, JSON], levels: list[str]) -> list[str]:
    """The bookie's payouts, one line per bet, then each seat's total."""
    lines = [f"Payouts for race {data['race']}:"]
    for seat in data["seats"]:
        for line in seat["lines"]:
            doubled = " doubled" if line["doubled"] else ""
            if line["kind"] == "ticket":
                place = line["place"]
                result = f"{line['mascot'].capitalize()} placed {place}" if place else "no place"
            else:
                result = "right" if line["right"] else "wrong"
            lines.append(
                f"  {_seat(seat['seat'], levels)}: {line['label']}: {result}{doubled}: {_money(line['paid'])}"
            )
        capped = " (paid what they had)" if seat["capped"] else ""
        lines.append(
            f"  {_seat(seat['seat'], levels)} total {_money(seat['change'])}{capped} -> ${seat['cash_after']}"
        )
    return lines


def show(event: Event, levels: list[str]) -> list[str]:
    """What the channel shows for one event (nothing for a private one)."""
    if event.visible_to is not None:
        return []
    if event.kind == "payouts":
        lines = payout_lines(event.data, levels)
        cash = ", ".join(f"seat {p['seat'] + 1} ${p['cash_after']}" for p in event.data["seats"])
        return [*lines, f"Cash: {cash}."]
    if event.kind == "race_setup":
        return ["", f"=== Race {event.data['race']} ===", narrate(event)]
    if event.kind == "game_over":
        lines = ["", narrate(event), "Final standings:"]
        for s in event.data["standings"]:
            crown = "  <- winner" if s["won"] else ""
            lines.append(f"  {s['place']}. {_seat(s['seat'], levels)}: ${s['cash']}{crown}")
        return lines
    return [narrate(event)]


def frame_name(event: Event, folds: int) -> str | None:
    """File name of the picture an event carries (``None`` if it carries none)."""
    if event.kind == "card_flipped":
        return f"race{event.data['race']}_card{event.data['flip']:02d}.png"
    if event.kind == "bar_folded":
        return f"race{event.data['race']}_fold{folds}.png"
    return None


def run_demo(
    players: int,
    seed: int,
    levels: list[str],
    out: Path | None,
    budget: int = RACE_BUDGET,
    echo: Callable[[str], None] = print,
) -> HotStreak:
    """Play and narrate one game; write its frames into ``out`` (created) if given."""
    by_seat = [levels[s % len(levels)] for s in range(players)]
    first = random.Random(f"hotstreak-demo:{seed}").randrange(players)
    game = HotStreak.new(players, seed, {"first_better": first})
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    echo(
        f"Hot Streak demo: {players} players ({', '.join(by_seat)}), seed {seed}; seat {first + 1} bets first."
    )
    for event in game.opening_events():
        for line in show(event, by_seat):
            echo(line)
    rng = ai_rng(seed)
    written = 0
    folds = 0
    while not game.is_over:
        for event in game.apply(ai_action(game, by_seat, rng, budget=budget)):
            if event.kind == "race_setup":
                folds = 0
            folds += event.kind == "bar_folded"
            for line in show(event, by_seat):
                echo(line)
            name = frame_name(event, folds)
            if name and out is not None:
                (out / name).write_bytes(render_race(event.data["frame"]))
                written += 1
    if out is not None:
        echo(f"\nWrote {written} frames to {out}.")
    else:
        echo("\nNo frames written (pass --out DIR to write them).")
    return game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    low, high = HotStreak.min_players, HotStreak.max_players
    parser.add_argument(
        "--players",
        metavar="N",
        type=whole(low, high),
        default=4,
        help=f"seats at the table ({low} to {high})",
    )
    parser.add_argument("--seed", metavar="N", type=int, default=7, help="same seed, same game")
    parser.add_argument(
        "--ai",
        type=choices_list(LEVELS, "AI level"),
        default="normal",
        metavar="LEVELS",
        help=f"comma-separated AI levels, dealt round the seats ({', '.join(LEVELS)})",
    )
    parser.add_argument(
        "--out", type=Path, metavar="DIR", help="write the race pictures into this folder (created)"
    )
    parser.add_argument(
        "--budget",
        metavar="N",
        type=whole(1),
        default=RACE_BUDGET,
        help="imagined races per decision of a normal AI",
    )


def run(args: argparse.Namespace) -> int:
    out = writable_folder(args.out, "--out") if args.out is not None else None
    run_demo(args.players, args.seed, args.ai, out, args.budget)
    return 0


def main(argv: list[str] | None = None) -> int:
    return standalone("python -m bot demo hotstreak", __doc__, add_arguments, run, argv)
