"""Rules files: what a game declares, read into :class:`GameRules`.

A rules file (``rules/<game-id>.rules``) is an outline (see
``interpreter.syntax``) of declarations: the game itself, counters, zones,
value sets, stats, card kinds, timing labels, keywords, verbs, events,
statuses, periods, naming conventions and deck parts. This module reads each
declaration, reports every mistake with its position, and builds the game's
:class:`~interpreter.vocabulary.Vocabulary` and effect parser.

Keyword and verb definitions are themselves effect text; they are parsed
with the game's own grammar once the vocabulary is known.
"""

from __future__ import annotations

import re
from typing import Iterable

import attrs

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.source import SourceText, Span
from interpreter.syntax import EffectParser, OutlineLine, parse_outline, problem_at
from interpreter.vocabulary import Pattern, Vocabulary, effect_grammar, plural

# ---------------------------------------------------------------- declarations


@attrs.frozen(slots=True)
class CounterDecl:
    name: str
    scope: str                 # "player", "card" or "game"
    start: int | None
    minimum: int | None
    maximum: int | None
    span: Span
    loses_at: int | None = None   # a player whose counter is this or less loses
    takes_damage: bool = False    # damage dealt to a player is lost from it


# What the base language's verbs mean for zones: "draw" moves from the draw
# pile to the hand, "discard" and "destroy" move to the discard pile, cards
# "in play" are the ones continuous and triggered abilities work from.
ZONE_ROLES = ("draw pile", "hand", "discard pile", "in play")


@attrs.frozen(slots=True)
class ZoneDecl:
    name: str
    scope: str                 # "player" or "shared"
    visibility: str            # "hidden", "private" or "public"
    ordered: bool
    slots: int | None
    span: Span
    roles: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class StatDecl:
    """A stat a card of some kind has, and the type of its value."""

    name: str
    type: str                  # number | one | list | names | exchange | text | effect
    values: tuple[str, ...]    # allowed values for one/list/exchange
    span: Span


@attrs.frozen(slots=True)
class KindDecl:
    name: str
    plural: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    timings: tuple[str, ...]   # empty: any declared timing
    boxes: tuple[str, ...]     # text boxes: "text" plus the declared ones
    faces: tuple[str, ...]
    span: Span


@attrs.frozen(slots=True)
class TimingDecl:
    label: str
    use: str                   # activated | triggered | continuous
    optional: bool
    meaning: str | None
    span: Span
    response: bool = False     # usable when a player may respond (resolution)
    immediate: bool = False    # resolves at once, even when others wait on a stack


@attrs.frozen(slots=True)
class ResolutionDecl:
    """How triggered and responding effects are ordered and resolved: a
    last-in-first-out stack of entries, with these settings."""

    responses: bool            # the other player may respond to each entry
    rival_first: bool          # simultaneous triggers: the rival's go in first
    drop_if_source_left: bool  # an entry whose source left its zone is removed
    span: Span


@attrs.frozen(slots=True)
class PatternDecl:
    """A keyword or verb: its pattern and its definition (effect text or a
    quoted description)."""

    pattern: Pattern
    definition: str | None
    description: str | None
    span: Span
    definition_span: Span | None


@attrs.frozen(slots=True)
class EventDecl:
    phrase: str                # "is Summoned" or "advances"
    description: str | None
    span: Span


@attrs.frozen(slots=True)
class DeckPartDecl:
    """One part of a deck (main deck, side deck, ...) and its construction rules."""

    name: str
    size_min: int | None
    size_max: int | None
    kinds: tuple[str, ...]
    copies: tuple["CopyLimit", ...]
    counts: tuple["CountRule", ...]
    totals: tuple["TotalRule", ...]
    banned: tuple[str, ...]
    limited: tuple[tuple[str, int], ...]
    optional: bool
    span: Span
    # Where the part's cards are when a game starts: (zone, face up?) or None
    # for a part that stays outside the game (a side deck). The first part
    # defaults to the draw pile, face down.
    starts_in: tuple[str, bool] | None = None
    starts_in_span: Span | None = None


