"""Animated images from a list of still frames, shared by the games' replays.

GIF is what every Discord client plays inline; animated WebP or APNG can be asked for where a
caller knows they are smaller and supported. Frames are scaled down once and mapped onto one
palette, and Pillow stores each GIF frame as the rectangle that changed, so a race of twenty
frames stays far under Discord's 8 MB.

A replay's frames are drawn one at a time as the GIF is built (``Drawn``) and only the small
palette image of each is kept: holding every full-size frame, then every scaled copy, took 160 MB
for a 24-card Hot Streak race, the largest part of the replay worker's memory.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import overload

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


class Drawn(Sequence[Image.Image]):
    """``count`` frames drawn by ``draw(index)`` when asked for, and not kept."""

    def __init__(self, count: int, draw: Callable[[int], Image.Image]) -> None:
        self._count, self._draw = count, draw

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Image.Image: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Image.Image]: ...
    def __getitem__(self, index: int | slice) -> Image.Image | Sequence[Image.Image]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError(index)
        return self._draw(index % self._count)


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
    scale = min(1.0, width / frames[0].width)  # (a Drawn first frame is drawn twice: once for its size)
    while True:
        data, size = _encode(frames, scale, frame_ms, first_ms, last_ms, fmt)
        if len(data) < LIMIT or scale < 0.2:
            break
        scale *= 0.75
    return Animation(data, f"{name}.{fmt}", MIME[fmt], alt, len(frames), size)


def _encode(
    frames: Sequence[Image.Image], scale: float, frame_ms: int, first_ms: int, last_ms: int, fmt: str
) -> tuple[bytes, tuple[int, int]]:
    count = len(frames)
    durations = [frame_ms] * count
    durations[0] = max(durations[0], first_ms)
    durations[-1] = last_ms
    opening = frames[0]
    width = max(1, round(opening.width * scale)) if scale < 1 else opening.width
    first = _scaled(opening, width)
    out = io.BytesIO()
    if fmt == "gif":
        last = _scaled(frames[-1], width) if count > 1 else first
        # One palette for the whole race, chosen from the first and last frames (they hold every colour).
        probe = Image.new("RGB", (width, first.height + last.height))
        probe.paste(first, (0, 0))
        probe.paste(last, (0, first.height))
        palette = probe.quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
        still = []
        for index in range(count):
            whole = first if index == 0 else last if index == count - 1 else _scaled(frames[index], width)
            still.append(whole.quantize(palette=palette, dither=Image.Dither.NONE))
        height = max(frame.height for frame in still)
        still = [_on_felt(frame, height) for frame in still]
        # (Pillow stores each later frame as the changed rectangle, unchanged pixels transparent.)
        still[0].save(
            out,
            format="GIF",
            save_all=True,
            append_images=still[1:],
            duration=durations,
            loop=0,
            optimize=False,
        )
        return out.getvalue(), (width, height)
    rgb = [first, *(_scaled(frames[index], width) for index in range(1, count))]
    height = max(frame.height for frame in rgb)
    rgb = [_on_felt(frame, height) for frame in rgb]
    if fmt == "webp":
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


def _scaled(frame: Image.Image, width: int) -> Image.Image:
    still = frame.convert("RGB")
    if frame.width == width:
        return still
    size = (width, max(1, round(frame.height * width / frame.width)))
    return still.resize(size, Image.Resampling.LANCZOS)


def _on_felt(frame: Image.Image, height: int) -> Image.Image:
    """A frame shorter than the tallest sits at the top of the colour of its own bottom row."""
    if frame.height >= height:
        return frame
    canvas = Image.new(frame.mode, (frame.width, height), frame.getpixel((0, frame.height - 1)))
    if frame.mode == "P":
        canvas.putpalette(frame.getpalette() or [])
    canvas.paste(frame, (0, 0))
    return canvas
