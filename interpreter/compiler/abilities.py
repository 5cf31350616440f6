"""Compiling a card's abilities: keywords defined in card language,
replacements ("If this would be destroyed, ... instead"), continuous
abilities (:class:`~interpreter.compiler.compiled.Static`, and prohibitions
on players), activated abilities and triggered ones (on card events, player
events and the edges of periods), with what a card's kind and a timing's
label add to them.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.compiled import (AFTER_USE, RULE_KIND, Activated, CompiledGame,
                                           PlayerReplacement, Replacement, StateRule, Static,
                                           Trigger)
from interpreter.compiler.conditions import compile_condition, period_test, reads_only_places
from interpreter.compiler.costs import _cost_checks_for_costs, _doable_checks
from interpreter.compiler.frames import Frame
from interpreter.compiler.modifiers import (joined_stat_changes, register_capability,
                                           statement_changes)
from interpreter.compiler.moving_steps import placement_checks
from interpreter.compiler.players import is_opponent_ref
from interpreter.compiler.program import JUMPED, Emitter, Unsupported, unsupported
from interpreter.compiler.repeating_steps import other_than_changed
from interpreter.compiler.replacing import (card_replacement, compile_instead, optional_instead,
                                           player_replacement)
from interpreter.compiler.trigger_events import (card_event_watch, check_event_logged,
                                                player_event_watch)
from interpreter.compiler.selectors import compile_count, compile_selector
from interpreter.compiler.steps import StepCompiler
from interpreter.compiler.text_checks import refuse_heads_before_a_flip, refuse_unnamed_that_player
from interpreter.compiler.triggered import (
    _before_as_when, _compile_trigger_program, _intent_trigger, _paid_program,
    after_use_locals, compile_intent, compile_response, compile_trigger_body, limit_first,
    paid_locals)
from interpreter.compiler.verb_slots import fill_slots, use_slots
from interpreter.errors import Problem
from interpreter.language import ast
from interpreter.language.cards import Exchange
from interpreter.language.declared_events import event_word
from interpreter.language.game_rules import parse_ability
from interpreter.language.render import _condition
from interpreter.language.vocabulary import BASE_PARTICIPLES


def _compile_exchanges(game: CompiledGame, card) -> None:
    """The reward of each exchange stat of a card (on each face), as a program
    named ``exchange:CARD:FACE:STAT``."""
    faces = [(None, card.stats)] + [(face, stats) for face, stats in card.faces]
    for face, stats in faces:
        for stat in stats:
            if isinstance(stat.value, Exchange):
                name = f"exchange:{card.name}:{face or ''}:{stat.name.lower()}"
                e = Emitter(name, stat.span if hasattr(stat, "span") else None)
                reward = stat.value.reward.args[3]
                StepCompiler(e, game).sentences(reward)
                game.programs[name] = e.finish()
                checks = placement_checks(reward)
                if checks:
                    game.exchange_checks[name] = tuple(checks)


def _compile_static(game: CompiledGame, card, node, gate=None) -> None:
    label, conditions, costs, resolution = node.args
    if costs:
        raise unsupported(node, "a continuous ability with costs")
    condition = gate
    for c in conditions:
        if c.form != "if_":
            raise unsupported(c, f'the condition "{c.form}" on a continuous ability')
        test = compile_condition(c.args[0])
        condition = test if gate is None else (
            lambda m, f, test=test: gate(m, f) and test(m, f))
    for sentence in resolution:
        for link in joined_stat_changes(sentence).args:
            step = link.args[0]
            if isinstance(step, ast.Step) and step.form == "player_cannot":
                _compile_player_static(game, card, step, condition)
                continue
            if not isinstance(step, ast.Step) or step.form != "state_change":
                raise unsupported(step, "a continuous ability that is not a change to cards")
            selector, statement, suffixes = step.args
            per = on_counter = None
            for suffix in suffixes:
                if suffix.form != "for_each_suffix" or per is not None:
                    raise unsupported(suffix, "a continuous change with a duration (it "
                                      "lasts while its card is in play)")
                # "gets +1 power for each Spell you control": that many times,
                # counted whenever the change is read
                if type(suffix.args[0]) is ast.Node and suffix.args[0].form == "heads":
                    raise unsupported(suffix, '"for each heads" in a continuous ability '
                                      '(it counts the coins an effect flipped)')
                per = compile_count(suffix.args[0])
                counted = suffix.args[0]
                if type(counted) is ast.Node and counted.form == "counters_on" and \
                        counted.args[1].form == "it" and isinstance(counted.args[0], str):
                    on_counter = counted.args[0]
                counted = other_than_changed(counted)
                if counted is not None:
                    # "for each other Creature you control": other than the
                    # card changed (see Views._continuous: "#changed")
                    per = (lambda m, f, counted=counted: _others(
                        counted.candidates(m, f), f.locals.get("#changed")))
            selection = compile_selector(selector, lambda m, f: f.locals["you"])
            if selection.test is None:
                raise unsupported(selector, "this selector in a continuous ability")
            changes = statement_changes(statement, game)
            if per is not None and any(kind != "stat" for kind, _, _ in changes):
                raise unsupported(suffixes[0], '"for each" on a change that is not a number')
            game.statics.setdefault(card.name, []).append(
                Static(selection.test, changes, condition, per, on_counter))


def _others(cards, changed) -> int:
    return len(cards) - (changed in cards)


def _compile_player_static(game: CompiledGame, card, step, condition) -> None:
    """ "Your opponent can't attack this turn" as a continuous ability: the
    players it names can't, while its card is in play. A duration written on
    it can only be the current turn (its card's time in play decides)."""
    player, capability, *suffixes = step.args
    for suffix in suffixes:
        ref = suffix.args[0].args[0] if suffix.form == "lasting" and \
            suffix.args[0].form == "during_period" else None
        if ref is None or ref.args[0] not in ("turn", game.rules.turn_name):
            raise unsupported(suffix, "a continuous prohibition lasting other than this turn")
    name = register_capability(game, capability)
    if is_opponent_ref(player):
        def test(m, f, p):
            return m.is_opponent(f, p)
    elif player.form == "you":
        def test(m, f, p):
            return p == f.locals["you"]
    elif player.form == "each_player":
        def test(m, f, p):
            return True
    else:
        raise unsupported(player, "this player in a continuous prohibition")
    game.player_statics.setdefault(card.name, []).append((test, name, condition))


def _compile_activated(game: CompiledGame, card, index: int, node, ability,
                       gate=None, suffix: str = "") -> None:
    label, conditions, costs, resolution = node.args
    timing = game.rules.timing(label) if label else None
    once_per = timing.once_per if timing is not None else None
    during, off_turn = [], False
    for c in conditions:
        if c.form == "once_per":
            once_per = c.args[0]
        elif c.form == "during":
            during.append(period_test(c.args[0]))
            off_turn = off_turn or c.args[0].form == "rivals"
        else:
            raise unsupported(c, f'the condition "{c.form}" on an activated ability')
    # "when you have priority": usable whenever its controller has priority
    off_turn = off_turn or (timing is not None and timing.with_priority)
    checks = during + _cost_checks_for_costs(costs, game.rules)
    if gate is not None:
        checks.append(gate)
    name = f"card:{card.name}:{index}{suffix}"
    effect = Emitter(name + ":effect", ability.span)
    StepCompiler(effect, game).sentences(resolution)
    game.programs[name + ":effect"] = effect.finish()
    e = Emitter(name, ability.span)
    steps = StepCompiler(e, game)
    for cost in costs:
        steps.step(cost) if isinstance(cost, ast.Step) else None
    kind = game.rules.kind(card.kind)
    if kind is not None and kind.used_up:
        # "once used: ...": the card is used up once its costs are paid
        e.emit(lambda m, f: m.use_up(f))
    if game.rules.resolution is not None:
        e.emit(lambda m, f, program=name + ":effect": m.push_entry(
            program, f.locals["this"], f.locals["you"],
            (("this", f.locals["this"]), ("you", f.locals["you"])) + after_use_locals(f)
            + paid_locals(f)))
    else:
        def run_effect(m, f, program=name + ":effect"):
            f.pc += 1
            after = after_use_locals(f)
            if after:
                m.state.frames.append(Frame(AFTER_USE, 0, {"this": f.locals["this"],
                                                           "_after_use": after[0][1]}))
            m.state.frames.append(Frame(program, 0, {"this": f.locals["this"],
                                                     "you": f.locals["you"],
                                                     **dict(paid_locals(f))}))
            return JUMPED
        e.emit(run_effect)
    game.programs[name] = e.finish()
    zone = None
    if timing is not None and timing.from_zone:
        zone = next((z for z in game.rules.zones if z.lower() == timing.from_zone.lower()),
                    timing.from_zone)
    game.activated.setdefault(card.name, []).append(Activated(
        label, name, lambda m, f: all(c(m, f) for c in checks), once_per, card.name, zone,
        off_turn, str(index)))
    if zone is not None and zone not in game.activated_zones:
        game.activated_zones = game.activated_zones + (zone,)


def _is_replacement(node) -> bool:
    """ "If <card> would <event>, <step> instead." in one sentence, after
    "During the PERIOD," conditions if any; steps may follow the one with
    "instead" ("..., return them to your hand instead, then discard ...")."""
    _label, conditions, costs, resolution = node.args
    if conditions or costs or len(resolution) != 1:
        return False
    items = [link.args[0] for link in resolution[0].args]
    while items and isinstance(items[0], ast.Condition) and items[0].form in ("during",
                                                                              "once_per"):
        items = items[1:]
    return (len(items) >= 2 and isinstance(items[0], ast.Condition)
            and items[0].form == "if_" and items[0].args[0].form in ("would", "would_player")
            and any(isinstance(item, ast.Step) and (any(
                getattr(s, "form", "") == "instead" for s in _suffixes(item)) or _prevents(item))
                for item in items[1:]))


def _suffixes(step: ast.Step) -> tuple:
    """A step's suffixes ("instead", durations): the last of its args, or
    (a player's "can't") every arg after the capability."""
    if step.form == "player_cannot":
        return tuple(step.args[2:])
    last = step.args[-1] if step.args else ()
    return last if isinstance(last, tuple) else ()


def _prevents(step: ast.Step) -> bool:
    """ "Prevent that damage": a replacement whose event simply does not happen."""
    return step.form == "act" and step.args[2].form == "prevent_damage"


def _compile_replacement(game: CompiledGame, card, name: str, ability, resolution,
                         kept=None) -> None:
    sentence = resolution[0]
    links = list(sentence.args)
    periods, once_per = [], None
    while links[0].args[0].form in ("during", "once_per"):
        if links[0].args[0].form == "once_per":
            # "Once per Round, if you would ...": the first such event each
            # Round (see Changes.player_replacement)
            once_per = links[0].args[0].args[0]
        else:
            # "During the End Phase, if ...": only while that period is current
            periods.append(links[0].args[0].args[0].args[0])
        links = links[1:]
    would = links[0].args[0].args[0]
    if would.form == "would_player" or _deals_damage_to_a_player(would):
        event, test = player_replacement(game, would)
        doable = _doable_checks((attrs.evolve(sentence, args=tuple(links[1:])),), game.rules) \
            if optional_instead(links[1:]) else ()
        if doable:
            # "you may discard 2 cards instead": offered only if it can be done
            test = (lambda m, f, p, t=test: t(m, f, p) and all(c(m, f) for c in doable))
        _compile_instead(game, name, ability, sentence, links, event, about_player=True)
        game.player_replacements.setdefault(card.name, []).append(
            PlayerReplacement(event, test, name, once_per))
        game.draws_replaced = game.draws_replaced or event == "draw a card"
        return
    if once_per is not None:
        raise unsupported(links[0].args[0], '"once per" a replacement of a card\'s event')
    event, selection = card_replacement(game, *would.args)
    test = selection.test
    if periods:
        test = (lambda m, f, c, t=selection.test: t(m, f, c) and all(
            p in m.state.period.values() for p in periods))
    if kept is not None:
        test = (lambda m, f, c, t=test: kept(m, f) and t(m, f, c))
    _compile_instead(game, name, ability, sentence, links, event)
    # a plural subject ("your face-up cards ..."): once for all the cards one
    # step does it to, with "them" those cards
    game.replacements.setdefault(card.name, []).append(
        Replacement(event, test, name, selection.plural))


def _deals_damage_to_a_player(would) -> bool:
    """ "If a Creature would deal damage to you": a replacement of the
    player's being dealt damage, by such a card (``player_replacement``)."""
    action = would.args[1]
    return action.form == "deals_damage" and bool(action.args) and \
        isinstance(action.args[0], ast.Player)


def _compile_instead(game: CompiledGame, name: str, ability, sentence, links,
                     event: str, about_player: bool = False) -> None:
    """The program of a replacement: the steps after its condition, "instead"
    taken off the step it ends."""
    e = Emitter(name, ability.span)
    compile_instead(StepCompiler(e, game), sentence, links[1:], event, about_player)
    game.programs[name] = e.finish()


def _trigger_with_a_comma(node):
    """ "Whenever you cast a Spell, this gets +1 Attack." is "Whenever you
    cast a Spell: this gets +1 Attack." (the event leads the sentence)."""
    label, conditions, costs, resolution = node.args
    if conditions or costs or not resolution or len(resolution[0].args) < 2:
        return node
    first = resolution[0]
    when = first.args[0].args[0]
    if not isinstance(when, ast.Condition) or when.form not in ("when", "at_start", "at_end"):
        return node
    if when.form != "when" and when.args[0].form in ast.ONCE_PERIODS:
        # "At the start of your next Upkeep, draw a card": one moment to come,
        # left for by the effect that says it (a Sorcery's), never a trigger
        return node
    rest = (attrs.evolve(first.args[1], form="first"),) + tuple(first.args[2:])
    return attrs.evolve(node, args=(label, (when,), costs,
                                    (attrs.evolve(first, args=rest),) + tuple(resolution[1:])))


def _is_state_rule(node) -> bool:
    """A rule written "If CONDITION, STEPS.": whenever the condition holds,
    the steps happen (checked as the state rules are, after every step)."""
    _label, conditions, costs, resolution = node.args
    if conditions or costs or len(resolution) != 1:
        return False
    items = [link.args[0] for link in resolution[0].args]
    return (len(items) >= 2 and isinstance(items[0], ast.Condition)
            and items[0].form == "if_" and items[0].args[0].form != "would"
            and all(isinstance(i, ast.Step) for i in items[1:]))


def _when_this_is(participle: str, span) -> ast.Condition:
    """ "When this is cast": the condition a kind's "text happens: when this
    is cast" gives its plain text (as the grammar reads those words)."""
    form = participle.replace(" ", "_")
    inner = ast.EventAction(form, (), span) if form in BASE_PARTICIPLES else \
        ast.EventAction("event_participle", (participle,), span)
    event = ast.Event("card_event", (ast.Selector("this", (), span),
                                     ast.EventAction("event_action", (inner,), span)), span)
    return ast.Condition("when", (event, None), span)


def _while_statement(resolution, continuous: bool = False):
    """(test, statements) for one sentence "While CONDITION, STATEMENTS."
    ("it" in them: the card the condition is about, when that is this
    card), or None; "X can't Y unless CONDITION." too. In a continuous
    ability (``continuous``), "If CONDITION,
    STATEMENTS." reads the same ("If you control 3 or more Creatures, this
    gets +2 power."): a change in force while it holds; and "During your
    turn, this gets +2 power.": while that period is under way."""
    if len(resolution) == 1 and len(resolution[0].args) == 1:
        # "This can't attack unless you control another Creature": the
        # prohibition is in force while the condition does not hold
        step = resolution[0].args[0].args[0]
        if isinstance(step, ast.Step) and step.form == "state_change" and \
                step.args[1].form == "cannot_unless":
            capability, condition = step.args[1].args
            test = _it_is_this(compile_condition(condition))
            plain = attrs.evolve(step, args=(step.args[0], attrs.evolve(
                step.args[1], form="cannot", args=(capability,)), step.args[2]))
            link = attrs.evolve(resolution[0].args[0], args=(plain,))
            return (lambda m, f: not test(m, f)), (attrs.evolve(resolution[0], args=(link,)),)
    if len(resolution) != 1 or len(resolution[0].args) < 2:
        return None
    first, *rest = resolution[0].args
    condition = first.args[0]
    forms = ("while_", "if_", "during") if continuous else ("while_",)
    if not (isinstance(condition, ast.Condition) and condition.form in forms) or \
            not _is_statement((attrs.evolve(resolution[0], args=tuple(rest)),)):
        return None
    about = condition.args[0].args[0] if condition.args[0].args else None
    links = []
    for index, link in enumerate(rest):
        step = link.args[0]
        if isinstance(about, ast.Selector) and about.form == "this" and \
                step.form == "state_change" and step.args[0].form == "it":
            step = attrs.evolve(step, args=(about,) + step.args[1:])
        links.append(attrs.evolve(link, form="first" if index == 0 else link.form,
                                  args=(step,)))
    sentence = attrs.evolve(resolution[0], args=tuple(links))
    if condition.form == "during":
        return period_test(condition.args[0]), (sentence,)
    return compile_condition(condition.args[0]), (sentence,)


def _it_is_this(test):
    """A condition of a continuous ability, "it" in it being the card whose
    text it is ("This can't be challenged unless it is exhausted")."""
    def holds(m, f):
        if "it" in f.locals:
            return test(m, f)
        f.locals["it"] = f.locals.get("this")
        try:
            return test(m, f)
        finally:
            del f.locals["it"]
    return holds


def _no_moment(game: CompiledGame, card, kind, node, where) -> Unsupported:
    """E821: an effect written alone on a card whose kind's text has no
    moment of its own ("Deal 1 damage ..." on a Creature): it would never
    happen. The suggestion: the moment the card comes into play (not for a
    kind used from a zone, an Instant used from the hand), and the timing
    labels of its kind, else the game's."""
    rules = game.rules
    entered = [z.entry_event for z in rules.zones.values()
               if "in play" in z.roles and z.entry_event
               and not (kind is not None and kind.used_from)]
    phrase = None
    if entered:     # as declared ("is Summoned"), else the entry event's word
        phrase = next((e.phrase for e in rules.events
                       if event_word(e.phrase) == entered[0].lower()), entered[0])
    ways = []
    resolution = node.args[3]
    first = resolution[0].args[0].args[0] if resolution and resolution[0].args else None
    later = ""
    if isinstance(first, ast.Condition) and first.form in ("at_start", "at_end"):
        # "At the start of your next Upkeep, draw a card." on a Creature: the
        # effect that leaves the steps for that moment needs a moment itself
        later = _condition(first) + ", "
    if phrase is not None:
        ways.append(f'a moment ("When this {phrase}, {later}...")')
    labels = (kind.timings if kind is not None else ()) or tuple(rules.timings)
    if labels:
        ways.append(f"a timing label ({', '.join(label + ':' for label in labels)})")
    article = "an" if card.kind[:1].lower() in "aeiou" else "a"
    what = f"{article} {card.kind}'s" if kind is not None else "this card's"
    return Unsupported(Problem(
        "E821", f"nothing says when this happens: {what} text is not used on its own, so this "
        "effect would never happen", where, None, (),
        f"start it with {' or '.join(ways)}" if ways else None))


def _refuse_continuous_x(resolution) -> None:
    """ "This gets +X power, where X is the number of Lands you control" as a
    continuous ability: X would have to be read again whenever the power is;
    "for each" says the same and is read so (E801 with that form)."""
    for sentence in resolution:
        for link in sentence.args:
            item = link.args[0]
            if not (isinstance(item, ast.Step) and item.form == "state_change"
                    and item.args[1].form == "gets"):
                continue
            for change in item.args[1].args:
                if isinstance(change, ast.StatChange) and change.args[0] in ("+X", "-X"):
                    raise unsupported(change, f'a continuous "{change.args[0]} '
                                      f'{change.args[1]}"', suggestion=(
                                          f'count with "for each", which is read whenever '
                                          f'it is needed: "This gets {change.args[0][0]}1 '
                                          f'{change.args[1]} for each ..."'))


def _is_statement(resolution) -> bool:
    """Sentences that only say how cards or players are ("A frozen character
    can't attack."): a continuous change."""
    return all(isinstance(link.args[0], ast.Step) and
               link.args[0].form in ("state_change", "player_cannot")
               for sentence in resolution for link in sentence.args)


def _bind_a_player(value):
    """ "If a player has ..., they lose the game": "a player" is the player the
    rule is checking, who is also "they" in its steps."""
    if isinstance(value, ast.Player) and value.form == "any_player":
        return attrs.evolve(value, form="that_player")
    if isinstance(value, ast.Node):
        return attrs.evolve(value, args=_bind_a_player(value.args))
    if isinstance(value, tuple):
        return tuple(_bind_a_player(v) for v in value)
    return value


def _compile_state_rule(game: CompiledGame, card, name: str, ability) -> None:
    sentence = ability.ability.args[3][0]
    condition = sentence.args[0].args[0].args[0]
    per_player = any(isinstance(n, ast.Player) and n.form == "any_player"
                     for n in condition.walk())
    condition = _bind_a_player(condition)
    steps = _bind_a_player(sentence.args[1:])
    steps = (attrs.evolve(steps[0], form="first"),) + steps[1:]
    test = compile_condition(condition)
    e = Emitter(name, ability.span)
    StepCompiler(e, game).sentence(attrs.evolve(sentence, args=steps))
    game.programs[name] = e.finish()
    places_only = reads_only_places(condition)
    game.state_rules = game.state_rules + (
        StateRule(card.name, test, name, per_player, places_only),)
    game.state_rules_read_all = game.state_rules_read_all or not places_only


def _compile_ability(game: CompiledGame, card, index: int, ability,
                     keeps: str | None = None) -> None:
    """``keeps``: the keyword whose definition this is, on a card that may
    lose it ("This loses Divine Shield"): the ability works only while the
    card still has it."""
    node = ability.ability
    if node.form == "keyword":
        # A keyword is a mark every rule and card can ask about ("with
        # <PROTECTOR>"); one defined in card language also works as that text.
        use = node.args[0]
        decl = next((k for k in game.rules.keywords if k.pattern.text == use.form), None)
        if decl is None or decl.definition is None:
            return
        for number, (text, span) in enumerate(decl.definitions()):
            defined = parse_ability(game.rules, text, game.rules.path, span)
            if use.args:
                # "Drive 2": the definition with its slots filled, as for verbs
                defined = fill_slots(defined, dict(zip(use_slots(decl.pattern.text),
                                                       use.args)), use)
            # ("also:" abilities: programs of their own, "3.1" beside "3")
            _compile_ability(game, card, index if number == 0 else f"{index}.{number}",
                             attrs.evolve(ability, ability=defined),
                             use.form if use.form in game.losable_keywords else None)
        return
    node = _trigger_with_a_comma(node)
    label, conditions, costs, resolution = node.args
    timing = game.rules.timing(label) if label else None
    if timing is not None and timing.use == "activated":
        conditions, resolution = limit_first(conditions, resolution)
    # "This gets +2 Attack and +2 Health": one change of two stats
    resolution = tuple(joined_stat_changes(s) for s in resolution)
    # "Your Rival discards a card, may draw a card: ...": the Rival draws
    costs = ast.carried_subjects(costs)
    node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    name = f"card:{card.name}:{index}"
    kind = game.rules.kind(card.kind)
    kept = None if keeps is None else (
        lambda m, f, k=keeps: not m.has(f.locals["this"], "lost keyword", k))
    if _is_replacement(node):
        _compile_replacement(game, card, name, ability, resolution, kept)
        return
    if card.kind == RULE_KIND and _is_state_rule(node):
        _compile_state_rule(game, card, name, ability)
        return
    if card.kind != RULE_KIND and not conditions:
        refuse_unnamed_that_player(resolution)
    if card.kind != RULE_KIND:
        refuse_heads_before_a_flip(conditions, resolution, game.rules)
    continuous = (timing is not None and timing.use == "continuous") or (
        label is None and not (kind and kind.text_event))
    while_gate = _while_statement(resolution, continuous) \
        if not conditions and not costs else None
    if while_gate is not None:
        # "While this character is challenging, it gets +2 Strength.": a
        # continuous change in force while the condition holds
        test, resolution = while_gate
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
        _compile_static(game, card, node, test if kept is None else (
            lambda m, f: kept(m, f) and test(m, f)))
        return
    if not conditions and not costs and _is_statement(resolution) and (
            card.kind == RULE_KIND or (label is None and not (kind and kind.text_event))):
        # a statement with no label ("This can't attack."): in force while
        # its card is (a rule: always), unless its kind's text happens on an
        # event ("text happens: when this is cast")
        _compile_static(game, card, node, kept)
        return
    if any(c.form == "before" for c in conditions):
        conditions = _before_as_when(game, conditions)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    if _names_the_rival(resolution):
        game.negative.update((name, name + ":use"))
    timing = game.rules.timing(label) if label else None
    # a box that works only while the card has a status ("connection while
    # connected"): its abilities are gated by it
    gate = kept
    for box, status in (kind.box_status if kind is not None else ()):
        if box.lower() == ability.box.lower():
            gate = (lambda m, f, status=status: m.has_status(f.locals["this"], status))
    if gate is not None and timing is not None and timing.use == "continuous":
        _compile_static(game, card, node, gate)
        return
    if gate is not None and timing is not None and timing.use == "activated":
        _compile_activated(game, card, index, node, ability, gate)
        return
    when_conditions = [c for c in conditions if c.form in ("when", "at_start", "at_end")]
    if timing is not None and timing.use == "triggered" and timing.when is not None \
            and not when_conditions:
        # the label's own event ("DEFEND: ...": when a Being at this card is attacked)
        implied = parse_ability(game.rules, timing.when.text, timing.when.span.path,
                                timing.when.span, start="when_line")
        if implied.form not in ("when", "at_start", "at_end"):
            raise unsupported(implied, f'"{implied.form.rstrip("_")}" as a timing\'s event '
                              '(write "When ..." or "At the start of ...")')
        conditions = (implied,) + tuple(conditions)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    elif timing is None and not conditions and kind is not None and kind.text_event:
        # plain text of a kind whose text happens on an event of the card:
        # the card's effect ("Copy the effect of a Skill ...")
        conditions = (_when_this_is(kind.text_event, ability.span),)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
        if not costs:
            game.effects.setdefault(card.name, []).append(name)
    if timing is not None and timing.unless is not None:
        unless = parse_ability(game.rules, timing.unless.text, timing.unless.span.path,
                               timing.unless.span, start="condition_line")
        test = compile_condition(unless)
        outer = gate
        gate = (lambda m, f, test=test, outer=outer: not test(m, f) and
                (outer is None or outer(m, f)))
    if timing is not None and timing.used_as is not None and timing.use == "triggered":
        _compile_used_as(game, card, index, node, ability, timing, gate)
    if timing is not None and (timing.label in game.cued_labels or (
            timing.response and (conditions or costs or game.cued_labels))):
        # used in response windows (interpreter.compiler.triggered), costs paid first
        compile_response(game, card, index, node, ability)
        return
    if timing is not None and timing.response and not conditions and not costs:
        e = Emitter(name, ability.span)
        StepCompiler(e, game).sentences(resolution)
        game.programs[name] = e.finish()
        game.responses.setdefault(card.name, []).append(name)
        return
    if timing is not None and timing.use == "continuous" and not when_conditions:
        _compile_static(game, card, node)
        return
    # (a continuous label on "When ...: effect": it triggers while its card
    # is in play, as any triggered ability)
    if timing is not None and timing.use == "requirement":
        # "REQUIRES: If ...": the card can be used only while this holds
        items = list(conditions) + [link.args[0] for sentence in resolution
                                    for link in sentence.args]
        for item in items:
            if not isinstance(item, ast.Condition) or item.form != "if_":
                raise unsupported(item, "a requirement other than \"If ...\"")
            game.requirements.setdefault(card.name, []).append(compile_condition(item.args[0]))
        return
    if timing is not None and timing.use == "activated" and not any(
            c.form == "when" for c in conditions):
        _compile_activated(game, card, index, node, ability)
        return
    if label is None and costs and all(c.form in ("once_per", "during") for c in conditions):
        # "Exert this, pay 1 ink: Draw a card.": COST: EFFECT with no timing
        # is an activated ability its controller may use whenever they may
        # take an action
        _compile_activated(game, card, index, node, ability)
        return
    if any(c.form == "after" for c in conditions):
        # "After X: ...": triggers on X, resolving after the "When X" ones
        game.after_triggers.add(name)
        conditions = tuple(attrs.evolve(c, form="when", args=(c.args[0], None))
                           if c.form == "after" else c for c in conditions)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    whens = [c for c in conditions if c.form in ("when", "at_start", "at_end")]
    intent = None
    settings = game.rules.resolution
    if whens and costs and gate is None and settings is not None and \
            settings.one_at_a_time and settings.responses and \
            not (kind is not None and kind.after_use):
        # PLAYED CARD AND TRIGGERED EFFECT STEPS: its controller decides and
        # pays (the Intent Step) before the effect waits for responses
        intent = compile_intent(game, card, name, ability, label,
                                [c for c in conditions if c not in whens], costs, resolution,
                                timing, outside=False)
    if whens and kind is not None and kind.used_from and (
            whens[0].form in ("at_start", "at_end") or
            whens[0].args[0].form == "player_event"):
        # used from the hand or another zone too ("At the start of your Move")
        compile_intent(game, card, name, ability, label,
                       [c for c in conditions if c not in whens], costs, resolution, timing)
    if whens and any(c.form in ("if_", "once_per") for c in conditions) and gate is None \
            and not (kind is not None and kind.after_use):
        # "When ..., once per Round, pay 1 Gem:" / "If this is rested, pay ...:"
        compile_trigger_body(game, name, ability, conditions, costs, resolution, timing)
        conditions, costs = tuple(whens), ()
    if costs or gate is not None or (kind is not None and kind.after_use):
        _paid_program(game, name, costs, resolution, timing, kind)
        costs = ()
    if not whens and not conditions and not costs and label is None:
        _refuse_continuous_x(resolution)
        raise _no_moment(game, card, kind, node, ability.span)
    if not whens or costs or len(conditions) != 1:
        raise unsupported(node, "abilities other than \"When ...: effect\", responses, "
                          "activated and continuous abilities")
    when = whens[0]
    # a rule of the game is not an ability: what it does happens at once,
    # never waiting on the stack (as a timing declared "immediate")
    at_once = card.kind == RULE_KIND or (timing is not None and timing.immediate)
    if when.form in ("at_start", "at_end"):
        ref = when.args[0]
        whose = {"your": "you", "rivals": "rival"}.get(ref.form, "any")
        if ref.form in ast.ONCE_PERIODS:
            # "At the start of your next Upkeep: ..." would be each Upkeep's
            moment = _condition(when)
            raise Unsupported(Problem(
                "E823", f'"{moment}" is one moment to come, and a triggered ability '
                'happens at every one', ref.span, None, (),
                f'an effect waits for it: "{moment[:1].upper()}{moment[1:]}, ..." in the '
                f'text of a card that happens once, or after a moment of its own ("When '
                f'this ..., {moment}, ...")'))
        program = _compile_trigger_program(game, name, ability, resolution, timing)
        if at_once:
            game.immediate.add(program)
        game.triggers.setdefault(card.name, []).append(Trigger(
            ref.args[0], intent or program, None, False, "period", whose,
            "start" if when.form == "at_start" else "end"))
        _intent_trigger(game, card, name)
        return
    event = when.args[0]
    if event.form == "player_event":
        word, card_test, whose = player_event_watch(game, event)
        check_event_logged(game, word, event)
        program = _compile_trigger_program(game, name, ability, resolution, timing)
        if at_once:
            game.immediate.add(program)
        game.triggers.setdefault(card.name, []).append(Trigger(
            word, intent or program, card_test, False, "player", whose))
        _intent_trigger(game, card, name)
        return
    word, test, object_test, self_only = card_event_watch(game, event)
    check_event_logged(game, word, event)
    if at_once:
        game.immediate.add(name)
    if name not in game.programs:     # not already built with its costs
        _compile_trigger_program(game, name, ability, resolution, timing)
    if gate is not None:
        test = (lambda m, f, c, t=test: gate(m, f) and t(m, f, c))
    game.triggers.setdefault(card.name, []).append(
        Trigger(word, intent or name, test, self_only,
                once_per=timing.once_per if timing is not None else None,
                object_test=object_test))


def _names_the_rival(resolution) -> bool:
    """Whether an effect's text acts on its controller's Rival: a step whose
    player is the Rival, or cards the Rival controls, owns or holds."""
    for sentence in resolution:
        for node in sentence.walk():
            if isinstance(node, ast.Player) and node.form in ("rival", "each_rival"):
                return True
            if isinstance(node, ast.Possessive) and node.form == "rivals":
                return True
    return False


def _compile_used_as(game: CompiledGame, card, index: int, node, ability, timing,
                     gate) -> None:
    """A timing's ``used as: LABEL if CONDITION``: the triggered ability can
    also be used as an ability of that timing ("START OF RIVAL'S MOVE" as
    "YOUR MOVE" while the Rival has no moves left), its "if" conditions and
    the condition gating it; a "once per" limit is shared with the trigger."""
    as_label, sentence = timing.used_as
    tests = [compile_condition(parse_ability(game.rules, sentence.text, sentence.span.path,
                                             sentence.span, start="condition_line"))]
    label, conditions, costs, resolution = node.args
    kept = []
    for c in conditions:
        if c.form == "if_":
            tests.append(compile_condition(c.args[0]))
        elif c.form == "once_per":
            kept.append(c)
    if gate is not None:
        tests.append(gate)
    _compile_activated(game, card, index, attrs.evolve(
        node, args=(as_label, tuple(kept), costs, resolution)), ability,
        lambda m, f: all(t(m, f) for t in tests), suffix=":as")
