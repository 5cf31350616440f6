"""Compiling a game: a loaded :class:`~interpreter.language.games.Game`
becomes a :class:`~interpreter.compiler.compiled.CompiledGame` once, before
any match is played.

:func:`compile_game` turns the rules file and the cards into programs
(sentences compiled by ``interpreter.compiler.steps``): the game's own
program (the setup, then the turn structure, turn after turn), one program
per action a player may take, and the abilities of every card
(``interpreter.compiler.abilities``). Running those programs is
``interpreter.engine``'s job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import attrs
from lark.exceptions import UnexpectedInput

from interpreter.collector import collection_paused
from interpreter.compiler.abilities import _compile_ability, _compile_exchanges
from interpreter.compiler.compiled import (AFTER_USE, KEYWORD_KIND, RULE_KIND, ActionPlan,
                                           CompiledGame, TriggerIndex)
from interpreter.compiler.conditions import compile_condition
from interpreter.compiler.costs import _cost_checks
from interpreter.compiler.players import compile_player, compile_zone
from interpreter.compiler.moving_steps import acts, placement_checks
from interpreter.compiler.program import Emitter, Program, Unsupported, unsupported
from interpreter.compiler.replacing import player_event
from interpreter.compiler.selectors import compile_selector
from interpreter.compiler.steps import StepCompiler
from interpreter.compiler.verb_slots import keyword_instance, use_slots
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.language import ast
from interpreter.language.declared_events import unlogged_events
from interpreter.language.game_rules import GameRules, parse_ability
from interpreter.language.cards import CardAbility, CardDefinition
from interpreter.language.files import read_source
from interpreter.source import Span


@collection_paused()
def compile_game(game) -> CompiledGame:
    """Compile a loaded game; raises CardrulesError listing what cannot run."""
    rules = game.rules
    problems: list[Problem] = []
    if not rules.phases:
        raise CouldNotRun(Problem(
            "E802", f'{game.game_id} declares no turn structure yet: its rules file '
            "has no turn block, so it can be checked but not played",
            Span(rules.path, 1, 1, 1, 2), None, ('a turn block: turn, then phase "Name" '
                                                 "lines with the phase's steps",)))
    compiled = CompiledGame(rules, dict(game.cards))
    compiled.unlogged_events = unlogged_events(rules)
    rule_cards = _rule_cards(rules, problems)
    compiled.cards.update((card.name, card) for card in rule_cards)
    compiled.rule_cards = tuple(card.name for card in rule_cards)
    keyword_cards = _keyword_cards(rules, compiled)
    compiled.cards.update((card.name, card) for card in keyword_cards)
    compiled.player_damage_counter = next(
        (c.name for c in rules.counters.values() if c.takes_damage), None)
    compiled.player_damage_replaced = any(
        node.form == "would_player" and node.args[1].form == "dealt_damage"
        for card in compiled.cards.values() for ability in card.abilities
        for node in ability.ability.walk())
    compiled.player_events_replaced = frozenset(
        player_event(node.args[1]) if node.form == "would_player" else f"add {node.args[0]}"
        for card in compiled.cards.values() for ability in card.abilities
        for node in ability.ability.walk() if node.form in ("would_player", "counters_prevented"))
    for role, attr in (("draw pile", "draw_pile"), ("hand", "hand"),
                       ("discard pile", "discard_pile")):
        zone = rules.zone_with_role(role)
        if zone is None:
            problems.append(Problem("E803", f'no zone is the "{role}"',
                                    Span(rules.path, 1, 1, 1, 2), None,
                                    (f'zone NAME: ..., {role}',)))
        else:
            setattr(compiled, attr, zone.name)
    compiled.in_play = tuple(z.name for z in rules.zones.values() if "in play" in z.roles)
    compiled.not_adjectives = frozenset(s.name for s in rules.stats.values() if not s.adjective)
    compiled.staying_kinds = frozenset(k.name for k in rules.kinds.values()
                                       if k.never_leaves_play)
    for zone in rules.zones.values():
        if zone.entry_event:
            phrase = zone.entry_event
            for prefix in ("is ", "are "):
                phrase = phrase[len(prefix):] if phrase.startswith(prefix) else phrase
            compiled.entry_events[zone.name] = phrase.lower()
    compiled.pairs = tuple((z.name, z.paired_with, z.paired_status)
                           for z in rules.zones.values() if z.paired_with)
    compiled.paired_statuses = frozenset(status for _, _, status in compiled.pairs)
    compiled.none_loses = tuple(z.name for z in rules.zones.values() if z.none_loses)
    compiled.lethal_stats = tuple(s.name for s in rules.stats.values() if s.lethal_damage)
    hand = rules.zones.get(compiled.hand) if compiled.hand else None
    compiled.hand_capacity = hand.capacity if hand is not None else None
    compiled.winning_counters = tuple(c for c in rules.counters.values()
                                      if c.wins_at is not None and c.scope == "player")
    compiled.tokens_cease = frozenset((z.name, edge) for z in rules.zones.values()
                                      for edge in z.tokens_cease)
    for stat in rules.stats.values():
        if stat.adds_to_host and rules.stat(stat.adds_to_host) is not None:
            host = rules.stat(stat.adds_to_host).name
            compiled.host_stats[host] = compiled.host_stats.get(host, ()) + (stat.name,)
    compiled.keeping = tuple(z.name for z in rules.zones.values() if z.keeps_cards)
    compiled.reshuffled = tuple(z.name for z in rules.zones.values() if z.shuffled_after)
    zone_names = {z.lower(): z for z in rules.zones}
    for counter in rules.counters.values():
        if counter.track and counter.track.lower() in zone_names:
            zone = zone_names[counter.track.lower()]
            compiled.track_counters[zone] = compiled.track_counters.get(zone, ()) + (
                counter.name,)
            compiled.position_zones[counter.name] = zone
    for counter in rules.counters.values():
        if counter.per_place and counter.per_place.lower() in zone_names:
            compiled.place_counters[counter.name] = zone_names[counter.per_place.lower()]
    for counter in rules.counters.values():
        if counter.track and zone_names.get(counter.track.lower()) in \
                compiled.place_counters.values():
            compiled.place_positions.setdefault(zone_names[counter.track.lower()],
                                                counter.name)

    def guard(build, where: Span | None = None):
        """Compile one piece; what cannot run is a problem at its place (or,
        for a node without a span of its own, at the piece's)."""
        try:
            build()
        except Unsupported as err:
            problems.extend(p if p.span is not None or where is None
                            else attrs.evolve(p, span=where) for p in err.problems)
        except CardrulesError as err:
            # a text the grammar cannot read (in a game check reported other
            # problems for): reported with the rest, its line shown
            problems.extend(err.problems)

    for word, (phrase, where) in rules.event_phrases.items():
        guard(lambda w=word, p=phrase, s=where: _event_alias(compiled, w, p, s), where)
    for index, action in enumerate(rules.actions):
        guard(lambda a=action, i=index: _compile_action(compiled, a, i), action.span)
    guard(lambda: _compile_turn(compiled))
    compiled.used_from_zones = tuple(dict.fromkeys(
        z for k in rules.kinds.values() for z in getattr(k, "used_from", ())))
    if any(k.used_up for k in rules.kinds.values()):
        compiled.programs[AFTER_USE] = Program(AFTER_USE, [
            lambda m, f: m.used_up_steps(f.locals["this"], f.locals["_after_use"])])
    for kind in rules.kinds.values():
        if kind.when_used is not None:
            def used(kind=kind):
                e = Emitter(f"used:{kind.name}", kind.when_used.span)
                StepCompiler(e, compiled).sentences(_sentences(rules, kind.when_used))
                compiled.programs[f"used:{kind.name}"] = e.finish()
            guard(used)
    if any(a.exchange for a in rules.actions):
        for card in game.cards.values():
            guard(lambda c=card: _compile_exchanges(compiled, c))
    compiled.losable_keywords = _losable_keywords(rules, (*game.cards.values(), *rule_cards))
    for card in keyword_cards:
        # compiled before the cards, whose effects may give the keyword
        guard(lambda c=card: _compile_ability(compiled, c, 0, c.abilities[0]), card.span)
        _grantable(compiled, card)
    for card in (*game.cards.values(), *rule_cards):
        for index, ability in enumerate(card.abilities):
            guard(lambda c=card, i=index, a=ability: _compile_ability(compiled, c, i, a),
                  ability.span)
    compiled.trigger_programs = {t.program: t for ts in compiled.triggers.values() for t in ts}

    if any(t.answered for t in rules.timings.values()):
        # "answered in kind": the other players' answers to an ability used
        answer = Emitter("answer")
        answer.emit(lambda m, f: m.answer_window(f))
        compiled.programs["answer"] = answer.finish()
    if problems:
        raise CardrulesError(_with_source_lines(problems))
    compiled.trigger_index = TriggerIndex.of(compiled.triggers)
    for name, abilities in compiled.statics.items():
        for static in abilities:
            for kind, changed, _amount in static.changes:
                by_card = compiled.statics_by_change.setdefault((kind, changed), {})
                if static not in by_card.setdefault(name, []):
                    by_card[name].append(static)
    compiled.keyword_givers = frozenset(
        name for keyword in compiled.granted_keywords
        for name in compiled.statics_by_change.get(("keyword", keyword), {}))
    compiled.any_time_abilities = any(
        compiled.any_time_ability(ability) for abilities in compiled.activated.values()
        for ability in abilities)
    compiled.priority_uses = any(
        cued.with_priority for abilities in compiled.cued.values() for cued in abilities)
    compiled.any_time = compiled.any_time_abilities or any(
        plan.any_time for plan in compiled.actions)
    after = Emitter("#after action")
    after.emit(lambda m, f: m.after_action(f))
    compiled.programs["#after action"] = after.finish()
    # the rules file's texts first read while compiling: kept for the next run
    rules.keep_parses(rules.path)
    return compiled


def _event_alias(game: CompiledGame, word: str, phrase: str, where: Span) -> None:
    """ "event "dies": another name for "is put into a graveyard from the
    battlefield"": the phrase read as card text reads it after a card ("When
    this is put into ..."), kept for the triggers written with the word."""
    subject = "When this "
    # the phrase starts after its opening quote
    at = attrs.evolve(where, column=where.column + 1)
    when = parse_ability(game.rules, subject + phrase, where.path, at, shift=len(subject),
                         start="when_line")
    event = when.args[0] if when.form == "when" and when.args else None
    if event is None or event.form != "card_event" or \
            event.args[1].form not in ("moved_into_event", "moved_between_event"):
        raise Unsupported(Problem(
            "E546", f'"{phrase}" is no move of a card into a zone', where, None,
            ('"is put into ZONE" or "is put into ZONE from ZONE"',)))
    game.event_aliases[word] = event.args[1]


def _rule_cards(rules: GameRules, problems: list[Problem]) -> list[CardDefinition]:
    """The game's "rule" lines as cards whose one ability is the rule: the
    engine holds one of each outside play (``RULES_ZONE``), so that a rule
    triggers, replaces and changes cards as a card's ability would."""
    cards = []
    parser = rules.parser()
    for rule in rules.game_rules:
        span = rule.text.span
        try:
            ability = parser.parse(rule.text.text, span.path, span.line, span.column)
        except UnexpectedInput:
            continue            # reported when the rules file was read
        cards.append(CardDefinition(
            rule_card_name(rule.name), RULE_KIND, (), (),
            (CardAbility("text", ability, rule.text.text, span),), span.path, rule.span))
    return cards


def _keyword_cards(rules: GameRules, compiled: CompiledGame) -> list[CardDefinition]:
    """A card for each keyword defined by an ability and without slots, whose
    one ability is the keyword: the engine lends its abilities to any card an
    effect gives the keyword to, as if printed there."""
    cards = []
    parser = rules.parser()
    for decl in rules.keywords:
        if decl.definition is None:
            continue
        if use_slots(decl.pattern.text):
            continue        # a card for each value an effect gives: below
        span = decl.span
        try:
            ability = parser.parse(decl.pattern.text, span.path, span.line, span.column)
        except UnexpectedInput:
            continue            # reported when the rules file was read
        cards.append(CardDefinition(
            keyword_card_name(decl.pattern.text), KEYWORD_KIND, (), (),
            (CardAbility("text", ability, decl.pattern.text, span),), span.path, span))
    # a keyword with slots ("Challenger +{n}") given by an effect: a card for
    # each value given ("Challenger +2"), whose ability is the keyword as
    # printed with that value
    slotted = {d.pattern.text for d in rules.keywords
               if d.definition is not None and use_slots(d.pattern.text)}
    given: dict[str, ast.KeywordUse] = {}
    for card in compiled.cards.values():
        for ability in card.abilities:
            for node in ability.ability.walk():
                if isinstance(node, ast.Statement) and node.form == "has_keyword" and \
                        node.args[0].form in slotted and node.args[0].args and \
                        all(isinstance(a, int) for a in node.args[0].args):
                    given.setdefault(keyword_instance(node.args[0]), node.args[0])
    for name, use in sorted(given.items()):
        span = use.span
        cards.append(CardDefinition(
            keyword_card_name(name), KEYWORD_KIND, (), (),
            (CardAbility("text", ast.Ability("keyword", (use,), span), name, span),),
            span.path if span else rules.path, span))
    return cards


def _losable_keywords(rules: GameRules, cards) -> frozenset:
    """The keywords some text takes away ("This loses Divine Shield"), in
    card text or in the definitions of keywords and verbs."""
    trees = [ability.ability for card in cards for ability in card.abilities]
    for decl in (*rules.keywords, *rules.verbs):
        for text, span in decl.definitions():
            try:
                trees.append(parse_ability(rules, text, rules.path, span))
            except CardrulesError:
                pass            # reported when the rules file was read
    return frozenset(node.args[0].form for tree in trees for node in tree.walk()
                     if isinstance(node, ast.Statement) and node.form == "loses_keyword")


def keyword_card_name(keyword: str) -> str:
    """How a keyword's abilities are named where a card's name would be."""
    return f"{keyword} (keyword)"


def _grantable(compiled: CompiledGame, card: CardDefinition) -> None:
    """A keyword can be given by an effect when its abilities are continuous
    or replacements (what the engine asks of every card in play at every
    moment); one that triggers or is used cannot be given yet."""
    keyword = card.abilities[0].text
    name = card.name
    carried = (compiled.statics, compiled.player_statics, compiled.replacements,
               compiled.player_replacements)
    others = {"its definition triggers": compiled.triggers,
              "its definition is an activated ability": compiled.activated,
              "its definition is a response": compiled.responses}
    for what, table in others.items():
        if name in table:
            compiled.ungrantable_keywords[keyword] = what
            return
    if any(name in table for table in carried):
        compiled.granted_keywords[keyword] = name


def rule_card_name(name: str) -> str:
    """How a rule is named where a card's name would be ("Fatigue (rule)")."""
    return f"{name} (rule)"


def _with_source_lines(problems: list[Problem]) -> list[Problem]:
    """Each problem with the line it points at, for the caret under it."""
    sources: dict[str, object] = {}
    placed = []
    for problem in problems:
        span = problem.span
        if span is not None and problem.source_line is None:
            if span.path not in sources:
                try:
                    sources[span.path] = read_source(Path(span.path))
                except CardrulesError:
                    sources[span.path] = None
            source = sources[span.path]
            if source is not None and 1 <= span.line <= len(source.lines):
                problem = attrs.evolve(problem, source_line=source.line(span.line))
        placed.append(problem)
    return placed


def _sentences(rules: GameRules, sentence) -> tuple:
    ability = parse_ability(rules, sentence.text, sentence.span.path, sentence.span)
    # Spans of procedure sentences point into the rules file.
    return ability.resolution


def _forget_it(m, f) -> None:
    f.locals.pop("it", None)


def _procedure_line(steps: StepCompiler, rules: GameRules, line) -> None:
    """One line of a procedure (setup, a phase, a step); what cannot run and
    has no place of its own ("Repeat this.") is reported at the line."""
    # "it" is what this line names: a card the line before named is not held
    # on to (it would tell two cards apart: see Decisions.one_of_each)
    steps.e.emit_local(_forget_it)
    try:
        steps.sentences(_sentences(rules, line))
    except Unsupported as err:
        raise Unsupported([p if p.span is not None else attrs.evolve(p, span=line.span)
                           for p in err.problems]) from None


def _compile_turn(game: CompiledGame) -> None:
    rules = game.rules
    e = Emitter("game")
    steps = StepCompiler(e, game)
    e.emit(lambda m, f: m.mark("setup"))
    steps.in_setup = True
    for sentence in rules.setup:
        _procedure_line(steps, rules, sentence)
    steps.in_setup = False
    turn = e.label()
    e.place(turn)
    first = rules.phases[0] if rules.phases else None
    if first is not None and first.hold_triggers and not first.skip_first_turn:
        # the turn starts with its first phase: what its start triggers waits too
        e.emit(lambda m, f: m.hold_triggers())
    e.emit(lambda m, f: m.begin_turn(f))
    for phase in rules.phases:
        after = e.label()
        if phase.skip_first_turn:
            e.jump_unless(lambda m, f: m.state.turn > 1, after)
        game.phase_starts[phase.name] = len(e.program.instructions)

        def phase_body(phase=phase):
            if phase.hold_triggers and phase is not first:
                e.emit(lambda m, f: m.hold_triggers())
            e.emit(lambda m, f, name=phase.name: (m.start_period("phase", name),
                                                  m.lethal_check())[-1])
            if phase.hold_triggers and phase is first:
                # a position that starts at this phase: hold from here
                e.emit(lambda m, f: None if m.state.held is not None else m.hold_triggers())
            for sentence in phase.sentences:
                _procedure_line(steps, rules, sentence)
            if phase.hold_triggers:
                e.emit(lambda m, f: m.release_triggers(f))
            places = _each_place(game, e, phase) if phase.for_each else None
            for step in phase.steps:
                game.phase_starts[step.name] = len(e.program.instructions)
                game.step_phase[step.name] = phase.name

                def step_body(step=step):
                    skipped = e.label()
                    if step.skip_first_turn:
                        e.jump_unless(lambda m, f: m.state.turn > 1, skipped)
                    e.emit(lambda m, f, name=step.name: m.start_period("step", name))
                    if step.hold_triggers:
                        e.emit(lambda m, f: m.hold_triggers())
                    for sentence in step.sentences:
                        _procedure_line(steps, rules, sentence)
                    if places is not None and step is phase.steps[-1]:
                        # the place is resolved once its last step's procedure
                        # has run: what the abilities held until then gain is
                        # for the place at each player's position (see
                        # Machine.gain_counter)
                        e.emit(lambda m, f: m.leave_place())
                    if step.hold_triggers:
                        e.emit(lambda m, f: m.release_triggers(f))
                    e.emit(lambda m, f, name=step.name: m.end_period("step", name))
                    e.place(skipped)
                _taken_by(game, e, step.taken_by, step.name, step_body)
            if places is not None:
                places()
            for sentence in phase.closing:
                _procedure_line(steps, rules, sentence)
            e.emit(lambda m, f, name=phase.name: m.end_period("phase", name))
        _taken_by(game, e, phase.taken_by, phase.name, phase_body)
        e.place(after)
    e.emit(lambda m, f: m.end_turn(f))
    e.jump(turn)
    game.programs["game"] = e.finish()


def _taken_by(game: CompiledGame, e: Emitter, taken_by, name: str, body) -> None:
    """ "taken by: each player in turn, starting with PLAYER": ``body`` (a
    phase or a step) runs once for each player still in the game, in seat
    order from that player (the turn player when it names nobody, as "the
    player with the most X" on a tie). Meanwhile the player taking it is
    "you" and the turn player ("At the end of your Prologue"); both are
    restored afterwards."""
    if taken_by is None:          # no "taken by:": the body runs once, as written
        body()
        return
    who = compile_player(parse_ability(game.rules, taken_by.text, taken_by.span.path,
                                       taken_by.span, start="player_line"))
    key = f"#takers{len(e.program.instructions)}"
    top, done = e.label(), e.label()

    def start(m, f):
        state = m.state
        first = who(m, f)
        first = state.turn_player if first is None else first
        order = tuple((first + i) % state.players for i in range(state.players))
        f.locals[key] = (order, 0, state.turn_player, f.locals.get("you"))
    e.emit(start)
    e.place(top)

    def bind(m, f):
        order, index, turn_player, you = f.locals[key]
        while index < len(order) and m.state.out[order[index]]:
            index += 1
        if index >= len(order):
            return False
        f.locals[key] = (order, index, turn_player, you)
        taker = order[index]
        m.state.turn_player = taker
        f.locals["you"] = f.locals["they"] = taker
        m.taken_by(taker, name)
        return True
    e.jump_unless(bind, done)
    body()

    def advance(m, f):
        order, index, turn_player, you = f.locals[key]
        f.locals[key] = (order, index + 1, turn_player, you)
    e.emit(advance)
    e.jump(top)
    e.place(done)

    def restore(m, f):
        _order, _index, turn_player, you = f.locals.pop(key)
        m.state.turn_player = turn_player
        f.locals["you"] = you
    e.emit(restore)


def _each_place(game: CompiledGame, e: Emitter, phase):
    """ "for each KIND in ZONE:": the phase's steps run once per card of the
    zone, bottom first, with ``this`` the card (the place being resolved).
    Returns what closes the loop, emitted after the steps."""
    _kind, zone_name = phase.for_each
    decl = next((z for z in game.rules.zones.values() if z.name.lower() == zone_name.lower()),
                None)
    if decl is None:
        raise unsupported(phase, f'a loop over the unknown zone "{zone_name}"')
    top, done = e.label(), e.label()

    def start(m, f):
        f.locals["#place"] = 0
    e.emit(start)
    e.place(top)

    def bind(m, f):
        key = (decl.name, -1 if decl.scope == "shared" else f.locals["you"])
        cards = m.state.zones.get(key, ())
        if f.locals["#place"] >= len(cards):
            return False
        f.locals["this"] = cards[f.locals["#place"]]
        m.arrive_at_place(cards[f.locals["#place"]])
        return True
    e.jump_unless(bind, done)

    def close():
        def advance(m, f):
            f.locals["#place"] += 1
        e.emit(advance)
        e.jump(top)
        e.place(done)

        def unbind(m, f):
            f.locals.pop("this", None)
            f.locals.pop("#place", None)
            m.leave_place()
        e.emit(unbind)
    return close


def _keep_acted(m, f) -> None:
    """The card an action is about, kept for its event ("counts as")."""
    f.locals["#acted"] = f.locals.get("it")


def _compile_action(game: CompiledGame, action, index: int) -> None:
    rules = game.rules
    name = f"action:{index}"
    choose = None
    if action.choose is not None:
        chosen = parse_ability(rules, action.choose.text, action.choose.span.path,
                               action.choose.span, start="selection")
        choose = compile_selector(chosen, lambda m, f: f.locals["you"])
    e = Emitter(name, action.span)
    steps = StepCompiler(e, game)
    if action.event:
        e.emit(_keep_acted)
    checks = []
    target = None
    if action.target is not None:
        aimed = parse_ability(rules, action.target.text, action.target.span.path,
                              action.target.span, start="selection")
        target = compile_selector(aimed, lambda m, f: f.locals["you"])
        # (a target exists: looking no further than the first)
        checks.append((lambda m, f, t=target: t.at_least(m, f, 1)) if target.at_least
                      else (lambda m, f, t=target: bool(t.candidates(m, f))))
    _compile_declaration(e, action, target)
    if action.effect is not None:
        effect = _sentences(rules, action.effect)
        checks.extend(_room_checks(game, effect, action.sacrifices))
        checks.extend(placement_checks(effect))
    if action.sacrifices:
        stat = action.sacrifices
        checks.append(lambda m, f: m.sacrifice_cards(f, stat) is not None)
        e.emit(lambda m, f: m.sacrifice(f, stat))
    if action.cost is not None:
        # the cost of the action's card: changed by "costs 1 less Mana"
        cost = _sentences(rules, action.cost)
        checks.extend(_cost_checks(cost, rules, card_cost=True))
        # "it" in the effect is still the action's card, whatever cards the
        # cost picked ("cost: Exert 2 ready cards in your inkwell")
        e.emit(lambda m, f: f.locals.__setitem__("#chosen", f.locals.get("it")))
        steps.card_cost = True
        for sentence in cost:
            # each sentence of the cost reads "it" as the action's card too
            # ("Rest X ready Gems ..., where X is its bonus.")
            e.emit(lambda m, f: f.locals.__setitem__("it", f.locals["#chosen"]))
            steps.sentences((sentence,))
        steps.card_cost = False
        e.emit(lambda m, f: f.locals.__setitem__("it", f.locals.pop("#chosen")))
    if action.requires is not None:
        condition = parse_ability(rules, action.requires.text, action.requires.span.path,
                                  action.requires.span, start="condition_line")
        checks.append(compile_condition(condition))
    if action.exchange is not None:
        stat, card = action.exchange, action.exchange_card
        checks.append(lambda m, f: m.can_exchange(f, stat, card))
        e.emit(lambda m, f: m.exchange(f, stat, card))

    def effect_and_event(emitter, compiler):
        if action.event and action.event_first:
            _emit_event(emitter, action.event)
            # "1. Resolve any Animate abilities on the card. 2. Place the card":
            # what those abilities gave the card stays with it as it takes
            # its place (it is the card being played, not a new one)
            game.places_played = True
            emitter.emit(lambda m, f: f.locals.__setitem__(
                "#played", f.locals.get("#acted", f.locals.get("it"))))
            emitter.emit(lambda m, f: m.resolve_now(f))
        if action.effect is not None:
            compiler.sentences(_sentences(rules, action.effect))
        if action.event and not action.event_first:
            _emit_event(emitter, action.event)
    effect_and_event(e, steps)
    if action.role or action.target_role:
        e.emit(lambda m, f, a=action: m.end_roles(f, a.role, a.target_role))
    game.programs[name] = e.finish()
    # The same action without its cost: what "Play it" does in card text.
    free = Emitter(name + ":free", action.span)
    if action.event:
        free.emit(_keep_acted)
    effect_and_event(free, StepCompiler(free, game))
    game.programs[name + ":free"] = free.finish()
    if action.event == "played" and game.play_program is None:
        game.play_program = name + ":free"
    game.actions.append(ActionPlan(action.name, action.during, choose,
                                   lambda m, f: all(c(m, f) for c in checks), name,
                                   action.limit, action.limit_extra, target,
                                   action.any_time))


def _emit_event(e: Emitter, event: str) -> None:
    """An action's event ("counts as: played"): the chosen card's, whatever
    other cards the cost and effect named since."""
    e.emit(lambda m, f: m.event(event, f.locals.get("#acted", f.locals.get("it")),
                                f.locals["you"]))


def _room_checks(game: CompiledGame, sentences, sacrifices=None) -> list[Callable]:
    """An action whose effect puts its card into a zone of slots, or a zone
    of "at most N cards", can be taken only while that zone has room,
    counting the room its sacrifices free (a summon that sacrifices a card
    in that zone)."""
    checks = []
    for action in acts(sentences):
        if action.form not in ("put", "move") or len(action.args) < 2:
            continue
        selector, destination = action.args[0], action.args[1]
        if getattr(selector, "form", None) != "it" or destination.form != "to_zone":
            continue
        zone_ref = destination.args[0]
        if zone_ref.form == "zone_slot":
            continue
        decl = game.rules.zones.get(zone_ref.args[1])
        # (a full zone that sends what enters it elsewhere has room for
        # the action: "a card put into it when it is full goes to ...")
        sizes = [n for n in (decl.slots, None if decl.overflow else decl.capacity)
                 if n is not None] if decl else []
        if not sizes:
            continue
        key = compile_zone(zone_ref, lambda m, f: f.locals["you"])

        def room(m, f, key=key, slots=min(sizes)):
            cards = m.state.zones.get(key(m, f), ())
            if len(cards) < slots:
                return True
            freed = m.sacrifice_cards(f, sacrifices) if sacrifices else None
            return bool(freed) and len([c for c in cards if c not in freed]) < slots
        checks.append(room)
    return checks


def _compile_declaration(e: Emitter, action, target) -> None:
    """An action that declares (an attack): the chosen card takes its role
    ("as: attacker"); the target, if any, is chosen and takes its role; then
    the chosen card announces its event and the target its own, and what
    they trigger resolves before the action goes on (a Defend before
    damage). The announcement waits for the target: "Whenever this attacks,
    Freeze the defending character" names a defender, even where a
    triggered ability resolves at once."""
    if action.role or action.announces or target is not None:
        def declare(m, f, role=action.role, event=action.announces,
                    announce_now=target is None):
            card = f.locals.get("it")
            f.locals["chosen"] = card
            if card is not None and role:
                m.set_status(card, role, True)
            if card is not None and event and announce_now:
                m.event(event, card, f.locals["you"])
        e.emit(declare)
    if target is None:
        if action.announces:
            # no target to wait for: what the announcement triggered
            # resolves now, before the action goes on ("When this attacks")
            e.emit(lambda m, f: m.resolve_now(f))
        return

    def pick_target(m, f, prompt=f"choose a target to {action.name}"):
        return m.pick(f, target, f.locals["you"], prompt, "_target")
    e.emit(pick_target)

    def aim(m, f, role=action.target_role, event=action.target_announces,
            announces=action.announces):
        card = f.locals.get("it")
        chosen = f.locals.get("chosen")
        f.locals["target"] = card
        f.locals["it"] = chosen    # "it" stays the action's card
        if card is not None and role:
            m.set_status(card, role, True)
        if chosen is not None and announces:
            m.event(announces, chosen, f.locals["you"])
        if card is not None and event:
            m.event(event, card, m.state.cards[card].controller)
    e.emit(aim)
    e.emit(lambda m, f: m.resolve_now(f))
