"""Reading a rules file into :class:`~interpreter.language.game_rules.GameRules`.

A rules file (``rules/<game-id>.rules``) is an outline (see
``interpreter.language.syntax``) of declarations: the game itself, counters,
zones, value sets, stats, card kinds, timing labels, keywords, verbs,
events, statuses, periods, naming conventions and deck parts, then the
procedures of play. :func:`load_rules` reads each declaration (components:
``rules_components``; procedures: ``rules_procedures``), reports every
mistake with its position, and checks what needs the whole file.

Keyword and verb definitions are themselves effect text; they are parsed
with the game's own grammar once the vocabulary is known.
"""

from __future__ import annotations

import attrs

from lark.exceptions import GrammarError, UnexpectedInput

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.language.game_rules import GameRules, NounDecl, _lookup, takers
from interpreter.language.rules_components import ComponentDeclarations
from interpreter.language.rules_procedures import ProcedureDeclarations
from interpreter.language.rules_values import UnreadableValue, parse_value
from interpreter.language.syntax import OutlineLine, parse_outline
from interpreter.language.vocabulary import clashing_words, effect_grammar
from interpreter.source import SourceText, Span


_DECLARATIONS = (
    "game", "counter", "value", "zone", "values", "stat", "kind", "timing", "keyword",
    "verb", "event", "statuses", "relations", "periods", "unique mark", "title separator",
    "deck part", "setup", "turn", "action", "resolution", "wildcard",
    "identical cards", "card effects", "once per", "rule", "noun", "adjective", "status",
)


def load_rules(source: SourceText, game_id: str) -> tuple[GameRules, list[Problem]]:
    """Read a rules file; returns the rules and every problem found."""
    lines, problems = parse_outline(source)
    rules = GameRules(game_id=game_id, path=source.path, source_text=source.text)
    reader = _RulesReader(source, rules, problems)
    reader.lines = lines
    for line in lines:
        reader.declaration(line)
    reader.finish()
    rules.keep_parses(source.path)
    return rules, problems


