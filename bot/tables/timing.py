"""How long the bot waits for people and how fast it talks; tests shrink these."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    turn_seconds: float = 90.0  # one player's turn (a bet, a roll)
    phase_seconds: float = 150.0  # a simultaneous phase (secret picks, doubles)
    lobby_seconds: float = 15 * 60.0  # an unstarted lobby closes after this
    default_pace: float = 2.5  # seconds between flipped cards / rolls
    # The least pace of a game with no person seated (all left, the AI plays on): at pace 0 such games
    # took most of the bot's request budget (issue 26, point 10). Its one request a card costs 1/s.
    ai_only_pace: float = 1.0
    countdown_seconds: float = 1.0  # per step of the "3, 2, 1" before a race
    storage_retry_seconds: float = 5.0  # a failed save is retried this often
    # A request that failed in transit (dropped connection, timeout, 5xx) is retried after this, doubling.
    send_retry_seconds: float = 1.0
    send_attempts: int = 6  # then the message is given up (logged); the game goes on
    # A game whose channel refuses the bot (a permission taken away: 50013, 50001) pauses; the bot looks
    # again this often, and closes the game if the permission is not back after the wait.
    permission_retry_seconds: float = 30.0
    permission_wait_seconds: float = 10 * 60.0
    request_timeout: float = 30.0  # a request with no answer by then is retried (its nonce makes it safe)
    # A deadline that passed while the bot was down: the late players get this long, said in the channel.
    resume_grace_seconds: float = 45.0
    startup_wait: float = 2.0  # a command before the stored games are back waits this long, then is told
    stale_after_seconds: float = 24 * 3600.0  # a stored game idle longer than this is closed at start
    # How long a write waits for another program's lock on the database before the click is refused.
    storage_busy_timeout: float = 5.0
    # Discord allows about 5 messages per 5 s in a channel; we stay at or under it.
    channel_burst: int = 5
    channel_window: float = 5.0
    # Several processes on one database (bot/tables/lease.py): a game's lease lasts this long, is renewed
    # this often, and a crashed process's games are taken over once their lease ran out.
    lease_seconds: float = 20.0
    lease_renew_seconds: float = 5.0
    # The per-user rate limit's window (bot.rate_limit) when set: the tests shrink it with the channel's
    # (None: USER_RATE_LIMIT's seconds, 5 by default).
    user_window: float | None = None
