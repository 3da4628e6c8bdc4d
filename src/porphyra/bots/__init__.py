"""Bots: seat fillers that see only a seat's observation (see :mod:`porphyra.bots.base`).

``make_bot(spec, seed)`` builds a bot from a spec ``name`` or ``name:key=value,...``:

========== ===========================================================================
name       bot
========== ===========================================================================
random     uniformly random legal actions (alias ``bot``)
easy       the game's heuristic bot (:mod:`porphyra.bots.heuristic`; a generic flat
           Monte Carlo bot for a game without a heuristic)
heuristic  alias of ``easy``; both take ``style=legacy`` or ``style=territory`` in
           Byzantium (:mod:`porphyra.bots.byzantium_styles`: play styles), or
           ``redraw=pile`` (:mod:`porphyra.bots.byzantium_redraw`: a redraw rule)
greedy     the generic flat Monte Carlo one-ply bot (options: ``samples``)
ismcts     information-set MCTS, 1000 iterations a move (deterministic for a seed)
medium     ISMCTS, 0.5 s a move (not reproducible: time budget)
hard       ISMCTS, 2 s a move (not reproducible: time budget); its ``win_probability``
           gives the terminal client's ``hint``
========== ===========================================================================

ISMCTS options (see :class:`~porphyra.bots.ismcts.ISMCTSBot`): ``iterations`` (int, or
``none``), ``seconds`` (float, or ``none``), ``exploration`` (float), ``rollout``
(``random`` or ``heuristic``), ``depth`` (int, or ``none``), ``evaluation``
(``heuristic`` or ``none``), ``candidates`` (``all`` or ``heuristic``), ``refine``
(``heuristic`` or ``none``), ``anchor_z`` (float), ``simultaneous`` and ``cut``
(``heuristic`` or ``none``), ``early_stop`` and ``paired`` (bool).  Example:
``ismcts:iterations=2000,exploration=0.5``; ``hard:seconds=none,iterations=5000`` makes
``hard`` reproducible.  ``ismcts``, ``medium`` and ``hard`` share the settings of
:data:`ISMCTS_SEARCH` and differ only in budget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from porphyra.bots.base import Bot, SeatView, seat_view
from porphyra.bots.heuristic import EasyBot, GreedyBot, heuristic_for
from porphyra.bots.ismcts import ISMCTSBot
from porphyra.bots.ismcts_settings import ISMCTSSettings, option_types, parse_option
from porphyra.bots.random_bot import RandomBot
from porphyra.bots.search_types import ActionStats, SearchResult
from porphyra.i18n import N_

#: Search settings shared by ``ismcts``, ``medium`` and ``hard``: the tree considers the
#: game's heuristic candidate actions (a few sensible options instead of, in Byzantium,
#: hundreds of melds), determinizations get the game's opponent model, rollouts follow the
#: heuristic policy for ``depth`` actions and are then scored by the game's evaluation, and
#: the heuristic's own move is kept unless another is better by ``anchor_z`` standard errors,
#: and a seat answering a secret it cannot see (Byzantium's B-R3) follows the heuristic.
#: A game without a heuristic module falls back to every legal action, no refinement and
#: uniformly random rollouts played to the end.
ISMCTS_SEARCH = ISMCTSSettings(
    rollout="heuristic",
    depth=8,
    evaluation="heuristic",
    candidates="heuristic",
    refine="heuristic",
    anchor_z=1.0,
    simultaneous="heuristic",
)

#: Budgets of the ISMCTS bots: ``ismcts`` is deterministic (iterations), ``medium`` and
#: ``hard`` are the difficulty names, with time budgets (moves not reproducible).
ISMCTS_PRESETS: dict[str, ISMCTSSettings] = {
    "ismcts": ISMCTS_SEARCH.with_options(iterations=1000),
    "medium": ISMCTS_SEARCH.with_options(seconds=0.5),
    "hard": ISMCTS_SEARCH.with_options(seconds=2.0),
}


def _ismcts_factory(preset: str) -> Callable[..., Bot]:
    def build(seed: int = 0, **options: Any) -> Bot:
        return ISMCTSBot(seed, ISMCTS_PRESETS[preset], name=preset, **options)

    return build


def _greedy(seed: int = 0, **options: Any) -> Bot:
    return GreedyBot(seed, **options)


def _plain(cls: Callable[[int], Bot]) -> Callable[..., Bot]:
    def build(seed: int = 0, **options: Any) -> Bot:
        if options:
            raise ValueError(f"this bot takes no options (got {', '.join(sorted(options))})")
        return cls(seed)

    return build


def _easy(seed: int = 0, **options: Any) -> Bot:
    unknown = set(options) - set(_EASY_OPTIONS)
    if unknown:
        raise ValueError(
            f"easy takes only the options style and redraw (got {', '.join(sorted(unknown))})"
        )
    return EasyBot(seed, style=options.get("style"), redraw=options.get("redraw"))


#: Bot builders by name: ``builder(seed, **options) -> Bot``.
_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": _plain(RandomBot),
    "bot": _plain(RandomBot),
    "easy": _easy,
    "heuristic": _easy,
    "greedy": _greedy,
    "ismcts": _ismcts_factory("ismcts"),
    "medium": _ismcts_factory("medium"),
    "hard": _ismcts_factory("hard"),
}

#: Options of the ``greedy`` bot in specs (the ISMCTS ones come from ``ISMCTSSettings``).
_GREEDY_OPTIONS = ("samples",)
#: Options of the ``easy`` bot in specs: ``style`` (a Byzantium play style, a word) and
#: ``redraw`` (a Byzantium redraw rule, a word).
_EASY_OPTIONS = ("style", "redraw")


#: A description: an English template (``str.format`` fields ``{0}``...; marked with
#: ``N_`` for the catalogues) and its arguments.
Description = tuple[str, tuple[object, ...]]

#: One line per bot name, for ``porphyra bots`` (translated where it is shown).
BOT_DESCRIPTIONS: dict[str, Description] = {
    "random": (N_("uniformly random legal actions"), ()),
    "bot": (N_("same as random"), ()),
    "easy": (
        N_(
            "the game's rules of thumb, at once; "
            "Byzantium play styles: easy:style=legacy rushes Legacy cards, "
            "easy:style=territory fights for Territory; easy:redraw=pile redraws by the "
            "draw pile's known contents"
        ),
        (),
    ),
    "heuristic": (N_("same as easy"), ()),
    "greedy": (N_("one-ply flat Monte Carlo over sampled worlds (options: samples)"), ()),
}


def _budget(preset: str) -> Description:
    """The budget of an ISMCTS preset in words, read from :data:`ISMCTS_PRESETS`."""
    settings = ISMCTS_PRESETS[preset]
    if settings.seconds is not None:
        return N_("information-set MCTS, {0} s a move"), (f"{settings.seconds:g}",)
    return N_("information-set MCTS, {0} iterations a move (reproducible)"), (settings.iterations,)


BOT_DESCRIPTIONS.update({preset: _budget(preset) for preset in ISMCTS_PRESETS})


def _english(template: str, *args: object) -> str:
    return template.format(*args)


def describe_bots(translate: Callable[..., str] = _english) -> list[tuple[str, str]]:
    """``(name, one-line description)`` for every name :func:`make_bot` accepts.

    Args:
        translate: ``translate(template, *args) -> text`` (the terminal's ``tr``);
            default: the English text.
    """
    out = []
    for name in bot_names():
        template, args = BOT_DESCRIPTIONS.get(name, ("", ()))
        out.append((name, translate(template, *args) if template else ""))
    return out


def option_names() -> list[str]:
    """The option keys of bot specs (``name:key=value,...``)."""
    return sorted([*option_types(), *_GREEDY_OPTIONS, *_EASY_OPTIONS])


def bot_names() -> list[str]:
    """Names accepted by :func:`make_bot` (without options)."""
    return sorted(_FACTORIES)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,...`` into the bot name and typed options.

    Returns:
        ``(name, options)``; e.g. ``("ismcts", {"iterations": 2000})``.

    Raises:
        ValueError: unknown bot name, unknown option, or a value of the wrong type.
    """
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in _FACTORIES:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in option_names():
            raise ValueError(
                f"bad option {item!r} in bot spec {spec!r}; options are key=value with keys "
                f"{', '.join(option_names())}"
            )
        try:
            if key in _EASY_OPTIONS:
                options[key] = value.lower()
            elif key not in _GREEDY_OPTIONS:
                options[key] = parse_option(key, value)
            elif not value.isdigit():
                raise ValueError(f"bad value {value!r} for {key}: expected int")
            else:
                options[key] = int(value)
        except ValueError as exc:
            raise ValueError(f"{exc} (in bot spec {spec!r})") from None
    return name, options


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build the bot ``spec`` (a name, or ``name:key=value,...``) seeded with ``seed``.

    Raises:
        ValueError: ``spec`` names no known bot, or has an unknown or invalid option.
    """
    name, options = parse_spec(spec)
    try:
        return _FACTORIES[name](seed, **options)
    except TypeError as exc:
        raise ValueError(f"bot {name!r} does not accept these options: {exc}") from None


def check_bot(spec: str, game: str) -> None:
    """Check that the bot ``spec`` is one that can play the game named ``game``: built
    (:func:`make_bot`), then asked about the game when it takes per-game options (its
    ``check_game``: ISMCTS's ``candidates`` by name, ``easy``'s redraw rule or style), so
    that a command refuses it before the game starts, not at its first move.

    Raises:
        ValueError: ``spec`` names no known bot, has a bad option, or an option that
            ``game`` does not have.
    """
    check = getattr(make_bot(spec), "check_game", None)
    if check is not None:
        check(game)


__all__ = [
    "ISMCTS_PRESETS",
    "ISMCTS_SEARCH",
    "ActionStats",
    "Bot",
    "EasyBot",
    "GreedyBot",
    "ISMCTSBot",
    "ISMCTSSettings",
    "RandomBot",
    "SearchResult",
    "SeatView",
    "bot_names",
    "check_bot",
    "describe_bots",
    "heuristic_for",
    "make_bot",
    "option_names",
    "parse_spec",
    "seat_view",
]