class _RulesReader(ComponentDeclarations, ProcedureDeclarations):
    # ---- declarations

    def declaration(self, line: OutlineLine) -> None:
        words = [w.lower() for w in line.words]
        for decl in sorted(_DECLARATIONS, key=lambda d: -len(d.split())):
            n = len(decl.split())
            if [w for w in words[:n]] == decl.split() and not any(
                    h.quoted for h in line.head[:n]):
                line = self.without_colon(line, decl, n) or line
                getattr(self, "decl_" + decl.replace(" ", "_"))(line, n)
                return
        first = line.head[0]
        if words[:2] == ["simulation", "prefers"]:
            # (a hint to random players, once: random play takes no hints now)
            self.problem(line.span, "E530", '"simulation prefers" is no longer part of the '
                         "rules language: the rules file says how the game is played, not "
                         "how agents choose; random agents pick uniformly",
                         ("a stronger opponent: the agents greedy and search "
                          "(--p2 search, docs/playtesting.md); remove the line",))
            return
        self.problem(first.span, "E502", f'unknown declaration "{first.text}"',
                     ("a declaration: " + listing(_DECLARATIONS, 20),),
                     did_you_mean(first.text, _DECLARATIONS))

    # the declarations "NAME: PROPERTIES" and the rule of the rules grammar
    # that reads their properties
    _PROPERTIES = {"counter": "counter_properties", "value": "value_properties",
                   "zone": "zone_properties", "stat": "stat_type"}

    def without_colon(self, line: OutlineLine, decl: str, n: int) -> OutlineLine | None:
        """ "counter Mana per player, starts at 0" (no colon after the
        name): reported at its line, then read as the declaration it meant,
        the name being the fewest words after which the rest reads as
        properties. Otherwise the whole line was the name, and every use of
        the name was reported elsewhere."""
        start = self._PROPERTIES.get(decl)
        if start is None or line.has_colon or len(line.head) < n + 2:
            return None
        text = self.source.line(line.span.line)
        for split in range(n + 1, len(line.head)):
            first, last = line.head[split].span, line.head[-1].span
            value = text[first.column - 1:last.end_column - 1]
            value_span = Span(first.path, first.line, first.column, last.end_line,
                              last.end_column)
            try:
                parse_value(value.rstrip().removesuffix("."), value_span, start)
            except UnreadableValue:
                continue
            name = " ".join(h.text for h in line.head[n:split])
            named = line.head[split - 1].span
            self.problem(Span(named.path, named.line, named.end_column, named.line,
                              named.end_column + 1), "E102",
                         f'missing colon after the {decl} name "{name}"',
                         (f"{text[:named.end_column - 1].strip()}: {value}",))
            return attrs.evolve(line, head=line.head[:split], value=value,
                                value_span=value_span, has_colon=True)
        return None

    def decl_game(self, line: OutlineLine, n: int) -> None:
        self.saw_game = True
        self.rules.title = self.name_after(line, n) or ""
        for child in line.children:
            key = child.key.lower()
            if key == "players":
                found = self.read(child, "players", "players", ('"2"', '"2 to 4"'),
                                  code="E503",
                                  message="players must be a number or a range")
                if found is not None:
                    self.rules.players_min = found.number()
                    self.rules.players_max = found.number(-1)
            elif key == "rulebook":
                self.rules.rulebook = child.value
            elif key == "match":
                found = self.read(child, "match", "match", ('"best of 3"',), code="E503",
                                  message="a match must be the best of an odd number of games")
                if found is None:
                    continue
                if found.number() % 2 == 0:
                    self.problem(child.value_span or child.span, "E503",
                                 "a match must be the best of an odd number of games",
                                 ('"best of 3"',))
                    continue
                self.rules.match_games = found.number()
            else:
                self.unknown_field(child, ("players", "rulebook", "match"))

    # ---- after every declaration

    VOCABULARY = ("counter", "value", "zone", "values", "stat", "kind", "statuses", "status",
                  "relations", "periods",
                  "keyword", "verb", "event", "noun", "adjective", "timing", "action")

    def grammar_clash(self, message: str) -> None:
        """Declared words that make card text ambiguous, at their declarations:
        a word declared as two things the card language tells apart (a zone
        and a kind both "hero"), or a word the card language already has
        (a counter "damage")."""
        words = clashing_words(message, effect_grammar(self.rules.vocabulary()))
        reported = False
        for word in words:
            uses = [line for line in self.lines if line.words
                    and line.words[0].lower() in self.VOCABULARY
                    and _names_word(line, word)]
            what = " and ".join(f'{line.words[0].lower()} "{_spelled(line, word)}"'
                                for line in uses[:2])
            # a word written as the plural of a kind ("zone Shrines", "kind Shrine")
            kind = next((k.name for k in self.rules.kinds.values()
                         if k.plural.lower() == word.lower()), None)
            if len(uses) < 2 and kind is not None:
                what = f'the plural of kind "{kind}" and as {what}'
            for line in uses[:1]:
                self.problem(self.span_of_text(line, _spelled(line, word)), "E517",
                             f'"{word}" cannot be told apart in card text'
                             + (f": it is declared as {what}" if len(uses) > 1 or kind else
                                ": the card language already uses this word"),
                             ("a word declared once, that the card language does not use",),
                             f'give it another name (for example '
                             f'"{_spelled(line, word)} {line.words[0].lower()}")')
                reported = True
        if not reported:
            self.problem(Span(self.source.path, 1, 1, 1, 2), "E517",
                         "the declared words clash in the card grammar: "
                         + message.split("\n")[0])

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
        for label, span in getattr(self, "_used_as", ()):
            if label not in rules.timings:
                self.problem(span, "E301", f'unknown timing label "{label}"',
                             (listing(rules.timings),), did_you_mean(label, rules.timings))
        for zone, span, full in getattr(self, "_overflow_zones", ()):
            if _lookup(rules.zones, zone) is None:
                self.problem(span, "E523", f'unknown zone "{zone}" for the cards a full '
                             f'"{full}" does not take', (listing(rules.zones),),
                             did_you_mean(zone, rules.zones))
        for zone, span, kind in getattr(self, "_kind_zones", ()):
            # "once used from ZONE" (zones may be declared after the kind)
            if zone.lower() != "hand" and _lookup(rules.zones, zone) is None:
                self.problem(span, "E523", f'unknown zone "{zone}" for kind "{kind}"',
                             (listing(rules.zones),), did_you_mean(zone, rules.zones))
        kept = {s.lower() for s in rules.statuses if s not in rules.opposites}
        for name, span in getattr(self, "_opposite_spans", {}).items():
            for status in rules.opposites[name]:
                if status.lower() not in kept:
                    self.problem(span, "E546", f'status "{name}" is the opposite of "{status}", '
                                 'which is not a declared status',
                                 (listing([s for s in rules.statuses
                                           if s not in rules.opposites]),),
                                 did_you_mean(status, rules.statuses))
        if rules.stat_pair is not None:
            numbers = [s for s in rules.stats.values() if s.type == "number"]
            first = rules.stat(rules.stat_pair[0])
            if first is None or first.type != "number":
                self.problem(self._pair_span, "E546", f'stat "{rules.stat_pair[1]}" is written '
                             f'after "{rules.stat_pair[0]}", which is not a number stat',
                             (listing([s.name for s in numbers]),),
                             did_you_mean(rules.stat_pair[0], [s.name for s in numbers]))
            else:
                rules.stat_pair = (first.name, rules.stat_pair[1])
        verbs = [v.pattern.text for v in rules.verbs]
        for status, span in getattr(self, "_giver_spans", {}).items():
            verb = rules.status_givers[status]
            slots = next((list(v.pattern.slots) for v in rules.verbs if v.pattern.text == verb),
                         None)
            if slots is None:
                self.problem(span, "E546", f'status "{status}" is given by "{verb}", '
                             'which is not a declared verb',
                             (listing(verbs) if verbs else 'a verb "VERB {card}"',),
                             did_you_mean(verb, verbs))
            elif slots not in (["card"], ["cards"]):
                self.problem(span, "E546", f'status "{status}" is given by "{verb}", '
                             'whose only slot must be the card it is given to',
                             ('a verb "VERB {card}"',))

        def known_kind(word: str) -> bool:
            return rules.kind(word) is not None or any(
                k.plural.lower() == word.lower() for k in rules.kinds.values())
        for name, noun in list(rules.nouns.items()):
            noun = rules.nouns[name] = _noun_with_qualifiers(noun, known_kind)
            for kind in noun.kinds:
                if not known_kind(kind):
                    self.problem(noun.span, "E515", f'unknown card kind "{kind}" in noun '
                                 f'"{noun.name}"', (listing(rules.kinds),),
                                 did_you_mean(kind, rules.kinds))
        # Keyword and verb definitions are card text in the game's language.
        # Declared words that clash are reported whatever else is wrong: the
        # card grammar cannot even be built with them.
        try:
            parser = rules.parser()
            if not parser.built_before:
                parser.lark      # build it now: a clash shows when it is built
        except GrammarError as err:  # the vocabulary makes the grammar ambiguous
            self.grammar_clash(str(err))
            return
        except Exception as err:
            if not self.problems:
                self.grammar_clash(str(err))
            return
        if self.problems:
            return
        for name, decl in list(rules.adjectives.items()):
            # "that your opponent controls": qualifiers, as a selector ends
            try:
                found = parser.parse(decl.text, self.source.path, decl.span.line,
                                     decl.span.column, start="qualifiers")
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, decl.text, decl.span.line, decl.span.column))
                continue
            rules.adjectives[name] = attrs.evolve(decl, qualifiers=tuple(found.args))
        for name, noun in list(rules.nouns.items()):
            if not noun.text:
                continue
            # "a Character in Champion Row": the qualifiers after the kind
            column = noun.span.column + noun.span_offset
            try:
                found = parser.parse(noun.text, self.source.path, noun.span.line, column,
                                     start="qualifiers")
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, noun.text, noun.span.line, column))
                continue
            rules.nouns[name] = attrs.evolve(noun, qualifiers=tuple(found.args))
        players = [(taker, "player_line") for taker in takers(rules)]
        for sentence, start in [(s, "start") for s in self.procedure_sentences()] + \
                players:
            try:
                parser.parse(sentence.text, start=start)
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, sentence.text, sentence.span.line,
                    sentence.span.column))
        for part in rules.deck_parts.values():
            for other in part.swaps_with:
                if rules.deck_part(other) is None:
                    self.problem(part.span, "E540",
                                 f'deck part "{part.name}" swaps with an unknown part "{other}"',
                                 (listing(rules.deck_parts),),
                                 did_you_mean(other, rules.deck_parts))
            for part_name, other, span in getattr(self, "_counted_with", ()):
                if part_name == part.name and rules.deck_part(other) is None:
                    self.problem(span, "E540",
                                 f'deck part "{part.name}" is counted with an unknown part '
                                 f'"{other}"', (listing(rules.deck_parts),),
                                 did_you_mean(other, rules.deck_parts))
            if part.starts_in and _lookup(rules.zones, part.starts_in[0]) is None:
                self.problem(part.starts_in_span, "E523",
                             f'unknown zone "{part.starts_in[0]}" for deck part "{part.name}"',
                             (listing(rules.zones),), did_you_mean(part.starts_in[0], rules.zones))
        for stat in rules.stats.values():
            if stat.adds_to_host and rules.stat(stat.adds_to_host) is None:
                self.problem(stat.span, "E510", f'unknown stat "{stat.adds_to_host}"',
                             ("a number stat",), did_you_mean(stat.adds_to_host, rules.stats))
        for counter in rules.counters.values():
            # "per place in ZONE": an ordered zone of places, where a
            # position counter says which place a player's own effects are at
            if counter.per_place is None:
                continue
            zone = _lookup(rules.zones, counter.per_place)
            if zone is None or not zone.ordered:
                self.problem(counter.per_place_span or counter.span, "E545",
                             f'counter "{counter.name}" is kept per place in '
                             + (f'an unknown zone "{counter.per_place}"' if zone is None
                                else f'"{zone.name}", which is not ordered'),
                             ("an ordered zone of places",),
                             did_you_mean(counter.per_place, rules.zones) if zone is None
                             else None)
            elif not any(c.track and c.track.lower() == zone.name.lower()
                         for c in rules.counters.values()):
                self.problem(counter.per_place_span or counter.span, "E545",
                             f'counter "{counter.name}" is kept per place in "{zone.name}", '
                             "but no counter is a position in it",
                             (f'a counter NAME: per player, position in "{zone.name}"',))
        periods = [p.name for p in rules.phases] + [s.name for p in rules.phases
                                                     for s in p.steps]
        for action in rules.actions:
            for phase in action.during:
                if phase.lower() not in {p.lower() for p in periods}:
                    self.problem(action.span, "E520", f'unknown phase or step "{phase}"',
                                 (listing(periods),), did_you_mean(phase, periods))
        for rule in rules.game_rules:
            try:
                parser.parse(rule.text.text)
            except UnexpectedInput as err:
                self.problems.append(parser.problem(
                    err, self.source, rule.text.text, rule.text.span.line,
                    rule.text.span.column))
        for decl in (*rules.keywords, *rules.verbs):
            for text, span in decl.definitions():
                if span is None:
                    continue
                try:
                    parser.parse(text)
                except UnexpectedInput as err:
                    self.problems.append(parser.problem(
                        err, self.source, text, span.line, span.column))


