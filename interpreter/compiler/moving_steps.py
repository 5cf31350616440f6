"""Steps that move and show cards: draw, search, attach, use, place, gain
a card's values, compare, discard, move / put / return / add (with the
slots of a zone), shuffle, reveal, look at, choose and play; and how many
cards a step acted on, for a "that many" after it.
"""

from __future__ import annotations

import contextlib
from typing import Callable

from interpreter.compiler.frames import Frame, did_all
from interpreter.compiler.players import compile_zone
from interpreter.compiler.program import JUMPED, unsupported
from interpreter.compiler.named_numbers import NAMED_NUMBERS
from interpreter.compiler.selectors import compile_amount, compile_measure, compile_selector
from interpreter.language import ast


def acts(sentences):
    """The actions of an effect's steps, sentence by sentence, in order
    ("Put it into your board.": the put)."""
    for sentence in sentences:
        for link in sentence.args:
            step = link.args[0]
            if isinstance(step, ast.Step) and step.form == "act":
                yield step.args[2]


def placement_checks(sentences) -> list[Callable]:
    """What makes an effect that places a card at a place possible: for each
    "Place X ... at PLACE" step, that some place is there to choose ("at a
    Front ahead of your Position" with no Front ahead). An action or an
    exchange whose effect could not place its card cannot be taken, as a
    target that is not there cannot be chosen."""
    checks = []
    for action in acts(sentences):
        if getattr(action, "form", None) == "put_at":
            place = compile_selector(action.args[3], lambda m, f: f.locals["you"])
            if place.at_least is not None:      # stops at the first place found
                checks.append(lambda m, f, place=place: place.at_least(m, f, 1))
            else:
                checks.append(lambda m, f, place=place: bool(place.candidates(m, f)))
    return checks


# the steps whose cards a "that many" after them counts (those they acted on)
_COUNTED = frozenset({"discard", "destroy", "move", "put", "return", "return_joined", "add",
                      "shuffle_cards", "exhaust", "ready", "rest"})


def _says_that_many(sentences) -> bool:
    return any(node.form == "event_amount" for node in ast.walk_all(tuple(sentences)))


