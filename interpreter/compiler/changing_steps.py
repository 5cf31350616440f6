"""Steps that change counters, cards and the game: add or put counters,
gain / lose / pay / set a counter, deal damage (in order: "and the rest
to"), destroy, exhaust, rest, ready, nullify, copy an effect ("Copy that
effect. You control the copy."), flip, flip a coin ("If heads" reads it),
win or lose the game, and statements that change cards for a while ("This
gets +20 AP until ...").
"""

from __future__ import annotations

from typing import Callable

from interpreter.compiler.modifiers import (ALL_DAMAGE, compile_duration, compile_lasting,
                                           statement_changes)
from interpreter.compiler.players import (_it_or_this, compile_owner, compile_player,
                                          counter_on_card, player_target)
from interpreter.compiler.program import Unsupported, unsupported
from interpreter.compiler.repeating_steps import other_than_changed
from interpreter.compiler.named_numbers import NAMED_NUMBERS
from interpreter.compiler.selectors import (compile_amount, compile_count, compile_measure,
                                          compile_selector, compile_stat_of)
from interpreter.errors import Problem
from interpreter.language import ast


def damageable(m, f) -> tuple:
    """The cards "any target" offers: in play, and damage can destroy them
    (``Views.is_damageable``)."""
    return tuple(c for c in m.in_play() if m.is_damageable(c))