def _names_word(line: OutlineLine, word: str) -> bool:
    """Whether a declaration line declares ``word`` (in its head or its list)."""
    wanted = word.lower()
    head = " ".join(item.text for item in line.head[1:]).lower()
    listed = [piece.strip().strip('"\u201c\u201d').lower()
              for piece in (line.value or "").split(",")]
    return head == wanted or wanted in listed or head.startswith(wanted + " ")


def _spelled(line: OutlineLine, word: str) -> str:
    """``word`` as the line writes it (its case)."""
    text = " ".join(item.text for item in line.head) + " " + (line.value or "")
    index = text.lower().find(word.lower())
    return text[index:index + len(word)] if index >= 0 else word


def _noun_with_qualifiers(noun: NounDecl, known_kind) -> NounDecl:
    """ "noun Champion: a Character in Champion Row": the last "kind"
    read is a kind followed by qualifiers; split them (the qualifiers are
    read with the card grammar once it is built). Without qualifiers the
    noun's text is left empty."""
    last = noun.kinds[-1] if noun.kinds else ""
    words = last.split()
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n])
        if not known_kind(last) and known_kind(head):
            rest = last[len(head):].strip()
            offset = noun.text.find(last) + last.index(rest, len(head))
            return attrs.evolve(noun, kinds=noun.kinds[:-1] + (head,), text=rest,
                                span_offset=offset)
    return attrs.evolve(noun, text="")