@attrs.frozen(slots=True)
class CopyLimit:
    """At most ``limit`` cards sharing the same values of ``keys``
    (name, title or stats), among cards of ``kind`` (or all)."""

    limit: int
    keys: tuple[str, ...]
    kind: str | None
    span: Span


@attrs.frozen(slots=True)
class CountRule:
    """exactly / at least / at most N cards of a kind or with a keyword."""

    relation: str              # "exactly" | "at least" | "at most"
    number: int
    kind: str | None
    keyword: str | None
    span: Span


@attrs.frozen(slots=True)
class TotalRule:
    stat: str
    relation: str
    number: int
    span: Span


@attrs.frozen(slots=True)
class Sentence:
    """One line of a procedure: card-language text and where it was written."""

    text: str
    span: Span


@attrs.frozen(slots=True)
class StepDecl:
    """A step of a phase: a period of its own, with its own sentences."""

    name: str
    sentences: tuple[Sentence, ...]
    span: Span


@attrs.frozen(slots=True)
class PhaseDecl:
    name: str
    sentences: tuple[Sentence, ...]   # what happens at the phase's start, before its steps
    skip_first_turn: bool
    span: Span
    steps: tuple[StepDecl, ...] = ()


@attrs.frozen(slots=True)
class ActionDecl:
    """Something a player may do in an action window (``takes actions``)."""

    name: str
    during: tuple[str, ...]     # phase names; empty: any window
    choose: Sentence | None     # which card the action is about ("a card in your hand")
    cost: Sentence | None
    effect: Sentence | None
    event: str | None           # the event it counts as ("played")
    span: Span
    limit: tuple | None = None  # ("turn", per card?): "once per turn for each card"


@attrs.define
class GameRules:
    """Everything a rules file declares (the part the language needs)."""

    game_id: str
    title: str = ""
    players_min: int = 2
    players_max: int = 2
    rulebook: str | None = None
    counters: dict[str, CounterDecl] = attrs.Factory(dict)
    zones: dict[str, ZoneDecl] = attrs.Factory(dict)
    value_sets: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    stats: dict[str, StatDecl] = attrs.Factory(dict)
    kinds: dict[str, KindDecl] = attrs.Factory(dict)
    timings: dict[str, TimingDecl] = attrs.Factory(dict)
    keywords: list[PatternDecl] = attrs.Factory(list)
    verbs: list[PatternDecl] = attrs.Factory(list)
    events: list[EventDecl] = attrs.Factory(list)
    statuses: list[str] = attrs.Factory(list)
    periods: list[str] = attrs.Factory(list)
    unique_mark: str | None = None
    title_separator: str | None = None
    deck_parts: dict[str, DeckPartDecl] = attrs.Factory(dict)
    setup: tuple[Sentence, ...] = ()
    phases: tuple[PhaseDecl, ...] = ()
    actions: tuple[ActionDecl, ...] = ()
    resolution: ResolutionDecl | None = None
    path: str = ""
    _parser: EffectParser | None = None
    _words: dict | None = None

    # ---- lookups (case-insensitive, as the card language is)

    def kind(self, name: str) -> KindDecl | None:
        return _lookup(self.kinds, name)

    def stat(self, name: str) -> StatDecl | None:
        return _lookup(self.stats, name)

    def timing(self, label: str) -> TimingDecl | None:
        return self.timings.get(label)

    def deck_part(self, name: str) -> DeckPartDecl | None:
        return _lookup(self.deck_parts, name)

    def zone_with_role(self, role: str) -> ZoneDecl | None:
        for zone in self.zones.values():
            if role in zone.roles:
                return zone
        return None

    def title_of(self, name: str) -> str:
        """A card's title: its name without unique mark and subtitle."""
        title = name
        if self.unique_mark and title.startswith(self.unique_mark):
            title = title[len(self.unique_mark):].strip()
        if self.title_separator and self.title_separator in title:
            title = title.split(self.title_separator, 1)[0].strip()
        return title

    def is_unique(self, name: str) -> bool:
        return bool(self.unique_mark) and name.startswith(self.unique_mark)

    # ---- the language

    def vocabulary(self) -> Vocabulary:
        # Stat values double as adjectives ("a FIRE Being"), unless the word
        # already names a counter, zone, kind or status: one word, one role.
        taken = {w.lower() for w in (*self.counters, *self.zones, *self.statuses,
                                     *(k.name for k in self.kinds.values()),
                                     *(k.plural for k in self.kinds.values()))}
        adjectives: list[str] = []
        for stat in self.stats.values():
            if stat.type in ("one", "list"):
                adjectives.extend(v for v in stat.values if v.lower() not in taken)
        return Vocabulary(
            timing_labels=tuple(self.timings),
            keywords=tuple(k.pattern for k in self.keywords),
            zones=tuple(self.zones),
            counters=tuple(self.counters),
            kinds=tuple(k.name for k in self.kinds.values()),
            kind_plurals=tuple(k.plural for k in self.kinds.values()),
            stats=tuple(s.name for s in self.stats.values() if s.type == "number"),
            list_stats=tuple(s.name for s in self.stats.values() if s.type == "list"),
            stat_values=tuple(dict.fromkeys(adjectives)),
            statuses=tuple(self.statuses),
            participles=tuple(e.phrase[3:] for e in self.events
                              if e.phrase.lower().startswith("is ")),
            event_verbs=tuple(e.phrase for e in self.events
                              if not e.phrase.lower().startswith("is ")),
            periods=tuple(self.periods),
            verbs=tuple(v.pattern for v in self.verbs),
        )

    def parser(self, strict: bool = False) -> EffectParser:
        if self._parser is None or strict:
            from interpreter.transformer import make_transformer

            vocab = self.vocabulary()
            grammar = effect_grammar(vocab)
            parser = EffectParser(grammar, vocab.category_of(),
                                  strict=strict, spelling=vocab.spelling(),
                                  patterns=(*vocab.verbs, *vocab.keywords),
                                  transformer=make_transformer(grammar, self))
            if strict:
                return parser
            self._parser = parser
        return self._parser


