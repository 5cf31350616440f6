"""Card files: card definitions read and checked against the game's rules.

A card file (``cards/<game-id>/*.cards``) is an outline of cards::

    card "Ember Drake"              (or: being "Ember Drake"; token "Name"
                                     for a card only text creates)
      kind: Being
      AP: 60
      text:
        TRIGGER: When this is Summoned: Deal 20 damage to a Being your Rival controls.

Each field is checked against the kind's declared stats (unknown, missing,
wrong type); each ability line is parsed by the game's effect grammar into
the AST (``interpreter.language.ast``) and checked: its timing label must be one the
kind may have, and every quoted card name must exist in the game.
"""

from __future__ import annotations

import re
from typing import Iterable

import attrs
from lark.exceptions import UnexpectedInput

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.language import ast
from interpreter.language.game_rules import GameRules, KindDecl, StatDecl
from interpreter.language.syntax import OutlineLine, parse_outline, problem_at
from interpreter.source import SourceText, Span


@attrs.frozen(slots=True)
class StatValue:
    """A stat as written on a card, with its parsed value."""

    name: str
    text: str
    value: object            # int, str, tuple[str | tuple[str, ...], ...], Exchange, ...
    span: Span


@attrs.frozen(slots=True)
class Exchange:
    """A requirement list traded for a reward: ``Jump Punch -> Advance 1``."""

    cost: tuple[tuple[str, ...], ...]   # each item: alternatives ("Jump", "Punch")
    reward: ast.Ability


@attrs.frozen(slots=True)
class CardAbility:
    box: str
    ability: ast.Ability
    text: str
    span: Span


@attrs.frozen(slots=True)
class CardDefinition:
    name: str
    kind: str
    stats: tuple[StatValue, ...]
    faces: tuple[tuple[str, tuple[StatValue, ...]], ...]
    abilities: tuple[CardAbility, ...]
    path: str
    span: Span
    # "token "NAME"": created by card text ("Create a "NAME" token"), never
    # part of a deck
    token: bool = False

    def stat(self, name: str, face: str | None = None):
        stats = self.stats if face is None else dict(self.faces).get(face, ())
        for s in stats:
            if s.name.lower() == name.lower():
                return s.value
        return None


@attrs.define
class CardFile:
    path: str
    cards: list[CardDefinition]
    problems: list[Problem]
    references: list[tuple[str, Span]]   # quoted card names used in texts
    # names of cards left out for a problem of their own (an unknown kind):
    # a deck or a text naming one is not told the card is unknown as well
    refused: list[str] = attrs.Factory(list)


_RESERVED = ("kind", "text")


def load_cards(source: SourceText, rules: GameRules) -> CardFile:
    lines, problems = parse_outline(source)
    result = CardFile(source.path, [], problems, [])
    reader = _CardReader(source, rules, result, lines)
    if lines:
        rules.recall_parses(source.path, source.text)
    for line in lines:
        reader.card(line)
    rules.keep_parses(source.path)
    return result


