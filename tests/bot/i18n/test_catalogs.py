"""Every message the bot shows has a pt-BR translation with the English's placeholders, area by area;
and a command name Discord would refuse never reaches Discord."""

from __future__ import annotations

import gettext
from functools import cache

import pytest
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import commands
from bot.i18n.tool import Report, check, everything, game_kinds

AREAS = ("common", "commands", "hotstreak", "horserace", "downforce")


@cache
def _report() -> Report:
    return check("pt-BR", everything())


@pytest.mark.parametrize("area", AREAS)
def test_every_message_has_a_portuguese_translation_with_the_same_placeholders(area: str) -> None:
    report = _report()
    games = game_kinds()
    missing = sorted(repr(item.key[1]) for item in report.missing if item.area(games) == area)
    problems = [p for p in report.problems if p.startswith(f"{area}.po:")]
    assert not missing, f"{area}: {len(missing)} messages have no pt-BR translation:\n" + "\n".join(missing)
    assert not problems, f"{area}: translations the catalogs refuse:\n" + "\n".join(problems)


def test_every_catalog_problem_belongs_to_an_area() -> None:
    """A problem no area claims (an unreadable file, a plural mismatch) would pass unnoticed above."""
    assert [p for p in _report().problems if not p.startswith(tuple(f"{a}.po:" for a in AREAS))] == []


class _Catalog(gettext.NullTranslations):
    def __init__(self, names: dict[str, str]) -> None:
        super().__init__()
        self.names = names

    def pgettext(self, context: str, message: str) -> str:
        return self.names.get(message, message)


@pytest.mark.parametrize(
    ("translated", "sent"),
    [
        ("iniciar", "iniciar"),
        ("estatísticas", "estatísticas"),  # a letter with an accent is a letter
        ("Iniciar", None),  # Discord refuses upper case
        ("iniciar jogo", None),  # and spaces
        ("a" * 33, None),  # and more than 32 characters
        ("start", None),  # no translation: Discord shows the English
    ],
)
def test_a_command_name_discord_would_refuse_is_left_out(
    monkeypatch: pytest.MonkeyPatch, translated: str, sent: str | None
) -> None:
    monkeypatch.setattr(commands, "translations", lambda language: _Catalog({"start": translated}))
    assert commands.translate("start", Where.command_name, "pt-BR") == sent
    assert commands.translate("start", Where.parameter_name, "pt-BR") == sent


def test_a_description_over_discords_100_characters_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        commands, "translations", lambda language: _Catalog({"Start": "x" * 101, "Go": "Vai"})
    )
    assert commands.translate("Start", Where.command_description, "pt-BR") is None
    assert commands.translate("Go", Where.command_description, "pt-BR") == "Vai"


def test_a_message_tells_players_the_command_names_their_discord_shows() -> None:
    assert commands.localized_name("start", "en") == "start"
    assert commands.localized_name("start", "pt-BR") == "iniciar"
    assert commands.localized_name("no-such-command", "pt-BR") == "no-such-command"
