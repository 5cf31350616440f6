"""Costs: whether a cost can be paid, without paying it.

:func:`_cost_checks_for_costs` gives a check of ``(machine, frame)`` per cost
before an ability's colon (paying counters, exhausting or resting cards,
discarding, a game verb as a cost); :func:`_doable_checks` the checks for
the steps of a verb asked with "may" (not asked when they cannot be done).
"""

from __future__ import annotations

from typing import Callable

from interpreter.compiler.changing_steps import STATUS_OF_VERB, verb_status
from interpreter.compiler.players import compile_player
from interpreter.compiler.program import Unsupported, unsupported
from interpreter.compiler.named_numbers import naming
from interpreter.compiler.selectors import compile_amount, compile_measure, compile_selector
from interpreter.compiler.verb_slots import fill_slots, use_slots
from interpreter.language import ast
from interpreter.language.game_rules import parse_ability


def _cost_checks(sentences, rules=None, card_cost=False) -> list[Callable]:
    """Whether a cost written as sentences can be paid, without paying it
    (``card_cost``: an action's cost for its card, which cost changes apply to).
    A sentence that says "where X is ..." ("Pay X ink, where X is its cost")
    reads X before its checks, as the sentence itself does. The cards one
    step would exhaust or rest are not counted again by the next
    (`_enough_cards`, `_together`)."""
    checks = []
    for sentence in sentences:
        steps = [link.args[0] for link in sentence.args]
        where = [s for s in steps if isinstance(s, ast.Modifier) and s.form == "where_x"]
        if not where:
            checks.extend(_checks_for_costs(steps, rules, card_cost))
            continue
        measure = compile_measure(where[0].args[0])
        with naming("X"):
            inner = _checks_for_costs([s for s in steps if s is not where[0]], rules,
                                      card_cost)

        def check(m, f, inner=inner, measure=measure):
            f.locals["X"] = measure(m, f)
            return all(c(m, f) for c in inner)
        checks.append(check)
    return _together(checks)


def _together(checks: list) -> list[Callable]:
    """The checks of one cost as one check: the cards a step would use are
    held from the steps after it while they run (`_enough_cards`)."""
    if not checks:
        return checks

    def all_of(m, f) -> bool:
        try:
            return all(check(m, f) for check in checks)
        finally:
            f.locals.pop(HELD, None)
    return [all_of]


def _cost_checks_for_costs(costs, rules=None, card_cost=False) -> list[Callable]:
    """Checks for the costs before an ability's colon (``rules``: to look
    inside game verbs, "Pay 1 Gem" being "Rest 1 Gem ..."); ``card_cost``:
    the cost of an action's card, changed by its cost changes."""
    return _together(_checks_for_costs(costs, rules, card_cost))


def _checks_for_costs(costs, rules=None, card_cost=False) -> list[Callable]:
    """`_cost_checks_for_costs`, one check per cost."""
    checks = []
    for step in costs:
        if isinstance(step, ast.Step) and step.form == "verb_step" and rules is not None:
            use = step.args[1]
            decl = next((v for v in rules.verbs if v.pattern.text == use.form), None)
            if decl is not None and decl.definition is not None:
                defined = parse_ability(rules, decl.definition, rules.path, decl.definition_span)
                values = dict(zip(use_slots(decl.pattern.text), use.args))
                filled = [fill_slots(link.args[0], values, use)
                          for sentence in defined.resolution for link in sentence.args]
                try:
                    checks.extend(_checks_for_costs(filled, rules, card_cost))
                    continue
                except Unsupported:
                    pass   # a verb whose steps cannot be checked: as below
        if isinstance(step, ast.Step) and step.form == "verb_step":
            # a game verb as a cost ("Sacrifice a BASIC Being you control"):
            # payable while the cards it names can be found
            _optional, use, _suffixes = step.args
            for arg in use.args:
                if isinstance(arg, ast.Selector):
                    # enough of them: "Exert X ready cards in your inkwell"
                    found = compile_selector(arg, lambda m, f: f.locals["you"])
                    checks.append(_enough_cards(found, isinstance(found.how, tuple) and
                                                found.how[0] == "exactly"))
            continue
        if not isinstance(step, ast.Step) or step.form != "act":
            raise unsupported(step, "this cost")
        subject, _optional, action, _suffixes = step.args
        who = compile_player(subject)
        form = action.form
        if form in ("pay", "pay_measured"):
            if form == "pay":
                amount, counter = compile_amount(action.args[0], action), action.args[1]
            else:
                counter, amount = action.args[0], compile_measure(action.args[1])
            if card_cost:
                printed = amount
                amount = (lambda m, f, printed=printed, counter=counter:
                          m.cost_of(f.locals.get("it"), counter, printed(m, f)))
            checks.append(lambda m, f, who=who, counter=counter, amount=amount:
                          m.can_pay(who(m, f), counter, amount(m, f)))
        elif form in ("exhaust", "rest") and action.args[0].form == "this":
            status = verb_status(rules, action) if rules is not None else \
                STATUS_OF_VERB[form]
            checks.append(lambda m, f, status=status:
                          not m.has_status(f.locals["this"], status))
        elif form in ("exhaust", "rest", "reveal") and isinstance(action.args[0], ast.Selector):
            # "Rest 2 Gems in your Gem Area": enough such cards
            found = compile_selector(action.args[0], who)
            # a card revealed stays as it was: it may be revealed again (the
            # Energy of a cost "Reveal X Energy ... Reveal X Energy that
            # share a type with it"); one exhausted or rested cannot be again
            checks.append(_enough_cards(found, isinstance(found.how, tuple),
                                        holds=form != "reveal"))
        elif form == "discard":
            # "Discard 2 cards": that many in the hand
            quantity = action.args[0].args[0] if isinstance(action.args[0], ast.Selector) \
                and action.args[0].args else None
            need = quantity.args[0] if isinstance(quantity, ast.Quantity) and \
                quantity.form == "count" and isinstance(quantity.args[0], int) else 1
            checks.append(lambda m, f, who=who, need=need: len(m.hand_of(who(m, f))) >= need)
        else:
            raise unsupported(action, f'the cost "{form.replace("_", " ")}"')
    return checks


