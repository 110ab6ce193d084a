"""The AI players pick legal options from their own view; the simulator reports its documented keys."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.base import Action
from bot.games.downforce.ai import choose, play_ai_game
from bot.games.downforce.cards import COLOURS
from bot.games.downforce.game import Downforce
from bot.games.downforce.sim import main, simulate

from .conftest import do, rules_content, skip_auctions


def test_every_level_plays_a_whole_game_legally_from_its_own_view():
    game = Downforce.new(4, 3, {"betting": "odds"})
    rng = random.Random(1)
    levels = ["easy", "normal", "normal", "easy"]
    while not game.is_over:
        decision = game.pending()[0]
        choice = choose(game.view(decision.player), decision, levels[decision.player], rng)
        assert choice in decision.options
        game.apply(Action(decision.player, decision.kind, choice))


def test_normal_steers_its_own_car_on_and_a_rivals_car_into_a_dead_end():
    game = Downforce.new(2, 1, content=rules_content(lanes=3))
    skip_auctions(game)
    seat = game.pending()[0].player
    mine = next(c for c in COLOURS if game.s["owners"][c] == seat)
    rival = next(c for c in COLOURS if game.s["owners"][c] != seat)
    rest = [c for c in COLOURS if c not in (mine, rival)]
    for car, where in zip([mine, rival, *rest], ["a5", "a0", "a8", "b8", "a12", "b12"], strict=True):
        game.race.spaces[car] = where
    game._sync()
    game.s["hands"][seat] = [f"{mine}2", f"{rival}1"]
    do(game, seat, "play", f"{mine}2")
    decision = game.pending()[0]
    assert decision.options == ("a7", "b7", "c7")
    assert choose(game.view(seat), decision, "normal", random.Random(0)) in ("b7", "c7")
    game.race.spaces[mine], game.race.spaces[rival] = "a0", "a5"
    game._sync()
    game.s["choice"]["car"] = rival
    assert choose(game.view(seat), decision, "normal", random.Random(0)) == "a7"


def test_normal_beats_easy():
    wins = {"normal": 0.0, "easy": 0.0}
    for seed in range(12):
        game = play_ai_game(2, seed, ["normal", "easy"] if seed % 2 else ["easy", "normal"])
        levels = ["normal", "easy"] if seed % 2 else ["easy", "normal"]
        winners = [r.seat for r in game.results() if r.won]
        for seat in winners:
            wins[levels[seat]] += 1 / len(winners)
    assert wins["normal"] > wins["easy"]


def test_the_simulator_reports_its_documented_keys(capsys):
    assert main(["--games", "12", "--seed", "3", "--players", "3", "--json", "--workers", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 12 and out["players"] == 3
    assert set(out["win_share_by_colour"]) == set(COLOURS)
    assert set(out["win_share_by_seat"]) == {"1", "2", "3"}
    assert set(out["win_share_by_grid"]) == set(out["price_by_grid"]) == {"1", "2", "3", "4", "5", "6"}
    assert set(out["turns_per_player"]) == {"mean", "max"}
    assert 0 <= out["ended_by_cards_out"] <= 1
    assert abs(sum(out["win_share_by_colour"].values()) - 1) < 0.01
    assert abs(sum(out["win_share_by_seat"].values()) - 1) < 0.01


def test_the_figures_do_not_depend_on_the_workers():
    one = simulate(6, 2, 2, ["easy"], workers=1)
    two = simulate(6, 2, 2, ["easy"], workers=2)
    for key in ("win_share_by_colour", "win_share_by_seat", "price_by_grid", "turns_per_player"):
        assert one[key] == two[key]


def test_bad_options_exit_with_code_2(capsys):
    assert main(["--players", "9"]) == 2
    assert main(["--ai", "genius"]) == 2
    assert "unknown AI level" in capsys.readouterr().err


def test_the_bot_command_line_runs_the_simulator(capsys):
    from bot.cli import main as cli

    assert cli(["sim", "downforce", "--games", "4", "--players", "2", "--json", "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4


@pytest.mark.parametrize("track", ["crosstown-speedway", "switchback-pass", "aloha-sands", "savanna-stretch"])
def test_the_simulator_runs_every_special_track_with_powers(capsys, track):
    args = ["--games", "4", "--seed", "2", "--json", "--workers", "1", "--track", track, "--powers", "all"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["track"] == track and out["powers"] == "all"
    assert abs(sum(out["win_share_by_grid"].values()) - 1) < 0.01


def test_bad_powers_exit_with_code_2(capsys):
    assert main(["--powers", "some"]) == 2
