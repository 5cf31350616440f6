"""The one error hierarchy: every mistake a user can make becomes a Problem.

A :class:`Problem` is a structured record (path, line, column, code, message,
what was expected, a suggestion) that renders in the linter convention::

    cards/mygame/core.cards:12:5: E301 unknown timing label "TRIGER"
       12 |     TRIGER: When this is Summoned: Draw a card.
          |     ^^^^^^
      expected: a timing label of mygame (ABILITY, DEFEND, INFINITE, ...)
      did you mean "TRIGGER"?

The engine and the loaders raise :class:`CardrulesError` (carrying one or more
problems) and never print; only ``interpreter.cli`` renders.

Codes, by family:

* ``E1xx`` file layout (indentation, colons, quotes, encoding)
* ``E2xx`` effect text syntax
* ``E3xx`` names: unknown or misused vocabulary, card references
* ``E4xx`` card definitions (stats, kinds, duplicates)
* ``E5xx`` rules files
* ``E6xx`` decks and deck construction
* ``E7xx`` rulings (reading, running, snapshots)
* ``E8xx`` playing (what the engine cannot run yet, illegal actions and
  scripted choices, the decks and matches the play commands name)
* ``E9xx`` could not run (missing file, unknown game, a device or pipe where
  a file should be)
* ``W4xx`` warnings: likely mistakes that stop nothing (an empty card file)
"""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Sequence

import attrs

from interpreter.source import Span


@attrs.frozen(slots=True)
class Problem:
    """One thing wrong in something a user wrote."""

    code: str
    message: str
    span: Span | None = None
    source_line: str | None = None
    expected: tuple[str, ...] = ()
    suggestion: str | None = None

    def render(self) -> str:
        where = "" if self.span is None else (
            f"{self.span.path}:{self.span.line}:{self.span.column}: "
        )
        out = [f"{where}{self.code} {self.message}"]
        if self.span is not None and self.source_line is not None:
            number = str(self.span.line)
            gutter = " " * len(number)
            line = self.source_line.replace("\t", " ")
            out.append(f"  {number} | {line}")
            width = 1
            if self.span.end_line == self.span.line:
                width = max(1, self.span.end_column - self.span.column)
            width = max(1, min(width, len(line) - self.span.column + 1))
            out.append(f"  {gutter} | {' ' * (self.span.column - 1)}{'^' * width}")
        if self.expected:
            out.append(f"  expected: {', '.join(self.expected)}")
        if self.suggestion:
            out.append(f"  {self.suggestion}")
        return "\n".join(out)

    def to_json(self) -> dict:
        record: dict = {
            "path": self.span.path if self.span else None,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "code": self.code,
            "message": self.message,
        }
        if self.expected:
            record["expected"] = list(self.expected)
        if self.suggestion:
            record["suggestion"] = self.suggestion
        return record


class CardrulesError(Exception):
    """Something a user wrote is wrong; carries every problem found."""

    def __init__(self, problems: Sequence[Problem] | Problem):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(p.render() for p in self.problems))

    @property
    def first(self) -> Problem:
        return self.problems[0]


class CouldNotRun(CardrulesError):
    """The command could not run at all (missing file, unknown game): exit 2."""


def did_you_mean(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """'did you mean "X"?' for the nearest candidate, compared case-insensitively."""
    pool = {c.lower(): c for c in candidates if c}
    if not pool or not word:
        return None
    close = difflib.get_close_matches(word.lower(), list(pool), n=1, cutoff=cutoff)
    if not close or pool[close[0]] == word:
        return None
    return f'did you mean "{pool[close[0]]}"?'


def listing(names: Iterable[str], limit: int = 8) -> str:
    """A short readable list: 'A, B, C, ... (12 in all)'."""
    names = sorted(set(names), key=str.lower)
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"


def nearest_phrase(text: str, candidates: Iterable[str]) -> str | None:
    """did-you-mean for what is written at the start of ``text``, against
    candidates of any number of words: each is compared with as many words
    of the text ("Dobule Strike" -> "Double Strike")."""
    by_length: dict[int, list[str]] = {}
    for candidate in candidates:
        by_length.setdefault(len(candidate.split()), []).append(candidate)
    written = re.findall(r"[^\s.,:;]+", text)
    best = None
    for count, group in by_length.items():
        if count > len(written):
            continue
        phrase = " ".join(written[:count])
        if did_you_mean(phrase, group) is None:
            continue
        score, nearest = max((difflib.SequenceMatcher(None, phrase.lower(), c.lower()).ratio(),
                              c) for c in group)
        if best is None or score > best[0]:
            best = (score, phrase, nearest)
    return did_you_mean(best[1], [best[2]]) if best else None