class MovingSteps:
    """The StepCompiler's steps that move, show and play cards."""

    _counting = False       # these sentences say "that many" (counting_cards)

    @contextlib.contextmanager
    def counting_cards(self, sentences):
        """ "Discard your hand, then draw that many cards": where sentences
        say "that many", each step on cards counts the cards it acted on (as
        the log says: a card a replacement kept where it was is not one), and
        "that many" after it is that number (``compile_amount``)."""
        outer, self._counting = self._counting, _says_that_many(sentences)
        token = NAMED_NUMBERS.set(NAMED_NUMBERS.get())
        try:
            yield
        finally:
            NAMED_NUMBERS.reset(token)
            self._counting = outer

    def counted_step(self, step: ast.Step) -> None:
        if not (self._counting and step.form == "act" and step.args[2].form in _COUNTED):
            self.step(step)
            return
        since = f"_since{len(self.e.program.instructions)}"

        def mark(m, f):
            f.locals[since] = len(m.state.log)
            f.locals["#that_many"] = 0
        self.e.emit_local(mark)
        self.step(step)

        def count(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else (() if it is None else (it,))
            acted = m.cards_acted_on(f.locals.pop(since))
            f.locals["#that_many"] = sum(1 for card in cards if card in acted)
        self.e.emit_local(count)
        NAMED_NUMBERS.set(NAMED_NUMBERS.get() | {"that many cards"})

    def do_draw(self, action, who):
        count = compile_amount(action.args[0], action)

        def draw(m, f):
            f.locals["did"] = m.draw(who(m, f), count(m, f)) > 0
        self.e.emit(draw)

    def do_search(self, action, who):
        """"Search your deck for a Being": choose one of the cards there."""
        zone = compile_zone(action.args[0], who)
        self.select(action.args[1], who, who, "choose a card", zone)

        def did(m, f):
            f.locals["did"] = f.locals.get("it") not in (None, ())
        self.e.emit(did)

    def do_attach(self, action, who):
        """"Attach this to a Character you control": the card joins the
        chosen card's zone, attached to it (it leaves play with it)."""
        self.select(action.args[0], who)
        store = f"_attach{len(self.e.program.instructions)}"

        def keep(m, f):
            f.locals[store] = f.locals.get("it")
        self.e.emit(keep)
        self.select(action.args[1], who, who, "choose a card to attach to")

        def attach(m, f):
            host = f.locals.get("it")
            if isinstance(host, tuple):
                host = host[0] if host else None
            cards = f.locals.pop(store, None)
            cards = cards if isinstance(cards, tuple) else ((cards,) if cards is not None else ())
            f.locals["did"] = host is not None and bool(cards)
            if host is not None:
                for card in cards:
                    m.attach(card, host)
            f.locals["it"] = cards[0] if len(cards) == 1 else cards
        self.e.emit(attach)

    def do_draw_until(self, action, who):
        """"Each player draws until they have 5 cards in hand"."""
        count = compile_amount(action.args[1], action)

        def draw(m, f):
            player = who(m, f)
            missing = count(m, f) - len(m.hand_of(player))
            f.locals["did"] = missing > 0 and m.draw(player, missing) > 0
        self.e.emit(draw)

    def do_use(self, action, who):
        """ "Each player uses each Spell they control at this Room": each
        card in turn, the next one chosen by the player while several are
        left; each is used (activated, then resolved) before the next. A
        nullified card is not used."""
        selection = compile_selector(action.args[0], who)
        store = f"_use{len(self.e.program.instructions)}"
        used_key = store + "+"

        def use(m, f):
            used = f.locals.get(used_key, ())
            if store in f.locals:
                card = f.locals.pop(store)
            else:
                left = [c for c in selection.candidates(m, f)
                        if c not in used and not m.has_status(c, "nullified")]
                if not left:
                    f.locals.pop(used_key, None)
                    f.locals["did"] = bool(used)
                    return None
                if len(left) > 1:
                    return m.ask(f, who(m, f), "order", "use which card next", tuple(left),
                                 store, tuple(m.card_label(c) for c in left))
                card = left[0]
            f.locals[used_key] = used + (card,)
            m.use_card(card)
            return JUMPED
        self.e.emit(use)

    def do_put_at(self, action, who):
        """ "Place it face down in your board at a Room ...": into the
        zone, attached to the chosen place."""
        selector, face, zone, place = action.args
        self.place_at(selector, face == "face up", compile_zone(zone, who), place, who)

    def place_at(self, selector, up: bool, key, place, who, chooser=None,
                 prompt: str = "choose a card", default_zone=None) -> None:
        """The cards chosen go to the zone (``key``), attached to the place
        chosen ("it" is them)."""
        self.select(selector, who, chooser, prompt, default_zone)
        store = f"_place{len(self.e.program.instructions)}"

        def keep(m, f):
            f.locals[store] = f.locals.get("it")
        self.e.emit(keep)
        self.select(place, who, who, "choose where to place it")

        def put(m, f):
            host = f.locals.get("it")
            if isinstance(host, tuple):
                host = host[0] if host else None
            cards = f.locals.pop(store, None)
            cards = cards if isinstance(cards, tuple) else ((cards,) if cards is not None else ())
            f.locals["did"] = host is not None and bool(cards)
            if host is not None:
                for card in cards:
                    m.place_at(card, key(m, f), host, up)
            f.locals["it"] = cards[0] if len(cards) == 1 else cards
        self.e.emit(put)

    def do_gain_stat_values(self, action, who):
        """ "Gain the moves of it": 1 of the counter named by each value of a
        list stat; for an item with alternatives ("Jump/Punch") the player
        chooses one."""
        stat, selector = action.args
        self.select(selector, who)
        store = f"_values{len(self.e.program.instructions)}"

        def gain(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            items = [item for c in cards for item in (m.stat_value(c, stat) or ())]
            index = f.locals.get(store + "#", 0)
            player = who(m, f)
            if store in f.locals:
                m.gain_counter(f, player, f.locals.pop(store), 1)
                index += 1
            while index < len(items):
                item = items[index]
                names = item if isinstance(item, tuple) else (item,)
                if len(names) > 1:
                    f.locals[store + "#"] = index
                    return m.ask(f, player, "choose", "choose a move", tuple(names), store,
                                 tuple(names))
                m.gain_counter(f, player, names[0], 1)
                index += 1
            f.locals.pop(store + "#", None)
            f.locals["did"] = bool(items)
            return None
        self.e.emit(gain)

    def do_compare(self, action, who):
        """"Compare X against Y by its power plus ...": the number read for
        each side with "it" that side; "it" is then the lower one (none on a
        tie, and "if you do" reads false)."""
        first, second, measure = action.args
        value = compile_measure(measure)
        label = _leading_stat(measure)
        keep = f"_cmp{len(self.e.program.instructions)}"
        self.select(first, who, who, "choose a card")

        def hold(m, f):
            f.locals[keep] = f.locals.get("it")
        self.e.emit(hold)
        self.select(second, who, who, "choose a card")

        def compare(m, f):
            one = _one_card(f.locals.pop(keep, None))
            other = _one_card(f.locals.get("it"))
            f.locals["did"] = False
            f.locals["it"] = ()
            if one is None or other is None:
                return None
            totals = []
            for card in (one, other):
                f.locals["it"] = card
                totals.append(value(m, f))
            m.compared(one, totals[0], other, totals[1], label)
            f.locals["it"] = ()
            if totals[0] != totals[1]:
                f.locals["it"] = one if totals[0] < totals[1] else other
                f.locals["did"] = True
            return None
        self.e.emit(compare)

    def do_draw_measured(self, action, who):
        count = compile_measure(action.args[0])

        def draw(m, f):
            f.locals["did"] = m.draw(who(m, f), count(m, f)) > 0
        self.e.emit(draw)

    def hand(self, who: Callable) -> Callable:
        return lambda m, f: (m.game.hand, who(m, f))

    def do_discard(self, action, who):
        self.select(action.args[0], who, who, "discard a card", self.hand(who))
        quiet = "quietly" in getattr(self, "_ways", ())

        def discard(m, f):
            # the cards of one step together (a replacement may take them all)
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            m.quiet = quiet
            try:
                m.discard_cards(cards)
            finally:
                m.quiet = False
            f.locals["did"] = did_all(f, cards)
        self.e.emit(discard)

    def do_discard_down(self, action, who):
        limit = compile_amount(action.args[0], action)
        store = f"_down{len(self.e.program.instructions)}"

        def discard_down(m, f):
            player = who(m, f)
            hand = m.hand_of(player)
            if store in f.locals:
                m.discard(f.locals.pop(store))
                f.locals["did"] = True
                hand = m.hand_of(player)
            if len(hand) <= limit(m, f):
                return None
            return m.ask(f, player, "discard", "discard a card", tuple(hand), store,
                         tuple(m.card_label(c) for c in hand))
        self.e.emit(discard_down)

    def _to_destination(self, action, who, selector, destination):
        where = self.destination(destination, who)
        slots = self.slot_choice(destination, who, where)

        def put(m, f, card):
            zone, top, face = where(m, f, card)
            m.move(card, zone, top=top, face_up=face, slot=m.wanted_slot(f, card))
        holds = getattr(self, "_while", None)
        if "one_at_a_time" in getattr(self, "_ways", ()) or holds is not None:
            if slots is not None:
                raise unsupported(destination, "choosing slots one card at a time")
            self.one_at_a_time(selector, who, put, holds)
            return
        self.select(selector, who, who)    # "Each player moves a card ...": each chooses
        if "in_any_order" in getattr(self, "_ways", ()):
            self.in_any_order(who, destination)
        if slots is not None:
            self.e.emit(slots)
        self.each_chosen(put)
        if slots is not None:
            self.e.emit(lambda m, f: (f.locals.pop("#slots", None), None)[1])

    def slot_choice(self, dest: ast.Destination, who: Callable, where: Callable):
        """The instruction choosing the slot each card takes, for a zone of
        slots whose player chooses the slot ("a card entering it takes the
        slot its player chooses") or a destination "next to" cards (only a
        slot paired with one of them); None when the zone takes the first
        free slot."""
        if dest.form not in ("to_zone", "to_zone_next_to") or dest.args[0].form == "zone_slot":
            return None
        decl = self.game.rules.zones.get(dest.args[0].args[1])
        if decl is None or decl.slots is None:
            if dest.form == "to_zone_next_to":
                raise unsupported(dest, "\"next to\" cards outside a zone of slots")
            return None
        near = compile_selector(dest.args[1], who) if dest.form == "to_zone_next_to" else None
        if near is not None and not decl.paired_with and not any(
                z.paired_with == decl.name for z in self.game.rules.zones.values()):
            raise unsupported(dest, f'"next to" cards: the {decl.name} is paired with no zone')
        if not decl.slot_chosen and near is None:
            return None
        store = f"_slot{len(self.e.program.instructions)}"
        zone_of = (lambda m, f, card: where(m, f, card)[0])

        def choose(m, f):
            return m.choose_slots(f, store, zone_of, near, decl.slot_chosen)
        return choose

    def do_put_back(self, action, who):
        """ "Put them back (in any order)": each card on top of the zone it
        is in now (the cards looked at on top of a deck: reordered)."""
        self.select(action.args[0], who, who)
        if "in_any_order" in getattr(self, "_ways", ()):
            self.in_any_order(who, None)

        def back(m, f, card):
            m.move(card, m.state.cards[card].zone, top=True)
        self.each_chosen(back)

    def in_any_order(self, who: Callable, destination) -> None:
        """The chosen cards ("it") go one by one in the order their player
        picks: asked for the next card while two or more are left. On top of
        a zone, the last one put ends on top."""
        store = f"_order{len(self.e.program.instructions)}"
        where = "on top" if destination is None or destination.form != "to_bottom" \
            else "on the bottom"

        def order(m, f):
            it = f.locals.get("it")
            left = list(it) if isinstance(it, tuple) else []
            done = f.locals.pop(store + "+", ())
            if store in f.locals:
                done = done + (f.locals.pop(store),)
            left = [c for c in left if c not in done]
            if len(left) <= 1:
                if done:
                    f.locals["it"] = done + tuple(left)
                return None
            f.locals[store + "+"] = done
            return m.ask(f, who(m, f), "target",
                         f"the card to put next ({where}: the last one put ends {where})",
                         tuple(left), store, tuple(m.card_label(c) for c in left))
        self.e.emit(order)

    def do_move(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

    def do_put(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

    def do_return(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

    def do_return_joined(self, action, who):
        """ "Return this Creature and each Aura attached to it to its owner's
        hand": the first's cards are picked, then the second's ("it": the
        first's), and all go (as "Destroy A and B" does)."""
        first, second, destination = action.args
        both = ast.Selector("joined", (first, second), action.span)
        self._to_destination(action, who, both, destination)

    def do_add(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

    def destination(self, dest: ast.Destination, who: Callable) -> Callable:
        form = dest.form
        if form == "to_card":
            raise unsupported(dest, "putting a card onto another card")
        zone = compile_zone(dest.args[0], who)
        face = dest.args[1] if len(dest.args) > 1 and form != "to_zone_next_to" else None
        face_up = None if face is None else face == "face up"
        top = form != "to_bottom"

        # "to its owner's hand" said of several cards ("Return each Creature
        # to its owner's hand"): each card to its own owner's (controller's) zone
        whose = dest.args[0].args[0].form if dest.args[0].form != "zone_slot" else None
        per_card = {"the": "owner", "owners": "owner", "controllers": "controller"}.get(whose)
        if whose == "their" and getattr(self, "_no_subject", False):
            # no player is written doing the step: "their" is the cards' owner's
            per_card = "owner"

        def where(m, f, card):
            key = zone(m, f)
            if per_card is not None and key[0] in m.rules.zones and key[1] >= 0:
                key = (key[0], getattr(m.state.cards[card], per_card))
            up = face_up
            if up is None:
                up = m.rules.zones[key[0]].visibility == "public"
            return key, top, up
        return where

    def play_at(self, action, who):
        """ "You may play a Shoe from your hand on this Room": in
        a game whose cards are not played by an action, the card is put face
        up at the place, in the zone that holds the cards at places."""
        selector, destination = action.args
        played = any(a.event == "played" for a in self.game.rules.actions)
        if destination.form != "to_card" or played:
            raise unsupported(action, "playing a card onto a place (in a game whose cards "
                              'are played by an action "counts as: played")'
                              if destination.form == "to_card" else
                              "playing a card into a zone")
        zone = self.placed_zone(action, who)
        self.place_at(selector, True, zone, destination.args[0], who, who,
                      "choose a card to play", self.hand(who))

    def do_create_at(self, action, who):
        """ 'Create a "Clone" token face up at this Room': new tokens
        placed at the place chosen, in the zone that holds the cards at
        places ("it" is them)."""
        tokens, *face, place = action.args
        zone = self.placed_zone(action, who)
        self.select(place, who, who, "choose where to place it")
        self.do_create(ast.Action("create", (tokens, None), action.span), who,
                       zone=zone, face_up=face != ["face down"])

    def placed_zone(self, node, who):
        """The zone of the player doing the step that the rules file says
        "holds the cards at places" (a card put at a place, no zone named)."""
        zones = [z.name for z in self.game.rules.zones.values() if z.holds_placed]
        if len(zones) != 1:
            raise unsupported(node, "a card put at a place with no zone named (the rules "
                              'file says which zone "holds the cards at places")')
        return compile_zone(ast.ZoneRef("zone_ref", (ast.Possessive("bare", (), node.span),
                                                     zones[0]), node.span), who)

    def home_zone(self, node, who):
        """The zone a card is created in when none is named: the player's
        one zone in play ("Create a "Sprout" token" in Arcane Duel's
        battlefield); a game with several (a bench and an active spot) names
        it."""
        zones = [z.name for z in self.game.rules.zones.values()
                 if "in play" in z.roles and z.scope == "player"]
        if len(zones) != 1:
            raise unsupported(node, "a token created with no zone named in a game with "
                              f"{'no zone' if not zones else 'several zones'} in play",
                              f'name it: "Create ... in your {zones[0] if zones else "ZONE"}"')
        return compile_zone(ast.ZoneRef("zone_ref", (ast.Possessive("your", (), node.span),
                                                     zones[0]), node.span), who)

    def do_create(self, action, who, zone=None, face_up: bool = True):
        """ "Create two "Recruit" tokens in your board": new cards of a token
        definition, each entering the zone as any card would; "it" is them.
        With ``zone`` given (do_create_at), each is placed at the place
        chosen ("it") instead."""
        tokens, zone_ref = (*action.args, None)[:2]
        at_place = zone is not None
        if zone is None:
            # "Create a "Sprout" token": no zone named, the player's in play
            zone = compile_zone(zone_ref, who) if zone_ref is not None \
                else self.home_zone(action, who)
        if tokens.form != "tokens":
            raise unsupported(tokens, 'creating cards other than tokens (write: Create a '
                              '"NAME" token in ZONE)')
        quantity, name = tokens.args
        count = 1 if quantity.form == "one" else (
            quantity.args[0] if quantity.form == "count" else None)
        if count is None:
            raise unsupported(quantity, "this number of tokens")
        amount = compile_amount(count, quantity)
        definition = self.game.cards.get(name.name)
        if definition is None or not definition.token:
            raise unsupported(name, f'"{name.name}" is not a token (a cards file defines '
                              f'it as token "{name.name}")')

        def create(m, f):
            key = zone(m, f)
            owner = key[1] if key[1] >= 0 else who(m, f)
            host = None
            if at_place:
                host = f.locals.get("it")
                host = (host[0] if host else None) if isinstance(host, tuple) else host
                if host is None:                # no place to put them at
                    f.locals["did"] = False
                    return
            made = tuple(m.create_token(name.name, owner, key, host, face_up)
                         for _ in range(amount(m, f)))
            f.locals["it"] = made[0] if len(made) == 1 else made
            f.locals["did"] = bool(made)
        self.e.emit(create)

    def do_shuffle(self, action, who):
        zone = compile_zone(action.args[0], who)
        into = compile_zone(action.args[1], who) if len(action.args) > 1 else None

        def shuffle(m, f):
            key = zone(m, f)
            if into is not None:
                target = into(m, f)
                for card in list(m.state.zones.get(key, ())):
                    m.move(card, target, face_up=False)
                key = target
            m.shuffle(key)
            f.locals["did"] = True
        self.e.emit(shuffle)

    def do_shuffle_cards(self, action, who):
        """ "Shuffle the rest into your deck": the cards go into the zone,
        which is then shuffled."""
        into = compile_zone(action.args[1], who)
        self.select(action.args[0], who)

        def put(m, f, card):
            target = into(m, f)
            if m.state.cards[card].zone != target:     # "the rest" may be there already
                m.move(card, target, face_up=False)
        self.each_chosen(put)

        def shuffle(m, f):
            m.shuffle(into(m, f))
            f.locals["did"] = True
        self.e.emit(shuffle)

    def do_reveal(self, action, who):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: m.reveal(c))
        self.e.emit(_remember_seen)

    def do_look(self, action, who):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: m.reveal(c, who(m, f)))
        self.e.emit(_remember_seen)

    def do_choose(self, action, who):
        self.select(action.args[0], who, who)

        def did(m, f):
            f.locals["did"] = f.locals.get("it") not in (None, ())
        self.e.emit(did)

    def do_play(self, action, who):
        """Play a card: the game's action that counts as "played", without
        its cost, on each chosen card."""
        if len(action.args) > 1:
            self.play_at(action, who)
            return
        self.select(action.args[0], who, who, "choose a card to play", self.hand(who))
        program = self.game.play_program
        if program is None:
            raise unsupported(action, 'playing a card (no action "counts as: played")')
        paying = getattr(self, "_paying", False)

        def play(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            f.locals["did"] = did_all(f, cards)
            f.pc += 1
            for card in reversed(cards):
                m.state.frames.append(Frame(m.play_program_for(card, f.locals["you"],
                                                               paying) or program, 0,
                                            {"you": f.locals["you"], "it": card,
                                             "this": card}))
            return JUMPED
        self.e.emit(play)


def _remember_seen(m, f):
    """The cards just looked at or revealed, with when each entered its zone:
    "the rest" are those of them still there afterwards."""
    it = f.locals.get("it")
    cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
    f.locals["_seen"] = tuple((c, m.state.cards[c].entered) for c in cards)


def _one_card(chosen):
    """The card a selection chose (None when it chose none)."""
    if isinstance(chosen, tuple):
        return chosen[0] if chosen else None
    return chosen


def _leading_stat(measure: ast.Measure):
    """The stat a compared number starts from ("its power plus 2" is told as
    power), or None."""
    while measure.form in ("plus", "minus"):
        measure = measure.args[0]
    return measure.args[0] if measure.form == "its_stat" else None
