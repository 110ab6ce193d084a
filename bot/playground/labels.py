"""The page's own words (the chat client's, not the bot's): in the playground's language, through the
bot's catalogs like every other message a person reads. The command line and the logs stay English."""

from __future__ import annotations

from bot.i18n import N_, _, speaking
from bot.i18n.languages import from_locale

LABELS = {
    "you_are": N_("You are"),
    "channels": N_("Channels"),
    "direct_messages": N_("Direct messages"),
    "command_placeholder": N_("Type / for a command"),
    "send": N_("Send"),
    "only_you": N_("Only you can see this"),
    "used": N_("used"),
    "bot_tag": N_("APP"),
    "edited": N_("(edited)"),
    "choose": N_("Choose"),
    "cancel": N_("Cancel"),
    "submit": N_("Submit"),
    "nothing_yet": N_("No messages here yet."),
    "offline": N_("Reconnecting..."),
}


def labels(locale: str) -> dict[str, str]:
    """Every label of the page, in the language of ``locale`` (a Discord locale such as ``pt-BR``)."""
    with speaking(from_locale(locale)):
        return {key: _(text) for key, text in LABELS.items()}
