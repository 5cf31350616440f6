"""Selectors and measures: which cards a selector picks, and how many.

:func:`compile_selector` turns a selector ("a Being your Rival controls",
"the top 3 cards of your deck", "it") into a :class:`Selection`: its
candidates as a function of ``(machine, frame)``, how many the player picks
and a test of one card. :func:`compile_measure` / :func:`compile_amount`
turn "the number of ...", "its AP", "2" into numbers; a measure may count a
selector's cards and a selector may take a measured number of cards, so
both live here.
"""

from __future__ import annotations

from typing import Callable

from interpreter.compiler.players import (_it_or_this, _they_or_you, compile_owner,
                                          compile_player, compile_zone, is_opponent_ref)
from interpreter.compiler.named_numbers import CHOSEN_FIRST, NAMED_NUMBERS
from interpreter.compiler.program import unsupported
from interpreter.compiler.selection import Selection
from interpreter.language import ast
from interpreter.language.render_selectors import _selector as _selector_text


# ---------------------------------------------------------------- selectors


def compile_selector(node, subject: Callable, default_zone: Callable | None = None
                     ) -> Selection:
    """``default_zone`` is where the selector looks when it names no zone
    ("discard a card": the hand); otherwise it looks at the cards in play."""
    if isinstance(node, ast.CardName):
        name = node.name
        return Selection(lambda m, f: [c for c in m.in_play() if m.state.cards[c].name == name],
                         "one")
    form = node.form
    if form == "this":
        if node.args and node.args[0].form == "kind":
            # "this Room" on a card placed at a Room: the place it is at
            kind = node.args[0].args[0]

            def this_kind(m, f):
                this = f.locals.get("this")
                if this is None:
                    return None
                if m.is_kind(this, kind) or m.state.cards[this].attached_to is None:
                    return this
                return m.state.cards[this].attached_to
            return Selection(lambda m, f: [c for c in (this_kind(m, f),) if c is not None],
                             "all", given=True, test=lambda m, f, c: c == this_kind(m, f))
        return Selection(lambda m, f: [f.locals["this"]], "all", given=True,
                         test=lambda m, f, c: c == f.locals.get("this"))
    if form == "current":
        # "the current Quest": the card of that kind in play that came
        # into play last
        test, _ = _noun_test(node.args[0])

        def current(m, f):
            cards = [c for c in m.in_play() if test is None or test(m, f, c)]
            return [max(cards, key=lambda c: (m.state.cards[c].entered, c))] if cards else []
        return Selection(current, "all", given=True,
                         test=lambda m, f, c: c in current(m, f))
    if form in ("it", "them", "that", "those"):
        def chosen(m, f):
            it = f.locals.get("it")
            if it is None:
                return []
            return list(it) if isinstance(it, tuple) else [it]
        return Selection(chosen, "all", given=True, plural=form in ("them", "those"))
    if form == "named":
        return compile_selector(node.args[0], subject)
    if form == "that_effect":
        return Selection(lambda m, f: [], "all", given=True)
    if form == "tokens":
        raise unsupported(node, 'tokens to create anywhere but after "Create" ("Create a '
                          '"NAME" token in your board")')
    if form in ("top_cards", "bottom_cards"):
        if len(node.args) == 2:
            count, zone = node.args
        else:
            count, zone = 1, node.args[0]
        if isinstance(count, ast.Measure):
            how_many = compile_measure(count)
        elif isinstance(count, int):
            how_many = (lambda m, f, n=count: n)
        else:
            how_many = compile_amount(count, node)     # "the top X cards", X named
        key = compile_zone(zone, subject)
        top = form == "top_cards"

        def pile(m, f):
            cards = m.state.zones.get(key(m, f), [])
            n = how_many(m, f)
            return cards[::-1][:n] if top else cards[:n]
        return Selection(pile, "all", plural=count != 1)
    if form in ("some", "owned", "every"):
        return _compile_described(node, subject, default_zone)
    if form in ("the_attacking", "the_defending"):
        # "the attacking Being": the card with the status "attacker" (the
        # defending one: "defender"), set by an action's "as:" while it runs
        status = "attacker" if form == "the_attacking" else "defender"
        test, _ = _noun_test(node.args[0])

        def in_combat(m, f):
            return [c for c in m.in_play() if status in m.state.cards[c].statuses
                    and (test is None or test(m, f, c))]
        return Selection(in_combat, "all", given=True,
                         test=lambda m, f, c: status in m.state.cards[c].statuses)
    if form == "the_past":
        # "the Sacrificed Being": among the cards an earlier step of the
        # effect chose ("it") or its costs acted on ("#paid"), those of the
        # kind that came to be where they are by that event
        past, noun = node.args
        event = (past.args[0] if past.form == "past_event" else past.form).lower()
        kind_test, _ = _noun_test(noun)

        def undergone(m, f):
            out = []
            for key in ("it", "#paid"):
                held = f.locals.get(key)
                for c in (held if isinstance(held, tuple) else (held,)):
                    if isinstance(c, int) and c not in out and m.arrived_by(c, event) and (
                            kind_test is None or kind_test(m, f, c)):
                        out.append(c)
            return out
        return Selection(undergone, "all", given=True,
                         test=lambda m, f, c: c in undergone(m, f))
    if form == "some_of_them":
        # "Put one of them into your hand": among the cards last chosen
        how = _how_many(node.args[0])

        def among(m, f):
            it = f.locals.get("it")
            if it is None:
                return []
            return list(it) if isinstance(it, tuple) else [it]
        return Selection(among, how, plural=how != "one")
    if form == "the_rest":
        # "Put the rest on the bottom of your deck": the cards last looked at
        # or revealed that have not moved since (the ones not chosen)
        def rest(m, f):
            return [c for c, entered in f.locals.get("_seen", ())
                    if m.state.cards[c].entered == entered]
        return Selection(rest, "all", given=True, plural=True)
    if form == "zone_cards":
        # "their hand": every card in that zone
        key = compile_zone(ast.ZoneRef("zone_ref", node.args, node.span), subject)
        return Selection(lambda m, f: list(m.state.zones.get(key(m, f), ())), "all",
                         plural=True)
    if form == "both":
        # "both the defending card and an Ally in your hand": each part's
        # cards, in turn (parts that name their cards; a part that chooses is
        # chosen by a "Choose one" mode offered for each way to choose it)
        parts = [compile_selector(part, subject, default_zone) for part in node.args]
        if any(part.how != "all" for part in parts):
            raise unsupported(node, '"both ... and ..." with a card to choose (only as a '
                              'mode of "Choose one", offered for each way to choose it)')

        def together(m, f):
            out = []
            for part in parts:
                out.extend(c for c in part.candidates(m, f) if c not in out)
            return out
        return Selection(together, "all", given=True, plural=True)
    if form == "bound":
        # cards a "Choose one" mode was offered with (see StepCompiler.choose_mode)
        local = node.args[0]
        return Selection(lambda m, f: list(f.locals.get(local, ())), "all", given=True,
                         plural=True)
    if form == "filtered":
        return _filtered(node, subject, default_zone)
    if form in ("card_slot", "card_slot_with"):
        raise unsupported(node, f'the selector "{form.replace("_", " ")}"')
    raise unsupported(node, f'the selector "{form}"')


