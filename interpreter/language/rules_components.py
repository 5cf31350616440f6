"""Reading a rules file: the game's components.

The declarations of what a game is made of: counters, zones, value sets,
stats, card kinds, nouns and adjectives, timing labels, keywords, verbs, events, statuses,
periods, naming conventions (unique mark, title separator), wildcards and
deck parts. Each becomes its record of ``interpreter.language.game_rules``.
"""

from __future__ import annotations

import re

import attrs

from interpreter.errors import did_you_mean
from interpreter.language.game_rules import (
    ZONE_ROLES, AdjectiveDecl, CopyLimit, CountRule, CounterDecl, DeckPartDecl, EventDecl,
    KindDecl, NounDecl, PatternDecl, Sentence, StatDecl, TimingDecl, TotalRule, ZoneDecl,
    _lookup)
from interpreter.language.rules_reading import RulesReaderBase, _parse_range, _unquote
from interpreter.language.syntax import OutlineLine
from interpreter.language.vocabulary import Pattern, plural
from interpreter.source import Span


class ComponentDeclarations(RulesReaderBase):
    """Counters, zones, values, stats, kinds, timings, keywords, verbs,
    events, statuses, periods, naming conventions, wildcards, deck parts."""

    def decl_counter(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, start, minimum, maximum, loses_at = "player", None, None, None, None
        wins_at = None
        takes_damage = False
        track = per_place = per_place_span = None
        on_cards = per_player = False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p == "per player":
                per_player = True
                scope = "card" if on_cards else "player"
            elif p in ("on cards", "per card"):
                on_cards = True
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
            elif m := re.fullmatch(r"a player at ([+-]?\d+) or more wins", p):
                wins_at = int(m.group(1))
            elif p == "takes damage":
                takes_damage = True
            elif m := re.fullmatch(r"position in (?:the )?(.+)", prop, re.I):
                track = _unquote(m.group(1))
            elif m := re.fullmatch(r"per place in (?:the )?(.+)", prop, re.I):
                per_place, per_place_span = _unquote(m.group(1)), span
            else:
                self.bad_property(span, prop, ("per player", "on cards", "shared",
                                               "starts at N", "at least N", "at most N",
                                               "a player at N or less loses",
                                               "a player at N or more wins",
                                               "takes damage",
                                               "position in ZONE",
                                               "per place in ZONE"))
        self.add(self.rules.counters, name,
                 CounterDecl(name, scope, start, minimum, maximum, line.span, loses_at,
                             takes_damage, track,
                             per_player=on_cards and per_player, per_place=per_place,
                             per_place_span=per_place_span, wins_at=wins_at), line)

    def decl_value(self, line: OutlineLine, n: int) -> None:
        """ "value Bid: per player, secret": a number the game keeps (per
        player, or shared), never narrated when set; a secret one is hidden
        from the other players until its player reveals it."""
        name = self.name_after(line, n)
        if not name:
            return
        scope, start, secret = "player", 0, False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p == "per player":
                scope = "player"
            elif p in ("shared", "per game"):
                scope = "game"
            elif p == "secret":
                secret = True
            elif m := re.fullmatch(r"starts at ([+-]?\d+)", p):
                start = int(m.group(1))
            else:
                self.bad_property(span, prop, ("per player", "shared", "starts at N", "secret"))
        self.add(self.rules.counters, name,
                 CounterDecl(name, scope, start, None, None, line.span, value=True,
                             secret=secret), line)

    def decl_zone(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, visibility, ordered, slots = "player", "public", False, None
        roles: list[str] = []
        paired_with = paired_status = None
        entry_event, empty_loses, none_loses = None, False, False
        slot_chosen = keeps_cards = shuffled_after = False
        tokens_cease: list[str] = []
        capacity = overflow = None
        for prop, span in self.properties(line):
            p = prop.lower()
            if m := re.fullmatch(r"at most (\d+) cards?", p):
                capacity = int(m.group(1))
            elif m := re.fullmatch(r"a card put into it when it is full goes to "
                                   r"(?:its owner's |the )?(.+)", prop, re.I):
                overflow = (_unquote(m.group(1)), span)
            elif p in ("a token entering it ceases to exist", "a token leaving it ceases to exist"):
                tokens_cease.append(p.split()[2])
            elif p == "a card entering it takes the slot its player chooses":
                slot_chosen = span
            elif p == "cards never leave it":
                keeps_cards = True
            elif p == "shuffled after an effect takes cards from it":
                shuffled_after = True
            elif m := re.fullmatch(r"a card entering it (?:is |are )?(.+)", prop, re.I):
                entry_event = _unquote(m.group(1).strip()).lower()
            elif p == "a player who needs a card from it when it is empty loses":
                empty_loses = True
            elif p == "a player with no cards in it loses":
                none_loses = True
            elif p == "per player":
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
            elif m := re.fullmatch(r"paired with (.+)", prop, re.I):
                paired_with = _unquote(m.group(1))
            elif m := re.fullmatch(r"paired cards are (.+)", prop, re.I):
                paired_status = _unquote(m.group(1))
            else:
                self.bad_property(span, prop, ("per player", "shared", "hidden",
                                               "private", "public", "ordered",
                                               "N slots", "face down", *ZONE_ROLES,
                                               "a card entering it is EVENT",
                                               "a card entering it takes the slot its "
                                               "player chooses", "cards never leave it",
                                               "shuffled after an effect takes cards from it",
                                               "a player who needs a card from it when "
                                               "it is empty loses",
                                               "a player with no cards in it loses",
                                               "a token entering it ceases to exist",
                                               "a token leaving it ceases to exist",
                                               "at most N cards",
                                               "a card put into it when it is full goes "
                                               "to its owner's ZONE"))
        if slot_chosen and slots is None:
            self.problem(slot_chosen, "E541", f'zone "{name}" has no slots to choose from',
                         ("N slots, a card entering it takes the slot its player chooses",))
        self.add(self.rules.zones, name,
                 ZoneDecl(name, scope, visibility, ordered, slots, line.span,
                          tuple(roles), paired_with, paired_status, entry_event,
                          empty_loses, none_loses, bool(slot_chosen),
                          keeps_cards, shuffled_after, tuple(tokens_cease), capacity,
                          overflow[0] if overflow else None), line)
        if overflow and capacity is None:
            self.problem(overflow[1], "E541", f'zone "{name}" is never full (say "at most N '
                         'cards" first)', ("at most N cards",))
        if overflow:
            # (checked once every zone is declared)
            self._overflow_zones = getattr(self, "_overflow_zones", []) + [
                (overflow[0], overflow[1], name)]

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
        lethal = False
        adjective = True
        if m := re.fullmatch(r"(.+?),\s*never an adjective", text, re.I):
            text, adjective = m.group(1), False
        adds_to_host = None
        if m := re.fullmatch(r"(.+?),\s*a card with damage at least its (.+) is destroyed",
                             text, re.I):
            text, lethal = m.group(1), True
        elif m := re.fullmatch(r"(.+?),\s*added to the (.+) of the card it is attached to",
                               text, re.I):
            text, adds_to_host = m.group(1), _unquote(m.group(2))
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
        if adds_to_host is not None and kind != "number":
            self.problem(span, "E508", "only a number is added to the stat of another card",
                         ("number, added to the STAT of the card it is attached to",))
            adds_to_host = None
        self.add(self.rules.stats, name, StatDecl(name, kind, values, line.span, lethal,
                                                  adds_to_host, adjective), line)

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
        text_event = after_use = waits_while = when_used = None
        works_face_down = False
        used_from: tuple[str, ...] = ()
        used_from_unless: tuple[str, ...] = ()
        never_leaves_play = False
        once_used: tuple[str, ...] = ()
        once_used_after: tuple[str, ...] = ()
        once_used_from: list = []
        for child in line.children:
            key = child.key.lower()
            if key == "used from":
                places = [_unquote(v) for v, _ in self.names_list(child)]
                # "used from: hand, ZONE, unless VALUE": the last names after
                # "unless" are stat values whose cards are not used from there
                for index, place in enumerate(places):
                    m = re.fullmatch(r"unless (.+)", place, re.I)
                    if m:
                        used_from_unless = (_unquote(m.group(1)),) + tuple(places[index + 1:])
                        places = places[:index]
                        break
                used_from = tuple(places)
                continue
            if key == "once used":
                once_used, once_used_after = self.once_used_steps(child)
                continue
            if m := re.fullmatch(r"once used from (.+)", child.key, re.I):
                zone = _unquote(m.group(1).strip())
                self._kind_zones = getattr(self, "_kind_zones", [])
                self._kind_zones.append((zone, child.head[-1].span, name))
                once_used_from.append((zone,) + self.once_used_steps(child))
                continue
            if key == "when used" and child.value:
                when_used = Sentence(child.value, child.value_span)
                continue
            if key == "leaves play":
                value = (child.value or "").strip().rstrip(".").lower()
                if value != "never":
                    self.problem(child.value_span or child.span, "E521",
                                 f'unknown setting "{value}" for leaves play', ("never",))
                never_leaves_play = value == "never"
                continue
            if key == "text happens":
                m = re.fullmatch(r"when this is (.+?)\.?", (child.value or "").strip(), re.I)
                if not m:
                    self.problem(child.value_span or child.span, "E524",
                                 "unreadable text happens", ("when this is EVENT",))
                else:
                    text_event = m.group(1).lower()
                continue
            if key == "after use":
                after_use = _unquote((child.value or "").strip().rstrip("."))
                continue
            if key == "waits while":
                waits_while = _unquote((child.value or "").strip().rstrip("."))
                continue
            if key == "face down":
                works_face_down = (child.value or "").strip().rstrip(".").lower() == "works"
                continue
            if key not in fields:
                self.unknown_field(child, (*fields, "text happens", "after use",
                                           "waits while", "face down", "when used",
                                           "used from", "once used", "once used from ZONE",
                                           "leaves play"))
                continue
            fields[key] = self.names_list(child)
        box_status = []
        for index, (box, span) in enumerate(fields["boxes"]):
            if m := re.fullmatch(r"(.+?) while (.+)", box, re.I):
                box_status.append((_unquote(m.group(1)), _unquote(m.group(2))))
                fields["boxes"][index] = (_unquote(m.group(1)), span)
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
            box_status=tuple(box_status), text_event=text_event, after_use=after_use,
            works_face_down=works_face_down, waits_while=waits_while,
        )
        if when_used is not None:
            kind = attrs.evolve(kind, when_used=when_used)
        if never_leaves_play:
            kind = attrs.evolve(kind, never_leaves_play=True)
        if used_from or once_used or once_used_after or once_used_from:
            kind = attrs.evolve(kind, used_from=used_from, used_from_unless=used_from_unless,
                                once_used=once_used, once_used_after=once_used_after,
                                once_used_from=tuple(once_used_from))
        self.add(self.rules.kinds, name, kind, line)
        self._kind_timing_spans = getattr(self, "_kind_timing_spans", [])
        self._kind_timing_spans.extend(fields["timings"])

    ONCE_USED_STEPS = ("revealed", "turned face up", "discarded", "face down")

    def once_used_steps(self, child: OutlineLine) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """ "revealed, then discarded" / "turned face up, then discarded after
        it resolves": (steps at once, steps after the effect has resolved)."""
        value = (child.value or "").strip().rstrip(".")
        now: list[str] = []
        after: list[str] = []
        for item in re.split(r",\s*then\s+|\s+then\s+|,\s*", value):
            step = item.strip().lower()
            later = step.endswith(" after it resolves")
            if later:
                step = step[:-len(" after it resolves")].strip()
            if step == "turned face down":
                step = "face down"
            if step not in self.ONCE_USED_STEPS:
                self.problem(self.span_of_text(child, item.strip()), "E521",
                             f'unknown setting "{item.strip()}" for once used',
                             self.ONCE_USED_STEPS + ("STEP after it resolves",),
                             did_you_mean(step, self.ONCE_USED_STEPS))
                continue
            (after if later or after else now).append(step)
        return tuple(now), tuple(after)

    def decl_timing(self, line: OutlineLine, n: int) -> None:
        label = self.name_after(line, n)
        if not label:
            return
        use, optional, response, immediate, answered = None, True, False, False, False
        once_per = from_zone = during = None
        any_time = False
        asks = False
        for prop, span in self.properties(line):
            p = prop.lower()
            if p in ("activated", "triggered", "continuous", "requirement"):
                use = p
            elif p == "at any time":
                any_time = True
            elif p == "response":
                response = True
            elif p == "immediate":
                immediate = True
            elif p == "answered in kind":
                answered = True
            elif p == "optional":
                optional = asks = True
            elif p == "mandatory":
                optional = False
            elif m := re.fullmatch(r"once per (.+)", prop, re.I):
                once_per = _unquote(m.group(1))
            elif m := re.fullmatch(r"from (.+)", prop, re.I):
                from_zone = _unquote(m.group(1))
            elif m := re.fullmatch(r"during (.+)", prop, re.I):
                during = _unquote(m.group(1))
            else:
                self.bad_property(span, prop, ("activated", "triggered",
                                               "continuous", "optional", "mandatory",
                                               "response", "immediate",
                                               "during PERIOD", "requirement",
                                               "at any time", "answered in kind"))
        if use is None:
            self.problem(line.span, "E511", f'timing {label} needs a use',
                         ("activated", "triggered", "continuous"))
            use = "activated"
        meaning = None
        when = unless = used_as = None
        for child in line.children:
            if child.key.lower() == "meaning":
                meaning = child.value
            elif child.key.lower() == "when" and child.value:
                when = Sentence(child.value, child.value_span)
            elif child.key.lower() == "unless" and child.value:
                unless = Sentence(child.value, child.value_span)
            elif child.key.lower() == "used as":
                m = re.fullmatch(r"(.+?),?\s+if\s+(.+?)\.?", (child.value or "").strip(), re.I)
                if not m:
                    self.problem(child.value_span or child.span, "E514",
                                 f'unreadable used as "{(child.value or "").strip()}"',
                                 ('"LABEL" if CONDITION',))
                    continue
                as_label = _unquote(m.group(1).strip())
                self._used_as = getattr(self, "_used_as", [])
                self._used_as.append((as_label, self.span_of_text(child, m.group(1).strip())))
                used_as = (as_label, Sentence("If " + m.group(2) + ".",
                                              self.span_of_text(child, m.group(2))))
            else:
                self.unknown_field(child, ("meaning", "when", "unless", "used as"))
        self.add(self.rules.timings, label,
                 TimingDecl(label, use, optional, meaning, line.span, response, immediate,
                            once_per, from_zone, when, unless, during, any_time, asks,
                            answered=answered, used_as=used_as),
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
            if len(value) < 2 or not value.endswith(('"', "\u201d")):
                self.problem(line.value_span or line.span, "E103",
                             "unclosed quote: a description must end with a closing quote",
                             ('"',))
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
        for child in line.children:
            if child.key.lower() == "counts as" and child.value:
                decl = attrs.evolve(decl, event=child.value.strip().rstrip(".").lower())
            else:
                self.unknown_field(child, ("counts as",))
        self.rules.verbs.append(decl)

    def decl_noun(self, line: OutlineLine, n: int) -> None:
        """ "noun character: a Minion or a Hero" (the kinds are checked once
        all are declared: see the reader's finish)."""
        name = self.name_after(line, n)
        if not name:
            return
        kinds = tuple(re.sub(r"^(?:an?|one)\s+", "", piece.strip(), flags=re.I)
                      for piece in re.split(r",|\bor\b", line.value or "") if piece.strip())
        if not kinds:
            self.problem(line.span, "E546", f'noun "{name}" names no card kinds',
                         (f"noun {name}: a KIND or a KIND",))
            return
        self.add(self.rules.nouns, name, NounDecl(name, plural(name), kinds,
                                                  line.value_span or line.span), line)

    def decl_adjective(self, line: OutlineLine, n: int) -> None:
        """ "adjective enemy: that your opponent controls" (read with the
        card grammar once the vocabulary is complete)."""
        name = self.name_after(line, n)
        if not name:
            return
        text = (line.value or "").strip().rstrip(".")
        if not text:
            self.problem(line.span, "E546", f'adjective "{name}" has no meaning',
                         (f"adjective {name}: that you control",))
            return
        self.add(self.rules.adjectives, name,
                 AdjectiveDecl(name, text, self.span_of_text(line, text)), line)

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
        swaps_with: list[str] = []
        fields = ("size", "kinds", "copies", "count", "total STAT", "banned",
                  "limited", "optional", "starts in", "swaps with", "matching",
                  "counted with")
        matching = None
        counted_with: list[str] = []
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
            elif key == "swaps with":
                swaps_with.extend(v for v, _ in self.names_list(child))
            elif key == "counted with":
                for other, ospan in self.names_list(child):
                    counted_with.append(other)
                    self._counted_with = getattr(self, "_counted_with", [])
                    self._counted_with.append((name, other, ospan))
            elif key == "matching":
                m = re.fullmatch(r"(.+?) part, by name or (.+)", value, re.I)
                if not m:
                    self.problem(span, "E514", f'unreadable matching "{value}"',
                                 ("PART part, by name or STAT",))
                else:
                    matching = (_unquote(m.group(1)), _unquote(m.group(2)))
            else:
                self.unknown_field(child, fields)
        self.add(self.rules.deck_parts, name, DeckPartDecl(
            name, size_min, size_max, tuple(kinds), tuple(copies), tuple(counts),
            tuple(totals), tuple(banned), tuple(limited), optional, line.span,
            starts_in, starts_span, tuple(swaps_with), matching, tuple(counted_with)), line)

    def decl_wildcard(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if name:
            self.rules.wildcards[name] = tuple(v for v, _ in self.names_list(line))
