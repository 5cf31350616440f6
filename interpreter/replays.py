"""Replays: a game kept as what is needed to play it again exactly.

A replay file is JSON: the game (an id, or the whole path of a rules
file), the decks by name (or a deck file by its whole path), one per seat,
the seed, the actions chosen (legal-action indices, in order) and the digest of the log
they made. Playing the actions again from the same start gives the same log
byte for byte (the engine is deterministic); the digest says so, and a
replay that no longer gives it (the game's files changed) is refused, not
shown wrong. A replay is data: read with ``json``, every field checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from interpreter.engine import Match
from interpreter.errors import CouldNotRun, Problem
from interpreter.language.files import Unreadable, read_source

FORMAT = "cardrules replay 1"


@attrs.frozen
class Replay:
    game: str
    decks: tuple[str, ...]
    seed: int
    actions: tuple[int, ...]
    digest: str | None      # None: not checked (a table going back to a decision)
    seats: tuple[str, ...] = ()    # who played each seat, for a saved game


class Recorder:
    """An agent's stand-in that notes each action the agent chooses."""

    def __init__(self, agent, actions: list):
        self.agent, self.actions = agent, actions

    def act(self, match) -> int:
        action = self.agent.act(match)
        self.actions.append(action)
        return action


def write_replay(path: Path, game: str, decks, seed: int, actions, match, seats=(),
                 replace: bool = False) -> None:
    """Write the replay of ``match`` (finished, or a saved game so far with
    its ``seats``); never over an existing file unless ``replace`` (the
    caller checks with :func:`check_new_file`)."""
    with path.open("w" if replace else "x", encoding="utf-8") as out:
        out.write(json.dumps(replay_data(game, decks, seed, actions, match, seats)) + "\n")


def replay_data(game: str, decks, seed: int, actions, match, seats=()) -> dict:
    """A replay as the JSON object its file holds (a saved game adds who
    sits in each seat). ``decks`` are Decks or the names (or paths) that
    name them."""
    data = {"format": FORMAT, "game": game,
            "decks": [d if isinstance(d, str) else d.name for d in decks], "seed": seed,
            "actions": list(actions), "digest": match.log_digest()}
    if seats:
        data["seats"] = list(seats)
    return data


def check_new_file(path: Path) -> None:
    if path.exists() or path.is_symlink():
        raise CouldNotRun(Problem(
            "E912", f"{path} already exists; cardrules does not write over it", None, None,
            ("a new file name",), None))


def _bad(path: str, what: str) -> CouldNotRun:
    return CouldNotRun(Problem("E813", f"{path} is not a replay cardrules can read: {what}",
                               None, None, (f'a JSON file written by --record ("{FORMAT}")',)))


def read_replay(path: Path, seed: int | None = None) -> Replay:
    """The replay in a file (of several, one per line, the one of ``seed``)."""
    source = read_source(path)
    if isinstance(source, Unreadable):
        raise CouldNotRun(source.problem)
    return replay_in(source.text, source.path, seed)[1]


def replay_in(text: str, where: str, seed: int | None = None) -> tuple[dict, Replay]:
    """The replay a text holds, with its JSON object: the text is one
    replay (a --record file, a saved game), or several, one per line
    (``simulate --record``/``--out``), of which ``seed`` names one."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) <= 1:
        replay = parse_replay(text, where)
        return json.loads(text), replay
    if seed is None:
        raise CouldNotRun(Problem("E854", f"{where} holds {len(lines)} games: name one by "
                                  "its seed", None, None, ("--seed S",)))
    for number, line in enumerate(lines, 1):
        try:
            data = json.loads(line)
        except ValueError:
            raise _bad(f"{where}:{number}", "a line that is not JSON") from None
        if isinstance(data, dict) and data.get("seed") == seed:
            return data, parse_replay(line, f"{where}:{number}")
    raise CouldNotRun(Problem("E855", f"{where} holds no game of seed {seed}", None, None,
                              (f"one of the seeds of its {len(lines)} games",)))


def parse_replay(text: str, where: str) -> Replay:
    """The replay a file's text (or a saved game sent to a web table)
    holds; ``where`` names it in the problem if it holds none."""
    try:
        data = json.loads(text)
    except ValueError as err:
        raise _bad(where, f"not JSON ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(where, 'no "format" of a replay')
    fields = {"game": str, "decks": list, "seed": int, "actions": list, "digest": str}
    for name, kind in fields.items():
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise _bad(where, f'"{name}" is missing or not a {kind.__name__}')
    if not all(isinstance(d, str) for d in data["decks"]) or not all(
            isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in data["actions"]):
        raise _bad(where, '"decks" must be names and "actions" whole numbers')
    seats = data.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats) or (
            seats and len(seats) != len(data["decks"])):
        raise _bad(where, '"seats" must name who plays each deck\'s seat')
    return Replay(data["game"], tuple(data["decks"]), data["seed"], tuple(data["actions"]),
                  data["digest"], tuple(seats))


def play_again(compiled, decks, replay: Replay, each_turn=None, each_action=None) -> Match:
    """The replayed game, its actions applied in order; refused if an action
    is not legal where it was taken or the log is not the one recorded.
    ``each_turn(match)`` at the first decision of every turn, as in play_out;
    ``each_action(match, action)`` before each action is applied (a table
    lets its agents see the decisions they took, so they go on as they would)."""
    match = Match.start(compiled, list(decks), replay.seed)
    turn = None
    for step, action in enumerate(replay.actions, 1):
        if each_turn is not None and match.state.turn != turn and not match.is_terminal():
            turn = match.state.turn
            each_turn(match)
        if match.is_terminal() or action not in match.legal_actions():
            raise CouldNotRun(Problem(
                "E814", f"the replay's action {step} ({action}) is not legal in this game "
                "any more: its rules, cards or decks changed since it was recorded",
                None, None, ("the game as it was recorded",)))
        if each_action is not None:
            each_action(match, action)
        match.apply_action(action)
    if replay.digest is not None and match.log_digest() != replay.digest:
        raise CouldNotRun(Problem(
            "E814", "the replayed game's log differs from the recorded one: its rules, "
            "cards or decks changed since it was recorded", None, None,
            ("the game as it was recorded",)))
    return match