def _filtered(node, subject: Callable, default_zone) -> Selection:
    """A verb's slot with qualifiers ("{card} you control") filled with
    cards named outright ("this", "it"): those of them the qualifiers fit
    (``verb_slots.fill_slots``)."""
    inner = compile_selector(node.args[0], subject, default_zone)
    tests = []
    for q in node.args[1:]:
        zone, test = _qualifier(q, subject)
        tests.append(test if test is not None else _in_zone_test(zone))
    fits = _all_of(tests + ([inner.test] if inner.test is not None else []))
    return Selection(lambda m, f: [c for c in inner.candidates(m, f) if fits(m, f, c)],
                     inner.how, inner.given, inner.plural, fits)


def _SEEN(m, f):
    """A zone marker: "among them" (see ``_compile_described``'s pool)."""
    return None


def _compile_described(node, subject: Callable, default_zone=None) -> Selection:
    args = list(node.args)
    how: object = "all"
    owner = None
    if node.form == "some":
        quantity = args.pop(0)
        how = _how_many(quantity)
    elif node.form == "owned":
        possessive = args.pop(0)
        # "the Character this is attached to": "the" names no owner
        owner = None if possessive.form == "the" else compile_owner(possessive, subject)
    tests: list[Callable] = []
    kinds: list[tuple[str, Callable]] = []     # (kind, its test) of a noun "Creature"
    zones: list[Callable] = []
    plural = False
    budget = None
    if node.form == "some" and node.args[0].form == "another":
        # "another Creature": not the card whose text it is
        tests.append(lambda m, f, c: c != f.locals.get("this"))
    if any((isinstance(p, ast.Adjective) and p.form == "random") or
           (isinstance(p, ast.Qualifier) and p.form == "at_random") for p in args):
        # "a random card", "a card at random": the engine picks, not a player
        how = ("random", 1 if how in ("one", "all") else how[1])
        if callable(how[1]):
            raise unsupported(node, "a random number of cards read from the game")
    for part in args:
        if isinstance(part, ast.Adjective):
            tests.append(_adjective_test(part))
        elif isinstance(part, ast.Noun) and part.form not in ("any_card", "any_cards"):
            noun_tests = _noun_tests(part)
            kinds.append((part.args[0], noun_tests[0]))
            tests.extend(noun_tests)
            plural = None
        elif isinstance(part, ast.Noun):
            plural = part.form == "any_cards"
        elif isinstance(part, ast.Qualifier) and part.form == "total_budget":
            budget = (part.args[0], compile_amount(part.args[1], part))
        elif isinstance(part, ast.Qualifier) and part.form in _CHOOSERS:
            continue                # the pick, above; who picks (StepCompiler.select)
        elif isinstance(part, ast.Qualifier) and part.form == "among_them":
            zones.append(_SEEN)     # the cards looked at: see pool
            tests.append(lambda m, f, c: any(c == seen for seen, _ in f.locals.get("_seen", ())))
        elif isinstance(part, ast.Qualifier) and part.form == "located_in_either":
            zones.extend(compile_zone(z, subject) for z in part.args)
        elif isinstance(part, ast.Qualifier):
            zone, test = _qualifier(part, subject)
            if zone is not None:
                zones.append(zone)
            if test is not None:
                tests.append(test)
    if owner is not None and not zones:
        # "your Beings": the cards that player controls in play
        tests.append(lambda m, f, c, owner=owner: m.state.cards[c].controller == owner(m, f))

    if not zones and default_zone is not None and not any(
            isinstance(p, ast.Qualifier) and p.form in (
                "controlled_by", "at_card", "attached_to", "attached_to_it", "host_of_this")
            for p in args):
        # "Discard a card": from the hand; but "a card your Rival controls"
        # (or "at this Room", "attached to this") is a card in play
        zones.append(default_zone)

    fits = _all_of(tests)
    kind = None
    if not zones and len(kinds) == 1:
        # in play, of one kind: the cards in play of that kind are looked at
        # (Views.in_play_of_kind), the others not at all
        kind = kinds[0][0]
        tests = [test for test in tests if test is not kinds[0][1]]
    passes = _all_of(tests)

    def pool(m, f) -> list:
        """The cards the selector looks at: its zones' cards, else those in
        play (of its kind, if it names one)."""
        if not zones:
            return m.in_play() if kind is None else m.in_play_of_kind(kind)
        cards = []
        for zone in zones:
            if zone is _SEEN:
                # "among them": the cards last looked at or revealed that
                # have not moved since
                cards.extend(c for c, entered in f.locals.get("_seen", ())
                             if m.state.cards[c].entered == entered)
                continue
            key = zone(m, f)
            if type(key) is list:        # a zone of every player ("in play")
                for each in key:
                    cards.extend(m.state.zones.get(each, ()))
            else:
                cards.extend(m.state.zones.get(key, ()))
        return cards

    def candidates(m, f):
        return [c for c in pool(m, f) if passes(m, f, c)]

    def first(m, f, n: int, also: Callable | None = None) -> list:
        found = []
        for card in pool(m, f) if n > 0 else ():
            if (also is None or also(m, f, card)) and passes(m, f, card):
                found.append(card)
                if len(found) >= n:
                    break
        return found

    def at_least(m, f, n: int, also: Callable | None = None) -> bool:
        found = 0
        for card in pool(m, f) if n > 0 else ():
            if (also is None or also(m, f, card)) and passes(m, f, card):
                found += 1
                if found >= n:
                    return True
        return n <= 0
    return Selection(candidates, how, plural=plural or how == "all", budget=budget,
                     test=fits, at_least=at_least, first=first)


