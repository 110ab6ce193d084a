"""Animated images from a list of still frames, shared by the games' replays.

GIF is what every Discord client plays inline; animated WebP or APNG can be asked for where a
caller knows they are smaller and supported.

A GIF at the frames' own width (every game's replay by default) is assembled by hand (``_assembled``)
from one block per frame: the rectangle that changed since the frame before, unchanged pixels
transparent, with the frame's own palette (``bot.games.kept_frames.encode``). The blocks kept when the
live pictures were drawn come as ``kept``, with each frame's ``digests``, and only the frames nobody drew
are drawn now, one at a time (``Drawn``). A replay frame is thus the live picture pixel for pixel, and
drawn from scratch or assembled from kept blocks, a race gives the same bytes. A frame drawn now between
kept ones that continue from the frame before it is shown with disposal "restore to previous" (3), so the
kept block after it lands on the picture it was encoded against.

A busy bot's replay is ``sparse``: it shows the frames whose blocks were kept (what the channel saw
live), the first and the last, and draws no others but those two (and a few evenly spaced ones, when
fewer than ``SPARSE_LEAST`` were kept), each shown for the usual time, so it costs a few milliseconds
rather than a frame's drawing per card nobody saw.

Only a replay scaled down (narrower than its frames, or past 8 MB at their width) or in another format
is made as before: frames scaled, mapped onto one palette of the first and last frames, and encoded by
Pillow, holding only each frame's small palette image (every full-size frame, then every scaled copy,
took 160 MB for a 24-card Hot Streak race).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from PIL import Image

from bot.games.kept_frames import Block, encode

LIMIT = 8 * 1024 * 1024
COLOURS = 128  # fewer colours, smaller frames; flat board-game pictures need no more
MIME = {"gif": "image/gif", "webp": "image/webp", "png": "image/apng"}
KEEP, RESTORE = 1, 3  # GIF disposal: leave the frame on screen; put back what was there before it
SPARSE_LEAST = 5
"""Frames a sparse replay shows at least (drawn evenly spaced where too few were kept): fewer would be
the start and the finish alone, which the results already tell."""


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
    digests: Sequence[str] | None = None,
    kept: Mapping[str, Block] | None = None,
    sparse: bool = False,
) -> Animation:
    """One animation of ``frames`` (shown ``frame_ms`` each, the first ``first_ms``, the finish
    ``last_ms``), scaled to ``width``; if it would pass 8 MB it is scaled down until it does not.

    ``digests`` names each frame (``bot.games.kept_frames.digest``) and ``kept`` holds the blocks kept
    when they were drawn live: a GIF as wide as its frames is assembled from them, and only the other
    frames are drawn (``frames[i]``, a ``Drawn``). ``sparse``: only the frames ``shown_frames`` picks."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    if fmt not in MIME:
        raise ValueError(f"format must be one of {', '.join(MIME)}")
    if sparse:
        keys = list(digests) if digests is not None else []
        chosen = shown_frames(keys, kept or {}, len(frames))
        if len(chosen) < len(frames):
            every = frames
            frames = Drawn(len(chosen), lambda i: every[chosen[i]])
            digests = [keys[i] for i in chosen] if digests is not None else None
    scale = 1.0
    if fmt == "gif":
        assembled = _assembled(
            frames, width, _durations(len(frames), frame_ms, first_ms, last_ms), digests, kept
        )
        if assembled is not None and len(assembled[0]) < LIMIT:
            return Animation(assembled[0], f"{name}.{fmt}", MIME[fmt], alt, len(frames), assembled[1])
        if assembled is not None:
            scale = 0.75  # too big at the frames' own width
    scale = min(scale, width / frames[0].width)  # (a Drawn first frame is drawn twice: once for its size)
    while True:
        data, size = _encode(frames, scale, frame_ms, first_ms, last_ms, fmt)
        if len(data) < LIMIT or scale < 0.2:
            break
        scale *= 0.75
    return Animation(data, f"{name}.{fmt}", MIME[fmt], alt, len(frames), size)


