"""Terminal rendering of Byzantium (rules: ``shared/rules/byzantium.md``).

Everything is drawn from an observation dict: turn, age, phase, Emperor, Territory (TT) and
Legacy (LT), the viewing seat's hand with each card's type, force, ages and flags, the
revealed melds and negotiation, the discard piles and removed cards.  Input helpers let a
player name hand cards by their number in the hand table or by a unique prefix of their
slug (``meld 1 3 4``, ``redraw inf chron``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from porphyra.cli.byzantium_cards import (
    DECK_STYLE,
    ages_text,
    card_label,
    card_notes,
    card_tables,
)
from porphyra.cli.byzantium_input import expand_card_input
from porphyra.cli.lang import seat_label, styled, term, tr, trn
from porphyra.cli.views import GameView, Obs
from porphyra.core.game import Action, Game, State
from porphyra.games.byzantium.rules import COLLAPSE_PENALTY
from porphyra.i18n import N_

AGE_LABEL = {"early": "Early", "middle": "Middle", "late": "Late"}
#: A card's Age letter (card data) as the word shown for it (a term).
PHASE_LABEL = {
    "redraw": N_("Redraw"),
    "meld": N_("Meld"),
    "target": N_("Negotiation: target"),
    "replace": N_("Negotiation: replacement"),
    "pass": N_("End: pass a card"),
    "over": N_("Game over"),
}
MAX_TT = 20
#: The engine's public log line of a collapse (``turn.collapse_empire``): how many LT the
#: Emperor lost, which is 3 or all it had (B-R6).
COLLAPSE_LINE = re.compile(r"^The Empire collapses \(TT -?\d+\)! .* loses (\d+) LT;")

HINTS = {
    "redraw": N_(
        "Redraw up to 4 cards: 'redraw 2 5' (hand numbers) or 'redraw {a},{b}'; "
        "'redraw -' keeps your hand."
    ),
    "meld": N_("Meld: 'meld 1 3 4' (hand numbers) or 'meld {a},{b}'; 'meld -' melds nothing."),
    "target": N_(
        "Negotiation: 'target <slug>' discards a Northern or Southern Foe card of the Foe "
        "meld; 'target -' declines."
    ),
    "replace": N_(
        "Replace the target: 'replace <slug>' (a Northern or Southern Foe from your hand) or "
        "'replace -'."
    ),
    "pass": N_(
        "End: choose the one card you pass to your opponent ('pass {n}' or 'pass {a}'); "
        "the rest of your hand is discarded."
    ),
}

#: Example cards per role when the hand has too few to show (section 7 of the rules).
EXAMPLES = {"byzantine": ("infantry", "chronicle"), "foe": ("raiders", "earthquake")}

MELD_LIMITS = {
    "byzantine": N_("1 Leader, 2 Recovery, 4 Troop, 1 Negotiation, 2 Legacy"),
    "foe": N_("1 Northern Foe, 1 Southern Foe, 2 Disaster (at most 1 natural), 4 Troop"),
}


def age_title(age: str) -> str:
    """``"Early Age"`` (or ``初期時代``...) for an observation's ``age`` (``"early"``)."""
    title = AGE_LABEL.get(age)
    if title is None:
        return age
    return term(title) if term(title) != title else f"{title} Age"


def _card(game: Game, slug: str) -> Any:
    """The card object of ``slug`` (``game.card``), or ``None`` if unknown."""
    try:
        return getattr(game, "card")(slug)  # noqa: B009 - Game has no card() in its ABC
    except (KeyError, AttributeError):
        return None


def card_name(game: Game, slug: str) -> str:
    """Display name of ``slug`` (the slug itself if the game does not know it)."""
    card = _card(game, slug)
    return term(str(card.name)) if card is not None else slug


def _grouped(action: Action) -> bool:
    """A meld or redraw: one of many card combinations."""
    return str(action).split(" ")[0] in ("meld", "redraw")


