"""The interactive game loop: humans and bots take turns at one terminal.

:class:`PlaySession` runs a game to its end (or until a human quits), asking bots for their
moves through :func:`porphyra.bots.seat_view` and humans through a numbered menu of the
legal actions or the game's text notation.  What is printed is always rendered from an
observation:

- one human seat: that seat's ``observation`` (bot moves show only what it may see);
- several human seats (hot seat): the observation of the seat about to act, after a
  "pass the device" screen that shows nothing of anyone's hand;
- no human seat: the spectators' ``public_observation``.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from porphyra import record as records
from porphyra.bots import bot_names, make_bot, seat_view
from porphyra.cli.common import Seat, default_bot
from porphyra.cli.keeping import KeptGame
from porphyra.cli.lang import error_text, language, people, styled, term, tr
from porphyra.cli.play_menu import MENU_LIMIT, help_text, print_menu
from porphyra.cli.rules import rules_markdown
from porphyra.cli.views import (
    GameView,
    Obs,
    ascii_number,
    log_entry,
    log_lines,
    with_log_messages,
)
from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import Action, State
from porphyra.core.messages import msg
from porphyra.core.undo import undo_target

#: The marker line that starts every "pass the device" screen (tests look for it).
PASS_DEVICE = "Pass the device to"


ReadLine = Callable[[str], str]


class Outcome(enum.Enum):
    """How a session ended."""

    FINISHED = "finished"
    QUIT = "quit"
    INTERRUPTED = "interrupted"


class _Quit(Exception):
    """Raised inside the loop when a human types ``quit`` or input ends."""


class _Undone(Exception):
    """Raised inside a human turn when ``undo`` took back that seat's last decision."""


