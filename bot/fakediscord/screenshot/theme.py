"""Discord's dark theme at 100 % zoom: its colours and the sizes of a message's parts."""

from __future__ import annotations

RGB = tuple[int, int, int]


def hex_rgb(value: str) -> RGB:
    return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``b`` laid over ``a`` at opacity ``t``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# ---- Discord's dark theme -------------------------------------------------------------------------------
BACKGROUND = hex_rgb("#313338")
EMBED_BACKGROUND = hex_rgb("#2b2d31")
DARKEST = hex_rgb("#1e1f22")
TEXT = hex_rgb("#dbdee1")
HEADER = hex_rgb("#f2f3f5")
MUTED = hex_rgb("#949ba4")
LINK = hex_rgb("#00a8fc")
BLURPLE = hex_rgb("#5865f2")
MENTION_TEXT = hex_rgb("#c9cdfb")
MENTION_BG = mix(BACKGROUND, BLURPLE, 0.3)
HIGHLIGHT_BG = mix(BACKGROUND, hex_rgb("#f0b232"), 0.1)
HIGHLIGHT_BAR = hex_rgb("#f0b232")
CHANNEL_BAR_LINE = hex_rgb("#26282c")
BUTTON_COLOURS: dict[int, RGB] = {
    1: BLURPLE,  # primary
    2: hex_rgb("#4e5058"),  # secondary
    3: hex_rgb("#248046"),  # success
    4: hex_rgb("#da373c"),  # danger
    5: hex_rgb("#4e5058"),  # link
    6: BLURPLE,  # premium
}
#: Discord's default avatar colours, chosen by user id.
AVATAR_COLOURS = [hex_rgb(c) for c in ("#5865f2", "#757e8a", "#3ba55c", "#faa61a", "#ed4245", "#eb459f")]

LEFT = 72  # where message text starts, right of the avatar
RIGHT_GAP = 48  # Discord keeps this clear for the hover toolbar
EMBED_MAX = 520
ATTACHMENT_MAX = (400, 300)  # Discord shows a picture about 400 px wide (desktop)
BOT_AVATAR_BG = hex_rgb("#c0392b")