def shown_frames(digests: Sequence[str], kept: Mapping[str, Block], count: int) -> list[int]:
    """The frames a sparse replay shows (indices, in order): every frame whose block was kept, the first
    and the last; when that is fewer than ``SPARSE_LEAST``, others evenly spaced among the rest.

    Why the kept ones chain: a live picture's block is encoded against the race's previous picture drawn
    in the same process, that is the previous kept one, so shown in a row they fit one on the other and
    nothing between them is drawn (one that does not fit, from another process or after a restart, is
    drawn whole: ``_assembled``)."""
    chosen = {0, count - 1} | {i for i, key in enumerate(digests[:count]) if key in kept}
    rest = [i for i in range(count) if i not in chosen]
    wanted = min(SPARSE_LEAST, count) - len(chosen)
    if wanted > 0:
        step = len(rest) / wanted
        chosen |= {rest[int(step * j + step / 2)] for j in range(wanted)}
    return sorted(chosen)


def sparse_count(
    digests: Sequence[str] | None, kept: Mapping[str, Block] | None, count: int, sparse: bool
) -> int | None:
    """How many frames a replay of ``count`` shows when ``sparse`` (None: every one), for its alt text."""
    return len(shown_frames(digests or [], kept or {}, count)) if sparse else None


def _durations(count: int, frame_ms: int, first_ms: int, last_ms: int) -> list[int]:
    durations = [frame_ms] * count
    durations[0] = max(durations[0], first_ms)
    durations[-1] = last_ms
    return durations


def _assembled(
    frames: Sequence[Image.Image],
    width: int,
    durations: Sequence[int],
    digests: Sequence[str] | None,
    kept: Mapping[str, Block] | None,
) -> tuple[bytes, tuple[int, int]] | None:
    """The GIF of ``frames`` at their own size, from the ``kept`` blocks that fit and the other frames
    drawn now; None if it cannot be had at that size (frames wider than ``width``, or of different sizes).

    On screen after each frame is the picture named ``shown``: a kept block is used when it was encoded
    against that picture (or is whole). Frames drawn now are encoded against the frame drawn before them
    (whole when there is none); where a kept block follows them that was encoded against ``shown``,
    they are whole and put back afterwards (``RESTORE``), so that block lands where it was made for.
    """
    count = len(frames)
    keys = list(digests) if digests is not None else [f"#{i}" for i in range(count)]
    blocks = kept or {}
    size: tuple[int, int] | None = None
    shown: str | None = None  # the frame on screen (its digest)
    drawn: Image.Image | None = None  # its picture, when it was drawn here and left on screen
    out: list[tuple[Block, int]] = []

    def fits(index: int) -> Block | None:
        block = blocks.get(keys[index])
        return block if block is not None and (block.base is None or block.base == shown) else None

    index = 0
    while index < count:
        start = len(out)
        block = fits(index)
        if block is not None:
            out.append((block, KEEP))
            shown, drawn, index = keys[index], None, index + 1
        else:
            resume = next((i for i in range(index + 1, count) if fits(i) is not None), None)
            if resume is not None:
                for gap in range(index, resume):
                    out.append((encode(frames[gap]), RESTORE))  # the picture below stays ``shown``
                index = resume
            else:
                image = frames[index]
                out.append((encode(image, drawn, shown), KEEP))
                shown, drawn, index = keys[index], image, index + 1
        if size is None:
            size = out[0][0].size
            if size[0] > width:
                return None  # to be scaled down
        if any(b.size != size for b, _disposal in out[start:]):
            return None
    assert size is not None
    return _gif(out, durations, size), size


def _gif(blocks: Sequence[tuple[Block, int]], durations: Sequence[int], size: tuple[int, int]) -> bytes:
    """A looping GIF89a of ``blocks`` (each with its disposal), without a global colour table."""
    parts = [b"GIF89a", struct.pack("<HHBBB", size[0], size[1], 0, 0, 0)]
    parts.append(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop forever
    for (block, disposal), ms in zip(blocks, durations, strict=True):
        flags = disposal << 2 | (block.transparency is not None)
        parts.append(b"!\xf9\x04" + struct.pack("<BHBB", flags, ms // 10, block.transparency or 0, 0))
        parts.append(block.data)
    parts.append(b";")
    return b"".join(parts)


def _encode(
    frames: Sequence[Image.Image], scale: float, frame_ms: int, first_ms: int, last_ms: int, fmt: str
) -> tuple[bytes, tuple[int, int]]:
    count = len(frames)
    durations = _durations(count, frame_ms, first_ms, last_ms)
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
