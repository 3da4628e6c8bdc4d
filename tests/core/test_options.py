"""Game options are declared once (GameInfo.options) and everything is built from that."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import porphyra
from porphyra.cli import app
from porphyra.cli.options import cli_options, game_options
from porphyra.core.errors import UnknownGameError
from porphyra.core.options import GameOption, check_options, options_of
from porphyra.core.registry import game_info, registered_games

SEAT_CHOICE = GameOption("first", "int", 0, "who starts", choices=(0, 1, "random"))


def test_accepts_tells_types_and_choices_apart() -> None:
    assert SEAT_CHOICE.accepts(1) and SEAT_CHOICE.accepts("random")
    for bad in (True, 1.0, "1", 2, None):
        assert not SEAT_CHOICE.accepts(bad)
    flag = GameOption("variant", "bool", False, "a variant")
    assert flag.accepts(True) and not flag.accepts(1)
    path = GameOption("cards", "path", None, "a file")
    assert path.accepts(None) and path.accepts("x.toml") and not path.accepts("")


def test_from_text_reads_command_line_values() -> None:
    assert SEAT_CHOICE.from_text("1") == 1
    assert SEAT_CHOICE.from_text(" Random ") == "random"
    assert SEAT_CHOICE.from_text("north") == "north"  # left for accepts() to refuse


def test_check_options_fills_defaults_and_names_the_problem() -> None:
    declared = (SEAT_CHOICE, GameOption("solo_only", "bool", False, "x", requires={"first": 1}))
    assert check_options("g", declared, {}) == {"first": 0, "solo_only": False}
    assert check_options("g", declared, {"first": None}) == {"first": 0, "solo_only": False}
    with pytest.raises(UnknownGameError, match="unknown g option"):
        check_options("g", declared, {"nope": 1})
    with pytest.raises(UnknownGameError, match="first must be 0, 1 or 'random', not 2"):
        check_options("g", declared, {"first": 2})
    with pytest.raises(UnknownGameError, match="solo_only applies only with first=1"):
        check_options("g", declared, {"solo_only": True})
    assert check_options("g", declared, {"first": 1, "solo_only": True})["solo_only"] is True


@pytest.mark.parametrize("name", registered_games())
def test_every_declared_choice_makes_a_game(name: str) -> None:
    for option in game_info(name).options:
        for choice in option.choices:
            given: dict[str, Any] = {option.name: choice}
            given.update(option.requires)
            players = next((o for o in game_info(name).options if o.name == "players"), None)
            if option.seat and players is not None:
                given.setdefault("players", max(players.choices))
            game = porphyra.load_game(name, **given)
            again = porphyra.load_game(name, **game.record_options())
            assert again.record_options() == game.record_options()


def test_conspiracy_opponent_requires_solo() -> None:
    with pytest.raises(UnknownGameError, match="opponent applies only with players=1"):
        porphyra.load_game("conspiracy", players=2, opponent="mage")
    assert porphyra.load_game("conspiracy", first_player=None).record_options() == {
        "players": 2,
        "bonus_locations": False,
    }


def test_byzantium_deck_is_declared_and_named_in_records() -> None:
    deck = next(o for o in game_info("byzantium").options if o.name == "deck")
    assert (
        deck.choices == ("v1", "v2", "v3", "v4", "v5", "v6") and deck.default == "v6" and deck.lobby
    )
    assert porphyra.load_game("byzantium").record_options() == {"deck": "v6"}
    with pytest.raises(UnknownGameError, match=r"either deck .* or cards"):
        porphyra.load_game("byzantium", deck="v1", cards="x.json")


@pytest.mark.parametrize("command", ["play", "simulate", "tournament"])
def test_every_cli_option_is_a_flag_of_the_commands(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name, owners in cli_options().items():
        if command == "tournament" and name == "opponent":
            continue  # the tournament has its own --opponents list
        assert owners[0][1].flag in result.output


def test_game_options_turns_flags_into_declared_values(tmp_path: Any) -> None:
    assert game_options("byzantium", {"first_emperor": "RANDOM"}) == {"first_emperor": "random"}
    assert game_options("conspiracy", {"players": 3, "first_player": "2"}) == {
        "players": 3,
        "first_player": 2,
    }
    from porphyra.cli.common import CliError

    with pytest.raises(CliError, match="--players applies to conspiracy, not to byzantium"):
        game_options("byzantium", {"players": 3})


def test_lobby_options_never_take_paths_or_stacked_decks() -> None:
    for name in registered_games():
        lobby = options_of(game_info(name).options, "lobby")
        assert {o.type for o in lobby} <= {"bool", "int", "str"}
        assert all(o.to_json()["choice_labels"] or o.type == "bool" for o in lobby)


def test_the_server_sends_and_checks_the_declared_lobby_options() -> None:
    from fastapi import HTTPException
    from fastapi.testclient import TestClient

    from porphyra.server.app import create_app
    from porphyra.server.requests import check_options as lobby_check

    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as client:
        meta = client.get("/api/meta").json()
    for name in registered_games():
        sent = meta["games"][name]["options"]
        assert sent == [o.to_json() for o in options_of(game_info(name).options, "lobby")]
    assert lobby_check("conspiracy", {"opponent": "mage", "first_player": "random"}) == {
        "opponent": "mage",
        "first_player": "random",
    }
    for bad in ({"players": 5}, {"players": True}, {"cards": "/etc/passwd"}, {"x": 1}):
        with pytest.raises(HTTPException):
            lobby_check("conspiracy", bad)
