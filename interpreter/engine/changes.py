"""Changing the state: every change an effect makes, through
``interpreter.engine.operations`` and with what it brings along.

Moving cards (into slots, keeping positions, leaving play with what is
attached), drawing, discarding, destroying (prevented by a "can't", or
replaced by a replacement ability), damage, counters (with their bounds,
costs changed by modifiers, payments), statuses, flipping, revealing,
shuffling, periods, events, and the end of the game.
"""

from __future__ import annotations

from interpreter.engine import operations as op
from interpreter.engine.events import (
    AbilityUsed, Attached, Compared, Kept, Occurred, Prevented, Replaced, ReplacedForPlayer,
    Taken, ValueRevealed, ZoneFull, cards_acted_on)
from interpreter.engine.limits import GameOver
from interpreter.compiler.compiled import (COMBAT_DAMAGE, COMBAT_DAMAGE_REDUCED, OUTSIDE_ZONE,
                                           PLAYER_DEALT_DAMAGE, RULES_ZONE)
from interpreter.engine.state import Frame, Modifier, TriggerUse
from interpreter.language.vocabulary import past_participle


class Changes:
    """Every change of the state an effect makes."""

    __slots__ = ()

    def move(self, card: int, zone: tuple, top: bool = True, face_up=None,
             slot: int | None = None) -> bool | None:
        """Move a card; into a zone of slots it takes ``slot`` if that is free
        (a slot its player chose), else the first free one. False: nothing
        happened (a card of a kind that never leaves play stays in play; a
        zone with every slot taken, or "at most N cards" held, takes no more)."""
        state = self.state
        source = state.cards[card].zone
        if source != zone and source[0] in self.game.keeping:
            state.log.append(Kept(card, source))   # "cards never leave it"
            return
        if self.game.staying_kinds and source[0] in self.game.in_play and \
                zone[0] not in self.game.in_play and \
                self.definition(card).kind in self.game.staying_kinds:
            state.log.append(Prevented("leave play", card))   # "leaves play: never"
            return False
        if source != zone and source[0] in self.game.reshuffled:
            self.touched.add(source)
        decl = self.rules.zones.get(zone[0])
        if decl is not None and decl.slots is not None and source == zone:
            return      # already in its slot of the zone: it stays there
        if decl is not None and source != zone and \
                len(state.zones.get(zone, ())) >= min(decl.slots or decl.capacity or 10 ** 9,
                                                      decl.capacity or 10 ** 9):
            state.log.append(ZoneFull(card, zone))   # every slot taken: it stays
            if decl.overflow is not None:
                # "... when it is full goes to its owner's graveyard"
                return self.move(card, self.overflow_zone(decl, card), face_up=True)
            return False
        if source != zone and (self.game.replacements or self.game.once_replacements) and (
                self.replaced(f"enters {zone[0]}", card) or self.game.origins_replaced and
                self.replaced(f"enters {zone[0]} from {source[0]}", card)):
            return False        # "If a card would be put into your Rival's void, ... instead"
        followed = self.game.track_counters.get(source[0]) if source != zone else None
        below = state.zones[source].index(card) if followed else None
        in_play = self.game.in_play
        op.move(state, card, zone, top=top, face_up=face_up,
                new_object=(source[0] not in in_play or zone[0] not in in_play)
                and not (self.game.places_played and state.frames
                         and state.frames[-1].locals.get("#played") == card))
        if followed:
            # a position stays at its place: a place below it leaving the
            # zone brings it down by one
            for player in range(state.players):
                for counter in followed:
                    value = state.counter(player, counter)
                    if value > below:
                        self.set_counter(player, counter, value - 1)
        if decl is not None and decl.slots is not None and source != zone:
            self.take_slot(card, zone, decl.slots, slot)
        if state.waiting and source != zone:
            # a place leaving its zone: what waited for it is lost
            state.waiting = tuple(w for w in state.waiting if w[2] != card)
        self.after_move(card, source, zone)

    def after_move(self, card: int, source: tuple, zone: tuple) -> None:
        """What a move brings with it: a card leaving play takes the cards
        attached to it along (to their owners' discard piles); a zone that
        names an event for the cards entering it fires it (unless the move is
        made "without triggering abilities")."""
        state = self.state
        moved = state.cards[card]
        if moved.attached_to is not None and source != zone:
            moved.attached_to = None
            moved.controller = moved.owner
        if source[0] in self.game.in_play and source != zone and self.game.attaching:
            for other in state.cards:
                if other.attached_to == card and other.zone == source:
                    self.move(other.id, (self.game.discard_pile, other.owner), face_up=True)
        if self.game.pairs and source != zone and any(
                source[0] in p[:2] for p in self.game.pairs):
            self.refresh_pairs()           # a card left a place: its partner is alone
        event = self.game.entry_events.get(zone[0])
        if event is not None and not self.quiet:
            self.event(event, card, moved.owner)
        if self.game.tokens_cease and source != zone and (
                (zone[0], "entering") in self.game.tokens_cease or
                (source[0], "leaving") in self.game.tokens_cease) and \
                self.definition(card).token:
            op.move(state, card, (OUTSIDE_ZONE, -1), face_up=True)   # ceases to exist

    def overflow_zone(self, decl, card: int) -> tuple:
        """Where a card goes that a full zone does not take: that zone of
        its owner's (or the shared one)."""
        target = self.rules.zones[next(z for z in self.rules.zones
                                       if z.lower() == decl.overflow.lower())]
        return (target.name, -1 if target.scope == "shared" else self.state.cards[card].owner)

    def create_token(self, name: str, owner: int, zone: tuple, at: int | None = None,
                     face_up: bool = True) -> int:
        """A new token of this name for ``owner``, moved into ``zone`` as any
        card entering it would be; ``at``: placed there at that place, as a
        card is placed (see Machine.place_at)."""
        card = op.create_card(self.state, name, owner, (OUTSIDE_ZONE, -1))
        if at is None:
            self.move(card, zone, face_up=True)
        else:
            self.place_at(card, zone, at, face_up)
        return card

    def take_control(self, card: int, player: int, until: tuple | None, source) -> bool:
        """ "Gain control of X [until ...]": a card in play goes to the same
        zone of ``player``'s (a zone of slots: a free one, or nothing
        happens), as it is; with a duration, it goes back once it ends."""
        state = self.state
        c = state.cards[card]
        if c.controller == player or c.zone[0] not in self.game.in_play:
            return False
        decl = self.rules.zones.get(c.zone[0])
        key = (c.zone[0], player if c.zone[1] >= 0 else -1)
        if decl is not None and decl.slots is not None and \
                len(state.zones.get(key, ())) >= decl.slots:
            return False                                 # no free slot there
        previous = c.controller
        op.change_control(state, card, player)
        if decl is not None and decl.slots is not None and c.zone[1] >= 0:
            self.take_slot(card, c.zone, decl.slots)
        elif self.game.pairs:
            self.refresh_pairs()
        if until is not None:
            self.add_modifier(card, "control", str(previous), player, source, until)
        return True

    def attach(self, card: int, host: int) -> None:
        """Put ``card`` with ``host``: in its zone, under its controller."""
        state = self.state
        target = state.cards[host]
        source = state.cards[card].zone
        if source != target.zone:
            op.move(state, card, target.zone, face_up=True)
            self.after_move(card, source, target.zone)
        state.cards[card].attached_to = host
        state.cards[card].controller = target.controller
        self.game.attaching = True
        state.log.append(Attached(card, host, True))

    def shuffle_touched(self) -> None:
        """Shuffle the zones "shuffled after an effect takes cards from it"
        that the step just done took cards from."""
        if self.touched:
            for zone in sorted(self.touched):
                op.shuffle(self.state, zone)
            self.touched.clear()

    def add_modifier(self, card: int, kind: str, name: str, amount: int, source,
                     until: tuple) -> None:
        op.add_modifier(self.state, Modifier(card, kind, name, amount, source, until))
        if kind == "stat" and amount < 0 and name in self.game.lethal_stats:
            self.lethal_check()    # "gets -2 toughness": its damage may be lethal now

    def add_card_counter(self, card: int, name: str, amount: int) -> None:
        op.set_card_counter(self.state, card, name, self.state.cards[card].counter(name) + amount)

    def draw(self, player: int, count: int, doing: str | None = None) -> int:
        """Cards from the top of the player's draw pile to their hand, one at
        a time; a replacement of drawing ("If a player would draw a card
        while ...") takes the place of each card it applies to (not the
        replacement ``doing`` the draw after all)."""
        pile = self.state.zones.get((self.game.draw_pile, player), [])
        drawn = 0
        for _ in range(count):
            if self.game.draws_replaced and \
                    self.replaced_for_player("draw a card", player, 1, doing):
                continue
            if not pile:
                self.needed_card_from((self.game.draw_pile, player))
                break
            card = pile[-1]
            if self.game.hand_capacity is not None and len(self.state.zones.get(
                    (self.game.hand, player), ())) >= self.game.hand_capacity:
                self.move(card, (self.game.hand, player))     # a full hand: see move
                if card in pile:
                    break                                     # it stays: no more draws
                continue
            op.move(self.state, card, (self.game.hand, player), face_up=False)
            self.event("drawn", card, player)
            drawn += 1
        return drawn

    def discard(self, card: int) -> None:
        if self.prevented("be discarded", card) or self.replaced("discarded", card):
            return
        owner = self.state.cards[card].owner
        if self.move(card, (self.game.discard_pile, owner), face_up=True) is False:
            return
        self.event("discarded", card, owner)

    def destroy(self, card: int, by: int | None = None) -> None:
        """Destroy a card; ``by``: the card whose damage or effect destroys
        it, kept as the event's object ("the Being that destroyed this")."""
        if self.prevented("be destroyed", card) or self.replaced("destroyed", card):
            return
        owner = self.state.cards[card].owner
        if self.move(card, (self.game.discard_pile, owner), face_up=True) is False:
            return
        self.state.log.append(Occurred("destroyed", card, owner, by))

    def prevented(self, what: str, card: int) -> bool:
        """Whether the card "can't" undergo this ("be destroyed"): then the
        operation does not happen, and the log says why."""
        if self.forbidden(self.state.cards[card].controller, what, card):
            self.state.log.append(Prevented(what, card))
            return True
        return False

    def barred(self, verb: str, player: int, card: int | None) -> bool:
        """Whether a "can't" stops the player (or the card doing it) doing a
        game verb ("Your Rival can't advance this turn"): then it is not
        done, and the log says why."""
        if self.forbidden(player, verb, card):
            self.state.log.append(Prevented(verb, -1 - player if card is None else card))
            return True
        return False

    def discard_cards(self, cards) -> None:
        """Discard the cards one step discards: a replacement whose subject
        is plural ("If your face-up cards ... would be discarded") takes the
        place of discarding all those it applies to at once; the others are
        discarded one by one."""
        if self.game.replacements:
            cards = self.replaced_together("discarded", cards)
        for card in cards:
            self.discard(card)

    # ---- replacements

    def replaced_together(self, event: str, cards) -> tuple:
        """Queue the replacements for ``event`` that apply to several of the
        cards together (each with "it" all the cards it takes); returns the
        cards left to the event."""
        state = self.state
        left = tuple(cards)
        for source, name in self._replacing(left):
            for replacement in self.game.replacements.get(name, ()):
                if replacement.event != event or not replacement.together:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                taken = tuple(c for c in left if replacement.test(self, probe, c)
                              and not self.forbidden(state.cards[c].controller,
                                                     "be " + event, c))
                if not taken or self._replacing_now(replacement.program, source):
                    continue
                for card in taken:
                    state.log.append(Replaced(event, card, source, False))
                state.pending_replacements = state.pending_replacements + (
                    (replacement.program, source, state.cards[source].controller, taken),)
                left = tuple(c for c in left if c not in taken)
        return left

    def _replacing_now(self, program: str, source: int) -> bool:
        """Whether the replacement ``program`` of ``source`` is running: it
        does not replace what its own steps do ("If you would draw a card,
        draw 2 cards instead" draws 2, not forever); another card's may."""
        return any(frame.program == program and frame.locals.get("this") == source
                   for frame in self.state.frames[:self.running_depth])

    def _replacing(self, cards) -> list[tuple[int, str]]:
        """(card, name of its abilities) that may replace an event happening
        to ``cards``: the abilities in force, and those cards' own (a card
        leaving play replaces its own leaving), in card order."""
        return sorted(set(self.abilities_in_force()) | {(c, self.printed_name(c)) for c in cards})

    def replaced(self, event: str, card: int, amount: int | None = None) -> bool:
        """Whether a replacement ability takes the place of this event: its
        program is queued to run next, and the event does not happen."""
        state = self.state
        if self.game.once_replacements and self.replaced_once(event, card, amount):
            return True
        if not self.game.replacements:
            return False
        for source, name in self._replacing((card,)):
            for replacement in self.game.replacements.get(name, ()):
                if replacement.event != event:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                # (the card alone: a group of one)
                if replacement.test(self, probe, card) and \
                        not self._replacing_now(replacement.program, source):
                    state.log.append(Replaced(event, card, source,
                                               event in state.cards[card].statuses))
                    entry = (replacement.program, source, state.cards[source].controller, card)
                    # the event's amount ("that much damage"), when it has one
                    state.pending_replacements = state.pending_replacements + (
                        entry if amount is None else entry + (amount,),)
                    return True
        return False

    def replaced_once(self, event: str, card: int, amount: int | None) -> bool:
        """A replacement waiting to be used once ("The next time a Being you
        control would be destroyed this turn, ... instead"), oldest first: it
        takes the place of the event and is used up."""
        state = self.state
        for modifier in state.modifiers:
            if modifier.kind != "next time":
                continue
            replacement = self.game.once_replacements[modifier.name]
            player = -1 - modifier.target
            probe = Frame("probe", 0, {"you": player, "this": modifier.source})
            if replacement.event != event or not replacement.test(self, probe, card):
                continue
            state.modifiers = [m for m in state.modifiers if m is not modifier]
            state.log.append(Replaced(event, card, modifier.source, False))
            entry = (replacement.program, modifier.source, player, card)
            state.pending_replacements = state.pending_replacements + (
                entry if amount is None else entry + (amount,),)
            return True
        return False

    def effect_prevented(self, card: int) -> bool:
        """Whether a waiting "Prevent the effect of the next Spell your
        opponent controls" (oldest first) is about this card, whose effect
        would happen now: then it is used up, and the effect does not
        happen."""
        state = self.state
        for modifier in state.modifiers:
            if modifier.kind != "next effect":
                continue
            test = self.game.prevented_effects[modifier.name]
            probe = Frame("probe", 0, {"you": -1 - modifier.target, "this": modifier.source})
            if test(self, probe, card):
                state.modifiers = [m for m in state.modifiers if m is not modifier]
                return True
        return False

    # ---- damage and counters

    def damage_card(self, card: int, amount: int, battle: bool = False,
                    source: int | None = None) -> int:
        """Damage on a card; effect damage (not battle damage) stops at a
        card that "can't be damaged by effects". A card whose damage reaches
        a stat "a card with damage at least its X is destroyed" is destroyed;
        returns the damage past that stat (the excess). Damage dealt by a
        ``source`` card is its event "deals damage to" (the damaged card its
        object: "Whenever this deals damage to a character")."""
        state = self.state
        if state.cards[card].zone[0] not in self.game.in_play:
            # a card that has left play is a new object: damage meant for the
            # card it was ("When a Being attacks: Deal 50 damage to it", after
            # the battle destroyed it) finds nothing to damage
            return 0
        if self.game.reduces_damage:
            # "Damage that would be dealt to this is reduced by 1" (Resist)
            amount -= self.damage_reduction(card)
            if battle:
                amount -= self._player_reduction(state.cards[card].controller,
                                                 COMBAT_DAMAGE_REDUCED)
        if amount <= 0:
            return 0        # damage of 0 is not dealt: no event, nothing to prevent
        if not battle and self.forbidden(state.cards[card].controller,
                                         "be damaged by effects", card):
            state.log.append(Prevented("be damaged by effects", card))
            return 0
        if (self.game.replacements or self.game.once_replacements) and \
                self.replaced("dealt damage", card, amount):
            return 0        # "If this would be dealt damage, prevent that damage ..."
        before = state.cards[card].counter("damage")
        op.set_card_counter(state, card, "damage", before + amount)
        if "dealt damage" in self.game.trigger_index.card_events:
            # "Whenever a Creature is dealt damage" (logged only when watched)
            state.log.append(Occurred("dealt damage", card, state.cards[card].controller,
                                       source))
        if source is not None:
            self._dealt_by(source, card, battle)
        for stat in self.game.lethal_stats:
            if self.printed_stat(card, stat) is None:
                continue        # a card without the stat is not destroyed by damage
            limit = self.stat(card, stat)
            if before + amount >= limit:
                excess = before + amount - max(limit, before)
                self.destroy(card, source)
                return max(0, min(amount, excess))
        return 0

    def _player_reduction(self, player: int, name: str) -> int:
        """How much less damage the modifiers "reduce NAME" on ``player`` take
        off: "damage" ("Prevent all damage that would be dealt to you this
        Move"), or COMBAT_DAMAGE_REDUCED, the battle damage to the player and
        the cards they control ("Prevent all combat damage that would be
        dealt this turn")."""
        return sum(m.amount for m in self.state.modifiers if m.target == -1 - player
                   and m.kind == "reduce" and m.name == name)

    def _dealt_by(self, source: int, hit: int, battle: bool) -> None:
        """The damage's source's event "deals damage to" (``hit``: the card,
        or ``-1 - player``); battle damage is also "deals combat damage to"
        ("Whenever this deals combat damage to a player"), when watched."""
        controller = self.state.cards[source].controller
        self.state.log.append(Occurred("deals damage to", source, controller, hit))
        if battle and COMBAT_DAMAGE in self.game.trigger_index.card_events:
            self.state.log.append(Occurred(COMBAT_DAMAGE, source, controller, hit))

    def damage_player(self, player: int, amount: int, source: int | None = None,
                      doing: str | None = None, battle: bool = False) -> None:
        """Damage dealt to a player. A replacement ("If a player would be dealt
        damage, ... instead": a rule of the game, or a card's) takes its place:
        its program runs next, with "they" that player and "that much" the
        amount (the frame that dealt the damage goes on once it is done).
        Otherwise the player's counter that takes damage loses it (and a
        ``source`` card's event "deals damage to" has the player, as
        ``-1 - player``, for its object). ``doing``: the replacement dealing
        it after all, which does not take its place again."""
        state = self.state
        if self.game.reduces_damage:
            # "Prevent all damage that would be dealt to you this Move"
            amount -= self._player_reduction(player, "damage")
            if battle:
                amount -= self._player_reduction(player, COMBAT_DAMAGE_REDUCED)
        if amount <= 0 or self.replaced_for_player("dealt damage", player, amount, doing,
                                                   **{"#dealer": source}):
            return
        counter = self.game.player_damage_counter
        if counter is not None:
            self.set_counter(player, counter, state.counter(player, counter) - amount)
            if PLAYER_DEALT_DAMAGE in self.game.trigger_index.player_events:
                # "Whenever you are dealt damage" (logged only when watched)
                state.log.append(Occurred(PLAYER_DEALT_DAMAGE, source, player, None))
            if source is not None:
                self._dealt_by(source, -1 - player, battle)

    def player_replacement(self, event: str, player: int, amount: int | None = None,
                           more: dict | None = None, doing: str | None = None):
        """The replacement about a player ("If a player would be dealt
        damage", "... would pay more Mana than they have") that would take
        the place of ``event`` for ``player``, with its source and user; or
        None. Not the one whose program ``doing`` is doing the event ("If
        you would climb 1 Floor, climb 1 Floor instead" replaces
        once)."""
        for source, name in self.abilities_in_force():
            for replacement in self.game.player_replacements.get(name, ()):
                if replacement.event != event:
                    continue
                user = self.user_of(source, player)
                probe = Frame("probe", 0, {"you": user, "this": source, "they": player,
                                           "amount": amount, **(more or {})})
                if replacement.program != doing and replacement.test(self, probe, player) \
                        and not (replacement.once_per and
                                 self._replacement_use(replacement, source) in self.state.limits) \
                        and not self._replacing_now(replacement.program, source):
                    return replacement, source, user
        if self.game.lasting_replacements:
            # "This turn, if your Rival would draw a card, ... instead": left
            # on the player whose effect it was
            for modifier in self.state.modifiers:
                if modifier.kind != "replacement":
                    continue
                replacement = self.game.lasting_replacements[modifier.name]
                if replacement.event != event or replacement.program == doing:
                    continue
                user = -1 - modifier.target
                probe = Frame("probe", 0, {"you": user, "this": modifier.source,
                                           "they": player, "amount": amount, **(more or {})})
                if replacement.test(self, probe, player) and \
                        not self._replacing_now(replacement.program, modifier.source):
                    return replacement, modifier.source, user
        return None

    def replaced_for_player(self, event: str, player: int, amount: int | None,
                            doing: str | None = None, **more) -> bool:
        """Whether a replacement about a player takes the place of
        ``event`` (done by the program ``doing``): its program is pushed to
        run next, with "they" the player, "that much" the amount and
        ``more`` ("the excess"; "it", the card counters are added to)."""
        found = self.player_replacement(event, player, amount, more, doing)
        if found is None:
            return False
        replacement, source, user = found
        state = self.state
        if replacement.once_per:
            # "Once per Round, if you would ...": used up as it is offered
            state.limits[self._replacement_use(replacement, source)] = 1
        state.log.append(ReplacedForPlayer(event, player, source, amount))
        # "#about": the player the event is about, should it happen after all
        # ("you may ... instead", declined), even once "they" is another
        state.frames.append(Frame(replacement.program, 0, {
            "you": user, "this": source, "they": player, "#about": player,
            "amount": amount, **more}))
        return True

    def _replacement_use(self, replacement, source: int) -> TriggerUse:
        """What a replacement's "once per PERIOD" counts (a key of limits)."""
        period = replacement.once_per
        return TriggerUse(source, replacement.program, period,
                          self.state.period_counts.get(period, 0))

    def set_counter(self, player: int, name: str, value: int) -> None:
        decl = self.rules.counters.get(name)
        if decl is not None:
            if decl.minimum is not None:
                value = max(value, decl.minimum)
            if decl.maximum is not None:
                value = min(value, decl.maximum)
        op.set_counter(self.state, player, name, value)

    # ---- paying

    def cost_of(self, card, counter: str, amount: int) -> int:
        """What paying ``amount`` of ``counter`` for ``card`` costs once the
        card's cost changes apply ("costs 1 less Mana": modifiers and
        continuous abilities); never below 0 (then the card is free)."""
        if not isinstance(card, int):
            return max(0, amount)
        change = 0
        for modifier in self.modifiers_on(card):
            if modifier.kind == "cost" and modifier.name == counter:
                change += modifier.amount
        for _kind, value in self.continuous(card, ("cost", counter)):
            change += value
        return max(0, amount + change)

    def can_pay(self, player: int, counter: str, amount: int) -> bool:
        """Whether the player can pay ``amount`` of ``counter``: nothing to
        pay is always payable; a "can't pay COUNTER" stops the rest; more
        than the player has only where a replacement takes that payment's
        place ("If a player would pay more Mana than they have, ...")."""
        if amount <= 0:
            return True
        if self.game.forbids_paying and self.forbidden(player, f"pay {counter}", None):
            return False
        return self.state.counter(player, counter) >= amount or \
            self.player_replacement(f"pay more {counter}", player) is not None

    def needed_card_from(self, zone: tuple) -> None:
        """A player needed a card from an empty pile: if the zone says so,
        they lose."""
        decl = self.rules.zones.get(zone[0])
        if decl is not None and decl.empty_loses and zone[1] >= 0 and \
                not self.state.out[zone[1]]:
            self.lose(zone[1], f"needed a card from an empty {zone[0]}")

    # ---- statuses, faces, periods and events

    def set_status(self, card: int, status: str, on: bool, by: int | None = None) -> None:
        """A card gets (or loses) a status; a replacement may take the place
        of getting it ("If an exhausted card would be exhausted, ... instead").
        Getting a status it did not have is the event of that name for the
        triggers that watch it ("When defended"), done by ``by`` (else the
        card's controller)."""
        opposites = self.rules.opposites.get(status)
        if opposites is not None:
            if on and self.game.capabilities and self.may_forbid(
                    "be " + past_participle(status.lower())) and \
                    self.prevented("be " + past_participle(status.lower()), card):
                return      # "It can't be readied"
            # "Ready it" removes exhausted (and the others); "it is no longer
            # ready" gives the first
            for other in (opposites if on else opposites[:1]):
                if self.has_status(card, other) != (not on):
                    self.set_status(card, other, not on)
            return
        if on and status not in self.state.cards[card].statuses and \
                self.game.capabilities and self.may_forbid("be " + status) and \
                self.prevented("be " + status, card):
            return          # "Your Skills can't be nullified"
        if on and (self.game.replacements or self.game.once_replacements) and \
                self.replaced(status, card):
            return
        had = status in self.state.cards[card].statuses
        op.set_status(self.state, card, status, on)
        if on and not had and status in self.game.trigger_index.card_events:
            self.event(status, card, self.state.cards[card].controller if by is None else by)

    def relate(self, card: int, relation: str, other: int, on: bool) -> None:
        """``card`` begins (or stops) holding a relation toward ``other``
        ("It is blocking the defending Creature"); see operations.relate."""
        op.relate(self.state, card, relation, other, on)

    def flip(self, card: int, up: bool) -> None:
        """Turn a card; a card turned over is the event "flipped face up" (or
        down) that triggers see ("Whenever a Trap you control is flipped face up")."""
        was = self.state.cards[card].face_up
        op.flip(self.state, card, up)
        if was != up:
            self.event("flipped_face_up" if up else "flipped_face_down", card,
                       self.state.cards[card].controller)

    def reveal(self, card: int, to_player: int = -1) -> None:
        """Show a card to every player (or to ``to_player`` only)."""
        op.reveal(self.state, card, to_player)

    def compared(self, one: int, first: int, other: int, second: int, label) -> None:
        """Two cards' numbers were compared ("Compare X against Y by ...");
        ``label`` names the stat the numbers start from, or is None."""
        self.state.log.append(Compared(one, first, other, second, label))

    def shuffle(self, zone: tuple) -> None:
        op.shuffle(self.state, zone)

    def start_period(self, kind: str, name: str) -> None:
        """A phase or step begins (its end: ``end_period``)."""
        op.period(self.state, kind, name, "start")

    def mark(self, what: str) -> None:
        op.mark(self.state, what)

    def note(self, text: str) -> None:
        """A line for the log's readers ("Player 2 goes first.")."""
        op.note(self.state, text)

    def ability_used(self, player: int, label: str, card: int) -> None:
        self.state.log.append(AbilityUsed(player, label, card))

    def value_revealed(self, player: int, name: str) -> None:
        """A player reveals a secret value they chose."""
        self.state.log.append(ValueRevealed(player, name, self.state.counter(player, name)))

    def taken_by(self, player: int, name: str) -> None:
        """A phase or step taken by each player in turn is now ``player``'s."""
        self.state.log.append(Taken(player, name))

    def event(self, name: str, card, player: int) -> None:
        self.state.log.append(Occurred(name, card, player, None))

    def cards_acted_on(self, since: int) -> set[int]:
        """The cards something was done to since the log had ``since``
        events (``events.cards_acted_on``)."""
        return cards_acted_on(self.state.log[since:])

    # ---- the end of the game

    def reason_of(self, frame, verb: str | None = None) -> str:
        """Why an effect ends the game, as the log says it: the rule's name
        for a rule of the game, else the game verb whose definition says so
        ("Settle the race"), else "an effect"."""
        this = frame.locals.get("this")
        if this is not None and self.state.cards[this].zone[0] == RULES_ZONE:
            return self.state.cards[this].name.removesuffix(" (rule)")
        return verb or "an effect"

    def win(self, player: int, reason: str) -> None:
        op.end_game(self.state, ("win", player, reason))
        raise GameOver

    def lose(self, player: int, reason: str) -> None:
        self.eliminate(player, reason)
        if self.state.result is not None:
            raise GameOver

    def draw_game(self, reason: str) -> None:
        op.end_game(self.state, ("draw", reason))