def _card_count(action: Action) -> int:
    """How many cards a meld or redraw names (``-``: none)."""
    arg = str(action).partition(" ")[2]
    return 0 if arg in ("", "-") else len(arg.split(","))


def _force(game: Game, slug: str) -> int:
    card = _card(game, slug)
    return int(card.force) if card is not None else 0


def _counted(game: Game, slugs: Sequence[str]) -> str:
    """``"Infantry ×3, Tribute"`` in first-seen order."""
    counts = Counter(slugs)
    parts = []
    for slug in dict.fromkeys(slugs):
        n = counts[slug]
        parts.append(card_name(game, slug) + (f" ×{n}" if n > 1 else ""))
    return ", ".join(parts) if parts else "—"


def seat_name(seat: int, obs: Obs, labels: Sequence[str]) -> str:
    """``labels[seat]`` plus "(you)" when ``obs`` is that seat's view."""
    label = labels[seat] if seat < len(labels) else seat_label(seat)
    return label + (tr(" — you") if obs.get("seat") == seat else "")


class ByzantiumView(GameView):
    """Rendering and input helpers for Byzantium."""

    hidden_hands = True

    # ------------------------------------------------------------------ board
    def board(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
        """Header (turn, age, Emperor, TT, LT), the hand if ``obs`` is a seat's view, the
        revealed melds, and the discard piles."""
        parts: list[RenderableType] = [self._header(obs, labels)]
        if "hand" in obs:
            parts.append(self._hand(game, obs))
        parts.append(self._melds(game, obs, labels))
        parts.append(self._piles(game, obs))
        return Group(*parts)

    def _header(self, obs: Obs, labels: Sequence[str]) -> RenderableType:
        emperor = int(obs.get("emperor", 0))
        foe = 1 - emperor
        tt = int(obs.get("territory", 0))
        filled = max(0, min(MAX_TT, tt))
        colour = "green" if tt >= 10 else "yellow" if tt >= 5 else "red"
        bar = f"[{colour}]{'█' * filled}[/][dim]{'░' * (MAX_TT - filled)}[/]"
        lt = obs.get("legacy", [0, 0])
        hands = obs.get("hand_sizes", [0, 0])
        decks = obs.get("deck_sizes", {})
        phase = PHASE_LABEL.get(str(obs.get("phase")))
        lines = [
            styled("bold", "Turn {0}/12", obs.get("turn", "?")) + " · "
            f"[bold]{escape(age_title(str(obs.get('age'))))}[/] · "
            f"{escape(tr(phase) if phase else str(obs.get('phase')))}",
            styled("bold magenta", "Emperor (Byzantine):") + " "
            f"{escape(seat_name(emperor, obs, labels))}"
            "   " + styled("bold red", "Foe:") + f" {escape(seat_name(foe, obs, labels))}",
            f"[bold]TT[/] {bar} {tt}/{MAX_TT}",
            "[bold]LT[/] "
            + "   ".join(f"{escape(seat_name(s, obs, labels))}: {lt[s]}" for s in (0, 1)),
            "[dim]"
            + escape(
                tr(
                    "Hands {0} / {1} cards · draw piles: Byzantine {2}, Foe {3}",
                    hands[0],
                    hands[1],
                    decks.get("byzantine", "?"),
                    decks.get("foe", "?"),
                )
            )
            + "[/]",
        ]
        redrawn = obs.get("redrawn")
        if redrawn:
            each = ", ".join(f"{seat_label(i)} {n}" for i, n in enumerate(redrawn))
            text = tr("Redrawn this turn: {0}", each)
            lines.append(f"[dim]{escape(text)}[/]")
        return Panel("\n".join(lines), title=tr("Byzantium"), box=box.ROUNDED, expand=False)

    def _hand(self, game: Game, obs: Obs) -> RenderableType:
        role = str(obs.get("role", ""))
        title = tr("Your hand ({0})", term(role)) if role else tr("Your hand")
        table = Table(
            title=title,
            box=box.SIMPLE_HEAD,
            title_style=DECK_STYLE.get(role, "bold"),
            pad_edge=False,
        )
        table.add_column("#", justify="right", style="cyan", no_wrap=True)
        table.add_column(tr("card"), overflow="fold")
        table.add_column(tr("type"), no_wrap=True)
        table.add_column(tr("force"), justify="right", no_wrap=True)
        table.add_column(tr("ages"), no_wrap=True)
        table.add_column(tr("notes"), overflow="fold")
        for i, slug in enumerate(obs.get("hand") or []):
            card = _card(game, slug)
            if card is None:
                table.add_row(str(i + 1), escape(slug), "?", "?", "?", "")
                continue
            table.add_row(
                str(i + 1),
                card_label(card),
                term(card.type),
                str(card.force),
                ages_text(card.ages),
                card_notes(card),
            )
        hand = obs.get("hand") or []
        empty = escape(tr("empty"))
        extra = [] if hand else [f"[{DECK_STYLE.get(role, 'bold')}]{escape(title)}:[/] {empty}"]
        pending = obs.get("pending_meld")
        if pending is not None:
            extra.append(escape(tr("Your meld (not yet revealed): {0}", _counted(game, pending))))
        known = obs.get("known_opponent_cards") or []
        if known:
            extra.append(escape(tr("You know your opponent holds: {0}", _counted(game, known))))
        if not hand:  # an empty table is only a header: say it in words
            return Text.from_markup("\n".join(extra))
        if extra:
            return Group(table, Text.from_markup("\n".join(extra)))
        return table

    def _meld_line(self, game: Game, slugs: Sequence[str]) -> str:
        if not slugs:
            return "—"
        total = sum(_force(game, s) for s in slugs)
        cards = ", ".join(f"{card_name(game, s)} ({_force(game, s)})" for s in slugs)
        return f"{escape(cards)} = [bold]{total}[/]"

    def _melds(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
        melds = obs.get("melds") or {}
        lines = [
            f"[bold magenta]{escape(term('Byzantine'))}[/]: "
            f"{self._meld_line(game, melds.get('byzantine', []))}",
            f"[bold red]{escape(term('Foe'))}[/]:       "
            f"{self._meld_line(game, melds.get('foe', []))}",
        ]
        negotiation = obs.get("negotiation")
        if negotiation:
            target, repl = negotiation.get("target"), negotiation.get("replacement")
            phase = obs.get("phase")
            if phase == "target":
                text = tr("the Emperor may now discard a Northern or Southern Foe card")
            elif target is None:
                text = tr("no target")
            else:
                text = tr("target {0}, ", card_name(game, target)) + (
                    tr("the Foe may now replace it")
                    if phase == "replace"
                    else tr("no replacement")
                    if repl is None
                    else tr("replaced by {0}", card_name(game, repl))
                )
            lines.append(f"[bold]{escape(term('Negotiation'))}[/]: {escape(text)}")
        return Panel("\n".join(lines), title=tr("Last revealed melds"), expand=False)

    def _piles(self, game: Game, obs: Obs) -> RenderableType:
        discards = obs.get("discards") or {}
        removed = obs.get("removed") or []
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for deck in ("byzantine", "foe"):
            pile = discards.get(deck, [])
            table.add_row(
                styled(DECK_STYLE[deck], "{0} discard ({1})", term(deck), len(pile)),
                escape(_counted(game, pile)),
            )
        table.add_row(escape(tr("Removed ({0})", len(removed))), escape(_counted(game, removed)))
        return table

    # ------------------------------------------------------------------ text
    def status(self, game: Game, obs: Obs) -> str:
        """``Turn 3 Early · Emperor Seat 1 · TT 11 · LT 9-11`` (people count seats from 1)."""
        lt = obs.get("legacy", [0, 0])
        age = AGE_LABEL.get(str(obs.get("age")), str(obs.get("age")))
        return tr(
            "Turn {0} {1} · Emperor {2} · TT {3} · LT {4}-{5}",
            obs.get("turn"),
            term(age),
            seat_label(int(obs.get("emperor") or 0)),
            obs.get("territory"),
            lt[0],
            lt[1],
        )

    def hint(self, game: Game, obs: Obs) -> str:
        """What to type in the current phase."""
        phase = str(obs.get("phase"))
        hand = list(dict.fromkeys(obs.get("hand") or []))
        a, b = (hand + list(EXAMPLES.get(str(obs.get("role")), EXAMPLES["byzantine"])))[:2]
        if a == b:
            b = EXAMPLES["byzantine"][1]
        # A hand number the hand has (the End phase's hand may hold a single card).
        n = min(3, len(obs.get("hand") or [])) or 1
        hint = HINTS.get(phase)
        text = tr(hint).format(a=a, b=b, n=n) if hint else super().hint(game, obs)
        if phase == "meld":
            limits = MELD_LIMITS.get(str(obs.get("role")))
            text += "  " + tr("Limits: {0}.", tr(limits) if limits else tr("see the rules"))
        return text

    def replay_text(self, player: int, action: str, seat: int | None) -> str:
        """The End-phase pass is private between passer and receiver (rules section 4):
        others read "passes a card"."""
        if action.startswith("pass ") and seat not in (player, 1 - player):
            return tr("passes a card to {0}", seat_label(1 - player))
        return action

    def order_actions(self, actions: list[Action], obs: Obs) -> list[Action]:
        """Melds and redraws by number of cards (the full menu groups them so)."""
        return sorted(actions, key=lambda a: _card_count(a) if _grouped(a) else 0)

    def menu_groups(
        self, game: Game, actions: Sequence[Action], obs: Obs
    ) -> list[tuple[str, list[int]]]:
        """Melds and redraws grouped by number of cards (a Meld phase has hundreds of
        combinations); other decisions in one group."""
        if not actions or not _grouped(actions[0]):
            return super().menu_groups(game, actions, obs)
        verb = str(actions[0]).split(" ")[0]
        groups: dict[int, list[int]] = {}
        for i, action in enumerate(actions):
            groups.setdefault(_card_count(action), []).append(i)
        out = []
        for count, positions in sorted(groups.items()):
            if verb == "meld":
                what = (
                    tr("meld nothing")
                    if count == 0
                    else trn("meld {0} card", "meld {0} cards", count, count)
                )
            else:
                what = (
                    tr("redraw nothing")
                    if count == 0
                    else trn("redraw {0} card", "redraw {0} cards", count, count)
                )
            choices = trn(
                "{0} — {1} choice", "{0} — {1} choices", len(positions), what, len(positions)
            )
            out.append((choices, positions))
        return out

    def secret_choice(self, obs: Obs) -> bool:
        """Redraw, meld and pass are chosen by both players at once, in secret (B-R3)."""
        return str(obs.get("phase")) in ("redraw", "meld", "pass")

    def menu_label(self, game: Game, action: Action, obs: Obs) -> str:
        """A meld with its total force: ``meld cavalry,archers  (force 7)``."""
        text = str(action)
        verb, _, arg = str(action).partition(" ")
        if verb == "meld" and arg != "-":
            text += "  " + tr("(force {0})", sum(_force(game, s) for s in arg.split(",")))
        return text

    def move_words(self, game: Game, action: str) -> str:
        """The move with its cards named and counted: ``redraw Raiders ×2, Famine``
        (``—``: no card)."""
        verb, _, arg = action.partition(" ")
        if not arg:
            return action
        return f"{verb} {_counted(game, [] if arg == '-' else arg.split(','))}"

    def expand_input(self, text: str, obs: Obs) -> str:
        """Typed cards read as slugs: :func:`~porphyra.cli.byzantium_input.expand_card_input`
        (its errors: ``InvalidActionError``)."""
        return expand_card_input(text, obs)

    # ------------------------------------------------------------------ results
    def result(self, game: Game, state: State, labels: Sequence[str]) -> RenderableType:
        """Final LT per seat, the winner, and whether the Empire collapsed."""
        obs = state.public_observation()
        res: dict[str, Any] = obs.get("result") or {}
        returns = res.get("returns", state.returns())
        legacy: list[int] = res["legacy"] if "legacy" in res else obs["legacy"]
        table = Table(title=tr("Result"), box=box.ROUNDED)
        table.add_column(tr("seat"), overflow="fold")
        table.add_column(tr("final LT"), justify="right")
        table.add_column(tr("result"))
        for seat in (0, 1):
            r = returns[seat]
            verdict = (
                styled("green", "wins")
                if r > 0
                else styled("red", "loses")
                if r < 0
                else escape(tr("draw"))
            )
            table.add_row(escape(labels[seat]), str(legacy[seat]), verdict)
        if res.get("collapse"):
            note = tr(
                "The Empire collapsed (TT {0}) on turn {1}: the Emperor lost {2} LT.",
                res.get("territory"),
                res.get("turn", obs.get("turn")),
                collapse_penalty(obs.get("log") or []),
            )
        else:
            note = tr("Twelve turns played; the Empire holds {0} TT.", obs.get("territory"))
        return Group(table, Text(note, style="bold"))

    def game_stats(self, state: State) -> Obs:
        """``collapse`` (bool), final ``legacy`` per seat, final ``territory``."""
        obs = state.public_observation()
        res: dict[str, Any] = obs.get("result") or {}
        return {
            "collapse": bool(res.get("collapse", False)),
            "legacy": list(res["legacy"] if "legacy" in res else obs["legacy"]),
            "territory": int(res["territory"] if "territory" in res else obs["territory"]),
        }

    def summarize(self, stats: Sequence[Obs], players: int) -> Obs:
        """``collapses``, ``mean_final_lt`` (per seat), ``mean_final_tt``."""
        n = max(1, len(stats))
        return {
            "collapses": sum(1 for s in stats if s["collapse"]),
            "mean_final_lt": [round(sum(s["legacy"][p] for s in stats) / n, 3) for p in (0, 1)],
            "mean_final_tt": round(sum(s["territory"] for s in stats) / n, 3),
        }

    def summary_tables(self, summary: Obs, labels: Sequence[str]) -> list[RenderableType]:
        """Collapses, mean final LT per seat and mean final TT."""
        table = Table(title=tr("Byzantium statistics"), box=box.SIMPLE_HEAD)
        table.add_column(tr("measure"))
        table.add_column(tr("value"), justify="right")
        games = summary["games"]
        table.add_row(
            tr("collapses (TT ≤ 0)"),
            f"{summary['collapses']} ({100 * summary['collapses'] / games:.1f}%)",
        )
        for seat, label in enumerate(labels):
            table.add_row(tr("mean final LT, {0}", label), f"{summary['mean_final_lt'][seat]:.2f}")
        table.add_row(tr("mean final TT"), f"{summary['mean_final_tt']:.2f}")
        return [table]

    # ------------------------------------------------------------------ cards
    def cards(self, game: Game) -> list[RenderableType]:
        """The card list (:func:`porphyra.cli.byzantium_cards.card_tables`)."""
        return card_tables(game)


def collapse_penalty(log: Sequence[str]) -> int:
    """How many Legacy Tokens the Emperor lost to the collapse, read from the public
    ``log`` (English lines, as the engine writes them).

    B-R6: the penalty is 3 LT, or all the Emperor has if that is fewer, so the final LT
    alone does not tell it.

    Returns:
        The LT lost; the rule's full penalty (:data:`COLLAPSE_PENALTY`) if no collapse
        line is in ``log``.
    """
    for line in reversed(log):
        found = COLLAPSE_LINE.match(line)
        if found:
            return int(found.group(1))
    return COLLAPSE_PENALTY
