"""The two games' codecs: action ids and tensor layouts (see :mod:`porphyra.envs.encoding`).

``codec_for(game)`` gives the codec of an engine game object; its layout is printed in
``docs/envs.md`` (``python -m porphyra.envs.docs`` regenerates the tables).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from porphyra.core.game import Action, Game, JSONDict, State
from porphyra.core.registry import adapter, registered_games
from porphyra.envs.encoding import Canvas, Codec, Layout, OptionTable
from porphyra.games.byzantium.cards import AGES
from porphyra.games.byzantium.legal import LegalActions
from porphyra.games.conspiracy.cards import COLOURS
from porphyra.games.conspiracy.chamber import SLOTS

#: Byzantium's public phases in the tensor's one-hot order (the engine's, then ``over``).
BYZ_PHASES: Final = ("redraw", "meld", "target", "replace", "pass", "over")


@mypyc_attr(allow_interpreted_subclasses=True)  # (extended by interpreted code too)
class ByzantiumCodec(Codec):
    """Byzantium: id 0 is ``END`` (close the card list), id ``1 + k`` adds card kind ``k``
    (card-list order: each id is at least the previous one)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        #: The sorted card kinds of each interned action, by ``id`` (the game's own).
        self.kinds_of: dict[int, tuple[int, ...]] = game.kinds_of
        cards = game.cardset.cards
        self.slugs: list[str] = [c.slug for c in cards]
        self.index = {s: i for i, s in enumerate(self.slugs)}
        k = len(cards)
        self.num_actions = 1 + k
        self.end = 0
        lay = self.layout = Layout()
        self.f_role = lay.add("role", 1, "1 if this seat is the Byzantine Emperor now, else 0")
        self.f_turn = lay.add("turn", 1, "turn number, 1 to 12")
        self.f_age = lay.add("age", 3, "one-hot Age: early, middle, late")
        self.f_phase = lay.add(
            "phase", 6, "one-hot phase: redraw, meld, target, replace, pass, over"
        )
        self.f_act = lay.add("to_act", 1, "1 if this seat must decide now")
        self.f_tt = lay.add("territory", 1, "Territory Tokens (TT) of the Empire")
        self.f_lt = lay.add("legacy", 2, "Legacy Tokens: this seat, then the other seat")
        self.f_hs = lay.add("hand_sizes", 2, "cards in hand: this seat, then the other seat")
        self.f_ds = lay.add("deck_sizes", 2, "cards in the draw piles: Byzantine, Foe")
        self.f_mt = lay.add("melds_now", 1, "1 if the revealed melds are from this turn")
        self.f_rd = lay.add(
            "redrawn", 3, "1 if this turn's redraw counts are public, then this seat's, other's"
        )
        self.f_neg = lay.add("negotiation", 1, "1 if a negotiation is under way or done this turn")
        per_kind = f"{k} floats, one per card kind in card-list order"
        self.f_hand = lay.add("hand", k, f"copies in this seat's hand ({per_kind})")
        self.f_known = lay.add("known_opponent", k, f"cards known in the other hand ({per_kind})")
        self.f_pend = lay.add(
            "pending_choice", k, f"this seat's committed hidden choice ({per_kind})"
        )
        self.f_sel = lay.add(
            "selection", k, f"cards chosen so far in this decision, before END ({per_kind})"
        )
        self.f_mb = lay.add("meld_byzantine", k, f"the Byzantine revealed meld ({per_kind})")
        self.f_mf = lay.add("meld_foe", k, f"the Foe revealed meld ({per_kind})")
        self.f_disc = lay.add("discards", k, f"both discard piles ({per_kind})")
        self.f_aside = lay.add("set_aside", k, f"cards set aside, both decks ({per_kind})")
        self.f_rem = lay.add("removed", k, f"cards removed from the game ({per_kind})")
        self.f_tgt = lay.add(
            "target", k + 1, f"one-hot negotiation target ({per_kind}), last: none"
        )
        self.f_rep = lay.add(
            "replacement", k + 1, f"one-hot Foe replacement ({per_kind}), last: none"
        )

    def tokens(self, action: Action) -> tuple[int, ...]:
        return _byz_tokens(self, action)

    def token_label(self, token: int) -> str:
        return "END" if token == 0 else self.slugs[token - 1]

    def all_tokens(self, legal: Sequence[Action]) -> Iterable[tuple[int, ...]]:
        # Byzantium's lazy legal list keeps each option as positions into its card kinds:
        # reading them (read only) spares building hundreds of meld objects a decision.
        kinds = getattr(legal, "_kinds", None)
        table = getattr(legal, "_table", None)
        if kinds is None or table is None:
            return super().all_tokens(legal)
        plus = [k + 1 for k in kinds]
        return (tuple([plus[p] for p in option]) for option in table)

    def table(self, legal: Sequence[Action]) -> OptionTable:
        # Byzantium's options are closed under taking a prefix (every prefix of a redraw or
        # a meld, kinds in card-list order, is one too; single-card decisions have no
        # longer options), so the next tokens are the kinds whose addition is still listed:
        # asked of the engine's own table, without listing hundreds of melds.
        if isinstance(legal, LegalActions):
            return _PrefixClosedTable(legal)
        return super().table(legal)

    def observe(self, state: State, player: int, whole: bool = False) -> tuple[JSONDict, bool]:
        # The seat's observation with cards by kind and without the log (the tensor does
        # not show it): the same fields, without a slug per card or a formatted line (the
        # whole one, with slugs, is not what this encoder reads).
        obs = state.observation(player, log=False, by_kind=True)  # type: ignore[call-arg]
        return obs, False

    def encode(self, obs: JSONDict, out: Canvas) -> None:
        # ``obs`` names cards by kind (see :meth:`observe`).
        me = obs["seat"]
        other = 1 - me
        out.set(self.f_role.start, 1.0 if obs["emperor"] == me else 0.0)
        out.set(self.f_turn.start, obs["turn"])
        out.one_hot(self.f_age, AGES.index(obs["age"]))
        out.one_hot(self.f_phase, BYZ_PHASES.index(obs["phase"]))
        phase = obs["phase"]
        if phase in ("redraw", "meld"):
            out.set(self.f_act.start, obs["pending_choice"] is None)
        else:
            out.set(self.f_act.start, obs["current_player"] == me)
        out.set(self.f_tt.start, obs["territory"])
        out.fill(self.f_lt, (obs["legacy"][me], obs["legacy"][other]))
        out.fill(self.f_hs, (obs["hand_sizes"][me], obs["hand_sizes"][other]))
        out.fill(self.f_ds, (obs["deck_sizes"]["byzantine"], obs["deck_sizes"]["foe"]))
        out.set(self.f_mt.start, 1.0 if obs["melds_turn"] == obs["turn"] else 0.0)
        if obs["redrawn"] is not None:
            out.fill(self.f_rd, (1.0, obs["redrawn"][me], obs["redrawn"][other]))
        out.kind_counts(self.f_hand, obs["hand"])
        out.kind_counts(self.f_known, obs["known_opponent_cards"])
        out.kind_counts(self.f_pend, obs["pending_choice"] or [])
        out.kind_counts(self.f_mb, obs["melds"]["byzantine"])
        out.kind_counts(self.f_mf, obs["melds"]["foe"])
        for deck in ("byzantine", "foe"):
            out.kind_counts(self.f_disc, obs["discards"][deck])
            out.kind_counts(self.f_aside, obs["set_aside"][deck])
        out.kind_counts(self.f_rem, obs["removed"])
        neg = obs["negotiation"]
        none = len(self.slugs)
        if neg is not None:
            out.set(self.f_neg.start, 1.0)
            t, r = neg["target"], neg["replacement"]
            out.one_hot(self.f_tgt, none if t is None else t)
            out.one_hot(self.f_rep, none if r is None else r)
        else:
            out.one_hot(self.f_tgt, none)
            out.one_hot(self.f_rep, none)

    def encode_selection(self, selection: tuple[int, ...], out: Canvas) -> None:
        sel = self.f_sel.start - 1  # (token 1 + k is card kind k)
        for t in selection:
            out.add(sel + t)


