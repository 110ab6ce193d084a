"""Small wording helpers shared by the messages and pictures."""


def count(n: int, noun: str) -> str:
    """Counts as people write them ("1 game", "3 games"), not "1 games"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
