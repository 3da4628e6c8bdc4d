"""Terminal rendering of Conspiracy (rules: ``shared/rules/conspiracy.md``).

Each chamber is drawn as the inverted 5-4-3-2-1 pyramid of slots 1-15: a lord shows its
guild colour, its IP and its icon (silver or gold key, pearls, swap, reveal), a Location
lying on a slot is written under the lord it covers, and the coat of arms (◆) marks each
colour's most influential lord.  Below come the discard piles (every card visible), the
face-up Locations, pearls and the Pearl Master, and a live score breakdown computed from
the observation with the engine's own scoring.  Everything in Conspiracy is public except
the deck orders (C-R12), so every seat sees the same table.

Solo (rules section 4): the Legendary Opponent is the observation's second player although
the game has one seat, so its label is added here (:func:`solo_labels`); the board shows
the LO card (conditions in order, bonus, ability), the Replay token, Military's forced draw
and a pending ``lopile`` choice; the LO's face-down Locations show as ``▼slug`` (``▼?``
when never seen) and score 5 IP each plus its card bonus.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from porphyra.cli.conspiracy_cards import card_tables
from porphyra.cli.conspiracy_compact import FitToScreen, compact_board, compact_lo
from porphyra.cli.conspiracy_parts import (
    CATEGORIES,
    COLOURS,
    HINTS,
    STYLE,
    compact_legend,
    legend,
    live_scores,
    lo_card,
    located,
    lord_text,
    numbered_choices,
    pyramid,
    solo_labels,
    solo_status,
    split_lord,
)
from porphyra.cli.lang import language, seat_label, styled, term, tr, trn
from porphyra.cli.views import GameView, Obs, ascii_number
from porphyra.core.errors import InvalidActionError
from porphyra.core.game import Action, Game, State
from porphyra.i18n import N_
from porphyra.i18n.names import location_name, lord_name, name_ids

#: Each phase of a turn in words (the engine names them ``recruit``, ``keep``...).
PHASE_LABEL = {
    "recruit": N_("recruit: draw lords or take a pile"),
    "keep": N_("keep one drawn lord"),
    "place": N_("place lords"),
    "swap": N_("swap two lords"),
    "location": N_("take a Location"),
    "lockeep": N_("keep one drawn Location"),
    "over": N_("Game over"),
    "lopile": N_("the Legendary Opponent's pile"),
    "loplace": N_("the Legendary Opponent places"),
    "replay": N_("play again or keep the token"),
}


def _phase_label(phase: object) -> str:
    """The phase ``phase`` in the terminal's language (itself if unknown)."""
    label = PHASE_LABEL.get(str(phase))
    return tr(label) if label else str(phase)


