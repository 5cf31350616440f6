"""A lean run of a lark LALR parser: its own tables, fewer steps per word.

A card text is short (about ten words) and there are thousands of them, so
the cost of parsing is the cost per word. :class:`LeanParser` reads a text
with exactly what a built lark parser holds -- the parse table, each parser
state's lexer terminals in their order, the ignored terminals, the lexer's
callbacks and the rule callbacks (the game's transformer, run as rules are
reduced) -- with the steps that only lark's general machinery needs left
out: no generators between the lexer, the post-lexer and the parser, no
interactive-parser state, and each state's terminals split by the first
character they can start with, so a word is matched against the few
terminals that could begin there instead of all of them (the first
terminal that matches, in lark's own order, is the same either way).

It reads a text only when everything goes as the grammar says. At the
first thing lark would have to report or recover from (a character no
terminal takes, a word the state does not accept, a word that runs on into
a longer one) it raises :class:`NotPlain`, and the caller parses the text
again with lark itself, which reports or recovers exactly as before: the
lean run never decides a text lark would read otherwise.
"""

from __future__ import annotations

import functools
import re
from re import _constants as re_constants
from re import _parser as re_parser

from lark import Lark, Token
from lark.lexer import PatternStr
from lark.parsers.lalr_analysis import Shift


class NotPlain(Exception):
    """The lean run stopped: lark itself must read (or report) this text."""


_ASCII = [chr(code) for code in range(128)]
_ANY = frozenset(_ASCII)

# lark's Token without the check for a deprecated keyword argument
_new_token = getattr(Token, "_future_new", Token)


class _StateLexer:
    """One lexer state's terminals, split by the ASCII character a match can
    start with (each split made when a text first has that character
    there); any other character is matched against all of them."""

    __slots__ = (
        "_basic",
        "_shared",
        "_terminals",
        "allowed",
        "by_first",
        "callback",
        "ignore",
        "newline",
    )

    def __init__(self, basic, shared: _Shared) -> None:
        self._basic = basic
        self._shared = shared
        self._terminals = None
        self.by_first: dict[str, re.Pattern | None] = {}
        self.callback: dict = {}
        self.ignore = basic.ignore_types
        self.newline = basic.newline_types
        self.allowed = frozenset(t.name for t in basic.terminals)

    @property
    def whole(self) -> list:
        """lark's own patterns of the state (all its terminals)."""
        scanner = self._basic.scanner            # lark builds it on first use
        self.callback = self._basic.callback
        return scanner._mres

    def terminals(self) -> list:
        """The state's terminals in the order lark's scanner tries them (its
        callbacks set). lark's scanner is built only where a word of the
        state is also matched whole by a pattern of it (lark then keeps the
        word out of its patterns and checks it after the pattern matched)."""
        if self._terminals is None:
            basic = self._basic
            if basic._scanner is None and not basic.user_callbacks and \
                    basic.re is re and not basic.use_bytes and \
                    not self._shared.overlap(basic.terminals, basic.g_regex_flags):
                self._terminals = list(basic.terminals)
            else:
                self._terminals = basic.scanner.terminals
                self.callback = basic.callback
        return self._terminals

    def split(self, char: str) -> re.Pattern | None:
        """The pattern of the terminals that may start with ``char``, in
        lark's order (None: no terminal does)."""
        flags = self._basic.g_regex_flags
        terms = tuple(t for t in self.terminals() if char in _first_characters(t, flags))
        self.by_first[char] = self._shared.pattern(terms, flags)
        return self.by_first[char]