def _all_of(tests: list[Callable]) -> Callable:
    """One test that passes when every test passes (selectors run these for
    every card they look at, so the common short cases avoid a loop)."""
    if not tests:
        return lambda m, f, c: True
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        first, second = tests
        return lambda m, f, c: first(m, f, c) and second(m, f, c)

    def passes(m, f, c):
        for test in tests:
            if not test(m, f, c):
                return False
        return True
    return passes


def _how_many(quantity: ast.Quantity):
    form = quantity.form
    if form in ("one", "another"):
        return "one"
    if form in ("each", "all", "any_number"):
        return "all" if form != "any_number" else ("up to", 10 ** 6)
    if form == "count":
        n = quantity.args[0]
        return ("exactly", n if isinstance(n, int) else compile_amount(n, quantity))
    if form == "up_to":
        n = quantity.args[0]
        return ("up to", n if isinstance(n, int) else compile_amount(n, quantity))
    if form == "no_count":
        return ("exactly", 0)
    if form == "at_least_count" and isinstance(quantity.args[0], int):
        return ("at least", quantity.args[0])
    if form == "at_most_count" and isinstance(quantity.args[0], int):
        # in conditions: "Your Support Area has 2 or fewer cards"
        return ("at most", quantity.args[0])
    raise unsupported(quantity, f'"{form.replace("_", " ")}" cards')


