"""Tables: one game played by people and agents together, seat by seat.

A :class:`Table` holds the game, its decks and seed, who sits at each seat
(``human`` or an agent's name, as ``agent_named`` reads it) and the actions
taken so far. It lets the agents play until a person must decide, takes a
person's choice, goes back to a person's previous decision (``undo``),
saves the game and opens a saved one. A table never keeps snapshots: the
engine is deterministic, so the game is rebuilt from the seed and the
actions, and the agents are shown every decision they took again so that
their own generators are where they were (a resumed game goes on exactly as
the unsaved one would). A saved game is a replay file (``replays``) with the
seats' kinds. Nothing here prints: the terminal screen (``cli.table_screen``)
and any later front end read a table's player's view (``Match.observation``)
and the words for it below (:func:`where_text`, :func:`option_text`).
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from interpreter.agents import agent_named
from interpreter.errors import CardrulesError, Problem, did_you_mean
from interpreter.replays import Replay, check_new_file, play_again, write_replay

HUMAN = "human"


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in a game played with ``seed`` (as
    ``play`` has always seeded its random agents)."""
    return seed * 1000 + seat


@attrs.define
class Table:
    """A game being played at a table; ``actions[i]`` was chosen by seat
    ``deciders[i]``."""

    compiled: object
    decks: list                 # a Deck per seat
    seed: int
    seats: tuple                # "human" or an agent's name, per seat
    game_name: str              # how a save names the game (an id or a rules file's path)
    deck_names: tuple           # how a save names each deck (a name or a deck file's path)
    match: object = None
    actions: list = attrs.Factory(list)
    deciders: list = attrs.Factory(list)
    agents: list = attrs.Factory(list)
    saved_to: Path | None = None     # the file this table last saved to
    saved_at: int | None = None      # how many actions that save holds

    @classmethod
    def open(cls, compiled, decks, seed: int, seats, game_name: str, deck_names,
             actions=(), digest: str | None = None) -> "Table":
        """A table at the start of the game, or after ``actions`` (a saved
        game: its log must still give ``digest`` when one is given)."""
        table = cls(compiled, list(decks), seed, tuple(seats), game_name, tuple(deck_names))
        table._rebuild(list(actions), digest)
        return table

    def _rebuild(self, actions: list, digest: str | None = None) -> None:
        """The game played again from its seed to after ``actions``, with
        fresh agents shown the decisions they took (their generators move
        on as they did)."""
        self.agents = [None if kind == HUMAN else agent_named(kind, seat_seed(self.seed, seat))
                       for seat, kind in enumerate(self.seats)]
        self.actions, self.deciders = [], []

        def note(match, action):
            seat = match.current_player()
            if self.agents[seat] is not None:
                self.agents[seat].act(match)
            self.actions.append(action)
            self.deciders.append(seat)

        self.match = play_again(self.compiled, self.decks,
                                Replay(self.game_name, (), self.seed, tuple(actions), digest),
                                each_action=note)

    # ---- playing

    def human_seat(self) -> int | None:
        """The seat of the person who must decide now; None when an agent
        decides or the game is over."""
        if self.match.is_terminal():
            return None
        seat = self.match.current_player()
        return seat if self.seats[seat] == HUMAN else None

    def play_agents(self, max_decisions: int = 100_000) -> None:
        """The agents decide until a person must, or the game ends."""
        decisions = 0
        while self.agent_to_move():
            if decisions >= max_decisions:
                self.match.game_over_by_cap(f"more than {max_decisions} decisions")
                return
            self.play_agent()
            decisions += 1

    def agent_to_move(self) -> bool:
        return not self.match.is_terminal() and self.human_seat() is None

    def play_agent(self) -> None:
        """One decision of the agent to move, if an agent is to move (a web
        page shows the agents' moves one by one)."""
        if self.agent_to_move():
            seat = self.match.current_player()
            self._take(seat, self.agents[seat].act(self.match))

    def can_undo(self) -> bool:
        """A person took a decision that undo would take back."""
        return any(self.seats[seat] == HUMAN for seat in self.deciders)

    def choose(self, number: int) -> None:
        """The person deciding now takes option ``number`` (counted from 1)."""
        seat = self.human_seat()
        if seat is None:
            raise CardrulesError(Problem("E840", "nobody at this table has a decision to take"))
        count = len(self.match.legal_actions())
        if not 1 <= number <= count:
            raise CardrulesError(Problem(
                "E841", f"there is no option {number}", None, None,
                (f"a number from 1 to {count}",)))
        self._take(seat, self.match.legal_actions()[number - 1])

    def _take(self, seat: int, action: int) -> None:
        self.actions.append(action)
        self.deciders.append(seat)
        self.match.apply_action(action)

    def undo(self) -> None:
        """Back to the last decision a person took: the game rebuilt without
        it and without everything after it. The agents' choices after it are
        not kept: they decide again (the same way if the person chooses the
        same, since their generators are rebuilt too)."""
        last = next((i for i in range(len(self.actions) - 1, -1, -1)
                     if self.seats[self.deciders[i]] == HUMAN), None)
        if last is None:
            raise CardrulesError(Problem("E842", "nothing to undo: no decision taken yet"))
        self._rebuild(self.actions[:last])

    # ---- saving

    def save(self, path: Path) -> None:
        """The game so far written to ``path`` as a replay with its seats;
        over an existing file only if it is this table's own earlier save."""
        if self.saved_to is None or path.resolve() != self.saved_to:
            check_new_file(path)
        try:
            write_replay(path, self.game_name, self.deck_names, self.seed, self.actions,
                         self.match, self.seats, replace=path.exists())
        except OSError as err:
            raise CardrulesError(Problem("E843", f"cannot save to {path}: {err.strerror}",
                                         None, None, ("a file in a folder you may write",)))
        self.saved_to, self.saved_at = path.resolve(), len(self.actions)

    def unsaved(self) -> bool:
        """Decisions were taken since the last save (or there was none)."""
        return self.saved_at != len(self.actions)


