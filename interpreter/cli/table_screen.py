"""The table screen: a game played at the terminal by a person (``play
--p1 human``), drawn from their seat and answered at a prompt.

It draws the player's view (``Match.observation``) -- the counters of every
player, the zones the person may see with their cards, hidden zones as
counts, the stack, what happened since their last decision and the
decision itself as numbered options -- with ``rich`` on a terminal, and as
plain lines (no colours, no cursor movement, no boxes) when the output is
not a terminal, so that pipes and tests read it. The prompt takes a number
or a command (:data:`HELP`); the game itself is a :class:`~interpreter.tables.Table`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as Grid

from interpreter.errors import CardrulesError, Problem
from interpreter.tables import (HUMAN, Table, card_lines, card_text, decision_heading,
                                find_card, option_text, repeats_counted, where_text)

HELP = """Type the number of an option to take it, or a command:
  help         this help
  card NAME    a card's full text
  log [N]      the last N lines of the game's log (10 if no N)
  save FILE    save the game (resume it with: cardrules play --load FILE)
  undo         back to your previous decision; the other seats' choices
               after it are not kept: they choose again (the same way if
               you choose the same, as their random choices are replayed)
  quit         stop playing (Ctrl-D too); save first to keep the game"""

PROMPT = "play> "     # what the prompt shows (tests wait for it)
RECENT = 15          # events shown on the terminal screen (all of them in plain text)
ZONE_SHOWN = 12      # cards listed in one zone before "and N more"


class Screen:
    """Where a table is drawn and asked: a rich console on a terminal,
    plain lines otherwise."""

    def __init__(self, table: Table, plain: bool):
        self.table = table
        self.plain = plain
        self.console = None if plain else Console(highlight=False)
        self.told: dict[int, int] = {}    # per seat: the log's length when it last looked

    # ---- output

    def say(self, text: str = "", style: str | None = None) -> None:
        if self.plain:
            click.echo(text)
        else:
            self.console.print(escape(text), style=style)

    def problem(self, err: CardrulesError) -> None:
        for p in err.problems:
            self.say(p.render(), "bold red")

    def draw(self, viewer: int) -> None:
        """The board from ``viewer``'s seat, what happened since they last
        looked, and their decision."""
        match = self.table.match
        view = match.observation(viewer)
        log = match.state.log
        since = min(self.told.get(viewer, 0), len(log))
        events = repeats_counted(match.narration(viewer, events=log[since:]))
        self.told[viewer] = len(log)
        if self.plain:
            self._draw_plain(view, events)
        else:
            self._draw_rich(view, events)

    def _header(self, view: dict) -> str:
        steps = [v for k, v in view["period"].items() if k != "turn" and v]
        return (f"{self.table.compiled.rules.title}: turn {view['turn']}, "
                f"Player {view['turn_player'] + 1}'s turn"
                + (f", {' / '.join(steps)}" if steps else "")
                + f" (you are Player {view['player'] + 1})")

    def _players(self, view: dict) -> list[tuple[str, str, str]]:
        """Per player: who, their counters, their zones' sizes."""
        rows = []
        for p, counters in enumerate(view["counters"]):
            who = f"Player {p + 1}" + (" (you)" if p == view["player"] else "")
            values = ", ".join(f"{k} {'?' if v is None else v}" for k, v in counters.items())
            sizes = ", ".join(
                f"{key.rpartition('/')[0]} {len(cards) if isinstance(cards, list) else cards}"
                for key, cards in view["zones"].items() if key.endswith(f"/{p}"))
            rows.append((who, values, sizes))
        return rows

    def _zones(self, view: dict) -> list[tuple[str, list[str]]]:
        """The zones the viewer sees that hold cards, the others' first and
        theirs last (their side of the table nearest to them)."""
        mine = f"/{view['player']}"
        keys = sorted(view["cards"], key=lambda k: (k.endswith(mine), "/" not in k, k))
        out = []
        for key in keys:
            records = view["cards"][key]
            if not records:
                continue
            decl = self.table.compiled.rules.zones.get(key.rpartition("/")[0] or key)
            public = decl is None or decl.visibility == "public"
            names = [card_text(r, public) for r in records[:ZONE_SHOWN]]
            if len(records) > ZONE_SHOWN:
                names.append(f"and {len(records) - ZONE_SHOWN} more")
            title = where_text(key, view["player"])
            out.append((title[0].upper() + title[1:], names))
        return out

    def _stack(self, view: dict) -> list[str]:
        return [f"{entry['source']} (Player {entry['controller'] + 1})"
                + (" (nullified)" if entry["nullified"] else "") for entry in view["stack"]]

    def _options(self, view: dict) -> list[str]:
        decision = view["decision"]
        return [f"{i}. {option_text(view, label)}"
                for i, label in enumerate(decision["options"], 1)] if decision else []

    def _draw_plain(self, view: dict, events: list[str]) -> None:
        self.say(f"==== {self._header(view)}")
        for who, values, sizes in self._players(view):
            self.say(f"{who}: {values}" + (f" | {sizes}" if sizes else ""))
        for title, names in self._zones(view):
            self.say(f"{title}: " + "; ".join(names))
        stack = self._stack(view)
        if stack:
            self.say("Stack (top last): " + "; ".join(stack))
        if events:
            self.say("Since your last decision:")
            for line in events:
                self.say(f"  {line.strip()}")
        self._decision_lines(view, self.say)

    def _decision_lines(self, view: dict, say) -> None:
        decision = view["decision"]
        if decision is None:
            return
        say(decision_heading(decision))
        for line in self._options(view):
            say(f"  {line}")

    def _draw_rich(self, view: dict, events: list[str]) -> None:
        console = self.console
        console.rule(f"[bold]{escape(self._header(view))}")
        players = Grid(box=box.SIMPLE_HEAD, show_edge=False)
        for column in ("Player", "Counters", "Zones"):
            players.add_column(column)
        for who, values, sizes in self._players(view):
            players.add_row(escape(who), escape(values), escape(sizes),
                            style="bold" if "(you)" in who else None)
        console.print(players)
        for title, names in self._zones(view):
            console.print(Panel("\n".join(escape(n) for n in names), title=escape(title),
                                title_align="left", box=box.ROUNDED, expand=False))
        stack = self._stack(view)
        if stack:
            console.print(Panel("\n".join(escape(s) for s in stack), title="Stack (top last)",
                                title_align="left", expand=False))
        if events:
            shown = [line.strip() for line in events[-RECENT:]]
            if len(events) > RECENT:
                shown.insert(0, f"... {len(events) - RECENT} earlier lines (log N shows them)")
            console.print(Panel("\n".join(escape(line) for line in shown),
                                title="Since your last decision", title_align="left"))
        self._decision_lines(view, lambda text: console.print(escape(text), style="bold"))

    # ---- input

    def ask(self) -> str | None:
        """A line typed at the prompt; None at the end of input (Ctrl-D)."""
        if self.plain:
            click.echo(PROMPT, nl=False)
        else:
            self.console.print(f"[bold cyan]{PROMPT}[/]", end="")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return None
        if self.plain and not sys.stdin.isatty():
            click.echo(line.rstrip("\n"))   # what was read, so a transcript reads as typed
        return line.strip()