def _adjective_test(adj: ast.Adjective) -> Callable:
    form = adj.form
    if form == "value_adj":
        value = adj.args[0]
        return lambda m, f, c: m.has_value(c, value)
    if form == "status_adj":
        status = adj.args[0]
        return lambda m, f, c: m.has_status(c, status)
    if form == "relating_adj":
        # "each blocking Creature": holding the relation toward some card
        return _relating_test(adj.args[0])
    if form in ("attacking_adj", "defending_adj"):
        # the role an action's "as:" gives (as "the attacking Being")
        role = "attacker" if form == "attacking_adj" else "defender"
        return lambda m, f, c: role in m.state.cards[c].statuses
    if form == "face_up_adj":
        return lambda m, f, c: m.state.cards[c].face_up
    if form == "face_down_adj":
        return lambda m, f, c: not m.state.cards[c].face_up
    if form == "other":
        return lambda m, f, c: c != f.locals.get("this")
    if form == "non_kind":
        kind = adj.args[0]
        return lambda m, f, c: not m.is_kind(c, kind)
    if form == "unique":
        return lambda m, f, c: m.rules.is_unique(m.state.cards[c].name)
    if form == "random":
        return lambda m, f, c: True       # the pick is random (see _compile_described)
    if form == "defined_adj":
        # "enemy": what the rules file says it means ("that your opponent controls")
        name, qualifiers = adj.args
        tests = []
        for qualifier in qualifiers:
            zone, test = _qualifier(qualifier, lambda m, f: f.locals["you"])
            if zone is not None or test is None:
                raise unsupported(adj, f'the adjective "{name}": its meaning names a zone')
            tests.append(test)
        if not tests:
            raise unsupported(adj, f'the adjective "{name}" (its meaning could not be read)')
        return lambda m, f, c: all(test(m, f, c) for test in tests)
    raise unsupported(adj, f'the adjective "{form}"')


def _noun_test(noun: ast.Noun):
    if noun.form == "any_card":
        return None, False
    if noun.form == "any_cards":
        return None, True
    tests = _noun_tests(noun)
    return (tests[0] if len(tests) == 1 else _all_of(tests)), None


def _noun_tests(noun: ast.Noun) -> list[Callable]:
    """The tests of a noun of a kind: the kind's first; "each Champion"
    (noun Champion: a Character in Champion Row): then what the noun's
    qualifiers say of the card."""
    kind = noun.args[0]
    tests = [lambda m, f, c: m.is_kind(c, kind)]
    for qualifier in noun.args[1] if len(noun.args) > 1 else ():
        zone, test = _qualifier(qualifier, lambda m, f: f.locals["you"])
        if zone is not None:
            tests.append(_in_zone_test(zone))
        if test is not None:
            tests.append(test)
    return tests


