"""Where the project's files live, resolved from this checkout (the bot runs from its source tree)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
FONTS = ASSETS / "fonts"
FONT_REGULAR = FONTS / "DejaVuSans.ttf"
FONT_BOLD = FONTS / "DejaVuSans-Bold.ttf"