def parse_ability(rules: GameRules, text: str, path: str = "<text>"):
    """One effect text in this game's language, as an AST Ability.

    Raises CardrulesError (never a lark error) with a positioned problem.
    """
    from lark.exceptions import UnexpectedInput

    from interpreter.errors import CardrulesError

    source = SourceText(path, text)
    if "\n" in text or "\r" in text:
        line = text.replace("\r", "\n").split("\n")
        raise CardrulesError(Problem(
            "E202", "an effect text is one line", Span(path, 1, len(line[0]) + 1, 1,
                                                       len(line[0]) + 2),
            line[0], ("one line of text",)))
    parser = rules.parser()
    try:
        return parser.parse(text, path)
    except UnexpectedInput as err:
        raise CardrulesError(parser.problem(err, source, text, 1, 1)) from None


def _lookup(table: dict, name: str):
    if name in table:
        return table[name]
    lowered = name.lower()
    for key, value in table.items():
        if key.lower() == lowered:
            return value
    return None


# ---------------------------------------------------------------- reading

_DECLARATIONS = (
    "game", "counter", "zone", "values", "stat", "kind", "timing", "keyword",
    "verb", "event", "statuses", "periods", "unique mark", "title separator",
    "deck part", "setup", "turn", "action", "resolution",
)


def load_rules(source: SourceText, game_id: str) -> tuple[GameRules, list[Problem]]:
    """Read a rules file; returns the rules and every problem found."""
    lines, problems = parse_outline(source)
    rules = GameRules(game_id=game_id, path=source.path)
    reader = _RulesReader(source, rules, problems)
    for line in lines:
        reader.declaration(line)
    reader.finish()
    return rules, problems


_INT = re.compile(r"^[+-]?\d+$")


