"""Triggers: new events matched against the triggered abilities of cards.

Card events ("When this is played"), player events ("When you draw a
card") and the edges of periods ("At the start of your turn"), of the cards
in play (and of cards outside play used from where they are); what fires
waits to resolve, or resolves at once without resolution rules. Triggers
may be held for a while ("hold_triggers") and released one at a time,
their users choosing the order.
"""

from __future__ import annotations

from interpreter.compiler.compiled import Trigger, is_next_in_turn_of
from interpreter.compiler.program import JUMPED
from interpreter.compiler.compiled import RULES_ZONE
from interpreter.engine.events import CounterChanged, Moved, Occurred, PeriodEdge
from interpreter.engine.limits import MAX_DEPTH
from interpreter.engine.state import Frame, TriggerUse


def fired_locals(entry: tuple) -> dict:
    """The locals an ability's frame starts with, from what fired:
    (program, source, controller, card), and for a player's event the player
    who did it ("they": "Whenever your Rival advances, if your Position is
    less than theirs")."""
    locals_ = {"you": entry[2], "this": entry[1], "it": entry[3]}
    if len(entry) > 4:
        locals_["they"] = entry[4]
    return locals_


class Triggers:
    """Matching events against triggered abilities; holding and releasing them."""

    __slots__ = ()

    def collect_triggers(self) -> None:
        """Match new events against triggered abilities: of the card the
        event is about ("When this is played"), and of every card in play."""
        state = self.state
        log = state.log
        if not self.game.triggers and not state.delayed:
            state.cursor = len(log)
            return
        fired = []
        # the cards watching card events, once looked up; from the events
        # since the cursor (one step's) for the cards that left play in them
        watchers: list = []
        watched = self.game.trigger_index
        for index in range(state.cursor, len(log)):
            event = log[index]
            kind = event.kind
            if kind == PeriodEdge.KIND:
                if (event.name, event.edge) in watched.period_edges:
                    fired.extend(self.period_triggers(event))
                if state.delayed:
                    fired.extend(self.delayed_steps(event))
                continue
            if kind == Moved.KIND and watched.zone_moves:
                # "Whenever a character enters play" / "leaves play": a move
                # is the event "enters ZONE" of the card (and "leaves ZONE")
                source, destination = event.source, event.destination
                if source[0] != destination[0] or source[1] != destination[1]:
                    for name in (f"enters {destination[0]}", f"leaves {source[0]}",
                                 f"enters {destination[0]} from {source[0]}"):
                        if name in watched.card_events:
                            self._card_event(name, event.card, None, watchers, fired)
                continue
            if kind == CounterChanged.KIND and watched.counter_changes:
                # "Whenever you gain Life": a player's counter went up (down)
                if event.player >= 0 and event.new != event.old:
                    name = ("gains " if event.new > event.old else "loses ") + event.name
                    if name in watched.player_events:
                        fired.extend(self.player_triggers(name, None, event.player))
                continue
            if kind != Occurred.KIND:
                continue
            name, card, actor = event.name, event.card, event.player
            # what the event was done to ("deals damage to": the damaged card,
            # or -1 - player), for triggers that name it
            target = event.target
            if name in watched.player_events:
                fired.extend(self.player_triggers(name, card, actor))
            if name not in watched.card_events:
                continue
            for c in (card if isinstance(card, tuple) else (card,)):
                if c is not None:
                    self._card_event(name, c, target, watchers, fired)
        state.cursor = len(log)
        if fired and self.game.trigger_gates:
            gates = self.game.trigger_gates
            fired = [f for f in fired if f[0] not in gates or gates[f[0]](
                self, Frame("probe", 0, fired_locals(f)))]
        if not fired:
            return
        if state.held is not None:
            state.held = state.held + tuple(fired)
            return
        if self.rules.resolution is None:
            # no resolution rules: each triggered ability resolves at once
            if self.rules.trigger_order is not None and len(fired) > 1:
                # "simultaneous triggers: in turn order from the first player"
                first = (state.first_player if state.first_player is not None
                         else state.turn_player) \
                    if self.rules.trigger_order == "first" else state.turn_player
                fired.sort(key=lambda f: (f[2] - first) % state.players)
            if len(state.frames) + len(fired) > MAX_DEPTH:
                self.draw_game(f"effects nested more than {MAX_DEPTH} deep (a loop?)")
                return
            for entry in reversed(fired):
                state.frames.append(Frame(entry[0], 0, fired_locals(entry)))
            return
        immediate = [f for f in fired if f[0] in self.game.immediate]
        if immediate:
            fired = [f for f in fired if f[0] not in self.game.immediate]
            for entry in reversed(immediate):
                state.frames.append(Frame(entry[0], 0, fired_locals(entry)))
        state.pending = state.pending + fired
        if len(state.pending) + len(state.stack) > MAX_DEPTH:
            self.draw_game(f"more than {MAX_DEPTH} effects waiting (a loop?)")

    def working(self, card: int) -> bool:
        """Whether a card in play has its abilities: not nullified, and face up
        (a face-down card is only a card, until it is flipped) unless its kind
        works face down; not while it has its kind's "waits while" status."""
        c = self.state.cards[card]
        if self.has_status(card, "nullified"):
            return False
        kind = self.rules.kind(self.definition(card).kind)
        if not c.face_up and not (kind is not None and kind.works_face_down):
            return False
        if kind is not None and kind.waits_while and self.has_status(card, kind.waits_while):
            return False
        return True

    def _watchers(self, kind: str):
        state = self.state
        names = self.game.trigger_index.watching.get(kind, ())
        copying = self.game.copying
        for source in self.ability_sources():
            name = self.printed_name(source) if copying else state.cards[source].name
            if name not in names or not self.working(source):
                continue
            for trigger in self.game.triggers.get(name, ()):
                if trigger.kind == kind:
                    yield source, trigger
        intents = self.game.intent_triggers
        if intents and kind in self.game.intent_kinds:
            # cards outside play, where their kind is used from (a card in the hand)
            for player in range(state.players):
                if not any(state.cards[c].name in intents for zone in self.game.used_from_zones
                           for c in state.zones.get((self.game.hand, player) if zone == "hand"
                                                    else (zone, player), ())):
                    continue
                for source in self.used_from_cards(player):
                    for trigger in intents.get(state.cards[source].name, ()):
                        if trigger.kind == kind:
                            yield source, trigger

    def user_of(self, source: int, player: int) -> int:
        """Who uses an ability of ``source`` triggered by an event about
        ``player``: its controller; for a rule of the game, that player (a
        rule belongs to nobody: "you" in it is the player the event is about)."""
        card = self.state.cards[source]
        return player if card.zone[0] == RULES_ZONE else card.controller

    def _whose(self, trigger: Trigger, controller: int, player: int) -> bool:
        if trigger.whose == "you":
            return player == controller
        if trigger.whose == "rival":
            return player != controller
        return True

    def _card_event(self, name: str, c: int, target, watchers: list, fired: list) -> None:
        """The triggered abilities an event of card ``c`` fires: the card's
        own ("When this ...") and those of the cards in play watching every
        card ("Whenever a Being is destroyed"); ``watchers`` is filled the
        first time it is needed."""
        state = self.state
        # the name a card's abilities are read under (another's while it is a copy)
        copying, cards = self.game.copying, state.cards
        if not watchers:
            names = self.game.trigger_index.watching.get("card", ())
            watchers.append([w for w in self.ability_sources()
                             if (self.printed_name(w) if copying else cards[w].name) in names
                             and self.working(w)] + self._left_play_in_step(names))
        sources = set(watchers[0])
        sources.add(c)
        for source in sorted(sources):
            for trigger in self.game.triggers.get(
                    self.printed_name(source) if copying else cards[source].name, ()):
                if trigger.event != name or trigger.kind != "card":
                    continue
                if trigger.self_only:
                    if source != c:
                        continue
                elif source == c and source not in watchers[0]:
                    continue
                user = self.user_of(source, state.cards[c].controller)
                probe = Frame("probe", 0, {"you": user, "this": source})
                if trigger.object_test is not None and (
                        target is None or not trigger.object_test(self, probe, target)):
                    continue
                if trigger.test(self, probe, c):
                    if trigger.once_per:
                        key = TriggerUse(source, trigger.program, trigger.once_per,
                                         state.period_counts.get(trigger.once_per, 0))
                        if key in state.limits:
                            continue
                        state.limits[key] = 1
                    # "Whenever this deals damage to a Creature, destroy
                    # that Creature": "it" is the damaged card
                    it = target if trigger.object_test is not None \
                        and target >= 0 else c
                    fired.append((trigger.program, source, user, it))
        if self.game.once_triggers:
            self._once_triggers(name, c, target, fired)

    def _left_play_in_step(self, names) -> list[int]:
        """The cards with abilities watching card events that left play in
        the events not yet looked at (one step's): what happens in a step
        happens at once, so they see its events, their own leaving too
        ("Whenever a Creature is destroyed" on a Creature destroyed with
        another by one "Deal 2 damage to each Creature")."""
        state, in_play, cards = self.state, self.game.in_play, self.state.cards
        left = []
        for event in state.log[state.cursor:]:
            if event.kind == Moved.KIND and event.source[0] in in_play and \
                    event.destination[0] not in in_play and event.card not in left and \
                    cards[event.card].zone[0] not in in_play and \
                    (self.printed_name(event.card) if self.game.copying
                     else cards[event.card].name) in names:
                left.append(event.card)
        return left

    def _once_triggers(self, name: str, c, target, fired: list, actor=None) -> None:
        """ "The next time an Ally you control deals damage this Move, draw 2
        cards" (a card's event), "The next time you advance this turn, ..."
        (a player's, ``actor`` the player who did it): a trigger an effect
        left on a player fires once, then is used up."""
        state = self.state
        for modifier in list(state.modifiers):
            if modifier.kind != "next trigger":
                continue
            trigger = self.game.once_triggers[modifier.name]
            if trigger.event != name or (trigger.kind == "player") != (actor is not None):
                continue
            player = -1 - modifier.target
            probe = Frame("probe", 0, {"you": player, "this": modifier.source})
            if actor is not None:
                if not self._whose(trigger, player, actor) or (trigger.test is not None and (
                        c is None or not trigger.test(self, probe, c))):
                    continue
            elif not trigger.test(self, probe, c) or (
                    trigger.object_test is not None and (
                        target is None or not trigger.object_test(self, probe, target))):
                continue
            state.modifiers = [m for m in state.modifiers if m is not modifier]
            fired.append((trigger.program, modifier.source, player, c)
                         + ((actor,) if actor is not None else ()))

    def delayed_steps(self, event) -> list:
        """ "At the end of the turn, draw a card" (a step an effect left for
        later): its moment has come; it happens once, as a triggered ability
        of the card whose effect it was."""
        turn_player = self.state.turn_player

        def due_now(moment) -> bool:
            period, number, edge = moment
            return period == event.name and edge == event.edge and (
                number == event.number or
                # "At the start of your next Upkeep"
                is_next_in_turn_of(number, turn_player, event.number))
        due = [d for d in self.state.delayed if due_now(d[0])]
        if not due:
            return []
        self.state.delayed = tuple(d for d in self.state.delayed if not due_now(d[0]))
        return [(program, this, you, self._still_there(it))
                for _key, program, you, this, it in due]

    def _still_there(self, kept):
        """ "it" of steps left for later: the cards kept that are still where
        they were (one card, or a tuple of them, as it was written)."""
        if kept is None:
            return None
        one, cards = kept
        cards = tuple(c for c, entered in cards if self.state.cards[c].entered == entered)
        if one:
            return cards[0] if cards else ()
        return cards

    def period_triggers(self, event) -> list:
        """ "At the start of your turn": a period began or ended."""
        name, edge = event.name, event.edge
        fired = []
        for source, trigger in self._watchers("period"):
            if trigger.event != name or trigger.edge != edge:
                continue
            controller = self.user_of(source, self.state.turn_player)
            if self._whose(trigger, controller, self.state.turn_player):
                fired.append((trigger.program, source, controller, source))
        return fired

    def player_triggers(self, name: str, card, actor: int) -> list:
        """ "When you draw a card": a player did something."""
        fired = []
        for source, trigger in self._watchers("player"):
            if trigger.event != name:
                continue
            controller = self.user_of(source, actor)
            if trigger.test is not None and (card is None or not trigger.test(
                    self, Frame("probe", 0, {"you": controller, "this": source}), card)):
                continue        # "Whenever you cast a Spell": not a Spell
            if self._whose(trigger, controller, actor):
                fired.append((trigger.program, source, controller, card, actor))
        if self.game.once_triggers:
            self._once_triggers(name, card, None, fired, actor)
        return fired

    # ---- triggers held for a while

    def hold_triggers(self) -> None:
        """Abilities that trigger from now on wait (see release_triggers)."""
        self.collect_triggers()
        self.state.held = ()

    def release_triggers(self, frame: Frame):
        """Run the abilities that waited, one at a time. Those a player's own
        event triggered ("When you advance", and the Rival's "Whenever your
        Rival advances") are that player's to use, the turn player's first,
        in the order that player chooses when they have several; abilities
        that trigger "after" an event come last, each player ordering their
        own."""
        locals_ = frame.locals
        if "_held" not in locals_:
            self.collect_triggers()
            held, self.state.held = self.state.held or (), None
            if not held:
                return None
            if self.rules.resolution is not None:
                # they wait to resolve as any simultaneous effects do (stack links)
                self.state.pending = self.state.pending + list(held)
                return None
            locals_["_held"] = tuple(held)
        held = locals_["_held"]
        if not held:
            del locals_["_held"]
            return None
        if "_held_next" in locals_:
            index = locals_.pop("_held_next")
        else:
            state = self.state
            keys = [(entry[0] in self.game.after_triggers,
                     (self.user_of_held(entry) - state.turn_player) % state.players)
                    for entry in held]
            first = min(keys)
            group = [i for i, key in enumerate(keys) if key == first]
            if len(group) > 1:
                user = (first[1] + state.turn_player) % state.players
                return self.ask(frame, user, "order", "use which effect next", tuple(group),
                                "_held_next", tuple(f"{self.card_label(held[i][1])}'s effect"
                                                    for i in group))
            index = group[0]
        locals_["_held"] = held[:index] + held[index + 1:]
        self.state.frames.append(Frame(held[index][0], 0, fired_locals(held[index])))
        return JUMPED

    def user_of_held(self, entry: tuple) -> int:
        """Who orders a held ability: for one a player's event triggered (a
        player trigger), that player ("Whenever your Rival advances": the
        Rival); for an "after" trigger or any other, its controller."""
        program, controller = entry[0], entry[2]
        trigger = self.game.trigger_programs.get(program)
        if trigger is None or trigger.kind != "player" or program in self.game.after_triggers:
            return controller
        if trigger.whose == "rival":
            return self.rival_of(controller)
        return controller
