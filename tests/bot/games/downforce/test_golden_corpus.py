"""The golden corpus (``golden/``, written before issue 27's rule fixes) still holds: every shipped
track's seeded scenarios give the same options, moves and animal positions, except the scenarios
listed in ``golden/changes.json``, each explained by exactly one of the issue's three rules (see
``golden/EXPLAINED.md``)."""

from __future__ import annotations

import json

import pytest

from bot.games.downforce.content import TRACKS

from .golden_corpus import HERE, RULES, only, run

CHANGES = json.loads((HERE / "changes.json").read_text())


def entries(track: str) -> list[dict]:
    return json.loads((HERE / f"{track}.json").read_text())


@pytest.mark.parametrize("track", TRACKS)
def test_today_the_corpus_is_unchanged_but_for_the_explained_differences(track):
    changed = CHANGES[track]
    for entry in entries(track):
        expected = changed.get(str(entry["seed"]), {}).get("result", entry["result"])
        assert run(entry["scenario"], 2) == expected, f"{track} seed {entry['seed']}"


@pytest.mark.parametrize("track", TRACKS)
def test_under_rules_1_the_corpus_is_unchanged(track):
    for entry in entries(track):
        assert run(entry["scenario"], 1) == entry["result"], f"{track} seed {entry['seed']}"


def test_each_difference_comes_from_one_rule_alone():
    for track, changed in CHANGES.items():
        old = {str(e["seed"]): e for e in entries(track)}
        for seed, change in changed.items():
            assert change["rule"] in RULES, f"{track} seed {seed}: {change['rule']}"
            with only(change["rule"]):
                assert run(old[seed]["scenario"], 1) == change["result"], f"{track} seed {seed}"
            with only(None):
                assert run(old[seed]["scenario"], 1) == old[seed]["result"]


def test_the_differences_per_track():
    counts = {track: len(changed) for track, changed in CHANGES.items()}
    assert counts == {
        "river-station": 0,
        "marina-bay": 0,
        "crosstown-speedway": 0,
        "switchback-pass": 103,
        "aloha-sands": 0,
        "savanna-stretch": 1,
    }
