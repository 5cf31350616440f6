"""Compiling a game: a loaded :class:`~interpreter.language.games.Game` becomes a
:class:`CompiledGame` once, before any match is played.

:func:`compile_game` turns the rules file and the cards into programs
(sentences compiled by ``interpreter.compile``): the game's own program (the
setup, then the turn structure, turn after turn), one program per action a
player may take, and the abilities of every card — triggered (:class:`Trigger`,
indexed by the events they watch in :class:`TriggerIndex`), activated
(:class:`Activated`), continuous (:class:`Static`) and replacements
(:class:`Replacement`). Running those programs is ``interpreter.engine``'s job.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter import operations as op
from interpreter.compile import (JUMPED, Emitter, Program, Selection, StepCompiler,
                                 Unsupported, compile_selector, unsupported)
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.language import ast
from interpreter.language.game_rules import GameRules, parse_ability
from interpreter.source import Span
from interpreter.state import Frame


@attrs.define
class ActionPlan:
    """One declared action, compiled: which cards it can be about, whether
    its cost can be paid, and the program that carries it out."""

    name: str
    phases: tuple[str, ...]
    choose: Selection | None
    can_pay: Callable
    program: str
    limit: tuple | None = None     # (period, for each card)
    # (stat adding uses, cap, name the uses are shared as[, uses per period])
    extra: tuple = ()
    target: Selection | None = None   # a second card the action needs (and asks for)
    any_time: bool = False         # usable at any time a player could respond


@attrs.define
class Trigger:
    """A triggered ability. It watches events of one kind: ``card`` events
    ("When this is played", "When a Creature is destroyed"), ``player``
    events ("When you draw a card") or ``period`` edges ("At the start of
    your turn")."""

    event: str                 # "played", "destroyed", ... or a period's name
    program: str
    test: Callable             # card events: (machine, frame, event card) -> fires?
    self_only: bool            # "When this ...": fires for its own card, anywhere
    kind: str = "card"         # "card", "player" or "period"
    whose: str = "any"         # player and period triggers: "you", "rival", "any"
    edge: str = "start"        # period triggers: "start" or "end"
    immediate: bool = False    # resolves at once, not on the stack
    once_per: str | None = None   # its label's "once per turn": once per card and period


@attrs.define
class Activated:
    """An ability a player uses in an action window: its costs are paid
    first, then its effect resolves (on the stack when the game has one)."""

    label: str
    program: str
    can_pay: Callable
    once_per: str | None        # "turn", "Round", ... or None
    key: str                    # what the once-per limit counts (the card's name)
    zone: str | None = None     # used from this zone of its controller, not from play
    off_turn: bool = False      # "During your Rival's turn": used while another has priority
    index: str = ""             # the ability's number on its card (its once-per key)


@attrs.define
class Replacement:
    """ "If this would be destroyed, return it to your hand instead.": when
    the event is about to happen to a card the test accepts, the program
    runs in its place."""

    event: str                  # "destroyed", "discarded"
    test: Callable              # (machine, frame, card) -> whether it applies
    program: str
    together: bool = False      # once for all the cards one step does it to


@attrs.define
class Static:
    """A continuous ability: while its card is in play, the cards it names
    get its changes."""

    test: Callable              # (machine, frame, card) -> whether it applies
    changes: list               # (kind, name, amount)
    condition: Callable | None


@attrs.define
class TriggerIndex:
    """Which events any triggered ability watches, worked out once the cards
    are compiled, so that the many events no ability watches cost nothing."""

    card_events: frozenset = frozenset()     # event names of card triggers
    player_events: frozenset = frozenset()   # event names of player triggers
    period_edges: frozenset = frozenset()    # (period name, "start"/"end")
    watching: dict = attrs.Factory(dict)     # trigger kind -> card names with one

    @classmethod
    def of(cls, triggers: dict) -> "TriggerIndex":
        every = [(name, t) for name, ts in triggers.items() for t in ts]
        watching: dict[str, set] = {}
        for name, trigger in every:
            watching.setdefault(trigger.kind, set()).add(name)
        return cls(frozenset(t.event for _, t in every if t.kind == "card"),
                   frozenset(t.event for _, t in every if t.kind == "player"),
                   frozenset((t.event, t.edge) for _, t in every if t.kind == "period"),
                   {kind: frozenset(names) for kind, names in watching.items()})


@attrs.define
class CompiledGame:
    rules: GameRules
    cards: dict                # name -> CardDefinition
    programs: dict[str, Program] = attrs.Factory(dict)
    actions: list[ActionPlan] = attrs.Factory(list)
    triggers: dict[str, list[Trigger]] = attrs.Factory(dict)
    responses: dict[str, list[str]] = attrs.Factory(dict)   # card name -> programs
    phase_starts: dict[str, int] = attrs.Factory(dict)      # phase or step -> pc in "game"
    step_phase: dict[str, str] = attrs.Factory(dict)        # step -> its phase
    play_program: str | None = None   # what "Play it" runs: the action that counts as played
    activated: dict[str, list[Activated]] = attrs.Factory(dict)   # card name -> abilities
    statics: dict[str, list[Static]] = attrs.Factory(dict)        # card name -> abilities
    replacements: dict[str, list[Replacement]] = attrs.Factory(dict)
    immediate: set = attrs.Factory(set)   # programs of triggers that do not wait
    trigger_index: TriggerIndex = attrs.Factory(TriggerIndex)   # set by compile_game
    # (kind, name) of a change -> card name -> its continuous abilities that
    # make that change (set by compile_game; what Machine.continuous asks)
    statics_by_change: dict = attrs.Factory(dict)
    # response windows (interpreter.combat): the timing labels rules
    # procedures name, the abilities used in them, the zones cards are used from
    cued_labels: set = attrs.Factory(set)
    cued: dict = attrs.Factory(dict)          # card name -> [Cued]
    # trigger program -> test of its conditions and costs when it triggers
    # ("If this is rested, pay 2 ...": nothing triggers while they fail)
    trigger_gates: dict = attrs.Factory(dict)
    used_from_zones: tuple = ()
    after_triggers: set = attrs.Factory(set)   # programs of "After ..." triggers
    trigger_programs: dict = attrs.Factory(dict)   # program -> its Trigger
    # "simulation prefers": (label prefixes, test of its condition or None)
    prefer: tuple = ()
    # triggered abilities of cards outside play, in a zone their kind is used
    # from (interpreter.combat.compile_intent): trigger program -> the program
    # that asks, pays and uses the card up; card name -> those triggers
    intents: dict = attrs.Factory(dict)
    intent_programs: set = attrs.Factory(set)
    # "before respond" / "before defend": events cards trigger on
    # ("Before your Rival defends"), given by the windows that open next
    before_events: set = attrs.Factory(set)
    intent_triggers: dict = attrs.Factory(dict)
    intent_kinds: set = attrs.Factory(set)      # the kinds of those triggers
    requirements: dict = attrs.Factory(dict)   # card name -> conditions to use it
    capabilities: dict = attrs.Factory(dict)  # "can't" text -> (verb, object test)
    # card name -> continuous prohibitions on players ("Your opponent can't
    # attack"): (players test, "can't" text, condition)
    player_statics: dict = attrs.Factory(dict)
    kind_answers: dict = attrs.Factory(dict)  # (card name, kind word) -> is it of that kind
    value_answers: dict = attrs.Factory(dict)  # (card name, value) -> printed on it
    prohibitions_found: tuple | None = None   # see static_prohibitions()
    in_play: tuple[str, ...] = ()
    pairs: tuple = ()          # (zone, paired zone, status): slots that make one place
    activated_zones: tuple = ()   # zones (not in play) abilities are used from
    entry_events: dict = attrs.Factory(dict)   # zone -> the event of cards entering it
    none_loses: tuple[str, ...] = ()          # zones a player loses without cards in
    zone_wins: tuple = ()                     # (zone, N): N cards in it win the game
    # counters kept per place ("per place in ZONE"): counter -> zone; and the
    # position counter of each such zone (where a player's own effects are)
    place_counters: dict = attrs.Factory(dict)
    place_positions: dict = attrs.Factory(dict)
    # zone -> the position counters ("position in ZONE") into it
    track_counters: dict = attrs.Factory(dict)
    attaching: bool = False                   # whether any card was ever attached
    # actions or abilities usable "at any time": a response window follows
    # every action (Machine.after_action)
    any_time: bool = False
    any_time_abilities: bool = False          # activated abilities usable at any time
    # stat -> the stats of attached cards added to it ("added to the progress
    # value of the card it is attached to")
    host_stats: dict = attrs.Factory(dict)
    first_chosen: bool = False                # the setup has a player choose who goes first
    keeping: tuple = ()                       # zones whose cards never leave them
    reshuffled: tuple = ()                    # zones shuffled after an effect takes from them
    draw_pile: str = ""
    hand: str = ""
    discard_pile: str = ""
    not_adjectives: frozenset = frozenset()   # stats declared "never an adjective"
    staying_kinds: frozenset = frozenset()    # kinds declared "leaves play: never"
    # programs of effects whose text names their controller's Rival (negative
    # for that player: "effects on a player: beneficial first")
    negative: set = attrs.Factory(set)

    def any_time_ability(self, ability: "Activated") -> bool:
        timing = self.rules.timing(ability.label) if ability.label else None
        return timing is not None and timing.any_time

    def static_prohibitions(self) -> tuple[str, ...]:
        """The "can't"s that continuous abilities give (worked out once)."""
        if self.prohibitions_found is None:
            self.prohibitions_found = tuple(sorted(
                {name for abilities in self.statics.values() for static in abilities
                 for kind, name, _ in static.changes if kind == "cannot"}))
        return self.prohibitions_found

    def starting_place(self, part_name: str, index: int) -> tuple[str, bool] | None:
        """(zone, face up?) where a deck part's cards start a game; None for a
        part that stays outside it. Undeclared parts: the first goes to the
        draw pile face down, the others stay out."""
        part = self.rules.deck_part(part_name)
        if part is not None and part.starts_in is not None:
            zone, face_up = part.starts_in
            return next(z for z in self.rules.zones if z.lower() == zone.lower()), face_up
        return (self.draw_pile, False) if index == 0 else None

    def damage_counter(self, node) -> str:
        for counter in self.rules.counters.values():
            if counter.takes_damage:
                return counter.name
        raise unsupported(node, "damage to a player (no counter \"takes damage\")")


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
    compiled = CompiledGame(rules, game.cards)
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
    compiled.none_loses = tuple(z.name for z in rules.zones.values() if z.none_loses)
    for stat in rules.stats.values():
        if stat.adds_to_host and rules.stat(stat.adds_to_host) is not None:
            host = rules.stat(stat.adds_to_host).name
            compiled.host_stats[host] = compiled.host_stats.get(host, ()) + (stat.name,)
    compiled.keeping = tuple(z.name for z in rules.zones.values() if z.keeps_cards)
    compiled.reshuffled = tuple(z.name for z in rules.zones.values() if z.shuffled_after)
    compiled.zone_wins = tuple((z.name, z.wins_at) for z in rules.zones.values()
                               if z.wins_at is not None)
    zone_names = {z.lower(): z for z in rules.zones}
    for counter in rules.counters.values():
        if counter.track and counter.track.lower() in zone_names:
            zone = zone_names[counter.track.lower()]
            compiled.track_counters[zone] = compiled.track_counters.get(zone, ()) + (
                counter.name,)
    for counter in rules.counters.values():
        if counter.per_place and counter.per_place.lower() in zone_names:
            compiled.place_counters[counter.name] = zone_names[counter.per_place.lower()]
    for counter in rules.counters.values():
        if counter.track and zone_names.get(counter.track.lower()) in \
                compiled.place_counters.values():
            compiled.place_positions.setdefault(zone_names[counter.track.lower()],
                                                counter.name)

    def guard(build):
        try:
            build()
        except Unsupported as err:
            problems.extend(err.problems)

    for index, action in enumerate(rules.actions):
        guard(lambda a=action, i=index: _compile_action(compiled, a, i))
    guard(lambda: _compile_turn(compiled))
    compiled.used_from_zones = tuple(dict.fromkeys(
        z for k in rules.kinds.values() for z in getattr(k, "used_from", ())))
    if any(k.used_up for k in rules.kinds.values()):
        from interpreter.combat import AFTER_USE, used_up_steps
        compiled.programs[AFTER_USE] = Program(AFTER_USE, [
            lambda m, f: used_up_steps(m, f.locals["this"], f.locals["_after_use"])])
    from interpreter.combat import compile_player_damage
    guard(lambda: compile_player_damage(compiled))
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
    for card in game.cards.values():
        for index, ability in enumerate(card.abilities):
            guard(lambda c=card, i=index, a=ability: _compile_ability(compiled, c, i, a))
    compiled.trigger_programs = {t.program: t for ts in compiled.triggers.values() for t in ts}

    def preferences():
        from interpreter.compile import compile_condition

        tiers = []
        for labels, condition in rules.prefer:
            test = None
            if condition is not None:
                parsed = parse_ability(rules, condition.text, condition.span.path)
                test = compile_condition(parsed.resolution[0].args[0].args[0].args[0])
            tiers.append((labels, test))
        compiled.prefer = tuple(tiers)
    guard(preferences)
    if any(t.answered for t in rules.timings.values()):
        # "answered in kind": the other players' answers to an ability used
        answer = Emitter("answer")
        answer.emit(lambda m, f: m.answer_window(f))
        compiled.programs["answer"] = answer.finish()
    if problems:
        raise CardrulesError(problems)
    compiled.trigger_index = TriggerIndex.of(compiled.triggers)
    for name, abilities in compiled.statics.items():
        for static in abilities:
            for kind, changed, _amount in static.changes:
                by_card = compiled.statics_by_change.setdefault((kind, changed), {})
                if static not in by_card.setdefault(name, []):
                    by_card[name].append(static)
    compiled.any_time_abilities = any(
        compiled.any_time_ability(ability) for abilities in compiled.activated.values()
        for ability in abilities)
    compiled.any_time = compiled.any_time_abilities or any(
        plan.any_time for plan in compiled.actions)
    after = Emitter("#after action")
    after.emit(lambda m, f: m.after_action(f))
    compiled.programs["#after action"] = after.finish()
    return compiled


def _sentences(rules: GameRules, sentence) -> tuple:
    ability = parse_ability(rules, sentence.text, sentence.span.path)
    # Spans of procedure sentences point into the rules file.
    return ability.resolution


def _compile_turn(game: CompiledGame) -> None:
    rules = game.rules
    e = Emitter("game")
    steps = StepCompiler(e, game)
    for sentence in rules.setup:
        steps.sentences(_sentences(rules, sentence))
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
            e.emit(lambda m, f, name=phase.name: (op.period(m.state, "phase", name, "start"),
                                                  m.lethal_check())[-1])
            if phase.hold_triggers and phase is first:
                # a position that starts at this phase: hold from here
                e.emit(lambda m, f: None if "#hold" in m.state.usage else m.hold_triggers())
            for sentence in phase.sentences:
                steps.sentences(_sentences(rules, sentence))
            if phase.hold_triggers:
                e.emit(lambda m, f: m.release_triggers(f))
            places = _each_place(game, e, phase) if phase.for_each else None
            for step in phase.steps:
                game.phase_starts[step.name] = len(e.program.instructions)
                game.step_phase[step.name] = phase.name

                def step_body(step=step):
                    e.emit(lambda m, f, name=step.name: op.period(m.state, "step", name,
                                                                  "start"))
                    if step.hold_triggers:
                        e.emit(lambda m, f: m.hold_triggers())
                    for sentence in step.sentences:
                        steps.sentences(_sentences(rules, sentence))
                    if places is not None and step is phase.steps[-1]:
                        # the place is resolved once its last step's procedure
                        # has run: what the abilities held until then gain is
                        # for the place at each player's position (see
                        # Machine.gain_counter)
                        e.emit(lambda m, f: m.state.usage.pop("#resolving", None) and None)
                    if step.hold_triggers:
                        e.emit(lambda m, f: m.release_triggers(f))
                    e.emit(lambda m, f, name=step.name: m.end_period("step", name))
                _taken_by(game, e, step.taken_by, step.name, step_body)
            if places is not None:
                places()
            if rules.race is not None and rules.race.period.lower() == phase.name.lower():
                e.emit(lambda m, f: m.race_check(f))
            e.emit(lambda m, f, name=phase.name: m.end_period("phase", name))
        _taken_by(game, e, phase.taken_by, phase.name, phase_body)
        e.place(after)
    e.emit(lambda m, f: m.end_turn(f))
    e.jump(turn)
    game.programs["game"] = e.finish()
    if rules.race is not None:
        tie = Emitter("race:tie", rules.race.span)
        tie_steps = StepCompiler(tie, game)
        for sentence in rules.race.tie:
            tie_steps.sentences(_sentences(rules, sentence))
        game.programs["race:tie"] = tie.finish()


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
    from interpreter.compile import compile_player
    from interpreter.language.game_rules import taker_sentence

    sentence = taker_sentence(taken_by)
    ability = parse_ability(game.rules, sentence.text, sentence.span.path)
    who = compile_player(ability.resolution[0].args[0].args[0].args[0])
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
        m.state.log.append(("taker", taker, name))
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
        m.state.log.append(("place", cards[f.locals["#place"]]))
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
            m.state.usage.pop("#resolving", None)
        e.emit(unbind)
    return close


def _compile_action(game: CompiledGame, action, index: int) -> None:
    rules = game.rules
    name = f"action:{index}"
    choose = None
    if action.choose is not None:
        ability = parse_ability(rules, "Choose " + action.choose.text, action.choose.span.path)
        step = ability.resolution[0].args[0].args[0]
        choose = compile_selector(step.args[2].args[0], lambda m, f: f.locals["you"])
    e = Emitter(name, action.span)
    steps = StepCompiler(e, game)
    checks = []
    target = None
    if action.target is not None:
        ability = parse_ability(rules, "Choose " + action.target.text, action.target.span.path)
        step = ability.resolution[0].args[0].args[0]
        target = compile_selector(step.args[2].args[0], lambda m, f: f.locals["you"])
        checks.append(lambda m, f, t=target: bool(t.candidates(m, f)))
    _compile_declaration(e, action, target)
    if action.effect is not None:
        checks.extend(_room_checks(game, _sentences(rules, action.effect), action.sacrifices))
    if action.sacrifices:
        stat = action.sacrifices
        checks.append(lambda m, f: m.sacrifice_cards(f, stat) is not None)
        e.emit(lambda m, f: m.sacrifice(f, stat))
    if action.cost is not None:
        # the cost of the action's card: changed by "costs 1 less Mana"
        cost = _sentences(rules, action.cost)
        checks.extend(_cost_checks(cost, rules, card_cost=True))
        steps.card_cost = True
        steps.sentences(cost)
        steps.card_cost = False
    if action.requires is not None:
        from interpreter.compile import compile_condition

        condition = parse_ability(rules, "If " + action.requires.text.rstrip(".") + ".",
                                  action.requires.span.path)
        checks.append(compile_condition(condition.resolution[0].args[0].args[0].args[0]))
    if action.exchange is not None:
        checks.append(lambda m, f, stat=action.exchange: m.can_exchange(f, stat))
        e.emit(lambda m, f, stat=action.exchange: m.exchange(f, stat))

    def effect_and_event(emitter, compiler):
        if action.effect is not None:
            compiler.sentences(_sentences(rules, action.effect))
        if action.event:
            event = action.event
            emitter.emit(lambda m, f: m.event(event, f.locals.get("it"), f.locals["you"]))
    effect_and_event(e, steps)
    if action.role or action.target_role:
        e.emit(lambda m, f, a=action: m.end_roles(f, a.role, a.target_role))
    game.programs[name] = e.finish()
    # The same action without its cost: what "Play it" does in card text.
    free = Emitter(name + ":free", action.span)
    effect_and_event(free, StepCompiler(free, game))
    game.programs[name + ":free"] = free.finish()
    if action.event == "played" and game.play_program is None:
        game.play_program = name + ":free"
    game.actions.append(ActionPlan(action.name, action.during, choose,
                                   lambda m, f: all(c(m, f) for c in checks), name,
                                   action.limit, action.limit_extra, target,
                                   action.any_time))


def _room_checks(game: CompiledGame, sentences, sacrifices=None) -> list[Callable]:
    """An action whose effect puts its card into a zone of slots can be
    taken only while that zone has a free slot, counting the slots its
    sacrifices free (a summon that sacrifices a card in that zone)."""
    from interpreter.compile import compile_zone

    checks = []
    for sentence in sentences:
        for link in sentence.args:
            step = link.args[0]
            if not isinstance(step, ast.Step) or step.form != "act":
                continue
            action = step.args[2]
            if action.form not in ("put", "move") or len(action.args) < 2:
                continue
            selector, destination = action.args[0], action.args[1]
            if getattr(selector, "form", None) != "it" or destination.form != "to_zone":
                continue
            zone_ref = destination.args[0]
            if zone_ref.form == "zone_slot":
                continue
            decl = game.rules.zones.get(zone_ref.args[1])
            if decl is None or decl.slots is None:
                continue
            key = compile_zone(zone_ref, lambda m, f: f.locals["you"])

            def room(m, f, key=key, slots=decl.slots):
                cards = m.state.zones.get(key(m, f), ())
                if len(cards) < slots:
                    return True
                freed = m.sacrifice_cards(f, sacrifices) if sacrifices else None
                return bool(freed) and len([c for c in cards if c not in freed]) < slots
            checks.append(room)
    return checks


def _compile_declaration(e: Emitter, action, target) -> None:
    """An action that declares (an attack): the chosen card takes its role
    ("as: attacker") and announces its event; then the target is chosen,
    takes its role and announces its event, and what that triggers resolves
    before the action goes on (a Defend before damage)."""
    if action.role or action.announces or target is not None:
        def declare(m, f, role=action.role, event=action.announces):
            card = f.locals.get("it")
            f.locals["chosen"] = card
            if card is not None and role:
                m.set_status(card, role, True)
            if card is not None and event:
                m.event(event, card, f.locals["you"])
        e.emit(declare)
    if target is None:
        return

    def pick_target(m, f):
        return m.pick(f, target, f.locals["you"], "choose a target", "_target")
    e.emit(pick_target)

    def aim(m, f, role=action.target_role, event=action.target_announces):
        card = f.locals.get("it")
        f.locals["target"] = card
        f.locals["it"] = f.locals.get("chosen")    # "it" stays the action's card
        if card is not None and role:
            m.set_status(card, role, True)
        if card is not None and event:
            m.event(event, card, m.state.cards[card].controller)
    e.emit(aim)
    e.emit(lambda m, f: m.resolve_now(f))


def _compile_exchanges(game: CompiledGame, card) -> None:
    """The reward of each exchange stat of a card (on each face), as a program
    named ``exchange:CARD:FACE:STAT``."""
    from interpreter.language.cards import Exchange

    faces = [(None, card.stats)] + [(face, stats) for face, stats in card.faces]
    for face, stats in faces:
        for stat in stats:
            if isinstance(stat.value, Exchange):
                name = f"exchange:{card.name}:{face or ''}:{stat.name.lower()}"
                e = Emitter(name, stat.span if hasattr(stat, "span") else None)
                StepCompiler(e, game).sentences(stat.value.reward.args[3])
                game.programs[name] = e.finish()


def _cost_checks(sentences, rules=None, card_cost=False) -> list[Callable]:
    """Whether a cost written as sentences can be paid, without paying it
    (``card_cost``: an action's cost for its card, which cost changes apply to)."""
    return _cost_checks_for_costs(rules=rules, costs=[link.args[0] for sentence in sentences
                                   for link in sentence.args], card_cost=card_cost)


def _compile_static(game: CompiledGame, card, node, gate=None) -> None:
    from interpreter.compile import compile_condition, statement_changes

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
        for link in sentence.args:
            step = link.args[0]
            if isinstance(step, ast.Step) and step.form == "player_cannot":
                _compile_player_static(game, card, step, condition)
                continue
            if isinstance(step, ast.Modifier) and step.form == "more_stat" and \
                    game.statics.get(card.name):
                # "This gets +20 AP and +20 HP": the second change joins the first
                amount, stat = step.args[0].args
                game.statics[card.name][-1].changes.append(("stat", stat, amount))
                continue
            if not isinstance(step, ast.Step) or step.form != "state_change":
                raise unsupported(step, "a continuous ability that is not a change to cards")
            selector, statement, suffixes = step.args
            if suffixes:
                raise unsupported(suffixes[0], "a continuous change with a duration")
            selection = compile_selector(selector, lambda m, f: f.locals["you"])
            if selection.test is None:
                raise unsupported(selector, "this selector in a continuous ability")
            game.statics.setdefault(card.name, []).append(
                Static(selection.test, statement_changes(statement, game), condition))


def _compile_player_static(game: CompiledGame, card, step, condition) -> None:
    """ "Your opponent can't attack this turn" as a continuous ability: the
    players it names can't, while its card is in play. A duration written on
    it can only be the current turn (its card's time in play decides)."""
    from interpreter.compile import is_opponent_ref, register_capability

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
            during.append(_during_test(c.args[0]))
            off_turn = off_turn or c.args[0].form == "rivals"
        else:
            raise unsupported(c, f'the condition "{c.form}" on an activated ability')
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
        from interpreter.combat import use_up
        e.emit(use_up)
    from interpreter.combat import AFTER_USE, after_use_locals
    if game.rules.resolution is not None:
        e.emit(lambda m, f, program=name + ":effect": m.push_entry(
            program, f.locals["this"], f.locals["you"],
            (("this", f.locals["this"]), ("you", f.locals["you"])) + after_use_locals(f)))
    else:
        def run_effect(m, f, program=name + ":effect"):
            f.pc += 1
            after = after_use_locals(f)
            if after:
                m.state.frames.append(Frame(AFTER_USE, 0, {"this": f.locals["this"],
                                                           "_after_use": after[0][1]}))
            m.state.frames.append(Frame(program, 0, {"this": f.locals["this"],
                                                     "you": f.locals["you"]}))
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


def _during_test(ref) -> Callable:
    """ "During your Rival's turn" / "During your Main phase": whose turn
    it is (its controller's or another's) and, for a period other than the
    turn, that the period is the current phase or step."""
    period, relation = ref.args[0], ref.form
    if relation not in ("your", "rivals", "this"):
        raise unsupported(ref, f'"during" a {relation} period')

    def during(m, f):
        mine = m.state.turn_player == f.locals["you"]
        if (relation == "your" and not mine) or (relation == "rivals" and mine):
            return False
        return period.lower() == "turn" or period in (m.state.period.get("phase"),
                                                      m.state.period.get("step"))
    return during


def _cost_checks_for_costs(costs, rules=None, card_cost=False) -> list[Callable]:
    """Checks for the costs before an ability's colon (``rules``: to look
    inside game verbs, "Pay 1 Gem" being "Rest 1 Gem ..."); ``card_cost``:
    the cost of an action's card, changed by its cost changes."""
    from interpreter.compile import (compile_amount, compile_measure, compile_player,
                                     fill_slots, use_slots)

    checks = []
    for step in costs:
        if isinstance(step, ast.Step) and step.form == "verb_step" and rules is not None:
            use = step.args[1]
            decl = next((v for v in rules.verbs if v.pattern.text == use.form), None)
            if decl is not None and decl.definition is not None:
                defined = parse_ability(rules, decl.definition, rules.path)
                values = dict(zip(use_slots(decl.pattern.text), use.args))
                filled = [fill_slots(link.args[0], values, use)
                          for sentence in defined.resolution for link in sentence.args]
                try:
                    checks.extend(_cost_checks_for_costs(filled, rules, card_cost))
                    continue
                except Unsupported:
                    pass   # a verb whose steps cannot be checked: as below
        if isinstance(step, ast.Step) and step.form == "verb_step":
            # a game verb as a cost ("Sacrifice a BASIC Being you control"):
            # payable while the cards it names can be found
            _optional, use, _suffixes = step.args
            for arg in use.args:
                if isinstance(arg, ast.Selector):
                    found = compile_selector(arg, lambda m, f: f.locals["you"])
                    checks.append(lambda m, f, found=found: bool(found.candidates(m, f)))
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
            status = "exhausted" if form == "exhaust" else "rested"
            checks.append(lambda m, f, status=status:
                          status not in m.state.cards[f.locals["this"]].statuses)
        elif form in ("exhaust", "rest", "reveal") and isinstance(action.args[0], ast.Selector):
            # "Rest 2 Gems in your Gem Area": enough such cards
            found = compile_selector(action.args[0], who)
            need = found.how[1] if isinstance(found.how, tuple) else 1
            checks.append(lambda m, f, found=found, need=need:
                          len(found.candidates(m, f)) >= need)
        elif form == "discard":
            checks.append(lambda m, f, who=who: bool(m.hand_of(who(m, f))))
        else:
            raise unsupported(action, f'the cost "{form.replace("_", " ")}"')
    return checks


def _is_replacement(node) -> bool:
    """ "If <card> would <event>, <step> instead." in one sentence, after
    "During the PERIOD," conditions if any; steps may follow the one with
    "instead" ("..., return them to your hand instead, then discard ...")."""
    _label, conditions, costs, resolution = node.args
    if conditions or costs or len(resolution) != 1:
        return False
    items = [link.args[0] for link in resolution[0].args]
    while items and isinstance(items[0], ast.Condition) and items[0].form == "during":
        items = items[1:]
    return (len(items) >= 2 and isinstance(items[0], ast.Condition)
            and items[0].form == "if_" and items[0].args[0].form == "would"
            and any(isinstance(item, ast.Step) and any(
                getattr(s, "form", "") == "instead" for s in item.args[-1])
                for item in items[1:]))


_REPLACEABLE = {"destroyed": "destroyed", "discarded": "discarded"}


def _compile_replacement(game: CompiledGame, card, name: str, ability, resolution) -> None:
    sentence = resolution[0]
    links = list(sentence.args)
    periods = []
    while links[0].args[0].form == "during":
        # "During the End Phase, if ...": only while that period is current
        periods.append(links[0].args[0].args[0].args[0])
        links = links[1:]
    would = links[0].args[0].args[0]
    subject, action = would.args
    inner = action.args[0] if action.form == "event_action" else None
    word = None if inner is None else (inner.args[0] if inner.form == "event_participle"
                                       else inner.form)
    if word not in _REPLACEABLE:
        raise unsupported(action, f'replacing "{word or action.form}" (only destroyed, '
                          "discarded)")
    selection = compile_selector(subject, lambda m, f: f.locals["you"])
    if selection.test is None:
        raise unsupported(subject, "this selector in a replacement")
    test = selection.test
    if periods:
        test = (lambda m, f, c, t=selection.test: t(m, f, c) and all(
            p in m.state.period.values() for p in periods))
    # the steps after the condition, "instead" taken off the step it ends
    body = []
    for link in links[1:]:
        step = link.args[0]
        if isinstance(step, ast.Step) and any(
                getattr(s, "form", "") == "instead" for s in step.args[-1]):
            kept = tuple(s for s in step.args[-1] if s.form != "instead")
            link = attrs.evolve(link, args=(attrs.evolve(step, args=step.args[:-1] + (kept,)),))
        body.append(link)
    body[0] = attrs.evolve(body[0], form="first")
    e = Emitter(name, ability.span)
    StepCompiler(e, game).sentence(attrs.evolve(sentence, args=tuple(body)))
    game.programs[name] = e.finish()
    # a plural subject ("your face-up cards ..."): once for all the cards one
    # step does it to, with "them" those cards
    game.replacements.setdefault(card.name, []).append(
        Replacement(_REPLACEABLE[word], test, name, selection.plural))


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


def _compile_ability(game: CompiledGame, card, index: int, ability) -> None:
    node = ability.ability
    if node.form == "keyword":
        # A keyword is a mark every rule and card can ask about ("with
        # <PROTECTOR>"); one defined in card language also works as that text.
        use = node.args[0]
        decl = next((k for k in game.rules.keywords if k.pattern.text == use.form), None)
        if decl is None or decl.definition is None:
            return
        defined = parse_ability(game.rules, decl.definition, game.rules.path)
        if use.args:
            # "Drive 2": the definition with its slots filled, as for verbs
            from interpreter.compile import fill_slots, use_slots

            defined = fill_slots(defined, dict(zip(use_slots(decl.pattern.text), use.args)),
                                 use)
        _compile_ability(game, card, index, attrs.evolve(ability, ability=defined))
        return
    label, conditions, costs, resolution = node.args
    name = f"card:{card.name}:{index}"
    if _is_replacement(node):
        _compile_replacement(game, card, name, ability, resolution)
        return
    if any(c.form == "before" for c in conditions):
        conditions = _before_as_when(game, conditions)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    if _names_the_rival(resolution):
        game.negative.update((name, name + ":use"))
    timing = game.rules.timing(label) if label else None
    kind = game.rules.kind(card.kind)
    # a box that works only while the card has a status ("connection while
    # connected"): its abilities are gated by it
    gate = None
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
        implied = parse_ability(game.rules, timing.when.text.rstrip(".") + ": Draw a card.",
                                timing.when.span.path)
        conditions = tuple(implied.conditions) + tuple(conditions)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    elif timing is None and not conditions and kind is not None and kind.text_event:
        # plain text of a kind whose text happens on an event of the card
        implied = parse_ability(game.rules, f"When this is {kind.text_event}: Draw a card.",
                                game.rules.path)
        conditions = tuple(implied.conditions)
        node = attrs.evolve(node, args=(label, conditions, costs, resolution))
    if timing is not None and timing.unless is not None:
        from interpreter.compile import compile_condition

        unless = parse_ability(game.rules, "If " + timing.unless.text.rstrip(".") + ".",
                               timing.unless.span.path)
        test = compile_condition(unless.resolution[0].args[0].args[0].args[0])
        outer = gate
        gate = (lambda m, f, test=test, outer=outer: not test(m, f) and
                (outer is None or outer(m, f)))
    if timing is not None and timing.used_as is not None and timing.use == "triggered":
        _compile_used_as(game, card, index, node, ability, timing, gate)
    if timing is not None and (timing.label in game.cued_labels or (
            timing.response and (conditions or costs or game.cued_labels))):
        # used in response windows (interpreter.combat), costs paid first
        from interpreter.combat import compile_response
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
        from interpreter.compile import compile_condition

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
        from interpreter.combat import compile_intent
        intent = compile_intent(game, card, name, ability, label,
                                [c for c in conditions if c not in whens], costs, resolution,
                                timing, outside=False)
    if whens and kind is not None and kind.used_from and (
            whens[0].form in ("at_start", "at_end") or
            whens[0].args[0].form == "player_event"):
        # used from the hand or another zone too ("At the start of your Move")
        from interpreter.combat import compile_intent
        compile_intent(game, card, name, ability, label,
                       [c for c in conditions if c not in whens], costs, resolution, timing)
    if whens and any(c.form in ("if_", "once_per") for c in conditions) and gate is None \
            and not (kind is not None and kind.after_use):
        # "When ..., once per Round, pay 1 Gem:" / "If this is rested, pay ...:"
        from interpreter.combat import compile_trigger_body
        compile_trigger_body(game, name, ability, conditions, costs, resolution, timing)
        conditions, costs = tuple(whens), ()
    if costs or gate is not None or (kind is not None and kind.after_use):
        _paid_program(game, name, costs, resolution, timing, kind)
        costs = ()
    if not whens or costs or len(conditions) != 1:
        raise unsupported(node, "abilities other than \"When ...: effect\", responses, "
                          "activated and continuous abilities")
    when = whens[0]
    if when.form in ("at_start", "at_end"):
        ref = when.args[0]
        whose = {"your": "you", "rivals": "rival"}.get(ref.form, "any")
        if ref.form == "next":
            raise unsupported(ref, "a trigger on the next period")
        program = _compile_trigger_program(game, name, ability, resolution, timing)
        if timing is not None and timing.immediate:
            game.immediate.add(program)
        game.triggers.setdefault(card.name, []).append(Trigger(
            ref.args[0], intent or program, None, False, "period", whose,
            "start" if when.form == "at_start" else "end"))
        _intent_trigger(game, card, name)
        return
    event = when.args[0]
    if event.form == "player_event":
        player, action = event.args
        events = {"player_draws": "drawn", "player_plays": "played",
                  "player_discards": "discarded", "player_reveals": "revealed"}
        if action.form == "player_game_event":
            # a declared event ("When you advance"), singular or plural
            word = action.args[0].lower()
            declared = {e.phrase.lower() for e in game.rules.events}
            plural = next((w for w in (word + "s", word + "es") if w in declared), word)
            events = {"player_game_event": plural}
        if action.form not in events:
            raise unsupported(action, f'the event "{action.form.replace("_", " ")}"')
        whose = {"you": "you", "rival": "rival", "each_rival": "rival",
                 "any_player": "any", "each_player": "any"}.get(player.form)
        if whose is None:
            raise unsupported(player, "this player in a trigger")
        program = _compile_trigger_program(game, name, ability, resolution, timing)
        if timing is not None and timing.immediate:
            game.immediate.add(program)
        game.triggers.setdefault(card.name, []).append(Trigger(
            events[action.form], intent or program, None, False, "player", whose))
        _intent_trigger(game, card, name)
        return
    if event.form == "bare_event":
        # "When defended": an event of this card
        event = ast.Event("card_event", (ast.Selector("this", (), event.span),
                                         ast.EventAction("event_action", event.args,
                                                         event.span)), event.span)
    if event.form != "card_event":
        raise unsupported(event, f'the event "{event.form.replace("_", " ")}"')
    subject, action = event.args
    if action.form in ("deals_damage", "prevents_damage") and not action.args:
        # "When this deals damage" / "When this prevents damage" (combat)
        word = {"deals_damage": "deals damage", "prevents_damage": "prevents damage"}[
            action.form]
    elif action.form == "acts" and len(action.args) == 1 and isinstance(action.args[0], str):
        # "When a Being your Rival controls attacks": an event an action announces
        word = action.args[0]
    elif action.form != "event_action":
        raise unsupported(action, f'the event "{action.form.replace("_", " ")}"')
    else:
        inner = action.args[0]
        word = inner.args[0] if inner.form == "event_participle" else inner.form
    selection = compile_selector(subject, lambda m, f: f.locals["you"])
    if selection.test is None:
        raise unsupported(subject, "this kind of trigger subject")
    if timing is not None and timing.immediate:
        game.immediate.add(name)
    if name not in game.programs:     # not already built with its costs
        _compile_trigger_program(game, name, ability, resolution, timing)
    test = selection.test
    if gate is not None:
        test = (lambda m, f, c, t=test: gate(m, f) and t(m, f, c))
    game.triggers.setdefault(card.name, []).append(
        Trigger(word.lower(), intent or name, test, subject.form == "this",
                once_per=timing.once_per if timing is not None else None))


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
    from interpreter.compile import compile_condition

    as_label, sentence = timing.used_as
    parsed = parse_ability(game.rules, sentence.text, sentence.span.path)
    tests = [compile_condition(parsed.resolution[0].args[0].args[0].args[0])]
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


def _before_as_when(game: CompiledGame, conditions) -> tuple:
    """ "Before your Rival defends": a trigger of this card on the event
    "before defend", which a window ("your Rival may defend against X",
    "... may respond with ... to X") gives the cards it is about before it
    opens (interpreter.combat.before_window)."""
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
        e.emit(lambda m, f, zone=kind.after_use: m.used_up(f.locals["this"], zone))
    game.programs[name] = e.finish()
