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

from interpreter import ast, operations as op
from interpreter.errors import CardrulesError, Problem
from interpreter.source import Span
from interpreter.state import Decision, Frame, Modifier

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
        return lambda m, f: m.rival_of(f.locals["you"])
    if form == "turn_player":
        return lambda m, f: m.state.turn_player
    if form == "that_player":
        return lambda m, f: f.locals.get("they", f.locals["you"])
    if form == "owner":
        return lambda m, f: m.state.cards[_it_or_this(f)].owner
    if form == "controller":
        return lambda m, f: m.state.cards[_it_or_this(f)].controller
    raise unsupported(node, f'the player "{form.replace("_", " ")}" here')


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
        return lambda m, f: m.rival_of(f.locals["you"])
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
        return Selection(lambda m, f: [f.locals["this"]], "all", given=True,
                         test=lambda m, f, c: c == f.locals.get("this"))
    if form in ("it", "them", "that", "those", "current"):
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
        if not isinstance(count, int):
            raise unsupported(node, f'"{count}" cards')
        key = compile_zone(zone, subject)
        top = form == "top_cards"

        def pile(m, f):
            cards = m.state.zones.get(key(m, f), [])
            return cards[::-1][:count] if top else cards[:count]
        return Selection(pile, "all", plural=count != 1)
    if form in ("some", "owned", "every"):
        return _compile_described(node, subject, default_zone)
    if form in ("the_attacking", "the_defending", "some_of_them", "zone_cards",
                "card_slot"):
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
        owner = compile_owner(args.pop(0), subject)
    tests: list[Callable] = []
    zones: list[Callable] = []
    plural = False
    for part in args:
        if isinstance(part, ast.Adjective):
            tests.append(_adjective_test(part))
        elif isinstance(part, ast.Noun):
            test, plural = _noun_test(part)
            if test is not None:
                tests.append(test)
        elif isinstance(part, ast.Qualifier):
            zone, test = _qualifier(part, subject)
            if zone is not None:
                zones.append(zone)
            if test is not None:
                tests.append(test)
    if owner is not None and not zones:
        # "your Beings": the cards that player controls in play
        tests.append(lambda m, f, c, owner=owner: m.state.cards[c].controller == owner(m, f))

    if not zones and default_zone is not None:
        zones.append(default_zone)

    def candidates(m, f):
        if zones:
            pool = []
            for zone in zones:
                pool.extend(m.state.zones.get(zone(m, f), ()))
        else:
            pool = m.in_play()
        return [c for c in pool if all(t(m, f, c) for t in tests)]
    return Selection(candidates, how, plural=plural or how == "all",
                     test=lambda m, f, c: all(t(m, f, c) for t in tests))


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
    raise unsupported(quantity, f'"{form.replace("_", " ")}" cards')


def _adjective_test(adj: ast.Adjective) -> Callable:
    form = adj.form
    if form == "value_adj":
        value = adj.args[0]
        return lambda m, f, c: m.has_value(c, value)
    if form == "status_adj":
        status = adj.args[0]
        return lambda m, f, c: status in m.state.cards[c].statuses
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
        return lambda m, f, c: status in m.state.cards[c].statuses
    if form == "face_state":
        up = state.args[0] == "face up"
        return lambda m, f, c: m.state.cards[c].face_up == up
    if form == "in_zone":
        zone = compile_zone(state.args[0], subject)
        return lambda m, f, c: m.state.cards[c].zone == zone(m, f)
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
    selection = compile_selector(measure.args[0], lambda m, f: f.locals["you"])
    return lambda m, f: len(selection.candidates(m, f))


# ---------------------------------------------------------------- steps


