"""render_messages on hand-built messages: what Discord would show is what the picture holds."""

from __future__ import annotations

import datetime
import io

from PIL import Image, ImageChops

from bot.fakediscord import FakeAttachment, FakeEmoji, FakeMessage, FakeUser, MessageVersion
from bot.fakediscord.model import FakeChannel
from bot.fakediscord.screenshot import (
    BUTTON_COLOURS,
    DARKEST,
    HIGHLIGHT_BAR,
    LINK,
    Context,
    format_timestamp,
    parse_inline,
    render_messages,
)

SENT = datetime.datetime(2025, 5, 1, 12, 0, tzinfo=datetime.UTC)
BOT = FakeUser(1, "RaceBot", bot=True)
ALICE = FakeUser(2 << 22, "alice")
GAMES = FakeChannel(10, "games", 0)
NAMES = {ALICE.id: "alice"}


def version(content: str = "", **parts: object) -> MessageVersion:
    return MessageVersion(
        content,
        list(parts.get("embeds", [])),  # type: ignore[call-overload]
        list(parts.get("components", [])),  # type: ignore[call-overload]
        list(parts.get("attachments", [])),  # type: ignore[call-overload]
        int(parts.get("flags", 0)),  # type: ignore[call-overload]
        SENT,
    )


def picture(*messages: FakeMessage | MessageVersion, **options: object) -> Image.Image:
    png = render_messages(list(messages), names=NAMES, **options)  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def has_colour(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(c == colour for _, c in image.getcolors(1 << 20) or [])


def png_of(size: tuple[int, int], colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


def box_of(image: Image.Image, colour: tuple[int, int, int]) -> tuple[int, int, int, int] | None:
    """The bounding box of the pixels that are exactly ``colour``."""
    bands = [
        band.point(lambda v, c=c: 255 if v == c else 0) for band, c in zip(image.split(), colour, strict=True)
    ]
    return ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2]).getbbox()


def test_a_mention_is_shown_as_the_users_name_and_unknown_ids_as_unknown_user() -> None:
    spans = parse_inline(f"{ALICE.mention} to bet, <@99> waits", Context(NAMES, SENT))
    texts = [s.text for s in spans]
    assert "@alice" in texts and "@unknown-user" in texts
    assert all(s.style.chip is not None for s in spans if s.text.startswith("@"))


def test_names_may_be_a_function() -> None:
    spans = parse_inline("<@7>", Context(lambda i: f"user{i}", SENT))
    assert [s.text for s in spans] == ["@user7"]


def test_bold_and_italic_nest_and_code_is_taken_literally() -> None:
    spans = parse_inline("**Ada (AI)** *(AI, **normal**)* `1. **x**`", Context(None, SENT))
    assert spans[0].text == "Ada (AI)" and spans[0].style.bold and not spans[0].style.italic
    italic = [s for s in spans if s.style.italic]
    assert "".join(s.text for s in italic) == "(AI, normal)"
    assert any(s.style.bold and s.text == "normal" for s in italic)
    assert spans[-1].text == "1. **x**" and spans[-1].style.code


def test_relative_timestamps_count_from_when_the_message_was_sent() -> None:
    now = int(SENT.timestamp())
    assert format_timestamp(now + 600, "R", SENT) == "in 10 minutes"
    assert format_timestamp(now + 20, "R", SENT) == "in 20 seconds"
    assert format_timestamp(now - 3600, "R", SENT) == "1 hour ago"
    assert format_timestamp(now + 20, "R", SENT, "pt-BR") == "em 20 segundos"  # the reader's client's words
    assert format_timestamp(now - 3600, "R", SENT, "pt-BR") == "há 1 hora"
    assert format_timestamp(now, "t", SENT) == "12:00"
    assert format_timestamp(now, "f", SENT) == "1 May 2025 12:00"


def test_the_picture_has_the_width_asked_for() -> None:
    assert picture(version("hello"), width=600).width == 600
    assert picture(version("hello")).width == 900


def test_a_character_the_font_lacks_is_left_out_not_drawn_as_a_box() -> None:
    # U+1F92B (shushing face) is in no shipped font: the picture equals the one without it.
    assert picture(version("\U0001f92b psst")).tobytes() == picture(version("psst")).tobytes()


