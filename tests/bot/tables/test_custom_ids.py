"""Every custom_id is built and read in one place; reading never fails, whatever the text."""

from __future__ import annotations

import json
import random
import string

import pytest

from bot.tables import custom_ids as ids
from bot.tables.custom_ids import Ask, BoardPage, Decide, Hand, Lobby, MenuPage, Unreadable


def test_a_decision_button_names_its_choice_by_index_not_by_value() -> None:
    built = ids.decision(12, 3, 4, "bet", 7)
    assert built == "g:12:d:3:4:bet:i7"
    assert ids.parse(built) == Decide(12, 3, 4, "bet", index=7)


def test_every_id_the_bot_builds_reads_back_as_what_it_says() -> None:
    assert ids.parse(ids.menu(5, 1, 2, "submit"), ["i3"]) == Decide(5, 1, 2, "submit", index=3)
    assert ids.parse(ids.menu_page(5, 1, 2, "submit", 1)) == MenuPage(5, 1, 2, "submit", 1)
    assert ids.parse(ids.hand(5)) == Hand(5)
    assert ids.parse(ids.ask(5, "odds")) == Ask(5, "odds")
    for op in ids.LOBBY_OPS:
        assert ids.parse(ids.lobby(5, op)) == Lobby(5, op)
    assert ids.parse(ids.kick(5), ["2"]) == Lobby(5, "kick", 2)
    assert ids.parse(ids.board_page("all", "week", 3)) == BoardPage("all", "week", 3)


def test_ids_stay_under_discords_100_characters() -> None:
    longest_kind = "k" * 31
    assert len(ids.decision(2**63, 14, 10**6, longest_kind, 10**4)) <= 100
    assert len(ids.menu_page(2**63, 14, 10**6, longest_kind, 10**3)) <= 100


def test_a_menu_answered_with_nothing_is_a_decision_without_a_choice() -> None:
    assert ids.parse(ids.menu(5, 1, 2, "submit"), []) == Decide(5, 1, 2, "submit")
    assert ids.parse(ids.menu(5, 1, 2, "submit"), None) == Decide(5, 1, 2, "submit")


@pytest.mark.parametrize(
    ("custom_id", "values", "expected"),
    [
        (
            'g:9:d:0:2:bet:"ticket:gobbler:safe"',
            None,
            Decide(9, 0, 2, "bet", choice="ticket:gobbler:safe", legacy=True),
        ),
        ('g:9:d:1:0:roll:"roll"', None, Decide(9, 1, 0, "roll", choice="roll", legacy=True)),
        (
            "gs:9:1:1:submit",
            ['["+3 gobbler","all +1"]'],
            Decide(9, 1, 1, "submit", choice=["+3 gobbler", "all +1"], legacy=True),
        ),
        ("gs:9:1:4:double", ["0"], Decide(9, 1, 4, "double", choice=0, legacy=True)),
        ("g:9:lobby:join", None, Lobby(9, "join")),
        ("gs:9:lobby:kick", ["1"], Lobby(9, "kick", 1)),
        ("g:0:page:lb:hotstreak:month:2", None, BoardPage("hotstreak", "month", 2)),
    ],
)
def test_ids_posted_before_this_module_are_still_read(
    custom_id: str, values: list[str] | None, expected: object
) -> None:
    assert ids.parse(custom_id, values) == expected


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "hello",
        "g:",
        "g:x:hand",
        "g:1:lobby:explode",
        "g:1:d:0:0:bet:not json",
        "g:1:d:-1:0:bet:i0",
        "g:1:d:0:0:BET:i0",
        "g:01:hand",
        "g:0:page:lb:all:week:-1",
        "g:0:page:lb:all:week:x",
        "g:0:page:lb:all:week:99999999999999999999",
        "g:0:page:lb:all:week:",
        "g:0:page:lb:all:1",
        "g:0:page:lb",
        "gs:1:2:3",
        "g:1:m:0:0:submit:pz",
        "x" * 101,
        "g:1:d:0:0:bet:i" + "9" * 30,
    ],
)
def test_anything_else_is_unreadable_never_an_error(custom_id: str) -> None:
    assert ids.parse(custom_id) == Unreadable()


