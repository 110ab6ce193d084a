"""The simulator: its JSON shape, its table, head to head by level, and seeds that replay."""

from __future__ import annotations

import json

from bot.cli import main as cli
from bot.games.hotstreak.cards import MASCOTS
from bot.games.hotstreak.sim import Moments, main, seat_levels, simulate


def test_json_output_reports_every_figure(capsys):
    assert main(["--games", "6", "--seed", "2", "--json", "--workers", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 6 and out["races"] == 18 and out["players"] == 4
    assert set(out["mascot_wins"]) == set(MASCOTS)
    assert abs(sum(out["mascot_wins"].values()) + out["no_winner"] - 1) < 1e-9
    assert (
        set(out["flips"]) == {"mean", "median", "max", "p99"}
        and out["flips"]["max"] >= out["flips"]["mean"] > 0
    )
    assert out["flips"]["max"] >= out["flips"]["p99"] >= out["flips"]["median"]
    assert out["lead_changes"] >= 0
    for share in ("races_with_two_lead_changes", "flips_after_winner", "short_races", "dead_flips"):
        assert 0 <= out[share] <= 1
    assert 0 <= out["fold_share"] <= 1
    assert set(out["tickets"]) == {"1", "2", "3"}
    for sides in out["tickets"].values():
        assert set(sides) == {"safe", "risky"}
        assert sides["safe"]["n"] == 18 * len(MASCOTS)
        assert {"mean", "sd"} <= set(sides["risky"])
    assert set(out["side_slips"]) == {"yes", "no"}
    for by_position in out["side_slips"].values():
        assert set(by_position) == {"1", "2", "3"}
        assert all(s["safe"]["n"] == s["risky"]["n"] == 18 for s in by_position.values())
    assert sum(card["races"] for card in out["side_bets"].values()) == 18
    assert out["head_to_head"]["easy"]["seat_games"] == 24


def test_the_cli_dispatches_to_the_simulator(capsys):
    assert cli(["sim", "hotstreak", "--games", "2", "--json", "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_the_readable_table_names_each_figure(capsys):
    assert main(["--games", "3", "--players", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    for words in (
        "Mascot wins",
        "Cards flipped per race",
        "yellow bar folds",
        "Tickets if held",
        "yes 1",
        "no 3",
        "Lead changes per race",
        "come after it",
        "Races under 12 flips",
        "change nothing",
    ):
        assert words in out


def test_head_to_head_reports_each_level():
    out = simulate(4, seed=1, players=2, levels=["normal", "easy"], budget=40)
    h2h = out["head_to_head"]
    assert set(h2h) == {"normal", "easy"}
    assert h2h["normal"]["seat_games"] == h2h["easy"]["seat_games"] == 4
    assert all(0 <= h["win_rate"] <= 1 and h["mean_cash"] >= 0 for h in h2h.values())


def test_watching_the_races_plays_the_same_games_as_the_ai_does():
    from bot.games.hotstreak.ai import play_ai_game
    from bot.games.hotstreak.sim import play_watched_game
    from bot.games.hotstreak.swings import Swings

    swings = Swings()
    watched = play_watched_game(3, 11, ["normal", "easy", "easy"], swings, budget=40)
    assert watched.dumps() == play_ai_game(3, 11, ["normal", "easy", "easy"], budget=40).dumps()
    assert swings.races == 3
    assert swings.flips == sum(record["tally"]["flips"] for record in watched.view(None)["history"])


def test_levels_go_round_the_seats_and_rotate_each_game():
    assert seat_levels(["normal", "easy"], 4, 0) == ["normal", "easy", "normal", "easy"]
    assert seat_levels(["normal", "easy"], 2, 1) == ["easy", "normal"]


def test_the_figures_do_not_depend_on_the_seed_alone_nor_on_the_workers():
    one = simulate(6, seed=4, players=3, workers=1)
    two = simulate(6, seed=4, players=3, workers=2)
    other = simulate(6, seed=5, players=3, workers=1)
    for out in (one, two, other):
        out.pop("seconds")
    assert one == two
    assert one != other


def test_an_unknown_level_is_reported_not_raised(capsys):
    assert main(["--ai", "normal,hard", "--games", "1"]) == 2
    assert "hard" in capsys.readouterr().err


def test_moments_give_mean_and_spread():
    moments = Moments()
    for value in (2, 4, 4, 4, 5, 5, 7, 9):
        moments.add(value)
    assert moments.summary() == {"n": 8, "mean": 5.0, "sd": 2.0}