def _in_zone_test(zone: Callable) -> Callable:
    """A zone a qualifier names (one zone, or every player's), as a test of a card."""
    def test(m, f, c):
        where = zone(m, f)
        here = m.state.cards[c].zone
        return here in where if isinstance(where, list) else here == where
    return test


def _qualifier(q: ast.Qualifier, subject: Callable):
    """(zone function or None, test or None)."""
    form = q.form
    if form in ("located_in", "taken_from") and q.args[0].form != "zone_slot" and \
            q.args[0].args[0].form == "bare":
        # "a character in play": that zone of every player (a shared zone: the one)
        name = q.args[0].args[1]

        def every_players(m, f):
            if m.rules.zones[name].scope == "shared":
                return [(name, -1)]
            return [(name, p) for p in range(m.state.players)]
        return every_players, None
    if form in ("located_in", "taken_from"):
        return compile_zone(q.args[0], subject), None
    if form == "controlled_by":
        if is_opponent_ref(q.args[0]):
            # "a Character your opponent controls": any opponent's, unless
            # this effect has chosen one (several opponents: see choose_opponent)
            return None, lambda m, f, c: m.is_opponent(f, m.state.cards[c].controller)
        if q.args[0].form == "an_opponent":
            # "a character that an opponent controls": any opponent's
            return None, lambda m, f, c: m.state.cards[c].controller != f.locals["you"]
        who = compile_player(q.args[0])
        return None, lambda m, f, c: m.state.cards[c].controller == who(m, f)
    if form in ("with_counter", "with_no_counter"):
        # "a Creature with 1 or more Growth", "with no damage": a counter on the card
        none = form == "with_no_counter"
        n, name = (0, q.args[0]) if none else q.args[0].args
        amount, at_most = compile_amount(n, q), none or q.args[0].form == "stat_at_most"
        return None, lambda m, f, c: (m.state.cards[c].counter(name) <= amount(m, f)) \
            if at_most else (m.state.cards[c].counter(name) >= amount(m, f))
    if form == "with_stat":
        comparison = q.args[0]
        n, stat = comparison.args
        relation = comparison.form
        if not isinstance(n, int):
            # "with cost X or more, where X is its cost": read as it is tested
            amount = compile_amount(n, q)
            compare = {"stat_at_least": lambda a, b: a >= b,
                       "stat_at_most": lambda a, b: a <= b}.get(relation, lambda a, b: a == b)
            return None, lambda m, f, c: compare(m.stat(c, stat), amount(m, f))
        if relation == "stat_at_least":
            return None, lambda m, f, c: m.stat(c, stat) >= n
        if relation == "stat_at_most":
            return None, lambda m, f, c: m.stat(c, stat) <= n
        return None, lambda m, f, c: m.stat(c, stat) == n
    if form in ("with_keyword", "without_keyword"):
        keyword, wanted = q.args[0].form, form == "with_keyword"
        return None, lambda m, f, c: bool(m.has_keyword(c, keyword)) == wanted
    if form in ("shares", "shares_none"):
        # "that shares a color with the attacking card": a value of the set
        # that both have (what the other card is read as the test runs)
        kind, wanted = q.args[0], form == "shares"
        other = compile_selector(q.args[1], subject)

        def shares(m, f, c):
            theirs = set()
            for card in other.candidates(m, f):
                theirs |= m.values_of(card, kind)
            return bool(m.values_of(c, kind) & theirs) == wanted
        return None, shares
    if form == "named_qualifier":
        name = q.args[0].name
        return None, lambda m, f, c: m.state.cards[c].name == name
    if form == "other_than_this":
        return None, lambda m, f, c: c != f.locals.get("this")
    if form == "at_card" and q.args[0].form == "this":
        # "at this card": in the same place (the same slot of its zone or of
        # the zone paired with it), this card included
        return None, lambda m, f, c: m.same_place(c, f.locals["this"])
    if form == "counter_reaches_stat":
        counter, stat = q.args
        return None, lambda m, f, c: m.state.cards[c].counter(counter) >= m.stat(c, stat)
    if form in ("with_timing", "without_timing"):
        label = q.args[0].name if isinstance(q.args[0], ast.CardName) else q.args[0]
        wanted = form == "with_timing"
        return None, lambda m, f, c: any(
            a.ability.label == label for a in m.definition(c).abilities) == wanted
    if form == "that_can_act":
        # "a Character that can attack": no "can't" in force stops it (or
        # its controller) doing that
        what = str(q.args[0]).lower()
        return None, lambda m, f, c: not m.forbidden(m.state.cards[c].controller, what, c)
    if form == "that_can_by":
        # "that can be challenged by it": no "can't" in force stops it,
        # against that card
        what = "be " + str(q.args[0]).lower()

        def can_by(m, f, c):
            by = f.locals.get("it")
            by = (by[0] if by else None) if isinstance(by, tuple) else by
            return not m.forbidden(m.state.cards[c].controller, what, c, by=by)
        return None, can_by
    if form == "that_can":
        what = "be " + str(q.args[0]).lower()

        def can(m, f, c):
            return not m.forbidden(m.state.cards[c].controller, what, c)
        return None, can
    if form == "unless_pays":
        # a tax on the step, taken off its object by StepCompiler.step
        raise unsupported(q, '"unless ... pays" anywhere but after the object of a step')
    if form == "unique_title_free":
        who = compile_player(q.args[0])
        return None, lambda m, f, c: not m.unique_title_in_play(c, who(m, f))
    if form in ("at_or_ahead", "behind", "ahead_of", "at_counter"):
        # places of an ordered zone against a player's position counter
        counter = q.args[1]
        compare = {"at_or_ahead": lambda i, p: i >= p, "behind": lambda i, p: i < p,
                   "ahead_of": lambda i, p: i > p, "at_counter": lambda i, p: i == p}[form]
        if q.args[0].form == "each_players":
            # "behind each player's Position": behind every player still in
            def placed_all(m, f, c):
                index = m.track_index(c, counter)
                return index is not None and all(
                    compare(index, m.state.counter(p, counter))
                    for p in range(m.state.players) if not m.state.out[p])
            return None, placed_all
        owner = compile_owner(q.args[0], subject)

        def placed(m, f, c):
            index = m.track_index(c, counter)
            return index is not None and compare(index, m.state.counter(owner(m, f), counter))
        return None, placed
    if form in ("ahead_of_card", "behind_card"):
        # places of one ordered zone against this card's place in it
        ahead = form == "ahead_of_card"
        other = compile_selector(q.args[0], subject)

        def row(m, f):
            # the zone the card named is in: the one to look along
            others = other.candidates(m, f)
            return m.state.cards[others[0]].zone if others else []

        def relative(m, f, c):
            others = other.candidates(m, f)
            if not others:
                return False
            cards = m.state.cards
            if cards[c].zone != cards[others[0]].zone:
                return False
            cards_in_row = m.state.zones[cards[c].zone]
            here, there = cards_in_row.index(others[0]), cards_in_row.index(c)
            return there > here if ahead else there < here
        return row, relative
    if form in ("attached_to", "attached_to_it"):
        # "each card attached to it": the cards whose host is that card
        if form == "attached_to_it":
            # "it": the card last chosen, else (a continuous ability) this card
            return None, lambda m, f, c: m.state.cards[c].attached_to == _it_or_this(f)
        host = compile_selector(q.args[0], subject)
        return None, lambda m, f, c: m.state.cards[c].attached_to in host.candidates(m, f)
    if form in ("stat_less_than", "stat_more_than"):
        # "with less progress value than this": against that card's, read now
        stat, other = q.args
        against = compile_selector(other, subject)
        less = form == "stat_less_than"

        def compared(m, f, c):
            others = against.candidates(m, f)
            if not others:
                return False
            theirs = m.stat(others[0], stat)
            return m.stat(c, stat) < theirs if less else m.stat(c, stat) > theirs
        return None, compared
    if form == "paired_to":
        # "the Relic Bonded to it": another card at that card's place
        # (a slot of paired zones) with the status of such cards
        status, other = q.args
        others = compile_selector(other, subject)
        return None, lambda m, f, c: m.has_status(c, status) and any(
            o != c and m.same_place(c, o) for o in others.candidates(m, f))
    if form in ("related_to", "related_from"):
        # "Creatures blocking it": holding the relation toward that card;
        # "the Creature it is blocking": the card that one holds it toward
        relation, other = q.args if form == "related_to" else q.args[::-1]
        others = compile_selector(other, subject)
        holds = form == "related_to"
        return None, lambda m, f, c: any(
            (relation, o, holds) in m.state.cards[c].relations for o in others.candidates(m, f))
    if form == "destroyer_of":
        # "the Being that destroyed this": the card its event "destroyed" names
        destroyed = compile_selector(q.args[0], subject)
        return None, lambda m, f, c: any(m.destroyer_of(d) == c
                                         for d in destroyed.candidates(m, f))
    if form == "host_of_this":
        return None, lambda m, f, c: m.state.cards[f.locals["this"]].attached_to == c
    if form in ("that_is", "that_is_not"):
        test = _state_test(q.args[0], subject)
        if form == "that_is":
            return None, test
        return None, lambda m, f, c: not test(m, f, c)
    raise unsupported(q, f'the qualifier "{form.replace("_", " ")}"')