class StepCompiler:
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
        if sentence.form == "then":
            self.e.jump_unless(lambda m, f: f.locals.get("did", True), end)
        for link in sentence.args:
            item = link.args[0]
            if link.form == "then":
                self.e.jump_unless(lambda m, f: f.locals.get("did", True), end)
            if isinstance(item, ast.Condition):
                self.condition_item(item, end)
            elif isinstance(item, ast.Step):
                self.step(item)
            elif isinstance(item, ast.Modifier) and item.form in ("paying_all_costs",):
                continue
            else:
                raise unsupported(item, f'"{item.form.replace("_", " ")}"')
        self.e.place(end)

    def condition_item(self, item: ast.Condition, end: str) -> None:
        if item.form == "if_":
            test = compile_condition(item.args[0])
            self.e.jump_unless(test, end)
            return
        raise unsupported(item, f'the condition "{item.form.rstrip("_")}" inside an effect')

    # ---- steps

    def step(self, step: ast.Step) -> None:
        if step.form == "act":
            subject, optional, action, suffixes = step.args
            if suffixes:
                raise unsupported(suffixes[0], "a step that lasts or repeats")
            if subject is not None and subject.form == "each_player":
                self.for_each_player(lambda who: self.action(action, who, optional))
            else:
                self.action(action, compile_player(subject), optional)
            return
        if step.form == "state_change":
            self.state_change(step)
            return
        if step.form == "verb_step":
            optional, use, suffixes = step.args
            self.verb(use, optional)
            return
        raise unsupported(step, f'"{step.form.replace("_", " ")}"')

    def for_each_player(self, body: Callable) -> None:
        """Run ``body`` once per player, the turn player first."""
        index = f"_each{len(self.e.program.instructions)}"
        top, done = self.e.label(), self.e.label()

        def start(m, f):
            f.locals[index] = 0
        self.e.emit(start)
        self.e.place(top)
        self.e.jump_unless(lambda m, f: f.locals[index] < m.state.players, done)

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
        skip = self.optional(who, _prompt(action)) if optional else None
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
        chooser = chooser or (lambda m, f: f.locals["you"])
        store = f"_pick{len(self.e.program.instructions)}"

        def pick(m, f):
            return m.pick(f, selection, chooser(m, f), prompt, store)
        self.e.emit(pick)

    def each_chosen(self, body: Callable) -> None:
        """Run ``body(card)`` on each chosen card (``it``); did = any."""
        def run(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            for card in cards:
                body(m, f, card)
            f.locals["did"] = bool(cards)
        self.e.emit(run)

    # ---- the primitive actions

    def do_draw(self, action, who):
        count = compile_amount(action.args[0], action)

        def draw(m, f):
            f.locals["did"] = m.draw(who(m, f), count(m, f)) > 0
        self.e.emit(draw)

    def do_draw_measured(self, action, who):
        count = compile_measure(action.args[0])

        def draw(m, f):
            f.locals["did"] = m.draw(who(m, f), count(m, f)) > 0
        self.e.emit(draw)

    def hand(self, who: Callable) -> Callable:
        return lambda m, f: (m.game.hand, who(m, f))

    def do_discard(self, action, who):
        self.select(action.args[0], who, who, "discard a card", self.hand(who))
        self.each_chosen(lambda m, f, c: m.discard(c))

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
        self.select(selector, who)
        where = self.destination(destination, who)

        def put(m, f, card):
            zone, top, face = where(m, f, card)
            m.move(card, zone, top=top, face_up=face)
        self.each_chosen(put)

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
        face = dest.args[1] if len(dest.args) > 1 else None
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
        def change(m, f):
            player = who(m, f)
            n = amount(m, f)
            have = m.state.counter(player, counter)
            if pay and have < n:
                f.locals["did"] = False
                return None
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

    def do_pay_measured(self, action, who):
        counter, measure = action.args
        self._counter_change(who, counter, compile_measure(measure), -1, pay=True)

    def _deal(self, action, who, amount, target):
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
        self.select(target, who, prompt="choose a card to damage")
        self.each_chosen(lambda m, f, c: m.damage_card(c, amount(m, f)))

    def do_deal(self, action, who):
        n, target = action.args
        self._deal(action, who, compile_amount(n, action), target)

    def do_deal_measured(self, action, who):
        measure, target = action.args
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

    def do_look(self, action, who):
        self.select(action.args[0], who)
        self.each_chosen(lambda m, f, c: op.reveal(m.state, c, who(m, f)))

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

        def play(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            f.locals["did"] = bool(cards)
            f.pc += 1
            for card in reversed(cards):
                m.state.frames.append(Frame(program, 0, {"you": f.locals["you"],
                                                         "it": card, "this": card}))
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

    def do_take_actions(self, action, who):
        store = f"_act{len(self.e.program.instructions)}"

        def window(m, f):
            return m.action_window(f, who(m, f), store)
        self.e.emit(window)

    # ---- statements about cards, verbs

    def state_change(self, step: ast.Step) -> None:
        """"This gets +20 AP until the End Stage": a modifier on each card,
        lasting as long as its duration says (or for good without one)."""
        selector, statement, suffixes = step.args
        changes = statement_changes(statement)
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
        from interpreter.rules import parse_ability

        depth = getattr(self, "_verb_depth", 0)
        if depth > 8:
            raise unsupported(use, f'the game verb "{use.form}" (it is defined in terms of itself)')
        definition = parse_ability(self.game.rules, decl.definition, self.game.rules.path)
        values = dict(zip(use_slots(decl.pattern.text), use.args))
        filled = tuple(fill_slots(s, values, use) for s in definition.resolution)
        skip = self.optional(lambda m, f: f.locals["you"], _verb_prompt(use)) if optional \
            else None
        self._verb_depth = depth + 1
        try:
            self.sentences(filled)
        finally:
            self._verb_depth = depth
        if skip is not None:
            self.e.place(skip)


def statement_changes(statement: ast.Statement) -> list[tuple]:
    """(kind, name, amount) modifiers a statement makes: stat changes,
    keywords, prohibitions and permissions."""
    form = statement.form
    if form == "gets":
        out = []
        for change in statement.args:
            amount, stat = change.args
            out.append(("stat", stat, amount))
        return out
    if form == "has_keyword":
        return [("keyword", statement.args[0].form, 1)]
    if form in ("cannot", "can", "must"):
        from interpreter.render import _capability

        return [(form, _capability(statement.args[0]), 1)]
    raise unsupported(statement, f'a card becoming "{form}"')


def compile_duration(duration: ast.Duration) -> Callable:
    """(machine, frame) -> the modifier's end: (period, occurrence, edge)."""
    form = duration.form
    ref = duration.args[0]
    period = ref.args[0]
    relation = ref.form

    def occurrence(m, f, edge):
        count = m.state.period_counts.get(period, 0)
        current = period == "turn" or m.state.period.get("phase") == period or \
            m.state.period.get("step") == period
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
    from interpreter.render import _verb_use

    return _verb_use(use)


def _prompt(action: ast.Action) -> str:
    from interpreter.render import _action

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
        return _count_test(selection, lambda m, f, c: m.state.cards[c].controller == who(m, f))
    if form == "has_cards":
        who = compile_player(cond.args[0])
        selection = compile_selector(cond.args[1], who)
        return _count_test(selection, None)
    if form == "counter_is":
        owner = compile_owner(cond.args[0], lambda m, f: f.locals["you"])
        name, comparison = cond.args[1], cond.args[2]
        return _compare(comparison, lambda m, f: m.state.counter(owner(m, f), name))
    if form == "has_counter":
        who = compile_player(cond.args[0])
        comparison, name = cond.args[1], cond.args[2]
        return _compare(comparison, lambda m, f: m.state.counter(who(m, f), name))
    if form == "is_state":
        selection = compile_selector(cond.args[0], lambda m, f: f.locals["you"])
        test = _state_test(cond.args[1], lambda m, f: f.locals["you"])
        return lambda m, f: any(test(m, f, c) for c in selection.candidates(m, f))
    if form == "is_not_state":
        selection = compile_selector(cond.args[0], lambda m, f: f.locals["you"])
        test = _state_test(cond.args[1], lambda m, f: f.locals["you"])
        return lambda m, f: not any(test(m, f, c) for c in selection.candidates(m, f))
    raise unsupported(cond, f'the condition "{form.replace("_", " ")}"')


def _count_test(selection: Selection, extra) -> Callable:
    how = selection.how

    def test(m, f):
        cards = selection.candidates(m, f)
        if extra is not None:
            cards = [c for c in cards if extra(m, f, c)]
        if how == ("exactly", 0):
            return not cards
        if isinstance(how, tuple) and how[0] == "exactly":
            return len(cards) >= how[1]
        return bool(cards)
    return test


def _compare(comparison: ast.Comparison, value: Callable) -> Callable:
    if comparison.form == "none":
        return lambda m, f: value(m, f) == 0
    n = comparison.args[0]
    if not isinstance(n, int):
        raise unsupported(comparison, f'"{n}" in a comparison')
    if comparison.form == "at_least":
        return lambda m, f: value(m, f) >= n
    if comparison.form == "at_most":
        return lambda m, f: value(m, f) <= n
    return lambda m, f: value(m, f) == n
