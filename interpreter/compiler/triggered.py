"""Triggered abilities and responses: the programs built for them.

A triggered ability's program (its "if" and "once per" conditions, its
costs, then its effect), the Intent Step of one used from outside play
(its controller chooses, pays and uses the card up before the effect
becomes an entry), response abilities used in response windows, abilities
whose costs are paid as they resolve, "Before your Rival ..." triggers and
the rules' ``player damage`` procedure.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.compiled import CompiledGame, Cued
from interpreter.compiler.conditions import compile_condition, period_test
from interpreter.compiler.costs import _cost_checks_for_costs
from interpreter.compiler.program import Emitter, unsupported
from interpreter.compiler.steps import StepCompiler
from interpreter.language import ast
from interpreter.language.game_rules import parse_ability


# ---------------------------------------------------------------- player damage


def after_use_locals(f) -> tuple:
    """The entry locals that carry the steps due after the effect."""
    after = f.locals.pop("_after_use", None)
    return (("_after_use", after),) if after else ()


def paid_locals(f) -> tuple:
    """The entry locals that carry the cards the costs acted on ("Sacrifice
    another Being you control: ..."), for the effect's "the Sacrificed
    Being"."""
    paid = f.locals.get("it")
    return (("#paid", paid),) if paid is not None else ()


# ---------------------------------------------------------------- responses

# the forms of an effect that act on the entry it responds to
ENTRY_FORMS = frozenset({"that_effect", "copy_that_effect"})


def limit_first(conditions, resolution) -> tuple:
    """ "Ability: Once per turn, draw a card": "Once per turn" opening the
    effect of an ability with a timing label and no cost limits the
    ability, as it does before a cost ("ABILITY: Once per turn, Pay 1 Life:
    ..."); so does a "during" right after it ("Once during your turn, you
    may draw a card": once per turn, during your turn)."""
    first = resolution[0] if resolution else None
    if first is None or len(first.args) < 2 or \
            not isinstance(first.args[0].args[0], ast.Condition) or \
            first.args[0].args[0].form != "once_per":
        return conditions, resolution
    lifted = 1
    while lifted < len(first.args) - 1 and isinstance(first.args[lifted].args[0], ast.Condition) \
            and first.args[lifted].args[0].form == "during":
        lifted += 1
    rest = (attrs.evolve(first.args[lifted], form="first"),) + tuple(first.args[lifted + 1:])
    return tuple(conditions) + tuple(link.args[0] for link in first.args[:lifted]), \
        (attrs.evolve(first, args=rest),) + tuple(resolution[1:])


def compile_response(game, card, index: int, node, ability) -> None:
    """A response ability: pay its costs, then the card is used up (the
    kind's ``once used``), then its effect goes on the chain as a link."""
    label, conditions, costs, resolution = node.args
    name = f"card:{card.name}:{index}"
    checks = _cost_checks_for_costs(costs, game.rules)
    once = None
    for c in conditions:
        if c.form == "once_per":
            # "ABILITY: Once per turn, exhaust a Land you control: ...": not
            # offered again in that period once used (its costs paid)
            once = _once_key(name, c.args[0])
            checks.append(lambda m, f, once=once: not m.used(once(m, f)))
        elif c.form == "if_":
            checks.append(compile_condition(c.args[0]))
        elif c.form == "during":
            # "ABILITY: Once during your turn, ...": only in that period
            checks.append(period_test(c.args[0]))
        else:
            raise unsupported(c, f'the condition "{c.form}" on a response')
    effect = Emitter(name + ":effect", ability.span)
    StepCompiler(effect, game).sentences(resolution)
    game.programs[name + ":effect"] = effect.finish()
    e = Emitter(name, ability.span)
    steps = StepCompiler(e, game)
    for cost in costs:
        steps.step(cost)
    if once is not None:
        e.emit(lambda m, f, once=once: m.count_use(once(m, f)))
    e.emit(lambda m, f: m.use_up(f))

    def push(m, f, program=name + ":effect"):
        subject = f.locals.get("_subject")
        m.push_entry(program, f.locals["this"], f.locals["you"],
                     (("this", f.locals["this"]), ("you", f.locals["you"]),
                      ("it", subject), ("responding_to", f.locals.get("responding_to")))
                     + after_use_locals(f) + paid_locals(f),
                     responding_to=f.locals.get("responding_to"))
    e.emit(push)
    game.programs[name] = e.finish()
    timing = game.rules.timing(label)
    answers = any(node.form in ENTRY_FORMS for node in ast.walk_all(tuple(resolution)))
    game.cued.setdefault(card.name, []).append(Cued(
        timing.label, name, lambda m, f: all(c(m, f) for c in checks), timing.response,
        timing.with_priority, answers))


# ---------------------------------------------------------------- triggers from outside play


def compile_intent(game, card, name: str, ability, label, conditions, costs, resolution,
                   timing, outside: bool = True) -> str:
    """The Intent Step of a triggered ability: when it triggers, its
    controller chooses whether to use it (an optional timing), pays its
    costs, and only then does its effect become an entry (which the other
    player may respond to). ``outside``: the card is in a zone its kind is
    used from (a Trick in the hand: "OPENING: Pay 1 Mana: ..."), and using
    it uses the card up (``once used``). The trigger does not fire while its
    conditions or costs cannot be met. Returns the program's name."""
    use = name + (":use" if outside else ":intent")
    effect = Emitter(use + ":effect", ability.span)
    StepCompiler(effect, game).sentences(resolution)
    game.programs[use + ":effect"] = effect.finish()
    gates = []
    once = None
    for c in conditions:
        if c.form == "if_":
            gates.append(compile_condition(c.args[0]))
        elif c.form == "once_per":
            once = _once_key(name, c.args[0])
            gates.append(lambda m, f, once=once: not m.used(once(m, f)))
        else:
            raise unsupported(c, f'the condition "{c.form}" on a triggered ability '
                              "used from outside play")
    gates.extend(_cost_checks_for_costs(costs, game.rules))
    e = Emitter(use, ability.span)
    steps = StepCompiler(e, game)
    end = e.label()
    e.jump_unless(lambda m, f: all(g(m, f) for g in gates), end)
    if timing is None or timing.optional:
        store = f"_use{len(e.program.instructions)}"
        shown = timing.label if timing is not None else "the ability"

        def ask(m, f):
            if store in f.locals:
                return None
            return m.ask(f, f.locals["you"], "use", f"use {shown} of "
                         + m.card_label(f.locals["this"]) + "?", (True, False), store,
                         ("yes", "no"))
        e.emit(ask)
        e.jump_unless(lambda m, f: f.locals.pop(store), end)
    shown_label = timing.label if timing is not None else ""
    e.emit(lambda m, f: m.ability_used(f.locals["you"], shown_label, f.locals["this"]))
    if once is not None:
        e.emit(lambda m, f: m.count_use(once(m, f)))
    held = "_trigger_it"
    e.emit(lambda m, f: f.locals.__setitem__(held, f.locals.get("it")))
    for cost in costs:
        steps.step(cost)
    e.emit(lambda m, f: f.locals.__setitem__("it", f.locals.pop(held)))
    if outside:
        e.emit(lambda m, f: m.use_up(f))

    def push(m, f, program=use + ":effect"):
        m.push_entry(program, f.locals["this"], f.locals["you"],
                     (("this", f.locals["this"]), ("you", f.locals["you"]),
                      ("it", f.locals.get("it"))) + after_use_locals(f))
    e.emit(push)
    e.place(end)
    game.programs[use] = e.finish()
    game.trigger_gates[use] = lambda m, f: all(g(m, f) for g in gates)
    if outside:
        game.intents[name] = use
    game.intent_programs.add(use)
    return use


# ---------------------------------------------------------------- triggers


def compile_trigger_body(game, name: str, ability, conditions, costs, resolution,
                         timing) -> str:
    """A triggered ability's program: its "if" and "once per" conditions,
    its costs (the controller chooses to pay them, or the effect is skipped),
    then its resolution."""
    e = Emitter(name, ability.span)
    steps = StepCompiler(e, game)
    end = e.label()
    once = None
    gates = []
    for c in conditions:
        if c.form == "if_":
            test = compile_condition(c.args[0])
            gates.append(test)
            e.jump_unless(test, end)
        elif c.form == "once_per":
            once = c.args[0]
    if once is not None:
        key = _once_key(name, once)
        gates.append(lambda m, f: not m.used(key(m, f)))
        e.jump_unless(gates[-1], end)
    if costs:
        checks = _cost_checks_for_costs(costs, game.rules)
        gates.extend(checks)
        e.jump_unless(lambda m, f: all(c(m, f) for c in checks), end)
        store = f"_pay{len(e.program.instructions)}"

        def ask(m, f):
            if store in f.locals:
                return None
            return m.ask(f, f.locals["you"], "yes-no", "pay the cost of "
                         + m.card_label(f.locals["this"]) + "?", (True, False), store,
                         ("yes", "no"))
        e.emit(ask)
        e.jump_unless(lambda m, f: f.locals.pop(store), end)
        held = "_trigger_it"
        e.emit(lambda m, f: f.locals.__setitem__(held, f.locals.get("it")))
        for cost in costs:
            steps.step(cost)
        # "it" is the trigger's card again; the costs' cards are "#paid"
        e.emit(lambda m, f: f.locals.update(paid_locals(f), it=f.locals.pop(held)))
    # the conditions and costs must be met for the effect to trigger at all
    game.trigger_gates[name] = lambda m, f: all(g(m, f) for g in gates)
    if once is not None:
        e.emit(lambda m, f: m.count_use(key(m, f)))
    steps.sentences(resolution)
    e.place(end)
    game.programs[name] = e.finish()
    return name


def _once_key(name: str, period: str) -> Callable:
    """The once-per key of a triggered ability, the same as its card's
    activated ability (Machine.usage_key: per card name and player), so that
    an ability used as another timing shares one limit with it."""
    card = name.split(":")[1] if ":" in name else name
    ability = name.rsplit(":", 1)[-1]
    return lambda m, f: m.ability_use(card, f.locals["this"], ability, f.locals["you"], period)


# ---------------------------------------------------------------- programs of triggered abilities


def _compile_trigger_program(game: CompiledGame, name: str, ability, resolution,
                             timing=None) -> str:
    if name in game.programs:         # already built with its costs
        return name
    e = Emitter(name, ability.span)
    done = _ask_to_use(e, timing)
    StepCompiler(e, game).sentences(resolution)
    if done is not None:
        e.place(done)
    game.programs[name] = e.finish()
    return name


def _ask_to_use(e: Emitter, timing) -> str | None:
    """A triggered ability of a timing declared "optional": as it resolves,
    its controller says whether to use it. Returns the label that skips the
    effect, or None when it just happens. (One with costs asks whether to
    pay them instead: see _paid_program.)"""
    if timing is None or not timing.asks or timing.use != "triggered":
        return None
    done = e.label()
    store = f"_use{len(e.program.instructions)}"

    def ask(m, f):
        if store in f.locals:
            return None
        return m.ask(f, f.locals["you"], "yes-no", f"use the {timing.label} ability of "
                     f"{m.card_label(f.locals['this'])}?", (True, False), store, ("yes", "no"))
    e.emit(ask)
    e.jump_unless(lambda m, f: f.locals.pop(store), done)
    return done


def _before_as_when(game: CompiledGame, conditions) -> tuple:
    """ "Before your Rival defends": a trigger of this card on the event
    "before defend", which a window ("your Rival may defend against X",
    "... may respond with ... to X") gives the cards it is about before it
    opens (interpreter.engine.combat: before_window)."""
    out = []
    for c in conditions:
        if c.form != "before":
            out.append(c)
            continue
        player, verb = c.args
        if player.form != "rival":
            raise unsupported(c, f'"before {player.form.replace("_", " ")} ..." (only '
                              '"Before your Rival ...")')
        verb = verb.lower()
        base = {"responds": "respond", "defends": "defend", "attacks": "attack"}.get(verb, verb)
        if base not in ("respond", "defend"):
            raise unsupported(c, f'"before your Rival {verb}" (only responds or defends)')
        word = "before " + base
        game.before_events.add(word)
        event = ast.Event("card_event", (ast.Selector("this", (), c.span),
                                         ast.EventAction("acts", (word,), c.span)), c.span)
        out.append(ast.Condition("when", (event, None), c.span))
    return tuple(out)


def _intent_trigger(game: CompiledGame, card, name: str) -> None:
    """The trigger just made, as it fires for the card outside play."""
    if name in game.intents:
        trigger = game.triggers[card.name][-1]
        game.intent_triggers.setdefault(card.name, []).append(
            attrs.evolve(trigger, program=game.intents[name]))
        game.intent_kinds.add(trigger.kind)


def _paid_program(game: CompiledGame, name: str, costs, resolution, timing,
                  kind) -> None:
    """A triggered ability with costs ("DEFEND: Pay 1 Mana: ..."): when it
    resolves, its controller may pay (if it is optional and they can), and
    only then its effect happens. A kind used up after use ("after use:
    void") goes there once the ability has resolved. Returns the sentences
    with the costs compiled into a program they start with."""
    optional = timing.optional if timing is not None else False
    checks = _cost_checks_for_costs(costs, game.rules)
    e = Emitter(name)
    steps = StepCompiler(e, game)
    done = e.label()
    if kind is not None and kind.after_use:
        # where the card's text starts (a spell cast from the hand, a code in
        # play): it goes to its after-use zone from there, unless it left
        e.emit(lambda m, f: f.locals.__setitem__("_used_in",
                                                 m.state.cards[f.locals["this"]].zone))
    if not costs:
        skip = _ask_to_use(e, timing)
        steps.sentences(resolution)
        if skip is not None:
            e.place(skip)
    elif costs:
        e.jump_unless(lambda m, f: all(c(m, f) for c in checks), done)
        if optional:
            skip = steps.optional(lambda m, f: f.locals["you"], "pay the cost")
            for cost in costs:
                steps.step(cost)
            steps.sentences(resolution)
            e.place(skip)
        else:
            for cost in costs:
                steps.step(cost)
            steps.sentences(resolution)
    e.place(done)
    if kind is not None and kind.after_use:
        e.emit(lambda m, f, zone=kind.after_use, quietly=kind.after_use_quietly: m.used_up(
            f.locals["this"], zone, f.locals.get("_used_in"), quietly))
    game.programs[name] = e.finish()
