""""Choose one — A; or B": the player picks one of the modes, then only that
mode happens.

A mode that opens with "if CONDITION," is offered only while the condition
holds. A mode that is a game verb done to cards the player chooses ("Defend
with 2 Allies in your hand that share a color with the attacking card") is
offered once for each way of choosing them, and reads as the verb with the
cards named ("Defend with Cinder Duelist #3 and Emberborn Recruit #4"); a
group "both X and Y" in the verb's slot is offered for each way of choosing
its parts, a part that names its cards outright ("the defending card")
having to name at least one. Options that read the same are one option (the
same act on the same cards, offered by two modes). With a single option
there is nothing to decide: it happens. The prompt is the game verb whose
whole definition the choice is ("defend against Bulwark Charge #0"), else
"choose one".
"""

from __future__ import annotations

from itertools import combinations, product

import attrs

from interpreter.compiler.conditions import compile_condition
from interpreter.compiler.program import unsupported
from interpreter.compiler.selectors import compile_selector
from interpreter.compiler.verb_slots import use_slots
from interpreter.language import ast
from interpreter.language.render import mode_text
from interpreter.language.render_selectors import _slot_value


class _Mode:
    """One mode as the compiler plans it: the conditions that offer it, the
    verb slots chosen when it is offered (slot index, ways function), the
    label's parts, and the sentence to run (those slots bound)."""

    __slots__ = ("conditions", "slots", "parts", "sentence", "label")

    def __init__(self, conditions, slots, parts, sentence, label):
        self.conditions, self.slots, self.parts = conditions, slots, parts
        self.sentence, self.label = sentence, label

    def ways(self, m, f):
        """(cards chosen for each flattened slot, label) for each way to do
        it; not with a card a "can't" stops doing the verb ("All Allies with
        <PROTECTOR> can't defend": not "Defend with" one of them)."""
        if not self.slots:
            yield (), self.label
            return
        verb = self.parts[0].lower() if isinstance(self.parts[0], str) else ""
        you = f.locals["you"]
        cards = m.state.cards
        for chosen in product(*(ways(m, f) for _, ways in self.slots)):
            if any(m.forbidden(you, verb, c) for group in chosen for c in group):
                continue
            # the cards in the order the option names them, which is the
            # order the verb does them in
            chosen = tuple(tuple(sorted(group, key=lambda c: (cards[c].name, c)))
                           for group in chosen)
            yield chosen, " ".join(_names(m, chosen[part]) if isinstance(part, int) else part
                                   for part in self.parts)


def _names(m, cards) -> str:
    """ "A #1", "A #1 and B #2", "A #1, B #2 and C #3"."""
    labels = [m.card_label(c) for c in cards]
    if len(labels) < 2:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def _ways_of(selection, node):
    """The ways a player may choose what ``selection`` picks: each single
    card, or each set of exactly N; a selection that names its cards
    outright, once if it names any."""
    how = selection.how
    if how == "all":
        def named(m, f):
            cards = tuple(selection.candidates(m, f))
            return [cards] if cards else []
        return named
    if how == "one":
        return lambda m, f: [(c,) for c in selection.candidates(m, f)]
    if isinstance(how, tuple) and how[0] == "exactly" and not callable(how[1]):
        n = how[1]
        return lambda m, f: list(combinations(selection.candidates(m, f), n))
    raise unsupported(node, "a mode of \"Choose one\" done to cards chosen that way "
                      "(a card, N cards, or both X and Y)")


def _slot_ways(node, subject):
    if isinstance(node, ast.Selector) and node.form == "both":
        parts = [_slot_ways(part, subject) for part in node.args]

        def together(m, f):
            out = []
            for pick in product(*(ways(m, f) for ways in parts)):
                cards = tuple(dict.fromkeys(c for cards in pick for c in cards))
                if cards not in out:
                    out.append(cards)
            return out
        return together
    return _ways_of(compile_selector(node, subject), node)


def _chooses(node) -> bool:
    """Whether a verb's card slot is something the player chooses."""
    if isinstance(node, ast.Selector) and node.form == "both":
        return True
    if not isinstance(node, ast.Selector) or node.form not in ("some",):
        return False
    return node.args[0].form in ("one", "count")


