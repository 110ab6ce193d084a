"""Simulate many Hot Streak games with AI players and print what the content does.

``python -m bot sim hotstreak --games N --seed S [--players P] [--ai normal,easy] [--json]``

Every game is played through the engine itself (``ai.play_ai_game``). Reported:

* each mascot's share of race wins (paid as 1st; ``no_winner`` when every mascot left was put
  out together), cards flipped per race (mean, median, 99th percentile, max), the share of
  races where the yellow bar folds;
* how races swing (``swings``): ``lead_changes`` per race, ``races_with_two_lead_changes``,
  ``flips_after_winner`` (share of flips after first place is given), ``short_races`` (share
  under 12 flips) and ``dead_flips`` (share of flips that change nothing on the mat);
* the payout of every ticket side (by stack position, safe/risky) and every side-bet slip
  (by answer, stack position, safe/risky): mean and spread (standard deviation). These are
  what the ticket or slip *would* pay if held, taken over every race (and every mascot for
  tickets), so they measure the content, not which bets the AI happened to take;
* per side-bet card: how often its condition held;
* head to head (``--ai`` names levels): seat-games won (shared first places count for every
  seat sharing) and mean final cash, per level. Levels go round the seats and rotate by one
  seat each game, so every level sits in every seat (and bets first) equally often;
* ``seat_wins``: each seat's share of the games won (seat 1 bets first in race 1), with the
  95% interval's half-width: with ``--ai normal`` in every seat, what the betting order is worth.

Games are independent and seeded from ``--seed`` and their index, so the figures do not
depend on ``--workers`` (games are spread over that many processes).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from bot.games.command_line import Progress, add_progress_option, choices_list, standalone, whole
from bot.games.hotstreak.ai import LEVELS, RACE_BUDGET, ai_action, ai_rng
from bot.games.hotstreak.betting import ANSWERS, RISKS
from bot.games.hotstreak.cards import MASCOTS
from bot.games.hotstreak.content import Content, default_content
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.swings import RaceWatch, Swings


class Moments:
    """Count, sum and sum of squares: mean and spread that merge across processes."""

    def __init__(self, n: int = 0, total: float = 0.0, squares: float = 0.0) -> None:
        self.n, self.total, self.squares = n, total, squares

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def summary(self) -> dict[str, float]:
        if not self.n:
            return {"n": 0, "mean": 0.0, "sd": 0.0}
        mean = self.total / self.n
        variance = max(0.0, self.squares / self.n - mean * mean)
        return {"n": self.n, "mean": round(mean, 4), "sd": round(math.sqrt(variance), 4)}


class Tally:
    """Everything counted over a batch of games; batches merge into one."""

    def __init__(self) -> None:
        self.games = 0
        self.players = 0
        self.races = 0
        self.wins = dict.fromkeys(MASCOTS, 0)
        self.flips: list[int] = []
        self.folded = 0
        self.tickets: dict[str, Moments] = {}
        self.slips: dict[str, Moments] = {}
        self.side_cards: dict[str, list[int]] = {}  # id -> [races, held]
        self.level_seats: dict[str, int] = {}
        self.level_wins: dict[str, int] = {}
        self.level_cash: dict[str, int] = {}
        self.level_outright: dict[str, int] = {}
        self.seat_wins: dict[int, float] = {}
        self.swings = Swings()

    def add_game(self, game: HotStreak, levels: list[str], content: Content) -> None:
        self.games += 1
        self.players = game.seats
        slips_by_id = {card["id"]: card["slips"] for card in content.side_bets}
        public = game.view(None)
        for record in public["history"]:
            self.races += 1
            # A win is being paid as 1st. Mascots all put out together share the worst place, so a
            # race can have no winner (the podium's first slot then holds one of them, not a winner).
            for mascot, place in record["places"].items():
                self.wins[mascot] += place == 1
            self.flips.append(record["tally"]["flips"])
            self.folded += record["tally"]["folds"] >= 1
            for mascot in MASCOTS:
                place = record["places"][mascot]
                for position, ticket in enumerate(content.tickets[mascot], start=1):
                    for risk in RISKS:
                        value = ticket[risk][place - 1] if place <= 3 else 0
                        self.tickets.setdefault(f"{position}:{risk}", Moments()).add(value)
            side = record["side_bet"]
            seen = self.side_cards.setdefault(side["id"], [0, 0])
            seen[0] += 1
            seen[1] += side["happened"]
            for answer in ANSWERS:
                right = (answer == "yes") == side["happened"]
                for position, slip in enumerate(slips_by_id[side["id"]][answer], start=1):
                    for risk in RISKS:
                        if risk == "safe":
                            value = slip["safe"] if right else 0
                        else:
                            value = slip["risky"][0] if right else slip["risky"][1]
                        self.slips.setdefault(f"{answer}:{position}:{risk}", Moments()).add(value)
        for standing in public["standings"]:
            level = levels[standing["seat"]]
            self.level_seats[level] = self.level_seats.get(level, 0) + 1
            self.level_wins[level] = self.level_wins.get(level, 0) + standing["won"]
            self.level_cash[level] = self.level_cash.get(level, 0) + standing["cash"]
        self._add_seats(public["standings"], levels)

    def _add_seats(self, standings: list[dict[str, Any]], levels: list[str]) -> None:
        """Wins by seat (a shared win split among the seats sharing it) and outright wins by level."""
        winners = [s["seat"] for s in standings if s["won"]]
        for seat in winners:
            self.seat_wins[seat] = self.seat_wins.get(seat, 0.0) + 1 / len(winners)
        if len(winners) == 1:
            level = levels[winners[0]]
            self.level_outright[level] = self.level_outright.get(level, 0) + 1

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.players = max(self.players, other.players)
        self.races += other.races
        for m in MASCOTS:
            self.wins[m] += other.wins[m]
        self.flips += other.flips
        self.folded += other.folded
        for mine, theirs in ((self.tickets, other.tickets), (self.slips, other.slips)):
            for key, moments in theirs.items():
                mine.setdefault(key, Moments()).merge(moments)
        for key, (races, held) in other.side_cards.items():
            seen = self.side_cards.setdefault(key, [0, 0])
            seen[0] += races
            seen[1] += held
        for ours, others in (
            (self.level_seats, other.level_seats),
            (self.level_wins, other.level_wins),
            (self.level_cash, other.level_cash),
            (self.level_outright, other.level_outright),
        ):
            for level, count in others.items():
                ours[level] = ours.get(level, 0) + count
        for seat, wins in other.seat_wins.items():  # (keyed by seat, and a shared win counts a fraction)
            self.seat_wins[seat] = self.seat_wins.get(seat, 0) + wins
        self.swings.merge(other.swings)


def seat_levels(levels: list[str], seats: int, game_index: int) -> list[str]:
    """Levels round the seats, rotated one seat per game."""
    return [levels[(seat + game_index) % len(levels)] for seat in range(seats)]


def game_seed(seed: int, game_index: int) -> int:
    return seed * 1_000_003 + game_index


def _play_batch(job: tuple[int, int, int, list[str], int, int]) -> Tally:
    """Games ``start`` to ``stop - 1``: one piece of the work (top level, so any process pool can run it)."""
    seed, start, stop, levels, players, budget = job
    content = default_content()
    tally = Tally()
    for index in range(start, stop):
        by_seat = seat_levels(levels, players, index)
        game = play_watched_game(players, game_seed(seed, index), by_seat, tally.swings, budget=budget)
        tally.add_game(game, by_seat, content)
    return tally


def _pieces(games: int, workers: int) -> list[tuple[int, int]]:
    """Game ranges small enough to show progress and keep every worker busy to the end."""
    size = max(1, min(50, games // (workers * 8)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def play_watched_game(seats: int, seed: int, levels: list[str], swings: Swings, *, budget: int) -> HotStreak:
    """``ai.play_ai_game`` (same seeds, same actions, same game), following every race step by step
    into ``swings``: the lead changes and dead flips need the mat after each card, not just the result."""
    game = HotStreak.new(seats, seed)
    rng = ai_rng(seed)
    watch: RaceWatch | None = None
    while not game.is_over:
        action = ai_action(game, levels, rng, budget=budget)
        if action.kind == "flip" and watch is None:
            watch = RaceWatch(game.race.mascots_view(), game.race.bar)
        for event in game.apply(action):
            if watch is None:
                continue
            if event.kind in ("card_flipped", "bar_folded"):
                frame = event.data["frame"]
                watch.step(frame["mascots"], frame["bar"], flip=event.kind == "card_flipped")
            elif event.kind == "race_over":
                swings.add(watch.finish())
                watch = None
    return game


def simulate(
    games: int,
    seed: int,
    players: int = 4,
    levels: list[str] | None = None,
    *,
    workers: int = 1,
    budget: int = RACE_BUDGET,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` AI games and return the figures as one JSON-able dict."""
    levels = list(levels or ["easy"])
    started = time.perf_counter()
    jobs = [(seed, start, stop, levels, players, budget) for start, stop in _pieces(games, max(1, workers))]
    parts: list[Tally | None] = [None] * len(jobs)
    if max(1, min(workers, len(jobs))) == 1:
        for i, job in enumerate(jobs):
            parts[i] = _play_batch(job)
            if progress is not None:
                progress.advance(job[2] - job[1])
    else:
        # Spawned workers: the one way to start processes that every platform has (fork is Unix-only,
        # and unsafe once threads exist).
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=context) as pool:
            futures = {pool.submit(_play_batch, job): i for i, job in enumerate(jobs)}
            for future in as_completed(futures):
                i = futures[future]
                parts[i] = future.result()
                if progress is not None:
                    progress.advance(jobs[i][2] - jobs[i][1])
    if progress is not None:
        progress.finish()
    tally = Tally()
    for part in parts:  # in game order, whatever order the workers finished in
        assert part is not None
        tally.merge(part)
    return report(tally, seed, players, levels, time.perf_counter() - started)