class _CardReader:
    def __init__(self, source: SourceText, rules: GameRules, out: CardFile,
                 lines: list[OutlineLine] = ()):
        self.source, self.rules, self.out = source, rules, out
        self.layout_lines = {p.span.line for p in out.problems if p.span}
        starts = [l.span.line for l in lines]
        self.next_card_line = dict(zip(starts, starts[1:]))

    def problem(self, span: Span, code: str, message: str,
                expected: Iterable[str] = (), suggestion: str | None = None) -> None:
        self.out.problems.append(problem_at(self.source, span, code, message,
                                            expected, suggestion))

    def card(self, line: OutlineLine) -> None:
        head = line.head
        first = head[0]
        header_kind = None
        token = first.text.lower() == "token"
        if first.text.lower() not in ("card", "token"):
            header_kind = self.rules.kind(first.text)
            if header_kind is None:
                candidates = ["card", "token"] + [k.lower() for k in self.rules.kinds]
                self.problem(first.span, "E401", f'"{first.text}" does not start a card',
                             ('card "Name"', 'token "Name"') + tuple(
                                 f'{k.lower()} "Name"' for k in self.rules.kinds)[:5],
                             did_you_mean(first.text, candidates))
                return
        if len(head) != 2 or not head[1].quoted:
            self.problem(line.span, "E402", "a card needs its name in quotes",
                         (f'{first.text} "Name"',))
            return
        if line.has_colon:
            self.problem(line.span, "E403", "a card's heading has no colon; its "
                         "fields go on the indented lines below it",
                         (f'{first.text} "{head[1].text}"',))
        name = head[1].text
        fields = {c.key.lower(): c for c in line.children}
        kind_decl: KindDecl | None = header_kind
        kind_line = fields.get("kind")
        if kind_line is None:
            kind_line = self.kind_without_colon(line)
        if kind_line is not None:
            kind_decl = self.kind_of(kind_line) or kind_decl
        elif header_kind is None:
            self.problem(line.span, "E404", f'card "{name}" has no kind',
                         ("kind: " + listing(self.rules.kinds),))
            self.out.refused.append(name)
            return
        if kind_decl is None:
            self.out.refused.append(name)
            return
        stats, faces, abilities = [], [], []
        seen: set[str] = set()
        allowed = [*kind_decl.required, *kind_decl.optional]
        for child in self.fields(line, kind_decl):
            key = child.key.lower()
            written = self.stat_without_colon(child, allowed)
            if written:
                seen.add(written.lower())
            if key in seen:
                self.problem(child.span, "E405", f'"{child.key}" is given twice')
                continue
            seen.add(key)
            if key == "kind" or child.head[0].text.lower() == "kind" and not child.has_colon:
                continue        # ("kind Being": reported by kind_without_colon)
            if key in (b.lower() for b in kind_decl.boxes):
                abilities.extend(self.box(child, kind_decl))
            elif key in (f.lower() for f in kind_decl.faces):
                face_stats = [s for s in (self.stat(c, kind_decl) for c in child.children) if s]
                self.require(kind_decl, {c.key for c in child.children}, child.span,
                             f"face {child.key}")
                faces.append((child.key, tuple(face_stats)))
            else:
                stat = self.stat(child, kind_decl)
                if stat:
                    stats.append(stat)
        if self.layout_broken(line):
            pass  # lines of this card were skipped: "missing" stats may be written
        elif kind_decl.faces:
            for face in kind_decl.faces:
                if face.lower() not in seen:
                    self.problem(line.span, "E406", f'card "{name}" is missing its '
                                 f'"{face}" face', (f"{face}:",))
        else:
            self.require(kind_decl, seen, line.span, f'card "{name}"')
        self.out.cards.append(CardDefinition(
            name, kind_decl.name, tuple(stats), tuple(faces), tuple(abilities),
            self.source.path, line.span, token))

    def on_continuation(self, problem: Problem, span: Span, pieces) -> Problem:
        """Move a problem in a joined multi-line ability to the line it is on."""
        if len(pieces) < 2 or problem.span is None:
            return problem
        offset = problem.span.column - span.column
        start, line, column = max((p for p in pieces if p[0] <= offset),
                                  key=lambda p: p[0])
        width = problem.span.end_column - problem.span.column
        new_column = column + offset - start
        return attrs.evolve(problem, span=Span(span.path, line, new_column, line,
                                               new_column + width),
                            source_line=self.source.line(line))

    def layout_broken(self, card: OutlineLine) -> bool:
        """Whether a layout problem blanked a line inside this card."""
        end = self.next_card_line.get(card.span.line, 10 ** 9)
        return any(card.span.line <= line < end for line in self.layout_lines)

    def kind_of(self, line: OutlineLine) -> KindDecl | None:
        value = (line.value or "").strip()
        kind = self.rules.kind(_unquote(value))
        if kind is None:
            self.problem(line.value_span or line.span, "E302",
                         f'unknown card kind "{value}"',
                         (listing(self.rules.kinds),), did_you_mean(value, self.rules.kinds))
        return kind

    def require(self, kind: KindDecl, given: set[str], span: Span, what: str) -> None:
        """Required stats not given at all (a stat given with a bad value has
        its own problem already)."""
        have = {g.lower() for g in given}
        missing = [s for s in kind.required if s.lower() not in have]
        if missing:
            self.problem(span, "E407", f"{what} is missing required "
                         f"stat{'s' if len(missing) > 1 else ''} " + ", ".join(missing),
                         tuple(f"{m}: ..." for m in missing))

    def kind_without_colon(self, card: OutlineLine) -> OutlineLine | None:
        """ "kind Being" (no colon): reported at its line, then read as the
        kind line it meant to be, so that the card is not said to have none."""
        for child in card.children:
            if not child.has_colon and len(child.head) > 1 and \
                    child.head[0].text.lower() == "kind":
                rest = " ".join(child.words[1:])
                self.problem(child.span, "E102", 'missing colon after "kind"',
                             (f"kind: {rest}",))
                first, last = child.head[1].span, child.head[-1].span
                return attrs.evolve(child, head=child.head[:1], value=rest, has_colon=True,
                                    value_span=Span(first.path, first.line, first.column,
                                                    last.end_line, last.end_column))
        return None

    @staticmethod
    def stat_without_colon(line: OutlineLine, allowed) -> str | None:
        """The stat a line without a colon starts with ("AP 40" -> "AP")."""
        if line.has_colon or len(line.head) < 2:
            return None
        lowered = {a.lower(): a for a in allowed}
        for n in range(len(line.head) - 1, 0, -1):
            name = " ".join(line.words[:n])
            if name.lower() in lowered:
                return lowered[name.lower()]
        return None

    def fields(self, card: OutlineLine, kind: KindDecl) -> list[OutlineLine]:
        """A card's field lines. A line indented under a field that takes no
        lines (a stat) is reported, then read as the field it meant to be."""
        blocks = {b.lower() for b in (*kind.boxes, *kind.faces)}
        fields = blocks | {f.lower() for f in (*kind.required, *kind.optional)} | {"kind"}
        out = []
        empty_box = None
        for child in card.children:
            if empty_box is not None and child.key.lower() not in fields and \
                    self.stat_without_colon(child, fields) is None:
                out[-1] = self.text_beside_box(out[-1], child, empty_box.span.line)
                continue
            empty_box = child if child.key.lower() in {b.lower() for b in kind.boxes} and \
                not child.children and not (child.value or "").strip() else None
            out.append(child)
            if child.children and child.key.lower() not in blocks:
                nested = child.children[0]
                self.problem(nested.span, "E101", "bad indentation: this line is indented "
                             f'under "{child.key}", which takes no lines under it',
                             (f"a line starting at column {child.span.column}",))
                out.extend(child.children)
        return out

    def text_beside_box(self, box: OutlineLine, line: OutlineLine,
                        box_line: int) -> OutlineLine:
        """Card text written at the indentation of the fields ("text:" then
        "TRIGGER: ..." under it, not indented more): reported once, at its
        first line, then read as the text of the box, so that it is not an
        unknown stat and its abilities are still checked."""
        if not box.children:
            column = box.span.column + 2
            self.problem(line.span, "E101", f'bad indentation: card text goes on the '
                         f'lines under "{box.key}:", indented 2 spaces more than it',
                         (f"the text indented to column {column} (\"{box.key}:\" on line "
                          f"{box_line} is at column {box.span.column})",))
        return attrs.evolve(box, children=(*box.children, line))

    def stat(self, line: OutlineLine, kind: KindDecl) -> StatValue | None:
        allowed = [*kind.required, *kind.optional]
        key = line.key
        decl = None
        if key.lower() in (a.lower() for a in allowed):
            decl = self.rules.stat(key)
        if decl is None:
            stat_name = self.stat_without_colon(line, allowed)
            if stat_name is not None:
                n = len(stat_name.split())
                rest = " ".join(line.words[n:])
                self.problem(line.span, "E102", f'missing colon after "{stat_name}"',
                             (f"{stat_name}: {rest}",))
                return None
            if not line.has_colon and len(line.head) > 1:
                self.problem(line.span, "E102", f'missing colon after "{line.head[0].text}"',
                             (f"{line.head[0].text}: {' '.join(line.words[1:])}",))
                return None
            known = list(allowed) + list(kind.boxes) + list(kind.faces)
            if kind.faces and not line.has_colon or line.children and not line.value:
                known = list(kind.faces) + list(kind.boxes) if kind.faces else known
            self.problem(line.head[0].span, "E303",
                         f'unknown stat "{key}" for {article(kind.name)}',
                         (listing(known, 12),), did_you_mean(key, known))
            return None
        if not line.has_colon:
            self.problem(line.span, "E102", f'missing colon after "{key}"', (f"{key}: VALUE",))
            return None
        value = (line.value or "").strip()
        span = line.value_span or line.span
        if not value:
            self.problem(line.span, "E408", f'stat "{key}" has no value', (f"{key}: VALUE",))
            return None
        parsed = self.stat_value(decl, value, span)
        if parsed is None:
            return None
        return StatValue(decl.name, value, parsed, span)

    def stat_value(self, decl: StatDecl, value: str, span: Span):
        if decl.type == "number":
            if re.fullmatch(r"[+-]?\d+", value):
                return int(value)
            self.problem(span, "E409", f'stat "{decl.name}" must be a number, not "{value}"',
                         ("a whole number such as 3",))
            return None
        if decl.type == "one":
            found = _match_value(value, decl.values)
            if found is None:
                self.problem(span, "E410", f'"{value}" is not a {decl.name}',
                             (listing(decl.values, 10),), did_you_mean(value, decl.values))
            return found
        if decl.type == "list":
            return self.value_list(decl, value, span)
        if decl.type == "names":
            names = []
            for item in re.finditer(r"[^,]+", value):
                if not item.group().strip():
                    continue
                names.append(_unquote(item.group()))
                # each name is reported at its own columns (a value on one line)
                start = span.column + item.start() + len(item.group()) - len(item.group().lstrip())
                one = Span(span.path, span.line, start, span.line,
                           start + len(item.group().strip())) \
                    if span.line == span.end_line else span
                self.out.references.append((names[-1], one))
            return tuple(names)
        if decl.type == "exchange":
            return self.exchange(decl, value, span)
        if decl.type == "effect":
            return self.ability_text(value, span)
        return value  # text

    def value_list(self, decl: StatDecl, value: str, span: Span):
        items = []
        for match in re.finditer(r"[^\s,]+", value):
            word = match.group()
            alternatives = []
            offset = match.start()
            for alt in word.split("/"):
                found = _match_value(alt, decl.values)
                if found is None:
                    where = Span(span.path, span.line, span.column + offset, span.line,
                                 span.column + offset + len(alt))
                    self.problem(where, "E410", f'"{alt}" is not a {decl.name} value',
                                 (listing(decl.values, 10),), did_you_mean(alt, decl.values))
                    return None
                offset += len(alt) + 1
                alternatives.append(found)
            items.append(tuple(alternatives))
        return tuple(items)

    def exchange(self, decl: StatDecl, value: str, span: Span):
        if "->" not in value:
            self.problem(span, "E411", f'"{decl.name}" needs a cost and a reward '
                         "separated by ->", (f"{decl.name}: A B -> reward",))
            return None
        cost_text, reward_text = value.split("->", 1)
        cost = self.value_list(decl, cost_text, span)
        if cost is None:
            return None
        offset = value.index("->") + 2
        offset += len(reward_text) - len(reward_text.lstrip())
        reward_span = Span(span.path, span.line, span.column + offset, span.line,
                           span.end_column)
        reward = self.ability_text(reward_text.strip(), reward_span)
        if reward is None:
            return None
        return Exchange(cost, reward)

    def box(self, line: OutlineLine, kind: KindDecl) -> list[CardAbility]:
        out = []
        if line.value:
            out.extend(self.ability_line(line.value, line.value_span, line.key, kind))
        for child in line.children:
            text = self.source.line(child.span.line)[child.span.column - 1:].rstrip()
            span = Span(child.span.path, child.span.line, child.span.column,
                        child.span.line, child.span.column + len(text))
            pieces = [(0, child.span.line, child.span.column)]
            for cont in child.children:  # continuation lines
                raw = self.source.line(cont.span.line)
                stripped = raw.strip()
                pieces.append((len(text) + 1, cont.span.line,
                               len(raw) - len(raw.lstrip()) + 1))
                text += " " + stripped
            out.extend(self.ability_line(text, span, line.key, kind, pieces))
        return out

    def ability_line(self, text: str, span: Span, box: str,
                     kind: KindDecl, pieces=()) -> list[CardAbility]:
        ability = self.ability_text(text, span, pieces)
        if ability is None:
            return []
        label = getattr(ability, "label", None)
        if label and kind.timings and label not in kind.timings:
            self.problem(Span(span.path, span.line, span.column, span.line,
                              span.column + len(label)), "E304",
                         f"{article(kind.name)} cannot have {label} abilities",
                         (listing(kind.timings),))
        return [CardAbility(box, ability, text, span)]

    def ability_text(self, text: str, span: Span, pieces=()):
        parser = self.rules.parser()
        try:
            ability = parser.parse(text, span.path, span.line, span.column)
        except UnexpectedInput as err:
            problem = parser.problem(err, self.source, text, span.line, span.column)
            self.out.problems.append(self.on_continuation(problem, span, pieces))
            return None
        for name, ref_span in ast.card_references(ability):
            self.out.references.append((name, ref_span))
        return ability


