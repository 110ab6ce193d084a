"""Every ``custom_id`` the bot puts on a button or menu: built here, parsed here, nowhere else.

Forms (all far under Discord's 100 characters; a choice is its index in the pending decision):

  ``g:<game>:d:<seat>:<n>:<kind>:i<index>``  a decision button, for ``seat`` after its n-th action
  ``gs:<game>:<seat>:<n>:<kind>``            a decision menu (any page of it); values ``i<index>``
  ``g:<game>:m:<seat>:<n>:<kind>:p<page>``   turns that menu to ``page``
  ``g:<game>:hand``                          "My hand"
  ``g:<game>:ask:<topic>``                   a question anyone may ask a game (its odds...), answered privately
  ``g:<game>:lobby:<op>``                    lobby buttons (join, leave, ai, start, cancel)
  ``gs:<game>:lobby:kick``                   the lobby's kick menu; values are seat numbers
  ``g:0:page:lb:<scope>:<period>:<page>``    leaderboard pages
  ``g:0:privacy:<erase|keep>:<user>``         ``/privacy erase``'s confirm and cancel buttons, for ``user``

Ids posted by the bot before this module (a decision button whose last part is the choice as
JSON, a menu whose values are the options as JSON) are still read: their choice is looked up among
the pending options, so a button already in Discord keeps working, or is answered as stale. (No
JSON value starts with ``i``, so an old menu value never reads as an index.)

``parse`` is total: any text gives a ``Parsed`` value, and anything it cannot read is ``Unreadable``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from bot.games.base import JSON, Decision

LOBBY_OPS = ("join", "leave", "ai", "start", "cancel")
_NUM = r"(0|[1-9]\d{0,19})"
_KIND = r"([a-z][a-z0-9_]{0,30})"
_DECISION = re.compile(rf"g:{_NUM}:d:{_NUM}:{_NUM}:{_KIND}:i{_NUM}")
_LEGACY_DECISION = re.compile(rf"g:{_NUM}:d:{_NUM}:{_NUM}:{_KIND}:(.+)", re.DOTALL)
_MENU = re.compile(rf"gs:{_NUM}:{_NUM}:{_NUM}:{_KIND}")
_MENU_PAGE = re.compile(rf"g:{_NUM}:m:{_NUM}:{_NUM}:{_KIND}:p{_NUM}")
_HAND = re.compile(rf"g:{_NUM}:hand")
_ASK = re.compile(rf"g:{_NUM}:ask:{_KIND}")
_LOBBY = re.compile(rf"g:{_NUM}:lobby:([a-z]+)")
_KICK = re.compile(rf"gs:{_NUM}:lobby:kick")
# A page number has at most 6 digits: a forged 20-digit one would overflow the database's offset.
_BOARD = re.compile(r"g:0:page:lb:([a-z0-9_]{1,30}):([a-z]{1,10}):(0|[1-9][0-9]{0,5})")

# The families of dynamic items (discord.py calls every item whose template matches an id, so they
# never overlap): leaderboard pages (``cogs.stats``), the privacy buttons (``cogs.about``) and
# everything else (``components``).
BOARD_PAGE_TEMPLATE = r"g:0:page:lb:.*"
PRIVACY_TEMPLATE = r"g:0:privacy:(?P<op>erase|keep):(?P<user>0|[1-9]\d{0,19})"
# Every id but those the cogs answer themselves (leaderboard pages, the privacy buttons): the tables'.
NOT_A_COG_TEMPLATE = r"(?s:(?!g:0:page:lb:|g:0:privacy:).+)"
_INDEX = re.compile(rf"i{_NUM}")


# --- what an id says ----------------------------------------------------------------


@dataclass(frozen=True)
class Unreadable:
    """Not an id this bot wrote (forged, foreign, damaged)."""


@dataclass(frozen=True)
class Decide:
    """A decision: ``index`` into the options of ``kind`` pending for ``seat`` after ``n`` actions.

    ``choice`` instead of ``index`` for ids from before indexes (the option itself, as JSON);
    ``index`` None with no ``choice``: a menu answered with no readable value.
    """

    game: int
    seat: int
    n: int
    kind: str
    index: int | None = None
    choice: JSON = None
    legacy: bool = False


@dataclass(frozen=True)
class MenuPage:
    game: int
    seat: int
    n: int
    kind: str
    page: int


@dataclass(frozen=True)
class Hand:
    game: int


@dataclass(frozen=True)
class Ask:
    """A question for the game's presenter (``topic``: what it offered, such as ``odds``)."""

    game: int
    topic: str


