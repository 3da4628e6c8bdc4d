"""A terminal game kept in its file as it is played (:class:`porphyra.cli.play.PlaySession`):
saved after every action and at the end, atomically, and a failed write said once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from porphyra.cli.common import Seat
from porphyra.cli.lang import styled, tr
from porphyra.cli.saves import games_dir, save_atomically
from porphyra.core.game import State


class KeptGame:
    """The file of one terminal game.

    Args:
        path: where the record is written (:func:`porphyra.cli.saves.save_atomically`);
            None keeps nothing.
        console: where a failed write and the final "saved to" are said.
        seats: the game's seats (their kinds go into the record).
        state: the state as the session starts (kept if nothing else is).
    """

    def __init__(
        self, path: Path | None, console: Console, seats: Sequence[Seat], state: State
    ) -> None:
        self.path = path
        self.console = console
        self.seats: list[dict[str, Any]] = [
            {"kind": "human", "bot": None} if s.is_human else {"kind": "bot", "bot": s.kind}
            for s in seats
        ]
        #: The state as last kept (what the file holds, or will hold at the end).
        self.settled = state.clone()
        #: The last write failed (said once until one succeeds).
        self.failed = False

    def keep(self, state: State) -> None:
        """Save ``state`` now, when there is a path.  A failed write (a full disk) is said
        once and play goes on: the next action tries again, and :meth:`close` saves (or
        reports) once more."""
        if self.path is None:
            return
        self.settled = state.clone()
        try:
            save_atomically(self.settled, self.path, self.seats)
        except OSError as exc:
            if not self.failed:
                self.failed = True
                self.console.print(
                    "[red]✗ [/]"
                    + styled(
                        "red",
                        "cannot save the game to {0}: {1}; the game goes on.",
                        str(self.path),
                        exc.strerror or str(exc),
                    ),
                    highlight=False,
                )
        else:
            self.failed = False

    def close(self, finished: bool) -> None:
        """Save the last kept state at the end of the session and say where (and, for an
        unfinished game, how to continue it).

        Raises:
            OSError: the file cannot be written.
        """
        if self.path is None:
            return
        save_atomically(self.settled, self.path, self.seats)
        if finished:
            self.console.print(escape(tr("Record saved to {0}.", str(self.path))))
            return
        self.console.print(
            escape(tr("Unfinished game saved to {0}; continue it with", str(self.path)))
            + f" [cyan]porphyra resume {escape(str(self.path))}[/]."
        )
        if self.path.parent.resolve() == games_dir().resolve():
            self.console.print(
                escape(tr("(or just porphyra resume: it lists your unfinished games)")),
                highlight=False,
            )