class _Shared:
    """What the states' lexers of one parser share: the patterns made of
    each list of terminals, the words a pattern also matches whole, and the
    split of all the terminals by first character.

    Every state tries its terminals in one order, lark's (priority, longest
    first, then by name), so the first of all the terminals that matches,
    when the state has it, is also the first of the state's that matches:
    one pattern per character serves every state, and a state's own split
    is made only where the first match is a terminal it does not have."""

    def __init__(self, lexer) -> None:
        self._root = lexer
        self._all = lexer.terminals
        self._patterns: dict[tuple, re.Pattern | None] = {}
        self._overlaps: list[tuple[str, str]] | None = None
        self.by_first: dict[str, re.Pattern | None] = {}
        self._plain: bool | None = None

    def split(self, char: str) -> re.Pattern | None:
        """The pattern of all the terminals that may start with ``char``;
        None when none does or when the states' lexers are not plain (a
        callback, or a word a pattern also matches whole: each state then
        has its own)."""
        if self._plain is None:
            root = self._root
            self._plain = not root.user_callbacks and root.re is re and \
                not root.use_bytes and not self.overlap(self._all, root.g_regex_flags)
        flags = self._root.g_regex_flags
        terms = tuple(t for t in self._all if char in _first_characters(t, flags)) \
            if self._plain else ()
        self.by_first[char] = self.pattern(terms, flags)
        return self.by_first[char]

    def pattern(self, terms: tuple, flags: int) -> re.Pattern | None:
        names = tuple(t.name for t in terms)
        if names not in self._patterns:
            self._patterns[names] = re.compile("|".join(
                f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms), flags) \
                if terms else None
        return self._patterns[names]

    def overlap(self, terminals: list, flags: int) -> bool:
        """Whether a word among ``terminals`` is matched whole by a pattern
        among them of its priority (lark's "unless" check)."""
        if self._overlaps is None:
            words = [t for t in self._all if isinstance(t.pattern, PatternStr)]
            self._overlaps = [
                (pattern.name, word.name) for pattern in self._all
                if not isinstance(pattern.pattern, PatternStr) for word in words
                if word.priority == pattern.priority
                and (not word.pattern.value[:1].isascii()
                     or word.pattern.value[:1] in _first_characters(pattern, flags))
                and _whole_match(pattern.pattern.to_regexp(), word.pattern.value, flags)]
        names = {t.name for t in terminals}
        return any(a in names and b in names for a, b in self._overlaps)


def _whole_match(regexp: str, word: str, flags: int) -> bool:
    found = re.match(regexp, word, flags)
    return found is not None and found.group(0) == word


@functools.cache
def _first_characters(term, flags: int) -> frozenset[str]:
    """The ASCII characters a match of ``term`` may start with (all of them
    when that is not plain from the pattern: a regular expression, or a word
    starting with a character whose case folds beyond ASCII)."""
    pattern = term.pattern
    if not isinstance(pattern, PatternStr):
        parsed = re_parser.parse(pattern.to_regexp(), flags)
        found = _starts_of(parsed, parsed.state.flags)
        return _ANY if found is None else frozenset(found)
    if not pattern.value:
        return _ANY
    first = pattern.value[0]
    if not first.isascii():
        return _ANY
    if "i" in pattern.flags or flags & re.IGNORECASE:
        # two ASCII characters match regardless of case exactly when their
        # lower cases are equal (the folds beyond ASCII, such as the Kelvin
        # sign, meet a character that is not ASCII: matched by ``whole``)
        return frozenset({first.lower(), first.upper()})
    return frozenset(first)


_CATEGORIES = {re_constants.CATEGORY_DIGIT: r"\d", re_constants.CATEGORY_SPACE: r"\s",
               re_constants.CATEGORY_WORD: r"\w"}


def _starts_of(items, flags: int) -> set[str] | None:
    """The ASCII characters a match of the parsed expression ``items`` may
    start with; None when that is not plain (anything that may match
    nothing first, a negated class, a look-around, a fold beyond ASCII):
    such a terminal is tried at every character."""
    items = list(items)
    if not items:
        return None
    op, arg = items[0]
    folds = bool(flags & re.IGNORECASE)
    if op is re_constants.LITERAL:
        return _cases({chr(arg)}, folds)
    if op is re_constants.IN:
        chars: set[str] = set()
        for kind, value in arg:
            if kind is re_constants.LITERAL:
                chars.add(chr(value))
            elif kind is re_constants.RANGE:
                chars.update(chr(code) for code in range(value[0], value[1] + 1)
                             if code < 128 or folds)
            elif kind is re_constants.CATEGORY and value in _CATEGORIES:
                chars.update(c for c in _ASCII if re.match(_CATEGORIES[value], c))
            else:
                return None
        return _cases(chars, folds)
    if op is re_constants.SUBPATTERN:
        _, add, remove, inner = arg
        return _starts_of(inner, (flags | add) & ~remove)
    if op is re_constants.ATOMIC_GROUP:
        return _starts_of(arg, flags)
    if op in (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT,
              re_constants.POSSESSIVE_REPEAT):
        low, _, inner = arg
        return _starts_of(inner, flags) if low >= 1 else None
    if op is re_constants.BRANCH:
        found: set[str] = set()
        for branch in arg[1]:
            starts = _starts_of(branch, flags)
            if starts is None:
                return None
            found |= starts
        return found
    return None


