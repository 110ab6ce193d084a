"""A race's results embed tells each mascot's place the way the payouts pay it.

Built from a real race on the test mat and the engine's own settlement, handed to the real
presenter; the embed is the discord.py object the bot sends.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games.catalog import entry
from bot.games.hotstreak.betting import settle
from bot.games.hotstreak.content import default_content
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.render import alt_text
from bot.games.hotstreak.replay import replay_alt_text
from bot.i18n import speaking
from bot.tables.view import Sitter, TableView
from cogs.hotstreak.present import HotStreakPresenter
from cogs.hotstreak.words import emoji
from tests.bot.games.hotstreak.conftest import play_out
from tests.bot.games.hotstreak.test_narration import _shared_third
from tests.bot.games.hotstreak.test_render import race_view


def _view(state: dict[str, Any]) -> TableView:
    alice = Sitter("alice", "alice", "<@1>", False, 1)
    return TableView(
        game_id=1, audience=None, seq=0, pace=0.0, deadline=None, settled=False, settings={},
        seats=(alice,), acted=(), waiting=(), deciders=(), decisions=(), read_state=lambda: state,
    )  # fmt: skip


def _bet(mascot: str, risk: str, values: list[int]) -> dict[str, Any]:
    label = f"{mascot.title()}, {risk}"
    option = f"ticket:{mascot}:{risk}"
    return {"label": label, "option": option, "kind": "ticket", "risk": risk, "values": values,
            "doubled": False, "mascot": mascot}  # fmt: skip


def _info() -> dict[str, Any]:
    return {m: {"name": i["name"], "colour": i["colour"]} for m, i in default_content().mascots.items()}


def _results_places(over: dict[str, Any]) -> str:
    """The podium lines of the results embed as plain words: no emoji, no bold or italics."""
    view = _view({"mascot_info": _info()})
    embed = HotStreakPresenter(entry("hotstreak"))._results_embed(view, over, {"seats": []})
    lines = embed.description.splitlines()[:-1]  # (the last line is the side bet)
    plain = []
    for line in lines:
        for mascot in _info():
            line = line.replace(f"{emoji(mascot)} ", "")
        plain.append(line.replace("*", ""))
    return ", ".join(plain)


def test_mascots_put_out_together_are_one_shared_place_in_results_and_payouts() -> None:
    race, _lines = _shared_third()
    side_bet = {"id": "x", "text": "Gobbler wins", "condition": {"kind": "winner", "mascot": "gobbler"}}
    bets = [_bet("dangle", "safe", [3, 2, 1]), _bet("mum", "risky", [5, 2, 1])]
    payout = settle(0, bets, race, side_bet, 10)
    over = _race_over(race)
    info = {m: {"name": i["name"]} for m, i in default_content().mascots.items()}
    presenter = HotStreakPresenter(entry("hotstreak"))
    embed = presenter._results_embed(_view({"mascot_info": info}), over, {"seats": [payout]})
    podium = embed.description.splitlines()[:3]
    assert podium[0].startswith("1st") and "Gobbler" in podium[0]
    assert podium[1].startswith("3rd") and "Dangle" in podium[1] and "Mum" in podium[1]
    assert podium[1].endswith("*(disqualified together)*")
    assert podium[2].startswith("4th") and "Hurley" in podium[2] and podium[2].endswith("*(disqualified)*")
    assert "2nd" not in embed.description
    lines = embed.fields[0].value.splitlines()
    assert "Dangle safe → 3rd: +$1" in lines[0] and "Mum risky → 3rd: +$1" in lines[1]


def _race_over(race: Any) -> dict[str, Any]:
    """The race's ``race_over`` data, as the engine sends it (the side bet on Gobbler came true)."""
    return {
        "race": 1,
        "podium": list(race.podium.slots),
        "places": dict(race.podium.paid),
        "status": {m: r.status for m, r in race.runners.items()},
        "side_bet": {"id": "x", "text": "Gobbler wins", "happened": True},
    }


def _shared_third_over() -> tuple[dict[str, Any], dict[str, Any]]:
    """The last frame of the race where Dangle and Mum are put out together, and its results."""
    race, _lines = _shared_third()
    frame = race_view(
        mascots=race.mascots_view(),
        podium=list(race.podium.slots),
        mascot_info=_info(),
        last_card="hurley -1",
    )
    over = _race_over(race)
    return frame, over


def test_the_race_pictures_alt_text_tells_the_shared_and_disqualified_places_as_the_results_do() -> None:
    # Rules: mascots put out together share the lower place; no one is 2nd. The screen reader hears
    # the podium the results embed shows, not the podium's steps one by one.
    frame, over = _shared_third_over()
    places = "1st Gobbler, 3rd Dangle and Mum (disqualified together), 4th Hurley (disqualified)"
    assert _results_places(over) == places
    text = alt_text(frame)
    assert f"Podium: {places}." in text
    assert "2nd" not in text
    assert "Dangle: disqualified, placed 3rd" in text and "Mum: disqualified, placed 3rd" in text
    assert f"Result: {places}." in replay_alt_text([frame])


def test_the_alt_text_says_the_shared_places_in_portuguese_as_the_results_do() -> None:
    frame, over = _shared_third_over()
    with speaking("pt-BR"):
        places = _results_places(over)
        text = alt_text(frame)
        replay = replay_alt_text([frame])
    assert places == "1º Gobbler, 3º Dangle e Mum (desclassificados juntos), 4º Hurley (desclassificado)"
    assert f"Pódio: {places}." in text and f"Resultado: {places}." in replay


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_every_races_last_picture_tells_the_places_the_results_tell(language: str) -> None:
    """Real games: the frame of a race's last card (or fold) carries the paid places, so its alt text
    and the replay's say the podium word for word as the results embed, shared places and all."""
    shared = 0
    for seed in range(12):
        game = HotStreak.new(3, seed=seed)
        events = game.opening_events() + play_out(game, random.Random(seed))
        frames: list[dict[str, Any]] = []
        for event in events:
            if event.kind in ("card_flipped", "bar_folded"):
                frames.append(event.data["frame"])
            if event.kind != "race_over":
                continue
            over = event.data
            with speaking(language):
                places = _results_places(over)
                assert places in alt_text(frames[-1]), (seed, over["race"])
                assert places in replay_alt_text(frames), (seed, over["race"])
            shared += len(set(over["places"].values())) < len(over["places"])
            frames = []
    assert shared >= 3  # the games did put mascots out together
