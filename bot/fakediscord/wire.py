"""JSON on the fake's wire: orjson (the bot's own dependency, which discord.py also uses when it is
installed), so the fake's share of the CPU in a load bench (``bench/bench_load.py`` runs it on the
bot's cores) goes to the bot rather than to encoding. Compact output; keys that are not strings are
written as strings, as the standard library does."""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(data: Any) -> str:
    return orjson.dumps(data, option=_OPTIONS).decode()


def dump_bytes(data: Any) -> bytes:
    return orjson.dumps(data, option=_OPTIONS)


loads = orjson.loads
