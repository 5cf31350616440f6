"""Reading cards and players: what the state means now.

Derived views of the plain state, never stored in it: the cards in play,
a card's definition, kind, faces and stats (printed, plus modifiers, plus
continuous abilities, plus attached cards), keywords, statuses and
values, the prohibitions in force ("can't"), and counts of players'
counters.
"""

from __future__ import annotations

from interpreter.compiler.compiled import RULES_ZONE
from interpreter.compiler.players import counter_on_card
from interpreter.engine.state import Frame


class Views:
    """A card's kind, stats, keywords, statuses, values and prohibitions now."""

    __slots__ = ()

    def in_play(self) -> list[int]:
        """The cards in the zones declared "in play" (kept until the next
        event: every change of zone is an event)."""
        state = self.state
        events = len(state.log)
        kept = self._in_play
        if kept is not None and kept[0] == events:
            return kept[1]
        zones = state.zones
        if kept is not None and kept[3] == len(zones):
            keys = kept[4]      # zones are only ever added: the same ones
        else:
            in_play = self.game.in_play
            keys = [key for key in zones if key[0] in in_play]
        out = []
        for key in keys:
            out.extend(zones[key])
        if kept is not None and kept[1] == out:
            # the same cards: what was worked out about them still holds
            self._in_play = (events, kept[1], kept[2], len(zones), keys)
            return kept[1]
        self._in_play = (events, out, {}, len(zones), keys)
        return out

    def in_play_of_kind(self, kind: str) -> list[int]:
        """The cards in play of a kind, in the order of ``in_play``: what a
        selector of that kind looks at ("a creature you control")."""
        return self._in_play_where(("kind", kind), lambda card: self.is_kind(card, kind))

    def in_play_with(self, abilities: str) -> list[int]:
        """The cards in play whose printed name has abilities of that sort in
        the compiled game ("activated", "cued"): the only ones the legal
        actions look at."""
        having = getattr(self.game, abilities)
        printed_name = self.printed_name
        return self._in_play_where(("with", abilities),
                                   lambda card: printed_name(card) in having)

    def _in_play_where(self, key: tuple, test) -> list[int]:
        """The cards in play that pass ``test`` (of the card's printed name:
        its kind, its abilities), worked out again only when the cards in
        play change (kept with ``in_play``) or the copies do (a copy is
        read as the copied card), not at every question."""
        cards = self.in_play()
        kept = self._in_play[2]
        copies = self._derived()[2] if self.game.copying else None
        found = kept.get(key)
        if found is None or found[0] != copies:
            found = kept[key] = (copies, [c for c in cards if test(c)])
        return found[1]

    def rule_cards(self) -> tuple[tuple[str, int], ...]:
        """(name, card) of each of the game's rules (``RULES_ZONE``)."""
        cards = self.state.cards
        return tuple((cards[c].name, c) for c in self.state.zones.get((RULES_ZONE, -1), ()))

    def ability_sources(self) -> list[int]:
        """The cards whose abilities work now: the cards in play, and the
        game's rules."""
        rules = self.state.zones.get((RULES_ZONE, -1))
        return self.in_play() + rules if rules else self.in_play()

    def abilities_in_force(self) -> list[tuple[int, str]]:
        """(card, name its abilities are compiled under) for every card whose
        abilities work now: the cards in play and the game's rules, under
        their own names; and each card in play an effect has given a keyword
        ("This has Flying"), under the keyword's, as if printed there
        (a card that prints the keyword has its abilities once). A keyword
        given by a keyword's own abilities is not followed further."""
        # kept while the log has this many events (every change of state is an
        # event); while the keywords given are worked out, the printed ones only
        events = len(self.state.log)
        seen_at, seen, made_from = self._in_force
        if seen_at == events and not self._granting:
            return seen
        granted = self.game.granted_keywords
        if not granted and not self._granting:
            # no effect of the game gives a keyword: the same cards in play
            # (the same list, kept by ``in_play``) and the same copies, the
            # same answer, however many events came between
            sources = (self.in_play(), self._derived()[2] if self.game.copying else None)
            if made_from and made_from[0] is sources[0] and made_from[1] is sources[1]:
                self._in_force = (events, seen, made_from)
                return seen
        else:
            sources = ()
        if self.game.copying:
            copies, names = self._derived()[2], self.state.cards
            found = [(card, copies.get(card) or names[card].name)
                     for card in self.ability_sources()]
        else:
            names = self.state.cards
            found = [(card, names[card].name) for card in self.ability_sources()]
        if self._granting:
            return found
        givers = self.game.keyword_givers
        if not granted or (not any(name in givers for _card, name in found) and not any(
                m.kind == "keyword" and m.name in granted for m in self.state.modifiers)):
            self._in_force = (events, found, sources)     # nothing in force gives a keyword now
            return found
        self._granting = True
        try:
            given = []
            for keyword, holder in granted.items():
                for card in self._given(keyword, found):
                    given.append((card, holder))
        finally:
            self._granting = False
        found += given
        self._in_force = (events, found, ())
        return found

    def _given(self, keyword: str, printed: list[tuple[int, str]]):
        """The cards in play an effect gives ``keyword`` (a modifier, or a
        continuous ability of a card in force) that do not print it. Asked of
        the abilities themselves, never of the answers being worked out, so
        that the answer is the same whatever question is open."""
        targets = {m.target for m in self.state.modifiers
                   if m.kind == "keyword" and m.name == keyword}
        givers = self.game.statics_by_change.get(("keyword", keyword), {})
        giving = []
        for source, name in printed:
            if name not in givers or self.is_nullified(source):
                continue
            probe = Frame("probe", 0, {"you": self.state.cards[source].controller,
                                       "this": source})
            tests = [static.test for static in givers[name]
                     if static.condition is None or static.condition(self, probe)]
            if tests:       # (a giver whose condition fails gives nothing: most often)
                giving.append((probe, tests))
        if not targets and not giving:
            return
        for card in self.in_play():
            if (card in targets or any(test(self, probe, card) for probe, tests in giving
                                       for test in tests)) and \
                    not self.prints_keyword(card, keyword):
                yield card

    def modifiers_on(self, card: int) -> list:
        """The modifiers whose target is ``card`` (a player is ``-1 - seat``),
        in order. Derived values ask this for every card they look at, so
        the modifiers are indexed by target once per version of the list
        (a new list replaces it at every change: it is never changed in place)."""
        modifiers = self.state.modifiers
        if self._modifier_index[0] is not modifiers:
            self._index_modifiers()
        return self._modifier_index[1].get(card, ())

    def _index_modifiers(self) -> None:
        """The derived layer of the modifiers, for this version of the list
        (every change replaces the list, so its identity is the version):
        the modifiers by target, the name each copied card is a copy of (the
        last copy made), the statuses modifiers give each card, and the
        prohibitions ("can't") in order."""
        index: dict = {}
        copies: dict = {}
        statuses: dict = {}
        cannots: list = []
        for modifier in self.state.modifiers:
            index.setdefault(modifier.target, []).append(modifier)
            if modifier.kind == "copy":
                copies[modifier.target] = modifier.name
            elif modifier.kind == "status":
                statuses.setdefault(modifier.target, set()).add(modifier.name)
            elif modifier.kind == "cannot":
                cannots.append(modifier)
        self._modifier_index = (self.state.modifiers, index, copies, statuses, cannots)

    def _derived(self) -> tuple:
        """The modifiers' derived layer (``_index_modifiers``), current."""
        derived = self._modifier_index
        if derived[0] is not self.state.modifiers:
            self._index_modifiers()
            derived = self._modifier_index
        return derived

    def printed_name(self, card: int) -> str:
        """The name a card's printed values are read under (its definition:
        stats, kind, text and the abilities compiled for it): its own; while
        it is a copy of another card ("This becomes a copy of ... until
        ..."), that card's, the last copy made. Only a game with such a text
        looks for one."""
        if self.game.copying:
            copied = self._derived()[2].get(card)
            if copied is not None:
                return copied
        return self.state.cards[card].name

    def definition(self, card: int):
        if self.game.copying:
            return self.game.cards[self.printed_name(card)]
        return self.game.cards[self.state.cards[card].name]

    def is_kind(self, card: int, kind: str) -> bool:
        game = self.game
        state = self.state
        if game.copying:
            derived = self._modifier_index     # (self._derived(), inline: asked most often)
            if derived[0] is not state.modifiers:
                derived = self._derived()
            name = derived[2].get(card) or state.cards[card].name
        else:
            name = state.cards[card].name
        known = game.kind_answers.get((name, kind))
        if known is None:
            known = self.game.kind_answers[(name, kind)] = self._is_kind(card, kind)
        return known

    def _is_kind(self, card: int, kind: str) -> bool:
        decl = self.rules.kind(kind)
        if decl is None:  # a plural
            for k in self.rules.kinds.values():
                if k.plural.lower() == kind.lower():
                    decl = k
        if decl is None and self.rules.nouns:
            # "a character": a noun for the cards of several kinds
            noun = self.rules.noun(kind)
            if noun is not None:
                return any(self._is_kind(card, k) for k in noun.kinds)
        return decl is not None and self.definition(card).kind == decl.name

    def face_of(self, card: int) -> str | None:
        """The face a double-sided card shows: its kind's first face when face
        up, its second when face down (None for one-sided cards)."""
        definition = self.definition(card)
        if not definition.faces:
            return None
        kind = self.rules.kind(definition.kind)
        faces = kind.faces if kind is not None and kind.faces else tuple(
            f for f, _ in definition.faces)
        up = self.state.cards[card].face_up
        return faces[0] if up or len(faces) < 2 else faces[1]

    def stat_value(self, card: int, name: str):
        """A stat as printed on the face the card shows (or on the card)."""
        definition = self.definition(card)
        face = self.face_of(card)
        if face is not None:
            value = definition.stat(name, face)
            if value is not None:
                return value
        return definition.stat(name)

    def is_damageable(self, card: int) -> bool:
        """Whether "any target" may be this card: it has a stat its damage
        is measured against ("a card with damage at least its toughness is
        destroyed"), where the game declares one (a Land has no toughness)."""
        lethal = self.game.lethal_stats
        return not lethal or any(self.printed_stat(card, stat) is not None for stat in lethal)

    def printed_stat(self, card: int, name: str) -> int | None:
        """The number the card (as printed now) has for that stat, or None."""
        value = self._printed_value(card, name)
        return value if isinstance(value, int) else None

    def _printed_value(self, card: int, name: str):
        """A stat's printed value (a number, a text, or None), by the name
        the card is printed as now (``CompiledGame.printed_stats``)."""
        game = self.game
        printed_as = self.printed_name(card) if game.copying else self.state.cards[card].name
        try:
            return game.printed_stats[(printed_as, name)]
        except KeyError:
            value = game.printed_stats[(printed_as, name)] = game.cards[printed_as].stat(name)
            return value

    def stat(self, card: int, name: str) -> int:
        """A card's stat now: printed, plus the modifiers in force, plus the
        continuous abilities of the cards in play, plus the stats of the
        cards attached to it that are "added to" this one."""
        value = self._printed_value(card, name)
        total = value if isinstance(value, int) else 0
        for modifier in self.modifiers_on(card):
            if modifier.kind == "stat" and modifier.name == name:
                total += modifier.amount
        for kind, amount in self.continuous(card, ("stat", name)):
            total += amount
        added = self.game.host_stats.get(name) if self.game.attaching else None
        if added:
            state = self.state
            # attached cards sit in their host's zone
            for other in state.zones.get(state.cards[card].zone, ()):
                if state.cards[other].attached_to == card:
                    for stat in added:
                        total += self.stat(other, stat)
        return total

    def damage_reduction(self, card: int) -> int:
        """How much less damage the card is dealt ("Damage that would be
        dealt to this is reduced by 1"), every such text added up."""
        total = sum(m.amount for m in self.modifiers_on(card)
                    if m.kind == "reduce" and m.name == "damage")
        return total + sum(amount for _kind, amount in self.continuous(card, ("reduce", "damage")))

    def continuous(self, card: int, wanted: tuple | None = None):
        """(kind, amount) of every continuous ability in play applying to
        ``card``; only those that can change ``wanted`` (kind, name) if given.

        A continuous ability whose own test asks the same question (a
        keyword granted to the cards that have it) is not counted while that
        question is being answered: no loop."""
        statics = self.game.statics
        if not statics or (wanted is not None and wanted not in self.game.statics_by_change):
            return ()       # (no continuous ability makes that change)
        asking = (card, wanted)
        if asking in self._asking:
            return ()
        if wanted is not None and not self.game.granted_keywords and \
                not self._sources_of(self.game.statics_by_change[wanted], wanted):
            return ()       # (no card in force now has an ability that makes it)
        events = len(self.state.log)
        seen_at, seen = self._continuous_seen
        if seen_at != events:
            seen = {}
            self._continuous_seen = (events, seen)
        elif asking in seen:
            return seen[asking]
        # Only a complete answer is kept: one computed while another question
        # is open may have left out the abilities that asked it.
        top_level = not self._asking
        found = list(self._continuous(card, wanted, asking))
        if top_level:
            seen[asking] = found
        return found

    def _continuous(self, card: int, wanted, asking):
        statics = self.game.statics
        state = self.state
        self._asking.add(asking)
        try:
            if wanted is not None:
                # only the cards with an ability that makes this change
                statics = self.game.statics_by_change.get(wanted)
                if not statics:
                    return
            for source, name in self._sources_of(statics, wanted):
                abilities = statics[name]
                if self.is_nullified(source):
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                # (with ``wanted``, ``statics`` holds only those that make it)
                for static in abilities:
                    if static.on_counter is not None and \
                            not state.cards[card].counter(static.on_counter):
                        continue        # "for each Growth on it", none on it
                    if static.condition is not None and not static.condition(self, probe):
                        continue
                    if static.test(self, probe, card):
                        if static.per is None:
                            times = 1
                        else:
                            probe.locals["#changed"] = card     # ("for each other ...")
                            times = static.per(self, probe)
                        for kind, name, amount in static.changes:
                            if wanted is None or (kind, name) == wanted:
                                yield (kind, name), amount * times
        finally:
            self._asking.discard(asking)

    def _sources_of(self, statics: dict, wanted) -> list[tuple[int, str]]:
        """(card, name) of the abilities in force with a continuous ability
        among ``statics`` (those that can change ``wanted``), in their order:
        worked out once per answer of ``abilities_in_force`` and change, not
        once per card asked about (the lethal check asks of every card in
        play after every step)."""
        in_force = self.abilities_in_force()
        kept_for, kept = self._sources_kept
        if kept_for is not in_force:
            kept = {}
            if not self._granting:      # while keywords are given: the printed ones only
                self._sources_kept = (in_force, kept)
        sources = kept.get(wanted)
        if sources is None:
            sources = kept[wanted] = [(source, name) for source, name in in_force
                                      if statics.get(name)]
        return sources

    def is_nullified(self, card: int) -> bool:
        """Nullified (a status, or a status modifier "until ..."): the card's
        abilities do not work."""
        if "nullified" in self.state.cards[card].statuses:
            return True
        given = self._derived()[3].get(card)
        return given is not None and "nullified" in given

    def has_keyword(self, card: int, name: str) -> bool:
        """Printed or given, and not lost ("This loses Divine Shield")."""
        if name in self.game.losable_keywords and self.has(card, "lost keyword", name):
            return False
        return self.prints_keyword(card, name) or self.has(card, "keyword", name)

    def prints_keyword(self, card: int, name: str) -> bool:
        for ability in self.definition(card).abilities:
            node = ability.ability
            if node.form == "keyword" and node.args[0].form == name:
                return True
        return False

    def has(self, card: int, kind: str, name: str) -> bool:
        """Whether a card has a keyword (or a can't / can) now."""
        for modifier in self.modifiers_on(card):
            if modifier.kind == kind and modifier.name == name:
                return True
        return any(True for _ in self.continuous(card, (kind, name)))

    def may_forbid(self, verb: str) -> bool:
        """Whether any "can't" of the game names ``verb`` (lower case): what
        none names is never forbidden, and need not be looked for."""
        known = self.game.forbiddable.get(verb)
        if known is None:
            verbs = self.game.forbidden_verbs
            if verbs is None:
                verbs = self.game.forbidden_verbs = frozenset(
                    v for v, _test in self.game.capabilities.values())
            known = self.game.forbiddable[verb] = any(verb.startswith(v) for v in verbs)
        return known

    def forbidden(self, player: int, verb: str, card: int | None, by: int | None = None
                  ) -> bool:
        """Whether a "can't" in force stops ``player`` doing ``verb`` (an
        action's name, or "be destroyed" ...) with ``card``; ``by``: the card
        doing it to ``card`` (or -1 - player, a player choosing it), which
        "can't be challenged by characters without Evasive" and "can't be
        chosen by your opponents" look at (such a "can't" holds only against
        what it names). "Can't" beats "can": nothing a card is allowed to do lifts
        a prohibition."""
        capabilities = self.game.capabilities
        if not capabilities:
            return False
        verb = verb.lower()
        if not self.may_forbid(verb):
            return False        # (every "can't" below is of a verb that starts it)
        you = -1 - player
        probe = None
        actors = self.game.capability_actors    # "can't be X by ..."
        for modifier in self._derived()[4]:      # the "can't" modifiers, in order
            if modifier.target not in (card, you):
                continue
            forbids, test = capabilities[modifier.name]
            if not verb.startswith(forbids) or (
                    actors and not self._against(modifier.name, by, player)):
                continue
            if modifier.target == card or test is None:
                return True
            if card is not None:
                probe = probe or Frame("probe", 0, {"you": player})
                if test(self, probe, card):
                    return True
        if card is not None and self.game.statics:
            for name in self.game.static_prohibitions():
                if verb.startswith(capabilities[name][0]) and \
                        (not actors or self._against(name, by, player)) and \
                        self.continuous(card, ("cannot", name)):
                    return True
            if self._forbids_itself(card, verb, by, player):
                return True
        if self.game.player_statics:
            # continuous prohibitions on players ("Your opponent can't attack")
            state = self.state
            for source, name in self.abilities_in_force():
                found = self.game.player_statics.get(name)
                if not found or "nullified" in state.cards[source].statuses:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                for test, name, condition in found:
                    if verb.startswith(capabilities[name][0]) and \
                            (not actors or self._against(name, by, player)) and (
                            condition is None or condition(self, probe)) and \
                            test(self, probe, player):
                        return True
        return False

    def _forbids_itself(self, card: int, verb: str, by: int | None, player: int) -> bool:
        """A card outside play that says "This can't VERB [unless ...]" keeps
        itself from it where it is: an Ally attacking from the hand, a card
        that "can't be summoned" from the hand. (In play, its continuous
        abilities are in force anyway.)"""
        state = self.state
        if state.cards[card].zone[0] in self.game.in_play:
            return False
        own = self.game.statics.get(self.printed_name(card))
        if not own or self.is_nullified(card):
            return False
        capabilities, actors = self.game.capabilities, self.game.capability_actors
        probe = Frame("probe", 0, {"you": state.cards[card].controller, "this": card})
        for static in own:
            for kind, name, _amount in static.changes:
                if kind == "cannot" and verb.startswith(capabilities[name][0]) and \
                        (not actors or self._against(name, by, player)) and (
                        static.condition is None or static.condition(self, probe)) and \
                        static.test(self, probe, card):
                    return True
        return False

    def _against(self, name: str, by: int | None, player: int) -> bool:
        """Whether the "can't" ``name`` holds against the card ``by``: one
        with no "by ..." always; one with it only against a card it names."""
        test = self.game.capability_actors.get(name)
        if test is None:
            return True
        return by is not None and test(self, Frame("probe", 0, {"you": player}), by)

    def choosable(self, chooser: int, cards: list) -> list:
        """The cards a player may choose for an effect: not those that
        "can't be chosen" (by that player: "by your opponents"). Choosing a
        target for one of the game's actions (an attack) is not this."""
        if not self.game.capabilities:
            return cards
        state = self.state
        return [c for c in cards if not (
            self.forbidden(state.cards[c].controller, "be chosen", c, by=-1 - chooser) or
            self.forbidden(state.cards[c].controller, "be targeted", c, by=-1 - chooser))]

    def _counted_as(self, card: int, allowed) -> set | None:
        """The values of a set a card counts as ("It counts as red until
        ..."), which take the place of those it prints; None when it counts
        as none of them."""
        counted = {m.name for m in self.modifiers_on(card)
                   if m.kind == "value" and m.name in allowed}
        return counted or None

    def has_value(self, card: int, value: str) -> bool:
        """Whether a stat of the card has this value ("a Red Ally"): printed
        (stats declared "never an adjective" do not count), or counted as
        (then instead of the printed values of its set)."""
        if self.state.modifiers and self.modifiers_on(card):
            for values in self.rules.value_sets.values():
                if value in values:
                    counted = self._counted_as(card, values)
                    if counted is not None:
                        return value in counted
        name = self.printed_name(card) if self.game.copying else self.state.cards[card].name
        known = self.game.value_answers.get((name, value))
        if known is None:
            quiet = self.game.not_adjectives
            known = self.game.value_answers[(name, value)] = any(
                v == value or (isinstance(v, tuple) and any(
                    value in (alt if isinstance(alt, tuple) else (alt,)) for alt in v))
                for v in (stat.value for stat in self.definition(card).stats
                          if stat.name not in quiet))
        return known

    def values_of(self, card: int, kind: str) -> set:
        """The values of a set ("values color: ...") a card has: those its
        stats print (each of a choice, "red/blue", counts), except a stat
        declared "never an adjective"; or, while it counts as some of them
        ("It counts as blue until ..."), those instead."""
        allowed = self.rules.value_sets.get(kind, ())
        counted = self._counted_as(card, allowed)
        if counted is not None:
            return counted
        name = self.printed_name(card) if self.game.copying else self.state.cards[card].name
        printed = self.game.value_answers.get((name, kind, "values"))
        if printed is None:
            quiet = self.game.not_adjectives
            out: set = set()
            for stat in self.definition(card).stats:
                if stat.name in quiet:
                    continue
                for entry in (stat.value if isinstance(stat.value, tuple) else (stat.value,)):
                    out.update(v for v in (entry if isinstance(entry, tuple) else (entry,))
                               if v in allowed)
            printed = self.game.value_answers[(name, kind, "values")] = frozenset(out)
        return printed

    def has_status(self, card: int, status: str) -> bool:
        """A status the card has: set on it, given by a modifier ("it is fresh
        until your next turn"), or the status of paired cards; a status
        declared the opposite of others while it has none of them."""
        c = self.state.cards[card]
        if status in c.statuses:
            return True
        game = self.game
        opposites = game.rules.opposites.get(status)
        if opposites is not None:       # "ready": none of exhausted, ...
            statuses = c.statuses
            for other in opposites:
                if other in statuses or self.has_status(card, other):
                    return False
            return True
        if status in game.paired_statuses:
            for first, second, paired in game.pairs:
                if paired == status and c.zone[0] in (first, second):
                    other = (second if c.zone[0] == first else first, c.zone[1])
                    slot = self.slot_of(card)
                    if any(self.slot_of(p) == slot for p in self.state.zones.get(other, ())):
                        return True
        derived = self._modifier_index     # (self._derived(), inline: asked most often)
        if derived[0] is not self.state.modifiers:
            derived = self._derived()
        given = derived[3].get(card)
        return given is not None and status in given

    def arrived_by(self, card: int, event: str) -> bool:
        """Whether the card came to be where it is by the event (logged
        after its move: "destroyed", "discarded", a game's "sacrificed"),
        so that "If that Being is destroyed" reads what an earlier step did
        to the card it chose."""
        return self._arrival(card, event) is not None

    def destroyer_of(self, card: int) -> int | None:
        """The card whose damage or effect destroyed this one, if it came
        to be where it is by being destroyed ("the Being that destroyed
        this")."""
        found = self._arrival(card, "destroyed")
        return None if found is None else found.target

    def _arrival(self, card: int, event: str):
        """The event of that name about the card logged since its last move."""
        log = self.state.log
        for index in range(self.state.cards[card].entered, len(log)):
            entry = log[index]
            if entry[0] == "event" and entry[1] == event and (
                    entry[2] == card or (isinstance(entry[2], tuple) and card in entry[2])):
                return entry
        return None

    def hand_of(self, player: int) -> list[int]:
        return self.state.zones.get((self.game.hand, player), [])

    def card_label(self, card: int) -> str:
        return f"{self.state.cards[card].name} #{card}"

    # ---- players

    def player_count(self, player: int, name: str) -> int:
        """A player's counter; for a counter kept "on cards, per player", the
        number of theirs on the cards in play."""
        decl = self.rules.counters.get(name)
        if decl is not None and decl.per_player:
            key = counter_on_card(decl.name, player)
            return sum(self.state.cards[c].counter(key) for c in self.in_play())
        return self.state.counter(player, name)

    def player_with_most(self, counter: str):
        """The one player with more of ``counter`` than any other; None on a tie."""
        leaders = self.players_with_most(counter)
        return leaders[0] if len(leaders) == 1 else None

    def players_with_most(self, counter: str, most: bool = True) -> tuple[int, ...]:
        """The players still in the game tied for the most ``counter`` (with
        ``most`` False, the others), in seat order from the turn player."""
        state = self.state
        alive = self.seat_order()
        best = max((state.counter(p, counter) for p in alive), default=None)
        return tuple(p for p in alive if (state.counter(p, counter) == best) == most)

    def unique_title_in_play(self, card: int, player: int) -> bool:
        """Whether ``player`` controls in play a unique card with the title
        of ``card`` (only unique cards have such a limit)."""
        rules = self.rules
        state = self.state
        name = state.cards[card].name
        if not rules.is_unique(name):
            return False
        title = rules.title_of(name)
        return any(state.cards[c].controller == player and c != card and
                   rules.title_of(state.cards[c].name) == title for c in self.in_play())