class ModeSteps:
    """The StepCompiler's "Choose one"."""

    # the game verb whose definition is being compiled, when that whole
    # definition is one "Choose one" (see VerbSteps.verb): the prompt
    _modal_verb = None

    def choose_mode(self, step: ast.Step) -> None:
        store = f"_mode{len(self.e.program.instructions)}"
        you = lambda m, f: f.locals["you"]  # noqa: E731
        modes = [self._plan_mode(mode, f"{store}.{i}", you) for i, mode in enumerate(step.args)]
        prompt = self._modal_prompt(you)
        done = self.e.label()

        def ask(m, f):
            if store in f.locals:
                return None
            options, labels = [], []
            for index, mode in enumerate(modes):
                if not all(test(m, f) for test in mode.conditions):
                    continue
                for chosen, label in mode.ways(m, f):
                    if label not in labels:
                        options.append((index,) + chosen)
                        labels.append(label)
            if len(options) <= 1:
                # nothing to decide: the only mode happens (or none can)
                f.locals[store] = options[0] if options else (-1,)
                if options:
                    m.unasked.append((f.locals["you"], labels[0]))
                return None
            return m.ask(f, f.locals["you"], "mode", prompt(m, f), tuple(options), store,
                         tuple(labels))
        self.e.emit(ask)
        for index, mode in enumerate(modes):
            other = self.e.label()
            self.e.jump_unless(lambda m, f, i=index: f.locals[store][0] == i, other)

            def bind(m, f, i=index):
                for number, cards in enumerate(f.locals[store][1:]):
                    f.locals[f"{store}.{i}.{number}"] = cards
            self.e.emit(bind)
            self.sentence(mode.sentence)
            self.e.jump(done)
            self.e.place(other)
        self.e.place(done)

        def forget(m, f):
            # asked again if this step runs again ("Repeat this")
            f.locals.pop(store, None)
        self.e.emit(forget)

    def _plan_mode(self, mode: ast.Sentence, local: str, you) -> _Mode:
        links = list(mode.args)
        conditions = []
        while links and isinstance(links[0].args[0], ast.Condition) and \
                links[0].args[0].form == "if_":
            conditions.append(compile_condition(links[0].args[0].args[0]))
            links.pop(0)
        # the label: the mode without the conditions that offer it
        label = mode_text(attrs.evolve(mode, args=(
            attrs.evolve(links[0], form="first"),) + tuple(links[1:]))) if links else ""
        step = links[0].args[0] if links else None
        if not (isinstance(step, ast.Step) and step.form in ("verb_step", "player_verb_step")):
            return _Mode(conditions, (), (), mode, label)
        use = step.args[-2]
        chosen = [i for i, arg in enumerate(use.args) if _chooses(arg)]
        if not chosen:
            return _Mode(conditions, (), (), mode, label)
        slots, parts, args = [], [], list(use.args)
        for number, i in enumerate(chosen):
            slots.append((i, _slot_ways(use.args[i], you)))
            args[i] = ast.Selector("bound", (f"{local}.{number}",), use.args[i].span)
        # the label: the verb as the mode writes it, the chosen cards named
        position = 0
        for word in use.form.split():
            if word.lstrip("+").startswith("{") and word.endswith("}"):
                arg_index = position
                position += 1
                if arg_index in chosen:
                    parts.append(chosen.index(arg_index))
                    continue
                parts.append(_slot_value(use.args[arg_index]))
            else:
                parts.append(word)
        if len(use_slots(use.form)) != len(use.args):
            raise unsupported(use, "a game verb whose slots do not match its use")
        bound = ast.VerbUse(use.form, tuple(args), use.span)
        # the mode as it runs: its conditions (read again), then the verb
        # done to the cards it was offered with
        at = len(mode.args) - len(links)
        link = mode.args[at]
        step = attrs.evolve(step, args=step.args[:-2] + (bound, step.args[-1]))
        sentence = attrs.evolve(mode, args=mode.args[:at] + (
            attrs.evolve(link, args=(step,)),) + mode.args[at + 1:])
        return _Mode(conditions, slots, parts, sentence, label)

    def _modal_prompt(self, you):
        verb = self._modal_verb
        if verb is None:
            return lambda m, f: "choose one"
        use, selections = verb

        def prompt(m, f):
            words, position = [], 0
            for word in use.form.split():
                if word.startswith("{") and word.endswith("}"):
                    selection = selections.get(position)
                    position += 1
                    if selection is not None:
                        words.append(_names(m, selection.candidates(m, f)) or "nothing")
                        continue
                    words.append(_slot_value(use.args[position - 1]))
                else:
                    words.append(word)
            text = " ".join(words)
            return text[:1].lower() + text[1:]
        return prompt
