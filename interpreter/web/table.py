"""A table of the web page: one game between seats, each a person or an
agent, kept as what replays it (the game, the decks, the seed, the actions).

Nothing but the actions is remembered: the engine is deterministic, so going
back to a person's previous decision (undo) or resuming a saved game plays
the actions again from the start. An agent at a table is made afresh for
each of its decisions with a seed drawn from the table's seed and the
number of actions so far, so that a game played again, undone or resumed
continues exactly as it would have. A saved table is a replay file (see
``interpreter.replays``) with the seats added: ``cardrules replay`` prints it.
"""

from __future__ import annotations

import attrs

from interpreter.agents import agent_named
from interpreter.engine import Match
from interpreter.errors import CouldNotRun, Problem
from interpreter.replays import Replay, play_again, replay_data

HUMAN = "human"


class Stale(Exception):
    """A choice made on a page that no longer shows the table as it is."""


@attrs.define
class Table:
    """``seats[p]`` is ``"human"`` or an agent's name (``random``,
    ``search:200``); ``deciders`` says whose each action was."""

    game: str                  # the game as the page named it (an id)
    compiled: object
    decks: list
    seed: int
    seats: tuple
    match: Match
    actions: list = attrs.Factory(list)
    deciders: list = attrs.Factory(list)

    @classmethod
    def start(cls, game: str, compiled, decks, seats, seed: int) -> "Table":
        for spec in seats:
            if spec != HUMAN:
                agent_named(spec, 0)        # an unknown agent is refused now, not later
        return cls(game, compiled, list(decks), seed, tuple(seats),
                   Match.start(compiled, list(decks), seed))

    @classmethod
    def resume(cls, game: str, compiled, decks, seats, replay: Replay) -> "Table":
        """A saved table, its actions played again (refused if the game's
        files changed since: interpreter.replays)."""
        match = play_again(compiled, decks, replay)
        table = cls(game, compiled, list(decks), replay.seed, tuple(seats), match)
        table.actions = list(replay.actions)
        table.deciders = _deciders(compiled, decks, replay.seed, replay.actions)
        return table

    @property
    def version(self) -> int:
        """How many actions were taken: a page's choice names the version it
        was shown, so that a stale page cannot choose for a newer decision."""
        return len(self.actions)

    def to_move(self) -> int | None:
        """The seat that decides now, or None when the game is over."""
        return None if self.match.is_terminal() else self.match.current_player()

    def agent_to_move(self) -> bool:
        seat = self.to_move()
        return seat is not None and self.seats[seat] != HUMAN

    def advance(self) -> None:
        """One decision of the agent whose turn it is."""
        seat = self.to_move()
        if seat is None or self.seats[seat] == HUMAN:
            return
        agent = agent_named(self.seats[seat], self.seed * 100_003 + len(self.actions))
        self._apply(seat, agent.act(self.match))

    def choose(self, seat: int, option: int, version: int) -> None:
        """A person's choice of ``option`` at the decision shown at ``version``."""
        if version != self.version or self.to_move() != seat:
            raise Stale("the table has moved on since this page showed it: "
                        "it shows the table as it is now")
        if not 0 <= option < len(self.match.legal_actions()):
            raise Stale(f"there is no option {option + 1} at this decision")
        self._apply(seat, option)

    def _apply(self, seat: int, action: int) -> None:
        self.match.apply_action(action)
        self.actions.append(action)
        self.deciders.append(seat)

    def can_undo(self, seat: int) -> bool:
        return seat in self.deciders

    def undo(self, seat: int) -> None:
        """Back to ``seat``'s previous decision: its last choice and all
        that followed it are taken back."""
        if seat not in self.deciders:
            raise Stale("there is no decision of yours to take back")
        keep = len(self.deciders) - 1 - self.deciders[::-1].index(seat)
        match = Match.start(self.compiled, self.decks, self.seed)
        for action in self.actions[:keep]:
            match.apply_action(action)
        self.match = match
        del self.actions[keep:], self.deciders[keep:]

    def saved(self) -> dict:
        """The table as a replay file's JSON, with its seats."""
        data = replay_data(self.game, self.decks, self.seed, self.actions, self.match)
        data["seats"] = list(self.seats)
        return data


def _deciders(compiled, decks, seed: int, actions) -> list:
    match = Match.start(compiled, list(decks), seed)
    out = []
    for action in actions:
        out.append(match.current_player())
        match.apply_action(action)
    return out


def seats_of(data: dict, players: int) -> tuple:
    """The seats a saved table names (a plain replay has none: a person
    plays the first seat against random agents)."""
    seats = data.get("seats")
    if seats is None:
        return (HUMAN,) + ("random",) * (players - 1)
    if not isinstance(seats, list) or len(seats) != players or \
            not all(isinstance(s, str) for s in seats):
        raise CouldNotRun(Problem("E920", f'"seats" must name {players} seats', None, None,
                                  ('"human" or an agent\'s name for each seat',)))
    return tuple(seats)
