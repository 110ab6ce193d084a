"""The simulator: win rates per horse over many races, through the engine's own Track."""

from __future__ import annotations

import json

from bot.cli import main as cli
from bot.games.horserace.board import load_board
from bot.games.horserace.game import HorseRace
from bot.games.horserace.race import DICE_TOTALS, Track
from bot.games.horserace.sim import Money, main, play_game, simulate, simulate_games


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


def test_whole_games_report_the_money_left_unpaid_and_late_decisions(capsys):
    assert main(["--games", "20", "--players", "4", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 20 and out["players"] == 4
    assert out["settings"] == HorseRace.new(4, 1).settings.to_json()
    assert 0 <= out["paid_short"] <= 1 and 0 <= out["decided_in_last_race"] <= 1
    assert set(out["paid_short_by_kind"]) == {"fees", "penalties", "sit_out_fees"}
    assert out["owed_per_game"] > 0


def test_the_readable_games_report_names_each_figure(capsys):
    assert main(["--games", "5", "--players", "8"]) == 0
    out = capsys.readouterr().out
    assert "8 players" in out and "unpaid" in out and "decided in the last race" in out


def test_a_player_with_too_little_pays_what_they_have_and_the_rest_is_short():
    money = Money()
    play_game(4, 3, {"bank": 1, "races": 3}, money)
    assert money.short() > 0
    rich = Money()
    play_game(4, 3, {"bank": 1000, "races": 3}, rich)
    assert rich.short() == 0


def test_the_last_race_decides_a_game_when_it_changes_who_leads():
    assert simulate_games(30, 3, seed=1) == simulate_games(30, 3, seed=1)
    one_race = simulate_games(30, 3, seed=1, settings={"races": 1})
    assert one_race["decided_in_last_race"] == 1.0  # before the only race everyone is level


def test_the_games_options_are_checked(capsys):
    assert main(["--games", "0"]) == 2
    assert "--games" in capsys.readouterr().err
    assert main(["--games", "2", "--players", "16"]) == 2
    assert "--players" in capsys.readouterr().err