def _relating_test(relation: str) -> Callable:
    """A card holding the relation toward some card ("a blocking Creature")."""
    return lambda m, f, c: any(r[0] == relation and r[2] for r in m.state.cards[c].relations)


def _state_test(state: ast.State, subject: Callable) -> Callable:
    form = state.form
    if form == "relating":
        return _relating_test(state.args[0])
    if form == "status":
        status = state.args[0]
        return lambda m, f, c: m.has_status(c, status)
    if form == "face_state":
        up = state.args[0] == "face up"
        return lambda m, f, c: m.state.cards[c].face_up == up
    if form == "in_zone":
        zone = compile_zone(state.args[0], subject)
        return lambda m, f, c: m.state.cards[c].zone == zone(m, f)
    if form == "attached_state":
        hosts = compile_selector(state.args[0], subject)
        return lambda m, f, c: m.state.cards[c].attached_to in hosts.candidates(m, f)
    if form == "at_position":
        # "this Room is at your Position": the card's place in the ordered
        # zone the player's position counter points into
        owner = compile_owner(state.args[0], subject)
        counter = state.args[1]
        return lambda m, f, c: m.track_index(c, counter) == m.state.counter(owner(m, f), counter)
    if form == "is_a":
        tests = []
        for part in state.args:
            if isinstance(part, ast.Adjective):
                tests.append(_adjective_test(part))
            else:
                test, _ = _noun_test(part)
                if test is not None:
                    tests.append(test)
        return lambda m, f, c: all(t(m, f, c) for t in tests)
    raise unsupported(state, f'the state "{form.replace("_", " ")}"')