def report(tally: Tally, seed: int, players: int, levels: list[str], seconds: float) -> dict[str, Any]:
    races = max(tally.races, 1)
    tickets = {
        str(position): {risk: tally.tickets[f"{position}:{risk}"].summary() for risk in RISKS}
        for position in sorted({int(k.split(":")[0]) for k in tally.tickets})
    }
    slips = {
        answer: {
            str(position): {risk: tally.slips[f"{answer}:{position}:{risk}"].summary() for risk in RISKS}
            for position in sorted({int(k.split(":")[1]) for k in tally.slips if k.startswith(answer)})
        }
        for answer in ANSWERS
    }
    calm_risky = [f"ticket {p}" for p, s in tickets.items() if s["risky"]["sd"] <= s["safe"]["sd"]]
    calm_risky += [
        f"side {a} {p}"
        for a, by in slips.items()
        for p, s in by.items()
        if s["risky"]["sd"] <= s["safe"]["sd"]
    ]
    flips = tally.flips or [0]
    head_to_head = {
        level: {
            "seat_games": tally.level_seats[level],
            "wins": tally.level_wins[level],
            "win_rate": round(tally.level_wins[level] / tally.level_seats[level], 4),
            "outright_wins": tally.level_outright.get(level, 0),
            "mean_cash": round(tally.level_cash[level] / tally.level_seats[level], 3),
        }
        for level in levels
        if tally.level_seats.get(level)
    }
    return {
        "games": tally.games,
        "races": tally.races,
        "players": players,
        "seed": seed,
        "ai": levels,
        "mascot_wins": {m: round(tally.wins[m] / races, 4) for m in MASCOTS},
        "no_winner": round(1 - sum(tally.wins.values()) / races, 4),
        "flips": {
            "mean": round(statistics.fmean(flips), 3),
            "median": statistics.median(flips),
            "max": max(flips),
            "p99": tally.swings.percentile(0.99),
        },
        "fold_share": round(tally.folded / races, 4),
        **swing_figures(tally.swings),
        "tickets": tickets,
        "side_slips": slips,
        "side_bets": {
            key: {"races": n, "happened": round(held / n, 4)}
            for key, (n, held) in sorted(tally.side_cards.items())
        },
        "risky_not_wider": calm_risky,
        "head_to_head": head_to_head,
        "seat_wins": seat_figures(tally),
        "seconds": round(seconds, 2),
    }


