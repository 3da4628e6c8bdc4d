"""A 4-player Conspiracy table fits an 80x24 terminal (issue 29, section 6): the board
switches to its compact layout when the full one is taller than the terminal, and keeps
the full one where it fits or where there is no terminal (redirected output)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from porphyra.cli import lang
from porphyra.cli.conspiracy_view import ConspiracyView
from porphyra.core.registry import load_game
from porphyra.i18n.names import location_name

LABELS = ("Seat 1 (human)", "Seat 2 (easy bot)", "Seat 3 (medium bot)", "Seat 4 (hard bot)")


def _render(obs: dict[str, object], players: int, width: int, height: int, tty: bool) -> str:
    game = load_game("conspiracy", players=players)
    console = Console(
        width=width,
        height=height,
        record=True,
        force_terminal=tty,
        color_system=None,
        file=io.StringIO(),
    )
    console.print(ConspiracyView().board(game, obs, LABELS[:players]))
    return console.export_text()


def _positions(seed: int, players: int = 4, **options: object) -> list[dict[str, object]]:
    """The deciding seat's view at every decision of a random game (4 players unless
    ``players`` says otherwise; 1 is solo against ``opponent``)."""
    state = load_game("conspiracy", players=players, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    views = []
    while not state.is_terminal():
        views.append(state.observation(state.current_player() if players > 1 else 0))
        state.apply_action(rng.choice(state.legal_actions()))
    return views


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_every_4_player_position_fits_80x24(language: str) -> None:
    lang.set_language(language)
    for seed in (1, 3):
        for obs in _positions(seed):
            text = _render(obs, 4, 80, 24, tty=True)
            lines = text.splitlines()
            assert len(lines) <= 24, (seed, obs["phase"], text)
            assert max(len(line.rstrip()) for line in lines) <= 80


@pytest.mark.parametrize(("players", "options"), [(3, {}), (1, {"opponent": "military"})])
def test_three_players_and_solo_fit_80x24_too(players: int, options: dict[str, object]) -> None:
    lang.set_language("ja")  # the widest text
    for obs in _positions(2, players, **options):
        text = _render_seats(obs, players)
        assert len(text.splitlines()) <= 24, (obs["phase"], text)
    if players == 1:
        assert "MIL › SIX › COAL › STACK" in text  # the opponent's card, in one line


def _render_seats(obs: dict[str, object], players: int) -> str:
    options = {"opponent": "military"} if players == 1 else {}
    game = load_game("conspiracy", players=players, **options)
    console = Console(
        width=80, height=24, record=True, force_terminal=True, color_system=None, file=io.StringIO()
    )
    console.print(ConspiracyView().board(game, obs, LABELS[: max(players, 1)]))
    return console.export_text()


def test_the_compact_board_shows_every_chamber_and_the_table() -> None:
    obs = _positions(3)[88]
    text = _render(obs, 4, 80, 24, tty=True)
    for label in LABELS:
        assert label in text
    players = obs["players"]
    assert isinstance(players, list)
    # A name may wrap within its chamber's column, beside the next chamber's text.
    words = set(text.replace(",", " ").replace(";", " ").split())
    for player in players:
        for location in player["locations"]:  # by name, never by slug (issue 29)
            assert set(location_name(location).split()) <= words, location
            assert location not in words, location
        assert f"●{player['pearls']}" in text
    for location in obs["face_up_locations"]:  # type: ignore[attr-defined]
        assert set(location_name(location).split()) <= words, location
    assert "yellow:" in text and "purple:" in text


def test_a_location_choice_shows_the_effects_and_the_deciders_chamber() -> None:
    views = [o for o in _positions(1) if o["phase"] == "location" and o["face_up_locations"]]
    assert views
    text = _render(views[0], 4, 80, 24, tty=True)
    assert "IP;" in text or " IP)" in text  # each face-up Location with its effect
    assert len(text.splitlines()) <= 24


def test_the_full_board_where_it_fits_or_without_a_terminal() -> None:
    obs = _positions(3)[40]
    tall = _render(obs, 4, 80, 200, tty=True)
    piped = _render(obs, 4, 80, 24, tty=False)
    small = _render(obs, 4, 80, 24, tty=True)
    assert "Scores if the game ended now" in tall and "Scores if the game ended now" in piped
    assert "Scores if the game ended now" not in small
    assert len(small.splitlines()) < len(tall.splitlines())


def test_the_compact_board_has_its_legend_where_it_fits() -> None:
    """The compact pyramid's codes (``B1sk``, ``R4●``, ``▪``) are explained under it
    (issue 29) when the legend fits the terminal's height with the decision's menu below
    (``RESERVE`` lines), and left out otherwise: the menu comes first."""
    from porphyra.cli.conspiracy_compact import RESERVE

    lang.set_language("en")
    obs = _positions(3)[88]
    roomy = _render(obs, 4, 80, 40, tty=True)
    assert "Scores if the game ended now" not in roomy  # the compact layout
    assert "Y yellow" in roomy and "sk silver key" in roomy and "▪ a Location on the slot" in roomy
    assert len(roomy.splitlines()) + RESERVE <= 40
    with_legend = len(roomy.splitlines())
    tight = _render(obs, 4, 80, with_legend + RESERVE - 1, tty=True)
    assert "sk silver key" not in tight and "B1sk" in tight
