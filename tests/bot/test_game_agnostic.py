"""The shared layers never name a game: a new game is its own folders plus one catalog line.

Code only: comments and docstrings may use a game as an example; past storage migrations are
excepted (they translate what old versions stored).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.games.catalog import ENTRIES

ROOT = Path(__file__).resolve().parents[2]
SHARED = [
    *sorted((ROOT / "bot" / "tables").glob("*.py")),
    *sorted(p for p in (ROOT / "bot" / "storage").glob("*.py") if p.name != "migrations.py"),
    ROOT / "bot" / "client.py",
    *sorted((ROOT / "cogs").glob("*.py")),
]
WORDS = ["mascot", "jackpot", "side bet", "side_bet", "sidebet", "horse", "ticket"]
for _entry in ENTRIES:
    WORDS += [_entry.kind, _entry.title.lower(), _entry.command]


def code_words(path: Path) -> list[tuple[int, str]]:
    """Every name and string in the module's code, with its line; docstrings and comments left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append((line, node.value))
        elif isinstance(node, ast.Name):
            found.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((line, node.attr))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append((line, node.name))
        elif isinstance(node, ast.arg):
            found.append((line, node.arg))
        elif isinstance(node, ast.alias):
            found.append((line, node.name))
    return found


def test_no_game_name_or_game_word_in_the_code_of_the_shared_layers() -> None:
    pattern = re.compile("|".join(re.escape(w) for w in WORDS), re.IGNORECASE)
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in SHARED
        for line, text in code_words(path)
        if pattern.search(text)
    ]
    assert offences == []


def test_the_check_sees_code_and_not_comments(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""About the horse."""\n# a jackpot\nx = "mascot"\ndef ticket(): ...\n')
    words = [text for _, text in code_words(sample)]
    assert "mascot" in words and "ticket" in words
    assert not any("horse" in w or "jackpot" in w for w in words)


def test_the_table_layer_does_not_import_the_client() -> None:
    for path in sorted((ROOT / "bot" / "tables").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [
            node.module if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (node.names if isinstance(node, ast.Import) else [None])  # type: ignore[list-item]
        ]
        assert "bot.client" not in imported, path.name
        assert not any((m or "").startswith("cogs") for m in imported), path.name
