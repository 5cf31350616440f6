"""Shared helpers for the tests that pin cardrules' error messages.

The fixtures under ``tests/fixtures/`` are game roots laid out like the
repository (``rules/<game>.rules``, ``cards/<game>/*.cards``,
``cards/<game>/decks/*.deck``). Problem paths are shown relative to the
working directory, so every test runs from the repository root
(:func:`at_repo_root`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import Problem
from interpreter.language.games import load_game

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
GAMES = ("ryft", "silver-wing-rivals", "rival-rush", "saturday-wars")


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(REPO)


def fixture_path(*parts: str) -> str:
    """A fixture file as problems show it: relative to the repository root."""
    return "/".join(("tests", "fixtures") + parts)


def card_file(game: str, name: str) -> str:
    return fixture_path(game, "cards", game, name)


def deck_file(game: str, name: str) -> str:
    return fixture_path(game, "cards", game, "decks", name)


def problems_of(root: str, game: str) -> list[Problem]:
    """Every problem of ``game`` in the fixture root ``root``."""
    return list(load_game(game, FIXTURES / root).problems)


def problems_in(root: str, game: str, path: str) -> list[Problem]:
    return [p for p in problems_of(root, game) if p.span and p.span.path == path]


def the_problem(problems: list[Problem], path: str, line: int, code: str | None = None) -> Problem:
    """The one problem at ``path``:``line`` (with ``code``, when given)."""
    found = [p for p in problems if p.span and p.span.path == path and p.span.line == line
             and (code is None or p.code == code)]
    assert len(found) == 1, (
        f"expected one problem at {path}:{line} {code or ''}, got:\n"
        + "\n".join(p.render() for p in problems if p.span and p.span.path == path))
    return found[0]


def pin(problem: Problem, code: str, path: str, line: int, column: int, message: str,
        expected: tuple[str, ...] | None = (), suggestion: str | None = None) -> None:
    """Assert every part of a problem; ``expected=None`` skips the expected list."""
    assert problem.span is not None
    got = (problem.code, problem.span.path, problem.span.line, problem.span.column,
           problem.message)
    assert got == (code, path, line, column, message), problem.render()
    if expected is not None:
        assert problem.expected == tuple(expected), problem.render()
    assert problem.suggestion == suggestion, problem.render()
    assert_inside(problem)


def assert_inside(problem: Problem) -> None:
    """The position lies inside the file: a real line, a column on it (or
    just after its end)."""
    span = problem.span
    assert span is not None
    path = REPO / span.path if not Path(span.path).is_absolute() else Path(span.path)
    data = path.read_bytes()
    try:
        lines = data.decode("utf-8").replace("\r\n", "\n").split("\n")
    except UnicodeDecodeError:
        lines = [line.decode("latin-1") for line in data.replace(b"\r\n", b"\n").split(b"\n")]
    assert 1 <= span.line <= len(lines), f"line {span.line} outside {span.path}"
    text = lines[span.line - 1]
    assert 1 <= span.column <= len(text) + 1, (
        f"column {span.column} outside line {span.line} ({len(text)} characters): "
        + problem.render())
    if span.end_line == span.line:
        assert span.end_column <= len(text) + 2, problem.render()


def assert_inside_text(problems, text: str, paths=None) -> None:
    """Every positioned problem lies inside ``text`` (an input that is not
    on disk, such as a fuzzed file): a real line, a column on it or just
    after its end. ``paths``: only the problems of these files (others may
    point into the files a ruling's game is read from)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for p in problems:
        if p.span is None or (paths is not None and p.span.path not in paths):
            continue
        assert 1 <= p.span.line <= max(1, len(lines)), p.render()
        width = len(lines[p.span.line - 1]) if p.span.line <= len(lines) else 0
        assert 1 <= p.span.column <= width + 2, p.render()


def text_at(problem: Problem) -> str:
    """The source text the problem's span covers (one-line spans)."""
    line = (REPO / problem.span.path).read_text(encoding="utf-8").split("\n")[problem.span.line - 1]
    return line[problem.span.column - 1:problem.span.end_column - 1]
