"""Ratings from final places (bot/ratings.py), against the library's documented example and values worked
by hand from Weng and Lin's Plackett-Luce update (the formulas below, written out one step at a time)."""

from __future__ import annotations

import math

import pytest

from bot import ratings
from bot.ratings import AI_SKILL, BETA, MU, NEWCOMER, SIGMA, TAU, Finish, Skill, rate


def hand_worked(players: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """Weng and Lin (2011), Algorithm 4 (Plackett-Luce), with openskill's additive dynamics (tau) and
    ties shared (A_q: how many finished at q's place), for one seat per side."""
    sigma2 = [s * s + TAU * TAU for _mu, s in players]
    c = math.sqrt(sum(s2 + BETA * BETA for s2 in sigma2))
    strength = [math.exp(mu / c) for mu, _s in players]
    ties = [places.count(p) for p in places]
    # sum over everyone who finished at q's place or below it
    below = [
        sum(strength[i] for i in range(len(players)) if places[i] >= places[q]) for q in range(len(players))
    ]
    out = []
    for i, (mu, _s) in enumerate(players):
        omega = delta = 0.0
        for q in range(len(players)):
            if places[q] > places[i]:
                continue
            share = strength[i] / below[q]
            omega += ((1 if q == i else 0) - share) / ties[q]
            delta += (math.sqrt(sigma2[i]) / c) * sigma2[i] / c**2 * share * (1 - share) / ties[q]
        out.append((mu + sigma2[i] / c * omega, math.sqrt(sigma2[i] * max(1 - delta, 0.0001))))
    return out


def test_the_librarys_documented_example_two_against_two() -> None:
    """openskill's README: four newcomers, [a, b] beat [x, y] -> a is 26.964..., 8.1779...; x 23.035..."""
    r = ratings.MODEL.rating
    [[a, _b], [x, _y]] = ratings.MODEL.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == pytest.approx((26.964294621803063, 8.177962604389991))
    assert (x.mu, x.sigma) == pytest.approx((23.035705378196937, 8.177962604389991))


def test_two_newcomers_the_winner_gains_what_the_loser_loses() -> None:
    after = rate([Finish("ana", 1), Finish("bia", 2)], {})
    (won_mu, won_sigma), (lost_mu, lost_sigma) = hand_worked([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    # sigma^2 + tau^2 = 69.4514, c = sqrt(2 x 69.4514 + 2 beta^2) = 13.1767; the odds were even, so mu
    # moves by (sigma^2 + tau^2) / c x 1/2 = 2.6354 either way.
    assert won_mu == pytest.approx(27.6354, abs=1e-4) and lost_mu == pytest.approx(22.3646, abs=1e-4)
    assert (after["ana"].mu, after["ana"].sigma) == pytest.approx((won_mu, won_sigma))
    assert (after["bia"].mu, after["bia"].sigma) == pytest.approx((lost_mu, lost_sigma))
    assert after["ana"].games == after["bia"].games == 1
    assert won_sigma == lost_sigma < SIGMA  # one game made both surer


def test_four_seats_with_a_tie_and_two_ai_seats() -> None:
    """Ana wins, Bia and the normal AI tie for second, the easy AI is last: the AIs play at their
    fixed skills and get nothing back; Bia's tie shares second place."""
    ana, bia = Skill(28.0, 5.0, 3), Skill(22.0, 6.0, 2)
    after = rate(
        [Finish("ana", 1), Finish(None, 2, "normal"), Finish("bia", 2), Finish(None, 4, "easy")],
        {"ana": ana, "bia": bia},
    )
    worked = hand_worked(
        [(ana.mu, ana.sigma), (bia.mu, bia.sigma), AI_SKILL["normal"], AI_SKILL["easy"]], [1, 2, 2, 4]
    )
    assert set(after) == {"ana", "bia"}
    assert (after["ana"].mu, after["ana"].sigma) == pytest.approx(worked[0])
    assert (after["bia"].mu, after["bia"].sigma) == pytest.approx(worked[1])
    assert (after["ana"].games, after["bia"].games) == (4, 3)
    # Ana beat three; Bia, expected about level with the normal AI, tied it and lost a little to Ana.
    assert after["ana"].mu == pytest.approx(29.3972, abs=1e-4)
    assert after["bia"].mu == pytest.approx(21.9431, abs=1e-4)
    assert after["ana"].shown == ratings.shown(worked[0][0], worked[0][1])


def test_a_tie_between_people_moves_them_alike() -> None:
    after = rate([Finish("ana", 1), Finish("bia", 1), Finish("cai", 3)], {})
    assert after["ana"] == after["bia"] and after["ana"].mu > MU > after["cai"].mu


def test_a_person_alone_with_ai_seats_is_not_rated() -> None:
    assert rate([Finish("ana", 1), Finish(None, 2, "normal"), Finish(None, 3, "easy")], {}) == {}


def test_a_newcomer_shows_1500_and_the_number_is_the_conservative_estimate() -> None:
    assert NEWCOMER.shown == 1500
    assert Skill(25.0, 2.0).shown == 1500 + 30 * 19
    assert Skill(30.0, 1.0, 40).shown == 2310
