"""The quick edition tuner: candidates override the shipped edition, and races swing as the sim says."""

from __future__ import annotations

import json

import pytest

from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.tune import candidate, main, try_edition


def test_a_candidate_overrides_only_what_it_names():
    shipped = default_content()
    track = {"lanes": 4, "length": 9, "stars": [[3, 6], [4, 7], [4, 7], [3, 6]], "white_lines": [4, 7]}
    edition = candidate({"track": track, "face_up": {str(p): 6 for p in range(2, 9)}})
    assert edition.track.length == 9 and edition.track.white_lines == (4, 7)
    assert edition.face_up[4] == 6
    assert edition.cards == shipped.cards and edition.bordered == shipped.bordered


def test_a_broken_candidate_track_is_refused_by_name():
    with pytest.raises(ValueError, match="white_lines"):
        candidate({"track": {"lanes": 4, "length": 9, "stars": [[], [], [], []], "white_lines": [9]}})


def test_the_shipped_edition_swings_as_issue_12_asks():
    figures = try_edition(default_content(), 600, players=4, seed=3)
    assert figures["races"] >= 600
    assert figures["flips_p99"] <= 30  # one white line: a race lasts at most two 15-card decks
    assert figures["lead_changes"] > 1.5 and figures["short_races"] < 0.15
    assert abs(sum(figures["mascot_wins"].values()) + figures["no_winner"] - 1) < 0.01


def test_the_command_prints_one_json_line_per_candidate(tmp_path, capsys):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"bordered": ["gobbler +3", "hurley +3", "dangle +3", "mum +3"]}))
    assert main(["--races", "60", str(path)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["candidate"] == str(path)
