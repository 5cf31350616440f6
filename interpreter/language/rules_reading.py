"""Reading a rules file: what every part of the reader shares.

:class:`RulesReaderBase` holds the file, the rules being built and the
problems found, with the helpers every declaration uses (its name, its
comma-separated properties, positions inside a line, the usual problems);
the declarations themselves are read by ``rules_components`` and
``rules_procedures``, put together in ``rules_file``.
"""

from __future__ import annotations

import re
from typing import Iterable

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.language.game_rules import GameRules, Sentence, _lookup
from interpreter.language.syntax import OutlineLine, problem_at
from interpreter.source import SourceText, Span


_INT = re.compile(r"^[+-]?\d+$")


class RulesReaderBase:
    def __init__(self, source: SourceText, rules: GameRules, problems: list[Problem]):
        self.source = source
        self.rules = rules
        self.problems = problems
        self.saw_game = False

    # ---- helpers

    def problem(self, span: Span, code: str, message: str,
                expected: Iterable[str] = (), suggestion: str | None = None) -> None:
        self.problems.append(problem_at(self.source, span, code, message,
                                        expected, suggestion))

    def name_after(self, line: OutlineLine, words: int) -> str | None:
        """The declared name: what follows the first ``words`` head words."""
        rest = line.head[words:]
        if not rest:
            self.problem(line.span, "E501", f'"{line.key}" needs a name',
                         (f'{line.key} NAME',))
            return None
        return " ".join(item.text for item in rest)

    def properties(self, line: OutlineLine, sentence: bool = True) -> list[tuple[str, Span]]:
        """The comma-separated properties of a one-line declaration."""
        if not line.value:
            return []
        out = []
        column = line.value_span.column
        for piece in line.value.split(","):
            stripped = piece.strip()
            offset = len(piece) - len(piece.lstrip())
            if stripped:
                span = Span(self.source.path, line.span.line, column + offset,
                            line.span.line, column + offset + len(stripped))
                # A one-line declaration may end like a sentence; a list of
                # names keeps its dots ("ADV." is a rank).
                out.append((stripped.rstrip(".") if sentence else stripped, span))
            column += len(piece) + 1
        return out

    def span_of_text(self, line: OutlineLine, text: str) -> Span:
        """Where ``text`` is written on ``line`` (the whole line if not found)."""
        source_line = self.source.line(line.span.line)
        index = source_line.find(text, line.span.column - 1)
        if index < 0:
            return line.span
        return Span(self.source.path, line.span.line, index + 1, line.span.line,
                    index + 1 + len(text))

    def names_list(self, line: OutlineLine) -> list[tuple[str, Span]]:
        return [(_unquote(text), span) for text, span in self.properties(line, False)]

    def unknown_field(self, line: OutlineLine, fields: Iterable[str]) -> None:
        fields = list(fields)
        self.problem(line.head[0].span, "E504", f'unknown field "{line.key}"',
                     (listing(fields, 12),), did_you_mean(line.key, fields))

    def bad_property(self, span: Span, prop: str, allowed: tuple[str, ...]) -> None:
        self.problem(span, "E505", f'unknown property "{prop}"', allowed,
                     did_you_mean(prop, allowed))

    def add(self, table: dict, name: str, decl, line: OutlineLine) -> None:
        if _lookup(table, name) is not None:
            self.problem(line.span, "E506", f'"{name}" is declared twice')
            return
        table[name] = decl

    def unknown_kind(self, kind: str, span: Span) -> None:
        self.problem(span, "E515", f'unknown card kind "{kind}"',
                     (listing(self.rules.kinds),), did_you_mean(kind, self.rules.kinds))

    def sentences(self, lines) -> tuple[Sentence, ...]:
        out = []
        for line in lines:
            text = self.source.line(line.span.line)[line.span.column - 1:].rstrip()
            span = Span(self.source.path, line.span.line, line.span.column,
                        line.span.line, line.span.column + len(text))
            out.append(Sentence(text, span))
        return tuple(out)


def _sacrificed_stat(text: str | None) -> str | None:
    """ "the cards its "alt. summon" names" -> "alt. summon"."""
    if text is None:
        return None
    m = re.fullmatch(r"the cards its (.+) names\.?", text.strip(), re.I)
    return _unquote(m.group(1)) if m else _unquote(text)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in '"\u201c' and text[-1] in '"\u201d':
        return text[1:-1]
    return text


def _parse_range(text: str) -> tuple[int | None, int | None] | None:
    text = text.lower().strip()
    if m := re.fullmatch(r"(?:exactly )?(\d+)", text):
        return int(m.group(1)), int(m.group(1))
    if m := re.fullmatch(r"(\d+) to (\d+)", text):
        return int(m.group(1)), int(m.group(2))
    if m := re.fullmatch(r"at most (\d+)", text):
        return None, int(m.group(1))
    if m := re.fullmatch(r"at least (\d+)", text):
        return int(m.group(1)), None
    return None
