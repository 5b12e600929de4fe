"""Terminal play: people and computer agents around one game.

The loop shows the board and whose turn it is, lists the legal actions numbered with
their notation, and reads a number or a notation. Chance is resolved with a seeded
random generator, so a game is reproducible from its seed and seats. Every action,
chance outcomes included, goes into a GameRecord that `quit` (or the end) saves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.table import Table

from chaosgames.agents.base import Progress
from chaosgames.cli.common import CAP_NOTE
from chaosgames.core.chance import sample_outcome
from chaosgames.core.constants import CHANCE
from chaosgames.core.errors import ChaosGamesError
from chaosgames.core.game import ENDED_BY_CAP, Action, Game, State
from chaosgames.core.records import GameRecord

HUMAN = "human"

HELP = """Type the number of an action or its notation.
  help   this text
  board  show the board again
  list   list the legal actions again
  undo   take back your last decision (only while no other person has decided since)
  quit   stop here; the game record is saved"""


class Chooser(Protocol):
    """What a computer seat needs (an `Agent` has it): pick an action for the deciding
    player, reporting the share of its budget spent; hear of every action taken."""

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action: ...

    def observe(self, state: State[Any], action: Action) -> None: ...


@dataclass
class Step:
    """One applied action, with who took it and the dice stream before it (for undo)."""

    actor: int
    rng_state: Any


@dataclass
class TerminalMatch:
    game: Game[Any, Any]
    seats: list[str]
    agents: dict[int, Chooser]
    seed: int
    console: Console
    read_line: Callable[[str], str]
    record_path: Path | None = None
    record: GameRecord = field(init=False)
    state: State[Any] = field(init=False)
    rng: random.Random = field(init=False)
    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.record = GameRecord.start(self.game, self.seats, seed=self.seed)
        self.state = self.game.new_initial_state()
        self.rng = random.Random(self.seed)

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the end or `quit`; returns the process exit status."""
        names = self.game.player_names()
        self.console.print(f"[bold]{self.game.title}[/bold] — seed {self.seed}")
        for i, seat in enumerate(self.seats):
            self.console.print(f"  {names[i]}: {seat}")
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == CHANCE:
                self._apply(player, sample_outcome(self.state.chance_outcomes(), self.rng))
            elif self.seats[player] == HUMAN:
                self._show_board(viewer=player)
                if self._human_turn(player) == "quit":
                    return self._stop("Game stopped.")
            else:
                self._computer_turn(player)
        self._show_board(reveal=True)  # the game is over: nothing is secret any more
        self._show_result()
        self._save()
        return 0

    def _human_turn(self, player: int) -> str:
        names = self.game.player_names()
        legal = self.state.legal_actions()
        self._list_actions(legal)
        while True:
            try:
                text = self.read_line(f"{names[player]} (human)> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return "quit"
            if not text:
                continue
            word = text.lower()
            if word == "help":
                self.console.print(HELP)
            elif word == "board":
                self._show_board(viewer=player)
            elif word == "list":
                self._list_actions(legal)
            elif word == "quit":
                return "quit"
            elif word == "undo":
                if self._undo(player):
                    return "undone"
            else:
                action = self._read_action(text, legal)
                if action is not None:
                    self._apply(player, action)
                    return "acted"

    def _read_action(self, text: str, legal: list[Action]) -> Action | None:
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(f"[red]There is no action {number}; choose 1 to {len(legal)}.[/red]")
            return None
        try:
            action: Action = self.game.parse_action(self.state, text)
            return action
        except ChaosGamesError as exc:
            self.console.print(f"[red]{exc}[/red] Type 'help' for help.")
            return None

    def _computer_turn(self, player: int) -> None:
        thinking = f"{self.game.player_names()[player]} ({self.seats[player]}) is thinking…"
        with self.console.status(thinking) as status:

            def progress(fraction: float) -> None:
                status.update(f"{thinking} {100 * fraction:.0f}%")

            action = self.agents[player].choose(self.state, progress)
        self._apply(player, action)

    def _apply(self, actor: int, action: Action) -> None:
        description = self.game.describe_action(self.state, action)
        self.steps.append(Step(actor, self.rng.getstate()))
        # Every computer seat hears of every action, so a search can keep its tree.
        for agent in self.agents.values():
            agent.observe(self.state, action)
        self.state.apply_action(action)
        self.record.append(action)
        if actor == CHANCE:
            self.console.print(f"  [dim]chance:[/dim] {description}")
        else:
            name = self.game.player_names()[actor]
            seat = self.seats[actor]
            self.console.print(f"  [bold]{name}[/bold] ({seat}): {description} [dim]{action}[/dim]")

    # -- undo --------------------------------------------------------------------------

    def _undo(self, player: int) -> bool:
        """Go back to before `player`'s last decision, if no other person decided since."""
        if self.game.hides_information():
            self.console.print(
                "[red]Undo is off in this game: taking a move back could show you a hidden card.[/red]"
            )
            return False
        humans = {i for i, seat in enumerate(self.seats) if seat == HUMAN}
        for index in range(len(self.steps) - 1, -1, -1):
            actor = self.steps[index].actor
            if actor == player:
                self._rewind(index)
                self.console.print("Your last decision is taken back.")
                return True
            if actor in humans:
                self.console.print("[red]Cannot undo: another person has decided since.[/red]")
                return False
        self.console.print("[red]There is nothing of yours to undo yet.[/red]")
        return False

    def _rewind(self, index: int) -> None:
        # Replaying the record keeps every action's legality checked; the dice stream is
        # restored too, so taking a decision back does not re-roll the dice.
        self.rng.setstate(self.steps[index].rng_state)
        del self.steps[index:]
        del self.record.actions[index:]
        self.state = self.record.replay()

    # -- output ------------------------------------------------------------------------

    def _show_board(self, viewer: int | None = None, reveal: bool = False) -> None:
        text = self.game.render_text(self.state, viewer, reveal=reveal)
        self.console.print(text, highlight=False, markup=False)

    def _list_actions(self, legal: list[Action]) -> None:
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(justify="right", style="cyan")
        table.add_column()
        table.add_column(style="dim")
        for number, action in enumerate(legal, start=1):
            description = self.game.describe_action(self.state, action)
            notation = str(action)
            table.add_row(str(number), description, "" if notation in description else notation)
        self.console.print(table)

    def _show_result(self) -> None:
        returns = self.state.returns()
        names = self.game.player_names()
        best = max(returns)
        winners = [names[i] for i, r in enumerate(returns) if r == best and r > 0]
        if len(winners) == 1:
            self.console.print(f"[bold green]{winners[0]} wins.[/bold green]")
        elif winners:
            self.console.print(f"[bold]Shared result: {', '.join(winners)}.[/bold]")
        else:
            self.console.print("[bold]Nobody wins.[/bold]")
        self.console.print("Result: " + ", ".join(f"{names[i]} {r:g}" for i, r in enumerate(returns)))
        if self.state.ended_by() == ENDED_BY_CAP:
            self.console.print(CAP_NOTE)

    def _stop(self, message: str) -> int:
        self.console.print(message)
        self._save()
        return 0

    def _save(self) -> None:
        self.record.finish(self.state)
        path = self.record_path
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self.record.save(path)
        self.console.print(f"Record saved to {path} (replay it with: chaosgames replay {path}).")
