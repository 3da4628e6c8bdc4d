"""Where the terminal keeps its games: every game played at the terminal is saved as it
is played, so that neither ``quit`` nor Ctrl-C nor a closed window loses it.

A game without ``--save FILE`` is saved under the data directory (the one the web server
keeps its games in: ``$PORPHYRA_DATA_DIR``, else ``$XDG_DATA_HOME/porphyra``, else
``~/.local/share/porphyra``), in its ``games/`` folder, one record per game.  Each write goes
to a temporary file in the same folder that then replaces the record (``os.replace``), so
an interrupted write leaves the previous record whole.  ``porphyra resume`` without a file
lists the unfinished games found there (:func:`unfinished_games`).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from porphyra import record as records
from porphyra.core.errors import PorphyraError
from porphyra.core.game import State

#: The largest file the resume list reads (a record of a long game is a few kilobytes).
MAX_SAVE_BYTES = 4 * 1024 * 1024


def data_dir() -> Path:
    """The data directory: ``$PORPHYRA_DATA_DIR``, else ``$XDG_DATA_HOME/porphyra``, else
    ``~/.local/share/porphyra``: the same rule as the web server's
    :func:`porphyra.server.app.default_data_dir` (not imported: ``porphyra play`` loads no
    web stack, ``tests/test_layers.py``), so that both keep their files in one place."""
    explicit = os.environ.get("PORPHYRA_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share") / "porphyra"


def games_dir() -> Path:
    """The folder of the terminal's saved games: ``games/`` in :func:`data_dir`."""
    return data_dir() / "games"


def autosave_path(game: str, now: float | None = None) -> Path:
    """A new record file for a game started now: ``GAME-YYYYMMDD-HHMMSS.json`` in
    :func:`games_dir` (``-2``, ``-3``... added if that name is taken), created empty so
    that two games started in the same second get two files.  The name never holds the
    seed: it decides every hand, and the screen hides it from a player until the end.

    Args:
        game: the game's registry name.
        now: the time (seconds since the epoch; default: now).

    Raises:
        OSError: the games folder cannot be created or written.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    folder = games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    extra = 1
    while True:
        path = folder / (f"{game}-{stamp}.json" if extra == 1 else f"{game}-{stamp}-{extra}.json")
        try:
            with path.open("x", encoding="utf-8"):
                return path
        except FileExistsError:
            extra += 1


def save_atomically(state: State, path: Path, seats: list[dict[str, Any]] | None) -> None:
    """Write the record of ``state`` to ``path`` so that a reader (or a crash) sees either
    the previous record or the new one, never half of one: a temporary file in the same
    folder, flushed, then renamed over ``path``.  Creates the folder if needed.

    Raises:
        OSError: the folder or the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    text = records.dumps(state, seats)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@dataclass(frozen=True)
class SavedGame:
    """One unfinished game found in the games folder.

    Attributes:
        path: the record's file.
        game: the game's registry name.
        title: the game's long name (English; translate with ``tr``).
        saved: when it was last saved (seconds since the epoch).
        to_play: the seats whose decision the game waits for (from 0, as the engine counts).
        seats: who plays each seat (``"human"`` or a bot name), as saved.
        actions: how many actions were played.
    """

    path: Path
    game: str
    title: str
    saved: float
    to_play: tuple[int, ...]
    seats: tuple[str, ...]
    actions: int


def unfinished_games(folder: Path | None = None) -> list[SavedGame]:
    """The unfinished games saved in ``folder`` (default :func:`games_dir`), the most
    recently saved first.  Files that are not records that replay are left out, as are
    finished games; a missing folder has none.
    """
    folder = games_dir() if folder is None else folder
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob("*.json"):
        try:
            # Only regular files of a record's size: a FIFO would block the listing, and a
            # link to /dev/zero would fill the memory.
            info = path.stat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SAVE_BYTES:
                continue
            record = records.load(path)
            state = records.replay(record)
            saved = info.st_mtime
        except (PorphyraError, ValueError, OSError):
            continue
        if state.is_terminal():
            continue
        players = state.game.num_players
        kinds = records.seat_kinds(record) or ["human"] * players
        if len(kinds) != players:  # a damaged record: seats for another number of players
            continue
        found.append(
            SavedGame(
                path=path,
                game=str(record["game"]),
                title=state.game.info.long_name,
                saved=saved,
                to_play=tuple(state.active_players()),
                seats=tuple(kinds),
                actions=len(record["actions"]),
            )
        )
    found.sort(key=lambda g: (-g.saved, g.path.name))
    return found
