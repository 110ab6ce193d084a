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
    ai_only_pace=0.0,  # games the AI plays alone run as fast as the others here
    countdown_seconds=0.0,
    channel_burst=5,
    channel_window=0.25,
    # The per-user rate limit (8 actions in 5 s) in 1 ms: the tests click as fast as the bot answers, far
    # beyond any scaled human pace; its own test (test_rate_limit.py) uses the real 5 s. (In 20 ms, nine
    # quick commands in a row, each a couple of milliseconds there and back, were once refused in CI.)
    user_window=0.001,
    storage_retry_seconds=0.05,
    send_retry_seconds=0.02,
    request_timeout=2.0,
    resume_grace_seconds=0.5,
)

# The kill-and-restart test plays whole games on deadlines alone: short ones.
# Leases short too: a killed process's games are taken over about a second later.
RESTART = dataclasses.replace(
    FAST,
    turn_seconds=0.15,
    phase_seconds=0.15,
    resume_grace_seconds=0.15,
    lease_seconds=1.0,
    lease_renew_seconds=0.2,
)

# Two shard processes (test_shards.py): secret picks wait a few seconds, long enough for a player's DM
# click to be passed from the shard-0 process to the game's owner; public turns stay short.
SHARDS = dataclasses.replace(RESTART, phase_seconds=5.0)
