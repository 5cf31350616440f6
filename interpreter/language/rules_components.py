"""Reading a rules file: the game's components.

The declarations of what a game is made of: counters, zones, value sets,
stats, card kinds, nouns and adjectives, timing labels, keywords, verbs, events, statuses,
periods, naming conventions (unique mark, title separator), wildcards and
deck parts. Each becomes its record of ``interpreter.language.game_rules``.
"""

from __future__ import annotations

import attrs

from interpreter.errors import did_you_mean
from interpreter.language.game_rules import (
    ZONE_ROLES, AdjectiveDecl, CopyLimit, CountRule, CounterDecl, DeckPartDecl, EventDecl,
    KindDecl, NounDecl, PatternDecl, Sentence, StatDecl, TimingDecl, TotalRule, ZoneDecl,
    _lookup)
from interpreter.language.rules_reading import RulesReaderBase, _unquote
from interpreter.language.rules_values import Name, Setting
from interpreter.language.syntax import OutlineLine
from interpreter.language.vocabulary import BASE_PARTICIPLES, Pattern, plural
from interpreter.source import Span

# another name for a move of a card: "is put into a graveyard from the battlefield"
_MOVES = ("is put into ", "is sent to ", "is moved to ")


class ComponentDeclarations(RulesReaderBase):
    """Counters, zones, values, stats, kinds, timings, keywords, verbs,
    events, statuses, periods, naming conventions, wildcards, deck parts."""

    COUNTER_FORMS = ("per player", "on cards", "shared", "starts at N", "at least N",
                     "at most N", "a player at N or less loses", "a player at N or more wins",
                     "takes damage", "position in ZONE", "per place in ZONE", "held in NAME")

    def decl_counter(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, start, minimum, maximum, loses_at = "player", None, None, None, None
        wins_at = None
        takes_damage = False
        track = per_place = per_place_span = held_in = None
        on_cards = per_player = False
        found = self.read(line, "counter_properties", forms=self.COUNTER_FORMS, several=True)
        for prop in found.args if found else ():
            form = prop.form
            if form == "per_player":
                per_player = True
                scope = "card" if on_cards else "player"
            elif form == "on_cards":
                on_cards = True
                scope = "card"
            elif form == "shared":
                scope = "game"
            elif form == "starts_at":
                start = prop.number()
            elif form == "at_least":
                minimum = prop.number()
            elif form == "at_most":
                maximum = prop.number()
            elif form == "loses_at":
                loses_at = prop.number()
            elif form == "wins_at":
                wins_at = prop.number()
            elif form == "takes_damage":
                takes_damage = True
            elif form == "position_in":
                track = prop.name().text
            elif form == "per_place_in":
                per_place, per_place_span = prop.name().text, prop.span
            elif form == "held_in":
                held_in = prop.name().text
        self.add(self.rules.counters, name,
                 CounterDecl(name, scope, start, minimum, maximum, line.span, loses_at,
                             takes_damage, track,
                             per_player=on_cards and per_player, per_place=per_place,
                             per_place_span=per_place_span, wins_at=wins_at,
                             held_in=held_in), line)

    def decl_value(self, line: OutlineLine, n: int) -> None:
        """ "value Bid: per player, secret": a number the game keeps (per
        player, or shared), never narrated when set; a secret one is hidden
        from the other players until its player reveals it."""
        name = self.name_after(line, n)
        if not name:
            return
        scope, start, secret = "player", 0, False
        found = self.read(line, "value_properties",
                          forms=("per player", "shared", "starts at N", "secret"), several=True)
        for prop in found.args if found else ():
            if prop.form == "per_player":
                scope = "player"
            elif prop.form == "shared":
                scope = "game"
            elif prop.form == "secret":
                secret = True
            elif prop.form == "starts_at":
                start = prop.number()
        self.add(self.rules.counters, name,
                 CounterDecl(name, scope, start, None, None, line.span, value=True,
                             secret=secret), line)

    ZONE_FORMS = ("per player", "shared", "hidden", "private", "public", "ordered",
                  "N slots", "face down", *ZONE_ROLES, "a card entering it is EVENT",
                  "a card entering it takes the slot its player chooses",
                  "cards never leave it", "shuffled after an effect takes cards from it",
                  "a player who needs a card from it when it is empty loses",
                  "a player with no cards in it loses", "a token entering it ceases to exist",
                  "a token leaving it ceases to exist", "at most N cards",
                  "a card put into it when it is full goes to its owner's ZONE",
                  "holds the cards at places")

    def decl_zone(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        scope, visibility, ordered, slots = "player", "public", False, None
        roles: list[str] = []
        paired_with = paired_status = None
        entry_event, empty_loses, none_loses = None, False, False
        slot_chosen = keeps_cards = shuffled_after = holds_placed = False
        tokens_cease: list[str] = []
        capacity = overflow = None
        found = self.read(line, "zone_properties", forms=self.ZONE_FORMS, several=True)
        for prop in found.args if found else ():
            form = prop.form
            if form == "capacity":
                capacity = prop.number()
            elif form == "overflow":
                overflow = (prop.name().text, prop.span)
            elif form == "token_ceases":
                tokens_cease.append(prop.find("token_way").words)
            elif form == "slot_chosen":
                slot_chosen = prop.span
            elif form == "keeps_cards":
                keeps_cards = True
            elif form == "shuffled_after":
                shuffled_after = True
            elif form == "entry_event":
                entry_event = prop.name().text.lower()
            elif form == "empty_loses":
                empty_loses = True
            elif form == "none_loses":
                none_loses = True
            elif form == "per_player":
                scope = "player"
            elif form == "shared":
                scope = "shared"
            elif form == "visibility":
                visibility = prop.words
            elif form in ("ordered", "unordered"):
                ordered = form == "ordered"
            elif form == "slots":
                slots = prop.number()
            elif form == "face":
                pass  # how cards enter the zone is said by the step that moves them
            elif form == "zone_role":
                roles.append(prop.words)
            elif form == "paired_with":
                paired_with = prop.name().text
            elif form == "paired_status":
                paired_status = prop.name().text
            elif form == "holds_placed":
                holds_placed = True
        if slot_chosen and slots is None:
            self.problem(slot_chosen, "E541", f'zone "{name}" has no slots to choose from',
                         ("N slots, a card entering it takes the slot its player chooses",))
        self.add(self.rules.zones, name,
                 ZoneDecl(name, scope, visibility, ordered, slots, line.span,
                          tuple(roles), paired_with, paired_status, entry_event,
                          empty_loses, none_loses, bool(slot_chosen),
                          keeps_cards, shuffled_after, tuple(tokens_cease), capacity,
                          overflow[0] if overflow else None, holds_placed), line)
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

    STAT_FORMS = ("number", "one of VALUES", "list of VALUES", "exchange of VALUES",
                  "card names", "text", "effect")

    def decl_stat(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        span = line.value_span or line.span
        found = self.read(line, "stat_type", "type of stat", self.STAT_FORMS, code="E508")
        if found is None:
            return
        lethal, adjective, adds_to_host = False, True, None
        kind_form, *more = found.args
        values: tuple[str, ...] = ()
        kind = kind_form.form
        for setting in more:
            if setting.form == "never_an_adjective":
                adjective = False
            elif setting.form == "lethal":
                lethal = True
            elif setting.form == "adds_to_host":
                adds_to_host = setting.name().text
            elif setting.form == "written_after":
                # checked once every stat is declared (see finish)
                self.rules.stat_pair = (setting.name().text, name)
                self._pair_span = setting.span
        if kind in ("one", "list", "exchange"):
            listed = [kind_form.name()] + [m.name() for m in more if m.form == "more_value"]
            values = self.values_of([v.text for v in listed], span)
        elif any(m.form == "more_value" for m in more):
            extra = next(m for m in more if m.form == "more_value")
            self.problem(extra.name().span, "E508", f'a {kind} stat lists no values',
                         self.STAT_FORMS)
            return
        if adds_to_host is not None and kind != "number":
            self.problem(span, "E508", "only a number is added to the stat of another card",
                         ("number, added to the STAT of the card it is attached to",))
            adds_to_host = None
        self.add(self.rules.stats, name, StatDecl(name, kind, values, line.span, lethal,
                                                  adds_to_host, adjective), line)

    def values_of(self, values: list[str], span: Span) -> tuple[str, ...]:
        """ "one of color": a declared value set; "one of A, B, C": these."""
        if len(values) == 1:
            found = _lookup(self.rules.value_sets, values[0])
            if found is None:
                self.problem(span, "E509", f'unknown value set "{values[0]}"',
                             ("a value set declared with values, or A, B, C",),
                             did_you_mean(values[0], self.rules.value_sets))
                return tuple(values)
            return found
        return tuple(values)

    def decl_kind(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        fields = {"stats": [], "optional": [], "timings": [], "boxes": [],
                  "faces": [], "plural": []}
        text_event = after_use = waits_while = when_used = None
        works_face_down = after_use_quietly = False
        used_from: tuple[str, ...] = ()
        used_from_unless: tuple[str, ...] = ()
        never_leaves_play = False
        once_used: tuple[str, ...] = ()
        once_used_after: tuple[str, ...] = ()
        once_used_from: list = []
        box_status: list[tuple[str, str]] = []
        kind_fields = (*fields, "text happens", "after use", "waits while", "face down",
                       "when used", "used from", "once used", "once used from ZONE",
                       "use counts as", "leaves play")
        use_event = None
        for child in line.children:
            key = child.key.lower()
            if key == "used from":
                # "used from: hand, ZONE, unless VALUE": the names from the
                # first "unless" on are stat values whose cards are not used
                # from there
                found = self.read(child, "used_from", "place")
                if found is not None:
                    names = [a if isinstance(a, Name) else a.name() for a in found.args]
                    first = next((i for i, a in enumerate(found.args)
                                  if isinstance(a, Setting) and a.form == "unless_value"),
                                 len(names))
                    used_from = tuple(n.text for n in names[:first])
                    used_from_unless = tuple(n.text for n in names[first:])
                continue
            if key == "once used":
                once_used, once_used_after = self.once_used_steps(child)
                continue
            if key.startswith("once used from"):
                found = self.read(child, "once_used_from_key", "field", key=True)
                if found is None:
                    continue
                zone = found.name()
                self._kind_zones = getattr(self, "_kind_zones", [])
                self._kind_zones.append((zone.text, zone.span, name))
                once_used_from.append((zone.text,) + self.once_used_steps(child))
                continue
            if key == "use counts as" and child.value:
                use_event = child.value.strip().rstrip(".").lower()
                continue
            if key == "when used" and child.value:
                when_used = Sentence(child.value, child.value_span)
                continue
            if key == "leaves play":
                never_leaves_play = self.setting(child, ("never",)) == "never"
                continue
            if key == "face down":
                works_face_down = self.setting(child, ("works",)) == "works"
                continue
            if key == "text happens":
                found = self.read(child, "text_happens", "text happens",
                                  ("when this is EVENT",), code="E524", unknown="unreadable")
                if found is not None:
                    text_event = found.name().text.lower()
                continue
            if key == "after use":
                found = self.read(child, "after_use", "after use",
                                  ("ZONE", "ZONE, without triggering abilities"), code="E524")
                if found is not None:
                    after_use = found.name().text
                    after_use_quietly = found.find("quietly") is not None
                    # (checked once every zone is declared: rules_file)
                    self._kind_zones = getattr(self, "_kind_zones", [])
                    self._kind_zones.append((after_use, found.name().span, name))
                continue
            if key == "waits while":
                waits_while = next((n for n, _ in self.names_list(child)), None)
                continue
            if key == "boxes":
                found = self.read(child, "boxes", "box", several=True)
                for box in found.args if found else ():
                    box_name, *status = box.names()
                    fields["boxes"].append((box_name.text, box_name.span))
                    if status:
                        box_status.append((box_name.text, status[0].text))
                continue
            if key not in fields:
                self.unknown_field(child, kind_fields)
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
            box_status=tuple(box_status), text_event=text_event, after_use=after_use,
            after_use_quietly=after_use_quietly,
            works_face_down=works_face_down, waits_while=waits_while, use_event=use_event,
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
        now: list[str] = []
        after: list[str] = []
        if not (child.value or "").strip():
            return (), ()
        found = self.read(child, "once_used", "setting {} for once used",
                          self.ONCE_USED_STEPS + ("STEP after it resolves",), code="E521",
                          several=True, suggest=self.ONCE_USED_STEPS)
        for step in found.args if found else ():
            action = step.find("once_action").words
            action = "face down" if action == "turned face down" else action
            later = step.find("after_it_resolves") is not None
            (after if later or after else now).append(action)
        return tuple(now), tuple(after)

    TIMING_FORMS = ("activated", "triggered", "continuous", "optional", "mandatory",
                    "response", "immediate", "during PERIOD", "requirement", "at any time",
                    "answered in kind", "when you have priority")

    def decl_timing(self, line: OutlineLine, n: int) -> None:
        label = self.name_after(line, n)
        if not label:
            return
        use, optional, response, immediate, answered = None, True, False, False, False
        once_per = from_zone = during = None
        any_time = with_priority = False
        asks = False
        found = self.read(line, "timing_properties", forms=self.TIMING_FORMS, several=True)
        for prop in found.args if found else ():
            form = prop.form
            if form == "timing_use":
                use = prop.words
            elif form == "any_time":
                any_time = True
            elif form == "response":
                response = True
            elif form == "with_priority":
                with_priority = True
            elif form == "immediate":
                immediate = True
            elif form == "answered_in_kind":
                answered = True
            elif form == "optional":
                optional = asks = True
            elif form == "mandatory":
                optional = False
            elif form == "once_per":
                once_per = prop.name().text
            elif form == "from_zone":
                from_zone = prop.name().text
            elif form == "during":
                during = prop.name().text
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
                found = self.read(child, "used_as", "used as", ('"LABEL" if CONDITION',),
                                  code="E514", unknown="unreadable")
                if found is None:
                    continue
                as_label, condition = found.names()
                self._used_as = getattr(self, "_used_as", [])
                self._used_as.append((as_label.text, as_label.span))
                used_as = (as_label.text, Sentence(condition.text, condition.span))
            else:
                self.unknown_field(child, ("meaning", "when", "unless", "used as"))
        self.add(self.rules.timings, label,
                 TimingDecl(label, use, optional, meaning, line.span, response, immediate,
                            once_per, from_zone, when, unless, during, any_time, asks,
                            answered=answered, used_as=used_as,
                            with_priority=with_priority),
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
        """A keyword; its lines: "also: ABILITY" (one more ability of its
        definition), "instances: add up" (what two of it on one card do:
        their numbers add up, as every change does)."""
        decl = self.pattern_decl(line, n)
        if not decl:
            return
        more = []
        for child in line.children:
            key = child.key.lower()
            if key == "also" and child.value:
                if decl.definition is None:
                    self.problem(child.span, "E513", f'keyword "{decl.pattern.text}" has a '
                                 "description: an \"also:\" ability needs a definition in "
                                 "the card language after the colon")
                    continue
                more.append((child.value, child.value_span))
            elif key == "instances":
                if (child.value or "").strip().lower() != "add up":
                    self.problem(child.value_span or child.span, "E505",
                                 f'unknown property "{child.value}"', ("add up",))
            else:
                self.unknown_field(child, ("also", "instances"))
        if more:
            decl = attrs.evolve(decl, more=tuple(more))
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
        if not (line.value or "").strip():
            self.problem(line.span, "E546", f'noun "{name}" names no card kinds',
                         (f"noun {name}: a KIND or a KIND",))
            return
        found = self.read(line, "noun_kinds", "card kinds", ("a KIND or a KIND",),
                          code="E546", unknown="unreadable")
        if found is None:
            return
        kinds = tuple(kind.name().text for kind in found.args)
        self.add(self.rules.nouns, name, NounDecl(name, plural(name), kinds,
                                                  line.value_span or line.span,
                                                  (line.value or "").strip()), line)

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
        """ "event "advances": "DESCRIPTION"": an event of the game's own
        (an ability's action or a verb "counts as" it); "event "is knocked
        out": another name for "is destroyed"": the game's word for an event
        of the language, which reads as it."""
        phrase = self.name_after(line, n)
        if not phrase:
            return
        value = (line.value or "").strip()
        if not value.lower().startswith("another "):
            self.rules.events.append(EventDecl(phrase, _unquote(value) or None, line.span))
            return
        found = self.read(line, "another_name", "event", ('another name for "is destroyed"',),
                          code="E546", unknown="unreadable")
        if found is None:
            return
        target = found.args[0]
        core = "_".join(target.text[3:].lower().split()) \
            if target.text.lower().startswith("is ") else ""
        word = (phrase[3:] if phrase.lower().startswith("is ") else phrase).strip().lower()
        if core in BASE_PARTICIPLES:
            self.rules.event_names[word] = core
        elif target.text.lower().startswith(_MOVES):
            # "is put into a graveyard from the battlefield": a move, read
            # as card text when the game is compiled (CompiledGame.event_aliases)
            self.rules.event_phrases[word] = (target.text, target.span)
        else:
            events = [f'is {p.replace("_", " ")}' for p in sorted(BASE_PARTICIPLES)]
            self.problem(target.span, "E546", f'event "{phrase}" is another name for '
                         f'"{target.text}", which is no event of the language',
                         (", ".join(f'"{e}"' for e in events),
                          '"is put into ZONE" or "is put into ZONE from ZONE"'),
                         did_you_mean(target.text, events))
            return
        self.rules.events.append(EventDecl(phrase, f'another name for "{target.text}"',
                                           line.span))

    def decl_statuses(self, line: OutlineLine, n: int) -> None:
        """ "statuses: exhausted, a guardian": a status written with "a" or
        "an" is a noun (its article is kept for the log); the status is
        the word after it."""
        for value, _span in self.names_list(line):
            article, _, noun = value.partition(" ")
            if article.lower() in ("a", "an") and noun:
                self.rules.status_articles[noun] = article.lower()
                value = noun
            self.rules.statuses.append(value)

    def decl_relations(self, line: OutlineLine, n: int) -> None:
        """ "relations: blocking": statuses a card holds toward another card
        ("It is blocking the defending Creature", "Creatures blocking it")."""
        self.rules.relations.extend(v for v, _ in self.names_list(line))

    def decl_status(self, line: OutlineLine, n: int) -> None:
        """ "status ready: the opposite of exhausted": a status no card keeps,
        which a card has while it has none of the others; becoming ready
        removes them. "status paralysed: given by "Paralyse {card}"": card
        text that gives the status does the verb (checked in finish)."""
        name = self.name_after(line, n)
        if not name:
            return
        found = self.read(line, "status_property", "status",
                          ("the opposite of STATUS", 'given by "VERB {card}"'),
                          code="E546", unknown="unreadable")
        if found is None:
            return
        if found.form == "given_by":
            if name.lower() not in (s.lower() for s in self.rules.statuses):
                self.rules.statuses.append(name)
            self.rules.status_givers[name.lower()] = found.args[0].text
            self._giver_spans = getattr(self, "_giver_spans", {})
            self._giver_spans[name.lower()] = found.args[0].span
            return
        opposites = tuple(status.text for status in (found.find("names") or found).names())
        self.rules.statuses.append(name)
        self.rules.opposites[name] = opposites
        # checked once every status is declared (see finish)
        self._opposite_spans = getattr(self, "_opposite_spans", {})
        self._opposite_spans[name] = line.value_span or line.span

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
            span = child.value_span or child.span
            if key == "size":
                found = self.read(child, "size", "size", ("N", "N to M", "at most N",
                                                          "at least N"),
                                  code="E514", unknown="unreadable")
                if found is not None:
                    low, high = found.number(), found.number(-1)
                    size_min = None if found.form == "size_at_most" else low
                    size_max = None if found.form == "size_at_least" else high
            elif key == "kinds":
                for kind, kspan in self.names_list(child):
                    if self.rules.kind(kind) is None:
                        self.unknown_kind(kind, kspan)
                    kinds.append(kind)
            elif key == "copies":
                found = self.read(child, "copies", "copy limit",
                                  ("at most N per name", "at most N per title",
                                   "at most N per name, colors and tag of KIND"),
                                  code="E514", unknown="unreadable")
                if found is None:
                    continue
                keys = tuple(k.name().text for k in found.args
                             if isinstance(k, Setting) and k.form == "copy_key")
                for k in keys:
                    if k.lower() not in ("name", "title") and self.rules.stat(k) is None:
                        self.problem(span, "E510", f'unknown stat "{k}" in copy limit',
                                     ("name", "title", "a stat"),
                                     did_you_mean(k, list(self.rules.stats) + ["name", "title"]))
                of_kind = found.names()
                kind = of_kind[0].text if of_kind else None
                if kind and self.rules.kind(kind) is None:
                    self.unknown_kind(kind, span)
                copies.append(CopyLimit(found.number(), keys, kind, child.span))
            elif key == "count":
                found = self.read(child, "count", "count rule",
                                  ("exactly N KIND", "at most N with KEYWORD"),
                                  code="E514", unknown="unreadable")
                if found is None:
                    continue
                how, what = found.find("how_many").words, found.args[-1]
                kind = what.name().text if what.form == "of_kind" else None
                if kind and self.rules.kind(kind) is None:
                    self.unknown_kind(kind, what.name().span)
                counts.append(CountRule(how, found.number(), kind,
                                        what.name().text if what.form == "with_keyword"
                                        else None, child.span))
            elif key.startswith("total "):
                stat_name = self.read(child, "total_key", "field", key=True)
                found = self.read(child, "total", "total", ("at most N",), code="E514",
                                  unknown="unreadable")
                if stat_name is None:
                    continue
                stat = stat_name.name()
                if self.rules.stat(stat.text) is None:
                    self.problem(stat.span, "E510", f'unknown stat "{stat.text}"',
                                 ("a number stat",), did_you_mean(stat.text, self.rules.stats))
                if found is not None:
                    totals.append(TotalRule(stat.text, found.find("how_many").words,
                                            found.number(), child.span))
            elif key == "banned":
                banned.extend(v for v, _ in self.names_list(child))
            elif key == "limited":
                found = self.read(child, "limited", "limit", ('"Card Name" N',),
                                  code="E514", unknown="unreadable")
                if found is not None:
                    limited.append((found.name().text, found.number()))
            elif key == "optional":
                optional = self.setting(child, ("yes", "no", "true", "false")) in ("yes", "true")
            elif key == "starts in":
                found = self.read(child, "starts_in", "zone", ("ZONE", "ZONE, face up"),
                                  code="E514", unknown="unreadable")
                if found is not None:
                    face = found.find("face")
                    starts_in = (found.name().text, face is not None and face.words == "face up")
                    starts_span = found.name().span
            elif key == "swaps with":
                swaps_with.extend(v for v, _ in self.names_list(child))
            elif key == "counted with":
                for other, ospan in self.names_list(child):
                    counted_with.append(other)
                    self._counted_with = getattr(self, "_counted_with", [])
                    self._counted_with.append((name, other, ospan))
            elif key == "matching":
                found = self.read(child, "matching", "matching",
                                  ("PART part, by name or STAT",), code="E514",
                                  unknown="unreadable")
                if found is not None:
                    matching = (found.name(0).text, found.name(1).text)
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
