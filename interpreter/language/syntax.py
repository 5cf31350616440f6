"""The lark front end: parsers, the outline of files, and syntax errors.

Owns the parsers of files and card text (each built by ``lark_build``).
Two kinds of grammar live in ``grammar/``:

* ``outline.lark`` reads the indented layout shared by every file kind into
  :class:`OutlineLine` trees (a head, an optional value, nested lines);
* ``effect.lark`` is the base card-text language; a game's vocabulary is
  generated into it (``interpreter.language.vocabulary``) so that every game gets its
  own LALR parser, built once (``lark_build``: its table kept on disk).

Lark's exceptions never leave this module: :func:`problem_from_lark` turns
them into :class:`~interpreter.errors.Problem` records that speak the user's
language (readable token names, the labelled examples in
``grammar/*.examples`` matched with ``match_examples``, did-you-mean).
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

import attrs
from lark import Lark, Token
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.lexer import PatternStr

from interpreter.errors import Problem, did_you_mean, nearest_phrase
from interpreter.language import parse_store
from interpreter.language.lean_lalr import LeanParser, NotPlain, prefix_length, spells_longer
from interpreter.language.lark_build import lalr_parser
from interpreter.language.vocabulary import (
    by_first_word, other_games_word, period_kinds_apart, plural, terminal_word, unknown_period,
    unknown_verb)
from interpreter.resources import read_examples, read_grammar
from interpreter.source import SourceText, Span

# --------------------------------------------------------------------------
# The outline of a file


@attrs.frozen(slots=True)
class HeadItem:
    """One word or "quoted name" of a line's head."""

    text: str          # without quotes for names
    quoted: bool
    span: Span


@attrs.frozen(slots=True)
class OutlineLine:
    """One line of a file with the lines indented under it."""

    head: tuple[HeadItem, ...]
    value: str | None            # text after the colon, None if no colon
    value_span: Span | None
    children: tuple["OutlineLine", ...]
    span: Span                   # the whole line (head to end of value)
    has_colon: bool

    @property
    def key(self) -> str:
        """The head as one string, names quoted, words joined by spaces."""
        return " ".join(f'"{h.text}"' if h.quoted else h.text for h in self.head)

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(h.text for h in self.head)


_MAX_DEPTH = 50


class _OutlineIndenter:
    """Turns newline tokens into _INDENT/_DEDENT, with positioned errors."""

    always_accept = ("_NL",)

    def process(self, stream: Iterable[Token]) -> Iterator[Token]:
        levels = [0]
        last = None
        for token in stream:
            last = token
            if token.type != "_NL":
                yield token
                continue
            yield token
            indent_text = token.rsplit("\n", 1)[1]
            line = token.end_line
            if "\t" in indent_text:
                raise _LayoutError(
                    "E104", "a tab in the indentation; indent with spaces",
                    line, 1, len(indent_text) + 1)
            indent = len(indent_text)
            if indent > levels[-1]:
                if len(levels) > _MAX_DEPTH:
                    raise _LayoutError(
                        "E107", f"lines are nested more than {_MAX_DEPTH} levels deep",
                        line, 1, indent + 1, (f"at most {_MAX_DEPTH} levels",))
                levels.append(indent)
                yield Token.new_borrow_pos("_INDENT", indent_text, token)
                continue
            open_levels = list(levels)
            while indent < levels[-1]:
                levels.pop()
                yield Token.new_borrow_pos("_DEDENT", indent_text, token)
            if indent != levels[-1]:
                columns = " or ".join(str(level + 1) for level in open_levels)
                raise _LayoutError(
                    "E101",
                    f"bad indentation: this line starts at column {indent + 1}, "
                    f"which lines up with no line above it",
                    line, 1, indent + 1,
                    expected=(f"a line starting at column {columns}",))
        while len(levels) > 1:
            levels.pop()
            yield (Token.new_borrow_pos("_DEDENT", "", last) if last
                   else Token("_DEDENT", "", 0, 1, 1, 1, 1, 0))


class _LayoutError(Exception):
    def __init__(self, code, message, line, column, end_column, expected=()):
        super().__init__(message)
        self.code, self.message = code, message
        self.line, self.column, self.end_column = line, column, end_column
        self.expected = expected


