"""The terminal's --help speaks the player's language (issue 15): --lang on the command
line, else LANG.  --help is built when the command starts, so each case runs the real
console command in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _help(args: list[str], lang_env: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    env["COLUMNS"] = "200"
    if lang_env is not None:
        env["LANG"] = lang_env
    done = subprocess.run(
        [sys.executable, "-c", "from porphyra.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("args", "lang_env", "expected"),
    [
        (["play", "--help", "--lang", "ja"], None, "この端末で遊びます"),
        (["play", "--help"], "ko_KR.UTF-8", "이 터미널에서 플레이합니다"),
        (["replay", "--help", "--lang=ko"], "ja_JP.UTF-8", "1이 첫 번째 좌석입니다"),
        (["rules", "--help"], "ja_JP.UTF-8", "GAME の遊び方"),
        (["--help"], "ko_KR.UTF-8", "터미널에서 즐기는 비잔티움과 컨스피러시"),
        (["play", "--help"], None, "Play at this terminal"),
        # A command defined in its own module (imported before --lang is read) marks its
        # options' help N_ and has them translated when it is registered.
        (["review", "--help", "--lang", "ja"], None, "探索のシード"),
        (["review", "--help"], "ko_KR.UTF-8", "탐색의 시드"),
        (["review", "--help"], None, "Seed of the searches"),
        (["--help"], "ja_JP.UTF-8", "ボット同士でゲームを行い"),
        (["bots", "--help", "--lang", "ko"], None, "래더 레이팅"),
        (["simulate", "--help", "--lang", "ja"], None, "最初のゲームのシード"),
        (["simulate", "--help"], "ko_KR.UTF-8", "요약을 JSON으로 출력합니다"),
    ],
)
def test_help_follows_lang_and_LANG(args: list[str], lang_env: str | None, expected: str) -> None:
    assert expected in _help(args, lang_env)


def test_a_game_options_help_is_translated_too() -> None:
    text = _help(["play", "--help", "--lang", "ja"], None)
    assert "次のいずれか" in text  # a choice option's "One of: ..."
    assert "0 (席1)" in text and "Seat 1" not in text  # a seat choice as people name it