def _cases(chars: set[str], folds: bool) -> set[str] | None:
    """The ASCII characters among ``chars`` (with their other case when the
    match ignores case; a character beyond ASCII may then fold into ASCII)."""
    if folds:
        if not all(c.isascii() for c in chars):
            return None
        return {c.lower() for c in chars} | {c.upper() for c in chars}
    return {c for c in chars if c.isascii()}


class LeanParser:
    """Parses texts with a built lark LALR parser (contextual lexer, any
    post-lexer given as ``word_check``: called with the text and each token,
    it returns False where lark's post-lexer would raise).

    A phrase the lexer took whole where the parser wants a shorter or longer
    one ("damage to" where "damage" is next) is read again as the parser
    wants it, as :meth:`EffectParser._split_phrase
    <interpreter.language.syntax.EffectParser._split_phrase>` has lark do
    (the same choices, in the same order: see :meth:`_phrase_instead`)."""

    def __init__(self, parser: Lark, word_check) -> None:
        frontend = parser.parser
        lexer = getattr(frontend.lexer, "lexer", frontend.lexer)   # under the post-lexer
        table = frontend.parser.parser.parse_table
        self._states = table.states
        self._start_states = table.start_states
        self._end_states = table.end_states
        self._callbacks = frontend.parser.parser.callbacks
        self._token_callbacks = {kind: callback for kind, callback in self._callbacks.items()
                                 if isinstance(kind, str)}
        self._rows: dict = {}
        common = self._common = _Shared(lexer.root_lexer)
        shared: dict[int, _StateLexer] = {}
        self._lexers = {}
        for state, basic in lexer.lexers.items():
            if id(basic) not in shared:
                shared[id(basic)] = _StateLexer(basic, common)
            self._lexers[state] = shared[id(basic)]
        self._word_check = word_check
        # each literal terminal's words (lower case), and the first terminal
        # of each such phrase, in the grammar's order
        self.phrases: dict[str, str] = {}
        self.literals: dict[str, str] = {}
        for term in parser.terminals:
            if isinstance(term.pattern, PatternStr):
                self.phrases[term.name] = term.pattern.value.lower()
                self.literals.setdefault(term.pattern.value.lower(), term.name)

    def parse(self, text: str, start: str = "start"):
        """The value the rule callbacks build for ``text``; raises NotPlain."""
        lexers, common = self._lexers, self._common.by_first
        state_stack = [self._start_states[start]]
        value_stack: list = []
        word_check = self._word_check
        pos, line, line_start, end = 0, 1, 0, len(text)
        last = None
        while True:
            # ---- the next token, lexed in the state the parser is in
            token = None
            lexer = lexers[state_stack[-1]]
            while pos < end:
                char = text[pos]
                if char < "\x80":
                    scanner = common.get(char, _UNSPLIT)
                    if scanner is _UNSPLIT:
                        scanner = self._common.split(char)
                    found = scanner.match(text, pos) if scanner is not None else None
                    if found is None or found.lastgroup not in lexer.allowed:
                        # no terminal at all, or the first is not the state's
                        scanner = lexer.by_first.get(char, _UNSPLIT)
                        if scanner is _UNSPLIT:
                            scanner = lexer.split(char)
                        found = scanner.match(text, pos) if scanner is not None else None
                else:
                    found = None
                    for scanner in lexer.whole:
                        found = scanner.match(text, pos)
                        if found:
                            break
                if not found:
                    raise NotPlain
                value, kind = found.group(0), found.lastgroup
                column = pos - line_start + 1
                start_line, start_pos = line, pos
                if kind in lexer.newline and "\n" in value:
                    line += value.count("\n")
                    line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                if kind in lexer.ignore and kind not in lexer.callback:
                    continue
                token = _new_token(kind, value, start_pos, start_line, column,
                                   line, pos - line_start + 1, pos)
                if kind in lexer.callback:
                    token = lexer.callback[kind](token)
                if kind in lexer.ignore:
                    token = None
                    continue
                break
            if token is None:
                token = Token.new_borrow_pos("$END", "", last) if last is not None \
                    else Token("$END", "", 0, 1, 1)
                return self._feed(token, state_stack, value_stack, self._end_states[start])
            last = token
            if not word_check(text, token) or \
                    self._feed(token, state_stack, value_stack) is _UNEXPECTED:
                # a phrase read whole where the parser wants another: read on
                # right after the phrase it wants
                last = self._phrase_instead(text, token, state_stack, value_stack)
                pos = last.end_pos

    def _actions(self, state) -> dict[str, tuple]:
        """The state's row of the table, each action made ready once: a shift
        is (-1, the next state, None), a reduction (how many values it takes,
        the rule's name, the rule's callback)."""
        row = self._rows.get(state)
        if row is None:
            row = self._rows[state] = {
                kind: (-1, arg, None) if action is Shift else
                (len(arg.expansion), arg.origin.name, self._callbacks[arg])
                for kind, (action, arg) in self._states[state].items()}
        return row

    def _feed(self, token: Token, state_stack: list, value_stack: list, end_state=None):
        """Reduce as the table says, then shift ``token`` (the parse's value
        when ``token`` ends the text); _UNEXPECTED where the table has no
        action for it (what was reduced stays reduced, as in lark)."""
        rows, kind = self._rows, token.type
        while True:
            row = rows.get(state_stack[-1]) or self._actions(state_stack[-1])
            action = row.get(kind)
            if action is None:
                if end_state is not None:
                    raise NotPlain
                return _UNEXPECTED
            size, arg, callback = action
            if size < 0:
                if end_state is not None:
                    raise NotPlain
                state_stack.append(arg)
                callback = self._token_callbacks.get(kind)
                value_stack.append(token if callback is None else callback(token))
                return None
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            reduced = callback(children)
            goto = (rows.get(state_stack[-1]) or self._actions(state_stack[-1]))[arg][1]
            state_stack.append(goto)
            value_stack.append(reduced)
            if goto == end_state:
                return value_stack[-1]

    def _accepts(self, state_stack: list, kind: str) -> bool:
        """Whether the parser would take a token of ``kind`` now (the table
        alone: nothing is built, the stacks are left as they are)."""
        stack = list(state_stack)
        while True:
            action = self._actions(stack[-1]).get(kind)
            if action is None:
                return False
            size, arg, _ = action
            if size < 0:
                return True
            if size:
                del stack[-size:]
            stack.append(self._actions(stack[-1])[arg][1])

    def _phrase_instead(self, text: str, token: Token, state_stack: list,
                        value_stack: list) -> Token:
        """Feed the phrase the parser wants in place of ``token``; the token
        fed. First a longer phrase the parser accepts and the text spells
        there as whole words (the longest), else the longest leading part of
        a phrase token that the parser accepts; NotPlain when neither fits
        (or when lark's own choice would not be one: two longest phrases)."""
        start = token.start_pos
        best = None
        tied = False
        for name in self._states[state_stack[-1]]:
            phrase = self.phrases.get(name)
            if not spells_longer(text, start, phrase, token.value) or \
                    not self._accepts(state_stack, name):
                continue
            if best is None or len(phrase) > len(best[1]):
                best, tied = (name, phrase), False
            elif len(phrase) == len(best[1]):
                tied = True
        if tied:
            raise NotPlain
        if best is not None:
            length = len(best[1])
            piece = Token(best[0], text[start:start + length], start, token.line,
                          token.column, token.line, token.column + length, start + length)
            self._feed(piece, state_stack, value_stack)
            return piece
        if " " not in token.value.strip():
            raise NotPlain
        words = token.value.split()
        for count in range(len(words) - 1, 0, -1):
            kind = self.literals.get(" ".join(words[:count]).lower())
            if kind is None or not self._accepts(state_stack, kind):
                continue
            length = prefix_length(token.value, count)
            piece = Token(kind, token.value[:length], start, token.line, token.column,
                          token.line, token.column + length, start + length)
            self._feed(piece, state_stack, value_stack)
            return piece
        raise NotPlain


_UNEXPECTED = object()
_UNSPLIT = object()


def spells_longer(text: str, start: int, phrase: str | None, word: str) -> bool:
    """Whether ``text`` spells ``phrase`` (lower case) at ``start``, as whole
    words, and the phrase is longer than the ``word`` read there."""
    if not phrase or len(phrase) <= len(word) or \
            text[start:start + len(phrase)].lower() != phrase:
        return False
    after = text[start + len(phrase):start + len(phrase) + 1]
    return not (after and (after.isalnum() or after in "'-"))


def prefix_length(text: str, words: int) -> int:
    """Length of the first ``words`` whitespace-separated words of ``text``."""
    return list(re.finditer(r"\S+", text))[words - 1].end()