def play_at_table(table: Table, screen: Screen) -> int:
    """Play the game to its end, or until the person quits; the exit code.
    Ctrl-C is the caller's (it stops with 130)."""
    for seat, (kind, deck) in enumerate(zip(table.seats, table.decks)):
        screen.say(f"Player {seat + 1} ({'you' if kind == HUMAN else kind}) plays {deck.name}.")
    if table.actions:
        screen.say(f"Resumed after {len(table.actions)} decisions.")
    viewer = 0
    while True:
        table.play_agents()
        if table.match.is_terminal():
            _game_over(table, screen, viewer)
            return 0
        viewer = table.human_seat()
        screen.draw(viewer)
        if not _answer(table, screen):
            return 0


def _answer(table: Table, screen: Screen) -> bool:
    """Read commands until one moves the game on (True) or ends the session (False)."""
    count = len(table.match.legal_actions())
    while True:
        line = screen.ask()
        if line is None:
            screen.say("End of input: the game stops here.")
            screen.say(resume_note(table))
            return False
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        try:
            if word.isdigit():
                table.choose(int(word))
                return True
            if word == "quit" and not rest:
                screen.say(resume_note(table))
                return False
            if word == "undo" and not rest:
                table.undo()
                screen.say("Back to your previous decision.")
                return True
            if word == "help" and not rest:
                screen.say(HELP)
            elif word == "card" and rest:
                for text in card_lines(find_card(table.compiled.cards, rest)):
                    screen.say(text)
            elif word == "log" and (not rest or rest.isdigit()):
                _log(table, screen, int(rest) if rest else 10)
            elif word == "save" and rest:
                table.save(Path(rest))
                screen.say(f"Saved to {rest}: resume with `cardrules play --load {rest}`.")
            else:
                raise CardrulesError(_not_understood(line, count))
        except CardrulesError as err:
            screen.problem(err)


def _not_understood(line: str, count: int) -> Problem:
    return Problem("E845", f'"{line}" is not an option or a command' if line
                   else "nothing typed", None, None,
                   (f"a number from 1 to {count}", "help", "card NAME", "log [N]",
                    "save FILE", "undo", "quit"))


def _log(table: Table, screen: Screen, lines: int) -> None:
    match = table.match
    seat = table.human_seat()
    told = match.narration(seat)
    for line in told[-lines:] if lines else ():
        screen.say(line)


def _game_over(table: Table, screen: Screen, viewer: int) -> None:
    """The last board from the last person's seat, and who won."""
    screen.draw(viewer)
    result = table.match.state.result
    if result[0] == "draw":
        screen.say(f"The game is over: a draw ({result[1]}).", "bold")
    else:
        screen.say(f"The game is over: Player {result[1] + 1} wins ({result[2]}).", "bold")


def resume_note(table: Table) -> str:
    """What quitting leaves: how to resume the saved game, or that it was not saved."""
    if table.saved_to is None:
        return "The game was not saved (type save FILE before quit to keep it)."
    if table.unsaved():
        return (f"The game was saved to {table.saved_to} before your last decisions; "
                f"resume from there with: cardrules play --load {table.saved_to}")
    return f"The game is saved: resume it with: cardrules play --load {table.saved_to}"
