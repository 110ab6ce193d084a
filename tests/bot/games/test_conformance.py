"""Every catalogued game through the shared surface, the same checks for each (after OpenSpiel's
conformance tests). A new game joins by its catalog line; nothing here names a game.

* Random legal play reaches the end from many seeds, with results for every seat.
* A JSON round trip after every action gives the same state, which plays on identically.
* Replaying the action log from the seed rebuilds the same state.
* Views hide what they must: when a seat's choice left no public trace in the events (a secret
  pick), no other seat's view and not the public view may tell which option it was.
* The table hands a presenter only what its audience may see: public events to ``announce``,
  one seat's own events to ``tell`` for that seat, and what ``tell`` returns goes to that seat only.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.games import base
from bot.games.base import Action, Decision, Event, Game, IllegalAction, SeatResult, Stake
from bot.games.catalog import ENTRIES, Entry, Start
from bot.tables.presenter import Outgoing, Presenter
from bot.tables.seats import Seat
from bot.tables.table import Table
from bot.tables.view import TableView
from tests.bot.tables.quiet_host import QuietHost, RecordingPlace

SEEDS = range(16)
MAX_STEPS = 20_000


def new_game(entry: Entry, seed: int) -> tuple[Game, dict[str, Any], int]:
    rnd = random.Random(f"seats:{entry.kind}:{seed}")
    seats = rnd.randint(entry.min_players, entry.max_players)
    lifetime = {seat: rnd.randint(-50, 50) for seat in range(seats) if rnd.random() < 0.7}
    settings = entry.engine_settings(Start(seats, seed, 0.0, {}, lifetime))
    return entry.new_engine(seats, seed, settings), settings, seats


def random_action(game: Game, rnd: random.Random) -> tuple[Action, Decision]:
    decision = rnd.choice(game.pending())
    return Action(decision.player, decision.kind, rnd.choice(decision.options)), decision


def round_trip(game: Game) -> Game:
    return type(game).from_json(json.loads(game.dumps()))


@pytest.fixture(params=ENTRIES, ids=[e.kind for e in ENTRIES])
def entry(request: pytest.FixtureRequest) -> Entry:
    return request.param


def test_the_catalog_entry_loads_everything_it_names(entry: Entry) -> None:
    assert entry.engine_class.kind == entry.kind
    assert 1 <= entry.min_players <= entry.max_players
    assert issubclass(entry.presenter_class(), Presenter)
    game, _, _ = new_game(entry, 0)
    decision = next(d for d in game.pending())
    assert entry.choose(game.view(decision.player), decision, "normal", random.Random(0)) in decision.options


@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_play_ends_and_every_state_survives_json_and_replay(entry: Entry, seed: int) -> None:
    rnd = random.Random(seed)
    game, settings, seats = new_game(entry, seed)
    for event in game.opening_events():
        assert isinstance(event, Event)
    log: list[Action] = []
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        action, _ = random_action(game, rnd)
        game.apply(action)
        log.append(action)
        copy = round_trip(game)
        assert copy.dumps() == game.dumps()
        assert copy.view(None) == game.view(None)
        game = copy  # play on from the copy: it must continue identically
    assert game.is_over, "random play did not reach the end"
    assert game.pending() == []

    replayed = entry.new_engine(seats, seed, settings)
    for action in log:
        replayed.apply(Action.from_json(json.loads(json.dumps(action.to_json()))))
    assert replayed.dumps() == game.dumps()

    results = game.results()
    assert sorted(r.seat for r in results) == list(range(seats))
    for result in results:
        assert isinstance(result, SeatResult) and isinstance(result.net, int)
        assert all(
            isinstance(s, Stake) and s.outcome in ("won", "lost") and s.amount >= 0 for s in result.stakes
        )
    assert any(r.won for r in results)


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_a_choice_that_left_no_public_trace_shows_in_no_other_view(entry: Entry, seed: int) -> None:
    rnd = random.Random(seed)
    game, _, seats = new_game(entry, seed)
    checked = 0
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        action, decision = random_action(game, rnd)
        others = [o for o in decision.options if o != action.choice]
        if decision.player is None or not others:
            game.apply(action)
            continue
        twin = game.copy()
        events = game.apply(action)
        twin_events = twin.apply(Action(action.player, action.kind, rnd.choice(others)))
        if public(events) != public(twin_events):
            continue  # the engine announced the choice: everyone may know it
        checked += 1
        for viewer in [None, *(s for s in range(seats) if s != decision.player)]:
            assert game.view(viewer) == twin.view(viewer), f"{decision.kind} shows in the view of {viewer}"
    if entry.private:
        assert checked, "no secret choice was checked"


def public(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.visible_to is None]


# --- the table and the presenter ------------------------------------------------------------


class Spy:
    """Wraps a presenter and records every event each of its methods was handed."""

    def __init__(self, inner: Presenter) -> None:
        self.inner = inner
        self.announced: list[Event] = []
        self.told: list[tuple[int, Event]] = []
        self.told_out: list[tuple[int, Outgoing]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def announce(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        assert view.audience is None  # the channel's view for the channel's messages
        self.announced += events
        return await self.inner.announce(view, events)

    def tell(self, view: TableView, events: list[Event]) -> list[Outgoing]:
        assert view.audience is not None  # one seat's view for that seat's DM
        self.told += [(view.audience, e) for e in events]
        out = self.inner.tell(view, events)
        self.told_out += [(view.audience, o) for o in out]
        return out

    def private_prompt(self, view: TableView, decision: Decision) -> Outgoing:
        assert view.audience == decision.player  # a secret prompt is built from its decider's view
        out = self.inner.private_prompt(view, decision)
        self.told_out.append((view.audience, out))
        return out


@pytest.mark.parametrize("seed", range(3))
async def test_a_presenter_is_handed_only_what_its_audience_may_see(entry: Entry, seed: int) -> None:
    rnd = random.Random(seed)
    game, settings, seats = new_game(entry, seed)
    spy = Spy(entry.presenter_class()(entry))
    host = QuietHost()
    place = RecordingPlace(host)
    table = Table(
        host,  # type: ignore[arg-type]
        entry,
        spy,  # type: ignore[arg-type]
        place,
        game_id=1,
        guild_id=1,
        host_id=1,
        seed=seed,
        seats=[Seat(name=f"P{i}", user_id=100 + i) for i in range(seats)],
        settings={"engine": settings},
    )
    table.start_engine([])
    assert table.engine is not None
    batches = [table.engine.opening_events()]
    # Play on, announcing every batch that holds a private event (and a few public ones).
    for step in range(MAX_STEPS):
        if table.engine.is_over or len(batches) > 12:
            break
        action, _ = random_action(table.engine, rnd)
        events = table.engine.apply(action)
        table.acted[action.player or 0] += action.player is not None
        if any(e.visible_to is not None for e in events) or step % 97 == 0:
            batches.append(events)
    for batch in batches:
        await table.publish(batch)
    assert all(e.visible_to is None for e in spy.announced)
    assert all(e.is_visible_to(seat) for seat, e in spy.told)
    private_events = [e for batch in batches for e in batch if e.visible_to is not None]
    assert len(spy.told) == sum(len(e.visible_to or ()) for e in private_events)

    def origin(out: Outgoing) -> tuple[str, int]:  # the table sends a copy with its buttons added
        return out.content, id(out.embed)

    told = {origin(o) for _, o in spy.told_out}
    for out in place.sent:
        if origin(out) in told:
            seat = next(s for s, o in spy.told_out if origin(o) == origin(out))
            assert out.seat == seat  # a seat's own news goes to that seat alone
        else:
            assert out.seat is None  # announcements go to the channel
    if table.engine.is_over:  # the table, not the presenter, maps the engine's results to stored rows
        rows = host.storage.results[1]
        assert [(r.seat, r.net, r.user_id) for r in rows] == [
            (r.seat, r.net, 100 + r.seat) for r in table.engine.results()
        ]


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_a_copy_is_the_same_game_and_shares_nothing_with_it(entry: Entry, seed: int) -> None:
    """The AI and the odds imagine futures on copies (``Game.copy``): the copy plays on exactly as the
    game would, and playing it leaves the game untouched."""
    rnd = random.Random(seed)
    game, _, _ = new_game(entry, seed)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        twin = game.copy()
        assert twin.dumps() == game.dumps()
        before = game.dumps()
        action, _ = random_action(twin, rnd)
        assert twin.apply(action) is not None
        assert game.dumps() == before  # the copy's move is not the game's
        game = twin


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_checking_an_action_changes_nothing_and_refuses_what_apply_would(entry: Entry, seed: int) -> None:
    """The table checks an action, stores it, then applies it with no copy in between (``check``,
    ``apply_checked``): a check, accepted or refused, leaves the game as it was."""
    rnd = random.Random(seed)
    game, _, _ = new_game(entry, seed)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        action, decision = random_action(game, rnd)
        before = game.dumps()
        with pytest.raises(IllegalAction):
            game.check(Action(action.player, action.kind, {"not": "an option"}))
        with pytest.raises(IllegalAction):
            game.check(Action(action.player, "no such decision", action.choice))
        assert game.check(action) == decision
        assert game.dumps() == before
        game.apply_checked(action, decision)
    with pytest.raises(IllegalAction):
        game.check(Action(None, "anything", None))


def test_stake_labels_stored_in_english_read_in_the_readers_language(entry: Entry) -> None:
    """``/stats`` shows a player's favourite bet: stored in English with the results, shown translated."""
    from bot.i18n import speaking
    from tests.english import english_in

    game, _settings, _seats = new_game(entry, 3)
    rnd = random.Random(3)
    while not game.is_over:
        game.apply(random_action(game, rnd)[0])
    labels = {stake.label for result in game.results() for stake in result.stakes}
    assert labels, "a whole game with no stake"
    assert {entry.stake_label(label) for label in labels} == labels  # English: as stored
    with speaking("pt-BR"):
        for label in labels:
            shown = entry.stake_label(label)
            assert english_in(shown, allowed=["Gobbler", "Hurley", "Dangle", "Mum"]) == [], (label, shown)


