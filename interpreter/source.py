"""Source text and spans: where in which file a piece of text came from.

Every AST node and every problem carries a :class:`Span`. Lines and columns are
1-based, as editors and the ``path:line:col`` convention count them; the end is
exclusive.
"""

from __future__ import annotations

import attrs


@attrs.frozen(slots=True)
class Span:
    """A region of one source file: start line/column to end line/column."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, path: str, line: int, column: int) -> Span:
        return cls(path, line, column, line, column + 1)

    def shifted(self, line_offset: int, first_line_column_offset: int) -> Span:
        """This span, moved from a sub-text into the file that contains it."""

        def col(line: int, column: int) -> int:
            return column + first_line_column_offset if line == 1 else column

        return Span(
            self.path,
            self.line + line_offset,
            col(self.line, self.column),
            self.end_line + line_offset,
            col(self.end_line, self.end_column),
        )


@attrs.frozen(slots=True)
class SourceText:
    """The text of one file (or one snippet given on the command line)."""

    path: str
    text: str
    lines: tuple[str, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        # Lines as the parsers count them: \r\n, \r and \n all end a line.
        text = self.text.replace("\r\n", "\n").replace("\r", "\n")
        object.__setattr__(self, "lines", tuple(text.split("\n")))

    def line(self, number: int) -> str:
        if 1 <= number <= len(self.lines):
            line = self.lines[number - 1]
            return line[1:] if number == 1 and line.startswith("\ufeff") else line
        return ""

    def span_of(self, line: int, column: int, end_line: int, end_column: int) -> Span:
        return Span(self.path, line, column, end_line, end_column)

    def clamp(self, line: int, column: int) -> tuple[int, int]:
        """A position guaranteed to lie inside (or just at the end of) the text."""
        if not self.lines:
            return 1, 1
        line = max(1, min(line, len(self.lines)))
        column = max(1, min(column, len(self.line(line)) + 1))
        return line, column