class _PrefixClosedTable(OptionTable):
    """A Byzantium decision's tokens (``1 + kind``, ascending), answered by
    ``LegalActions.listed``; the same answers as the trie of every option (a test checks
    both on every decision of many games)."""

    def __init__(self, legal: LegalActions) -> None:
        self.legal = legal

    def next_tokens(self, selection: tuple[int, ...]) -> set[int]:
        return {k + 1 for k in self.legal.extensions([t - 1 for t in selection])}

    def action(self, selection: tuple[int, ...]) -> Action | None:
        kinds = tuple(t - 1 for t in selection)  # (listed only if in card-list order)
        return self.legal.action_of(kinds) if self.legal.listed(kinds) else None


class _OneTokenTable(OptionTable):
    """A decision whose every action is one token (Conspiracy): ``by_token`` maps each
    legal action's token to it."""

    def __init__(self, by_token: dict[int, Action]) -> None:
        self.by_token = by_token

    def next_tokens(self, selection: tuple[int, ...]) -> set[int]:
        return set(self.by_token) if not selection else set()

    def action(self, selection: tuple[int, ...]) -> Action | None:
        return self.by_token.get(selection[0]) if len(selection) == 1 else None


def _byz_tokens(codec: ByzantiumCodec, action: Action) -> tuple[int, ...]:
    kinds = codec.kinds_of.get(id(action))
    if kinds is None:
        kinds = tuple(codec.index[s] for s in action.cards)  # type: ignore[attr-defined]
    return tuple(k + 1 for k in kinds)


