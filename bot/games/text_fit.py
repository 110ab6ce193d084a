"""Fitting words into a picture, shared by every game's renderer."""

from PIL import ImageFont


def wrap_text(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` pixels (a word longer than that keeps its line)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and font.getlength(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def fit_text(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"