_OUTLINE_PARSERS: dict[bool, Lark] = {}


def _outline_parser(strict: bool = False) -> Lark:
    """The outline parser, built once per process (the indenter keeps no state
    between parses)."""
    if strict not in _OUTLINE_PARSERS:
        grammar = read_grammar("outline.lark")
        _OUTLINE_PARSERS[strict] = lalr_parser(
            grammar, strict=strict, propagate_positions=True, maybe_placeholders=False,
            postlex=_OutlineIndenter())
    return _OUTLINE_PARSERS[strict]


def outline_grammar_parser(strict: bool = True) -> Lark:
    """The outline parser on its own (for tests of the grammar)."""
    return _outline_parser(strict=strict)


_MAX_OUTLINE_RETRIES = 25


def parse_outline(source: SourceText) -> tuple[list[OutlineLine], list[Problem]]:
    """The outline of a file, and the layout problems found on the way.

    A layout problem blanks out the offending line and parsing goes on, so one
    run reports every broken line, not only the first.
    """
    text = _normalize_newlines(source.text)
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark is not part of the text
    problems: list[Problem] = []
    lines = text.split("\n")
    for number, raw in enumerate(lines, 1):
        if raw.strip() and not raw.lstrip().startswith("#"):
            if raw[:1] in " \t":
                indent = len(raw) - len(raw.lstrip())
                problems.append(_problem(
                    source, "E101", "bad indentation: this line is indented but "
                    "there is no line above it to belong to", number, 1, indent + 1,
                    ("no indentation",)))
                _blank_line_and_block(lines, number - 1, first=True)
            break
    for _ in range(_MAX_OUTLINE_RETRIES):
        try:
            tree = _outline_parser().parse("\n".join(lines) + "\n")
        except _LayoutError as err:
            problems.append(_problem(source, err.code, err.message, err.line,
                                     err.column, err.end_column, err.expected))
            bad = err.line
        except UnexpectedInput as err:
            problem = _outline_problem(source, err)
            problems.append(problem)
            bad = problem.span.line if problem.span else 1
        else:
            return [_outline_line(source, child) for child in tree.children], problems
        if not (1 <= bad <= len(lines)) or not lines[bad - 1].strip():
            break
        _blank_line_and_block(lines, bad - 1)
    return [], problems


def _blank_line_and_block(lines: list[str], index: int, first: bool = False) -> None:
    """Blank a broken line and the lines indented under it (they would only
    report the same mistake again as stray indentation)."""
    indent = 0 if first else len(lines[index]) - len(lines[index].lstrip(" "))
    lines[index] = ""
    for i in range(index + 1, len(lines)):
        stripped = lines[i].lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        if len(lines[i]) - len(stripped) <= indent:
            break
        lines[i] = ""


def _normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _outline_line(source: SourceText, tree) -> OutlineLine:
    head_tree = tree.children[0]
    head = []
    for tok in head_tree.children:
        quoted = tok.type == "NAME"
        text = tok.value[1:-1] if quoted else tok.value
        head.append(HeadItem(text, quoted, _token_span(source, tok)))
    value = value_span = None
    children: tuple[OutlineLine, ...] = ()
    has_colon = False
    for part in tree.children[1:]:
        if isinstance(part, Token) and part.type == "VALUE":
            raw = part.value
            stripped = re.sub(r"\s+#.*$", "", raw).rstrip()
            value = stripped
            value_span = Span(source.path, part.line, part.column,
                              part.line, part.column + len(stripped))
        elif not isinstance(part, Token):
            children = tuple(_outline_line(source, c) for c in part.children)
    # The colon is not kept as a token: find it on the source line.
    first = head[0].span
    line_text = source.line(first.line)
    last = head[-1].span
    after_head = line_text[last.end_column - 1:]
    if after_head.lstrip().startswith(":"):
        has_colon = True
        if value is None:
            value = ""
            col = last.end_column + after_head.index(":") + 1
            value_span = Span(source.path, first.line, col, first.line, col)
    end = value_span.end_column if value_span and value else (
        last.end_column + (1 if has_colon else 0))
    span = Span(source.path, first.line, first.column, first.line, end)
    return OutlineLine(tuple(head), value, value_span, children, span, has_colon)


