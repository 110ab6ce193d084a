"""Race frames kept, already GIF-encoded, by the process that drew them live, so a race's replay is
assembled from them rather than drawn again.

Why: a replay drew every frame of its race a second time (0.45 s of CPU for a Hot Streak race, 1.5 s for
a Horse Race one, 1.5 s for a Downforce one), though the live message had drawn most of them minutes
before; now 7, 9 and 30 ms (``bench/bench_replay.py``, docs/scaling.md). Now the process
that draws a live picture (``keep``) also encodes it as the GIF block a replay would hold: the rectangle
that changed since the race's previous picture drawn there, unchanged pixels transparent, with the
frame's own palette (so a replay frame is the live picture itself, pixel for pixel). The replay takes
the race's blocks (``take``) and joins them (``bot.games.animation``), drawing only the frames nobody
drew live.

A block is filed under its frame's ``digest`` (what it shows: the view, its odds, the names, the
language), and says which frame it was encoded against (``Block.base``): a replay uses it only if the
picture on screen before it is that frame, so a live picture of something the replay does not show, a
frame drawn in another process, or one drawn after a restart can never put wrong pixels in a replay.

Memory is bounded (``LIMIT`` bytes per process, blocks and the last picture of each race, as PNG). A
block takes about 10 KB (the unchanged pixels transparent compress well): a Hot Streak race about 0.3 MB,
a Horse Race one 0.8 MB, a Downforce one 0.4 MB. Ruling, past the bound: races nobody drew for
``STALE`` seconds go first (a game that ended without its replay), then the race admitted last (the one with the least kept), and a race that does not fit is not
admitted; a dropped race keeps nothing more (its replay draws the frames, as before). So a busy bot
keeps some races whole rather than every race's last few, and spends no time keeping what it would drop.

Pure (Pillow only); the cache is per process: a picture worker's, or the bot's own without workers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from PIL import GifImagePlugin, Image, ImageChops

from bot.i18n import current

log = logging.getLogger(__name__)

LIMIT = 40 * 1024 * 1024
"""Bytes of kept frames per process: about 130 whole Hot Streak races, 50 Horse Race ones or 100 Downforce
ones. Ruling: issue 15's 500 MB for the bot and its workers had about 50 MB to spare at 500 games
(445-458 MB), and the replay worker no longer holds a race's frames (a 68-roll Horse Race replay raised
its peak by 65 MB, now by 5 MB), so this fits in what the replay worker gave back."""
DROPPED = 4096
"""Races remembered as dropped (their later frames are not kept), oldest forgotten first."""
STALE = 600.0
"""Seconds after which a race nobody drew for is dropped first when the kept frames are full (a race's
frames come every few seconds while it runs)."""


@dataclass(frozen=True)
class Block:
    """One frame as a GIF holds it: an image descriptor, its colour table and LZW data (no graphic
    control extension: a frame's delay and disposal depend on its place in the animation)."""

    size: tuple[int, int]  # the whole frame's (the block may be a smaller rectangle of it)
    base: str | None  # the digest of the frame it was encoded against (None: the whole frame)
    transparency: int | None  # the index that leaves the pixel below unchanged
    data: bytes


def digest(*parts: Any) -> str:
    """What a frame shows, as a short key: ``parts`` (its view, odds, names) in the current language.
    The live picture and the replay call it with the same parts, so equal keys mean equal pictures.

    Why orjson: a Hot Streak frame's digest took 0.086 ms through ``json`` (dataclasses copied by
    ``asdict``, then encoded in Python) and takes 0.011 ms so. The key is only compared within one bot
    and its workers (one version of this code), so its exact bytes need not match what ``json`` wrote.
    What orjson cannot write (an integer past 64 bits) goes through ``json``."""
    everything = [str(current()), *parts]
    try:
        text = orjson.dumps(everything, default=_plain, option=_DIGEST_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        text = json.dumps(everything, sort_keys=True, default=_plain, separators=(",", ":")).encode()
    return hashlib.blake2b(text, digest_size=16).hexdigest()


_DIGEST_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    return repr(value)


def encode(image: Image.Image, previous: Image.Image | None = None, base: str | None = None) -> Block:
    """``image`` (a palette image) as a GIF block: whole, or the part that changed since ``previous``
    (the frame ``base`` names) with unchanged pixels transparent. Deterministic: the same two frames
    always give the same bytes, live or in a replay."""
    image = _palette_image(image)
    if previous is None or previous.size != image.size:
        return Block(image.size, None, None, _data(image, (0, 0)))
    previous = _palette_image(previous)
    if _palette(previous) == _palette(image):
        delta = ImageChops.subtract_modulo(image, previous)  # palette indices: zero where unchanged
    else:
        # Different palettes (a Horse Race board chooses its own): compared by colour.
        r, g, b = ImageChops.subtract_modulo(image.convert("RGB"), previous.convert("RGB")).split()
        delta = ImageChops.lighter(ImageChops.lighter(r, g), b)
    box = delta.getbbox(alpha_only=False)
    if box is None:  # the same picture again: one pixel, transparent
        pixel = image.crop((0, 0, 1, 1))
        return Block(image.size, base, _index(pixel.getpixel((0, 0))), _data(pixel, (0, 0)))
    crop = image.crop(box)
    changed = delta.crop(box).point([0] + [255] * 255, "L")
    used = crop.histogram(mask=changed)
    table = 2 ** max(1, (len(_palette(image)) // 3 - 1).bit_length())
    free = next((i for i in range(min(table, 256)) if not used[i]), None)
    if free is not None:
        crop.paste(free, mask=ImageChops.invert(changed))
    return Block(image.size, base, free, _data(crop, box[:2]))


def _palette_image(image: Image.Image) -> Image.Image:
    return (
        image if image.mode == "P" else image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    )


def _palette(image: Image.Image) -> bytes:
    return bytes(image.palette.palette) if image.palette is not None else b""


def _index(value: Any) -> int:
    return int(value) if isinstance(value, int) else 0


def _data(image: Image.Image, offset: tuple[int, int]) -> bytes:
    image.encoderconfig = ()  # (a picture saved as a PNG keeps the PNG encoder's settings)
    return b"".join(GifImagePlugin.getdata(image, offset, include_color_table=True))


@dataclass
class _Race:
    blocks: dict[str, Block] = dataclasses.field(default_factory=dict)
    last: tuple[str, bytes] | None = None  # the digest and PNG of the race's last picture drawn here
    size: int = 0
    drawn: float = 0.0  # when its last picture was drawn (``KeptFrames.clock``)


class KeptFrames:
    """A process's kept frames, by race (a ``ReplayLog.key``), at most ``limit`` bytes in all."""

    def __init__(self, limit: int = LIMIT, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self.size = 0
        self._races: OrderedDict[str, _Race] = OrderedDict()  # in the order they were admitted
        self._dropped: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()  # without workers, pictures are drawn in several threads

    def __len__(self) -> int:
        return len(self._races)

    def keep(self, race: str, key: str, image: Image.Image, png: bytes | None = None) -> None:
        """Keep ``image``, the frame ``key`` of ``race``, as a block against the race's previous picture
        drawn here; ``png`` is the same picture as a PNG (the live picture's: the next frame's block is
        made against it, and it is smaller to hold than the pixels)."""
        with self._lock:
            self._keep(race, key, image, png)

    def _keep(self, race: str, key: str, image: Image.Image, png: bytes | None) -> None:
        if race in self._dropped:
            return
        now = self.clock()
        entry = self._races.get(race)
        if entry is None:
            if self.size >= self.limit and not self._drop_stale(now):
                self._drop(race)  # full: not admitted
                return
            entry = self._races[race] = _Race()
        entry.drawn = now
        image = _palette_image(image)
        if entry.last is not None and entry.last[0] == key:
            return  # drawn again (a message posted anew): kept already
        if key not in entry.blocks:
            previous, base = (
                (_restored(entry.last), entry.last[0]) if entry.last is not None else (None, None)
            )
            block = encode(image, previous, base)
            entry.blocks[key] = block
            self._grow(entry, len(block.data) + 200)
        before = len(entry.last[1]) if entry.last is not None else 0
        entry.last = (key, png if png is not None else _png(image))
        self._grow(entry, len(entry.last[1]) - before)
        while self.size > self.limit and self._races:
            if not self._drop_stale(now):
                self._drop(next(reversed(self._races)))  # the race admitted last

    def take(self, race: str) -> dict[str, Block]:
        """``race``'s blocks (its replay is being made), forgotten here; a picture of the race drawn after
        this (a board drawn after its replay began) is not kept, as for a dropped race."""
        with self._lock:
            entry = self._races.get(race)
            self._drop(race)
            return entry.blocks if entry is not None else {}

    def _grow(self, entry: _Race, by: int) -> None:
        entry.size += by
        self.size += by

    def _drop_stale(self, now: float) -> bool:
        """Drop the race nobody drew for the longest if that is over ``STALE`` seconds; whether one was."""
        race, entry = min(self._races.items(), key=lambda item: item[1].drawn, default=(None, None))
        if race is None or entry is None or now - entry.drawn < STALE:
            return False
        self._drop(race)
        return True

    def _drop(self, race: str) -> None:
        entry = self._races.pop(race, None)
        if entry is not None:
            self.size -= entry.size
        self._dropped[race] = None
        while len(self._dropped) > DROPPED:
            self._dropped.popitem(last=False)


def _restored(last: tuple[str, bytes]) -> Image.Image:
    image = Image.open(io.BytesIO(last[1]))
    image.load()
    return image


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


kept = KeptFrames()
"""This process's kept frames (a picture worker's; the bot's own when pictures are drawn in threads)."""


def keep(race: str | None, key: Callable[[], str], image: Image.Image, png: bytes | None = None) -> None:
    """Keep a live picture (and its ``png``) for ``race``'s replay (``race`` None: a picture no replay will
    use; ``key`` gives its digest). Ruling: a block that cannot be kept is logged and left out (its replay draws
    the frame); the live picture goes out regardless."""
    if race is None:
        return
    try:
        kept.keep(race, key(), image, png)
    except Exception:
        log.exception("Could not keep a frame of race %s for its replay", race)


def held(race: str) -> int:
    """How many frames are kept here for ``race`` (for tests and benches)."""
    entry = kept._races.get(race)
    return len(entry.blocks) if entry is not None else 0


def take(race: str) -> dict[str, Block]:
    """The blocks kept here for ``race`` (run in a picture worker: ``bot.workers.replay``)."""
    return kept.take(race)
