"""Ratings: how well a person plays a game, from the places of the games they finished (no Discord here).

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation): each person's skill
is a normal belief, ``mu`` (the estimate) and ``sigma`` (how unsure it is), updated after every game
from the final places, as a free-for-all of any number of seats where equal places are ties. What
people see is one conservative number, ``shown``: the skill they have with 99.7 % confidence
(``mu - 3 sigma``), scaled so a newcomer starts at 1,500 and one point of ``mu`` is worth 30 points.
Details and reasons: docs/ratings.md.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), written out so an upgrade of the
# library cannot move everyone's rating.
MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# Ruling, the scale: shown = 1,500 + 30 x (mu - 3 sigma). A newcomer (mu 25, sigma 25/3) shows 1,500.
# 30: between two settled players (sigma about 1.5), Plackett-Luce's odds of a win move by a factor
# of e for every sqrt(2 beta^2 + 2 sigma^2) = 6.2 points of mu, Elo's for every 174 points; 6.2 x 30 is
# 186, so a difference in shown ratings reads about as a difference of Elo ratings does.
START = 1500
POINTS_PER_MU = 30

# Ruling, AI seats: they take part at a fixed skill per level and are never rated themselves (their
# "new" ratings are thrown away). Sigma 2: an AI plays the same way every game, so its skill is
# known about as well as a settled player's. Normal sits at a newcomer's mu (an average player);
# easy a beta lower, so a newcomer-average person beats it about two times in three head to head.
AI_SKILL: dict[str, tuple[float, float]] = {"easy": (MU - BETA, 2.0), "normal": (MU, 2.0)}
DEFAULT_AI_LEVEL = "normal"  # an AI seat whose level is not known (unreadable stored seats)

# Ruling: a game is rated only when at least two people (not AI seats) finished it; a person alone
# against AIs learns nothing about the server's players.
MIN_PEOPLE = 2


@dataclass(frozen=True)
class Skill:
    """One person's rating at one game (or across games): the belief and the games it rests on."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


NEWCOMER = Skill()


def shown(mu: float, sigma: float) -> int:
    """The number people see: 1,500 + 30 x (mu - 3 sigma), rounded to a whole point."""
    return round(START + POINTS_PER_MU * (mu - 3 * sigma))


@dataclass(frozen=True)
class Finish:
    """One seat's end of a game: whose it is (None for an AI seat, with its level) and its place (1 best;
    equal places are ties)."""

    person: Hashable | None
    place: int
    ai_level: str | None = None


def rated_people(finishes: Sequence[Finish]) -> list[Hashable]:
    """The people a game rates, in seat order: everyone with a seat, if there are at least two, else nobody.

    A person with two seats (never happens at a table, but stored results could say so) is rated once,
    from their best place."""
    people = list(dict.fromkeys(f.person for f in finishes if f.person is not None))
    return people if len(people) >= MIN_PEOPLE else []


def rate(finishes: Sequence[Finish], skills: Mapping[Hashable, Skill]) -> dict[Hashable, Skill]:
    """The people's skills after a game that ended with ``finishes``, from their ``skills`` before it
    (a person missing from ``skills`` is a newcomer). Empty when the game rates nobody (fewer than two
    people). AI seats play at ``AI_SKILL`` for their level and get no skill back."""
    people = rated_people(finishes)
    if not people:
        return {}
    best: dict[Hashable, int] = {}
    for f in finishes:
        if f.person is not None:
            best[f.person] = min(f.place, best.get(f.person, f.place))
    teams = []
    ranks: list[float] = []
    for person in people:
        skill = skills.get(person, NEWCOMER)
        teams.append([MODEL.rating(mu=skill.mu, sigma=skill.sigma)])
        ranks.append(best[person])
    for f in finishes:
        if f.person is None:
            mu, sigma = AI_SKILL.get(f.ai_level or DEFAULT_AI_LEVEL, AI_SKILL[DEFAULT_AI_LEVEL])
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
            ranks.append(f.place)
    after = MODEL.rate(teams, ranks=ranks)
    return {
        person: Skill(team[0].mu, team[0].sigma, skills.get(person, NEWCOMER).games + 1)
        for person, team in zip(people, after, strict=False)
    }


# Ruling, the soft reset at each new season (bot/seasons.py): every rating keeps three quarters of its
# distance from a newcomer's, in mu and in sigma alike, and its count of games. As a newcomer shows
# exactly 1,500 (mu - 3 sigma = 0 at the start), the shown rating keeps exactly three quarters of its
# distance from 1,500 too: 2,220 becomes 2,040, 1,300 becomes 1,350. A quarter back gives the new
# season something to play for and lets a few games move a rating again (sigma grows back by a quarter
# of what it shed), while the order of the players stays as their games made it; a full reset would
# throw away what the games showed, none would make the season's rating board the all-time one.
SEASON_KEEP = 0.75


def soft_reset(skill: Skill) -> Skill:
    """``skill`` at the start of a new season: shrunk towards a newcomer's by ``SEASON_KEEP``."""
    return Skill(
        MU + SEASON_KEEP * (skill.mu - MU),
        SIGMA + SEASON_KEEP * (skill.sigma - SIGMA),
        skill.games,
    )