# the cards the steps of a cost checked so far would use ("Exert a ready
# red card you control. Exert 2 ready cards you control": three cards)
HELD = "#held"


def _enough_cards(found, counted: bool, holds: bool = True) -> Callable:
    """Payable while the selection finds its number of cards (read now:
    it may be X), or one card when ``counted`` is false, among the cards
    the cost's earlier steps do not hold already; those found are held
    (unless the step leaves them as they were: ``holds`` false)."""
    if not holds:
        return lambda m, f: len(found.candidates(m, f)) >= (found.count(m, f) if counted else 1)

    def enough(m, f) -> bool:
        held = f.locals.get(HELD, ())
        need = found.count(m, f) if counted else 1
        if found.first is not None:
            free = found.first(m, f, need, (lambda m, f, c: c not in held) if held else None)
        else:
            free = [c for c in found.candidates(m, f) if c not in held][:need]
        if len(free) < need:
            return False
        f.locals[HELD] = tuple(held) + tuple(free)
        return True
    return enough


def _doable_checks(sentences, rules) -> list:
    """Checks for the steps of ``sentences`` that can be checked like costs,
    or that act on cards a selector must find ("Return a Creature your
    Rival controls ..."); the others are left out: they can always be tried."""
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


def cost_progress(sentences, rules=None) -> Callable:
    """How far toward payable a written cost is, from 0 to 1, without paying
    it: the mean over its sentences of the share of the cards a sentence
    that names a number of cards finds ("Reveal X Energy attached to it,
    where X is its cost": 2 of 4 is half way), or 1 or 0 for a sentence
    that is payable or not. What a search agent's evaluation reads as the
    resources put toward a cost that is not payable yet."""
    parts = []
    for sentence in sentences:
        steps = [link.args[0] for link in sentence.args]
        where = [s for s in steps if isinstance(s, ast.Modifier) and s.form == "where_x"]
        rest = [s for s in steps if not where or s is not where[0]]
        measure = compile_measure(where[0].args[0]) if where else None
        with naming("X"):
            counted = _counted_cards(rest)
            check = _cost_checks((sentence,), rules, card_cost=True)
        parts.append((measure, counted, check[0] if check else None))

    def progress(m, f) -> float:
        if not parts:
            return 1.0
        total = 0.0
        for measure, counted, check in parts:
            if measure is not None:
                f.locals["X"] = measure(m, f)
            if counted is not None:
                need = counted.count(m, f)
                total += 1.0 if need <= 0 else min(len(counted.candidates(m, f)) / need, 1.0)
            elif check is None or check(m, f):
                total += 1.0
        return total / len(parts)
    return progress


def _counted_cards(steps):
    """The selection of the one step of ``steps`` that reveals, exhausts or
    rests a number of cards, or None."""
    if len(steps) != 1 or not isinstance(steps[0], ast.Step) or steps[0].form != "act":
        return None
    subject, _optional, action, _suffixes = steps[0].args
    if action.form not in ("exhaust", "rest", "reveal") or \
            not isinstance(action.args[0], ast.Selector):
        return None
    found = compile_selector(action.args[0], compile_player(subject))
    return found if isinstance(found.how, tuple) else None
