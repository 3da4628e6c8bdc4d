"""Structured messages (:class:`porphyra.core.messages.Message`: an id plus arguments) in a
reader's language, rendered at the edge (the server per client, the terminal; the pages
do the same in ``static/i18n.js``, ``I18N.message``).

The message's id is looked up in the catalogue under its context (``error`` for refusals,
``log`` for the games' log lines), and each argument is rendered in turn: a
:class:`~porphyra.core.messages.Term` with the ``term`` context (card names, card types,
colours), a :class:`~porphyra.core.messages.Named` lord or Location by its name (in
English too), a nested message the same way as the outer one, a
:class:`~porphyra.core.messages.Joined` list with the language's separator, plain text
and numbers as they are (notation and the player's own input are never translated).
Nothing is matched against English text, so a message that echoes any input, of any
length, is translated whole.

Korean particle markers (``이(가)``) are left in the text: they are resolved once the text
is final, after its seats are renumbered or named (:func:`porphyra.i18n.korean.particles`,
called by the terminal's ``people`` and by the pages).
"""

from __future__ import annotations

from porphyra.core.errors import PorphyraError
from porphyra.core.messages import Arg, Joined, Message, Named, Term
from porphyra.i18n import DEFAULT, has, pgettext
from porphyra.i18n.names import name_of

#: Each language's list separators, for the English ones (others are kept).
_LIST_JOIN: dict[str, dict[str, str]] = {"ja": {", ": "、", "; ": "；"}}


def render_arg(arg: Arg, lang: str, context: str = "error") -> str:
    """One message argument in ``lang`` (see the module's rules)."""
    if isinstance(arg, Message):
        return render(arg, lang, context)
    if isinstance(arg, Term):
        if lang != DEFAULT and has(lang, "term", arg.term):
            return pgettext(lang, "term", arg.term)
        return str(arg)
    if isinstance(arg, Named):
        return name_of(arg.id, lang) or arg.id
    if isinstance(arg, Joined):
        sep = _LIST_JOIN.get(lang, {}).get(arg.sep, arg.sep)
        return sep.join(render_arg(item, lang, context) for item in arg.items)
    return str(arg)


def render(message: Message, lang: str, context: str = "error") -> str:
    """``message`` in ``lang``: its template from the catalogue's ``context`` (the English
    template where the catalogue lacks it) filled with its rendered arguments; English is
    ``str(message)`` with each :class:`~porphyra.core.messages.Named` id named (``Red
    4``, ``Grand Estate``), and a translation that does not format falls back to
    ``str(message)`` (never an error: ``tests/i18n/test_messages.py`` formats every
    template)."""
    template = message.msgid
    if lang != DEFAULT and has(lang, context, template):
        template = pgettext(lang, context, template)
    if not message.args:
        return template
    try:
        return template.format(*(render_arg(arg, lang, context) for arg in message.args))
    except (IndexError, KeyError, ValueError):  # a broken translation: say it in English
        return str(message)


def error_message(error: PorphyraError | Message | str, lang: str) -> str:
    """A refusal in ``lang``: an engine's error or a :class:`Message` from its id and
    arguments; a plain English text (a message that is not structured yet) looked up
    whole in the ``error`` context, else matched against its templates
    (:func:`porphyra.i18n.log.translate_error`)."""
    if isinstance(error, PorphyraError):
        error = error.message
    if isinstance(error, Message):
        if error.args or has(lang, "error", error.msgid):
            return render(error, lang)
        error = error.msgid
    from porphyra.i18n.log import translate_error

    return translate_error(error, lang)