def _token_span(source: SourceText, tok: Token) -> Span:
    return Span(source.path, tok.line, tok.column, tok.end_line or tok.line,
                tok.end_column or tok.column + len(tok.value))


def _outline_problem(source: SourceText, err: UnexpectedInput) -> Problem:
    line, column = source.clamp(getattr(err, "line", 1) or 1,
                                getattr(err, "column", 1) or 1)
    text = source.line(line)
    char = text[column - 1:column]
    if char and char in '"\u201c' and isinstance(err, (UnexpectedCharacters,
                                                        UnexpectedToken)):
        closing = "\u201d" if char == "\u201c" else '"'
        return _problem(source, "E103", "unclosed quote: a quoted name must end "
                        "on the same line", line, column, len(text) + 1,
                        (f"a closing {closing} on this line",))
    if char == ":":
        return _problem(source, "E102", "a colon needs a name before it",
                        line, column, column + 1, ("a name, then ':'",))
    if isinstance(err, UnexpectedCharacters):
        if False:
            return _problem(source, "E103", "unclosed quote: a quoted name must end "
                            "on the same line", line, column, len(text) + 1,
                            ('a closing " on this line',))
        return _problem(source, "E105", f"unexpected character {char!r}",
                        line, column, column + 1)
    if isinstance(err, UnexpectedToken) and err.token.type == "_INDENT":
        line = err.token.end_line or line
        return _problem(source, "E101", "bad indentation: this line is indented "
                        "but there is no line above it to belong to",
                        line, 1, len(err.token.value) + 1, ("no indentation",))
    if isinstance(err, UnexpectedToken) and err.token.type == "_COLON":
        return _problem(source, "E102", "a colon needs a name before it",
                        line, column, column + 1, ("a name, then ':'",))
    return _problem(source, "E105", "this line cannot be read", line, column,
                    column + 1)


def _problem(source: SourceText, code: str, message: str, line: int, column: int,
             end_column: int, expected: tuple[str, ...] = (),
             suggestion: str | None = None) -> Problem:
    line, column = source.clamp(line, column)
    span = Span(source.path, line, column, line, max(end_column, column + 1))
    return Problem(code, message, span, source.line(line), tuple(expected), suggestion)


def problem_at(source: SourceText, span: Span, code: str, message: str,
               expected: Iterable[str] = (), suggestion: str | None = None) -> Problem:
    """A Problem for a span of ``source``, with its line for the caret."""
    return Problem(code, message, span, source.line(span.line), tuple(expected),
                   suggestion)


# --------------------------------------------------------------------------
# Effect text


# Readable names for the regexp terminals of effect.lark (string terminals are
# shown as the words themselves).
_READABLE = {
    "CARD_NAME": "a card name in quotes",
    "NUMBER": "a number",
    "NUMBER_WORD": "a number",          # "two" ... "ten"
    "SIGNED_NUMBER": "a change such as +20",
    "SIGNED_PAIR": "a change such as +1/+1",
    "SIGNED_X": "a change such as +X",
    "ACT_VERB": 'an action such as "attack"',
    "THEN": '"then"',
    "NUMBER_SLOT": "{n}",
    "CARD_SLOT": "{card}",
    "PLAYER_SLOT": "{player}",
    "ZONE_SLOT": "{zone}",
    "_RESPOND_WITH": '"respond with"',
    "_HAS_NO_MOVES_LEFT": '"has no moves left"',
    "ORDINAL_PLAYER": '"the first player", "the second player", ...',
    "ORDINAL_PLAYERS": '"the first player\'s", ...',
    "$END": "the end of the text",
}


# texts an effect parser remembers (a game has a few thousand; fuzzing more)
_PARSED_KEPT = 20_000