@dataclass(frozen=True)
class Lobby:
    game: int
    op: str  # one of LOBBY_OPS, or "kick"
    seat: int | None = None  # the kicked seat


@dataclass(frozen=True)
class BoardPage:
    scope: str  # "all" or a game kind; the stats cog checks it
    period: str
    page: int


Parsed = Unreadable | Decide | MenuPage | Hand | Ask | Lobby | BoardPage


# --- building -------------------------------------------------------------------------


def decision(game: int, seat: int, n: int, kind: str, index: int) -> str:
    return f"g:{game}:d:{seat}:{n}:{kind}:i{index}"


def menu(game: int, seat: int, n: int, kind: str) -> str:
    return f"gs:{game}:{seat}:{n}:{kind}"


def menu_value(index: int) -> str:
    return f"i{index}"


def menu_page(game: int, seat: int, n: int, kind: str, page: int) -> str:
    return f"g:{game}:m:{seat}:{n}:{kind}:p{page}"


def hand(game: int) -> str:
    return f"g:{game}:hand"


def ask(game: int, topic: str) -> str:
    return f"g:{game}:ask:{topic}"


def lobby(game: int, op: str) -> str:
    return f"g:{game}:lobby:{op}"


def kick(game: int) -> str:
    return f"gs:{game}:lobby:kick"


def board_page(scope: str, period: str, page: int) -> str:
    return f"g:0:page:lb:{scope}:{period}:{page}"


def privacy(op: str, user_id: int) -> str:
    """``/privacy erase``'s buttons: ``erase`` (confirm) or ``keep`` (cancel), for that user only."""
    return f"g:0:privacy:{op}:{user_id}"


# --- parsing --------------------------------------------------------------------------


def parse(custom_id: object, values: list[str] | None = None) -> Parsed:
    """What a clicked component says; ``values`` are a menu's chosen values (None for a button)."""
    if not isinstance(custom_id, str) or len(custom_id) > 100:
        return Unreadable()
    if m := _DECISION.fullmatch(custom_id):
        return Decide(int(m[1]), int(m[2]), int(m[3]), m[4], index=int(m[5]))
    if m := _MENU.fullmatch(custom_id):
        game, seat, n, kind = int(m[1]), int(m[2]), int(m[3]), m[4]
        if not values or not isinstance(values[0], str):
            return Decide(game, seat, n, kind)  # nothing chosen
        if index := _INDEX.fullmatch(values[0]):
            return Decide(game, seat, n, kind, index=int(index[1]))
        choice = _json(values[0])
        if choice is _MISSING:
            return Unreadable()
        return Decide(game, seat, n, kind, choice=choice, legacy=True)
    if m := _MENU_PAGE.fullmatch(custom_id):
        return MenuPage(int(m[1]), int(m[2]), int(m[3]), m[4], int(m[5]))
    if m := _HAND.fullmatch(custom_id):
        return Hand(int(m[1]))
    if m := _ASK.fullmatch(custom_id):
        return Ask(int(m[1]), m[2])
    if m := _LOBBY.fullmatch(custom_id):
        return Lobby(int(m[1]), m[2]) if m[2] in LOBBY_OPS else Unreadable()
    if m := _KICK.fullmatch(custom_id):
        kicked = _plain_number(values)
        return Lobby(int(m[1]), "kick", kicked)
    if m := _BOARD.fullmatch(custom_id):
        return BoardPage(m[1], m[2], int(m[3]))
    if m := _LEGACY_DECISION.fullmatch(custom_id):
        choice = _json(m[5])
        if choice is _MISSING:
            return Unreadable()
        return Decide(int(m[1]), int(m[2]), int(m[3]), m[4], choice=choice, legacy=True)
    return Unreadable()


_MISSING = object()


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return _MISSING


def _plain_number(values: list[str] | None) -> int | None:
    if not values or not isinstance(values[0], str) or not re.fullmatch(_NUM, values[0]):
        return None
    return int(values[0])


NOT_AN_OPTION = object()
"""What ``chosen`` returns for a click whose option is not among the decision's options now."""


def chosen(decision: Decision, click: Decide) -> Any:
    """The option a decision click picked, or ``NOT_AN_OPTION`` (a stale or forged id)."""
    if click.legacy:  # an id posted before choices were indexes: the option itself, as JSON
        canon = json.dumps(click.choice, sort_keys=True)
        found = [o for o in decision.options if json.dumps(o, sort_keys=True) == canon]
        return found[0] if found else NOT_AN_OPTION
    if click.index is None or not 0 <= click.index < len(decision.options):
        return NOT_AN_OPTION
    return decision.options[click.index]