def test_a_menu_value_that_is_neither_an_index_nor_json_is_unreadable() -> None:
    assert ids.parse("gs:1:0:0:submit", ["{broken"]) == Unreadable()


def test_parsing_is_total_on_random_text() -> None:
    rnd = random.Random(8)
    alphabet = string.ascii_letters + string.digits + ':"[]{},-_ '
    for _ in range(3000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60)))
        prefix = rnd.choice(["", "g:1:", "gs:1:", "g:1:d:0:0:bet:", "g:0:page:lb:"])
        values = rnd.choice([None, [], [text], ["i" + text]])
        parsed = ids.parse(prefix + text, values)
        assert parsed is not None
    assert ids.parse(None) == Unreadable() and ids.parse(42) == Unreadable()


def test_no_json_value_reads_as_a_menu_index() -> None:
    for value in (0, 12, "i3", ["i3"], {"i": 1}, None, True):
        assert not json.dumps(value).startswith("i")


def test_a_game_s_token_rides_in_every_id_that_names_it_and_reads_back() -> None:
    token = ids.new_token()
    assert len(token) == ids.TOKEN_LENGTH and token.isalnum() and token == token.lower()
    assert ids.new_token() != token  # 36**8 of them
    assert ids.decision(12, 3, 4, "bet", 7, token=token) == f"g:12.{token}:d:3:4:bet:i7"
    assert ids.parse(ids.decision(12, 3, 4, "bet", 7, token=token)) == Decide(12, 3, 4, "bet", 7, token=token)
    assert ids.parse(ids.menu(5, 1, 2, "submit", token=token), ["i3"]) == Decide(
        5, 1, 2, "submit", 3, token=token
    )
    assert ids.parse(ids.menu_page(5, 1, 2, "submit", 1, token=token)) == MenuPage(
        5, 1, 2, "submit", 1, token
    )
    assert ids.parse(ids.hand(5, token=token)) == Hand(5, token)
    assert ids.parse(ids.ask(5, "odds", token=token)) == Ask(5, "odds", token)
    for op in ids.LOBBY_OPS:
        assert ids.parse(ids.lobby(5, op, token=token)) == Lobby(5, op, token=token)
    assert ids.parse(ids.kick(5, token=token), ["2"]) == Lobby(5, "kick", 2, token)
    # An id from before tokens reads with none; a token of the wrong shape is no id of ours.
    assert ids.parse("g:5:lobby:join") == Lobby(5, "join")
    for bad in ("g:5.ABCDEFGH:lobby:join", "g:5.abc:hand", "g:5.abcdefghi:hand", "g:5.:hand"):
        assert ids.parse(bad) == Unreadable(), bad


def test_every_id_the_games_make_stays_under_discords_100_characters() -> None:
    """Each form at the widest its parser reads (a 20-digit game, a token, a 31-letter kind or topic,
    the widest seat, step, index and page the games reach and more), so whatever decision, menu,
    question or lobby the three games show, its id fits; and every kind they name fits the parser."""
    game, token, kind = 10**20 - 1, "z" * ids.TOKEN_LENGTH, "k" * 31
    seat, n, index, page = 99, 10**7 - 1, 10**5 - 1, 10**4 - 1
    built = [
        ids.decision(game, seat, n, kind, index, token=token),
        ids.menu(game, seat, n, kind, token=token),
        ids.menu_page(game, seat, n, kind, page, token=token),
        ids.hand(game, token=token),
        ids.ask(game, kind, token=token),
        *(ids.lobby(game, op, token=token) for op in ids.LOBBY_OPS),
        ids.kick(game, token=token),
        ids.board_page("k" * 30, "month", 999_999),
        ids.privacy("erase", 2**64 - 1),
    ]
    assert max(len(i) for i in built) <= 100 and all(
        not isinstance(ids.parse(i), Unreadable) for i in built[:-1]
    )
    from bot.games.catalog import CATALOG

    named = {kind for entry in CATALOG.values() for kind in entry.private}
    named |= {
        "bet",
        "defensive",
        "flip",
        "ignore",
        "play",
        "submit",
        "wild",
        "roll",
        "double",
        "odds",
        "cards",
    }
    for each in sorted(named):
        assert ids.parse(ids.decision(game, seat, n, each, index, token=token)) != Unreadable(), each
