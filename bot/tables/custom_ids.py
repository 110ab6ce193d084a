"""Every ``custom_id`` the bot puts on a button or menu: built here, parsed here, nowhere else.

Forms (under Discord's 100 characters: 83 at most, with a 20-digit game, a token, a 31-letter kind
and a 7-digit step; a choice is its index in the pending decision; ``<game>`` is the game's number,
then a dot and its token when it has one: ``17.k3x9q0ab``):

  ``g:<game>:d:<seat>:<n>:<kind>:i<index>``  a decision button, for ``seat`` after its n-th action
  ``gs:<game>:<seat>:<n>:<kind>``            a decision menu (any page of it); values ``i<index>``
  ``g:<game>:m:<seat>:<n>:<kind>:p<page>``   turns that menu to ``page``
  ``g:<game>:hand``                          "My hand"
  ``g:<game>:ask:<topic>``                   a question anyone may ask a game (its odds...), answered privately
  ``g:<game>:lobby:<op>``                    lobby buttons (join, leave, ai, start, cancel)
  ``gs:<game>:lobby:kick``                   the lobby's kick menu; values are seat numbers
  ``gs:<game>:sb:<race>``                    a spectator's racer menu (``bot.tables.spectating``); values racers
  ``g:<game>:sb:<race>:<racer>:a<amount>``   a spectator's amount, for a quote
  ``g:<game>:sbok:<frame>:<racer>:<amount>:<price>``  a spectator's confirm of the quote shown on ``frame``
  ``g:0:page:lb:<scope>:<period>:<page>``    leaderboard pages
  ``g:0:privacy:<erase|keep>:<user>``         ``/privacy erase``'s confirm and cancel buttons, for ``user``

The token (``new_token``: eight random letters and digits, made when the game is created and stored
with it) is what ties a button to its game rather than to its number alone: a new or restored database
numbers its games from 1 again, and a button of an old game 1 must not move the new one
(``bot.tables.dispatch``). Ruling on ids without a token (every id posted before tokens, and the ids of
a game created before them, which has none): they are read, and apply only to a game stored without a
token; a game with one answers them as another game's buttons. So a game that was running during the
upgrade goes on with its buttons, and no game made since can be moved by an old button.

Ids posted by the bot before this module (a decision button whose last part is the choice as
JSON, a menu whose values are the options as JSON) are still read: their choice is looked up among
the pending options, so a button already in Discord keeps working, or is answered as stale. (No
JSON value starts with ``i``, so an old menu value never reads as an index.)

``parse`` is total: any text gives a ``Parsed`` value, and anything it cannot read is ``Unreadable``.
"""

from __future__ import annotations

import json
import re
import secrets
import string
from dataclasses import dataclass
from typing import Any

from bot.games.base import JSON, Decision

LOBBY_OPS = ("join", "leave", "ai", "start", "cancel")
_NUM = r"(0|[1-9]\d{0,19})"
_KIND = r"([a-z][a-z0-9_]{0,30})"
TOKEN_LENGTH = 8
_TOKEN_ALPHABET = string.digits + string.ascii_lowercase
# A game's number and, after a dot, its token (two groups: the number, then the token or None).
_GAME = rf"{_NUM}(?:\.([0-9a-z]{{{TOKEN_LENGTH}}}))?"
_DECISION = re.compile(rf"g:{_GAME}:d:{_NUM}:{_NUM}:{_KIND}:i{_NUM}")
_LEGACY_DECISION = re.compile(rf"g:{_NUM}:d:{_NUM}:{_NUM}:{_KIND}:(.+)", re.DOTALL)
_MENU = re.compile(rf"gs:{_GAME}:{_NUM}:{_NUM}:{_KIND}")
_MENU_PAGE = re.compile(rf"g:{_GAME}:m:{_NUM}:{_NUM}:{_KIND}:p{_NUM}")
_HAND = re.compile(rf"g:{_GAME}:hand")
_ASK = re.compile(rf"g:{_GAME}:ask:{_KIND}")
_LOBBY = re.compile(rf"g:{_GAME}:lobby:([a-z]+)")
_KICK = re.compile(rf"gs:{_GAME}:lobby:kick")
_RACER = r"([a-z0-9_]{1,20})"
_SPECTATE_MENU = re.compile(rf"gs:{_GAME}:sb:{_NUM}")
_SPECTATE_AMOUNT = re.compile(rf"g:{_GAME}:sb:{_NUM}:{_RACER}:a{_NUM}")
_SPECTATE_CONFIRM = re.compile(rf"g:{_GAME}:sbok:{_NUM}:{_RACER}:{_NUM}:{_NUM}")
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
    token: str | None = None


@dataclass(frozen=True)
class MenuPage:
    game: int
    seat: int
    n: int
    kind: str
    page: int
    token: str | None = None


@dataclass(frozen=True)
class Hand:
    game: int
    token: str | None = None


@dataclass(frozen=True)
class Ask:
    """A question for the game's presenter (``topic``: what it offered, such as ``odds``)."""

    game: int
    topic: str
    token: str | None = None


@dataclass(frozen=True)
class Lobby:
    game: int
    op: str  # one of LOBBY_OPS, or "kick"
    seat: int | None = None  # the kicked seat
    token: str | None = None