def test_common_emoji_get_a_coloured_stand_in() -> None:
    plain = picture(version("Race 1 results"))
    trophy = picture(version("\U0001f3c6 Race 1 results"))
    assert trophy.tobytes() != plain.tobytes()
    assert has_colour(trophy, (0xF1, 0xC4, 0x0F))  # the trophy's gold star


def test_buttons_take_their_styles_colour() -> None:
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": style, "label": label, "custom_id": label}
            for style, label in ((1, "Start"), (2, "Leave"), (3, "Join"), (4, "Cancel"))
        ],
    }
    image = picture(version(components=[row]))
    for style in (1, 2, 3, 4):
        assert has_colour(image, BUTTON_COLOURS[style]), f"style {style}"


def test_an_embed_has_its_colour_bar_and_a_select_its_dark_box() -> None:
    embed = {"title": "Hot Streak — lobby", "description": f"`1.` <@{ALICE.id}> — host", "color": 0x00FF00}
    menu = {
        "type": 1,
        "components": [{"type": 3, "custom_id": "kick", "placeholder": "Remove a seat", "options": []}],
    }
    image = picture(version(embeds=[embed], components=[menu]))
    bar = box_of(image, (0, 255, 0))
    assert bar is not None and bar[2] - bar[0] <= 5  # a thin bar on the left of the embed
    select = box_of(image, DARKEST)
    assert select is not None and 380 <= select[2] - select[0] <= 400


def test_a_picture_attachment_is_scaled_to_fit_and_one_used_by_an_embed_is_shown_once() -> None:
    red = FakeAttachment(1, "board.png", png_of((1000, 500), (255, 0, 0)), description="the board")
    below = box_of(picture(version("board", attachments=[red])), (255, 0, 0))
    assert below is not None and 380 <= below[2] - below[0] <= 400  # about 400 px, as Discord shows it
    embed = {"title": "Race 1", "image": {"url": "attachment://board.png"}, "color": 0x0000FF}
    inside = picture(version(embeds=[embed], attachments=[red]))
    box = box_of(inside, (255, 0, 0))
    assert box is not None
    # Shown once, inside the embed: the red area is one picture's height, not two.
    assert box[3] - box[1] <= (box[2] - box[0]) // 2 + 2


def test_an_ephemeral_message_says_only_you_can_see_it() -> None:
    public = picture(version("Your hand"))
    private = picture(version("Your hand", flags=64))
    assert private.height > public.height
    assert has_colour(private, LINK) and not has_colour(public, LINK)  # "Dismiss message"


def test_a_message_mentioning_the_viewer_is_highlighted() -> None:
    message = version(f"{ALICE.mention} to bet")
    assert has_colour(picture(message, viewer_name="alice"), HIGHLIGHT_BAR)
    assert not has_colour(picture(message, viewer_name="bob"), HIGHLIGHT_BAR)


def test_consecutive_messages_from_the_bot_share_one_header() -> None:
    def message(n: int) -> FakeMessage:
        return FakeMessage(n, GAMES, BOT, content=f"Card {n}", created_at=SENT)

    one = picture(message(1))
    two = picture(message(1), message(2))
    # The second message adds one line of text, not another avatar and name.
    assert two.height - one.height < 30
    from_alice = FakeMessage(3, GAMES, ALICE, content="go!", created_at=SENT)
    assert picture(message(1), from_alice).height - one.height > 40


def test_custom_emojis_are_drawn_as_their_uploaded_pictures_when_known() -> None:
    magenta = (230, 20, 200)
    emoji = FakeEmoji(1234 << 22, "mum", png_of((32, 32), magenta), "image/png")
    button = {
        "type": 2,
        "style": 2,
        "label": "Mum",
        "custom_id": "bet",
        "emoji": {"id": str(emoji.id), "name": "mum"},
    }
    row = {"type": 1, "components": [button]}
    in_text = version(f"Bet on {emoji.markdown}")
    on_button = version("Bets", components=[row])
    assert has_colour(picture(in_text, emojis={emoji.id: emoji}), magenta)
    assert has_colour(picture(on_button, emojis={emoji.id: emoji.image}), magenta)
    assert not has_colour(picture(in_text), magenta) and not has_colour(picture(on_button), magenta)
    spans = parse_inline(emoji.markdown, Context(None, SENT))
    assert [s.text for s in spans] == [":mum:"]  # unknown pictures read as Discord's text form
