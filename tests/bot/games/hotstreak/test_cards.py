"""Card notation: every card prints back to the text it was parsed from; bad text is refused."""

from __future__ import annotations

import pytest

from bot.games.hotstreak.cards import Card, CardError, parse_card
from bot.games.hotstreak.content import load_content


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("gobbler +3", Card("number", "gobbler", 3)),
        ("mum -1", Card("number", "mum", -1)),
        ("hurley star", Card("star", "hurley")),
        ("dangle fall", Card("fall", "dangle")),
        ("mum turn", Card("turn", "mum")),
        ("gobbler swerve-left 2", Card("swerve-left", "gobbler", 2)),
        ("gobbler swerve-right 1", Card("swerve-right", "gobbler", 1)),
        ("hurley recover 2", Card("recover", "hurley", 2)),
        ("all +2", Card("all", None, 2)),
    ],
)
def test_notation_parses_and_prints_back(text, card):
    assert parse_card(text) == card
    assert card.notation == text


@pytest.mark.parametrize(
    "text", ["", "bob +1", "gobbler 3", "gobbler +0", "all star", "mum swerve-left", "mum star 2", "dry", 7]
)
def test_bad_notation_is_a_card_error(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_every_shipped_card_round_trips():
    content = load_content()
    for text in content.bordered + content.cards:
        assert parse_card(text).notation == text
