"""Messages in the reader's language: placeholders, plurals, numbers, and catalogs checked as they load."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import _, _n, current, in_language, speaking
from bot.i18n.catalogs import load, placeholders
from bot.i18n.formatting import money, number, ordinal, signed
from bot.i18n.languages import from_locale


def test_english_is_the_message_as_written_with_its_placeholders_filled() -> None:
    assert _("{name} wins {amount}", name="Ana", amount=money(1200)) == "Ana wins $1,200"


def test_a_discord_locale_picks_the_language_and_unknown_ones_get_english() -> None:
    assert from_locale("pt-BR") == "pt-BR"
    assert from_locale("en-GB") == "en"
    assert from_locale("ja") == "en"
    assert from_locale(None) == "en"


def test_numbers_and_money_are_written_the_readers_way() -> None:
    assert (number(1200), money(-5), signed(7), ordinal(2)) == ("1,200", "-$5", "+$7", "2nd")
    with speaking("pt-BR"):
        assert number(1200) == "1.200"
        assert ordinal(2) == "2º"
        assert money(1200).endswith("1.200")
    assert current() == "en"  # the language ends with its block


def test_plurals_follow_the_language_rules() -> None:
    assert _n("{n} card", "{n} cards", 1) == "1 card"
    assert _n("{n} card", "{n} cards", 1200) == "1,200 cards"


def test_work_for_later_keeps_the_language_it_was_made_in() -> None:
    with speaking("pt-BR"):
        later = in_language(current(), lambda: number(1200))
    assert later() == "1.200"


def test_placeholders_are_the_names_a_message_fills() -> None:
    assert placeholders("{a} and {b:>3} and {c!r} but not {{d}}") == {"a", "b", "c"}


def _catalog(folder: Path, entries: str) -> None:
    (folder / "area.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        + entries,
        encoding="utf-8",
    )


def test_a_translation_with_other_placeholders_is_dropped_and_named(tmp_path: Path) -> None:
    _catalog(
        tmp_path,
        'msgid "{name} wins"\nmsgstr "{nome} vence"\n\nmsgid "Good luck"\nmsgstr "Boa sorte"\n',
    )
    loaded = load("pt-BR", tmp_path)
    assert loaded.catalog.get("{name} wins") is None
    assert loaded.catalog.get("Good luck").string == "Boa sorte"
    assert loaded.problems == [
        "area.po: '{name} wins': placeholders ['nome'] differ from the English ['name']"
    ]


def test_an_unreadable_catalog_is_one_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "broken.po").write_bytes(b'msgid "x"\nmsgstr \xff\xfe "unterminated\n')
    loaded = load("pt-BR", tmp_path)
    assert len(loaded.catalog) == 0
    assert loaded.problems and loaded.problems[0].startswith("broken.po")


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_every_language_loads_without_problems(language: str) -> None:
    if language == "en":
        return
    assert load(language).problems == []  # type: ignore[arg-type]