# ---------------------------------------------------------------- measures and amounts


def compile_count(counted) -> Callable:
    """What a "for each ..." counts: the cards a selector names, or the
    heads among the coins this text flipped ("for each heads")."""
    if isinstance(counted, ast.Node) and counted.form == "heads":
        return lambda m, f: f.locals.get("#heads", 0)
    if isinstance(counted, ast.Node) and counted.form == "counters_on":
        return _counters_on(*counted.args)
    selection = compile_selector(counted, lambda m, f: f.locals["you"])
    return lambda m, f: len(selection.candidates(m, f))


def _counters_on(counter, cards) -> Callable:
    """ "for each Growth on it": the counters on those cards, added up ("it"
    in a continuous change being the card changed)."""
    if not isinstance(counter, str):
        raise unsupported(cards, '"for each damage on ..."')
    selection = compile_selector(cards, lambda m, f: f.locals["you"])
    of_it = cards.form == "it"

    def count(m, f):
        changed = f.locals.get("#changed") if of_it else None
        found = (changed,) if changed is not None else selection.candidates(m, f)
        return sum(m.state.cards[c].counter(counter) for c in found)
    return count


def compile_amount(value, node=None) -> Callable:
    if isinstance(value, int):
        return lambda m, f: value
    if isinstance(value, ast.Measure):
        return compile_measure(value)
    if isinstance(value, ast.Node) and value.form == "event_amount":
        if "that much" in NAMED_NUMBERS.get():
            return lambda m, f: f.locals["amount"]      # of the event replaced
        if "that many cards" in NAMED_NUMBERS.get():
            # how many cards the last step on cards acted on (MovingSteps.counted_step)
            return lambda m, f: f.locals.get("#that_many", 0)
        word = "that many" if value.args == ("many",) else "that much"
        raise unsupported(node or value, f'"{word}" with no event replaced (in a '
                          'replacement: "prevent that much damage") nor a step on cards '
                          'before it ("Discard your hand, then draw that many cards")')
    if value == "X":
        if "X" not in NAMED_NUMBERS.get():
            raise unsupported(node, 'X without "where X is ..." in its sentence')
        return lambda m, f: f.locals["X"]
    raise unsupported(node or value, f'the amount "{value}"')


