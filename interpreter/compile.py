"""Compiling the AST into programs the engine runs.

A :class:`Program` is a list of instructions; an instruction is a closure
``op(machine, frame)`` built once, when the game loads, from an AST node.
What changes while a game runs is only data in the state: which program
each frame runs, its position ``pc`` and its ``locals`` (the cards chosen so
far, the acting player, whether the last step happened). That is why a game
can be cloned or saved to JSON in the middle of an effect.

An instruction returns ``None`` to go on to the next one, :data:`WAIT` after
it has put a decision in the state (it runs again, with the answer in its
frame's locals, once the decision is answered), or :data:`JUMPED` when it has
set ``frame.pc`` or pushed a frame itself.

Locals every frame may have: ``you`` (the acting player), ``this`` (the card
whose text runs), ``it`` (the card or cards last chosen), ``did`` (whether
the last step happened: "then" and "if you do" read it).

A construct the engine cannot run yet raises :class:`Unsupported` at load
time with the place in the card or rules file, never a wrong result later.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter import operations as op
from interpreter.errors import CardrulesError, Problem
from interpreter.language import ast
from interpreter.source import Span
from interpreter.state import Frame

WAIT = object()
JUMPED = object()

Instruction = Callable[["object", Frame], object]


@attrs.define
class Program:
    name: str
    instructions: list = attrs.Factory(list)
    span: Span | None = None

    def __len__(self) -> int:
        return len(self.instructions)


class Unsupported(CardrulesError):
    """Text the language accepts but this engine cannot run yet."""


def unsupported(node, what: str) -> Unsupported:
    span = getattr(node, "span", None)
    return Unsupported(Problem("E801", f"the engine cannot run {what} yet", span))


# ---------------------------------------------------------------- emitting code


class Emitter:
    """Builds one program; labels are resolved when the program is finished."""

    def __init__(self, name: str, span: Span | None = None):
        self.program = Program(name, [], span)
        self._fixups: list[tuple[int, str]] = []
        self._labels: dict[str, int] = {}
        self._next_label = 0

    def emit(self, instruction: Instruction) -> int:
        self.program.instructions.append(instruction)
        return len(self.program.instructions) - 1

    def label(self) -> str:
        self._next_label += 1
        return f"L{self._next_label}"

    def place(self, label: str) -> None:
        self._labels[label] = len(self.program.instructions)

    def jump_unless(self, test: Callable, label: str) -> None:
        """Jump to ``label`` unless ``test(machine, frame)`` is true."""
        box = [0]
        self._fixups.append((len(self.program.instructions), label, box))

        def jump_unless(m, frame):
            if test(m, frame):
                return None
            frame.pc = box[0]
            return JUMPED
        self.emit(jump_unless)

    def jump(self, label: str) -> None:
        self.jump_unless(lambda m, f: False, label)

    def finish(self) -> Program:
        for _index, label, box in self._fixups:
            box[0] = self._labels[label]
        return self.program


# ---------------------------------------------------------------- players and zones


def compile_player(node) -> Callable:
    """Which player a Player node means, as a function of (machine, frame)."""
    if node is None or node.form == "you":
        return lambda m, f: f.locals["you"]
    form = node.form
    if form == "rival" or form == "each_rival":
        # "your opponent": the opponent chosen for this effect, if any (see
        # StepCompiler.choose_opponent), else the only one (the next player)
        return lambda m, f: m.opponent(f)
    if form == "turn_player":
        return lambda m, f: m.state.turn_player
    if form == "that_player":
        return lambda m, f: f.locals.get("they", f.locals["you"])
    if form == "owner":
        return lambda m, f: m.state.cards[_it_or_this(f)].owner
    if form == "controller":
        return lambda m, f: m.state.cards[_it_or_this(f)].controller
    if form == "next_player":
        def after(m, f):
            player = f.locals.get("they", f.locals["you"])
            return None if player is None else m.next_player(player)
        return after
    if form == "most_counter":
        counter = node.args[0]
        return lambda m, f: m.player_with_most(counter)
    raise unsupported(node, f'the player "{form.replace("_", " ")}" here')


def is_opponent_ref(node) -> bool:
    """ "your opponent" / "your rival" (a player or a possessive)."""
    return (isinstance(node, ast.Player) and node.form in ("rival", "each_rival")) or \
        (isinstance(node, ast.Possessive) and node.form == "rivals")


def mentions_opponent(*values) -> bool:
    """Whether any of these AST values (nodes or tuples of them) names "your
    opponent" somewhere."""
    return any(is_opponent_ref(n) for n in _nodes(values))


def _nodes(value):
    if isinstance(value, ast.Node):
        yield from value.walk()
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)


def _gives_roles(sentences) -> bool:
    """Whether a verb's steps make a card attacking or defending ("it is
    attacking"): roles that end when the verb is done."""
    return any(isinstance(n, ast.State) and n.form in ("attacking", "defending")
               for n in _nodes(tuple(sentences)))


def _picks_one(selector: ast.Selector) -> bool:
    """A selector a player picks one card with ("a Character"), not several
    ("up to 2 Characters": they would have to be one opponent's) nor every
    card it describes ("each")."""
    if selector.form != "some" or not selector.args:
        return False
    return selector.args[0].form in ("one", "another")


def _it_or_this(frame: Frame) -> int:
    it = frame.locals.get("it")
    if isinstance(it, tuple):
        it = it[0] if it else None
    return it if it is not None else frame.locals["this"]


def compile_owner(possessive, subject: Callable) -> Callable:
    """Whose zone: a Possessive node, with ``subject`` for "their"."""
    form = possessive.form
    if form == "your":
        return lambda m, f: f.locals["you"]
    if form == "rivals":
        return lambda m, f: m.opponent(f)
    if form == "their":
        return subject
    if form == "owners":
        return lambda m, f: m.state.cards[_it_or_this(f)].owner
    if form == "controllers":
        return lambda m, f: m.state.cards[_it_or_this(f)].controller
    if form == "turn_players":
        return lambda m, f: m.state.turn_player
    if form == "the":
        return lambda m, f: -1
    raise unsupported(possessive, f'"{form}" zones')


def compile_zone(zone: ast.ZoneRef, subject: Callable) -> Callable:
    """(machine, frame) -> zone key."""
    if zone.form == "zone_slot":
        raise unsupported(zone, "a verb slot outside a verb")
    possessive, name = zone.args
    owner = compile_owner(possessive, subject)

    def key(m, f):
        decl = m.rules.zones[name]
        return (name, -1 if decl.scope == "shared" else owner(m, f))
    return key