# ---- words for a player's view


_INSTANCE = re.compile(r" #(\d+)\b")


def where_text(zone_key: str, viewer: int) -> str:
    """An observation's zone key ("hand/1", "graveyard/0", "stack") read from
    ``viewer``'s seat: "your hand", "Player 1's graveyard", "the stack"."""
    name, _, owner = zone_key.rpartition("/")
    if not name or not owner.lstrip("-").isdigit():
        return f"the {zone_key}"
    return f"your {name}" if int(owner) == viewer else f"Player {int(owner) + 1}'s {name}"


def card_text(record: dict, in_public: bool = True) -> str:
    """A card of an observation in a few words: its name, stats as
    modified now, counters and statuses ("Knight (cost 1, power 3; exhausted)");
    "face down" said of a card in a public zone (``in_public``) only."""
    if not record.get("face_up", True) and "name" not in record:
        return "a face-down card"
    details = [f"{k} {v}" for k, v in record.get("stats", {}).items()]
    details += [f"{v} {k}" for k, v in record.get("counters", {}).items()]
    marks = list(record.get("statuses", ()))
    if in_public and record.get("name") and not record.get("face_up", True):
        marks.append("face down")
    if record.get("slot") is not None:
        marks.append(f"slot {record['slot']}")
    inside = ", ".join(details) + ("; " if details and marks else "") + ", ".join(marks)
    return f"{record.get('name')} ({inside})" if inside else str(record.get("name"))


def option_text(view: dict, label: str) -> str:
    """An option's label with each card it names told by where the viewer
    sees it ("cast Squire #21" -> "cast Squire from your hand"), not by
    its number inside the engine."""
    where = {record["id"]: key for key, records in view["cards"].items()
             for record in records if "id" in record}

    def told(found: re.Match) -> str:
        key = where.get(int(found.group(1)))
        return f" ({where_text(key, view['player'])})" if key else ""

    return _INSTANCE.sub(told, label)


# decisions that are a question the player may answer no to ("You may draw
# a card", "use the ability of X?"), not a choice they must make
QUESTIONS = ("yes-no", "use")


def decision_heading(decision: dict) -> str:
    """The line above a decision's options: "You must choose a card to
    discard:", or for a yes-or-no question "You may draw a card:"."""
    prompt = decision["prompt"]
    if decision.get("kind") in QUESTIONS:
        return f"You may {prompt.rstrip('?')}:"
    return f"You must {prompt}:"


def repeats_counted(lines: list[str]) -> list[str]:
    """The same line told several times in a row once, with how many times
    ("A card moves from Player 2's hand to Player 2's deck. (x7)"): a
    mulligan's seven hidden cards are one line on the screen."""
    out: list[str] = []
    count = 0
    for index, line in enumerate(lines):
        count += 1
        if index + 1 < len(lines) and lines[index + 1] == line:
            continue
        out.append(line if count == 1 else f"{line} (x{count})")
        count = 0
    return out


def card_lines(definition) -> list[str]:
    """A card's full text as its card file gives it: its name and kind, its
    stats, each face's stats and its abilities."""
    lines = [f"{definition.name} ({definition.kind})"]
    if definition.stats:
        lines.append("  " + ", ".join(f"{s.name}: {s.text}" for s in definition.stats))
    for face, stats in definition.faces:
        lines.append(f"  {face}: " + ", ".join(f"{s.name}: {s.text}" for s in stats))
    lines += [f"  {a.text}" for a in definition.abilities]
    return lines


def find_card(cards: dict, name: str):
    """The card called ``name`` (any case) among ``cards`` (name ->
    definition); a problem with the nearest name when there is none."""
    by_lower = {n.lower(): d for n, d in cards.items()}
    found = by_lower.get(name.strip().lower())
    if found is None:
        raise CardrulesError(Problem("E844", f'no card called "{name.strip()}" in this game',
                                     None, None, (), did_you_mean(name.strip(), cards)))
    return found