@mypyc_attr(allow_interpreted_subclasses=True)  # (extended by interpreted code too)
class ConspiracyCodec(Codec):
    """Conspiracy: id ``i`` is entry ``i`` of the game's full interned action table (every
    action of the card set, solo verbs included), one id per action."""

    def __init__(self, game: Any) -> None:
        from porphyra.games.conspiracy.solo import opponent_names
        from porphyra.games.conspiracy.tables import PHASES

        self.game = game
        t = game.actions
        table: list[Action] = [*t.draw[1:], *t.locdraw[1:], *t.keep, *t.place, *t.take]
        table += [*t.lockeep, *t.loctake, *t.locpick, t.swap_none]
        table += [t.swap[i][j] for i in range(SLOTS) for j in range(i + 1, SLOTS)]
        table += [t.replay, t.replay_none, *t.lopile, *t.loplace]
        self.actions = table
        self.ids = {a: i for i, a in enumerate(table)}
        # The engine hands out these very objects: look them up by identity first (a
        # dataclass hash costs more than the rest of the look-up); the table keeps them
        # alive, so an id() here is never reused.
        self._by_identity = {id(a): i for i, a in enumerate(table)}
        self.num_actions = len(table)
        self.end = None
        self.phases = PHASES
        self.lords = {lord.name: i for i, lord in enumerate(game.cards.lords)}
        locs = [c.slug for c in game.cards.locations]
        self.locs = {s: i for i, s in enumerate([*locs, "face-down"])}
        self.opponents = {name: i for i, name in enumerate(opponent_names())}
        #: The seats' views of the state last observed: (state, its history length, views).
        self._shared: tuple[State, int, list[JSONDict]] | None = None
        n_l, n_m = len(self.lords), len(locs)
        self.solo = game.num_players == 1
        self.rows = 2 if self.solo else game.num_players
        rows = self.rows
        lay = self.layout = Layout()
        rel = "seats in turn order from this seat" + (
            " (solo: you, then the LO)" if self.solo else ""
        )
        self.f_players = []
        for r in range(rows):
            who = "this seat" if r == 0 else ("the LO" if self.solo else f"the seat {r} after")
            self.f_players.append(
                (
                    lay.add(
                        f"p{r}.chamber",
                        SLOTS * n_l,
                        f"{who}: per chamber slot 1-15, one-hot lord kind ({n_l})",
                    ),
                    lay.add(f"p{r}.covered", SLOTS, f"{who}: 1 per slot covered by a Location"),
                    lay.add(
                        f"p{r}.locations",
                        n_m + 1,
                        f"{who}: Locations held ({n_m} kinds, then face-down)",
                    ),
                    lay.add(
                        f"p{r}.scalars",
                        6,
                        f"{who}: pearls, silver keys, gold keys, any_keys, deck_search, is_LO",
                    ),
                )
            )
        self.f_pm = lay.add("pearl_master", rows + 1, f"one-hot Pearl Master ({rel}), last: none")
        self.f_piles = lay.add(
            "piles", 5 * n_l, f"discard piles {', '.join(COLOURS)}: lord counts ({n_l} each)"
        )
        self.f_face = lay.add("face_up_locations", n_m, "face-up Locations")
        self.f_scal = lay.add(
            "scalars", 4, "lord deck size, Location deck size, turn, end triggered"
        )
        self.f_phase = lay.add("phase", len(PHASES), f"one-hot phase: {', '.join(PHASES)}")
        self.f_first = lay.add("first_player", rows, f"one-hot first player ({rel})")
        self.f_cur = lay.add(
            "current_player", rows + 1, f"one-hot player to act ({rel}), last: over"
        )
        self.f_end = lay.add(
            "end_trigger_player",
            rows + 1,
            f"one-hot seat that triggered the end ({rel}), last: none",
        )
        self.f_restr = lay.add(
            "restriction",
            2 + rows + n_m,
            f"draw restriction: active, count, owner one-hot ({rel}), Location one-hot",
        )
        self.f_drawn = lay.add("drawn_lords", n_l, "lords drawn, to keep one")
        self.f_place = lay.add("to_place", n_l, "lords taken, still to place")
        self.f_dlocs = lay.add("drawn_locations", n_m, "Locations drawn, to keep one")
        self.f_deck = lay.add(
            "location_deck", 1 + n_m, "1 if shown (deck-search), then its Locations"
        )
        self.f_solo = lay.add(
            "solo",
            7 + len(self.opponents),
            "solo: replay token, forced draw one, lopile piles (5), LO card one-hot",
        )

    def _id(self, action: Action) -> int:
        i = self._by_identity.get(id(action))
        return self.ids[action] if i is None else i

    def tokens(self, action: Action) -> tuple[int, ...]:
        return (self._id(action),)

    def table(self, legal: Sequence[Action]) -> OptionTable:
        # One token per action: a dictionary from token to action is the whole trie.
        return _OneTokenTable({self._id(a): a for a in legal})

    def token_label(self, token: int) -> str:
        return str(self.actions[token])

    def encode_selection(self, selection: tuple[int, ...], out: Canvas) -> None:
        # Every action is one token: a selection is never left open (nothing to write).
        assert not selection, selection

    def observe(self, state: State, player: int, whole: bool = False) -> tuple[JSONDict, bool]:
        # The seat's observation without the log (the tensor does not show it), unless
        # the whole one is handed out too: the encoder reads the same fields of either.
        # The tensor-only views of all seats are made together, from one public view
        # (the most of their cost), and kept until the state changes (an applied action
        # lengthens its history; a clone or resample is another object): the adapters
        # read every seat's tensor of a state in turn.
        if whole:
            return state.observation(player), True
        length = len(state.history)
        shared = self._shared
        if shared is None or shared[0] is not state or shared[1] != length:
            views = state.observations_sharing()  # type: ignore[attr-defined]
            shared = self._shared = (state, length, views)
        return shared[2][player], False

    def encode(self, obs: JSONDict, out: Canvas) -> None:
        me = obs["seat"]
        rows = self.rows
        n_l = len(self.lords)

        def rel(p: int) -> int:
            return p if self.solo else (p - me) % rows

        for r, player in enumerate(obs["players"]):
            f_ch, f_cov, f_locs, f_sc = self.f_players[rel(r)]
            for i, cell in enumerate(player["chamber"]):
                if cell is not None:
                    out.set(f_ch.start + i * n_l + self.lords[cell["lord"]], 1.0)
                    if cell["location"] is not None:
                        out.set(f_cov.start + i, 1.0)
            out.counts(f_locs, self.locs, player["locations"])
            keys = player["unspent_keys"]
            out.fill(f_sc, (
                player["pearls"], keys["silver"], keys["gold"], player["any_keys"],
                player["deck_search"], player.get("legendary_opponent", False),
            ))  # fmt: skip
        pm = obs["pearl_master"]
        out.one_hot(self.f_pm, rows if pm is None else rel(pm))
        for c, colour in enumerate(COLOURS):
            base = self.f_piles.start + c * n_l
            for name in obs["piles"][colour]:
                out.add(base + self.lords[name])
        out.counts(self.f_face, self.locs, obs["face_up_locations"])
        out.fill(self.f_scal, (
            obs["lord_deck_size"], obs["location_deck_size"], obs["turn"], obs["end_triggered"],
        ))  # fmt: skip
        out.one_hot(self.f_phase, self.phases.index(obs["phase"]))
        out.one_hot(self.f_first, rel(obs["first_player"]))
        cur = obs["current_player"]
        out.one_hot(self.f_cur, rows if cur < 0 else rel(cur))
        etp = obs["end_trigger_player"]
        out.one_hot(self.f_end, rows if etp is None else rel(etp))
        restriction = obs["restriction"]
        if restriction is not None:
            base = self.f_restr.start
            out.set(base, 1.0)
            out.set(base + 1, restriction["count"])
            out.set(base + 2 + rel(restriction["owner"]), 1.0)
            out.set(base + 2 + rows + self.locs[restriction["location"]], 1.0)
        out.counts(self.f_drawn, self.lords, obs["drawn_lords"])
        out.counts(self.f_place, self.lords, obs["to_place"])
        out.counts(self.f_dlocs, self.locs, obs["drawn_locations"])
        if obs["location_deck"] is not None:
            out.set(self.f_deck.start, 1.0)
            base = self.f_deck.start + 1
            for slug in obs["location_deck"]:
                out.add(base + self.locs[slug])
        if self.solo:
            base = self.f_solo.start
            out.set(base, obs["replay_token"])
            out.set(base + 1, obs["forced_draw_one"])
            if obs["lo_choice"] is not None:
                for colour in obs["lo_choice"]["piles"]:
                    out.set(base + 2 + COLOURS.index(colour), 1.0)
            out.set(base + 7 + self.opponents[obs["legendary_opponent"]["name"]], 1.0)


@functools.cache
def _cached(game: Game) -> Codec:
    name = game.info.name
    make = adapter(name, "codec") if name in registered_games() else None
    if make is None:
        raise ValueError(f"no research encoding for game {name!r}")
    codec: Codec = make(game)
    return codec


def codec_for(game: Game) -> Codec:
    """The codec of ``game`` (made once per game object).

    Raises:
        ValueError: the game has no encoding (only Byzantium and Conspiracy do).
    """
    return _cached(game)
