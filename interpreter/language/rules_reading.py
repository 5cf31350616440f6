"""Reading a rules file: what every part of the reader shares.

:class:`RulesReaderBase` holds the file, the rules being built and the
problems found, with the helpers every declaration uses (its name, its
comma-separated properties, positions inside a line, the usual problems);
the declarations themselves are read by ``rules_components`` and
``rules_procedures``, put together in ``rules_file``.
"""

from __future__ import annotations

from typing import Iterable

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.language.game_rules import GameRules, Sentence, _lookup
from interpreter.language.rules_values import Setting, UnreadableValue, parse_value, pieces
from interpreter.language.syntax import OutlineLine, problem_at
from interpreter.source import SourceText, Span


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

    def read(self, line: OutlineLine, start: str, what: str = "property",
             forms: Iterable[str] = (), *, code: str = "E505", unknown: str = "unknown",
             several: bool = False, key: bool = False,
             suggest: Iterable[str] | None = None, message: str | None = None
             ) -> Setting | None:
        """A declaration's value (or, with ``key``, its worded head) read by
        the rule ``start`` of the rules grammar.

        What the grammar cannot read is a problem at its column: a piece it
        cannot even begin, or whose words are not the grammar's, is ``unknown
        WHAT "piece"`` with the ``forms`` a reader may write (and the nearest
        of them, or of ``suggest``); a piece that goes wrong at a number or a
        name is ``unreadable WHAT`` with what the grammar expected there. With ``several`` (a list
        of properties), a bad piece is reported and the others still read.
        """
        forms = tuple(forms)
        if key:
            first, last = line.head[0].span, line.head[-1].span
            text = self.source.line(first.line)[first.column - 1:last.end_column - 1]
            span = Span(self.source.path, first.line, first.column, first.line,
                        last.end_column)
        else:
            text = (line.value or "")
            span = line.value_span or line.span
        # a value may end like a sentence; a list of names keeps its dots ("ADV.")
        if start != "names":
            text = text.rstrip()
            text = text[:-1] if text.endswith(".") else text
        for _ in range(text.count(",") + 2):
            if not text.strip():
                if several:
                    return Setting(start, (), span)
                self.problem(span, code, f'{unknown} {what} ""', forms)
                return None
            try:
                return parse_value(text, span, start)
            except UnreadableValue as err:
                begin, end = self.report_unreadable(
                    err, text, span, what, forms, code, unknown,
                    forms if suggest is None else tuple(suggest), message)
            if not several:
                return None
            # blank the bad piece and one comma beside it, keeping the columns
            if end < len(text):
                end += 1
            elif begin > 0:
                begin -= 1
            text = text[:begin] + " " * (end - begin) + text[end:]
        return None

    def report_unreadable(self, err: UnreadableValue, text: str, span: Span, what: str,
                          forms: tuple[str, ...], code: str, unknown: str,
                          suggest: tuple[str, ...], message: str | None = None
                          ) -> tuple[int, int]:
        """Report ``err``; returns the comma-separated piece it is in."""
        begin, end = next(((a, b) for a, b in pieces(text) if a <= err.offset <= b),
                          (0, len(text)))
        piece = text[begin:end]
        first = begin + len(piece) - len(piece.lstrip())
        piece = piece.strip()
        for connective in ("then ", "and ", "or "):
            if piece.lower().startswith(connective):
                piece, first = piece[len(connective):].lstrip(), first + len(connective)
        def at(a: int, b: int) -> Span:
            return Span(span.path, span.line, span.column + a, span.line,
                        span.column + max(b, a + 1))
        if err.offset <= first or all(e.startswith('"') for e in err.expected):
            self.problem(at(first, first + len(piece)), code,
                         message or f"{unknown} {_naming(what, piece)}", forms,
                         did_you_mean(piece, suggest) if suggest else None)
        else:
            self.problem(at(err.offset, err.end), code,
                         f"unreadable {_naming(what, piece)}", err.expected)
        return begin, end

    def names_list(self, line: OutlineLine | None) -> list[tuple[str, Span]]:
        """A comma-separated list of names ("quoted" or words)."""
        if line is None or not (line.value or "").strip():
            return []
        found = self.read(line, "names", "name", several=True)
        return [(name.text, name.span) for name in found.names()] if found else []

    def setting(self, line: OutlineLine, choices: tuple[str, ...]) -> str | None:
        """A field whose value is one of a few settings ("never", "yes")."""
        value = (line.value or "").strip().rstrip(".").lower()
        if value not in choices:
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for {line.key.lower()}', choices,
                         did_you_mean(value, choices))
            return None
        return value

    def span_of_text(self, line: OutlineLine, text: str) -> Span:
        """Where ``text`` is written on ``line`` (the whole line if not found)."""
        source_line = self.source.line(line.span.line)
        index = source_line.find(text, line.span.column - 1)
        if index < 0:
            return line.span
        return Span(self.source.path, line.span.line, index + 1, line.span.line,
                    index + 1 + len(text))

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


def _naming(what: str, piece: str) -> str:
    """ "property" -> 'property "X"'; "setting {} for once used" -> 'setting "X"
    for once used'."""
    return what.format(f'"{piece}"') if "{}" in what else f'{what} "{piece}"'


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in '"\u201c' and text[-1] in '"\u201d':
        return text[1:-1]
    return text
