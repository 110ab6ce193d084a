"""Fast timings for the bot under test (no pytest here: the restart test's bot process imports it)."""

import dataclasses

from bot.tables.timing import Timing

# Discord's 5 messages per 5 s, scaled down by 20 on both sides: the pacer's logic is the same,
# and the fake flags any burst beyond it, so games run fast and the limit is still checked.
FAST = Timing(
    turn_seconds=20.0,
    phase_seconds=20.0,
    lobby_seconds=600.0,
    default_pace=0.0,
    countdown_seconds=0.0,
    channel_burst=5,
    channel_window=0.25,
    storage_retry_seconds=0.05,
    send_retry_seconds=0.02,
    request_timeout=2.0,
    resume_grace_seconds=0.5,
)

# The kill-and-restart test plays whole games on deadlines alone: short ones.
RESTART = dataclasses.replace(FAST, turn_seconds=0.15, phase_seconds=0.15, resume_grace_seconds=0.15)
