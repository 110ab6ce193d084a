"""Race cards and the race itself in plain words: the text on the drawn card, and the alt text.

Card notation is ``<who> <what> [n]`` with ``who`` a mascot key or ``all``: ``gobbler +3``,
``all +2``, ``mum swerve-left 2``, ``hurley star``, ``dangle fall``, ``mum turn``,
``hurley recover 2``. Anything else is shown as written rather than guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.hotstreak.narration import card_name, names_and, out_words, podium_places
from bot.games.hotstreak.render.scene import MascotState, Scene
from bot.games.hotstreak.render.style import RGB
from bot.i18n import DEFAULT, N_, _, _n, current
from bot.i18n.formatting import ordinal

ALT_TEXT_LIMIT = 1000


@dataclass(frozen=True)
class CardFace:
    who: str | None  # mascot key; None for a green "all" card or an unreadable one
    title: str  # "Gobbler", "All mascots"
    symbol: str  # the big mark on the card: "+3", "★", "↻"
    words: str  # what the card does, in a short sentence
    everyone: bool = False  # a green card: it moves every mascot

    @property
    def body(self) -> str:
        """``words`` without the subject, which the card's coloured band already names: fewer
        words, so the ones left can be big enough to read in Discord."""
        head = f"{self.title} "
        if self.words.startswith(head) and len(self.words) > len(head):
            rest = self.words[len(head) :]
            return rest[0].upper() + rest[1:]
        return self.words


def deck_words(cards_left: int) -> str:
    """The deck's count in the header: "14 cards left", or "Deck empty" (a message of its own: in
    Portuguese 0 takes the singular, and "0 carta" reads as a slip)."""
    if cards_left <= 0:
        return _("Deck empty")
    return _n("{n} card left", "{n} cards left", cards_left)


def _spaces(n: int) -> str:
    return _n("{n} space", "{n} spaces", n)


def _int_or_none(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def card_face(notation: str, scene: Scene) -> CardFace:
    """How the card ``notation`` is drawn and said; the mascot named on it gives the colour.
    Each sentence starts with who it moves (the band above already names them; ``body`` drops it)."""
    parts = notation.split()
    if len(parts) < 2:
        return CardFace(None, _("Race card"), "?", notation)
    who_key, what, rest = parts[0].lower(), parts[1].lower(), parts[2:]
    names = {m.key: m.name for m in scene.mascots}
    everyone = who_key == "all"
    if everyone:
        who, title = None, _("All mascots")
    elif who_key in names:
        who, title = who_key, names[who_key]
    else:
        who, title = None, who_key.title()
    amount = _int_or_none(rest[0]) if rest else None

    def face(symbol: str, one: str, many: str, **values: object) -> CardFace:
        words = _(many, **values) if everyone else _(one, who=title, **values)
        return CardFace(who, title, symbol, words, everyone)

    number = _int_or_none(what)
    if number is not None:
        if number >= 0:
            return face(
                f"{number:+d}",
                N_("{who} runs {spaces} the way it faces"),
                N_("All mascots run {spaces} the way they face"),
                spaces=_spaces(number),
            )
        return face(
            f"{number:+d}",
            N_("{who} runs {spaces} backwards"),
            N_("All mascots run {spaces} backwards"),
            spaces=_spaces(-number),
        )
    if what == "star":
        return face(
            "★", N_("{who} dashes to the next star ahead"), N_("All mascots dash to the next star ahead")
        )
    if what == "fall":
        return face("⬇", N_("{who} falls down and crawls"), N_("All mascots fall down and crawl"))
    if what == "turn":
        return face("↻", N_("{who} turns around"), N_("All mascots turn around"))
    if what == "recover":
        if amount:
            return face(
                "✚",
                N_("{who} gets up and faces the finish, then runs {spaces}"),
                N_("All mascots get up and face the finish, then run {spaces}"),
                spaces=_spaces(amount),
            )
        return face(
            "✚", N_("{who} gets up and faces the finish"), N_("All mascots get up and face the finish")
        )
    if what.startswith("swerve"):
        side = "left" if "left" in what else "right" if "right" in what else ""
        symbol = {"left": "↰", "right": "↱"}.get(side, "⇄")
        if side and amount:
            spaces = _spaces(abs(amount))
            if side == "left":
                return face(
                    symbol,
                    N_("{who} runs {spaces}, then swerves left"),
                    N_("All mascots run {spaces}, then swerve left"),
                    spaces=spaces,
                )
            return face(
                symbol,
                N_("{who} runs {spaces}, then swerves right"),
                N_("All mascots run {spaces}, then swerve right"),
                spaces=spaces,
            )
        if side == "left":
            return face(symbol, N_("{who} swerves left"), N_("All mascots swerve left"))
        if side == "right":
            return face(symbol, N_("{who} swerves right"), N_("All mascots swerve right"))
        return face(symbol, N_("{who} swerves"), N_("All mascots swerve"))
    return CardFace(who, title, "?", notation)


def card_colour(face: CardFace, scene: Scene, green: RGB, unknown: RGB) -> RGB:
    if face.who is None:
        return green if face.everyone else unknown
    return scene.mascot(face.who).colour


def _lane_name(lane: int, lanes: int) -> str:
    if lane == 0:
        return _("lane 1 (leftmost)")
    if lane == lanes - 1:
        return _("lane {lane} (rightmost)", lane=lane + 1)
    return _("lane {lane}", lane=lane + 1)


def _mascot_words(m: MascotState, scene: Scene) -> str:
    if m.status == "finished":
        if m.place:
            return _("{name}: finished, {place}", name=m.name, place=ordinal(m.place))
        return _("{name}: finished", name=m.name)
    if m.status == "out":
        if m.place:
            return _("{name}: disqualified, placed {place}", name=m.name, place=ordinal(m.place))
        return _("{name}: disqualified", name=m.name)
    if m.place:
        # The last one running when the race was decided: it stands on the podium, off the track.
        return _("{name}: placed {place}, the last one running", name=m.name, place=ordinal(m.place))
    pos = min(max(m.pos, 0), scene.length - 1)
    bits = [
        _(
            "{lane}, space {space}, {left} to go",
            lane=_lane_name(min(max(m.lane, 0), scene.lanes - 1), scene.lanes),
            space=pos,
            left=scene.length - pos,
        )
    ]
    bits.append(_("facing the finish") if m.facing == "forward" else _("turned around"))
    if m.fallen:
        bits.append(_("fallen, crawling"))
    lane = min(max(m.lane, 0), scene.lanes - 1)
    if pos in scene.stars[lane]:
        bits.append(_("on a star"))
    return _("{name}: {state}", name=m.name, state=", ".join(bits))


def podium_words(scene: Scene, *, empty_steps: bool = True) -> str:
    """The podium as the results embed tells it, by the places mascots are paid as (``podium_places``):
    ``1st Gobbler, 3rd Dangle and Mum (disqualified together), 4th Hurley (disqualified)``. No one is
    2nd there: mascots put out together share the worst of their steps. A step nobody has reached yet
    is said empty (``empty_steps``) while the race runs.

    A frame gives each mascot's paid place; one on the podium without it is placed by its step."""
    by_key = {m.key: m for m in scene.mascots}  # (``read_scene`` keeps only these keys on the podium)
    places: dict[str, int | None] = {
        key: by_key[key].place or step + 1 for step, key in enumerate(scene.podium) if key is not None
    }
    groups = iter(podium_places(list(scene.podium), places))
    told: set[str] = set()
    empty = _("empty")
    parts = []
    for step, key in enumerate(scene.podium):
        if key is None:
            if empty_steps:
                parts.append(f"{ordinal(step + 1)} {empty}")
            continue
        if key in told:
            continue
        place, who = next(groups)
        told.update(who)
        words = f"{ordinal(place)} {names_and([by_key[k].name for k in who])}"
        if by_key[who[0]].status == "out":
            words += " " + out_words(who)
        parts.append(words)
    return ", ".join(parts)


