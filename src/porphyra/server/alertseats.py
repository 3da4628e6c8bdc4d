"""One table's side of the turn alerts (issue 32 §5): which seats a change may alert and
which seat's move answers an alert, told to the server's
:class:`~porphyra.server.ports.TurnAlerts` without a database write per move.

Answering an alert clears the seat's ``last_alert`` in the database, so that its next
turn may be alerted at once.  That used to be a write for every move of every person at a
turn-based table.  Only the runner of a game alerts its seats (when one is due: it must
act with no page of it connected), so after a seat's move cleared it, its later moves
have nothing to answer until the seat is due again.  A runner that takes a game over (or
reloads it) starts knowing nothing and clears at the seat's first move.  Opening a page of
the seat answers too (:meth:`TableAlerts.opened`), and counts as that first clearing.
"""

from __future__ import annotations

from porphyra.server.ports import TurnAlerts


class TableAlerts:
    """The turn alerts of one runner's table.

    Args:
        alerts: the server's turn alerts.
        game_id: the table's game.
        game_name: the game's long name (English; the alert translates it).
    """

    def __init__(self, alerts: TurnAlerts, game_id: str, game_name: str) -> None:
        self.alerts = alerts
        self.game_id = game_id
        self.game_name = game_name
        #: Seats this table cleared since they were last due an alert.
        self.answered: set[int] = set()

    def changed(self, due: list[int], moved: int | None) -> None:
        """The table changed: ``moved`` (a person's seat, None: no person moved) answered,
        and the seats of ``due`` must act with no page of theirs connected."""
        if moved in self.answered:
            moved = None  # (cleared already, and not due since: nothing to answer)
        elif moved is not None:
            self.answered.add(moved)
        self.answered.difference_update(due)
        self.alerts.turn(self.game_id, self.game_name, due, moved)

    def opened(self, seat: int) -> None:
        """A page of ``seat`` connected: that answers its alert (cleared in the
        background), and its moves have nothing more to answer until it is due again."""
        self.answered.add(seat)
        self.alerts.opened(self.game_id, seat)
