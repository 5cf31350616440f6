"""Steps for moves, combat and response windows, written as sentences in a
rules file:

- ``Players alternate moves until all pass in a row [or pass N moves in a
  row]``: each player in seat order makes a *move* (a period "Move" of its
  own, during which that player is the turn player, so "your Move" and
  priority follow the mover): actions until they pass. A move without an
  action is a pass; the window ends when every player still moving passed
  their last move; a player who passed N moves in a row makes no more.
- ``X is attacking`` / ``X is defending`` / ``X is STATUS``: a status (the
  first two: "attacker" and "defender", which "the attacking X" reads).
- ``X counts as VALUE until ...``: the card has that stat value too.
- ``X becomes a copy of Y until ...``: X's printed values (name, kind,
  stats, text and its abilities) are Y's while it lasts (a modifier
  "copy"; ``Views.printed_name``).
- ``X deals N damage to PLAYER`` (event "deals damage" of X, then the damage,
  X its source, to the counter that takes damage unless replaced), ``X
  deals N damage to CARD`` (or "damage equal to ...", "to any target"),
  and ``X prevent(s) damage`` (event "prevents damage").
- ``PLAYER may respond with "LABEL" or "LABEL" to X``: a response window
  (see ``interpreter.engine.combat``).
- ``The waiting effects resolve``: triggered effects waiting resolve now.
- ``X and Y deal damage equal to their STAT to each other``: both amounts
  read first, then each card dealt the other's (battle damage in a rules
  file's action, effect damage in card text); each card that deals damage
  has the event "deals damage" (combat, as above).

The windows themselves are the machine's (``interpreter.engine.combat``).
"""

from __future__ import annotations

from interpreter.compiler.changing_steps import damageable
from interpreter.compiler.compiled import COMBAT_DAMAGE_REDUCED
from interpreter.compiler.frames import Frame, cards_held
from interpreter.compiler.modifiers import ALL_DAMAGE, compile_lasting
from interpreter.compiler.players import compile_player
from interpreter.compiler.program import JUMPED, unsupported
from interpreter.compiler.selectors import compile_amount, compile_measure, compile_selector
from interpreter.language import ast


