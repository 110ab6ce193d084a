"""What a Hot Streak race gives the channel, step by step, from the real engine through the real
presenter: one picture per step that changes the track (a fold and the card flipped with it are one),
and a picture keeps its block for the race's replay unless the picture worker is catching up on a burst."""

from __future__ import annotations

import contextlib
from typing import Any

from bot import workers
from bot.games.base import Action, Event
from bot.games.catalog import entry
from bot.games.hotstreak.game import HotStreak
from bot.games.hotstreak.narration import changes_track
from bot.tables.presenter import Outgoing
from bot.tables.view import Sitter, TableView
from cogs.hotstreak.present import HotStreakPresenter


def _view(game: HotStreak) -> TableView:
    seats = tuple(Sitter(f"p{i}", f"p{i}", f"<@{i}>", False, i) for i in range(1, 5))
    return TableView(
        game_id=1, audience=None, seq=0, pace=0.0, deadline=None, settled=False, settings={},
        seats=seats, acted=(), waiting=(), deciders=(), decisions=(), read_state=lambda: game.view(None),
    )  # fmt: skip


async def _race_steps(seed: int) -> list[tuple[list[Event], list[Outgoing]]]:
    """Each step of a game's first race that flipped a card or folded the bar: its frame events, and
    what the presenter gave to send for it."""
    game = HotStreak.new(4, seed)
    presenter = HotStreakPresenter(entry("hotstreak"))
    steps: list[tuple[list[Event], list[Outgoing]]] = []
    while True:
        decision = game.pending()[0]
        events = game.apply(Action(decision.player, decision.kind, decision.options[0]))
        said = await presenter.announce(_view(game), events)
        shown = [e for e in events if e.kind in ("card_flipped", "bar_folded")]
        if shown:
            steps.append((shown, said))
        if any(e.kind == "race_over" for e in events):
            break
    return steps


def _pictures(said: list[Outgoing]) -> list[Outgoing]:
    """The pictures of cards and folds (a race's opening picture, posted with its first card, aside)."""
    return [
        out
        for out in said
        if out.render is not None
        and (out.content or "").splitlines()[-1].startswith(("**Card", "**Deck dry"))
    ]


async def test_a_fold_and_the_card_flipped_with_it_are_one_picture_under_both_lines() -> None:
    folds = 0
    for seed in range(1, 6):
        for events, said in await _race_steps(seed):
            kinds = [e.kind for e in events]
            pictures = _pictures(said)
            assert len(pictures) <= 1, kinds  # never a picture edited away in the same moment
            if kinds[:1] == ["bar_folded"] and "card_flipped" in kinds:
                folds += 1
                (picture,) = pictures  # the track changed: the fold did
                lines = (picture.content or "").splitlines()
                card = next(e for e in events if e.kind == "card_flipped")
                if changes_track(card):  # one picture, of the card, under both lines
                    assert "**Deck dry**" in lines[-2] and "**Card" in lines[-1]
                else:  # the fold's picture; the card that changed nothing is a line after it
                    assert "**Deck dry**" in lines[-1]
                    assert any(o.race_line and "**Card" in (o.content or "").splitlines()[-1] for o in said)
    assert folds  # the decks of these races ran dry mid-race


async def test_a_picture_keeps_its_replay_block_unless_the_picture_worker_is_catching_up_on_a_burst() -> None:
    (_events, said), *_ = [step for step in await _race_steps(1) if _pictures(step[1])]
    (picture,) = _pictures(said)
    assert picture.ready is not None

    async def race_kept(out: Outgoing) -> Any:
        ready = await out.ready(out)  # type: ignore[misc]  # its odds, worked out as it is drawn
        render = ready.render
        render = getattr(render, "work", render)  # (in the reader's language)
        return render.args[0]  # type: ignore[union-attr]  # live_picture(race, frame, ...)

    workers.drawn_share = 1.0  # lately every picture was drawn
    assert await race_kept(picture) is not None  # kept: the replay is assembled from it
    with contextlib.ExitStack() as behind:
        for _ in range(workers.KEEP_QUEUE):
            behind.enter_context(workers.held_back())  # pictures waiting for a drawing slot
        assert workers.catching_up()  # a burst, on a bot that draws most of its cards
        assert await race_kept(picture) is None  # the picture first; the replay draws this frame
        try:
            for _ in range(2048):
                workers.note_picture(drawn=False)  # a bot past what its cores draw
            assert not workers.catching_up()
            assert await race_kept(picture) is not None  # keeps every block for the replays
        finally:
            workers.drawn_share = 1.0
