"""The values of rules-file declarations, read by the grammar ``rules.lark``.

A declaration's value (the text after its colon, "per player, starts at
20") and a worded head ("once used from ZONE") are parsed with the start rule
of that declaration or field into a small AST: :class:`Setting` nodes (one
per property, named by its grammar rule) holding numbers, words, :class:`Name`
nodes and nested settings, each with its span in the file. A value the
grammar cannot read raises :class:`UnreadableValue` with the offset of the
first word it could not take and what it expected there; the rules reader
turns that into a problem at its line and column.
"""

from __future__ import annotations

from typing import Iterator

import attrs
from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from interpreter.language.lark_build import lalr_parser
from interpreter.resources import read_grammar
from interpreter.source import Span


@attrs.frozen
class Name:
    """A name as written in a value: its text without quotes, and where it is."""

    text: str
    span: Span


@attrs.frozen
class Setting:
    """One property or value: its grammar form ("starts_at", "position_in"),
    what it holds (ints, lower-cased words, Names, Settings) and its span."""

    form: str
    args: tuple
    span: Span

    def number(self, index: int = 0) -> int:
        return [a for a in self.args if isinstance(a, int)][index]

    def name(self, index: int = 0) -> Name:
        return [a for a in self.args if isinstance(a, Name)][index]

    def names(self) -> list[Name]:
        return [a for a in self.args if isinstance(a, Name)]

    def find(self, form: str) -> Setting | None:
        """The nested setting of this form, if any."""
        return next((a for a in self.args if isinstance(a, Setting) and a.form == form), None)

    @property
    def words(self) -> str:
        """The words this setting's form keeps ("face up", "at most"), joined."""
        return " ".join(str(a) for a in self.args if isinstance(a, (str, int))
                        and not isinstance(a, bool))


class UnreadableValue(Exception):
    """The grammar could not read a value: where, and what it expected."""

    def __init__(self, offset: int, end: int, expected: tuple[str, ...]):
        super().__init__(offset)
        self.offset, self.end, self.expected = offset, end, expected


_PARSER: Lark | None = None

_STARTS = (
    "players", "match", "counter_properties", "value_properties", "zone_properties",
    "stat_type", "used_from", "once_used", "once_used_from_key", "text_happens", "boxes",
    "timing_properties", "used_as", "noun_kinds", "size", "copies", "count", "total_key",
    "total", "limited", "starts_in", "matching", "for_each_key", "taken_by",
    "limit", "exchange_field", "sacrifices", "names", "status_property", "after_use",
    "another_name",
)

_READABLE = {
    "INT": "a number",
    "QUOTED": "a name",
    "WORD": "a name",
    "REST": "card-language text",
    "$END": "the end of the line",
    "COMMA": '","',
}


class _GluedWords(Exception):
    """A word of the grammar read as the start of a longer written word."""

    def __init__(self, offset: int):
        super().__init__(offset)
        self.offset = offset


class _WholeWords:
    """Between the lexer and the parser: a word of the grammar must be a whole
    written word. (Where only "any" may come next, the lexer would otherwise
    read "anytime" as "any" followed by "time".)"""

    always_accept = ()

    def process(self, stream):
        last = None
        for token in stream:
            if last is not None and token.start_pos == last.end_pos \
                    and last.value[-1:].isalnum() and token.value[:1].isalnum():
                raise _GluedWords(last.start_pos)
            last = token
            yield token


def _parser() -> Lark:
    """The value parser, built once per process."""
    global _PARSER
    if _PARSER is None:
        grammar = read_grammar("rules.lark")
        _PARSER = lalr_parser(grammar, start=list(_STARTS), propagate_positions=True,
                              maybe_placeholders=False, postlex=_WholeWords(),
                              cache_key=grammar + "\n// starts: " + " ".join(_STARTS))
    return _PARSER


def parse_value(text: str, span: Span, start: str) -> Setting:
    """``text`` (written at ``span``, on one line) read with the start rule
    ``start``; raises :class:`UnreadableValue`."""
    parser = _parser()
    try:
        tree = parser.parse(text, start=start)
    except UnexpectedInput as err:
        raise _unreadable(err, text, parser) from None
    except _GluedWords as err:
        end = err.offset
        while end < len(text) and not text[end].isspace() and text[end] != ",":
            end += 1
        raise UnreadableValue(err.offset, end, ()) from None
    return _Converter(text, span).node(tree)


def _unreadable(err: UnexpectedInput, text: str, parser: Lark) -> UnreadableValue:
    if isinstance(err, UnexpectedToken) and err.token.type != "$END":
        offset = err.token.start_pos
        end = err.token.end_pos
        names = err.expected
    elif isinstance(err, UnexpectedCharacters):
        offset = err.pos_in_stream
        end = offset + 1
        names = err.allowed or ()
    else:  # the text ended too soon
        offset = end = len(text.rstrip())
        names = getattr(err, "expected", None) or ()
    return UnreadableValue(offset, max(end, offset + 1), _readable(names, parser))


def _readable(names, parser: Lark) -> tuple[str, ...]:
    out: list[str] = []
    for name in sorted(names):
        if name in _READABLE:
            shown = _READABLE[name]
        else:
            try:
                shown = f'"{parser.get_terminal(name).pattern.value}"'
            except KeyError:
                shown = name.lower()
        if shown not in out:
            out.append(shown)
    return tuple(out)


class _Converter:
    """Lark trees to Settings and Names, with spans in the file."""

    def __init__(self, text: str, span: Span):
        self.text = text
        self.span = span

    def at(self, start: int, end: int) -> Span:
        column = self.span.column + start
        return Span(self.span.path, self.span.line, column, self.span.line,
                    column + max(end - start, 1))

    def node(self, tree: Tree) -> Setting:
        form = str(tree.data)
        if tree.meta.empty:
            span = self.at(0, len(self.text))
        else:
            span = self.at(tree.meta.start_pos, tree.meta.end_pos)
        if form == "name" or form.startswith("name_"):
            raw = self.text[tree.meta.start_pos:tree.meta.end_pos]
            return Name(_unquote(raw), span)
        return Setting(form, tuple(self.args(tree)), span)

    def args(self, tree: Tree) -> Iterator:
        for child in tree.children:
            if isinstance(child, Tree):
                yield self.node(child)
            elif child.type == "INT":
                yield int(child)
            elif child.type in ("REST", "QUOTED", "WORD"):
                yield Name(_unquote(str(child)), self.at(child.start_pos, child.end_pos))
            else:
                yield str(child).lower()


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in '"\u201c' and text[-1] in '"\u201d':
        return text[1:-1]
    return text


def pieces(text: str) -> list[tuple[int, int]]:
    """The comma-separated pieces of ``text`` (commas inside quotes kept),
    as (start, end) offsets."""
    out, start, quoted = [], 0, False
    for index, char in enumerate(text):
        if char in '"\u201c\u201d':
            quoted = not quoted if char == '"' else char == "\u201c"
        elif char == "," and not quoted:
            out.append((start, index))
            start = index + 1
    out.append((start, len(text)))
    return out
