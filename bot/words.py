"""Small wording helpers shared by the messages and pictures."""


def count(n: int, noun: str) -> str:
    """Counts as English writes them ("1 game", "3 games"). English only: a message a player reads
    counts with ``bot.i18n._n`` instead (its plural forms are the language's); kept for callers not yet
    converted."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