class EffectParser:
    """Parses effect texts in one game's language (see effect.lark)."""

    def __init__(self, grammar: str, categories: dict[str, str], strict: bool = False,
                 spelling: dict[str, str] | None = None, patterns=(), transformer=None,
                 zone_words: dict | None = None, game_words: dict | None = None,
                 period_kinds: tuple[str, ...] = ()):
        self.grammar, self.zone_words, self.game_words = grammar, zone_words or {}, game_words
        self.period_kinds = period_kinds
        self.patterns = tuple(patterns)
        self.transformer = transformer
        self.categories = categories
        self._whole_words = _WholeWords()
        self._start = "start"
        self._spelling = spelling or {}
        self._strict = strict
        self._lark: Lark | None = None
        self._lean: LeanParser | None = None
        self._terminal_names: dict[str, str] | None = None
        if strict:
            self.lark    # strict: the grammar's conflicts are reported now
        self._examples = read_examples("effect.examples")
        # A text read again at the same place gives the same (frozen) AST: a
        # verb's body is read once per use of the verb while compiling.
        self._parsed: dict[tuple, object] = {}
        self._stores: dict[str, tuple] = {}      # file -> (its store, entries recalled)

    @property
    def lark(self) -> Lark:
        """The LALR parser, built on the first text not recalled from an
        earlier run (``recall_file``): a run that reads nothing new never
        builds it."""
        if self._lark is None:
            self._lark = lalr_parser(
                self.grammar, strict=self._strict,
                start=["start", "qualifiers", "selection", "condition_line", "when_line",
                       "player_line"],
                propagate_positions=False, maybe_placeholders=False,
                postlex=self._whole_words, transformer=self.transformer)
        return self._lark

    @property
    def lean(self) -> LeanParser:
        """The same parser run lean (``lean_lalr``): a text it cannot read plainly
        is read by lark itself."""
        if self._lean is None:
            self._lean = LeanParser(self.lark, ends_a_word)
        return self._lean

    @property
    def _display(self) -> dict[str, str]:
        """How each terminal reads in a problem's "expected" list."""
        if self._terminal_names is None:
            shown = {}
            for term in self.lark.terminals:
                pattern = term.pattern
                if isinstance(pattern, PatternStr):
                    shown[term.name] = self._spelling.get(pattern.value, pattern.value)
                elif term.name in _READABLE:
                    shown[term.name] = _READABLE[term.name]
                else:
                    word = terminal_word(pattern.value) or term.name.lower()
                    shown[term.name] = self._spelling.get(word.lower(), word)
            self._terminal_names = shown
        return self._terminal_names

    def parse(self, text: str, path: str = "<text>", line: int = 1, column: int = 1,
              start: str = "start"):
        """One effect text, as the AST (with the game's transformer) or a lark
        tree; raises lark's UnexpectedInput. ``path``, ``line`` and ``column``
        say where the text starts, for the spans of the nodes; ``start``
        "qualifiers" reads an adjective's definition instead."""
        key = (text, path, line, column, start)
        found = self._parsed.get(key)
        if found is not None:
            return found
        self._whole_words.text = text
        self._start = start      # what a problem found next is reported against
        if self.transformer is not None:
            self.transformer.at(path, line, column)
        try:
            parsed = self._parse_once(text, start)
        except UnexpectedInput as first:
            # "This Round gets ...": the lexer took a period ("this
            # Round") where the card of that kind is meant; read once more
            # with a tab (whitespace of the same length) that no period spells
            apart = period_kinds_apart(text, self.period_kinds)
            if apart == text:
                raise
            try:
                parsed = self._parse_once(apart, start)
            except UnexpectedInput:
                self._whole_words.text = text
                raise first from None
        if len(self._parsed) >= _PARSED_KEPT:
            self._parsed.clear()
        self._parsed[key] = parsed
        return parsed

    def _parse_once(self, text: str, start: str):
        self._whole_words.text = text
        try:
            return self.lean.parse(text, start)
        except NotPlain:     # lark itself reports or recovers, as it always has
            return self.lark.parse(text, start=start, on_error=self._split_phrase)

    def recall_file(self, path: str, text: str, context: str) -> None:
        """Take the parses of a file's texts kept by an earlier run
        (``parse_store``), so that reading them again costs nothing;
        ``context`` is all else that decides them (the rules file's text)."""
        where = parse_store.store_path(self.grammar + "\0" + context, path, text)
        recalled = parse_store.recall(where)
        self._parsed.update(recalled)
        self._stores[path] = (where, len(recalled))

    @property
    def built_before(self) -> bool:
        """Whether an earlier run built this parser and read texts with it
        (parses were recalled: its grammar has no clash)."""
        return any(recalled for _, recalled in self._stores.values())

    def keep_file(self, path: str, unplaced: bool = False) -> None:
        """Keep the parses of a file recalled with :meth:`recall_file` for
        the next run, if this run parsed any text of it anew; ``unplaced``:
        with the texts read at no place in a file (a verb's body with its
        slots filled, read while the rules file is)."""
        where, recalled = self._stores.get(path, (None, 0))
        mine = {key: node for key, node in self._parsed.items()
                if key[1] == path or (unplaced and key[1] == "<text>")}
        if where is not None and len(mine) > recalled:
            parse_store.keep(where, mine)
            self._stores[path] = (where, len(mine))

    def _split_phrase(self, err: UnexpectedInput) -> bool:
        """Retry an unexpected multi-word token as a shorter phrase.

        The contextual lexer takes the longest phrase the parser state might
        accept ("for each"), but LALR merges the lookaheads of similar states,
        so the parser may then reject a phrase whose first word alone fits
        ("search your deck for each player's card": "for", then "each
        player's"). The longest leading part of the phrase that the parser
        accepts is fed instead, and the lexer goes on right after it; if no
        part fits, the original error stands.
        """
        token = getattr(err, "token_", None) if isinstance(err, _WordRunsOn) else (
            err.token if isinstance(err, UnexpectedToken) else None)
        if token is not None and self._longer_phrase(err, token):
            return True
        if token is None or " " not in token.value.strip():
            return False
        words = token.value.split()
        for count in range(len(words) - 1, 0, -1):
            phrase = " ".join(words[:count])
            kind = self._literal_terminal(phrase)
            if kind is None:
                continue
            length = prefix_length(token.value, count)
            piece = Token(kind, token.value[:length], token.start_pos, token.line,
                          token.column, token.line, token.column + length,
                          token.start_pos + length)
            trial = err.interactive_parser.copy()
            try:
                trial.feed_token(piece)
            except UnexpectedInput:
                continue
            err.interactive_parser.feed_token(piece)
            counter = err.interactive_parser.lexer_thread.state.line_ctr
            counter.char_pos = token.start_pos + length
            counter.column = counter.char_pos - counter.line_start_pos + 1
            err.interactive_parser.lexer_thread.state.last_token = piece
            return True
        return False

    def _longer_phrase(self, err: UnexpectedInput, token: Token) -> bool:
        """The other way round: a word the lexer took alone (a pattern such as
        the action verbs: "attack") where the parser wants a longer phrase
        written there ("attack with", a game verb). The longest accepted
        phrase that the text spells at that place, as whole words, is fed."""
        text = self._whole_words.text or ""
        start = token.start_pos
        best = None
        for name in err.interactive_parser.accepts():
            phrase = self._phrase_of(name)
            if not spells_longer(text, start, phrase, token.value):
                continue
            if best is None or len(phrase) > len(best[1]):
                best = (name, phrase)
        if best is None:
            return False
        length = len(best[1])
        piece = Token(best[0], text[start:start + length], start, token.line, token.column,
                      token.line, token.column + length, start + length)
        err.interactive_parser.feed_token(piece)
        counter = err.interactive_parser.lexer_thread.state.line_ctr
        counter.char_pos = start + length
        counter.column = counter.char_pos - counter.line_start_pos + 1
        err.interactive_parser.lexer_thread.state.last_token = piece
        return True

    def _phrase_of(self, name: str) -> str | None:
        """The words a literal terminal stands for (lower case), or None."""
        return self.lean.phrases.get(name)

    def _literal_terminal(self, phrase: str) -> str | None:
        return self.lean.literals.get(phrase.lower())

    def problem(self, err: UnexpectedInput, source: SourceText, text: str,
                line: int, column: int) -> Problem:
        """A Problem for a syntax error in ``text``, which starts at
        (line, column) of ``source``."""
        pos = getattr(err, "pos_in_stream", None)
        if pos is None or pos < 0:
            pos = len(text)
        pos = min(pos, len(text))
        # The whole word at the error, not only the characters lark stopped on.
        start = pos
        if pos < len(text) and (text[pos].isalnum() or text[pos] in "-'"):
            while start > 0 and not text[start - 1].isspace() and text[start - 1] not in '".,:':
                start -= 1
        end = pos
        while end < len(text) and not text[end].isspace() and text[end] not in '.,:"':
            end += 1
        if end == start and end < len(text):
            end = start + 1
        word = text[start:end]
        expected = self._expected(err)
        label = self._match_example(text)
        code = "E201"
        if isinstance(err, UnexpectedEOF) or (
                isinstance(err, UnexpectedToken) and err.token.type == "$END"):
            message = "the text ends too early"
            start = end = len(text)
        elif text[start:start + 1] in '"\u201c' and '"' not in text[start + 1:]:
            message = "unclosed quote: a card name must end with a closing quote"
        elif word and (word[0].isalnum() or word[0] in "[<"):
            message = f'unexpected word "{word}"'
        elif word:
            message = f'unexpected "{word}"'
        else:
            message = "unexpected end of the text"
        suggestion = nearest_phrase(text[start:], self._candidates(err)) if word else None
        other = other_games_word(word, expected, self.zone_words, self.game_words)
        suggestion = other or suggestion
        err._text = text
        verb = self._unfinished_pattern(err)
        if start == 0 and word and text[end:end + 1] == ":" and word.upper() == word \
                and any(c.isalpha() for c in word):
            code, message = "E301", f'unknown timing label "{word}"'
            labels = [w for w, cat in self.categories.items() if cat == "timing label"]
            expected = [f"a timing label ({', '.join(sorted(l[:-1].upper() for l in labels))})"]
            suggestion = did_you_mean(word + ":", [l.upper() for l in labels])
            if suggestion:
                suggestion = suggestion.replace(':"', '"')
        elif period := unknown_period(text, start, self._candidates(err), self._spelling):
            message, expected, suggestion, start, end = period
        elif verb is not None:
            code = "E203"
            message = f'"{verb}" is not complete: {message}'
        elif label:
            message = f"{label}: {message}"
        elif not other and (hint := unknown_verb(text, start, end, suggestion, self.categories,
                                                 self.patterns, self._literal_terminal)):
            suggestion = hint
        elif word[:1].isalpha() and self._literal_terminal(word) is not None:
            # a word the language has, in other sentences ("unless"): a
            # did-you-mean to another word would mislead
            message = (f'"{word}" is not in the language in this form: the card language '
                       f'has "{word}" only in other sentences')
            suggestion = other or "docs/language.md lists the forms of sentences"
        span = Span(source.path, line, column + start, line, column + max(end, start + 1))
        return Problem(code, message, span, source.line(line),
                       tuple(expected), suggestion)

    def _unfinished_pattern(self, err: UnexpectedInput) -> str | None:
        """The verb or keyword pattern whose slot is missing, when the error
        comes right after the pattern's leading words ("Mill.")."""
        history = [t for t in (getattr(err, "token_history", None) or []) if t is not None]
        if not history:
            return None
        previous = history[-1].value.lower()
        found = [p for p in self.patterns
                 if p.slots and p.leading_words.lower() == previous]
        if len(found) > 1:
            # Name the pattern whose slot fits what was written there.
            pos = getattr(err, "pos_in_stream", None) or 0
            rest = (getattr(err, "_text", None) or "")[pos:pos + 1]
            wants = "n" if rest.isdigit() or rest == "X" else "card"
            fitting = [p for p in found if p.slots[0].rstrip("s") == wants]
            found = fitting or found
        if not found:
            return None
        return '" or "'.join(p.text for p in found)

    def _expected_names(self, err: UnexpectedInput) -> set[str]:
        names = getattr(err, "expected", None) or getattr(err, "allowed", None) or set()
        if isinstance(err, _WordRunsOn):
            names = self._accepts_before(err.text_, err.pos_in_stream)
        return {n for n in names if not n.startswith("_NO_") and not n.endswith("_SLOT")}

    def _accepts_before(self, text: str, pos: int) -> set[str]:
        """What the parser would accept at ``pos`` (the text before it parses)."""
        try:
            self._whole_words.text = text[:pos]
            interactive = self.lark.parse_interactive(text[:pos], start=self._start)
            interactive.exhaust_lexer()
            return set(interactive.accepts())
        except UnexpectedInput:
            return set()
        finally:
            self._whole_words.text = text

    def next_words(self, text: str) -> list[str]:
        """The words the grammar accepts right after ``text`` (an editor's
        completion): empty where the text before does not parse."""
        names = self._accepts_before(text, len(text))
        return sorted({self._display[n] for n in names
                       if n in self._display and n not in _READABLE})

    def _candidates(self, err: UnexpectedInput) -> list[str]:
        # in the terminals' order, not a set's: a did-you-mean between two
        # equally near words is the same in every run
        return [self._display.get(n, n) for n in sorted(self._expected_names(err))
                if n in self._display and n not in _READABLE]

    def _expected(self, err: UnexpectedInput, limit: int = 10) -> list[str]:
        grouped: dict[str, list[str]] = {}
        plain: list[str] = []
        # a counter's or zone's plural ("lifes") is it, already listed by its name
        plurals = {plural(w) for w, c in self.categories.items() if c in ("counter", "zone")}
        for name in self._expected_names(err):
            if name == "$END":
                plain.append(_READABLE[name])
                continue
            shown = self._display.get(name, name)
            if shown.lower() in plurals:
                continue
            bare = shown[1:-1] if shown.startswith("[") and shown.endswith("]") else None
            category = self.categories.get((bare or shown).lower())
            if category and bare:
                continue        # "[FIRE]" beside "FIRE": one word, written two ways
            if category:
                grouped.setdefault(category, []).append(shown)
            else:
                plain.append(shown if name in _READABLE else f'"{shown}"')
        out = []
        for category, words in sorted(grouped.items()):
            words.sort(key=str.lower)
            sample = ", ".join(words[:4]) + (", ..." if len(words) > 4 else "")
            article = "an" if category[0] in "aeiou" else "a"
            out.append(f"{article} {category} ({sample})")
        plain = sorted(set(plain), key=lambda s: (s.startswith('"'), s.lower()))
        quoted = [p for p in plain if p.startswith('"')]
        out.extend(p for p in plain if not p.startswith('"'))
        if len(quoted) <= limit:
            return out + quoted
        # many words: those that start alike once, and no count of the rest
        # that a designer could not act on
        marks = [p[1:-1] for p in quoted if not any(c.isalnum() for c in p)]
        if marks:
            out.append(f"punctuation ({' '.join(marks)})")
        phrases = by_first_word([p[1:-1] for p in quoted if p[1:-1] not in marks])
        more = f", and {len(phrases) - limit} more" if len(phrases) > limit else ""
        out.append("words such as " + ", ".join(phrases[:limit]) + more
                   + " (docs/language.md has every form)")
        return out

    def _match_example(self, text: str) -> str | None:
        if not self._examples:
            return None
        try:
            self.lark.parse(text, start=self._start)
        except UnexpectedInput as err:
            try:
                return err.match_examples(self.lark.parse, self._examples,
                                          use_accepts=True)
            except Exception:  # an example that no longer fails: ignore it
                return None
        return None