def swing_figures(swings: Swings) -> dict[str, float]:
    """The issue-12 figures of how races swing (see ``swings``), as top-level JSON keys."""
    figures = swings.summary()
    figures.pop("flips_p99")  # reported with the other race lengths, under "flips"
    return figures


def seat_figures(tally: Tally) -> dict[str, Any]:
    """Each seat's share of the games won (a shared win split), and the 95% interval's half-width
    (normal approximation): the rules fix who bets first (seat 1 in race 1, then one seat on), so
    this is what a seat is worth, measured rather than assumed."""
    games = max(tally.games, 1)
    shares = {
        str(seat + 1): round(tally.seat_wins.get(seat, 0.0) / games, 4) for seat in range(tally.players)
    }
    half = max((1.96 * math.sqrt(p * (1 - p) / games) for p in shares.values()), default=0.0)
    return {"share": shares, "half_width_95": round(half, 4)}


def _swing_lines(out: dict[str, Any]) -> list[str]:
    return [
        f"Lead changes per race: {out['lead_changes']:.2f} "
        f"({out['races_with_two_lead_changes']:.1%} of races have two or more)",
        f"Winner settled after {out['winner_settled_after']:.1f} flips; "
        f"{out['flips_after_winner']:.1%} of flips come after it",
        f"Races under 12 flips: {out['short_races']:.1%}; 99% of races within {out['flips']['p99']} flips; "
        f"flips that change nothing: {out['dead_flips']:.1%}",
    ]