_ARITHMETIC = {
    "plus": lambda a, b: a + b,
    "minus": lambda a, b: a - b,
    "greater_of": max,
    "lesser_of": min,
}
_HALF = {
    "twice": lambda a: 2 * a,
    "half_up": lambda a: (a + 1) // 2,
    "half_down": lambda a: a // 2,
}


# the qualifiers that say how a card is picked, not which cards are offered
_CHOOSERS = ("at_random", "of_your_choice", "of_their_choice")


def chooser_named(selector) -> str | None:
    """Who the words say picks the card ("a card of your choice": "you";
    "of their choice": "they", the player doing the step), or None."""
    if isinstance(selector, ast.Selector) and selector.form in ("some", "owned"):
        for part in selector.args:
            if isinstance(part, ast.Qualifier) and part.form in ("of_your_choice",
                                                                 "of_their_choice"):
                return "you" if part.form == "of_your_choice" else "they"
    return None


def compile_stat_of(stat: str, selector: ast.Selector, who: Callable) -> Callable:
    """"the cost of the top card of your deck": the stat of the one card the
    words name, 0 when there is none. Words that make a player choose, or
    that name several cards, are a check problem ("the total STAT of")."""
    kept = CHOSEN_FIRST.get().get(id(selector))
    if kept is not None:
        # chosen as its step began (interpreter.compiler.chosen_first)
        return lambda m, f: m.stat(f.locals[kept], stat) if f.locals.get(kept) is not None \
            else 0
    cards = compile_selector(selector, who)
    if not cards.given and cards.how != "all":
        raise unsupported(selector, f'a card to choose in "the {stat} of ..."', suggestion=(
            f'choose the card in a step before: "Choose {_selector_text(selector)}. ... '
            f'equal to its {stat} ..." ("its": the card chosen)'))

    def value(m, f):
        found = cards.candidates(m, f)
        return m.stat(found[-1], stat) if found else 0
    return value


def compile_measure(measure: ast.Measure) -> Callable:
    if measure.form == "excess":
        if "the excess" not in NAMED_NUMBERS.get():
            raise unsupported(measure, '"the excess" outside a replacement of paying more '
                              'than a player has')
        return lambda m, f: f.locals["excess"]
    if measure.form == "constant":
        value = measure.args[0]
        return lambda m, f: value
    if measure.form in _ARITHMETIC:
        left, right = (compile_measure(a) for a in measure.args)
        operation = _ARITHMETIC[measure.form]
        return lambda m, f: operation(left(m, f), right(m, f))
    if measure.form in _HALF:
        inner = compile_measure(measure.args[0])
        operation = _HALF[measure.form]
        return lambda m, f: operation(inner(m, f))
    if measure.form == "its_stat":
        stat = measure.args[0]
        return lambda m, f: m.stat(_it_or_this(f), stat)
    if measure.form == "counter_measure":
        owner = compile_owner(measure.args[0], _they_or_you)
        name = measure.args[1]
        return lambda m, f: m.player_count(owner(m, f), name)
    if measure.form == "stat_of":
        return compile_stat_of(measure.args[0], measure.args[1], _they_or_you)
    if measure.form == "shared_counter":
        name = measure.args[0]
        return lambda m, f: m.player_count(-1, name)
    if measure.form == "total_stat":
        stat = measure.args[0]
        selection = compile_selector(measure.args[1], _they_or_you)
        return lambda m, f: sum(m.stat(c, stat) for c in selection.candidates(m, f))
    return compile_count(measure.args[0])       # "the number of ..."