# ---------------------------------------------------------------- selectors


@attrs.frozen
class Selection:
    """Which cards a selector may pick, and how many.

    ``candidates(machine, frame)`` lists card ids; ``how`` is "all" (every
    candidate), "one", ("exactly", n) or ("up to", n) — the player picks;
    ``given`` is set when the selector names cards already known (this, it).
    """

    candidates: Callable
    how: object
    given: bool = False
    plural: bool = False
    test: Callable | None = None   # (machine, frame, card) -> whether it fits
    # "with a total cost of 4": (stat, amount function); cards are
    # picked while the total stays within it, never two of one unique title
    budget: tuple | None = None


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
            raise unsupported(node, f'"{count}" cards')
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
    if form == "card_slot":
        raise unsupported(node, f'the selector "{form.replace("_", " ")}"')
    raise unsupported(node, f'the selector "{form}"')


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
    zones: list[Callable] = []
    plural = False
    budget = None
    if any(isinstance(p, ast.Adjective) and p.form == "random" for p in args):
        # "a random card": the engine picks, not a player
        how = ("random", 1 if how in ("one", "all") else how[1])
    for part in args:
        if isinstance(part, ast.Adjective):
            tests.append(_adjective_test(part))
        elif isinstance(part, ast.Noun):
            test, plural = _noun_test(part)
            if test is not None:
                tests.append(test)
        elif isinstance(part, ast.Qualifier) and part.form == "total_budget":
            budget = (part.args[0], compile_amount(part.args[1], part))
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
            isinstance(p, ast.Qualifier) and p.form in ("controlled_by", "at_card")
            for p in args):
        # "Discard a card": from the hand; but "a card your Rival controls"
        # (or "at this Room") is a card in play
        zones.append(default_zone)

    passes = _all_of(tests)

    def candidates(m, f):
        if zones:
            pool = []
            for zone in zones:
                pool.extend(m.state.zones.get(zone(m, f), ()))
        else:
            pool = m.in_play()
        return [c for c in pool if passes(m, f, c)]
    return Selection(candidates, how, plural=plural or how == "all", budget=budget,
                     test=passes)


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
        if not isinstance(n, int):
            raise unsupported(quantity, f'"{n}" cards')
        return ("exactly", n)
    if form == "up_to":
        n = quantity.args[0]
        if not isinstance(n, int):
            raise unsupported(quantity, f'"up to {n}" cards')
        return ("up to", n)
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
    raise unsupported(adj, f'the adjective "{form}"')


def _noun_test(noun: ast.Noun):
    if noun.form == "any_card":
        return None, False
    if noun.form == "any_cards":
        return None, True
    kind = noun.args[0]
    return (lambda m, f, c: m.is_kind(c, kind)), None


def _qualifier(q: ast.Qualifier, subject: Callable):
    """(zone function or None, test or None)."""
    form = q.form
    if form in ("located_in", "taken_from"):
        return compile_zone(q.args[0], subject), None
    if form == "controlled_by":
        if is_opponent_ref(q.args[0]):
            # "a Character your opponent controls": any opponent's, unless
            # this effect has chosen one (several opponents: see choose_opponent)
            return None, lambda m, f, c: m.is_opponent(f, m.state.cards[c].controller)
        who = compile_player(q.args[0])
        return None, lambda m, f, c: m.state.cards[c].controller == who(m, f)
    if form == "with_stat":
        comparison = q.args[0]
        n, stat = comparison.args
        if not isinstance(n, int):
            raise unsupported(q, f'"{n}" in a comparison')
        relation = comparison.form
        if relation == "stat_at_least":
            return None, lambda m, f, c: m.stat(c, stat) >= n
        if relation == "stat_at_most":
            return None, lambda m, f, c: m.stat(c, stat) <= n
        return None, lambda m, f, c: m.stat(c, stat) == n
    if form == "with_keyword":
        keyword = q.args[0].form
        return None, lambda m, f, c: m.has_keyword(c, keyword)
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
    if form == "with_timing":
        label = q.args[0].name if isinstance(q.args[0], ast.CardName) else q.args[0]
        return None, lambda m, f, c: any(
            a.ability.label == label for a in m.definition(c).abilities)
    if form == "that_can_act":
        # "a Character that can attack": no "can't" in force stops it (or
        # its controller) doing that
        what = str(q.args[0]).lower()
        return None, lambda m, f, c: not m.forbidden(m.state.cards[c].controller, what, c)
    if form == "that_can":
        what = "be " + str(q.args[0]).lower()

        def can(m, f, c):
            return not m.forbidden(m.state.cards[c].controller, what, c)
        return None, can
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
    if form == "host_of_this":
        return None, lambda m, f, c: m.state.cards[f.locals["this"]].attached_to == c
    if form in ("that_is", "that_is_not"):
        test = _state_test(q.args[0], subject)
        if form == "that_is":
            return None, test
        return None, lambda m, f, c: not test(m, f, c)
    raise unsupported(q, f'the qualifier "{form.replace("_", " ")}"')


def _state_test(state: ast.State, subject: Callable) -> Callable:
    form = state.form
    if form == "status":
        status = state.args[0]
        return lambda m, f, c: m.has_status(c, status)
    if form == "face_state":
        up = state.args[0] == "face up"
        return lambda m, f, c: m.state.cards[c].face_up == up
    if form == "in_zone":
        zone = compile_zone(state.args[0], subject)
        return lambda m, f, c: m.state.cards[c].zone == zone(m, f)
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


def compile_amount(value, node=None) -> Callable:
    if isinstance(value, int):
        return lambda m, f: value
    if isinstance(value, ast.Measure):
        return compile_measure(value)
    raise unsupported(node or value, f'the amount "{value}"')


def compile_measure(measure: ast.Measure) -> Callable:
    if measure.form == "its_stat":
        stat = measure.args[0]
        return lambda m, f: m.stat(_it_or_this(f), stat)
    if measure.form == "counter_measure":
        owner = compile_owner(measure.args[0], _they_or_you)
        name = measure.args[1]
        return lambda m, f: m.player_count(owner(m, f), name)
    if measure.form == "total_stat":
        stat = measure.args[0]
        selection = compile_selector(measure.args[1], _they_or_you)
        return lambda m, f: sum(m.stat(c, stat) for c in selection.candidates(m, f))
    selection = compile_selector(measure.args[0], lambda m, f: f.locals["you"])
    return lambda m, f: len(selection.candidates(m, f))


def _remember_seen(m, f):
    """The cards just looked at or revealed, with when each entered its zone:
    "the rest" are those of them still there afterwards."""
    it = f.locals.get("it")
    cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
    f.locals["_seen"] = tuple((c, m.state.cards[c].entered) for c in cards)