class ConspiracyView(GameView):
    """Rendering and input helpers for Conspiracy."""

    #: All information is public (C-R12): no pass-the-device screen is needed.
    hidden_hands = False

    def board(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
        """Header, every chamber, the piles and face-up Locations, and the scores (solo:
        the Legendary Opponent's card too); at a terminal too small for it, the compact
        layout of :mod:`porphyra.cli.conspiracy_compact` (a 4-player table in 80x24)."""
        labels = solo_labels(obs, labels)
        scores = live_scores(game, obs)
        chambers = [
            self._chamber(game, obs, seat, labels, scores) for seat in range(len(obs["players"]))
        ]
        lo = [lo_card(obs)] if obs.get("legendary_opponent") else []
        full = Group(
            self._header(obs, labels),
            *lo,
            Columns(chambers),
            Text.from_markup(legend(), style="dim"),
            self._piles(game, obs),
            self._scores(obs, labels, scores),
        )
        header = self._header_lines(obs, labels, compact=True)
        small = [compact_lo(obs)] if lo else []
        return FitToScreen(
            full,
            lambda: compact_board(game, obs, labels, scores, header, small),
            compact_legend(),
        )

    def compact_board(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
        """Header, the deciding seat's own chamber and the piles (same turn, next step)."""
        seat = obs.get("seat", obs.get("current_player"))
        if not isinstance(seat, int) or not 0 <= seat < len(obs["players"]):
            return self.board(game, obs, labels)
        labels = solo_labels(obs, labels)
        if obs.get("legendary_opponent"):
            # Solo: you decide everything, so a new turn (the LO has just played) gets the
            # full board; a choice for the LO shows its chamber.
            if obs.get("phase") == "recruit":
                return self.board(game, obs, labels)
            if obs.get("phase") in ("lopile", "loplace"):
                seat = len(obs["players"]) - 1
        scores = live_scores(game, obs)
        return Group(
            self._header(obs, labels),
            self._chamber(game, obs, seat, labels, scores),
            self._piles(game, obs),
            Text(tr("(type 'board' for every chamber and the scores)"), style="dim"),
        )

    def _header(self, obs: Obs, labels: Sequence[str]) -> RenderableType:
        return Panel(
            "\n".join(self._header_lines(obs, labels)), title=tr("Conspiracy"), expand=False
        )

    def _header_lines(self, obs: Obs, labels: Sequence[str], compact: bool = False) -> list[str]:
        """The header's lines (Rich markup): turn, phase, decks, restrictions, pending;
        ``compact`` (the small-screen board) leaves out what its chambers and Location
        lines show (the Pearl Master, the drawn Locations, the searched deck) and says
        the last round in fewer words."""
        current = obs.get("current_player")
        who = (
            escape(labels[current])
            if isinstance(current, int) and 0 <= current < len(labels)
            else "—"
        )
        pm = obs.get("pearl_master")
        lines = [
            styled("bold", "Turn {0}", obs.get("turn"))
            + " · "
            + escape(tr("phase"))
            + f" [bold]{escape(_phase_label(obs.get('phase')))}[/] · "
            + escape(tr("to act:"))
            + f" [bold]{who}[/]",
            escape(
                tr(
                    "Lord deck {0} · Location deck {1}",
                    obs.get("lord_deck_size"),
                    obs.get("location_deck_size"),
                )
                if compact
                else tr(
                    "Lord deck {0} · Location deck {1} · Pearl Master: {2}",
                    obs.get("lord_deck_size"),
                    obs.get("location_deck_size"),
                    tr("nobody yet") if pm is None else labels[pm],
                )
            ),
        ]
        restriction = obs.get("restriction")
        if restriction and obs.get("legendary_opponent"):
            lines.append(
                f"[yellow]{escape(location_name(restriction['location'], language()))}[/] "
                + escape(
                    tr(
                        "of {0}: no effect, the LO is never restricted (section 4.2)",
                        labels[restriction["owner"]],
                    )
                )
            )
        elif restriction:
            lines.append(
                f"[yellow]{escape(location_name(restriction['location'], language()))}[/] "
                + escape(
                    tr(
                        "of {0}: the others must draw exactly {1}",
                        labels[restriction["owner"]],
                        restriction["count"],
                    )
                )
            )
        if obs.get("end_triggered") and compact:
            lines[-1] += " · " + styled(
                "bold red",
                "Last round: {0} filled their chamber.",
                labels[obs["end_trigger_player"]],
            )
        elif obs.get("end_triggered"):
            lines.append(
                styled("bold red", "Last round:")
                + " "
                + escape(
                    tr(
                        "{0} filled their chamber; every other player has one more turn.",
                        labels[obs["end_trigger_player"]],
                    )
                )
            )
        if obs.get("legendary_opponent"):
            lines.extend(solo_status(obs))
        pending = []
        if obs.get("drawn_lords"):
            # keep N numbers each drawn lord once; a lord drawn twice says so (×2).
            drawn = numbered_choices("keep", obs)
            times: Counter[str] = Counter(obs["drawn_lords"])
            listed = ", ".join(
                f"{i}. {lord_name(n, language())} [{n}]" + (f" ×{times[n]}" if times[n] > 1 else "")
                for i, n in enumerate(drawn, 1)
            )
            pending.append(tr("drawn: {0}", listed))
        if obs.get("to_place"):
            named = ", ".join(f"{lord_name(n, language())} [{n}]" for n in obs["to_place"])
            pending.append(tr("to place: {0}", named))
        if obs.get("drawn_locations") and not compact:
            named = ", ".join(
                f"{location_name(s, language())} [{s}]" for s in obs["drawn_locations"]
            )
            pending.append(tr("drawn Locations: {0}", named))
        if obs.get("location_deck") and not compact:
            named = ", ".join(f"{location_name(s, language())} [{s}]" for s in obs["location_deck"])
            pending.append(tr("Location deck: {0}", named))
        if pending:
            lines.append("[bold]" + escape(" · ".join(pending)) + "[/]")
        return lines

    def _chamber(
        self,
        game: Game,
        obs: Obs,
        seat: int,
        labels: Sequence[str],
        scores: list[dict[str, int]] | None,
    ) -> RenderableType:
        player = obs["players"][seat]
        keys = player.get("unspent_keys") or {}
        facts = [
            "● " + escape(trn("{0} pearl", "{0} pearls", player["pearls"], player["pearls"]))
            if language() != "en"
            else f"● {player['pearls']} pearl{'' if player['pearls'] == 1 else 's'}",
            escape(tr("keys")) + f" {keys.get('silver', 0)}sk {keys.get('gold', 0)}gk",
        ]
        if obs.get("pearl_master") == seat:
            facts.append(styled("bold", "Pearl Master"))
        if player.get("any_keys"):  # a held Location's power, by its name
            facts.append(escape(location_name("any-keys", language())))
        if player.get("deck_search"):
            facts.append(escape(location_name("deck-search", language())))
        body = Group(pyramid(player["chamber"]), Text.from_markup(" · ".join(facts)))
        title = escape(labels[seat]) + (escape(tr(" — you")) if obs.get("seat") == seat else "")
        subtitle = None if scores is None else tr("{0} IP", scores[seat]["total"])
        style = "bold" if obs.get("current_player") == seat else "dim"
        return Panel(body, title=title, subtitle=subtitle, border_style=style, expand=False)

    def _piles(self, game: Game, obs: Obs) -> RenderableType:
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(overflow="fold")
        for colour in COLOURS:
            pile = obs.get("piles", {}).get(colour, [])
            line = Text()
            for name in sorted(pile, key=lambda n: split_lord(n)[1]):
                line.append_text(lord_text(name))
                line.append(" ")
            table.add_row(
                Text(tr("{0} pile ({1})", term(colour), len(pile)), style=STYLE[colour]),
                line or Text("—"),
            )
        for key, title in (
            ("drawn_locations", tr("drawn Locations")),
            ("location_deck", tr("Location deck")),
        ):
            if obs.get(key):  # lockeep / locpick: each one's effect, as for face-up ones
                table.add_row(
                    Text(f"{title} ({len(obs[key])})", style="bold yellow"),
                    Text("; ".join(located(game, s) for s in obs[key])),
                )
        face_up = obs.get("face_up_locations") or []
        table.add_row(
            Text(tr("face-up Locations ({0})", len(face_up)), style="bold"),
            Text(
                "; ".join(located(game, s) for s in face_up) or "—",
            ),
        )
        owned = []
        for seat, player in enumerate(obs["players"]):
            if player["locations"]:
                lo = player.get("legendary_opponent")
                who = tr("LO") if lo else seat_label(seat)
                face = " " + tr("(face down, 5 IP each)") if lo else ""
                named = ", ".join(location_name(s, language()) for s in player["locations"])
                owned.append(f"{who}: " + named + face)
        if owned:
            table.add_row(Text(tr("Locations held"), style="bold"), Text(" · ".join(owned)))
        return table

    def _scores(
        self, obs: Obs, labels: Sequence[str], scores: list[dict[str, int]] | None
    ) -> RenderableType:
        if scores is None:
            return Text("")
        over = obs.get("phase") == "over"
        table = Table(
            title=tr("Final scores") if over else tr("Scores if the game ended now"),
            box=box.SIMPLE_HEAD,
        )
        table.add_column(tr("seat"), overflow="fold")
        solo = any("lo_bonus" in s for s in scores)
        cols = (
            (N_("lords"), N_("Locs"), N_("coal."), N_("Pearl M."), N_("LO bonus"))
            if solo  # one more column: shorter headers keep 80 columns
            else (N_("lords"), N_("Locations"), N_("coalition"), N_("Pearl M."))
        )
        for col in (*cols, N_("total"), N_("pearls")):
            table.add_column(tr(col), justify="right")
        winners = obs.get("winners") or []
        for seat, s in enumerate(scores):
            name = escape(labels[seat]) + (" 🏆" if over and seat in winners else "")
            bonus = [str(s.get("lo_bonus", "—"))] if solo else []
            table.add_row(
                name,
                str(s["lords"]),
                str(s["locations"]),
                str(s["coalition"]),
                str(s["pearl_master"]),
                *bonus,
                f"[bold]{s['total']}[/]",
                str(s["pearls"]),
            )
        return table

    # ------------------------------------------------------------------ text
    def status(self, game: Game, obs: Obs) -> str:
        """``Turn 12 · chambers 4/3/4 · pearls 2/0/3``."""
        filled = "/".join(str(sum(1 for c in p["chamber"] if c)) for p in obs["players"])
        pearls = "/".join(str(p["pearls"]) for p in obs["players"])
        return tr("Turn {0} · chambers {1} · pearls {2}", obs.get("turn"), filled, pearls)

    def legend(self) -> str | None:
        """The compact board's key (colour initials and icons), for ``help``."""
        return compact_legend()

    def hint(self, game: Game, obs: Obs) -> str:
        """What to type in the current phase."""
        hint = HINTS.get(str(obs.get("phase")))
        return tr(hint) if hint else super().hint(game, obs)

    def order_actions(self, actions: list[Action], obs: Obs) -> list[Action]:
        """``keep``, ``place``, ``lockeep`` and ``loplace`` menus follow the order of the
        drawn cards (the pile), so menu entry N is what ``keep N`` names."""
        phase = str(obs.get("phase"))
        choices = numbered_choices(phase, obs)
        if not choices:
            return actions

        def position(action: Action) -> int:
            verb, _, arg = str(action).partition(" ")
            return choices.index(arg) if verb == phase and arg in choices else len(choices)

        return sorted(actions, key=position)

    def menu_label(self, game: Game, action: Action, obs: Obs) -> str:
        """A move with its lords and Locations named in the terminal's language, and the
        notation the player may type beside it: ``keep Purple 4  [keep purple4]``."""
        text = str(action)
        named = name_ids(text, language())
        return text if named == text else f"{named}  [{text}]"

    def move_words(self, game: Game, action: str) -> str:
        """The move with its lords, Locations and colours named (``keep Purple 4``,
        ``take Blue``; ``—``: no swap)."""
        verb, _, arg = action.partition(" ")
        if arg == "-":
            return f"{verb} —"
        if verb == "take" and arg in COLOURS:
            return f"{verb} {term(arg)}"
        return name_ids(action, language())

    def expand_input(self, text: str, obs: Obs) -> str:
        """``keep 2`` → the 2nd drawn lord; ``take r`` / ``loctake cou-r`` → the one
        colour or Location the prefix names; unchanged if nothing matches exactly once.

        Raises:
            InvalidActionError: a misspelt choice close to exactly one of the choices
                (``keep purpel3`` when ``purple3`` was drawn): it names that one.
        """
        words = text.lower().split()
        if len(words) != 2:
            return text
        verb, arg = words
        choices: list[str] = numbered_choices(verb, obs) or {
            "take": list(COLOURS),
            "loctake": list(obs.get("face_up_locations") or []),
            "locpick": list(obs.get("location_deck") or []),
            "lopile": list((obs.get("lo_choice") or {}).get("piles") or []),
        }.get(verb, [])
        if not choices:
            return text
        i = ascii_number(arg)
        if i is not None and verb in ("keep", "place", "lockeep", "loplace"):
            return f"{verb} {choices[i - 1]}" if 1 <= i <= len(choices) else text
        matches = sorted({c for c in choices if c.startswith(arg)})
        if len(matches) == 1:
            return f"{verb} {matches[0]}"
        if not matches and i is None:
            close = difflib.get_close_matches(arg, sorted(set(choices)), n=2, cutoff=0.6)
            if len(close) == 1:
                raise InvalidActionError(
                    tr("{0!r} is none of your choices here; did you mean {1}?", arg, close[0])
                )
        return text

    # ------------------------------------------------------------------ results
    def result(self, game: Game, state: State, labels: Sequence[str]) -> RenderableType:
        """The winners (ties broken by pearls; a full tie shares the victory)."""
        obs = state.public_observation()
        labels = solo_labels(obs, labels)
        winners = obs.get("winners") or [i for i, r in enumerate(state.returns()) if r > 0]
        names = tr(" and ").join(labels[w] for w in winners)
        if len(winners) > 1:
            return Text.from_markup(styled("bold green", "{0} share the victory.", names))
        return Text.from_markup(styled("bold green", "{0} wins.", names))

    def game_stats(self, state: State) -> Obs:
        """Final score dict per seat."""
        return {"scores": [dict(s) for s in state.scores()]}

    def summarize(self, stats: Sequence[Obs], players: int) -> Obs:
        """``mean_scores``: per seat, the mean of each category (and total, pearls)."""
        n = max(1, len(stats))
        means: list[dict[str, float]] = []
        for seat in range(players):
            totals: Counter[str] = Counter()
            for s in stats:
                totals.update(s["scores"][seat])
            means.append({k: round(v / n, 3) for k, v in sorted(totals.items())})
        return {"mean_scores": means}

    def summary_tables(self, summary: Obs, labels: Sequence[str]) -> list[RenderableType]:
        """Mean score by category per seat."""
        table = Table(title=tr("Mean score by category"), box=box.SIMPLE_HEAD)
        table.add_column(tr("seat"))
        cols = (*CATEGORIES, "total", "pearls")
        for col in cols:
            table.add_column(tr(col.replace("_", " ")), justify="right")
        for seat, means in enumerate(summary["mean_scores"]):
            table.add_row(labels[seat], *(f"{means.get(c, 0):.2f}" for c in cols))
        return [table]

    # ------------------------------------------------------------------ cards
    def cards(self, game: Game) -> list[RenderableType]:
        """The card list (:func:`porphyra.cli.conspiracy_cards.card_tables`)."""
        return card_tables(game)