def article(noun: str) -> str:
    """'a Being', 'an Ally'."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in '"\u201c' and text[-1] in '"\u201d':
        return text[1:-1]
    return text


def _match_value(value: str, allowed: tuple[str, ...]) -> str | None:
    value = _unquote(value)
    for a in allowed:
        if a.lower() == value.lower():
            return a
    return None


# what a syntax problem lists where the language takes a card's name
_QUOTED_NAME = "a card name in quotes"


def quote_card_names(problems: list[Problem], names: Iterable[str]) -> list[Problem]:
    """A syntax problem at a card's name written without its quotes
    ("Create two Sprout tokens", "Destroy Glade Bear") where the language
    takes a name in quotes: the caret covers the name and the suggestion is
    to quote it. Other problems are returned as they are."""
    if not any(p.code == "E201" for p in problems):
        return problems         # (every game is loaded through here: nothing to sort)
    longest_first = sorted(((n.lower(), n) for n in names), key=lambda p: -len(p[0]))
    out = []
    for problem in problems:
        span, line = problem.span, problem.source_line
        if problem.code == "E201" and span is not None and line is not None and \
                _QUOTED_NAME in problem.expected:
            rest = line[span.column - 1:].lower()
            for lowered, name in longest_first:
                if not rest.startswith(lowered):
                    continue
                after = rest[len(lowered):len(lowered) + 2]
                # the name, or its plural ("Return Reef Crabs ...")
                length = len(lowered) + 1 if after[:1] == "s" else len(lowered)
                if not rest[length:length + 1].isalnum():
                    problem = attrs.evolve(
                        problem, span=attrs.evolve(span, end_line=span.line,
                                                   end_column=span.column + length),
                        suggestion=f'a card\'s name is written in quotes: "{name}"')
                    break
        out.append(problem)
    return out