def _card_words(notation: str, names: dict[str, str]) -> str:
    """The last card as the alt text names it: its notation in English (as the messages write it),
    its translated name in another language."""
    return notation if current() == DEFAULT else card_name(notation, names)


def alt_text(scene: Scene, odds: str = "", tickets: str = "") -> str:
    """What the race picture shows, for screen readers; always under ``ALT_TEXT_LIMIT`` characters.

    ``odds`` (a sentence) goes right after the title, so it survives the cut; ``tickets`` goes last."""
    names = {m.key: m.name for m in scene.mascots}
    parts = [
        _(
            "Hot Streak, race {race} of {races}. Track of {length} spaces in {lanes} lanes.",
            race=scene.race,
            races=scene.races,
            length=scene.length,
            lanes=scene.lanes,
        )
    ]
    if odds:
        parts.append(odds)
    if scene.bar > 0:
        parts.append(
            _("Yellow bar folded to space {space}; spaces before it are out of the race.", space=scene.bar)
        )
    else:
        parts.append(_("Yellow bar at the start."))
    if scene.last_card:
        face = card_face(scene.last_card, scene)
        parts.append(
            _("Last card: {card} ({words}).", card=_card_words(scene.last_card, names), words=face.words)
        )
    else:
        parts.append(_("No card flipped yet."))
    if scene.cards_left <= 0:
        parts.append(_("Deck empty, {burned} burned.", burned=scene.burned))
    else:
        parts.append(
            _n(
                "{n} card left, {burned} burned.",
                "{n} cards left, {burned} burned.",
                scene.cards_left,
                burned=scene.burned,
            )
        )
    parts.extend(_mascot_words(m, scene) + "." for m in scene.mascots)
    if any(scene.podium):
        parts.append(_("Podium: {places}.", places=podium_words(scene)))
    else:
        parts.append(_("Podium empty."))
    if scene.white_lines:
        parts.append(
            _n(
                "White lines at spaces {spaces}.",
                "White lines at spaces {spaces}.",
                len(scene.white_lines),
                spaces=", ".join(str(p) for p in scene.white_lines),
            )
        )
    if tickets:
        parts.append(tickets)
    text = " ".join(parts)
    if len(text) > ALT_TEXT_LIMIT:
        text = text[: ALT_TEXT_LIMIT - 1].rsplit(" ", 1)[0] + "…"
    return text