class CombatSteps:
    """The StepCompiler's steps for moves, combat and response windows."""

    # steps whose "may" is the window's own "pass" (no yes-no question first)
    ASKS_ITSELF = ("respond",)

    def do_alternate_moves(self, action, who):
        store = f"_moves{len(self.e.program.instructions)}"
        lockout = action.args[0] if action.args else None

        def window(m, f):
            return m.alternate_moves(f, store, lockout)
        self.e.emit(window)

    def do_respond(self, action, who):
        *names, selector = [a for a in action.args if not isinstance(a, str)]
        labels = []
        for name in names:
            label = name.name if isinstance(name, ast.CardName) else str(name)
            timing = self.game.rules.timing(label)
            if timing is None:
                raise unsupported(name, f'responding with "{label}" (no timing of that name)')
            labels.append(timing.label)
        self.game.cued_labels.update(labels)
        selection = compile_selector(selector, lambda m, f: f.locals["you"])
        store = f"_respond{len(self.e.program.instructions)}"
        labels = tuple(labels)

        def window(m, f):
            return m.respond_window(f, who(m, f), selection, labels, store)
        self.e.emit(window)

    def do_resolve_waiting(self, action, who):
        def resolve(m, f):
            state = m.state
            if m.rules.resolution is None or not (state.pending or state.stack):
                return None
            f.pc += 1
            state.frames.append(Frame("resolve", 0, {}))
            return JUMPED
        self.e.emit(resolve)

    def each_other(self, step: ast.Step) -> None:
        """ "A and B deal damage equal to their STAT to each other": both
        amounts read first, then each card dealt the other's. B may name
        several cards ("It and the Creatures blocking it"): each of them
        deals its amount to A, and A's is dealt to them in order -- "in an
        order PLAYER choose(s)": that player picks it -- each one dealt
        what the one before did not need ("Damage in order", docs/core.md),
        "and the rest to X" what the last did not need. "..., only those
        with KEYWORD": the others deal none."""
        first, second, stat, *ways = step.args
        one = compile_selector(first, lambda m, f: f.locals["you"])
        other = compile_selector(second, lambda m, f: f.locals["you"])
        for node, selection in ((first, one), (second, other)):
            # "the challenging character": the one card with that role
            definite = node.form == "owned" and node.args[0].form == "the"
            if not selection.given and not definite:
                # a card to pick: the step would have to choose it first
                raise unsupported(node, 'a card to choose in "... to each other" (choose it '
                                  'first: "Choose a Minion. This and it deal damage ...")')
        battle = self.e.by_rules
        chooser = rest = None
        deals = lambda m, c: True  # noqa: E731
        for way in ways:
            if way.form == "in_chosen_order":
                chooser = compile_player(way.args[0])
            elif way.form == "rest_beyond":
                if not isinstance(way.args[0], ast.Player):
                    raise unsupported(way, '"and the rest to" a card after "to each other" '
                                      "(the rest goes to a player)")
                rest = compile_player(way.args[0])
                self.game.check_player_damage(way)
            else:
                keyword, wanted = way.args[0].form, way.form == "only_those_with"
                deals = lambda m, c, k=keyword, w=wanted: m.has_keyword(c, k) == w  # noqa: E731
        key = f"_fight{len(self.e.program.instructions)}"
        store = key + "?"

        def fight(m, f):
            L = f.locals
            if key not in L:
                firsts = one.candidates(m, f)[:1]
                if not firsts:
                    L["did"] = False
                    return None
                a = firsts[0]
                group = tuple(c for c in other.candidates(m, f) if c != a)
                # every amount is read before any damage is dealt
                L[key] = (a, m.stat(a, stat) if deals(m, a) else 0,
                          tuple((b, m.stat(b, stat)) for b in group if deals(m, b)), (), group)
            a, amount, against, ordered, left = L[key]
            if store in L:
                picked = L.pop(store)
                ordered, left = ordered + (picked,), tuple(c for c in left if c != picked)
                L[key] = (a, amount, against, ordered, left)
            if chooser is not None and amount > 0 and len(left) > 1:
                return m.ask(f, chooser(m, f), "order", "deal damage to which card next",
                             left, store, tuple(m.card_label(c) for c in left))
            del L[key]
            L["did"] = bool(ordered or left)
            if amount > 0 and (ordered or left or rest is not None):
                # a fight is combat: each card dealing damage in it has the
                # event "When this deals damage" reads
                m.event("deals damage", a, m.state.cards[a].controller)
            for b in ordered + left:
                amount = m.damage_card(b, amount, battle, a)   # what b did not need
                if amount <= 0:
                    break
            else:
                if rest is not None and amount > 0:
                    m.damage_player(rest(m, f), amount, a, battle=battle)
            where = m.state.cards[a].zone
            for b, dealt in against:
                if m.state.cards[a].zone != where:
                    break           # destroyed by the damage before: it is gone
                if dealt > 0:
                    m.event("deals damage", b, m.state.cards[b].controller)
                m.damage_card(a, dealt, battle, b)
            return None
        self.e.emit(fight)

    def combat_statement(self, step) -> bool:
        """Statements about cards that are not modifiers; False if not one."""
        selector, statement, suffixes = step.args
        form = statement.form
        you = lambda m, f: f.locals["you"]  # noqa: E731
        lasting = any(s.form == "lasting" for s in suffixes)
        if form == "becomes" and statement.args[0].form in ("attacking", "defending",
                                                              "status") and not (
                lasting and statement.args[0].form == "status"):
            # (a status with a duration is a modifier: see statement_changes)
            state = statement.args[0]
            # "the attacking X" / "the defending X" read these statuses
            status = state.args[0] if state.form == "status" else {
                "attacking": "attacker", "defending": "defender"}[state.form]
            self.select(selector, you)
            self.each_chosen(lambda m, f, c: m.set_status(c, status, True, f.locals["you"]))
            return True
        if form == "no_longer_role" and not lasting:
            # "Each attacking Creature is no longer attacking"
            role = {"attacking_adj": "attacker", "defending_adj": "defender"}[
                statement.args[0].form]
            self.select(selector, you)
            self.each_chosen(lambda m, f, c: m.set_status(c, role, False))
            return True
        if form == "no_longer" and not lasting:
            # "{cards} are no longer exerted"
            status = statement.args[0]
            self.select(selector, you)
            self.each_chosen(lambda m, f, c: m.set_status(c, status, False))
            return True
        if form == "relates" and not lasting:
            # "It is blocking the defending Creature": toward each card named
            relation, other = statement.args
            others = compile_selector(other, you)
            toward = f"_toward{len(self.e.program.instructions)}"
            # the cards it is held toward are read before the subject is
            # picked, which makes the subject "it": in "Choose another
            # Familiar you control. This is guarding it." "it" is the chosen one
            self.e.emit(lambda m, f: f.locals.__setitem__(toward, tuple(others.candidates(m, f))))
            self.select(selector, you)

            def relate(m, f, card):
                for o in f.locals[toward]:
                    m.relate(card, relation, o, True)
            self.each_chosen(relate)
            self.e.emit(lambda m, f: f.locals.pop(toward, None))
            return True
        if form == "no_longer_relating" and not lasting:
            # "Each blocking Creature is no longer blocking": toward any card
            relation = statement.args[0]
            self.select(selector, you)

            def unrelate(m, f, card):
                for name, o, holds in m.state.cards[card].relations:
                    if name == relation and holds:
                        m.relate(card, relation, o, False)
            self.each_chosen(unrelate)
            return True
        if form == "counts_as":
            value = statement.args[0]
            until = compile_lasting(suffixes)
            self.select(selector, you)

            def counts(m, f, card):
                m.add_modifier(card, "value", value, 1, f.locals.get("this"), until(m, f, card))
            self.each_chosen(counts)
            return True
        if form == "becomes_copy":
            self.becomes_copy(selector, statement.args[0], suffixes)
            return True
        if form in ("card_deals", "card_deals_measured"):
            amount, target = statement.args
            count = compile_measure(amount) if form == "card_deals_measured" else \
                compile_amount(amount, statement)
            if not isinstance(target, ast.Player):
                self.card_deals_to_cards(selector, count, target)
                return True
            victim = compile_player(target)
            self.select(selector, you)
            self.game.check_player_damage(statement)

            def deals(m, f, battle=self.e.by_rules):
                cards = cards_held(f.locals.get("it"))
                f.locals["did"] = bool(cards)
                player = victim(m, f)
                for card in cards:
                    # the card is the damage's source: "Whenever this deals
                    # damage to your Rival" sees it as well as "When this
                    # deals damage" (combat)
                    m.event("deals damage", card, m.state.cards[card].controller)
                    m.damage_player(player, count(m, f), card, battle=battle)
            self.e.emit(deals)
            return True
        if form == "card_prevents":
            self.select(selector, you)
            self.each_chosen(lambda m, f, c: m.event("prevents damage", c,
                                                     m.state.cards[c].controller))
            return True
        return False

    def card_deals_to_cards(self, selector, count, target) -> None:
        """ "This Creature deals 2 damage to target Creature", "Target
        Creature you control deals damage equal to its power to target
        Creature your Rival controls": the card the words name first (chosen
        first when it is to choose) is the damage's source. Its amount is
        read before the damaged card is chosen, "its" being the dealer's;
        several dealers ("Each Creature you control deals 1 damage to target
        Creature") each deal theirs, read for each, to what was chosen once.
        A dealer that deals damage has the event "deals damage"; "it" is then
        the cards damaged."""
        you = lambda m, f: f.locals["you"]  # noqa: E731
        at = len(self.e.program.instructions)
        dealers, chosen = f"_dealers{at}", f"_dealt{at}"
        self.select(selector, you, prompt="choose a card to deal the damage")

        def read(m, f):
            L = f.locals
            it = L.get("it")
            amounts = []
            for dealer in cards_held(it):
                L["it"] = dealer
                amounts.append((dealer, count(m, f)))
            L["it"] = it
            L[dealers] = tuple(amounts)
        self.e.emit(read)
        if isinstance(target, ast.Node) and target.form in ("any_target", "card_or_player"):
            # a card or a player, as "Deal 2 damage to any target" offers them
            self.game.check_player_damage(target)
            store = self._ask_target(damageable if target.form == "any_target" else
                                     compile_selector(target.args[0], you).candidates)
            self.e.emit(lambda m, f: f.locals.__setitem__(chosen, (f.locals.pop(store),)))
        else:
            self.select(target, you, prompt="choose a card to damage")
            self.e.emit(lambda m, f: f.locals.__setitem__(chosen, cards_held(f.locals.get("it"))))

        def deal(m, f, battle=self.e.by_rules):
            L = f.locals
            victims = L.pop(chosen)
            L["did"] = bool(victims)
            L["it"] = tuple(c for c in victims if c >= 0)
            for dealer, amount in L.pop(dealers):
                if amount <= 0 or not victims:
                    continue
                m.event("deals damage", dealer, m.state.cards[dealer].controller)
                for victim in victims:
                    if victim < 0:
                        m.damage_player(-1 - victim, amount, dealer, battle=battle)
                    else:
                        m.damage_card(victim, amount, battle, dealer)
        self.e.emit(deal)

    def combat_damage_prevented(self, step) -> None:
        """ "Prevent all combat damage that would be dealt this turn": while
        it lasts, battle damage (the damage the rules file's turn and actions
        deal) to any card and any player is not dealt -- a modifier "reduce
        combat damage" by all of it on every player, which covers the player
        and the cards they control (see Changes.damage_card, damage_player);
        effect damage is dealt as before."""
        until = compile_lasting(step.args)
        self.game.reduces_damage = True

        def protect(m, f):
            for player in range(m.state.players):
                m.add_modifier(-1 - player, "reduce", COMBAT_DAMAGE_REDUCED, ALL_DAMAGE,
                               f.locals.get("this"), until(m, f))
        self.e.emit(protect)

    def becomes_copy(self, selector, copied, suffixes) -> None:
        """ "This becomes a copy of another Being you control until the End
        Stage": the card to copy is chosen first; then each card the words
        name is a copy of it (of what it copies, if it is itself a copy)
        until the duration ends (for good without one)."""
        you = lambda m, f: f.locals["you"]  # noqa: E731
        until = compile_lasting(suffixes)
        self.game.copying = True
        store = f"_copied{len(self.e.program.instructions)}"
        self.select(copied, you, prompt="choose a card to copy")

        def keep(m, f):
            it = f.locals.get("it")
            f.locals[store] = (it[0] if it else None) if isinstance(it, tuple) else it
        self.e.emit(keep)
        self.select(selector, you)

        def becomes(m, f, card):
            original = f.locals.get(store)
            if original is not None and original != card:
                m.add_modifier(card, "copy", m.printed_name(original), 0,
                               f.locals.get("this"), until(m, f, card))
        self.each_chosen(becomes)
