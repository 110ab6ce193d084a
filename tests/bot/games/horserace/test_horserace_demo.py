"""The terminal demo plays a whole game with AI players."""

from __future__ import annotations

from bot.cli import main as cli


def test_the_demo_plays_to_the_end_and_prints_standings(capsys, tmp_path):
    png = tmp_path / "board.png"
    assert cli(["demo", "horserace", "--players", "3", "--races", "1", "--quiet", "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert "Game over after 1 race:" in out
    assert "1. Seat" in out
    assert png.read_bytes().startswith(b"\x89PNG")
