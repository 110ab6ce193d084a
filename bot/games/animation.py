"""Animated images from a list of still frames, shared by the games' replays.

GIF is what every Discord client plays inline; animated WebP or APNG can be asked for where a
caller knows they are smaller and supported. Frames are scaled down once and mapped onto one
palette, and Pillow stores each GIF frame as the rectangle that changed, so a race of twenty
frames stays far under Discord's 8 MB.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

LIMIT = 8 * 1024 * 1024
COLOURS = 128  # fewer colours, smaller frames; flat board-game pictures need no more
MIME = {"gif": "image/gif", "webp": "image/webp", "png": "image/apng"}


@dataclass(frozen=True)
class Animation:
    data: bytes
    filename: str
    mime: str
    alt: str
    frames: int
    size: tuple[int, int]


def animate(
    frames: Sequence[Image.Image],
    *,
    name: str,
    alt: str,
    width: int = 800,
    frame_ms: int = 800,
    first_ms: int = 1500,
    last_ms: int = 4000,
    fmt: str = "gif",
) -> Animation:
    """One animation of ``frames`` (shown ``frame_ms`` each, the first ``first_ms``, the finish
    ``last_ms``), scaled to ``width``; if it would pass 8 MB it is scaled down until it does not."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    if fmt not in MIME:
        raise ValueError(f"format must be one of {', '.join(MIME)}")
    scale = min(1.0, width / frames[0].width)
    while True:
        data, size = _encode(frames, scale, frame_ms, first_ms, last_ms, fmt)
        if len(data) < LIMIT or scale < 0.2:
            break
        scale *= 0.75
    return Animation(data, f"{name}.{fmt}", MIME[fmt], alt, len(frames), size)


def _encode(
    frames: Sequence[Image.Image], scale: float, frame_ms: int, first_ms: int, last_ms: int, fmt: str
) -> tuple[bytes, tuple[int, int]]:
    width = max(1, round(frames[0].width * scale))
    height = max(1, round(max(f.height for f in frames) * scale))
    rgb = []
    for frame in frames:
        still = frame.convert("RGB")
        if still.height * scale < height:  # a shorter frame sits on the felt of the first
            canvas = Image.new(
                "RGB", (frame.width, round(height / scale)), still.getpixel((0, still.height - 1))
            )
            canvas.paste(still, (0, 0))
            still = canvas
        rgb.append(still.resize((width, height), Image.Resampling.LANCZOS) if scale < 1 else still)
    durations = [frame_ms] * len(rgb)
    durations[0] = max(durations[0], first_ms)
    durations[-1] = last_ms
    out = io.BytesIO()
    if fmt == "gif":
        # One palette for the whole race, chosen from the first and last frames (they hold every colour).
        probe = Image.new("RGB", (width, height * 2))
        probe.paste(rgb[0], (0, 0))
        probe.paste(rgb[-1], (0, height))
        # (Pillow stores each later frame as the changed rectangle, unchanged pixels transparent.)
        palette = probe.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
        still = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in rgb]
        still[0].save(
            out,
            format="GIF",
            save_all=True,
            append_images=still[1:],
            duration=durations,
            loop=0,
            optimize=False,
        )
    elif fmt == "webp":
        rgb[0].save(
            out,
            format="WEBP",
            save_all=True,
            append_images=rgb[1:],
            duration=durations,
            loop=0,
            lossless=True,
            method=4,
        )
    else:
        rgb[0].save(out, format="PNG", save_all=True, append_images=rgb[1:], duration=durations, loop=0)
    return out.getvalue(), (width, height)