def _table(out: dict[str, Any]) -> str:
    # People read the table: mascots and side bets by their names, not their ids (the JSON keeps ids).
    content = default_content()
    mascot = {key: m["name"] for key, m in content.mascots.items()}
    side_bet = {str(card["id"]): str(card["text"]) for card in content.side_bets}
    lines = [
        f"Hot Streak: {out['games']} games, {out['races']} races, {out['players']} players, "
        f"AI {','.join(out['ai'])}, seed {out['seed']} ({out['seconds']} s)",
        "",
        "Mascot wins: "
        + "  ".join(f"{mascot[m]} {share:.1%}" for m, share in out["mascot_wins"].items())
        + f"  (no winner {out['no_winner']:.1%})",
        f"Cards flipped per race: mean {out['flips']['mean']:.1f}, median {out['flips']['median']}, "
        f"max {out['flips']['max']}",
        f"Races where the yellow bar folds: {out['fold_share']:.1%}",
        *_swing_lines(out),
        "",
        "Tickets if held (every race, every mascot): mean / spread",
        f"{'stack':>7}  {'safe':>15}  {'risky':>15}",
    ]
    for position, sides in out["tickets"].items():
        lines.append(
            f"{position:>7}  "
            + "  ".join(f"{sides[r]['mean']:>7.2f} / {sides[r]['sd']:<5.2f}" for r in RISKS)
        )
    lines += [
        "",
        "Side-bet slips if held (every race): mean / spread",
        f"{'slip':>7}  {'safe':>15}  {'risky':>15}",
    ]
    for answer, by in out["side_slips"].items():
        for position, sides in by.items():
            lines.append(
                f"{answer + ' ' + position:>7}  "
                + "  ".join(f"{sides[r]['mean']:>7.2f} / {sides[r]['sd']:<5.2f}" for r in RISKS)
            )
    lines += ["", "Side-bet cards: how often they happen"]
    width = max((len(side_bet.get(key, key)) for key in out["side_bets"]), default=0)
    for key, seen in out["side_bets"].items():
        lines.append(
            f"  {side_bet.get(key, key):<{width}}  {seen['happened']:>6.1%}  ({seen['races']} races)"
        )
    if out["risky_not_wider"]:
        lines.append("Risky sides with no wider spread than safe: " + ", ".join(out["risky_not_wider"]))
    else:
        lines.append("Every risky side has a wider spread than its safe side.")
    if out["head_to_head"]:
        lines += ["", "Head to head (per seat-game): win rate, mean final cash"]
        for level, h in out["head_to_head"].items():
            lines.append(
                f"  {level:<7} {h['win_rate']:>6.1%} of {h['seat_games']} seat-games, ${h['mean_cash']:.2f}"
                f" ({h['outright_wins']} games won alone)"
            )
    seats = out["seat_wins"]
    lines += [
        "",
        "Games won by seat (shared wins split; seat 1 bets first in race 1): "
        + "  ".join(f"{seat} {share:.1%}" for seat, share in seats["share"].items())
        + f"  (95% interval +/- {seats['half_width_95']:.1%})",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    low, high = HotStreak.min_players, HotStreak.max_players
    parser.add_argument("--games", metavar="N", type=whole(1), default=1000, help="games to play")
    parser.add_argument("--seed", metavar="N", type=int, default=1, help="same seed, same figures")
    parser.add_argument(
        "--players", metavar="N", type=whole(low, high), default=4, help=f"seats per game ({low} to {high})"
    )
    parser.add_argument(
        "--ai",
        type=choices_list(LEVELS, "AI level"),
        default="easy",
        metavar="LEVELS",
        help=f"comma-separated AI levels, dealt round the seats ({', '.join(LEVELS)}); "
        "two or more levels are compared head to head",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument(
        "--workers",
        metavar="N",
        type=whole(1),
        default=min(2, os.cpu_count() or 1),
        help="processes to spread the games over (the figures do not depend on it)",
    )
    parser.add_argument(
        "--budget",
        metavar="N",
        type=whole(1),
        default=RACE_BUDGET,
        help="imagined races per decision of a normal AI",
    )
    add_progress_option(parser)


def run(args: argparse.Namespace) -> int:
    progress = Progress(args.games, "games", enabled=args.progress)
    out = simulate(
        args.games,
        args.seed,
        args.players,
        args.ai,
        workers=args.workers,
        budget=args.budget,
        progress=progress,
    )
    print(json.dumps(out, sort_keys=True) if args.json else _table(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    return standalone("python -m bot sim hotstreak", __doc__, add_arguments, run, argv)