class _WordRunsOn(UnexpectedCharacters):
    """A known word matched only the start of a longer word ("AP" in "APP")."""

    def __init__(self, text: str, token: Token):
        self.text_ = text
        self.token_ = token
        super().__init__(text, token.end_pos, token.line, token.end_column)
        # Point at the whole word, from its start.
        self.pos_in_stream = token.start_pos
        self.line, self.column = token.line, token.column
        self.token_history = None


_WORD_CHAR = re.compile(r"[\w'-]")
# a possessive ending: "Creature" ends its word in "target Creature's power"
_POSSESSIVE_END = re.compile(r"'s(?![\w'-])")


class _WholeWords:
    """Post-lexer: a word of the language must end where the text's word ends.

    The terminals are plain literals (cheap to compile into the contextual
    lexer's scanners); this pass rejects a literal that matched only the
    start of a longer word, so "APP" is an unknown word, not "AP" + "P".
    """

    always_accept = ()

    def __init__(self) -> None:
        self.text = ""

    def process(self, stream):
        text = self.text
        for token in stream:
            if not ends_a_word(text, token):
                raise _WordRunsOn(text, token)
            yield token


def ends_a_word(text: str, token: Token) -> bool:
    """Whether ``token`` ends where its word of ``text`` ends (not "AP" of "APP")."""
    end = token.end_pos
    return not (end is not None and end < len(text) and token.value[-1:].isalnum()
                and _WORD_CHAR.match(text, end) and not _POSSESSIVE_END.match(text, end))