def _emptied(value: Any) -> None:
    """Every list and dict in ``value`` emptied, innermost first: what a careless reader could do."""
    children = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    for child in children:
        _emptied(child)
    if isinstance(value, list | dict):
        value.clear()


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_a_view_shares_nothing_with_the_game_and_a_changed_shared_part_is_caught(
    entry: Entry, seed: int
) -> None:
    """Views are copies (parts that did not change are shared between views, ``Game.kept_copy``): a
    reader emptying every list and dict of a view leaves the game as it was, and the next view either
    comes out whole or, where the reader changed a shared part, the tests' check says so."""
    rnd = random.Random(seed)
    game, _, seats = new_game(entry, seed)
    for step in range(MAX_STEPS):
        if game.is_over:
            break
        audience = None if step % 2 else step % seats
        whole, before = base.fresh(game.view(audience)), game.dumps()  # a snapshot, sharing nothing
        _emptied(game.view(audience))
        assert game.dumps() == before
        try:
            assert game.view(audience) == whole  # nothing it emptied was shared
        except RuntimeError as error:
            assert "a reader changed the shared copy" in str(error)
            base._kept.pop(game, None)  # the test's own doing: start the shared copies over
            assert game.view(audience) == whole
        game.apply(random_action(game, rnd)[0])


def test_an_unchanged_part_is_shared_by_views_and_a_changed_one_copied_again() -> None:
    game, _, _ = new_game(next(e for e in ENTRIES if e.kind == "hotstreak"), 3)
    first, second = game.view(None), game.view(0)
    assert first["history"] is second["history"] and first["mascot_info"] is second["mascot_info"]
    bets = first["bets"]
    while game.view(None)["bets"] == bets:  # the draft: someone takes a ticket
        game.apply(random_action(game, random.Random(0))[0])
    after = game.view(None)
    assert after["bets"] is not bets and after["bets"] == game.s["bets"]
    assert after["bets"] is not game.s["bets"]  # a copy, never the game's own
    assert "_kept" not in json.dumps(game.to_json()) and game.copy().dumps() == game.dumps()
