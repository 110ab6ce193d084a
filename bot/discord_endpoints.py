"""Point discord.py at other Discord endpoints: a REST proxy, a gateway proxy, or the test fake.

discord.py keeps both addresses as class attributes, so one call switches the whole process:

- REST: every request (bot routes, interaction callbacks, followup webhooks) builds its URL from
  ``discord.http.Route.BASE`` when the ``Route`` is created.
- Gateway: a plain ``Client``/``commands.Bot`` connects to ``DiscordWebSocket.DEFAULT_GATEWAY`` without asking
  ``GET /gateway/bot``. After READY it reconnects to the ``resume_gateway_url`` the gateway itself sent, which
  is what a proxy or the fake should hand out anyway. (An ``AutoShardedClient`` without ``shard_count`` takes
  its URL from ``GET /gateway/bot`` on the REST base instead; that answer comes from whatever serves the REST
  base, so it needs nothing here.)

``None`` restores Discord's own address, so tests can undo what they set.
"""

from __future__ import annotations

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Send discord.py's REST calls to ``api_base`` and its gateway connection to ``gateway_url``.

    ``api_base`` includes the version, like Discord's own ``https://discord.com/api/v10``.
    """
    Route.BASE = (api_base or DISCORD_API_BASE).rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url or DISCORD_GATEWAY_URL)