class ChangingSteps:
    """The StepCompiler's steps on counters, damage and statuses."""

    def do_add_counter(self, action, who):
        """"Add 1 Charge to the current Quest": counters on each
        chosen card; a counter declared per player counts for the player
        who adds it (their markers on that card)."""
        n, counter, selector = action.args
        amount = compile_amount(n, action)
        decl = self.game.rules.counters.get(counter)
        if decl is not None and decl.scope == "player":
            self._counter_change(who, counter, amount, +1)
            return
        self.select(selector, who)
        per_player = decl is not None and decl.per_player
        event = f"add {counter}"
        replaced = event in self.game.player_events_replaced
        doing = self.e.program.name

        def add(m, f, c):
            player, n = who(m, f), amount(m, f)
            if replaced and m.replaced_for_player(event, player, n, doing, it=c):
                return      # "If you would add a Progress Marker to ..., ... instead"
            # "on cards, per player": the adding player's own on that card
            m.add_card_counter(c, counter_on_card(counter, player) if per_player else counter, n)
        self.each_chosen(add)

    def do_add_counter_again(self, action, who):
        """ "..., add 2 Progress Markers instead": in a replacement of adding
        counters, to the card the replaced event adds to ("it")."""
        if "the cards added to" not in NAMED_NUMBERS.get():
            raise unsupported(action, f'adding {action.args[1]} to no card (outside a '
                              'replacement of adding counters, say which: "to X")')
        it = ast.Selector("it", (), action.span)
        self.do_add_counter(ast.Action("add_counter", action.args + (it,), action.span), who)

    def do_choose_value(self, action, who, secretly: bool = False):
        """ "Each player chooses their Bid from 0 to 3": the player picks a
        number (options "0" ... "3"; one option, no question), kept in the
        value; "secretly": the other players are told only that they chose."""
        possessive, name, low, high = action.args
        decl = self.game.rules.counters.get(name)
        if decl is None or not decl.value or possessive.form not in ("their", "your"):
            raise unsupported(action, f'choosing {name} (a number a player chooses is kept in '
                              f'a value of theirs: value {name}: per player)')
        if secretly and not decl.secret:
            raise unsupported(action, f'choosing {name} in secret (declare it: value {name}: '
                              'per player, secret)')
        lowest, highest = compile_measure(low), compile_measure(high)
        store = f"_value{len(self.e.program.instructions)}"

        def ask(m, f):
            if store in f.locals:
                return None
            first = lowest(m, f)
            options = tuple(range(first, max(first, highest(m, f)) + 1))
            if len(options) == 1:
                f.locals[store] = options[0]
                return None
            return m.ask(f, who(m, f), "secret" if secretly else "number",
                         f"choose your {name}", options, store,
                         tuple(str(n) for n in options))
        self.e.emit(ask)

        def keep(m, f):
            m.set_counter(who(m, f), name, f.locals.pop(store))
            f.locals["did"] = True
        self.e.emit(keep)

    def do_choose_secretly(self, action, who):
        self.do_choose_value(action, who, secretly=True)

    def do_reveal_value(self, action, who):
        """ "Each player reveals their Bid": its number is told to all."""
        possessive, name = action.args
        decl = self.game.rules.counters.get(name)
        if decl is None or not decl.value or possessive.form not in ("their", "your"):
            raise unsupported(action, f'revealing {name} (only a value of the player is '
                              'revealed)')

        def reveal(m, f):
            player = who(m, f)
            m.value_revealed(player, name)
            f.locals["did"] = True
        self.e.emit(reveal)

    def do_prevent_damage(self, action, who):
        """ "Prevent that damage": in a replacement of damage, which already
        takes the damage's place, it says so and does nothing more."""
        if "that damage" not in NAMED_NUMBERS.get():
            raise unsupported(action, '"prevent that damage" outside a replacement of damage')

        def prevented(m, f):
            f.locals["did"] = True
        self.e.emit(prevented)

    def do_remove_counter(self, action, who):
        """"Remove 2 damage from a Creature": never below 0."""
        n, counter, selector = action.args
        self._remove_counter(action, who, counter, selector, compile_amount(n, action))

    def do_remove_players_counter(self, action, who):
        """ "Remove 2 of your opponent's Progress Markers from X": that
        player's own, of a counter each player has on a card; never below 0."""
        n, possessive, counter, selector = action.args
        decl = self.game.rules.counters.get(counter)
        if decl is None or not decl.per_player:
            raise unsupported(action, f"a player's own {counter} (only a counter "
                              '"on cards, per player" is each player\'s)')
        owner = compile_owner(possessive, who)
        amount = compile_amount(n, action)
        self.select(selector, who)

        def remove(m, f, c):
            mine = counter_on_card(counter, owner(m, f))
            m.add_card_counter(c, mine, -min(m.state.cards[c].counter(mine), amount(m, f)))
        self.each_chosen(remove)

    def do_remove_held(self, action, who):
        """ "Remove 2 Jump from your Rival's Cache": that player loses them
        (a counter declared "held in the Cache")."""
        n, counter, possessive, holder = action.args
        decl = self.game.rules.counters.get(counter)
        if decl is None or decl.scope != "player" or decl.held_in is None or \
                decl.held_in.lower() != holder.lower():
            raise unsupported(action, f'{counter} in {holder} (declare the counter '
                              f'per player, "held in {holder}")')
        self._counter_change(compile_owner(possessive, who), counter,
                             compile_amount(n, action), -1)

    def do_remove_all_counters(self, action, who):
        counter, selector = action.args
        self._remove_counter(action, who, counter, selector, None)

    def do_remove_up_to(self, action, who):
        """ "Remove up to 3 damage from chosen character": the acting player
        chooses how many, from 0 to the amount (at most what the card has;
        no question when it has none)."""
        n, counter, selector = action.args
        amount = compile_amount(n, action)
        self._remove_counter(action, who, counter, selector, amount, ask=True)

    def _remove_counter(self, action, who, counter, selector, amount, ask=False):
        decl = self.game.rules.counters.get(counter)
        if decl is not None and (decl.scope == "player" or decl.per_player):
            raise unsupported(action, f'removing {counter} (a counter of players: '
                              '"lose" it)' if decl.scope == "player" else
                              f'removing {counter} (each player has their own on a card)')
        if ask and compile_selector(selector, who).how != "one" and selector.form not in (
                "this", "it", "that", "named"):
            raise unsupported(action, '"up to" removed from several cards at once')
        self.select(selector, who)
        if ask:
            store = f"_upto{len(self.e.program.instructions)}"

            def remove_chosen(m, f):
                it = f.locals.get("it")
                card = (it[0] if it else None) if isinstance(it, tuple) else it
                if card is None:
                    return None
                if store in f.locals:
                    taken = f.locals.pop(store)
                    m.add_card_counter(card, counter, -taken)
                    f.locals["did"] = taken > 0
                    return None
                most = min(m.state.cards[card].counter(counter), amount(m, f))
                if most <= 0:
                    return None
                return m.ask(f, who(m, f), "number", f"remove how many {counter}",
                             tuple(range(most + 1)), store,
                             tuple(str(k) for k in range(most + 1)))
            self.e.emit(remove_chosen)
            return

        def remove(m, f, c):
            on = m.state.cards[c].counter(counter)
            m.add_card_counter(c, counter, -(on if amount is None else min(on, amount(m, f))))
        self.each_chosen(remove)

    def do_put_counter(self, action, who):
        """ "Put 2 Growth on a Creature you control": "Add 2 Growth to ...".
        "Put 2 damage counters on it": its damage goes up (no damage is
        dealt), and a card whose damage reaches its lethal stat is
        destroyed at once, as by dealt damage."""
        self.do_add_counter(ast.Action("add_counter", action.args, action.span), who)
        if action.args[1] == "damage":
            if not self.game.lethal_stats:
                raise unsupported(action, "damage put on cards in a game where damage destroys "
                                  'nothing (no stat says "a card with damage at least its X is '
                                  'destroyed")')
            self.e.emit(lambda m, f: m.lethal_check())

    def _counter_change(self, who, counter, amount, sign, pay=False):
        decl = self.game.rules.counters.get(counter)
        # a counter kept per place gains for the place of the effect
        per_place = sign > 0 and not pay and decl is not None and decl.per_place is not None
        if pay and getattr(self, "card_cost", False):
            # an action's cost for its card: the card's cost changes apply
            printed = amount
            amount = (lambda m, f: m.cost_of(f.locals.get("it"), counter, printed(m, f)))

        def change(m, f):
            player = who(m, f)
            n = max(0, amount(m, f))      # a cost never goes below 0
            have = m.state.counter(player, counter)
            if pay and n > 0 and not m.can_pay(player, counter, n):
                f.locals["did"] = False
                return None
            if pay and have < n:
                # paying more than the player has: the replacement that
                # allows it ("... than they have, ... instead") runs next
                f.locals["did"] = True
                m.replaced_for_player(f"pay more {counter}", player, n, excess=n - have)
                return None
            if per_place:
                m.gain_counter(f, player, counter, n)
            else:
                m.set_counter(player, counter, have + sign * n)
            f.locals["did"] = True
            return None
        self.e.emit(change)

    def do_gain(self, action, who):
        n, counter = action.args
        self._counter_change(who, counter, compile_amount(n, action), +1)

    def do_gain_measured(self, action, who):
        counter, measure = action.args
        self._counter_change(who, counter, compile_measure(measure), +1)

    def do_lose(self, action, who):
        n, counter = action.args
        self._counter_change(who, counter, compile_amount(n, action), -1)

    def do_lose_measured(self, action, who):
        counter, measure = action.args
        self._counter_change(who, counter, compile_measure(measure), -1)

    def do_pay(self, action, who):
        n, counter = action.args
        self._counter_change(who, counter, compile_amount(n, action), -1, pay=True)

    def do_set_counter(self, action, who):
        """ "The turn player sets their Mana to 5"."""
        possessive, counter, n = action.args
        owner = compile_owner(possessive, who)
        amount = compile_amount(n, action)

        def set_it(m, f):
            player = owner(m, f)
            if m.state.counter(player, counter) != amount(m, f):
                m.set_counter(player, counter, amount(m, f))
            f.locals["did"] = True
        self.e.emit(set_it)

    def do_set_counter_to(self, action, who):
        """ "The turn player sets their Mana to their Mana Gems"."""
        possessive, counter, other_possessive, other = action.args
        owner = compile_owner(possessive, who)
        other_owner = compile_owner(other_possessive, who)

        def set_it(m, f):
            player, value = owner(m, f), m.state.counter(other_owner(m, f), other)
            if m.state.counter(player, counter) != value:
                m.set_counter(player, counter, value)
            f.locals["did"] = True
        self.e.emit(set_it)

    def do_set_counter_stat(self, action, who):
        """ "sets their Bid to the cost of the top card of their deck"
        (0 when there is no such card)."""
        possessive, counter, stat, selector = action.args
        owner = compile_owner(possessive, who)
        value = compile_stat_of(stat, selector, who)

        def set_it(m, f):
            player, number = owner(m, f), value(m, f)
            if m.state.counter(player, counter) != number:
                m.set_counter(player, counter, number)
            f.locals["did"] = True
        self.e.emit(set_it)

    def do_pay_measured(self, action, who):
        counter, measure = action.args
        self._counter_change(who, counter, compile_measure(measure), -1, pay=True)

    def damage_source(self) -> Callable:
        """The card that deals a step's damage: the card whose text it is (in
        a rules file's action: the card acting)."""
        if self.e.program.name.startswith("action:"):
            return lambda m, f: _it_or_this(f)
        return lambda m, f: f.locals.get("this")

    def _deal(self, action, who, amount, target, per_card=False):
        source = self.damage_source()
        if isinstance(target, ast.Node) and target.form in ("any_target", "card_or_player"):
            if getattr(self, "_rest", ()) or getattr(self, "_excess", None) is not None:
                raise unsupported(action, 'the damage past what a card needs ("the rest", '
                                  '"excess") when a player may be chosen instead')
            self._deal_any(action, amount, damageable if target.form == "any_target" else
                           compile_selector(target.args[0], who).candidates)
            return
        if isinstance(target, ast.Player):
            self.game.check_player_damage(action)

            def deal_to(victim, battle=self.e.by_rules):
                def deal(m, f):
                    f.locals["did"] = True
                    m.damage_player(victim(m, f), amount(m, f), source(m, f), battle=battle)
                self.e.emit(deal)
            if target.form in ("each_player", "each_rival"):
                # "Deal 2 damage to each player": one player after another,
                # from the turn player, each damage replaceable on its own;
                # state rules and triggers look once all are dealt (players
                # brought to 0 together lose together)
                def together(m, f):
                    f.locals["#together"] = True
                self.e.emit(together)
                self.game.together_steps = True
                self.for_each_player(deal_to, opponents=target.form == "each_rival")

                def apart(m, f):
                    del f.locals["#together"]
                self.e.emit(apart)
            elif target.form == "any_player":
                # "Deal 2 damage to a player": the acting player picks one
                store = self._ask_target(None)
                deal_to(lambda m, f: -1 - f.locals.pop(store))
            else:
                deal_to(compile_player(target))
            return
        if per_card:
            # read for each damaged card, that card being "it"
            measured = amount

            def amount(m, f, c=None):
                it = f.locals.get("it")
                f.locals["it"] = c
                try:
                    return measured(m, f)
                finally:
                    f.locals["it"] = it
        else:
            # the amount is read before the target is chosen: "its" in "damage
            # equal to its AP to a Being" is the card before the target
            measured = amount

            def measure(m, f):
                f.locals["_amount"] = measured(m, f)
            self.e.emit(measure)
            amount = (lambda m, f, c=None: f.locals.get("_amount", 0))
        if self.e.program.name.startswith("action:"):
            # the acting card, read before "it" becomes the cards damaged
            # (the defender is not the source of the attacker's damage)
            acting, kept = source, f"_source{len(self.e.program.instructions)}"
            self.e.emit(lambda m, f: f.locals.__setitem__(kept, acting(m, f)))
            source = (lambda m, f: f.locals.get(kept))
        self.select(target, who, prompt="choose a card to damage")
        rest = getattr(self, "_rest", ())
        if rest:
            self._deal_in_order(action, who, amount, source, rest)
            return
        excess = getattr(self, "_excess", None)
        battle = self.e.by_rules
        if excess is not None:
            possessive, counter = excess
            owner = compile_owner(possessive, lambda m, f: m.state.cards[_it_or_this(f)].controller)

            def deal_with_excess(m, f, c):
                over = m.damage_card(c, amount(m, f, c), battle, source(m, f))
                if over > 0:
                    player = owner(m, f)
                    m.set_counter(player, counter, m.state.counter(player, counter) - over)
            self.each_chosen(deal_with_excess)
            return
        self.each_chosen(lambda m, f, c: m.damage_card(c, amount(m, f, c), battle, source(m, f)))

    def _deal_in_order(self, action, who, amount, source, rest) -> None:
        """ "Deal 5 damage to it and the rest to another defending card
        and the rest to your opponent": the damage past what the card needs to
        be destroyed (its excess) goes to the next card or player named, in
        order; a card the step names twice, or out of play, is passed over.
        Battle damage in a rules file's action, as `_deal` says."""
        battle = self.e.by_rules
        targets = []
        for target in rest:
            if isinstance(target, ast.Player):
                self.game.check_player_damage(action)
                targets.append((True, compile_player(target)))
            elif isinstance(target, ast.Selector):
                targets.append((False, compile_selector(target, who).candidates))
            else:
                raise unsupported(target, '"and the rest to" a target that is not a card '
                                  "or a player")

        def deal_in_order(m, f, card):
            dealer = source(m, f)
            over = m.damage_card(card, amount(m, f, card), battle, dealer)
            done = {card}
            for to_player, target in targets:
                if over <= 0:
                    return
                if to_player:
                    m.damage_player(target(m, f), over, dealer, battle=battle)
                    return
                for other in target(m, f):
                    if over > 0 and other not in done and \
                            m.state.cards[other].zone[0] in m.game.in_play:
                        done.add(other)
                        over = m.damage_card(other, over, battle, dealer)
        self.each_chosen(deal_in_order)

    def _deal_any(self, action, amount, cards) -> None:
        """ "Deal 2 damage to any target": the acting player picks a card in
        play that damage can destroy (``Views.is_damageable``) or a player
        (the players last among the options); "to target Creature or
        player": one of the cards the words name (``cards``) or a player."""
        self.game.check_player_damage(action)
        store = self._ask_target(cards)
        battle = self.e.by_rules
        source = self.damage_source()

        def deal(m, f):
            chosen = f.locals.pop(store)
            f.locals["did"] = True
            if chosen < 0:
                m.damage_player(-1 - chosen, amount(m, f), source(m, f), battle=battle)
            else:
                m.damage_card(chosen, amount(m, f), battle, source(m, f))
        self.e.emit(deal)

    def _ask_target(self, cards) -> str:
        """Emit the acting player's choice of a player or, with ``cards`` (a
        function of the candidates), a card. The local the choice is kept
        in: a card is its id, a player ``-1 - player``."""
        store = f"_target{len(self.e.program.instructions)}"

        def choose(m, f):
            if store in f.locals:
                return None
            in_play = tuple(cards(m, f)) if cards else ()
            players = tuple(m.seat_order())
            return m.ask(f, f.locals["you"], "target",
                         "choose a target" if cards else "choose a player",
                         in_play + tuple(-1 - p for p in players), store,
                         tuple(m.card_label(c) for c in in_play) +
                         tuple(f"player {p + 1}" for p in players))
        self.e.emit(choose)
        return store

    def _excess_suffix(self, action):
        suffixes = getattr(self, "_suffixes", ())
        found = [s for s in suffixes if s.form == "excess_to"]
        self._excess = found[0].args if found else None
        self._rest = tuple(s.args[0] for s in suffixes if s.form == "rest_to")

    def do_deal(self, action, who):
        n, target = action.args
        self._excess_suffix(action)
        self._deal(action, who, compile_amount(n, action), target)

    def do_deal_divided(self, action, who):
        """ "Deal 4 damage divided as you choose among up to 2 Creatures"."""
        n, target = action.args
        selection = compile_selector(target, who)
        if selection.how == "all" or selection.given:
            raise unsupported(target, 'damage divided among cards the words name all of ("each '
                              'Creature"): write "among any number of Creatures"')
        # how many different cards may have a share: "up to 2", "any number of"
        most = (lambda m, f: 1) if selection.how == "one" else selection.count
        self._divide(who, compile_amount(n, action), selection.candidates, most, "card")

    def do_deal_divided_targets(self, action, who):
        """ "Deal 5 damage divided as you choose among any number of targets"
        / "among up to 3 targets": the cards "any target" offers and the
        players (a player is ``-1 - player``, as `_ask_target` keeps it)."""
        self.game.check_player_damage(action)
        most = compile_amount(action.args[1], action) if len(action.args) > 1 else \
            (lambda m, f: 10 ** 6)

        def targets(m, f):
            return damageable(m, f) + tuple(-1 - p for p in m.seat_order())
        self._divide(who, compile_amount(action.args[0], action), targets, most, "target")

    def _divide(self, who, amount, candidates, most, noun: str) -> None:
        """Damage divided as the acting player chooses: each point given to
        one of the candidates (at most ``most`` different ones), then each
        card or player dealt its share at once, in the order first given.
        "it" is the cards dealt a share."""
        source = self.damage_source()
        store, key = f"_part{len(self.e.program.instructions)}", \
            f"_shares{len(self.e.program.instructions)}"

        def divide(m, f):
            if key not in f.locals:
                f.locals[key] = (amount(m, f),)          # (points left, target, n, target, n ...)
            left, *shares = f.locals[key]
            if store in f.locals:
                chosen = f.locals.pop(store)
                at = shares[0::2].index(chosen) * 2 if chosen in shares[0::2] else None
                if at is None:
                    shares += [chosen, 1]
                else:
                    shares[at + 1] += 1
                left -= 1
                f.locals[key] = (left, *shares)
            chosen = shares[0::2]
            options = [c for c in candidates(m, f) if c in chosen or len(chosen) < most(m, f)]
            if left > 0 and options:
                return m.ask(f, who(m, f), "choose",
                             f"choose a {noun} to deal 1 of the {left} damage left to",
                             tuple(options), store,
                             tuple(m.card_label(c) if c >= 0 else f"player {-c}" for c in options))
            del f.locals[key]
            f.locals["it"] = tuple(c for c in chosen if c >= 0)
            f.locals["did"] = bool(chosen)
            for target, share in zip(shares[0::2], shares[1::2]):
                if target < 0:
                    m.damage_player(-1 - target, share, source(m, f))
                else:
                    m.damage_card(target, share, False, source(m, f))
            return None
        self.e.emit(divide)

    def do_deal_measured(self, action, who):
        measure, target = action.args
        self._excess_suffix(action)
        self._deal(action, who, compile_measure(measure), target)

    def do_deal_each_measured(self, action, who):
        """ "Deal damage to each opposing character equal to their Lore":
        each damaged card is "it" while its amount is read."""
        target, measure = action.args
        if not isinstance(target, ast.Selector):
            raise unsupported(action, "damage to players equal to a number read per player")
        self._excess_suffix(action)
        self._deal(action, who, compile_measure(measure), target, per_card=True)

    def do_destroy(self, action, who):
        # the card destroying (read before "it" becomes the cards destroyed)
        source = self.damage_source()
        by = f"_by{len(self.e.program.instructions)}"
        self.e.emit(lambda m, f: f.locals.__setitem__(by, source(m, f)))
        self.select(action.args[0], who, prompt="choose a card to destroy")
        self.each_chosen(lambda m, f, c: m.destroy(c, f.locals[by]))

    def _status(self, action, who, status, on):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: m.set_status(c, status, on))

    def do_exhaust(self, action, who):
        self._status(action, who, verb_status(self.game.rules, action), True)

    def do_rest(self, action, who):
        self._status(action, who, verb_status(self.game.rules, action), True)

    def do_nullify(self, action, who):
        if action.args[0].form == "that_effect":
            def nullify_entry(m, f):
                f.locals["did"] = m.nullify_entry(f.locals.get("responding_to"))
            self.e.emit(nullify_entry)
            return
        lasting = [s for s in getattr(self, "_suffixes", ()) if s.form == "lasting"]
        if lasting:
            # "Nullify it until the end of your Rival's turn": a status modifier
            until = compile_duration(lasting[0].args[0])
            self.select(action.args[0], who)
            self.each_chosen(lambda m, f, c: m.prevented("be nullified", c) or m.add_modifier(
                c, "status", "nullified", 1, f.locals.get("this"), until(m, f, c)))
            return
        self._status(action, who, "nullified", True)

    def do_copy_that_effect(self, action, who):
        """ "Copy that effect" (responding to it): the effect waiting to
        resolve resolves again now, the copier its controller, with choices
        of its own; nothing is copied once it has left the stack."""
        self._copies = True

        def copy(m, f):
            entry = m.entry_of(f.locals.get("responding_to"))
            f.locals["did"] = entry is not None and bool(entry[1])
            if not f.locals["did"]:
                return None
            return m.copy_effect(f, (entry[1],), entry[2], who(m, f), entry[5])
        self.e.emit(copy)

    def do_copy_effect_of(self, action, who):
        """ "Copy the effect of a face-up Skill your Rival controls": the
        chosen card's effect (its plain text, which its kind says happens on
        an event of the card) resolves now, the copier its controller."""
        selector = action.args[0]
        kinds = [self.game.rules.kind(n.args[0]) for n in getattr(selector, "args", ())
                 if isinstance(n, ast.Noun) and n.form == "kind"]
        if not kinds or any(k is None or not k.text_event for k in kinds):
            raise unsupported(selector, "copying the effect of a card whose kind has no "
                              'effect of its plain text (its kind\'s "text happens: when '
                              'this is ..." line)')
        self._copies = True
        self.select(selector, who, prompt="choose a card whose effect to copy")

        def copy(m, f):
            it = f.locals.get("it")
            card = (it[0] if it else None) if isinstance(it, tuple) else it
            programs = m.game.effects.get(m.printed_name(card), ()) if card is not None else ()
            f.locals["did"] = bool(programs)
            if not programs:
                return None
            return m.copy_effect(f, tuple(programs), card, who(m, f))
        self.e.emit(copy)

    def controls_copy(self, step) -> None:
        """ "You control the copy.": says who controls the effect a copy step
        before it copied — its copier, "you"; anything else is not read."""
        if step.args[0].form != "you" or not getattr(self, "_copies", False):
            raise unsupported(step, '"controls the copy" other than "You control the copy." '
                              'after "Copy that effect"')

    def player_damage_prevented(self, step) -> None:
        """ "Prevent all damage that would be dealt to you this Move": the
        player is dealt no damage while it lasts (a modifier "reduce damage"
        on the player, by all of it; see Changes.damage_player)."""
        player, *suffixes = step.args
        if player.form in ("each_player", "each_rival") or player.form in ast.PLAYER_SETS:
            raise unsupported(player, "preventing the damage of several players (one: "
                              '"you", "your Rival")')
        until = compile_lasting(suffixes)
        who = compile_player(player)
        self.game.reduces_damage = True

        def protect(m, f):
            m.add_modifier(player_target(who(m, f)), "reduce", "damage", ALL_DAMAGE,
                           f.locals.get("this"), until(m, f))
        self.e.emit(protect)

    def do_gain_control(self, action, who):
        """ "Gain control of X [until ...]": each card chosen goes under the
        acting player's control (see Changes.take_control)."""
        lasting = [s for s in getattr(self, "_suffixes", ()) if s.form == "lasting"]
        until = compile_duration(lasting[0].args[0]) if lasting else None
        self.select(action.args[0], who)

        def take(m, f, card):
            end = until(m, f, card) if until is not None else None
            if m.take_control(card, who(m, f), end, f.locals.get("this")):
                f.locals["did"] = True
        self.each_chosen(take)

    def do_ready(self, action, who):
        self._status(action, who, verb_status(self.game.rules, action), True)

    def do_flip(self, action, who):
        self.select(action.args[0], who)
        up = len(action.args) < 2 or action.args[1] == "face up"
        self.each_chosen(lambda m, f, c: m.flip(c, up))

    def do_win(self, action, who):
        verb = getattr(self, "_verb_name", None)
        self.e.emit(lambda m, f: m.win(who(m, f), m.reason_of(f, verb)))

    def do_flip_coin(self, action, who, count=lambda m, f: 1):
        """ "Flip a coin", "Flip 2 coins": heads or tails from the game's
        seeded random numbers, the last kept for "If heads" / "If tails"
        later in the same text, the heads counted for "for each heads"."""
        def flip(m, f):
            heads = 0
            for _ in range(count(m, f)):
                side = ("heads", "tails")[m.state.rng.below(2)]
                heads += side == "heads"
                f.locals["#coin"] = side
                m.note(f"Player {who(m, f) + 1} flips a coin: {side}.")
            f.locals["#heads"] = heads
        self.e.emit(flip)

    def do_flip_coins(self, action, who):
        self.do_flip_coin(action, who, compile_amount(action.args[0], action))

    def do_lose_game(self, action, who):
        verb = getattr(self, "_verb_name", None)
        self.e.emit(lambda m, f: m.lose(who(m, f), m.reason_of(f, verb)))

    # ---- statements about cards

    def state_change(self, step: ast.Step) -> None:
        """"This gets +20 AP until the End Stage": a modifier on each card,
        lasting as long as its duration says (or for good without one)."""
        if self.combat_statement(step):
            return
        selector, statement, suffixes = step.args
        changes = statement_changes(statement, self.game, "X" in NAMED_NUMBERS.get())
        varying = any(amount in ("+X", "-X") for _, _, amount in changes)
        per = [s for s in suffixes if s.form == "for_each_suffix"]
        until = compile_lasting([s for s in suffixes if s not in per])
        times = f"_times{len(self.e.program.instructions)}"
        if per:
            # "gets +1 power for each Creature you control until the end of
            # the turn": counted once, as the step starts (a continuous
            # ability counts whenever it is read: abilities._compile_static)
            if len(per) > 1 or any(kind != "stat" for kind, _, _ in changes):
                raise unsupported(per[-1], '"for each" on a change that is not a number')
            counted = per[0].args[0]
            among = other_than_changed(counted)
            if among is not None:
                # "Each Creature you control gets +1 power for each other
                # Creature you control": other than the card changed, each
                # in turn (the cards counted once, as the step starts)
                self.e.emit(lambda m, f: f.locals.__setitem__(
                    times, tuple(among.candidates(m, f))))
            else:
                count = compile_count(counted)
                self.e.emit(lambda m, f: f.locals.__setitem__(times, count(m, f)))
        self.select(selector, lambda m, f: f.locals["you"])

        def modify(m, f, card):
            end = until(m, f, card)
            many = f.locals.get(times) if per else 1
            if isinstance(many, tuple):
                many = len(many) - (card in many)
            if many == 0:
                return          # "for each" of nothing: no change at all
            for kind, name, amount in changes:
                if varying and amount in ("+X", "-X"):
                    # "+X power, where X is ...": X as the sentence read it
                    amount = f.locals["X"] if amount == "+X" else -f.locals["X"]
                    if amount == 0:
                        continue
                m.add_modifier(card, kind, name, amount if many == 1 else amount * many,
                               f.locals.get("this"), end)
        self.each_chosen(modify)

    def player_change(self, step: ast.Step) -> None:
        raise unsupported(step, 'a change to cards said of a player ("Your Rival gets +1 '
                          'power"): "They get ..." after a step on cards is those cards')

    def double_stat(self, step: ast.Step) -> None:
        """ "Double the power of a Creature you control until the end of the
        turn": each card gets + its value as the step reads it (a change as
        "gets +N" makes, for as long as its duration says)."""
        selector, stat, suffixes = step.args
        until = compile_lasting(suffixes)
        self.select(selector, lambda m, f: f.locals["you"])

        def double(m, f, card):
            amount = m.stat(card, stat)
            if amount:
                m.add_modifier(card, "stat", stat, amount, f.locals.get("this"),
                               until(m, f, card))
        self.each_chosen(double)


# The card language's verbs of a status: "Exhaust it" is "it becomes
# exhausted". The game declares the status ("statuses: exhausted"; "status
# ready: the opposite of exhausted").
STATUS_OF_VERB = {"exhaust": "exhausted", "rest": "rested", "ready": "ready"}


def verb_status(rules, action) -> str:
    """The status a verb gives ("Rest" -> rested), declared by the game; a
    game that declares none has a check problem at the verb."""
    status = STATUS_OF_VERB[action.form]
    if not any(s.lower() == status for s in rules.statuses):
        how = (f"status ready: the opposite of {rules.statuses[0] if rules.statuses else 'exhausted'}"
               if status == "ready" else f"statuses: {status}")
        raise Unsupported(Problem(
            "E547", f'"{action.form.capitalize()}" gives the status "{status}", which the '
            'game does not declare', getattr(action, "span", None),
            expected=(f"in the rules file: {how}",)))
    return status
