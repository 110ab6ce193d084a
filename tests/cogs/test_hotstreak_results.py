"""A race's results embed tells each mascot's place the way the payouts pay it.

Built from a real race on the test mat and the engine's own settlement, handed to the real
presenter; the embed is the discord.py object the bot sends.
"""

from __future__ import annotations

from typing import Any

from bot.games.catalog import entry
from bot.games.hotstreak.betting import settle
from bot.games.hotstreak.content import default_content
from bot.tables.view import Sitter, TableView
from cogs.hotstreak.present import HotStreakPresenter
from tests.bot.games.hotstreak.test_narration import _shared_third


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


def test_mascots_put_out_together_are_one_shared_place_in_results_and_payouts() -> None:
    race, _lines = _shared_third()
    side_bet = {"id": "x", "text": "Gobbler wins", "condition": {"kind": "winner", "mascot": "gobbler"}}
    bets = [_bet("dangle", "safe", [3, 2, 1]), _bet("mum", "risky", [5, 2, 1])]
    payout = settle(0, bets, race, side_bet, 10)
    over = {
        "race": 1,
        "podium": list(race.podium.slots),
        "places": dict(race.podium.paid),
        "status": {m: r.status for m, r in race.runners.items()},
        "side_bet": {"id": "x", "text": "Gobbler wins", "happened": True},
    }
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
