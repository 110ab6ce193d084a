"""The offline demo: narrates a whole game as the channel would see it and writes every race frame."""

from __future__ import annotations

import re

from bot.cli import main as cli
from bot.games.base import Event
from bot.games.hotstreak.demo import main, show


def test_the_demo_writes_a_frame_per_flip_and_prints_standings(tmp_path, capsys):
    out = tmp_path / "frames"
    assert main(["--players", "3", "--seed", "7", "--ai", "easy", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    frames = sorted(p.name for p in out.iterdir())
    assert frames and all(re.fullmatch(r"race[123]_(card\d\d|fold\d)\.png", name) for name in frames)
    assert {name[:5] for name in frames} == {"race1", "race2", "race3"}
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in out.iterdir())
    flips = sum(1 for line in text.splitlines() if re.match(r"^(Gobbler|Hurley|Dangle|Mum|All) ", line))
    assert len([n for n in frames if "_card" in n]) == flips
    assert f"Wrote {len(frames)} frames to {out}." in text
    for words in ("=== Race 3 ===", "has submitted", "Payouts for race 3:", "Final standings:", "<- winner"):
        assert words in text


def test_the_demo_is_the_same_for_the_same_seed(capsys):
    assert (
        cli(["demo", "hotstreak", "--players", "2", "--seed", "3", "--ai", "normal,easy", "--budget", "40"])
        == 0
    )
    first = capsys.readouterr().out
    assert main(["--players", "2", "--seed", "3", "--ai", "normal,easy", "--budget", "40"]) == 0
    assert capsys.readouterr().out == first
    assert "Game over" in first and "No frames written" in first


def test_the_channel_never_sees_a_private_event():
    secret = Event("submission", {"seat": 1, "race": 1, "cards": ["mum +5"]}, (1,))
    assert show(secret, ["easy", "easy"]) == []
    announced = Event("submitted", {"seat": 1, "race": 1, "count": 1})
    assert show(announced, ["easy", "easy"]) == ["Seat 2 has submitted."]  # seat 1, counted from 1