class _RulesReader:
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

    # ---- declarations

    def declaration(self, line: OutlineLine) -> None:
        words = [w.lower() for w in line.words]
        for decl in sorted(_DECLARATIONS, key=lambda d: -len(d.split())):
            n = len(decl.split())
            if [w for w in words[:n]] == decl.split() and not any(
                    h.quoted for h in line.head[:n]):
                getattr(self, "decl_" + decl.replace(" ", "_"))(line, n)
                return
        first = line.head[0]
        self.problem(first.span, "E502", f'unknown declaration "{first.text}"',
                     ("a declaration: " + listing(_DECLARATIONS, 20),),
                     did_you_mean(first.text, _DECLARATIONS))

    def decl_game(self, line: OutlineLine, n: int) -> None:
        self.saw_game = True
        self.rules.title = self.name_after(line, n) or ""
        for child in line.children:
            key = child.key.lower()
            if key == "players":
                m = re.fullmatch(r"(\d+)(?:\s*to\s*(\d+))?", child.value or "")
                if not m:
                    self.problem(child.value_span or child.span, "E503",
                                 "players must be a number or a range",
                                 ('"2"', '"2 to 4"'))
                    continue
                self.rules.players_min = int(m.group(1))
                self.rules.players_max = int(m.group(2) or m.group(1))
            elif key == "rulebook":
                self.rules.rulebook = child.value
            else:
                self.unknown_field(child, ("players", "rulebook"))

    def unknown_field(self, line: OutlineLine, fields: Iterable[str]) -> None:
        fields = list(fields)
        self.problem(line.head[0].span, "E504", f'unknown field "{line.key}"',
                     (listing(fields, 12),), did_you_mean(line.key, fields))

    def decl_counter(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, start, minimum, maximum, loses_at = "player", None, None, None, None
        takes_damage = False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p == "per player":
                scope = "player"
            elif p in ("on cards", "per card"):
                scope = "card"
            elif p in ("shared", "per game"):
                scope = "game"
            elif m := re.fullmatch(r"starts at ([+-]?\d+)", p):
                start = int(m.group(1))
            elif m := re.fullmatch(r"(?:at least|minimum) ([+-]?\d+)", p):
                minimum = int(m.group(1))
            elif m := re.fullmatch(r"(?:at most|maximum) ([+-]?\d+)", p):
                maximum = int(m.group(1))
            elif m := re.fullmatch(r"a player at ([+-]?\d+) or less loses", p):
                loses_at = int(m.group(1))
            elif p == "takes damage":
                takes_damage = True
            else:
                self.bad_property(span, prop, ("per player", "on cards", "shared",
                                               "starts at N", "at least N", "at most N",
                                               "a player at N or less loses",
                                               "takes damage"))
        self.add(self.rules.counters, name,
                 CounterDecl(name, scope, start, minimum, maximum, line.span, loses_at,
                             takes_damage), line)

    def bad_property(self, span: Span, prop: str, allowed: tuple[str, ...]) -> None:
        self.problem(span, "E505", f'unknown property "{prop}"', allowed,
                     did_you_mean(prop, allowed))

    def add(self, table: dict, name: str, decl, line: OutlineLine) -> None:
        if _lookup(table, name) is not None:
            self.problem(line.span, "E506", f'"{name}" is declared twice')
            return
        table[name] = decl

    def decl_zone(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, visibility, ordered, slots = "player", "public", False, None
        roles: list[str] = []
        for prop, span in self.properties(line):
            p = prop.lower()
            if p == "per player":
                scope = "player"
            elif p == "shared":
                scope = "shared"
            elif p in ("hidden", "private", "public"):
                visibility = p
            elif p == "ordered":
                ordered = True
            elif p == "unordered":
                ordered = False
            elif m := re.fullmatch(r"(\d+) slots?", p):
                slots = int(m.group(1))
            elif p in ("face down", "face up"):
                pass  # how cards enter the zone; recorded by the engine issue
            elif p in ZONE_ROLES:
                roles.append(p)
            else:
                self.bad_property(span, prop, ("per player", "shared", "hidden",
                                               "private", "public", "ordered",
                                               "N slots", "face down", *ZONE_ROLES))
        self.add(self.rules.zones, name,
                 ZoneDecl(name, scope, visibility, ordered, slots, line.span,
                          tuple(roles)), line)

    def decl_values(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        values = tuple(v for v, _ in self.names_list(line))
        if not values:
            self.problem(line.span, "E507", f'value set "{name}" lists no values',
                         ("values NAME: A, B, C",))
            return
        self.add(self.rules.value_sets, name, values, line)

    def decl_stat(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        text = (line.value or "").strip().rstrip(".")
        span = line.value_span or line.span
        low = text.lower()
        values: tuple[str, ...] = ()
        if low in ("number", "text", "effect", "card names"):
            kind = {"card names": "names"}.get(low, low)
        elif m := re.fullmatch(r"(one of|list of|exchange of)\s+(.+)", text, re.I):
            kind = m.group(1).lower().split()[0]
            values = self.values_of(m.group(2), span)
        else:
            self.problem(span, "E508", f'unknown type of stat "{text}"',
                         ("number", "one of VALUES", "list of VALUES",
                          "exchange of VALUES", "card names", "text", "effect"),
                         did_you_mean(text, ("number", "text", "effect", "card names")))
            return
        self.add(self.rules.stats, name, StatDecl(name, kind, values, line.span), line)

    def values_of(self, text: str, span: Span) -> tuple[str, ...]:
        if "," not in text and _lookup(self.rules.value_sets, _unquote(text)) is not None:
            return _lookup(self.rules.value_sets, _unquote(text))
        values = tuple(_unquote(v.strip()) for v in text.split(",") if v.strip())
        if len(values) == 1 and values[0] not in ("",):
            self.problem(span, "E509", f'unknown value set "{values[0]}"',
                         ("a value set declared with values, or A, B, C",),
                         did_you_mean(values[0], self.rules.value_sets))
        return values

    def decl_kind(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        fields = {"stats": [], "optional": [], "timings": [], "boxes": [],
                  "faces": [], "plural": []}
        for child in line.children:
            key = child.key.lower()
            if key not in fields:
                self.unknown_field(child, fields)
                continue
            fields[key] = self.names_list(child)
        for stat, span in fields["stats"] + fields["optional"]:
            if self.rules.stat(stat) is None:
                self.problem(span, "E510", f'unknown stat "{stat}"',
                             ("a stat declared with stat NAME: TYPE",),
                             did_you_mean(stat, self.rules.stats))
        plural_name = fields["plural"][0][0] if fields["plural"] else plural(name)
        kind = KindDecl(
            name, plural_name,
            tuple(s for s, _ in fields["stats"]),
            tuple(s for s, _ in fields["optional"]),
            tuple(t for t, _ in fields["timings"]),
            ("text",) + tuple(b for b, _ in fields["boxes"]),
            tuple(f for f, _ in fields["faces"]),
            line.span,
        )
        self.add(self.rules.kinds, name, kind, line)
        self._kind_timing_spans = getattr(self, "_kind_timing_spans", [])
        self._kind_timing_spans.extend(fields["timings"])

    def decl_timing(self, line: OutlineLine, n: int) -> None:
        label = self.name_after(line, n)
        if not label:
            return
        use, optional, response, immediate = None, True, False, False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p in ("activated", "triggered", "continuous"):
                use = p
            elif p == "response":
                response = True
            elif p == "immediate":
                immediate = True
            elif p == "optional":
                optional = True
            elif p == "mandatory":
                optional = False
            else:
                self.bad_property(span, prop, ("activated", "triggered",
                                               "continuous", "optional", "mandatory",
                                               "response", "immediate"))
        if use is None:
            self.problem(line.span, "E511", f'timing {label} needs a use',
                         ("activated", "triggered", "continuous"))
            use = "activated"
        meaning = None
        for child in line.children:
            if child.key.lower() == "meaning":
                meaning = child.value
            else:
                self.unknown_field(child, ("meaning",))
        self.add(self.rules.timings, label,
                 TimingDecl(label, use, optional, meaning, line.span, response, immediate),
                 line)

    def pattern_decl(self, line: OutlineLine, n: int) -> PatternDecl | None:
        text = self.name_after(line, n)
        if not text:
            return None
        pattern = Pattern(text)
        for slot in pattern.bad_slots():
            self.problem(line.span, "E512", f'unknown slot "{{{slot}}}" in "{text}"',
                         ("{n}", "{card}", "{cards}", "{player}", "{zone}"))
        definition = description = None
        value = (line.value or "").strip()
        if value.startswith(('"', "\u201c")):
            description = _unquote(value)
        elif value:
            definition = value
        return PatternDecl(pattern, definition, description, line.span,
                           line.value_span if definition else None)

    def decl_keyword(self, line: OutlineLine, n: int) -> None:
        decl = self.pattern_decl(line, n)
        if decl:
            self.rules.keywords.append(decl)

    def decl_verb(self, line: OutlineLine, n: int) -> None:
        decl = self.pattern_decl(line, n)
        if decl is None:
            return
        if decl.definition is None:
            self.problem(line.span, "E513", f'verb "{decl.pattern.text}" needs a '
                         "definition in the card language",
                         ("verb \"Mill {n}\": Move the top {n} cards of your deck "
                          "to your graveyard.",))
        self.rules.verbs.append(decl)

    def decl_event(self, line: OutlineLine, n: int) -> None:
        phrase = self.name_after(line, n)
        if phrase:
            value = (line.value or "").strip()
            self.rules.events.append(EventDecl(phrase, _unquote(value) or None,
                                               line.span))

    def decl_statuses(self, line: OutlineLine, n: int) -> None:
        self.rules.statuses.extend(v for v, _ in self.names_list(line))

    def decl_periods(self, line: OutlineLine, n: int) -> None:
        self.rules.periods.extend(v for v, _ in self.names_list(line))

    def decl_unique_mark(self, line: OutlineLine, n: int) -> None:
        self.rules.unique_mark = _unquote((line.value or "").strip()) or None

    def decl_title_separator(self, line: OutlineLine, n: int) -> None:
        self.rules.title_separator = _unquote((line.value or "").strip()) or None

    def decl_deck_part(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        size_min = size_max = None
        kinds: list[str] = []
        copies: list[CopyLimit] = []
        counts: list[CountRule] = []
        totals: list[TotalRule] = []
        banned: list[str] = []
        limited: list[tuple[str, int]] = []
        optional = False
        starts_in: tuple[str, bool] | None = None
        starts_span: Span | None = None
        fields = ("size", "kinds", "copies", "count", "total STAT", "banned",
                  "limited", "optional", "starts in")
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".")
            span = child.value_span or child.span
            if key == "size":
                rng = _parse_range(value)
                if rng is None:
                    self.problem(span, "E514", f'unreadable size "{value}"',
                                 ("N", "N to M", "at most N", "at least N"))
                else:
                    size_min, size_max = rng
            elif key == "kinds":
                for kind, kspan in self.names_list(child):
                    if self.rules.kind(kind) is None:
                        self.unknown_kind(kind, kspan)
                    kinds.append(kind)
            elif key == "copies":
                m = re.fullmatch(r"at most (\d+) per (.+?)(?: of (.+))?", value, re.I)
                if not m:
                    self.problem(span, "E514", f'unreadable copy limit "{value}"',
                                 ("at most N per name", "at most N per title",
                                  "at most N per name, colors and tag of KIND"))
                    continue
                keys = tuple(k.strip() for k in re.split(r",|\band\b", m.group(2))
                             if k.strip())
                for k in keys:
                    if k.lower() not in ("name", "title") and self.rules.stat(k) is None:
                        self.problem(span, "E510", f'unknown stat "{k}" in copy limit',
                                     ("name", "title", "a stat"),
                                     did_you_mean(k, list(self.rules.stats) + ["name", "title"]))
                kind = _unquote(m.group(3)) if m.group(3) else None
                if kind and self.rules.kind(kind) is None:
                    self.unknown_kind(kind, span)
                copies.append(CopyLimit(int(m.group(1)), keys, kind, child.span))
            elif key == "count":
                m = re.fullmatch(r"(exactly|at least|at most) (\d+) (?:with (.+)|(.+))",
                                 value, re.I)
                if not m:
                    self.problem(span, "E514", f'unreadable count rule "{value}"',
                                 ("exactly N KIND", "at most N with KEYWORD"))
                    continue
                kind = _unquote(m.group(4)) if m.group(4) else None
                if kind and self.rules.kind(kind) is None:
                    self.unknown_kind(kind, self.span_of_text(child, m.group(4).strip()))
                counts.append(CountRule(m.group(1).lower(), int(m.group(2)), kind,
                                        _unquote(m.group(3)) if m.group(3) else None,
                                        child.span))
            elif key.startswith("total "):
                stat = _unquote(child.key[6:].strip())
                m = re.fullmatch(r"(exactly|at least|at most) (\d+)", value, re.I)
                if self.rules.stat(stat) is None:
                    self.problem(self.span_of_text(child, child.key[6:].strip()), "E510",
                                 f'unknown stat "{stat}"',
                                 ("a number stat",), did_you_mean(stat, self.rules.stats))
                if not m:
                    self.problem(span, "E514", f'unreadable total "{value}"',
                                 ("at most N",))
                    continue
                totals.append(TotalRule(stat, m.group(1).lower(), int(m.group(2)),
                                        child.span))
            elif key == "banned":
                banned.extend(v for v, _ in self.names_list(child))
            elif key == "limited":
                m = re.fullmatch(r"(.+?)\s+(\d+)", value)
                if not m:
                    self.problem(span, "E514", f'unreadable limit "{value}"',
                                 ('"Card Name" N',))
                    continue
                limited.append((_unquote(m.group(1)), int(m.group(2))))
            elif key == "optional":
                optional = value.lower() in ("yes", "true")
            elif key == "starts in":
                m = re.fullmatch(r"(?:the |their |your )?(.+?)(?:,? (face up|face down))?", value,
                                 re.I)
                starts_in = (m.group(1).strip(), (m.group(2) or "").lower() == "face up")
                starts_span = span
            else:
                self.unknown_field(child, fields)
        self.add(self.rules.deck_parts, name, DeckPartDecl(
            name, size_min, size_max, tuple(kinds), tuple(copies), tuple(counts),
            tuple(totals), tuple(banned), tuple(limited), optional, line.span,
            starts_in, starts_span), line)

    # ---- procedures: setup, the turn, actions

    def sentences(self, lines) -> tuple[Sentence, ...]:
        out = []
        for line in lines:
            text = self.source.line(line.span.line)[line.span.column - 1:].rstrip()
            span = Span(self.source.path, line.span.line, line.span.column,
                        line.span.line, line.span.column + len(text))
            out.append(Sentence(text, span))
        return tuple(out)

    def decl_setup(self, line: OutlineLine, n: int) -> None:
        self.rules.setup = self.rules.setup + self.sentences(line.children)

    def decl_turn(self, line: OutlineLine, n: int) -> None:
        phases = list(self.rules.phases)
        for child in line.children:
            if child.words[0].lower() != "phase" or len(child.head) != 2:
                self.problem(child.span, "E518", "a turn is made of phases",
                             ('phase "Name"',), did_you_mean(child.words[0], ["phase"]))
                continue
            skip = False
            body = []
            steps = []
            for grandchild in child.children:
                if grandchild.words[0].lower() == "step" and len(grandchild.head) == 2 \
                        and not grandchild.has_colon:
                    steps.append(StepDecl(grandchild.head[1].text,
                                          self.sentences(grandchild.children), grandchild.span))
                elif grandchild.key.lower() == "skip":
                    value = (grandchild.value or "").strip().rstrip(".").lower()
                    if value != "on the first turn of the game":
                        self.problem(grandchild.value_span or grandchild.span, "E519",
                                     f'unknown skip condition "{value}"',
                                     ("on the first turn of the game",))
                    skip = True
                else:
                    body.append(grandchild)
            phases.append(PhaseDecl(child.head[1].text, self.sentences(body), skip,
                                    child.span, tuple(steps)))
        self.rules.phases = tuple(phases)

    def decl_resolution(self, line: OutlineLine, n: int) -> None:
        settings = {
            "responses": ("the other player", "none"),
            "simultaneous": ("rival first", "turn player first"),
            "an entry whose source left its zone": ("is removed", "still resolves"),
        }
        chosen = {"responses": "none", "simultaneous": "turn player first",
                  "an entry whose source left its zone": "still resolves"}
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".").lower()
            if key not in settings:
                self.unknown_field(child, settings)
                continue
            if value not in settings[key]:
                self.problem(child.value_span or child.span, "E521",
                             f'unknown setting "{value}" for {key}', settings[key],
                             did_you_mean(value, settings[key]))
                continue
            chosen[key] = value
        self.rules.resolution = ResolutionDecl(
            chosen["responses"] == "the other player",
            chosen["simultaneous"] == "rival first",
            chosen["an entry whose source left its zone"] == "is removed",
            line.span)

    def decl_action(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        fields = {"during": None, "choose": None, "cost": None, "effect": None,
                  "counts as": None, "limit": None}
        for child in line.children:
            key = child.key.lower()
            if key not in fields:
                self.unknown_field(child, fields)
                continue
            fields[key] = child
        during = tuple(v for v, _ in self.names_list(fields["during"])) if fields[
            "during"] else ()

        def sentence(field):
            line_ = fields[field]
            if line_ is None or not line_.value:
                return None
            return Sentence(line_.value, line_.value_span)

        event = fields["counts as"].value.strip() if fields["counts as"] else None
        limit = None
        if fields["limit"] is not None:
            value = (fields["limit"].value or "").strip().rstrip(".")
            m = re.fullmatch(r"once per (.+?)( for each card)?", value, re.I)
            periods = [p.lower() for p in self.rules.periods]
            if not m or m.group(1).lower() not in periods:
                self.problem(fields["limit"].value_span or fields["limit"].span, "E522",
                             f'unreadable limit "{value}"',
                             ("once per PERIOD", "once per PERIOD for each card"),
                             did_you_mean(m.group(1), self.rules.periods) if m else None)
            else:
                period = next(p for p in self.rules.periods if p.lower() == m.group(1).lower())
                limit = (period, bool(m.group(2)))
        self.rules.actions = self.rules.actions + (ActionDecl(
            name, during, sentence("choose"), sentence("cost"), sentence("effect"),
            event, line.span, limit),)

    def procedure_sentences(self):
        return _procedure_sentences(self.rules)

    def unknown_kind(self, kind: str, span: Span) -> None:
        self.problem(span, "E515", f'unknown card kind "{kind}"',
                     (listing(self.rules.kinds),), did_you_mean(kind, self.rules.kinds))

    # ---- after every declaration

    def finish(self) -> None:
        rules = self.rules
        if not self.saw_game:
            self.problems.insert(0, Problem(
                "E516", 'a rules file must start with game "Title"',
                Span(self.source.path, 1, 1, 1, 2), self.source.line(1),
                ('game "Title"',)))
        for label, span in getattr(self, "_kind_timing_spans", []):
            if label not in rules.timings:
                self.problem(span, "E301", f'unknown timing label "{label}"',
                             (listing(rules.timings),), did_you_mean(label, rules.timings))
        if self.problems:
            return
        # Keyword and verb definitions are card text in the game's language.
        try:
            parser = rules.parser()
        except Exception as err:  # the vocabulary makes the grammar ambiguous
            self.problem(Span(self.source.path, 1, 1, 1, 2), "E517",
                         f"the declared words clash in the card grammar: {err}".split("\n")[0])
            return
        from lark.exceptions import UnexpectedInput
        for sentence in self.procedure_sentences():
            try:
                parser.parse(sentence.text)
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, sentence.text, sentence.span.line,
                    sentence.span.column))
        for part in rules.deck_parts.values():
            if part.starts_in and _lookup(rules.zones, part.starts_in[0]) is None:
                self.problem(part.starts_in_span, "E523",
                             f'unknown zone "{part.starts_in[0]}" for deck part "{part.name}"',
                             (listing(rules.zones),), did_you_mean(part.starts_in[0], rules.zones))
        periods = [p.name for p in rules.phases] + [s.name for p in rules.phases
                                                     for s in p.steps]
        for action in rules.actions:
            for phase in action.during:
                if phase.lower() not in {p.lower() for p in periods}:
                    self.problem(action.span, "E520", f'unknown phase or step "{phase}"',
                                 (listing(periods),), did_you_mean(phase, periods))
        for decl in (*rules.keywords, *rules.verbs):
            if decl.definition is None or decl.definition_span is None:
                continue
            try:
                parser.parse(decl.definition)
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, decl.definition, decl.definition_span.line,
                    decl.definition_span.column))


def _procedure_sentences(rules: GameRules):
    yield from rules.setup
    for phase in rules.phases:
        yield from phase.sentences
        for step in phase.steps:
            yield from step.sentences
    for action in rules.actions:
        for sentence in (action.choose, action.cost, action.effect):
            if sentence is not None and action.choose is not sentence:
                yield sentence


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
