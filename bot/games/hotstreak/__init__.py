"""Hot Streak (CMYK, 2025): bet on four mascots racing down a mat, three races a game.

Pure engine, no Discord: ``game.HotStreak`` is the match, ``race.Race`` one race on the
mat, ``betting`` the bookie, ``content`` the edition in ``assets/hotstreak``,
``narration.narrate`` one line per event, ``scenario`` a card-by-card test bench.
"""
