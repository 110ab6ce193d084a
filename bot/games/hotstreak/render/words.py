"""Race cards and the race itself in plain words: the text on the drawn card, and the alt text.

Card notation is ``<who> <what> [n]`` with ``who`` a mascot key or ``all``: ``gobbler +3``,
``all +2``, ``mum swerve-left 2``, ``hurley star``, ``dangle fall``, ``mum turn``,
``hurley recover 2``. Anything else is shown as written rather than guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.hotstreak.render.scene import MascotState, Scene
from bot.games.hotstreak.render.style import RGB

ALT_TEXT_LIMIT = 1000
_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


@dataclass(frozen=True)
class CardFace:
    who: str | None  # mascot key; None for a green "all" card or an unreadable one
    title: str  # "Gobbler", "All mascots"
    symbol: str  # the big mark on the card: "+3", "★", "↻"
    words: str  # what the card does, in a short sentence

    @property
    def body(self) -> str:
        """``words`` without the subject, which the card's coloured band already names: fewer
        words, so the ones left can be big enough to read in Discord."""
        head = f"{self.title} "
        if self.words.startswith(head) and len(self.words) > len(head):
            rest = self.words[len(head) :]
            return rest[0].upper() + rest[1:]
        return self.words


def _spaces(n: int) -> str:
    return f"{n} space" if n == 1 else f"{n} spaces"


def _int_or_none(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def card_face(notation: str, scene: Scene) -> CardFace:
    """How the card ``notation`` is drawn and said; the mascot named on it gives the colour."""
    parts = notation.split()
    if len(parts) < 2:
        return CardFace(None, "Race card", "?", notation)
    who_key, what, rest = parts[0].lower(), parts[1].lower(), parts[2:]
    names = {m.key: m.name for m in scene.mascots}
    everyone = who_key == "all"
    if everyone:
        who, title, subject = None, "All mascots", "All mascots"
    elif who_key in names:
        who, title, subject = who_key, names[who_key], names[who_key]
    else:
        who, title, subject = None, who_key.title(), who_key.title()
    plural = everyone
    amount = _int_or_none(rest[0]) if rest else None

    def verb(one: str, many: str) -> str:
        return many if plural else one

    number = _int_or_none(what)
    if number is not None:
        if number >= 0:
            words = (
                f"{subject} {verb('runs', 'run')} {_spaces(number)} the way {verb('it faces', 'they face')}"
            )
        else:
            words = f"{subject} {verb('runs', 'run')} {_spaces(-number)} backwards"
        return CardFace(who, title, f"{number:+d}", words)
    if what == "star":
        return CardFace(who, title, "★", f"{subject} {verb('dashes', 'dash')} to the next star ahead")
    if what == "fall":
        return CardFace(
            who, title, "⬇", f"{subject} {verb('falls', 'fall')} down and {verb('crawls', 'crawl')}"
        )
    if what == "turn":
        return CardFace(who, title, "↻", f"{subject} {verb('turns', 'turn')} around")
    if what == "recover":
        tail = f", then {verb('runs', 'run')} {_spaces(amount)}" if amount else ""
        return CardFace(
            who, title, "✚", f"{subject} {verb('gets up and faces', 'get up and face')} the finish{tail}"
        )
    if what.startswith("swerve"):
        side = "left" if "left" in what else "right" if "right" in what else ""
        symbol = {"left": "↰", "right": "↱"}.get(side, "⇄")
        run = f"{verb('runs', 'run')} {_spaces(abs(amount))}, then " if amount else ""
        return CardFace(who, title, symbol, f"{subject} {run}{verb('swerves', 'swerve')} {side}".rstrip())
    return CardFace(who, title, "?", notation)


def card_colour(face: CardFace, scene: Scene, green: RGB, unknown: RGB) -> RGB:
    if face.who is None:
        return green if face.title == "All mascots" else unknown
    return scene.mascot(face.who).colour


def _lane_name(lane: int, lanes: int) -> str:
    if lane == 0:
        return "lane 1 (leftmost)"
    if lane == lanes - 1:
        return f"lane {lane + 1} (rightmost)"
    return f"lane {lane + 1}"


def _mascot_words(m: MascotState, scene: Scene) -> str:
    if m.status == "finished":
        return f"{m.name}: finished" + (f", {_ORDINALS.get(m.place, m.place)}" if m.place else "")
    if m.status == "out":
        return f"{m.name}: disqualified" + (f", placed {_ORDINALS.get(m.place, m.place)}" if m.place else "")
    pos = min(max(m.pos, 0), scene.length - 1)
    bits = [
        f"{_lane_name(min(max(m.lane, 0), scene.lanes - 1), scene.lanes)}, space {pos}, {scene.length - pos} to go"
    ]
    bits.append("facing the finish" if m.facing == "forward" else "turned around")
    if m.fallen:
        bits.append("fallen, crawling")
    lane = min(max(m.lane, 0), scene.lanes - 1)
    if pos in scene.stars[lane]:
        bits.append("on a star")
    return f"{m.name}: " + ", ".join(bits)


def alt_text(scene: Scene, odds: str = "", tickets: str = "") -> str:
    """What the race picture shows, for screen readers; always under ``ALT_TEXT_LIMIT`` characters.

    ``odds`` (a sentence) goes right after the title, so it survives the cut; ``tickets`` goes last."""
    names = {m.key: m.name for m in scene.mascots}
    parts = [
        f"Hot Streak, race {scene.race} of {scene.races}. Track of {scene.length} spaces in {scene.lanes} lanes."
    ]
    if odds:
        parts.append(odds)
    if scene.bar > 0:
        parts.append(f"Yellow bar folded to space {scene.bar}; spaces before it are out of the race.")
    else:
        parts.append("Yellow bar at the start.")
    if scene.last_card:
        face = card_face(scene.last_card, scene)
        parts.append(f"Last card: {scene.last_card} ({face.words}).")
    else:
        parts.append("No card flipped yet.")
    cards = "card" if scene.cards_left == 1 else "cards"
    parts.append(f"{scene.cards_left} {cards} left, {scene.burned} burned.")
    parts.extend(_mascot_words(m, scene) + "." for m in scene.mascots)
    if any(scene.podium):
        places = [
            f"{_ORDINALS[i + 1]} {names.get(k, k) if k else 'empty'}" for i, k in enumerate(scene.podium)
        ]
        parts.append("Podium: " + ", ".join(places) + ".")
    else:
        parts.append("Podium empty.")
    if scene.white_lines:
        parts.append("White lines at spaces " + ", ".join(str(p) for p in scene.white_lines) + ".")
    if tickets:
        parts.append(tickets)
    text = " ".join(parts)
    if len(text) > ALT_TEXT_LIMIT:
        text = text[: ALT_TEXT_LIMIT - 1].rsplit(" ", 1)[0] + "…"
    return text
