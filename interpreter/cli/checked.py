"""What ``check`` found in a game, kept between runs: a game whose files (and
the code reading them) are as an earlier check saw them is not read, parsed
or compiled again.

A game's record -- its files, how many cards and decks it has, its problems
and warnings, and what the engine could not compile -- is kept as JSON in
the user's cache folder (``interpreter.language.parse_store``), named by the
SHA-256 of everything that decides it: the code of the ``interpreter``
package and its grammars, the folder the command runs in (paths are shown
relative to it), the game asked for, and the path and text of every file
loading the game reads (``games.game_inputs``: the list ``load_game``
reads). Any change to any of these is another name, so a record is never
read for files it was not made from. A record that does not read back as
what this code writes is ignored. ``CARDRULES_NO_CACHE=1`` turns it off, as
it does the parsed texts.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import attrs

from interpreter.engine import compile_game
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.language import parse_store
from interpreter.language.files import Unreadable, read_source
from interpreter.language.games import Game, game_inputs, load_game
from interpreter.resources import grammar_path
from interpreter.source import Span


@attrs.frozen
class Checked:
    """What check reports of one game."""

    game_id: str
    rules_path: str
    files: tuple[str, ...]
    cards: int
    decks: int
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    not_compiled: tuple[Problem, ...]      # compile_problems


def compile_problems(game: Game) -> list[Problem]:
    """What the engine could not run of a game that declares how it is played:
    check compiles everything it checks, so what it accepts runs."""
    if not game.rules.phases:
        return []
    if any(p.code == "E517" for p in game.problems):
        return []       # no card grammar to compile with: its clash is reported
    if any(p.span is not None and p.span.path == game.rules.path for p in game.problems):
        # a rules file with problems is not read to its end (the meanings of
        # its adjectives and nouns): compiling would report what follows
        # from them as problems of their own
        return []
    try:
        compile_game(game)
    except CardrulesError as err:
        # a line already reported (an unknown word, a label its kind cannot
        # have) is not reported again for what follows from it
        reported = {(p.span.path, p.span.line) for p in game.problems if p.span is not None}
        return [p for p in err.problems
                if p.span is None or (p.span.path, p.span.line) not in reported]
    return []


def checked_game(game: str, root: Path | None = None,
                 extra_files: tuple[Path, ...] = ()) -> Checked:
    """The game loaded, checked and compiled (``load_game``'s arguments), or
    its record from an earlier check of the same files by the same code.
    Raises CouldNotRun as load_game does."""
    where = _record_path(game, root, extra_files)
    found = _recall(parse_store.read_record(where))
    if found is not None:
        return found
    loaded = load_game(game, root, extra_files=extra_files)
    checked = Checked(loaded.game_id, loaded.rules.path, tuple(loaded.files),
                      len(loaded.cards), len(loaded.decks), tuple(loaded.problems),
                      tuple(loaded.warnings), tuple(compile_problems(loaded)))
    record = _record(checked)
    if record is not None and _recall(record) == checked:
        parse_store.write_record(where, record)
    return checked


def _code_digest() -> str:
    """The interpreter package's code and its grammars."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted([*package.rglob("*.py"), *grammar_path("x").parent.iterdir()]):
        if path.is_file():
            digest.update(str(path.relative_to(path.parents[1])).encode("utf-8"))
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _record_path(game: str, root: Path | None, extra_files: tuple[Path, ...]) -> Path | None:
    """Where the record of this check is kept; None when it is not kept (the
    store is off, or a file cannot be read as text: the check reports it)."""
    if os.environ.get("CARDRULES_NO_CACHE"):
        return None
    parts = ["check 1", _code_digest(), str(Path.cwd()), str(game), str(root), str(extra_files)]
    for path, shown in game_inputs(game, root, extra_files):
        try:
            source = read_source(path, shown)
        except CouldNotRun:
            return None
        if isinstance(source, Unreadable):
            return None
        parts += [str(path), shown, source.text]
    return parse_store.record_path("checked", parts)


def _problem_record(problem: Problem) -> list:
    span = problem.span
    return [problem.code, problem.message,
            None if span is None else [span.path, span.line, span.column, span.end_line,
                                       span.end_column],
            problem.source_line, list(problem.expected), problem.suggestion]


def _problem(record: list) -> Problem:
    code, message, span, source_line, expected, suggestion = record
    return Problem(code, message, None if span is None else Span(*span), source_line,
                   tuple(expected), suggestion)


_PROBLEM_FIELDS = ["code", "message", "span", "source_line", "expected", "suggestion"]


def _record(checked: Checked) -> dict | None:
    """``checked`` as JSON; None if a problem has fields this code does not write."""
    if [f.name for f in attrs.fields(Problem)] != _PROBLEM_FIELDS:
        return None
    return {"game_id": checked.game_id, "rules_path": checked.rules_path,
            "files": list(checked.files), "cards": checked.cards, "decks": checked.decks,
            **{name: [_problem_record(p) for p in getattr(checked, name)]
               for name in ("problems", "warnings", "not_compiled")}}


def _recall(record) -> Checked | None:
    """The Checked a record holds; None for no record or one that does not read."""
    if not isinstance(record, dict):
        return None
    try:
        return Checked(record["game_id"], record["rules_path"], tuple(record["files"]),
                       record["cards"], record["decks"],
                       *(tuple(_problem(p) for p in record[name])
                         for name in ("problems", "warnings", "not_compiled")))
    except (KeyError, TypeError, ValueError):
        return None
