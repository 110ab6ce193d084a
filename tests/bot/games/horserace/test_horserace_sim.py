"""The simulator: win rates per horse over many races, through the engine's own Track."""

from __future__ import annotations

import json

from bot.cli import main as cli
from bot.games.horserace.board import load_board
from bot.games.horserace.race import DICE_TOTALS, Track
from bot.games.horserace.sim import main, simulate


def test_json_output_has_a_win_rate_for_every_horse(capsys):
    assert main(["--races", "300", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["races"] == 300
    assert set(out["win_rate"]) == {str(h) for h in range(2, 13)}
    assert abs(sum(out["win_rate"].values()) - 1) < 1e-9
    assert out["mean_rolls"] > 0


def test_the_cli_dispatches_to_the_simulator(capsys):
    assert cli(["sim", "horserace", "--races", "50", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["races"] == 50


def test_the_readable_table_lists_every_horse(capsys):
    assert main(["--races", "100", "--board", "classic16"]) == 0
    out = capsys.readouterr().out
    assert "classic16" in out
    assert all(f"\n{h:>5}  " in out for h in range(2, 13))


def test_an_unknown_board_is_reported_not_raised(capsys):
    assert main(["--board", "nothere"]) == 2
    assert "no such board" in capsys.readouterr().err


def test_the_same_seed_gives_the_same_figures():
    board = load_board("standard")
    assert simulate(board, 200, seed=5) == simulate(board, 200, seed=5)
    assert simulate(board, 200, seed=5) != simulate(board, 200, seed=6)


def test_scratched_horses_never_win_and_four_are_scratched_each_race():
    stats = simulate(load_board("standard"), 500, seed=1)
    assert abs(sum(stats["scratch_rate"].values()) - 4) < 1e-9


def test_the_dice_totals_are_the_36_throws_of_two_dice():
    assert len(DICE_TOTALS) == 36
    assert DICE_TOTALS.count(7) == 6 and DICE_TOTALS.count(2) == DICE_TOTALS.count(12) == 1


def test_a_track_counts_penalties_without_moving_and_names_the_winner():
    track = Track({h: 2 for h in range(2, 13)})
    for total in (7, 7, 6, 8, 5):
        track.scratch_roll(total)
    assert track.scratched == [7, 6, 8, 5] and not track.scratching
    assert track.race_roll(8) == 3
    assert track.race_roll(9) == 0 and track.winner is None
    assert track.race_roll(9) == 0 and track.winner == 9