def _they_or_you(m, f):
    return f.locals.get("they", f.locals["you"])


# ---------------------------------------------------------------- steps


from interpreter.combat import CombatSteps  # noqa: E402 (builds on this module's names)


class StepCompiler(CombatSteps):
    """Compiles sentences of card text or of a rules procedure into an
    Emitter's program."""

    def __init__(self, emitter: Emitter, game):
        self.e = emitter
        self.game = game          # the CompiledGame: zone roles, programs

    # ---- sentences

    def sentences(self, sentences) -> None:
        for sentence in sentences:
            self.sentence(sentence)

    def sentence(self, sentence: ast.Sentence) -> None:
        end = self.e.label()
        # "then": the next part happens only if this one did, except in card
        # text of a game whose card effects resolve "as much as you can"
        waits = not (self.game.rules.as_much_as_you_can and
                     self.e.program.name.startswith("card:"))
        if sentence.form == "then" and waits:
            self.e.jump_unless(lambda m, f: f.locals.get("did", True), end)
        links = list(sentence.args)
        for index, link in enumerate(links):
            item = link.args[0]
            if link.form == "then" and waits:
                self.e.jump_unless(lambda m, f: f.locals.get("did", True), end)
            if isinstance(item, ast.Condition):
                self.condition_item(item, end)
            elif isinstance(item, ast.Step):
                # "Play it, paying all costs": the step knows of its modifier
                after = links[index + 1].args[0] if index + 1 < len(links) else None
                self._paying = isinstance(after, ast.Modifier) and \
                    after.form == "paying_all_costs"
                try:
                    self.step(item)
                finally:
                    self._paying = False
            elif isinstance(item, ast.Modifier) and item.form in ("paying_all_costs",):
                continue
            else:
                raise unsupported(item, f'"{item.form.replace("_", " ")}"')
        self.e.place(end)

    def condition_item(self, item: ast.Condition, end: str) -> None:
        if item.form == "if_":
            test = compile_condition(item.args[0])

            def holds(m, f):
                # "If it is an Action, you may discard it. If you do, ...": when
                # the condition fails, the steps it guards did not happen
                if test(m, f):
                    return True
                f.locals["did"] = False
                return False
            self.e.jump_unless(holds, end)
            return
        raise unsupported(item, f'the condition "{item.form.rstrip("_")}" inside an effect')

    # ---- steps

    def step(self, step: ast.Step) -> None:
        if self.game.rules.players_max > 2 and self._opponent_outside_picks(step):
            self.choose_opponent()
        if step.form == "act":
            subject, optional, action, suffixes = step.args
            ways = {s.form for s in suffixes if s.form in ("one_at_a_time", "quietly")}
            self._suffixes = tuple(s for s in suffixes if s.form == "excess_to" or (
                s.form == "lasting" and action.form == "nullify"))
            repeat = [s for s in suffixes if s.form == "for_each_suffix"]
            # "... one at a time while there are 3 or more Rooms in the Room
            # Row": card by card, the condition checked before each
            holding = [s for s in suffixes if s.form == "while_suffix"]
            others = [s for s in suffixes if s.form not in ways and s not in self._suffixes
                      and s not in repeat and s not in holding]
            if others:
                raise unsupported(others[0], "a step that lasts or repeats")
            if holding and action.form not in ("move", "put", "return_", "add"):
                raise unsupported(holding[0], 'a step other than moving cards done "while ..."')
            self._while = compile_condition(holding[0].args[0]) if holding else None
            if repeat:
                self.repeat_for_each(step, repeat[0])
                return
            self._ways = ways
            try:
                if subject is not None and subject.form == "each_player":
                    self.for_each_player(lambda who: self.action(action, who, optional))
                elif subject is not None and subject.form in ("most_counter", "next_player"):
                    # "The player with the most Points ...": no one on a tie
                    # (and then no "next player" after them either)
                    who = compile_player(subject)
                    skip = self.e.label()

                    def anyone(m, f):
                        f.locals["they"] = who(m, f)
                        f.locals["did"] = f.locals["they"] is not None
                        return f.locals["did"]
                    self.e.jump_unless(anyone, skip)
                    self.action(action, lambda m, f: f.locals["they"], optional)
                    self.e.place(skip)
                else:
                    self.action(action, compile_player(subject), optional)
            finally:
                self._ways = set()
                self._while = None
            return
        if step.form == "player_verb_step":
            subject, optional, use, suffixes = step.args
            if subject.form == "each_player":
                self.for_each_player(lambda who: self.as_player(who, use, optional))
            else:
                self.as_player(compile_player(subject), use, optional)
            return
        if step.form == "state_change":
            self.state_change(step)
            return
        if step.form == "verb_step":
            optional, use, suffixes = step.args
            self.verb(use, optional)
            return
        if step.form == "player_cannot":
            self.player_cannot(step)
            return
        raise unsupported(step, f'"{step.form.replace("_", " ")}"')

    # ---- "your opponent" with several opponents

    @staticmethod
    def _opponent_outside_picks(step: ast.Step) -> bool:
        """Whether a step names "your opponent" where a player, not a card
        picked, decides who it is ("Your opponent draws", "for each Character
        your opponent controls", "each Character your opponent controls"):
        then the acting player chooses the opponent first. A card picked
        among an opponent's ("Exhaust a Character your opponent controls")
        may be any opponent's: picking it chooses the opponent."""
        if not mentions_opponent(step.args):
            return False
        if step.form != "act":
            return True
        subject, _optional, action, suffixes = step.args
        picks = [a for a in action.args if isinstance(a, ast.Selector) and _picks_one(a)]
        others = tuple(a for a in action.args if not any(a is p for p in picks))
        return mentions_opponent(subject, others, suffixes)

    def choose_opponent(self) -> None:
        """The acting player chooses which opponent "your opponent" is for
        the rest of this effect, when several are in the game and none is
        chosen yet (no decision with a single opponent)."""
        store = f"_opp{len(self.e.program.instructions)}"

        def choose(m, f):
            you = f.locals["you"]
            if store in f.locals:
                f.locals["#opponent"] = (you, f.locals.pop(store))
                return None
            if m.chosen_opponent(f) is not None:
                return None
            opponents = m.opponents(you)
            if len(opponents) <= 1:
                return None
            return m.ask(f, you, "choose", "choose an opponent", tuple(opponents), store,
                         tuple(f"player {p + 1}" for p in opponents))
        self.e.emit(choose)

    def repeat_for_each(self, step: ast.Step, suffix) -> None:
        """"Gain 1 Gold for each exhausted Creature": the step
        once per card counted when it starts."""
        subject, optional, action, suffixes = step.args
        counted = compile_selector(suffix.args[0], lambda m, f: f.locals["you"])
        key = f"_times{len(self.e.program.instructions)}"
        top, done = self.e.label(), self.e.label()

        def count(m, f):
            f.locals[key] = len(counted.candidates(m, f))
        self.e.emit(count)
        self.e.place(top)
        self.e.jump_unless(lambda m, f: f.locals[key] > 0, done)
        self.step(ast.Step("act", (subject, optional, action, tuple(
            s for s in suffixes if s is not suffix)), step.span))

        def less(m, f):
            f.locals[key] -= 1
        self.e.emit(less)
        self.e.jump(top)
        self.e.place(done)

    def as_player(self, who: Callable, use: ast.VerbUse, optional: bool) -> None:
        """A game verb done by another player: "you" in its definition is
        that player while it runs."""
        saved = f"_you{len(self.e.program.instructions)}"

        def become(m, f):
            f.locals[saved] = f.locals["you"]
            f.locals["you"] = who(m, f)
        self.e.emit(become)
        self.verb(use, optional)

        def restore(m, f):
            f.locals["you"] = f.locals.pop(saved)
        self.e.emit(restore)

    def player_cannot(self, step: ast.Step) -> None:
        """"You can't attack this turn": a prohibition on a player, kept as a
        modifier whose target is the player (``player_target``)."""
        player, capability, *suffixes = step.args
        name = register_capability(self.game, capability)
        until = None
        for suffix in suffixes:
            if suffix.form != "lasting":
                raise unsupported(suffix, f'"{suffix.form.replace("_", " ")}" here')
            until = compile_duration(suffix.args[0])
        who = compile_player(player)

        def forbid(m, f):
            end = until(m, f) if until is not None else ("game", 0, "end")
            m.add_modifier(player_target(who(m, f)), "cannot", name, 1,
                           f.locals.get("this"), end)
        self.e.emit(forbid)

    def for_each_player(self, body: Callable) -> None:
        """Run ``body`` once per player, the turn player first."""
        index = f"_each{len(self.e.program.instructions)}"
        top, done = self.e.label(), self.e.label()

        def start(m, f):
            f.locals[index] = 0
        self.e.emit(start)
        self.e.place(top)
        # players out of the game have no turn in "each player"
        self.e.jump_unless(lambda m, f: f.locals[index] < len(m.seat_order()), done)

        def bind(m, f):
            f.locals["they"] = m.seat_order()[f.locals[index]]
        self.e.emit(bind)
        body(lambda m, f: f.locals["they"])

        def advance(m, f):
            f.locals[index] += 1
        self.e.emit(advance)
        self.e.jump(top)
        self.e.place(done)

    def optional(self, who: Callable, prompt: str) -> str:
        """Ask ``who`` yes or no; returns the label that skips when no."""
        skip = self.e.label()
        store = f"_may{len(self.e.program.instructions)}"

        def ask(m, f):
            if store in f.locals:
                return None
            return m.ask(f, who(m, f), "yes-no", prompt, (True, False), store,
                         ("yes", "no"))
        self.e.emit(ask)

        def read(m, f):
            answer = f.locals.pop(store)
            f.locals["did"] = answer
            return None
        self.e.emit(read)
        self.e.jump_unless(lambda m, f: f.locals["did"], skip)
        return skip

    def action(self, action: ast.Action, who: Callable, optional: bool) -> None:
        def bind_they(m, f):
            # "they", "their": the player doing this step
            f.locals["they"] = who(m, f)
        self.e.emit(bind_they)
        skip = self.optional(who, _prompt(action)) \
            if optional and action.form not in self.ASKS_ITSELF else None
        handler = getattr(self, "do_" + action.form, None)
        if handler is None:
            raise unsupported(action, f'"{action.form.replace("_", " ")}"')
        handler(action, who)
        if skip is not None:
            self.e.place(skip)

    # ---- selecting cards

    def select(self, selector, who: Callable, chooser: Callable | None = None,
               prompt: str = "choose a card", default_zone: Callable | None = None) -> None:
        """Set ``it`` to the cards the selector picks (asking if needed)."""
        selection = compile_selector(selector, who, default_zone)
        if isinstance(selector, ast.Selector) and selector.form in (
                "the_attacking", "the_defending") and selector.args[0].form == "kind" and \
                self.game.rules.kind(selector.args[0].args[0]) is not None:
            # "the defending Ally" (a kind in the singular) while two defend:
            # the effect's controller picks one of them
            selection = attrs.evolve(selection, how="one", given=False)
        chooser = chooser or (lambda m, f: f.locals["you"])
        store = f"_pick{len(self.e.program.instructions)}"

        def pick(m, f):
            return m.pick(f, selection, chooser(m, f), prompt, store)
        self.e.emit(pick)
        if self.game.rules.players_max > 2 and isinstance(selector, ast.Selector) and \
                mentions_opponent(selector):
            # a card picked among an opponent's: that opponent is "your
            # opponent" for the rest of the effect
            def bind(m, f):
                it = f.locals.get("it")
                you = f.locals["you"]
                if isinstance(it, int) and m.chosen_opponent(f) is None and \
                        m.state.cards[it].controller != you:
                    f.locals["#opponent"] = (you, m.state.cards[it].controller)
            self.e.emit(bind)

    def each_chosen(self, body: Callable) -> None:
        """Run ``body(card)`` on each chosen card (``it``); did = any.
        "without triggering abilities": the zone events of the moves are
        not fired."""
        quiet = "quietly" in getattr(self, "_ways", ())

        def run(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            m.quiet = quiet
            try:
                for card in cards:
                    body(m, f, card)
            finally:
                m.quiet = False
            m.shuffle_touched()
            f.locals["did"] = bool(cards)
        self.e.emit(run)

    def one_at_a_time(self, selector, who: Callable, body: Callable,
                      holds: Callable | None = None) -> None:
        """"Move the top 3 cards of your deck ... one at a time": one card per
        run of the instruction, so that what the move triggers resolves
        before the next card is taken. The cards are looked for again each
        time (the top card may have changed). A pile declared "a player who
        needs a card from it when it is empty loses" makes its player lose
        when it runs out before the count is reached. ``holds`` ("while
        ..."): the condition checked before each card; the step stops when
        it fails."""
        selection = compile_selector(selector, who)
        quiet = "quietly" in getattr(self, "_ways", ())
        store = f"_one{len(self.e.program.instructions)}"
        if selector.form in ("top_cards", "bottom_cards"):
            count = selector.args[0] if len(selector.args) == 2 else 1
            required = compile_amount(count, selector)
            zone = compile_zone(selector.args[-1], who)
        else:
            required = lambda m, f: len(selection.candidates(m, f))  # noqa: E731
            zone = None

        def step(m, f):
            locals_ = f.locals
            if store not in locals_:
                locals_[store] = (required(m, f), 0)
            remaining, done = locals_[store]
            if remaining <= 0 or (holds is not None and not holds(m, f)):
                del locals_[store]
                f.locals["did"] = done > 0
                return None
            candidates = selection.candidates(m, f)
            if not candidates:
                del locals_[store]
                f.locals["did"] = False
                if zone is not None:
                    m.needed_card_from(zone(m, f))
                return None
            m.quiet = quiet
            try:
                body(m, f, candidates[0])
            finally:
                m.quiet = False
            if remaining == 1:
                m.shuffle_touched()
            locals_[store] = (remaining - 1, done + 1)
            return JUMPED
        self.e.emit(step)

    # ---- the primitive actions

    def do_draw(self, action, who):
        count = compile_amount(action.args[0], action)

        def draw(m, f):
            f.locals["did"] = m.draw(who(m, f), count(m, f)) > 0
        self.e.emit(draw)

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
        if decl is not None and decl.per_player:
            # "on cards, per player": the adding player's own on that card
            self.each_chosen(lambda m, f, c: m.add_card_counter(
                c, counter_on_card(counter, who(m, f)), amount(m, f)))
            return
        self.each_chosen(lambda m, f, c: m.add_card_counter(c, counter, amount(m, f)))

    def do_put_counter(self, action, who):
        n, counter, dest = action.args
        if dest.form != "to_card":
            raise unsupported(dest, "counters put into a zone")
        self.do_add_counter(ast.Action("add_counter", (n, counter, dest.args[0]),
                                       action.span), who)

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

    def do_repeat(self, action, who):
        """ "Repeat this": the ability runs again from its start (the engine's
        step guard ends a game that would repeat for ever)."""
        def again(m, f):
            f.pc = 0
            return JUMPED
        self.e.emit(again)

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
        self.select(selector, who)
        store = f"_place{len(self.e.program.instructions)}"

        def keep(m, f):
            f.locals[store] = f.locals.get("it")
        self.e.emit(keep)
        self.select(place, who, who, "choose where to place it")
        key = compile_zone(zone, who)
        up = face == "face up"

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
        """"Compare X against Y by power plus the cost of the top card of its
        controller's deck": each side's stat, plus (when written) the stat of
        the top card of that pile of its controller's, revealed and put back
        at the bottom; "it" is the card with the lower total (none on a tie).
        A side whose pile is empty needs a card from it (see the zone's
        rules)."""
        first, second, stat = action.args[:3]
        bonus = action.args[3:5] if len(action.args) > 3 else None
        keep = f"_cmp{len(self.e.program.instructions)}"
        self.select(first, who, who, "choose a card")

        def hold(m, f):
            f.locals[keep] = f.locals.get("it")
        self.e.emit(hold)
        self.select(second, who, who, "choose a card")

        def compare(m, f):
            one = f.locals.pop(keep, None)
            other = f.locals.get("it")
            one = one[0] if isinstance(one, tuple) and one else one
            other = other[0] if isinstance(other, tuple) and other else other
            f.locals["did"] = False
            if one in (None, ()) or other in (None, ()):
                f.locals["it"] = ()
                return None
            totals = []
            for card in (one, other):
                total = m.stat(card, stat)
                if bonus is not None:
                    pile_key = (bonus[1], m.state.cards[card].controller)
                    pile = m.state.zones.get(pile_key, [])
                    if not pile:
                        m.needed_card_from(pile_key)
                        if m.state.result is not None:
                            return None
                    else:
                        top = pile[-1]
                        op.reveal(m.state, top)
                        total += m.stat(top, bonus[0])
                        m.move(top, pile_key, top=False)
                totals.append(total)
            m.state.log.append(("compare", one, totals[0], other, totals[1], stat))
            if totals[0] == totals[1]:
                f.locals["it"] = ()
                return None
            f.locals["it"] = one if totals[0] < totals[1] else other
            f.locals["did"] = True
            return None
        self.e.emit(compare)

    def do_bid_for_turn(self, action, who):
        """"Players bid up to 5 cards of their deck for the next turn, ties
        broken by cost" (see Machine.bid_for_turn); "they" is the winner."""
        limit = compile_amount(action.args[0], action)
        zone, stat = action.args[1], action.args[2]
        store = f"_bid{len(self.e.program.instructions)}"
        self.e.emit(lambda m, f: m.bid_for_turn(f, store, limit(m, f), zone, stat))

    def do_choose_first_player(self, action, who):
        """ "A random player chooses the first player" (setup): see
        Machine.choose_first_player."""
        store = f"_first{len(self.e.program.instructions)}"
        self.game.first_chosen = True
        self.e.emit(lambda m, f: m.choose_first_player(f, store))

    def do_take_next_turn(self, action, who):
        """The player takes the next turn (whatever the seat order says)."""
        def take(m, f):
            m.state.usage["#next turn"] = who(m, f)
            f.locals["did"] = True
        self.e.emit(take)

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
            f.locals["did"] = bool(cards)
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

    def do_move(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

    def do_put(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

    def do_return(self, action, who):
        self._to_destination(action, who, action.args[0], action.args[1])

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

        def where(m, f, card):
            key = zone(m, f)
            if key[0] in m.rules.zones and key[1] >= 0 and dest.args[0].args[0].form in (
                    "the",):
                key = (key[0], m.state.cards[card].owner)
            up = face_up
            if up is None:
                up = m.rules.zones[key[0]].visibility == "public"
            return key, top, up
        return where

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
            op.shuffle(m.state, key)
            f.locals["did"] = True
        self.e.emit(shuffle)

    def _counter_change(self, who, counter, amount, sign, pay=False):
        decl = self.game.rules.counters.get(counter)
        overspend = decl.overspend_to if decl is not None else None
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
            if pay and overspend is not None:
                f.locals["did"] = m.overspend(player, counter, n, overspend)
                return None
            if pay and have < n:
                f.locals["did"] = False
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

    def do_pay_measured(self, action, who):
        counter, measure = action.args
        self._counter_change(who, counter, compile_measure(measure), -1, pay=True)

    def _deal(self, action, who, amount, target):
        if isinstance(target, ast.Player) and self.game.rules.player_damage is not None:
            # the rules' "player damage" procedure, once per point of damage
            from interpreter.combat import damage_player

            hurt = compile_player(target)

            def deal_by_procedure(m, f):
                f.locals["did"] = True
                f.pc += 1
                damage_player(m, hurt(m, f), amount(m, f))
                return JUMPED
            self.e.emit(deal_by_procedure)
            return
        if isinstance(target, ast.Player):
            victim = compile_player(target)
            counter = self.game.damage_counter(action)

            def deal(m, f):
                player = victim(m, f)
                m.set_counter(player, counter,
                              m.state.counter(player, counter) - amount(m, f))
                f.locals["did"] = True
            self.e.emit(deal)
            return
        # the amount is read before the target is chosen: "its" in "damage
        # equal to its AP to a Being" is the card before the target
        measured = amount

        def measure(m, f):
            f.locals["_amount"] = measured(m, f)
        self.e.emit(measure)
        amount = (lambda m, f: f.locals.get("_amount", 0))
        self.select(target, who, prompt="choose a card to damage")
        excess = getattr(self, "_excess", None)
        # damage written in a rules file's action is battle damage; card text
        # deals effect damage
        battle = self.e.program.name.startswith("action:")
        if excess is not None:
            possessive, counter = excess
            owner = compile_owner(possessive, lambda m, f: m.state.cards[_it_or_this(f)].controller)

            def deal_with_excess(m, f, c):
                over = m.damage_card(c, amount(m, f), battle)
                if over > 0:
                    player = owner(m, f)
                    m.set_counter(player, counter, m.state.counter(player, counter) - over)
            self.each_chosen(deal_with_excess)
            return
        self.each_chosen(lambda m, f, c: m.damage_card(c, amount(m, f), battle))

    def _excess_suffix(self, action):
        suffixes = getattr(self, "_suffixes", ())
        found = [s for s in suffixes if s.form == "excess_to"]
        self._excess = found[0].args if found else None

    def do_deal(self, action, who):
        n, target = action.args
        self._excess_suffix(action)
        self._deal(action, who, compile_amount(n, action), target)

    def do_deal_measured(self, action, who):
        measure, target = action.args
        self._excess_suffix(action)
        self._deal(action, who, compile_measure(measure), target)

    def do_destroy(self, action, who):
        self.select(action.args[0], who, prompt="choose a card to destroy")
        self.each_chosen(lambda m, f, c: m.destroy(c))

    def _status(self, action, who, status, on):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: m.set_status(c, status, on))

    def do_exhaust(self, action, who):
        self._status(action, who, "exhausted", True)

    def do_rest(self, action, who):
        self._status(action, who, "rested", True)

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
            self.each_chosen(lambda m, f, c: m.add_modifier(
                c, "status", "nullified", 1, f.locals.get("this"), until(m, f)))
            return
        self._status(action, who, "nullified", True)

    def do_ready(self, action, who):
        self.select(action.args[0], who)

        def ready(m, f, c):
            m.set_status(c, "exhausted", False)
            m.set_status(c, "rested", False)
        self.each_chosen(ready)

    def do_flip(self, action, who):
        self.select(action.args[0], who)
        up = len(action.args) < 2 or action.args[1] == "face up"
        self.each_chosen(lambda m, f, c: m.flip(c, up))

    def do_reveal(self, action, who):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: op.reveal(m.state, c))
        self.e.emit(_remember_seen)

    def do_look(self, action, who):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: op.reveal(m.state, c, who(m, f)))
        self.e.emit(_remember_seen)

    def do_choose(self, action, who):
        self.select(action.args[0], who, who)

        def did(m, f):
            f.locals["did"] = f.locals.get("it") not in (None, ())
        self.e.emit(did)

    def do_win(self, action, who):
        self.e.emit(lambda m, f: m.win(who(m, f), "an effect"))

    def do_lose_game(self, action, who):
        self.e.emit(lambda m, f: m.lose(who(m, f), "an effect"))

    def do_play(self, action, who):
        """Play a card: the game's action that counts as "played", without
        its cost, on each chosen card."""
        if len(action.args) > 1:
            raise unsupported(action, "playing a card onto a place")
        self.select(action.args[0], who, who, "choose a card to play", self.hand(who))
        program = self.game.play_program
        if program is None:
            raise unsupported(action, 'playing a card (no action "counts as: played")')
        paying = getattr(self, "_paying", False)

        def play(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            f.locals["did"] = bool(cards)
            f.pc += 1
            for card in reversed(cards):
                m.state.frames.append(Frame(m.play_program_for(card, f.locals["you"],
                                                               paying) or program, 0,
                                            {"you": f.locals["you"], "it": card,
                                             "this": card}))
            return JUMPED
        self.e.emit(play)

    def do_alternate_until_passes(self, action, who):
        store = f"_alt{len(self.e.program.instructions)}"

        def window(m, f):
            return m.alternate(f, store, None)
        self.e.emit(window)

    def do_alternate_count(self, action, who):
        store = f"_alt{len(self.e.program.instructions)}"
        count = compile_amount(action.args[0], action)

        def window(m, f):
            return m.alternate(f, store, count(m, f))
        self.e.emit(window)

    def do_any_time_window(self, action, who):
        """ "Players may respond": each player in turn, from the turn player,
        may take actions usable at any time, until all pass in a row."""
        store = f"_any{len(self.e.program.instructions)}"

        def window(m, f):
            return m.any_time_window(f, store, None)
        self.e.emit(window)

    def do_take_actions(self, action, who):
        store = f"_act{len(self.e.program.instructions)}"

        def window(m, f):
            return m.action_window(f, who(m, f), store)
        self.e.emit(window)

    def do_take_actions_priority(self, action, who):
        store = f"_act{len(self.e.program.instructions)}"

        def window(m, f):
            return m.priority_window(f, who(m, f), store)
        self.e.emit(window)

    # ---- statements about cards, verbs

    def state_change(self, step: ast.Step) -> None:
        """"This gets +20 AP until the End Stage": a modifier on each card,
        lasting as long as its duration says (or for good without one)."""
        if self.combat_statement(step):
            return
        selector, statement, suffixes = step.args
        changes = statement_changes(statement, self.game)
        until = None
        for suffix in suffixes:
            if suffix.form == "lasting":
                until = compile_duration(suffix.args[0])
            else:
                raise unsupported(suffix, f'"{suffix.form.replace("_", " ")}" here')
        self.select(selector, lambda m, f: f.locals["you"])

        def modify(m, f, card):
            end = until(m, f) if until is not None else ("game", 0, "end")
            for kind, name, amount in changes:
                m.add_modifier(card, kind, name, amount, f.locals.get("this"), end)
        self.each_chosen(modify)

    def verb(self, use: ast.VerbUse, optional: bool) -> None:
        """A game verb ("Mill 1") runs its definition from the rules
        file, its slots ({n}, {card}) filled with what the card says."""
        decl = next((v for v in self.game.rules.verbs if v.pattern.text == use.form), None)
        if decl is None or decl.definition is None:
            raise unsupported(use, f'the game verb "{use.form}" (it has no definition)')
        from interpreter.language.game_rules import parse_ability

        depth = getattr(self, "_verb_depth", 0)
        if depth > 8:
            raise unsupported(use, f'the game verb "{use.form}" (it is defined in terms of itself)')
        definition = parse_ability(self.game.rules, decl.definition, self.game.rules.path)
        values = dict(zip(use_slots(decl.pattern.text), use.args))
        filled = tuple(fill_slots(s, values, use) for s in definition.resolution)
        cannot = None
        if optional:
            # "You may Muster 1": not asked when the verb's steps that pay
            # (reveal, rest, pay ...) cannot be done
            checks = _doable_checks(filled, self.game.rules)
            if checks:
                cannot = self.e.label()

                def doable(m, f):
                    if all(check(m, f) for check in checks):
                        return True
                    f.locals["did"] = False
                    return False
                self.e.jump_unless(doable, cannot)
        skip = self.optional(lambda m, f: f.locals["you"], _verb_prompt(use)) if optional \
            else None
        roles = depth == 0 and _gives_roles(filled)
        if roles:
            # "it is attacking" inside a verb: the role lasts while the verb
            # runs (the outermost one: a verb it uses may give roles too)
            key = f"_roles{len(self.e.program.instructions)}"

            def before(m, f):
                f.locals[key] = tuple(c for c in m.in_play() if any(
                    r in m.state.cards[c].statuses for r in ("attacker", "defender")))
            self.e.emit(before)
        self._verb_depth = depth + 1
        try:
            self.sentences(filled)
        finally:
            self._verb_depth = depth
        if roles:
            def after(m, f):
                kept = f.locals.pop(key, ())
                for card in list(m.in_play()):
                    for role in ("attacker", "defender"):
                        if card not in kept and role in m.state.cards[card].statuses:
                            m.set_status(card, role, False)
            self.e.emit(after)
        if decl.event is not None:
            # "counts as: sacrificed": the event of each card the verb acted on
            def counts(m, f, event=decl.event):
                it = f.locals.get("it")
                for card in (it if isinstance(it, tuple) else (it,)):
                    if isinstance(card, int):
                        m.event(event, card, m.state.cards[card].owner)
            self.e.emit(counts)
        if skip is not None:
            self.e.place(skip)
        if cannot is not None:
            self.e.place(cannot)


def _doable_checks(sentences, rules) -> list:
    """Checks for the steps of ``sentences`` that can be checked like costs,
    or that act on cards a selector must find ("Return a Creature your
    Rival controls ..."); the others are left out: they can always be tried."""
    from interpreter.compile_game import _cost_checks_for_costs

    checks = []
    for sentence in sentences:
        for link in sentence.args:
            step = link.args[0]
            try:
                checks.extend(_cost_checks_for_costs([step], rules))
                continue
            except Unsupported:
                pass
            # (only actions whose cards are looked for in play when no zone is named)
            if isinstance(step, ast.Step) and step.form == "act" and \
                    step.args[2].form in ("return", "destroy") and \
                    isinstance(step.args[2].args[0], ast.Selector) and \
                    step.args[2].args[0].form in ("some", "owned"):
                try:
                    found = compile_selector(step.args[2].args[0], compile_player(step.args[0]))
                except Unsupported:
                    continue
                checks.append(lambda m, f, found=found: bool(found.candidates(m, f)))
    return checks


def statement_changes(statement: ast.Statement, game=None) -> list[tuple]:
    """(kind, name, amount) modifiers a statement makes: stat changes,
    keywords, prohibitions and permissions. A prohibition's meaning is
    registered with ``game`` (see ``compile_capability``)."""
    form = statement.form
    if form == "cannot" and game is not None:
        register_capability(game, statement.args[0])
    if form == "gets":
        out = []
        for change in statement.args:
            amount, stat = change.args
            out.append(("stat", stat, amount))
        return out
    if form == "has_keyword":
        return [("keyword", statement.args[0].form, 1)]
    if form in ("costs_less", "costs_more"):
        # a change to the card's cost in a counter (see Machine.cost_of)
        amount, counter = statement.args
        if not isinstance(amount, int):
            raise unsupported(statement, "a cost change of a varying amount")
        return [("cost", counter, -amount if form == "costs_less" else amount)]
    if form in ("cannot", "can", "must"):
        from interpreter.language.render import _capability

        return [(form, _capability(statement.args[0]), 1)]
    if form == "becomes" and statement.args[0].form == "status":
        # "it is fresh until your next turn": a status kept as a modifier
        return [("status", statement.args[0].args[0], 1)]
    raise unsupported(statement, f'a card becoming "{form}"')


def counter_on_card(counter: str, player: int) -> str:
    """Where a card keeps one player's counters of a counter "on cards, per
    player" (a card counter of its own: "Progress Marker of player 2")."""
    return f"{counter} of player {player + 1}"


def player_target(player: int) -> int:
    """A modifier's target for a player rather than a card: card ids are 0 or
    more, so a player is a negative number."""
    return -1 - player


def capability_name(capability: ast.Capability) -> str:
    from interpreter.language.render import _capability

    return _capability(capability)


def register_capability(game, capability: ast.Capability) -> str:
    """Compile once what a "can't" forbids, keyed by its canonical text:
    (verb, test of its object or None). An action is forbidden when its
    name starts with the verb ("can't attack" forbids the action "attack"
    with that card); "can't be destroyed" stops the operation itself."""
    name = capability_name(capability)
    if name not in game.capabilities:
        if capability.form == "be_participle":
            game.capabilities[name] = (name.split(" ")[0] + " " + capability.args[0], None)
        else:
            verb = str(capability.args[0]).lower()
            if verb.endswith("s") and not verb.endswith("ss"):
                verb = verb[:-1]
            target = next((a for a in capability.args[1:] if isinstance(a, ast.Selector)), None)
            test = None
            if target is not None:
                test = compile_selector(target, lambda m, f: f.locals["you"]).test
            game.capabilities[name] = (verb, test)
    return name


def compile_duration(duration: ast.Duration) -> Callable:
    """(machine, frame) -> the modifier's end: (period, occurrence, edge)."""
    form = duration.form
    if form == "until_after_action":
        whose = compile_owner(duration.args[0], lambda m, f: f.locals["you"])
        return lambda m, f: m.next_action_end(whose(m, f))
    ref = duration.args[0]
    period = ref.args[0]
    relation = ref.form

    def occurrence(m, f, edge):
        count = m.state.period_counts.get(period, 0)
        # the turn (and its other name, "called: Round") is always under way
        current = period in ("turn", m.rules.turn_name) or \
            m.state.period.get("phase") == period or m.state.period.get("step") == period
        if period in ("turn", m.rules.turn_name) and relation in ("your", "rivals") and \
                "you" in f.locals:
            # "your Rival's turn" during your turn (or "your turn" during your
            # Rival's): the next turn, not this one
            mine = m.state.turn_player == f.locals["you"]
            current = mine if relation == "your" else not mine
        if relation == "next" or edge == "start" or not current:
            return count + 1
        return count

    if form in ("until_end", "during_period", "rest_of"):
        return lambda m, f: (period, occurrence(m, f, "end"), "end")
    if form == "until":
        return lambda m, f: (period, occurrence(m, f, "start"), "start")
    raise unsupported(duration, f'the duration "{form}"')


def use_slots(pattern: str) -> list[str]:
    import re

    return re.findall(r"\{[a-z]+\}", pattern)


def fill_slots(node, values: dict, use):
    """A copy of a verb's definition with its slots replaced by the values
    the card gives ("{n}" -> 1, "{card}" -> "a Being in your hand")."""
    if isinstance(node, str) and node in values:
        return values[node]
    if isinstance(node, tuple):
        return tuple(fill_slots(n, values, use) for n in node)
    if isinstance(node, ast.Node):
        if node.form in ("card_slot", "zone_slot", "player_slot") and node.args and \
                node.args[0] in values:
            return values[node.args[0]]
        return attrs.evolve(node, args=fill_slots(node.args, values, use))
    return node


def _verb_prompt(use: ast.VerbUse) -> str:
    from interpreter.language.render import _verb_use

    return _verb_use(use)


def _prompt(action: ast.Action) -> str:
    from interpreter.language.render import _action

    try:
        return _action(action, None)
    except Exception:  # a prompt is only for reading
        return action.form.replace("_", " ")


# ---------------------------------------------------------------- conditions


def compile_condition(cond: ast.Condition) -> Callable:
    form = cond.form
    if form == "you_do":
        return lambda m, f: bool(f.locals.get("did", False))
    if form == "you_dont":
        return lambda m, f: not f.locals.get("did", False)
    if form == "controls":
        who = compile_player(cond.args[0])
        selection = compile_selector(cond.args[1], who)
        if is_opponent_ref(cond.args[0]):
            # "If your opponent controls ...": any opponent, unless one is chosen
            return _count_test(selection, lambda m, f, c: m.is_opponent(
                f, m.state.cards[c].controller))
        return _count_test(selection, lambda m, f, c: m.state.cards[c].controller == who(m, f))
    if form == "has_cards":
        who = compile_player(cond.args[0])
        selection = compile_selector(cond.args[1], who)
        return _count_test(selection, None)
    if form == "counter_is":
        owner = compile_owner(cond.args[0], lambda m, f: f.locals["you"])
        name, comparison = cond.args[1], cond.args[2]
        return _compare(comparison, lambda m, f: m.player_count(owner(m, f), name))
    if form == "zone_has":
        # "the turn player's deck has no cards"
        zone = compile_zone(cond.args[0], lambda m, f: f.locals["you"])
        selection = compile_selector(cond.args[1], lambda m, f: f.locals["you"],
                                     default_zone=zone)
        return _count_test(selection, None)
    if form == "has_counter":
        who = compile_player(cond.args[0])
        comparison, name = cond.args[1], cond.args[2]
        return _compare(comparison, lambda m, f: m.player_count(who(m, f), name))
    if form == "is_state":
        selection = compile_selector(cond.args[0], lambda m, f: f.locals["you"])
        test = _state_test(cond.args[1], lambda m, f: f.locals["you"])
        return lambda m, f: any(test(m, f, c) for c in selection.candidates(m, f))
    if form == "is_not_state":
        selection = compile_selector(cond.args[0], lambda m, f: f.locals["you"])
        test = _state_test(cond.args[1], lambda m, f: f.locals["you"])
        return lambda m, f: not any(test(m, f, c) for c in selection.candidates(m, f))
    if form == "no_moves_left":
        # a player locked out of the current "Players alternate moves" window
        who = compile_player(cond.args[0])
        return lambda m, f: who(m, f) in m.state.usage.get("#no moves", ())
    if form in ("is_player", "is_not_player"):
        # "If you are not the player with the most Points" (nobody on a tie)
        first, second = compile_player(cond.args[0]), compile_player(cond.args[1])
        same = form == "is_player"
        return lambda m, f: (first(m, f) == second(m, f)) == same
    if form == "player_count":
        # "If the game has 3 or more players": the players it began with
        return _compare(cond.args[0], lambda m, f: m.state.players)
    if form == "there_are":
        # "If there are 2 or more Traps at this Room"
        return _count_test(compile_selector(cond.args[0], lambda m, f: f.locals["you"]), None)
    raise unsupported(cond, f'the condition "{form.replace("_", " ")}"')


def _count_test(selection: Selection, extra) -> Callable:
    how = selection.how

    def test(m, f):
        cards = selection.candidates(m, f)
        if extra is not None:
            cards = [c for c in cards if extra(m, f, c)]
        if how == ("exactly", 0):
            return not cards
        if isinstance(how, tuple) and how[0] in ("exactly", "at least"):
            return len(cards) >= how[1]
        if isinstance(how, tuple) and how[0] == "at most":
            return len(cards) <= how[1]
        return bool(cards)
    return test


def _compare(comparison: ast.Comparison, value: Callable) -> Callable:
    if comparison.form == "none":
        return lambda m, f: value(m, f) == 0
    if comparison.form == "less_than_counter":
        owner = compile_owner(comparison.args[0], lambda m, f: f.locals["you"])
        name = comparison.args[1]
        return lambda m, f: value(m, f) < m.player_count(owner(m, f), name)
    n = comparison.args[0]
    if not isinstance(n, int):
        raise unsupported(comparison, f'"{n}" in a comparison')
    if comparison.form == "at_least":
        return lambda m, f: value(m, f) >= n
    if comparison.form == "at_most":
        return lambda m, f: value(m, f) <= n
    return lambda m, f: value(m, f) == n