class PlaySession:
    """One game at the terminal.

    Args:
        state: the state to continue (a new game or a resumed one); mutated as play goes on.
        seats: one :class:`~porphyra.cli.common.Seat` per player.
        console: where everything is printed.
        view: the game's :class:`~porphyra.cli.views.GameView`.
        save_path: where the record is written after every action, at the end, on
            ``quit`` and on Ctrl-C (atomically: :func:`porphyra.cli.saves.save_atomically`);
            ``None`` keeps nothing.
        read_line: reads one line after printing the prompt; default ``console.input``.
            Raises ``EOFError`` at end of input (treated as ``quit``).
        hint_bot: the bot spec that answers ``hint`` (default ``hard`` if registered, else
            the default bot); it gets the seat's view only.
        delay: seconds to pause after each bot move, so people can follow it.
        confirm: ask before a secret choice (one of a simultaneous decision, e.g.
            Byzantium's redraw, meld and pass) is locked in, showing it as the engine
            read it (``archer`` read as ``archers``).
    """

    def __init__(
        self,
        state: State,
        seats: Sequence[Seat],
        console: Console,
        view: GameView,
        save_path: Path | None = None,
        read_line: ReadLine | None = None,
        hint_bot: str | None = None,
        delay: float = 0.0,
        confirm: bool = False,
    ) -> None:
        self.state = state
        self.confirm = confirm
        self.delay = max(0.0, delay)
        self.hint_bot = hint_bot
        self.game = state.game
        self.seats = list(seats)
        self.console = console
        self.view = view
        self.save_path = save_path
        self._read_line: ReadLine = read_line or (lambda prompt: console.input(prompt))
        self.labels = [seat.label for seat in self.seats]
        self.humans = [seat.index for seat in self.seats if seat.is_human]
        #: The seat whose eyes are on the screen now (None: spectators / nobody yet).
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        #: How many log lines each viewer (seat, or -1 for spectators) has been shown.
        self._seen: dict[int, int] = {}
        self._last_status = ""
        #: The seat that made the previous decision (a repeat gets a compact board).
        self._last_actor: int | None = None
        # While a simultaneous choice is half made (B-R3) the saves hold it back (see
        # _keep), so no file shows a locked-in secret choice.
        self._active = frozenset(state.active_players())
        self._moves = len(state.history)
        self.kept = KeptGame(save_path, console, self.seats, state)

    # ------------------------------------------------------------------ observations
    def _obs(self, viewer: int | None) -> Obs:
        obs = self.state.public_observation() if viewer is None else self.state.observation(viewer)
        return with_log_messages(obs, self.state, viewer)

    def _print_new_log(self, viewer: int | None) -> None:
        """Print the log lines ``viewer`` has not been shown yet (from its observation)."""
        lines = log_lines(self._obs(viewer))
        key = -1 if viewer is None else viewer
        start = self._seen.get(key, 0)
        if start > len(lines):  # the log was shortened: show it from the start
            start = 0
        for line in lines[start:]:
            self.console.print(log_entry(line))
        self._seen[key] = len(lines)

    def _mark_log_seen(self, viewer: int | None) -> None:
        key = -1 if viewer is None else viewer
        self._seen[key] = len(log_lines(self._obs(viewer)))

    # ------------------------------------------------------------------ the loop
    def run(self) -> Outcome:
        """Play until the end, a ``quit`` or Ctrl-C; the record is saved after every
        action and in every case at the end when ``save_path`` is set.

        Returns:
            How the session ended.

        Raises:
            OSError: the record cannot be saved.
        """
        outcome = Outcome.FINISHED
        try:
            self._intro()
            while not self.state.is_terminal():
                player = self.state.current_player()
                seat = self.seats[player]
                if seat.bot is None:
                    self._human_turn(player, again=self._last_actor == player)
                else:
                    view = seat_view(self.state, player)
                    if self.humans:
                        with self.console.status(tr("{0} is thinking…", self.labels[player])):
                            action = seat.bot.choose(view)
                    else:
                        action = seat.bot.choose(view)
                    self.state.apply_action(action)
                    self._keep()
                    self._after_bot(player, action)
                    if self.delay:
                        time.sleep(self.delay)
                self._last_actor = player
            self._finish()
        except _Quit:
            outcome = Outcome.QUIT
            self.console.print("\n" + styled("yellow", "Game stopped."))
        except KeyboardInterrupt:
            outcome = Outcome.INTERRUPTED
            self.console.print("\n" + styled("yellow", "Interrupted."))
        except Exception:
            # Whatever went wrong, the game so far is kept before the error is reported.
            self._save(Outcome.INTERRUPTED)
            raise
        self._save(outcome)
        return outcome

    def _intro(self) -> None:
        info = self.game.info
        seats = ", ".join(self.labels)
        # With a human at the table the seed stays hidden until the end: it determines
        # every hand and deck order, so a player could recompute the bots' cards.
        seed = "" if self.humans else "  " + tr("seed {0}", self.state.seed)
        self.console.print(Rule(f"[bold]{escape(tr(info.long_name))}[/]{seed}"), highlight=False)
        self.console.print(escape(tr("Seats: {0}", seats)), highlight=False)
        if self.humans:
            self.console.print(
                escape(tr("Type help for the commands (menu, hint, undo, log, board, quit).")),
                highlight=False,
            )
        if self.state.history:
            self.console.print(escape(tr("Resumed after {0} actions.", len(self.state.history))))
        if not self.humans:
            self._print_status(force=True)
        if self.state.history:
            # A resumed game: what happened before is in `log`; show only what comes next.
            for viewer in [None, *range(len(self.seats))]:
                self._mark_log_seen(viewer)
            if self.viewer is not None or not self.humans:
                recent = log_lines(self._obs(self.viewer))[-6:]
                if recent:
                    self.console.print(styled("dim", "Last events:"))
                for line in recent:
                    self.console.print(log_entry(line, "dim"))

    def _after_bot(self, player: int, action: Action) -> None:
        if not self.humans:
            self._print_new_log(None)
            self._print_status()
        elif self.viewer is not None:
            self._print_new_log(self.viewer)
        # In a hot-seat game with nobody at the screen yet, nothing is printed: the log
        # is shown to each seat when it next takes the device.

    def _print_status(self, force: bool = False) -> None:
        status = self.view.status(self.game, self.state.public_observation())
        if force or status != self._last_status:
            self.console.print(f"[bold cyan]» {escape(status)}[/]", highlight=False)
            self._last_status = status

    def _take_device(self, player: int) -> None:
        """Hot seat: hide the screen and wait until ``player`` has the device."""
        if self.viewer == player:
            return
        if len(self.humans) > 1 and self.view.hidden_hands:
            self.console.clear()
            if self.console.is_terminal:
                # Also wipe the scrollback (xterm "E3"), so nobody can scroll up to a hand.
                self.console.file.write("\x1b[3J")
                self.console.file.flush()
            self.console.print(
                Panel(
                    f"{escape(tr(PASS_DEVICE))} [bold]{escape(self.labels[player])}[/].\n"
                    + escape(tr("Other players: look away.  Press Enter when ready.")),
                    title=tr("Hot seat"),
                    expand=False,
                ),
                highlight=False,
            )
            try:
                answer = self._read_line("")
            except EOFError:
                raise _Quit from None
            if answer.strip().lower() in ("quit", "q"):
                raise _Quit  # stop here, before a hand is shown
        self.viewer = player

    def _human_turn(self, player: int, again: bool = False) -> None:
        """Show ``player`` the table and ask for a decision; ``again`` (the same seat
        decided just before) shows the view's compact board instead of the full one."""
        self._take_device(player)
        obs = self.state.observation(player)
        actions = self.view.order_actions(list(self.state.legal_actions(player)), obs)
        self.console.print(Rule(escape(tr("{0} to play", self.labels[player]))))
        self._print_new_log(player)
        if again:
            self.console.print(self.view.compact_board(self.game, obs, self.labels))
        else:
            self.console.print(self.view.board(self.game, obs, self.labels))
        self._print_menu(actions, full=False)
        self.console.print(f"[dim]{escape(self.view.hint(self.game, obs))}[/]", highlight=False)
        try:
            action = self._ask(player, actions, obs)
        except _Undone:
            self._keep()
            return
        self.state.apply_action(action)
        self._keep()
        if len(self.humans) > 1:
            # Hot seat: the end-of-game screen shows public events after the last decision.
            self._mark_log_seen(None)
        # A space after each comma lets a long move wrap between cards, not inside one.
        shown = str(action).replace(",", ", ")
        self.console.print(f"[green]✓[/] {escape(self.labels[player])}: [bold]{escape(shown)}[/]")
        self._print_new_log(player)

    def _print_menu(
        self, actions: Sequence[Action], full: bool, contains: str | None = None
    ) -> None:
        """The numbered menu of the seat about to act (:func:`print_menu`)."""
        obs = self.state.observation(self.state.current_player())
        print_menu(self.console, self.view, self.game, actions, obs, full, contains)

    def _ask(self, player: int, actions: Sequence[Action], obs: Obs) -> Action:
        """Ask until the input names a legal action; bad input is explained, then re-asked."""
        prompt = f"[bold]{escape(self.labels[player])}[/] > "
        while True:
            try:
                text = self._read_line(prompt).strip()
            except EOFError:
                raise _Quit from None
            word = text.lower()
            if not text:
                continue
            if word in ("quit", "exit", "q"):
                raise _Quit
            if word in ("help", "?", "h"):
                self.console.print(help_text())
                key = self.view.legend()
                if key:
                    self.console.print(Text.from_markup(key, style="dim"))
                self.console.print(f"[dim]{escape(self.view.hint(self.game, obs))}[/]")
                continue
            if word == "rules":
                self.console.print(rules_markdown(self.game.info.name, language()))
                continue
            if word == "log":
                for line in log_lines(self._obs(player)):
                    self.console.print(log_entry(line))
                continue
            if word == "hint":
                self._hint(player)
                continue
            if word == "undo":
                if self._undo(player):
                    raise _Undone
                continue
            first, _, rest = word.partition(" ")
            if first in ("menu", "list", "actions"):
                self._print_menu(actions, full=True, contains=rest)
                if len(actions) > MENU_LIMIT and not rest:
                    self.console.print(
                        f"[dim]{escape(self.view.hint(self.game, obs))}  "
                        + escape(
                            tr("Type menu <text> to list only the actions containing the text.")
                        )
                        + "[/]",
                        highlight=False,
                    )
                continue
            if word in ("board", "show"):
                self.console.print(self.view.board(self.game, obs, self.labels))
                continue
            number = ascii_number(text)
            if number is not None:
                if 1 <= number <= len(actions):
                    chosen = actions[number - 1]
                    if len(actions) > MENU_LIMIT:
                        # The entry was not on screen: say what the number picked.
                        label = self.view.menu_label(self.game, chosen, obs)
                        self.console.print(f"[cyan]{number}[/] = {escape(label)}", highlight=False)
                    if self._locked_in(player, chosen, text):
                        return chosen
                    continue
                self.console.print(
                    "[red]✗ "
                    + escape(
                        tr("there is no menu entry {0}: choose 1 to {1}.", number, len(actions))
                    )
                    + "[/]"
                )
                continue
            try:
                chosen = self._parse(text, obs)
                if self._locked_in(player, chosen, text):
                    return chosen
                continue
            except (InvalidActionError, IllegalActionError, ValueError) as exc:
                # ValueError: a parser that trusted str.isdigit() ("swap ² 3"); bad input
                # is explained and re-asked, it never ends the game.
                if not isinstance(exc, InvalidActionError | IllegalActionError):
                    exc = InvalidActionError(msg("cannot read {0}: use the digits 0-9", repr(text)))
                self.console.print(f"[red]✗ {escape(people(error_text(exc)))}[/]", highlight=False)
                self.console.print(
                    "[dim]"
                    + escape(
                        tr(
                            "Try again: a menu number or an action (help: how to type, "
                            "menu: every legal action)."
                        )
                    )
                    + "[/]",
                    highlight=False,
                )

    def _locked_in(self, player: int, action: Action, typed: str) -> bool:
        """With ``confirm``: for a secret choice (the engine waits for several seats at
        once), show it as read and ask before it is locked in; True to go ahead."""
        if not self.confirm or not self.view.secret_choice(self.state.observation(player)):
            return True
        shown = str(action).replace(",", ", ")
        same = typed.strip().lower() == str(action).lower()
        read = "" if same else " " + tr("(you typed {0!r})", typed)
        question = tr(
            "Lock in {0}{1}?  It stays secret until every player has chosen, and cannot be "
            "taken back.",
            "\x00",
            read,
        )
        # The action is shown in bold inside the translated sentence: it is formatted in as
        # a marker, and the sentence around it escaped on its own.
        before, _, after = question.partition("\x00")
        self.console.print(
            escape(before) + f"[bold]{escape(shown)}[/]" + escape(after), highlight=False
        )
        try:
            answer = self._read_line(styled("bold", "Lock it in? [Y/n]") + " ").strip().lower()
        except EOFError:
            raise _Quit from None
        if answer in ("", "y", "yes", tr("y"), tr("yes")):
            return True
        self.console.print(styled("yellow", "Not locked in: choose again."))
        return False

    def _undo(self, player: int) -> bool:
        """Take back ``player``'s last decision, with the web's rule
        (:func:`porphyra.core.undo.undo_target`): every other seat a bot, and nothing
        drawn, revealed or random since.  True if it was taken back."""
        if any(s.is_human for s in self.seats if s.index != player):
            only = styled("red", "undo is only possible when every other seat is a bot.")
            self.console.print("[red]✗ [/]" + only)
            return False
        target = undo_target(self.state, player)
        if target is None:
            self.console.print(
                "[red]✗ [/]"
                + styled(
                    "red",
                    "cannot undo: cards were drawn or revealed, or a random event happened "
                    "since your last decision (or you have not decided yet).",
                )
            )
            return False
        undone = [str(a) for _, a in self.state.history[target:]]
        self.state = records.replay(records.to_record(self.state), upto=target)
        for viewer in [None, *range(len(self.seats))]:
            self._mark_log_seen(viewer)
        self.console.print(
            "[yellow]↶ [/]" + styled("yellow", "Undone: {0}.  Decide again.", ", ".join(undone)),
            highlight=False,
        )
        return True

    def _hint(self, player: int) -> None:
        """Print a bot's suggestion for ``player`` (and its win estimate if it has one)."""
        spec = self.hint_bot or ("hard" if "hard" in bot_names() else default_bot())
        bot = make_bot(spec, seed=self.state.seed + len(self.state.history))
        view = seat_view(self.state, player)
        try:
            with self.console.status(tr("thinking…")):
                estimate = getattr(bot, "win_probability", None)
                if callable(estimate):
                    action, chance = estimate(view)
                    note = " " + escape(tr("(estimated chance to win: {0:.0f}%)", 100 * chance))
                else:
                    action, note = bot.choose(view), ""
        except ValueError as exc:  # a hint is advice: a failing bot must not end the game
            self.console.print(
                "[red]✗ [/]"
                + styled("red", "no hint: the {0} bot failed: {1}", term(spec), str(exc)),
                highlight=False,
            )
            return
        self.console.print(
            styled("yellow", "Hint ({0}):", term(spec)) + f" [bold]{escape(str(action))}[/]{note}",
            highlight=False,
        )

    def _parse(self, text: str, obs: Obs) -> Action:
        """Parse ``text``; if that fails, try the view's rewriting (hand numbers, prefixes,
        spaces).  When the rewritten text is well formed but illegal, its error is raised
        with the rewriting shown, since that is what the player meant."""
        try:
            return self.game.parse_action(self.state, text)
        except (InvalidActionError, IllegalActionError) as first:
            expanded = self.view.expand_input(text, obs)
            if expanded == text:
                raise
            try:
                return self.game.parse_action(self.state, expanded)
            except IllegalActionError as second:
                raise IllegalActionError(msg("{0}: {1}", expanded, second.message)) from None
            except InvalidActionError:
                raise first from None

    def _finish(self) -> None:
        self.console.print(Rule(styled("bold", "Game over")))
        final_viewer = self.viewer if len(self.humans) == 1 else None
        self._print_new_log(final_viewer)
        self.console.print(self.view.board(self.game, self.state.public_observation(), self.labels))
        self.console.print(self.view.result(self.game, self.state, self.labels))
        self.console.print(escape(tr("Seed {0}.", self.state.seed)), highlight=False)

    def _pending_secret(self) -> bool:
        """Whether the last action was a secret choice of a simultaneous decision that other
        seats have still to make (B-R3: both seats choose, in either order, neither seeing
        the other's choice): the seats active before it were several, and some of them
        still are.  Follows the state from one action to the next."""
        before, after = self._active, frozenset(self.state.active_players())
        grew = len(self.state.history) == self._moves + 1
        self._active, self._moves = after, len(self.state.history)
        return grew and len(before) > 1 and bool(after) and after < before

    def _keep(self) -> None:
        """Save the game as it stands after an action (:meth:`KeptGame.keep`), except
        while a simultaneous choice is half made: the file keeps the state from before it,
        so the seat still choosing (a hot-seat opponent) cannot read the other's secret
        choice there, and a resumed game asks that choice again."""
        if not self._pending_secret():
            self.kept.keep(self.state)

    def _save(self, outcome: Outcome) -> None:
        self.kept.close(finished=outcome is Outcome.FINISHED)
