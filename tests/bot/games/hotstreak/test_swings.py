"""How a race swings: the lead-change, settled-winner, short-race and dead-flip figures of issue 12."""

from __future__ import annotations

from bot.games.hotstreak.cards import parse_card
from bot.games.hotstreak.race import Race
from bot.games.hotstreak.swings import RaceSwings, RaceWatch, Swings, sole_leader
from bot.games.hotstreak.track import Track

TRACK = Track(lanes=4, length=9, stars=((3, 6), (4, 7), (4, 7), (3, 6)), white_lines=(4, 7))


def watch_cards(cards: list[str], track: Track = TRACK) -> tuple[Race, RaceWatch]:
    race = Race.start(track)
    watch = RaceWatch(race.mascots_view(), race.bar)
    for card in cards:
        race.resolve(parse_card(card))
        watch.step(race.mascots_view(), race.bar, flip=True)
    return race, watch


def test_the_mascot_furthest_along_leads_alone_and_a_tie_has_no_leader():
    race, _ = watch_cards(["gobbler +3", "hurley +2"])
    assert sole_leader(race.mascots_view()) == "gobbler"
    race, _ = watch_cards(["gobbler +3", "hurley +3"])
    assert sole_leader(race.mascots_view()) is None


def test_a_finished_mascot_leads_runners_ahead_of_it_on_the_track_and_out_mascots_do_not_count():
    race, _ = watch_cards(["gobbler +5", "gobbler +5", "hurley +5", "hurley +3"])
    assert race.place_of("gobbler") == 1
    assert sole_leader(race.mascots_view()) == "gobbler"
    race, _ = watch_cards(["gobbler +3", "gobbler turn", "gobbler +5", "hurley +1"])
    assert race.runners["gobbler"].status == "out"
    assert sole_leader(race.mascots_view()) == "hurley"


def test_the_first_leader_is_not_a_change_but_every_new_sole_leader_is():
    _, watch = watch_cards(["gobbler +2", "hurley +3", "dangle +4", "gobbler +5"])
    assert watch.finish().lead_changes == 3


def test_a_tie_between_two_turns_in_front_by_the_same_mascot_is_no_change():
    _, watch = watch_cards(["gobbler +2", "hurley +2", "gobbler +1"])
    assert watch.finish().lead_changes == 0
    _, watch = watch_cards(["gobbler +2", "hurley +2", "hurley +1"])
    assert watch.finish().lead_changes == 1


def test_the_winner_is_settled_when_first_place_is_given():
    race, watch = watch_cards(["gobbler +5", "hurley +2", "gobbler +5", "hurley +5", "dangle +3"])
    assert race.place_of("gobbler") == 1
    figures = watch.finish()
    assert figures.settled_at == 3 and figures.flips == 5 and figures.flips_after_winner == 2


def test_a_flip_that_changes_nothing_on_the_mat_is_dead():
    # A star with no star ahead, then a card for a mascot that is already out.
    _, watch = watch_cards(["gobbler +5", "gobbler +2", "gobbler star", "hurley -1", "hurley +3"])
    assert watch.finish().dead_flips == 2


def test_a_fold_is_a_step_but_not_a_flip():
    race, watch = watch_cards(["gobbler +5"])
    race.fold()
    watch.step(race.mascots_view(), race.bar, flip=False)
    figures = watch.finish()
    assert figures.flips == 1 and figures.dead_flips == 0


def test_figures_over_many_races_merge_and_give_shares():
    one, two = Swings(), Swings()
    one.add(RaceSwings(flips=10, lead_changes=2, settled_at=6, dead_flips=1))
    one.add(RaceSwings(flips=20, lead_changes=1, settled_at=20, dead_flips=3))
    two.add(RaceSwings(flips=30, lead_changes=3, settled_at=15, dead_flips=2))
    one.merge(two)
    figures = one.summary()
    assert figures["lead_changes"] == 2.0
    assert figures["races_with_two_lead_changes"] == round(2 / 3, 4)
    assert figures["flips_after_winner"] == round(19 / 60, 4)
    assert figures["short_races"] == round(1 / 3, 4)
    assert figures["dead_flips"] == 0.1
    assert one.percentile(0.5) == 20 and one.percentile(0.99) == 30