@dataclass(frozen=True)
class Spectate:
    """A spectator's bet, step by step (``bot.tables.spectating``): ``pick`` a racer (``racer`` None: the
    menu was answered with nothing readable), choose an ``amount``, ``confirm`` the quote of ``frame``."""

    game: int
    op: str  # pick | amount | confirm
    race: int | None = None
    racer: str | None = None
    amount: int | None = None
    frame: int | None = None
    price: int | None = None
    token: str | None = None


@dataclass(frozen=True)
class BoardPage:
    scope: str  # "all" or a game kind; the stats cog checks it
    period: str
    page: int


Parsed = Unreadable | Decide | MenuPage | Hand | Ask | Lobby | Spectate | BoardPage
OfAGame = Decide | MenuPage | Hand | Ask | Lobby | Spectate
"""The ids that name a game (every one but a leaderboard page's)."""


# --- building -------------------------------------------------------------------------


def new_token() -> str:
    """A game's token, made once when it is created (``TOKEN_LENGTH`` random letters and digits)."""
    return "".join(secrets.choice(_TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def _game(game: int, token: str | None) -> str:
    return f"{game}.{token}" if token else str(game)


def decision(game: int, seat: int, n: int, kind: str, index: int, *, token: str | None = None) -> str:
    return f"g:{_game(game, token)}:d:{seat}:{n}:{kind}:i{index}"


def menu(game: int, seat: int, n: int, kind: str, *, token: str | None = None) -> str:
    return f"gs:{_game(game, token)}:{seat}:{n}:{kind}"


def menu_value(index: int) -> str:
    return f"i{index}"


def menu_page(game: int, seat: int, n: int, kind: str, page: int, *, token: str | None = None) -> str:
    return f"g:{_game(game, token)}:m:{seat}:{n}:{kind}:p{page}"


def hand(game: int, *, token: str | None = None) -> str:
    return f"g:{_game(game, token)}:hand"


def ask(game: int, topic: str, *, token: str | None = None) -> str:
    return f"g:{_game(game, token)}:ask:{topic}"


def lobby(game: int, op: str, *, token: str | None = None) -> str:
    return f"g:{_game(game, token)}:lobby:{op}"


def kick(game: int, *, token: str | None = None) -> str:
    return f"gs:{_game(game, token)}:lobby:kick"


def spectate_menu(game: int, race: int, *, token: str | None = None) -> str:
    return f"gs:{_game(game, token)}:sb:{race}"


def spectate_amount(game: int, race: int, racer: str, amount: int, *, token: str | None = None) -> str:
    return f"g:{_game(game, token)}:sb:{race}:{racer}:a{amount}"


def spectate_confirm(
    game: int, frame: int, racer: str, amount: int, price: int, *, token: str | None = None
) -> str:
    return f"g:{_game(game, token)}:sbok:{frame}:{racer}:{amount}:{price}"


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
    # Groups 1 and 2 of every form that names a game are its number and its token (or None).
    if m := _DECISION.fullmatch(custom_id):
        return Decide(int(m[1]), int(m[3]), int(m[4]), m[5], index=int(m[6]), token=m[2])
    if m := _MENU.fullmatch(custom_id):
        game, token, seat, n, kind = int(m[1]), m[2], int(m[3]), int(m[4]), m[5]
        if not values or not isinstance(values[0], str):
            return Decide(game, seat, n, kind, token=token)  # nothing chosen
        if index := _INDEX.fullmatch(values[0]):
            return Decide(game, seat, n, kind, index=int(index[1]), token=token)
        choice = _json(values[0])
        if choice is _MISSING:
            return Unreadable()
        return Decide(game, seat, n, kind, choice=choice, legacy=True, token=token)
    if m := _MENU_PAGE.fullmatch(custom_id):
        return MenuPage(int(m[1]), int(m[3]), int(m[4]), m[5], int(m[6]), token=m[2])
    if m := _HAND.fullmatch(custom_id):
        return Hand(int(m[1]), token=m[2])
    if m := _ASK.fullmatch(custom_id):
        return Ask(int(m[1]), m[3], token=m[2])
    if m := _LOBBY.fullmatch(custom_id):
        return Lobby(int(m[1]), m[3], token=m[2]) if m[3] in LOBBY_OPS else Unreadable()
    if m := _KICK.fullmatch(custom_id):
        kicked = _plain_number(values)
        return Lobby(int(m[1]), "kick", kicked, token=m[2])
    if m := _SPECTATE_MENU.fullmatch(custom_id):
        racer = values[0] if values and isinstance(values[0], str) else ""
        picked = racer if re.fullmatch(_RACER, racer) else None
        return Spectate(int(m[1]), "pick", race=int(m[3]), racer=picked, token=m[2])
    if m := _SPECTATE_AMOUNT.fullmatch(custom_id):
        return Spectate(int(m[1]), "amount", race=int(m[3]), racer=m[4], amount=int(m[5]), token=m[2])
    if m := _SPECTATE_CONFIRM.fullmatch(custom_id):
        return Spectate(
            int(m[1]), "confirm", frame=int(m[3]), racer=m[4], amount=int(m[5]), price=int(m[6]), token=m[2]
        )
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
