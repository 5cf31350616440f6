"""The engine: runs a compiled game and exposes the step API.

:func:`compile_game` turns a loaded :class:`~interpreter.games.Game` into
programs once (``interpreter.compile``): the game's own program (setup, then
the turn structure of the rules file, turn after turn), one program per
action a player may take, and one per triggered ability of each card.

:class:`Match` is one game being played. Its whole state is a
:class:`~interpreter.state.GameState`; the :class:`Machine` runs the frames
of that state until a player must decide something (a pending
:class:`~interpreter.state.Decision`) or the game ends. The step API is
OpenSpiel's: ``current_player()``, ``legal_actions()``, ``apply_action(a)``,
``is_terminal()``, ``returns()``, ``clone()``, ``action_to_string(a)`` and
``observation(player)``.

After every instruction the machine checks the state rules (a counter at
which a player loses) and the triggers (events matched against the
triggered abilities of cards); hard caps on events, nesting and turns end a
game that would not end as a draw with the reason.
"""

from __future__ import annotations

import hashlib
from typing import Callable

import attrs

from interpreter import ast, operations as op
from interpreter.compile import (JUMPED, WAIT, Emitter, Program, Selection,
                                 StepCompiler, Unsupported, compile_selector,
                                 unsupported)
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.rules import GameRules, parse_ability
from interpreter.source import Span
from interpreter.state import CardState, Decision, Frame, GameState, Modifier

# Loop guard: a game that goes past these ends as a draw, with the reason.
MAX_EVENTS = 200_000
MAX_DEPTH = 64
MAX_TURNS = 500
MAX_STEPS = 200_000          # steps between two decisions
MAX_ACTIONS_PER_WINDOW = 200


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


@attrs.define
class Activated:
    """An ability a player uses in an action window: its costs are paid
    first, then its effect resolves (on the stack when the game has one)."""

    label: str
    program: str
    can_pay: Callable
    once_per: str | None        # "turn", "Round", ... or None
    key: str                    # what the once-per limit counts (the card's name)


@attrs.define
class Replacement:
    """ "If this would be destroyed, return it to your hand instead.": when
    the event is about to happen to a card the test accepts, the program
    runs in its place."""

    event: str                  # "destroyed", "discarded"
    test: Callable              # (machine, frame, card) -> whether it applies
    program: str


@attrs.define
class Static:
    """A continuous ability: while its card is in play, the cards it names
    get its changes."""

    test: Callable              # (machine, frame, card) -> whether it applies
    changes: list               # (kind, name, amount)
    condition: Callable | None


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
    in_play: tuple[str, ...] = ()
    draw_pile: str = ""
    hand: str = ""
    discard_pile: str = ""

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

    def guard(build):
        try:
            build()
        except Unsupported as err:
            problems.extend(err.problems)

    for index, action in enumerate(rules.actions):
        guard(lambda a=action, i=index: _compile_action(compiled, a, i))
    guard(lambda: _compile_turn(compiled))
    for card in game.cards.values():
        for index, ability in enumerate(card.abilities):
            guard(lambda c=card, i=index, a=ability: _compile_ability(compiled, c, i, a))
    if problems:
        raise CardrulesError(problems)
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
    e.emit(lambda m, f: m.begin_turn(f))
    for phase in rules.phases:
        after = e.label()
        if phase.skip_first_turn:
            e.jump_unless(lambda m, f: m.state.turn > 1, after)
        game.phase_starts[phase.name] = len(e.program.instructions)
        e.emit(lambda m, f, name=phase.name: op.period(m.state, "phase", name, "start"))
        for sentence in phase.sentences:
            steps.sentences(_sentences(rules, sentence))
        for step in phase.steps:
            game.phase_starts[step.name] = len(e.program.instructions)
            game.step_phase[step.name] = phase.name
            e.emit(lambda m, f, name=step.name: op.period(m.state, "step", name, "start"))
            for sentence in step.sentences:
                steps.sentences(_sentences(rules, sentence))
            e.emit(lambda m, f, name=step.name: m.end_period("step", name))
        e.emit(lambda m, f, name=phase.name: m.end_period("phase", name))
        e.place(after)
    e.emit(lambda m, f: m.end_turn(f))
    e.jump(turn)
    game.programs["game"] = e.finish()


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
    if action.cost is not None:
        cost = _sentences(rules, action.cost)
        checks.extend(_cost_checks(cost))
        steps.sentences(cost)
    def effect_and_event(emitter, compiler):
        if action.effect is not None:
            compiler.sentences(_sentences(rules, action.effect))
        if action.event:
            event = action.event
            emitter.emit(lambda m, f: m.event(event, f.locals.get("it"), f.locals["you"]))
    effect_and_event(e, steps)
    game.programs[name] = e.finish()
    # The same action without its cost: what "Play it" does in card text.
    free = Emitter(name + ":free", action.span)
    effect_and_event(free, StepCompiler(free, game))
    game.programs[name + ":free"] = free.finish()
    if action.event == "played" and game.play_program is None:
        game.play_program = name + ":free"
    game.actions.append(ActionPlan(action.name, action.during, choose,
                                   lambda m, f: all(c(m, f) for c in checks), name,
                                   action.limit))


def _cost_checks(sentences) -> list[Callable]:
    """Whether a cost written as sentences can be paid, without paying it."""
    return _cost_checks_for_costs([link.args[0] for sentence in sentences
                                   for link in sentence.args])


def _compile_static(game: CompiledGame, card, node) -> None:
    from interpreter.compile import compile_condition, statement_changes

    label, conditions, costs, resolution = node.args
    if costs:
        raise unsupported(node, "a continuous ability with costs")
    condition = None
    for c in conditions:
        if c.form != "if_":
            raise unsupported(c, f'the condition "{c.form}" on a continuous ability')
        condition = compile_condition(c.args[0])
    for sentence in resolution:
        for link in sentence.args:
            step = link.args[0]
            if not isinstance(step, ast.Step) or step.form != "state_change":
                raise unsupported(step, "a continuous ability that is not a change to cards")
            selector, statement, suffixes = step.args
            if suffixes:
                raise unsupported(suffixes[0], "a continuous change with a duration")
            selection = compile_selector(selector, lambda m, f: f.locals["you"])
            if selection.test is None:
                raise unsupported(selector, "this selector in a continuous ability")
            game.statics.setdefault(card.name, []).append(
                Static(selection.test, statement_changes(statement), condition))


def _compile_activated(game: CompiledGame, card, index: int, node, ability) -> None:
    label, conditions, costs, resolution = node.args
    once_per = None
    for c in conditions:
        if c.form == "once_per":
            once_per = c.args[0]
        else:
            raise unsupported(c, f'the condition "{c.form}" on an activated ability')
    checks = _cost_checks_for_costs(costs)
    name = f"card:{card.name}:{index}"
    effect = Emitter(name + ":effect", ability.span)
    StepCompiler(effect, game).sentences(resolution)
    game.programs[name + ":effect"] = effect.finish()
    e = Emitter(name, ability.span)
    steps = StepCompiler(e, game)
    for cost in costs:
        steps.step(cost) if isinstance(cost, ast.Step) else None
    if game.rules.resolution is not None:
        e.emit(lambda m, f, program=name + ":effect": m.push_entry(
            program, f.locals["this"], f.locals["you"],
            (("this", f.locals["this"]), ("you", f.locals["you"]))))
    else:
        def run_effect(m, f, program=name + ":effect"):
            f.pc += 1
            m.state.frames.append(Frame(program, 0, {"this": f.locals["this"],
                                                     "you": f.locals["you"]}))
            return JUMPED
        e.emit(run_effect)
    game.programs[name] = e.finish()
    game.activated.setdefault(card.name, []).append(Activated(
        label, name, lambda m, f: all(c(m, f) for c in checks), once_per, card.name))


def _cost_checks_for_costs(costs) -> list[Callable]:
    """Checks for the costs before an ability's colon."""
    from interpreter.compile import compile_amount, compile_measure, compile_player

    checks = []
    for step in costs:
        if not isinstance(step, ast.Step) or step.form != "act":
            raise unsupported(step, "this cost")
        subject, _optional, action, _suffixes = step.args
        who = compile_player(subject)
        form = action.form
        if form == "pay":
            amount, counter = compile_amount(action.args[0], action), action.args[1]
            checks.append(lambda m, f, who=who, counter=counter, amount=amount:
                          m.state.counter(who(m, f), counter) >= amount(m, f))
        elif form == "pay_measured":
            counter, amount = action.args[0], compile_measure(action.args[1])
            checks.append(lambda m, f, who=who, counter=counter, amount=amount:
                          m.state.counter(who(m, f), counter) >= amount(m, f))
        elif form in ("exhaust", "rest") and action.args[0].form == "this":
            status = "exhausted" if form == "exhaust" else "rested"
            checks.append(lambda m, f, status=status:
                          status not in m.state.cards[f.locals["this"]].statuses)
        elif form == "discard":
            checks.append(lambda m, f, who=who: bool(m.hand_of(who(m, f))))
        else:
            raise unsupported(action, f'the cost "{form.replace("_", " ")}"')
    return checks


def _is_replacement(node) -> bool:
    """ "If <card> would <event>, <step> instead." in one sentence."""
    _label, conditions, costs, resolution = node.args
    if conditions or costs or len(resolution) != 1:
        return False
    items = [link.args[0] for link in resolution[0].args]
    return (len(items) >= 2 and isinstance(items[0], ast.Condition)
            and items[0].form == "if_" and items[0].args[0].form == "would"
            and isinstance(items[-1], ast.Step)
            and any(getattr(s, "form", "") == "instead" for s in items[-1].args[-1]))


_REPLACEABLE = {"destroyed": "destroyed", "discarded": "discarded"}


def _compile_replacement(game: CompiledGame, card, name: str, ability, resolution) -> None:
    sentence = resolution[0]
    links = list(sentence.args)
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
    # the steps after the condition, "instead" taken off the last one
    last = links[-1].args[0]
    kept = tuple(s for s in last.args[-1] if s.form != "instead")
    last = attrs.evolve(last, args=last.args[:-1] + (kept,))
    body = links[1:-1] + [attrs.evolve(links[-1], args=(last,))]
    body[0] = attrs.evolve(body[0], form="first")
    e = Emitter(name, ability.span)
    StepCompiler(e, game).sentence(attrs.evolve(sentence, args=tuple(body)))
    game.programs[name] = e.finish()
    game.replacements.setdefault(card.name, []).append(
        Replacement(_REPLACEABLE[word], selection.test, name))


def _compile_trigger_program(game: CompiledGame, name: str, ability, resolution) -> str:
    e = Emitter(name, ability.span)
    StepCompiler(e, game).sentences(resolution)
    game.programs[name] = e.finish()
    return name


def _compile_ability(game: CompiledGame, card, index: int, ability) -> None:
    node = ability.ability
    if node.form == "keyword":
        # A keyword is a mark every rule and card can ask about ("with
        # <PROTECTOR>"); one defined in card language also works as that text.
        use = node.args[0]
        decl = next((k for k in game.rules.keywords if k.pattern.text == use.form), None)
        if decl is None or decl.definition is None or use.args:
            return
        defined = parse_ability(game.rules, decl.definition, game.rules.path)
        _compile_ability(game, card, index, attrs.evolve(ability, ability=defined))
        return
    label, conditions, costs, resolution = node.args
    name = f"card:{card.name}:{index}"
    if _is_replacement(node):
        _compile_replacement(game, card, name, ability, resolution)
        return
    timing = game.rules.timing(label) if label else None
    if timing is not None and timing.response and not conditions and not costs:
        e = Emitter(name, ability.span)
        StepCompiler(e, game).sentences(resolution)
        game.programs[name] = e.finish()
        game.responses.setdefault(card.name, []).append(name)
        return
    if timing is not None and timing.use == "continuous":
        _compile_static(game, card, node)
        return
    if timing is not None and timing.use == "activated" and not any(
            c.form == "when" for c in conditions):
        _compile_activated(game, card, index, node, ability)
        return
    whens = [c for c in conditions if c.form in ("when", "at_start", "at_end")]
    if not whens or costs or len(conditions) != 1:
        raise unsupported(node, "abilities other than \"When ...: effect\", responses, "
                          "activated and continuous abilities")
    when = whens[0]
    if when.form in ("at_start", "at_end"):
        ref = when.args[0]
        whose = {"your": "you", "rivals": "rival"}.get(ref.form, "any")
        if ref.form == "next":
            raise unsupported(ref, "a trigger on the next period")
        program = _compile_trigger_program(game, name, ability, resolution)
        if timing is not None and timing.immediate:
            game.immediate.add(program)
        game.triggers.setdefault(card.name, []).append(Trigger(
            ref.args[0], program, None, False, "period", whose,
            "start" if when.form == "at_start" else "end"))
        return
    event = when.args[0]
    if event.form == "player_event":
        player, action = event.args
        events = {"player_draws": "drawn", "player_plays": "played",
                  "player_discards": "discarded", "player_reveals": "revealed"}
        if action.form not in events:
            raise unsupported(action, f'the event "{action.form.replace("_", " ")}"')
        whose = {"you": "you", "rival": "rival", "each_rival": "rival",
                 "any_player": "any", "each_player": "any"}.get(player.form)
        if whose is None:
            raise unsupported(player, "this player in a trigger")
        program = _compile_trigger_program(game, name, ability, resolution)
        if timing is not None and timing.immediate:
            game.immediate.add(program)
        game.triggers.setdefault(card.name, []).append(Trigger(
            events[action.form], program, None, False, "player", whose))
        return
    if event.form != "card_event":
        raise unsupported(event, f'the event "{event.form.replace("_", " ")}"')
    subject, action = event.args
    if action.form != "event_action":
        raise unsupported(action, f'the event "{action.form.replace("_", " ")}"')
    inner = action.args[0]
    word = inner.args[0] if inner.form == "event_participle" else inner.form
    selection = compile_selector(subject, lambda m, f: f.locals["you"])
    if selection.test is None:
        raise unsupported(subject, "this kind of trigger subject")
    if timing is not None and timing.immediate:
        game.immediate.add(name)
    e = Emitter(name, ability.span)
    StepCompiler(e, game).sentences(resolution)
    game.programs[name] = e.finish()
    game.triggers.setdefault(card.name, []).append(
        Trigger(word.lower(), name, selection.test, subject.form == "this"))


# ---------------------------------------------------------------- running


class GameOver(Exception):
    """Raised inside the machine when the game has just ended."""


class Machine:
    """Runs a state's frames; every helper an instruction calls is here."""

    __slots__ = ("game", "state", "steps", "_asking", "_in_play")

    def __init__(self, game: CompiledGame, state: GameState):
        self.game = game
        self.state = state
        self.steps = 0
        self._asking: set = set()
        self._in_play = None

    @property
    def rules(self) -> GameRules:
        return self.game.rules

    # ---- the loop

    def run(self) -> None:
        state = self.state
        programs = self.game.programs
        while state.result is None and state.decision is None:
            if not state.frames:
                self.draw_game("the game's program ended")
                return
            frame = state.frames[-1]
            if frame.program == "resolve":
                self.steps += 1
                if self.steps > MAX_STEPS:
                    self.draw_game("too many steps without a decision")
                    return
                outcome = self.resolve_step(frame)
                if outcome is None:
                    state.frames.pop()
                elif outcome is WAIT:
                    return
                self.after_step()
                continue
            program = programs[frame.program]
            if frame.pc >= len(program.instructions):
                state.frames.pop()
                self.maybe_resolve()
                continue
            self.steps += 1
            if self.steps > MAX_STEPS:
                self.draw_game("too many steps without a decision")
                return
            try:
                outcome = program.instructions[frame.pc](self, frame)
            except GameOver:
                return
            if outcome is None:
                frame.pc += 1
            elif outcome is WAIT:
                return
            self.after_step()
            self.maybe_resolve()

    def after_step(self) -> None:
        state = self.state
        if state.pending_replacements:
            for program, source, controller, card in reversed(state.pending_replacements):
                state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                       "it": card}))
            state.pending_replacements = ()
        if len(state.log) > MAX_EVENTS:
            self.draw_game(f"more than {MAX_EVENTS} events")
            return
        if state.cursor < len(state.log):
            # state rules look at counters: only a counter event can change them
            if any(e[0] == "counter" for e in state.log[state.cursor:]):
                self.state_rules()
            if state.result is None:
                self.collect_triggers()

    # ---- state rules and triggers

    def state_rules(self) -> None:
        state = self.state
        for counter in self.rules.counters.values():
            if counter.loses_at is None or counter.scope != "player":
                continue
            for player in range(state.players):
                if not state.out[player] and state.counter(player, counter.name) <= counter.loses_at:
                    self.eliminate(player, f"{counter.name} {state.counter(player, counter.name)}")

    def eliminate(self, player: int, reason: str) -> None:
        state = self.state
        state.out[player] = True
        state.log.append(("out", player, reason))
        alive = [p for p in range(state.players) if not state.out[p]]
        if len(alive) == 1:
            op.end_game(state, ("win", alive[0], f"player {player + 1} lost: {reason}"))
        elif not alive:
            op.end_game(state, ("draw", "every player lost at once"))

    def collect_triggers(self) -> None:
        """Match new events against triggered abilities: of the card the
        event is about ("When this is played"), and of every card in play."""
        state = self.state
        log = state.log
        if not self.game.triggers:
            state.cursor = len(log)
            return
        fired = []
        watchers = None
        for index in range(state.cursor, len(log)):
            event = log[index]
            if event[0] == "period":
                fired.extend(self.period_triggers(event))
                continue
            if event[0] != "event":
                continue
            _kind, name, card, actor = event
            fired.extend(self.player_triggers(name, card, actor))
            cards = card if isinstance(card, tuple) else (card,)
            for c in cards:
                if c is None:
                    continue
                if watchers is None:
                    watchers = [w for w in self.in_play()
                                if state.cards[w].name in self.game.triggers]
                sources = set(watchers)
                sources.add(c)
                for source in sorted(sources):
                    for trigger in self.game.triggers.get(state.cards[source].name, ()):
                        if trigger.event != name or trigger.kind != "card":
                            continue
                        if trigger.self_only:
                            if source != c:
                                continue
                        elif source == c and source not in watchers:
                            continue
                        probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                                   "this": source})
                        if trigger.test(self, probe, c):
                            fired.append((trigger.program, source,
                                          state.cards[source].controller, c))
        state.cursor = len(log)
        if not fired:
            return
        if self.rules.resolution is None:
            # no resolution rules: each triggered ability resolves at once
            if len(state.frames) + len(fired) > MAX_DEPTH:
                self.draw_game(f"effects nested more than {MAX_DEPTH} deep (a loop?)")
                return
            for program, source, controller, card in reversed(fired):
                state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                       "it": card}))
            return
        immediate = [f for f in fired if f[0] in self.game.immediate]
        if immediate:
            fired = [f for f in fired if f[0] not in self.game.immediate]
            for program, source, controller, card in reversed(immediate):
                state.frames.append(Frame(program, 0, {"you": controller, "this": source,
                                                       "it": card}))
        state.pending = state.pending + fired
        if len(state.pending) + len(state.stack) > MAX_DEPTH:
            self.draw_game(f"more than {MAX_DEPTH} effects waiting (a loop?)")

    def _watchers(self, kind: str):
        state = self.state
        for source in self.in_play():
            for trigger in self.game.triggers.get(state.cards[source].name, ()):
                if trigger.kind == kind:
                    yield source, trigger

    def _whose(self, trigger: Trigger, controller: int, player: int) -> bool:
        if trigger.whose == "you":
            return player == controller
        if trigger.whose == "rival":
            return player != controller
        return True

    def period_triggers(self, event) -> list:
        """ "At the start of your turn": a period began or ended."""
        _kind, _what, name, _number, edge = event
        fired = []
        for source, trigger in self._watchers("period"):
            if trigger.event != name or trigger.edge != edge:
                continue
            controller = self.state.cards[source].controller
            if self._whose(trigger, controller, self.state.turn_player):
                fired.append((trigger.program, source, controller, source))
        return fired

    def player_triggers(self, name: str, card, actor: int) -> list:
        """ "When you draw a card": a player did something."""
        fired = []
        for source, trigger in self._watchers("player"):
            if trigger.event != name:
                continue
            controller = self.state.cards[source].controller
            if self._whose(trigger, controller, actor):
                fired.append((trigger.program, source, controller, card))
        return fired

    # ---- resolution: the stack of entries (chain links, stack links)

    def maybe_resolve(self) -> None:
        """Start resolving waiting effects when nothing else is running."""
        state = self.state
        if (state.pending or state.stack) and state.frames and \
                state.frames[-1].program == "game" and self.rules.resolution is not None:
            state.frames.append(Frame("resolve", 0, {}))

    def resolve_step(self, frame: Frame):
        """One step of resolving: add waiting effects as entries (the rival's
        or the turn player's first), let the other player respond, then
        resolve the top entry. Runs again until nothing is left."""
        state = self.state
        settings = self.rules.resolution
        locals_ = frame.locals
        if state.pending and not state.stack:
            pending = state.pending
            state.pending = []
            turn = state.turn_player
            first = [p for p in pending if (p[2] != turn) == settings.rival_first]
            second = [p for p in pending if (p[2] != turn) != settings.rival_first]
            last_controller = None
            for program, source, controller, card in first + second:
                self.push_entry(program, source, controller,
                                (("it", card), ("this", source), ("you", controller)))
                last_controller = controller
            if settings.responses:
                locals_["responder"] = self.rival_of(last_controller)
            return JUMPED
        if not state.stack:
            return None
        if settings.responses and "responder" in locals_:
            responder = locals_["responder"]
            if "_respond" in locals_:
                answer = locals_.pop("_respond")
                if answer == ("pass",):
                    del locals_["responder"]
                    state.log.append(("pass", responder))
                    return JUMPED
                card, program = answer
                top = state.stack[-1][0]
                self.discard(card)
                self.push_entry(program, card, responder,
                                (("this", card), ("you", responder),
                                 ("responding_to", top)), responding_to=top)
                locals_["responder"] = self.rival_of(responder)
                return JUMPED
            options = [(c, program) for c in self.hand_of(responder)
                       for program in self.game.responses.get(state.cards[c].name, ())]
            if options:
                return self.ask(frame, responder, "respond", "respond or pass",
                                tuple(options) + (("pass",),), "_respond",
                                tuple(f"respond with {self.card_label(c)}"
                                      for c, _ in options) + ("pass",))
            del locals_["responder"]
        entry = state.stack.pop()
        entry_id, program, source, controller, zone, entry_locals, nullified, _ = entry
        if nullified:
            state.log.append(("fizzle", entry_id, source, "nullified"))
            return JUMPED
        if settings.drop_if_source_left and state.cards[source].zone != zone:
            state.log.append(("fizzle", entry_id, source, "its source left its zone"))
            return JUMPED
        state.log.append(("resolve", entry_id, source))
        state.frames.append(Frame(program, 0, dict(entry_locals)))
        return JUMPED

    def push_entry(self, program: str, source: int, controller: int, entry_locals: tuple,
                   responding_to=None) -> None:
        state = self.state
        entry_id = state.usage.get("#entries", 0) + 1
        state.usage["#entries"] = entry_id
        state.stack.append((entry_id, program, source, controller, state.cards[source].zone,
                            entry_locals, False, responding_to))
        state.log.append(("entry", entry_id, source, controller, len(state.stack)))

    def nullify_entry(self, entry_id) -> bool:
        state = self.state
        for index, entry in enumerate(state.stack):
            if entry[0] == entry_id and not entry[6]:
                state.stack[index] = entry[:6] + (True,) + entry[7:]
                state.log.append(("nullify", entry_id, entry[2]))
                return True
        return False

    # ---- game-level steps

    def begin_turn(self, frame: Frame) -> None:
        state = self.state
        if state.turn >= MAX_TURNS:
            self.draw_game(f"no winner after {MAX_TURNS} turns")
            raise GameOver
        if state.turn == 0:
            player = frame.locals.get("first", 0)
        else:
            player = self.next_player(state.turn_player)
        op.begin_turn(state, player)
        op.period(state, "turn", "turn", "start")
        frame.locals["you"] = player

    def end_turn(self, frame: Frame) -> None:
        self.end_period("turn", "turn")
        self.state.passes = [0] * self.state.players

    def end_period(self, kind: str, name: str) -> None:
        state = self.state
        op.period(state, kind, name, "end")
        op.expire_modifiers(state, name, state.period_counts.get(name, 0), "end")

    def add_modifier(self, card: int, kind: str, name: str, amount: int, source,
                     until: tuple) -> None:
        op.add_modifier(self.state, Modifier(card, kind, name, amount, source, until))

    def next_player(self, player: int) -> int:
        n = self.state.players
        for step in range(1, n + 1):
            candidate = (player + step) % n
            if not self.state.out[candidate]:
                return candidate
        return player

    def rival_of(self, player: int) -> int:
        return self.next_player(player)

    def seat_order(self) -> list[int]:
        state = self.state
        return [(state.turn_player + i) % state.players for i in range(state.players)
                if not state.out[(state.turn_player + i) % state.players]]

    # ---- reading cards

    def in_play(self) -> list[int]:
        """The cards in the zones declared "in play" (kept until the next
        event: every change of zone is an event)."""
        events = len(self.state.log)
        if self._in_play is not None and self._in_play[0] == events:
            return self._in_play[1]
        zones = self.state.zones
        out = []
        for (name, _owner), cards in zones.items():
            if name in self.game.in_play:
                out.extend(cards)
        self._in_play = (events, out)
        return out

    def definition(self, card: int):
        return self.game.cards[self.state.cards[card].name]

    def is_kind(self, card: int, kind: str) -> bool:
        decl = self.rules.kind(kind)
        if decl is None:  # a plural
            for k in self.rules.kinds.values():
                if k.plural.lower() == kind.lower():
                    decl = k
        return decl is not None and self.definition(card).kind == decl.name

    def stat(self, card: int, name: str) -> int:
        """A card's stat now: printed, plus the modifiers in force, plus the
        continuous abilities of the cards in play."""
        value = self.definition(card).stat(name)
        total = value if isinstance(value, int) else 0
        for modifier in self.state.modifiers:
            if modifier.target == card and modifier.kind == "stat" and modifier.name == name:
                total += modifier.amount
        for kind, amount in self.continuous(card, ("stat", name)):
            total += amount
        return total

    def continuous(self, card: int, wanted: tuple | None = None):
        """(kind, amount) of every continuous ability in play applying to
        ``card``; only those that can change ``wanted`` (kind, name) if given.

        A continuous ability whose own test asks the same question (a
        keyword granted to the cards that have it) is not counted while that
        question is being answered: no loop."""
        statics = self.game.statics
        if not statics:
            return
        state = self.state
        asking = (card, wanted)
        if asking in self._asking:
            return
        self._asking.add(asking)
        try:
            for source in self.in_play():
                abilities = statics.get(state.cards[source].name)
                if not abilities or "nullified" in state.cards[source].statuses:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                for static in abilities:
                    if wanted is not None and not any((k, n) == wanted
                                                      for k, n, _ in static.changes):
                        continue
                    if static.condition is not None and not static.condition(self, probe):
                        continue
                    if static.test(self, probe, card):
                        for kind, name, amount in static.changes:
                            yield (kind, name), amount
        finally:
            self._asking.discard(asking)

    def has_keyword(self, card: int, name: str) -> bool:
        for ability in self.definition(card).abilities:
            node = ability.ability
            if node.form == "keyword" and node.args[0].form == name:
                return True
        return self.has(card, "keyword", name)

    def has(self, card: int, kind: str, name: str) -> bool:
        """Whether a card has a keyword (or a can't / can) now."""
        for modifier in self.state.modifiers:
            if modifier.target == card and modifier.kind == kind and modifier.name == name:
                return True
        return any(True for _ in self.continuous(card, (kind, name)))

    def has_value(self, card: int, value: str) -> bool:
        for stat in self.definition(card).stats:
            v = stat.value
            if v == value or (isinstance(v, tuple) and any(
                    value in (alt if isinstance(alt, tuple) else (alt,)) for alt in v)):
                return True
        return False

    def hand_of(self, player: int) -> list[int]:
        return self.state.zones.get((self.game.hand, player), [])

    def card_label(self, card: int) -> str:
        return f"{self.state.cards[card].name} #{card}"

    # ---- decisions

    def ask(self, frame: Frame, player: int, kind: str, prompt: str, options: tuple,
            store: str, labels: tuple = ()):
        self.state.decision = Decision(player, kind, prompt, tuple(options), store,
                                       tuple(labels))
        return WAIT

    def pick(self, frame: Frame, selection: Selection, chooser: int, prompt: str,
             store: str):
        """Put the selected cards in ``it``; ask ``chooser`` when there is a choice."""
        locals_ = frame.locals
        if store in locals_:
            picked = locals_.pop(store)
            chosen = locals_.pop(store + "+", ())
            if picked == "done":
                locals_["it"] = chosen
                return None
            chosen = chosen + (picked,)
            locals_["it"] = chosen if len(chosen) != 1 else chosen[0]
            how = selection.how
            if isinstance(how, tuple):
                limit = how[1]
                remaining = [c for c in selection.candidates(self, frame) if c not in chosen]
                if len(chosen) < limit and remaining:
                    locals_[store + "+"] = chosen
                    done = ("done",) if how[0] == "up to" else ()
                    return self.ask(frame, chooser, "target", prompt,
                                    tuple(remaining) + done, store,
                                    tuple(self.card_label(c) for c in remaining) + tuple(
                                        "done" for _ in done))
            locals_["it"] = chosen if len(chosen) != 1 else chosen[0]
            return None
        candidates = selection.candidates(self, frame)
        how = selection.how
        if selection.given or how == "all":
            locals_["it"] = tuple(candidates) if (len(candidates) != 1 or selection.plural) \
                else candidates[0]
            return None
        if not candidates:
            locals_["it"] = ()
            return None
        if how == "one":
            if len(candidates) == 1:
                locals_["it"] = candidates[0]
                return None
            return self.ask(frame, chooser, "target", prompt, tuple(candidates), store,
                            tuple(self.card_label(c) for c in candidates))
        kind, limit = how
        if limit == 0:
            locals_["it"] = ()
            return None
        if kind == "exactly" and len(candidates) <= limit:
            locals_["it"] = tuple(candidates)
            return None
        done = ("done",) if kind == "up to" else ()
        return self.ask(frame, chooser, "target", prompt, tuple(candidates) + done, store,
                        tuple(self.card_label(c) for c in candidates) + tuple(
                            "done" for _ in done))

    def action_window(self, frame: Frame, player: int, store: str):
        """The player takes actions until they pass."""
        state = self.state
        locals_ = frame.locals
        if state.out[player]:
            return None
        count_key = store + "#"
        if store in locals_:
            choice = locals_.pop(store)
            if choice == ("pass",):
                locals_.pop(count_key, None)
                state.log.append(("pass", player))
                return None
            locals_[count_key] = locals_.get(count_key, 0) + 1
            self.start_action(player, choice)
            return JUMPED
        if locals_.get(count_key, 0) >= MAX_ACTIONS_PER_WINDOW:
            locals_.pop(count_key, None)
            state.log.append(("pass", player))
            return None
        options, labels = self.legal_actions_for(frame, player)
        if not options:
            locals_.pop(count_key, None)
            return None
        return self.ask(frame, player, "action", "take an action or pass",
                        tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))

    def alternate(self, frame: Frame, store: str, each: int | None):
        """Players take one action at a time in seat order, the turn player
        first: until every player has passed in a row (``each`` None), or
        until each has taken ``each`` actions."""
        state = self.state
        locals_ = frame.locals
        seats = self.seat_order()
        if store + "@" not in locals_:
            locals_[store + "@"] = 0                      # whose go it is
            locals_[store + "p"] = 0                      # passes in a row
            locals_[store + "n"] = tuple(0 for _ in range(state.players))
        if store in locals_:
            choice = locals_.pop(store)
            player = seats[locals_[store + "@"] % len(seats)]
            taken = list(locals_[store + "n"])
            locals_[store + "@"] += 1
            if choice == ("pass",):
                locals_[store + "p"] += 1
                state.log.append(("pass", player))
                return JUMPED
            locals_[store + "p"] = 0
            taken[player] += 1
            locals_[store + "n"] = tuple(taken)
            self.start_action(player, choice)
            return JUMPED
        while True:
            taken = locals_[store + "n"]
            done = (locals_[store + "p"] >= len(seats)) if each is None else all(
                taken[p] >= each for p in seats)
            if done or locals_[store + "@"] > MAX_ACTIONS_PER_WINDOW * state.players:
                for key in ("@", "p", "n"):
                    locals_.pop(store + key, None)
                return None
            player = seats[locals_[store + "@"] % len(seats)]
            if each is not None and taken[player] >= each:
                locals_[store + "@"] += 1
                continue
            options, labels = self.legal_actions_for(frame, player)
            if each is None:
                options, labels = options + [("pass",)], labels + ["pass"]
            if not options:
                locals_[store + "@"] += 1
                locals_[store + "p"] += 1
                continue
            return self.ask(frame, player, "action", "take an action" + (
                " or pass" if each is None else ""), tuple(options), store, tuple(labels))

    def start_action(self, player: int, choice: tuple) -> None:
        """Push the program of a chosen action or activated ability."""
        state = self.state
        if choice[0] == "ability":
            _, card, number = choice
            ability = self.game.activated[state.cards[card].name][number]
            if ability.once_per:
                state.usage[self.usage_key(ability)] = 1
            state.log.append(("activate", player, ability.label, card))
            state.frames.append(Frame(ability.program, 0, {"you": player, "this": card,
                                                           "it": card}))
            return
        index, card = choice
        plan = self.game.actions[index]
        if plan.limit is not None:
            state.usage[self.action_key(index, plan, card, player)] = 1
        state.log.append(("action", player, plan.name, card))
        state.frames.append(Frame(plan.program, 0, {"you": player, "it": card,
                                                    "this": card}))

    def legal_actions_for(self, frame: Frame, player: int):
        phase = self.state.period.get("phase")
        step = self.state.period.get("step")
        options, labels = [], []
        probe = Frame("probe", 0, {"you": player})
        for index, plan in enumerate(self.game.actions):
            if plan.phases and phase not in plan.phases and step not in plan.phases:
                continue
            cards = plan.choose.candidates(self, probe) if plan.choose else [None]
            for card in cards:
                if plan.limit is not None and self.action_key(index, plan, card, player) \
                        in self.state.usage:
                    continue
                probe.locals["it"] = card
                probe.locals["this"] = card
                if plan.can_pay(self, probe):
                    options.append((index, card))
                    labels.append(plan.name if card is None else
                                  f"{plan.name} {self.card_label(card)}")
        state = self.state
        for card in self.in_play():
            if state.cards[card].controller != player or "nullified" in state.cards[card].statuses:
                continue
            for number, ability in enumerate(self.game.activated.get(state.cards[card].name, ())):
                if ability.once_per and self.usage_key(ability) in state.usage:
                    continue
                probe.locals["this"] = card
                probe.locals["it"] = card
                if ability.can_pay(self, probe):
                    options.append(("ability", card, number))
                    labels.append(f"use {ability.label} of {self.card_label(card)}")
        return options, labels

    def action_key(self, index: int, plan: ActionPlan, card, player: int) -> str:
        """What an action's limit counts: its player (and card) in this period."""
        period, per_card = plan.limit
        return f"action|{index}|{player}|{card if per_card else ''}|{period}|" \
               f"{self.state.period_counts.get(period, 0)}"

    def usage_key(self, ability: Activated) -> str:
        """What a once-per limit counts: the ability's card name in this period
        (so every card with the same name shares it)."""
        period = ability.once_per
        return f"{ability.key}|{ability.program.rsplit(':', 1)[1]}|{period}|" \
               f"{self.state.period_counts.get(period, 0)}"

    # ---- changing the state (through interpreter.operations)

    def move(self, card: int, zone: tuple, top: bool = True, face_up=None) -> None:
        op.move(self.state, card, zone, top=top, face_up=face_up)

    def draw(self, player: int, count: int) -> int:
        pile = self.state.zones.get((self.game.draw_pile, player), [])
        drawn = 0
        for _ in range(count):
            if not pile:
                break
            card = pile[-1]
            op.move(self.state, card, (self.game.hand, player), face_up=False)
            self.event("drawn", card, player)
            drawn += 1
        return drawn

    def discard(self, card: int) -> None:
        if self.replaced("discarded", card):
            return
        owner = self.state.cards[card].owner
        op.move(self.state, card, (self.game.discard_pile, owner), face_up=True)
        self.event("discarded", card, owner)

    def destroy(self, card: int) -> None:
        if self.replaced("destroyed", card):
            return
        owner = self.state.cards[card].owner
        op.move(self.state, card, (self.game.discard_pile, owner), face_up=True)
        self.event("destroyed", card, owner)

    def replaced(self, event: str, card: int) -> bool:
        """Whether a replacement ability takes the place of this event: its
        program is queued to run next, and the event does not happen."""
        state = self.state
        if not self.game.replacements:
            return False
        sources = set(self.in_play())
        sources.add(card)
        for source in sorted(sources):
            for replacement in self.game.replacements.get(state.cards[source].name, ()):
                if replacement.event != event:
                    continue
                probe = Frame("probe", 0, {"you": state.cards[source].controller,
                                           "this": source})
                if replacement.test(self, probe, card):
                    state.log.append(("replace", event, card, source))
                    state.pending_replacements = state.pending_replacements + (
                        (replacement.program, source, state.cards[source].controller, card),)
                    return True
        return False

    def damage_card(self, card: int, amount: int) -> None:
        op.set_card_counter(self.state, card, "damage",
                            self.state.cards[card].counter("damage") + amount)

    def set_counter(self, player: int, name: str, value: int) -> None:
        decl = self.rules.counters.get(name)
        if decl is not None:
            if decl.minimum is not None:
                value = max(value, decl.minimum)
            if decl.maximum is not None:
                value = min(value, decl.maximum)
        op.set_counter(self.state, player, name, value)

    def set_status(self, card: int, status: str, on: bool) -> None:
        op.set_status(self.state, card, status, on)

    def flip(self, card: int, up: bool) -> None:
        op.flip(self.state, card, up)

    def event(self, name: str, card, player: int) -> None:
        self.state.log.append(("event", name, card, player))

    def win(self, player: int, reason: str) -> None:
        op.end_game(self.state, ("win", player, reason))
        raise GameOver

    def lose(self, player: int, reason: str) -> None:
        self.eliminate(player, reason)
        if self.state.result is not None:
            raise GameOver

    def draw_game(self, reason: str) -> None:
        op.end_game(self.state, ("draw", reason))


# ---------------------------------------------------------------- the step API


class Match:
    """One game being played, driven one decision at a time."""

    def __init__(self, game: CompiledGame, state: GameState):
        self.game = game
        self.state = state

    @classmethod
    def start(cls, game: CompiledGame, decks: list, seed: int = 0) -> "Match":
        """A new game: one deck per player (a Deck), shuffled by the rules'
        setup, with the seeded generator."""
        rules = game.rules
        players = len(decks)
        if not rules.players_min <= players <= rules.players_max:
            raise CouldNotRun(Problem(
                "E804", f"{rules.title} is for {rules.players_min} to {rules.players_max} "
                f"players, not {players}"))
        state = GameState(players, seed)
        for player, deck in enumerate(decks):
            for index, (part_name, entries) in enumerate(deck.parts):
                place = game.starting_place(part_name, index)
                if place is None:
                    continue  # a part kept outside the game, such as a side deck
                zone_name, face_up = place
                key = (zone_name, -1 if rules.zones[zone_name].scope == "shared" else player)
                pile = state.zones.setdefault(key, [])
                for entry in entries:
                    for _ in range(entry.count):
                        card = CardState(len(state.cards), entry.name, player, key)
                        if face_up:
                            card.face_up = True
                        state.cards.append(card)
                        pile.append(card.id)
            for counter in rules.counters.values():
                if counter.scope == "player" and counter.start is not None:
                    state.player_counters[player][counter.name] = counter.start
        first = state.rng.below(players)
        state.turn_player = first
        state.log.append(("start", players, seed, first))
        state.frames.append(Frame("game", 0, {"you": first, "first": first}))
        match = cls(game, state)
        match._advance()
        return match

    @classmethod
    def from_position(cls, game: CompiledGame, players: int, seed: int, zones: dict,
                      counters: dict, turn: int, turn_player: int, phase: str) -> "Match":
        """A game set up at a given moment instead of from the start.

        ``zones`` maps (zone, player) to card names listed from the top, each
        with the statuses it has; ``counters`` maps (player, counter) to a
        value; play starts at the beginning of ``phase`` of turn ``turn``.
        """
        rules = game.rules
        state = GameState(players, seed)
        for (zone, player), cards in zones.items():
            key = (zone, -1 if rules.zones[zone].scope == "shared" else player)
            pile = state.zones.setdefault(key, [])
            for name, extras in reversed(cards):   # listed top first
                card = CardState(len(state.cards), name, max(player, 0), key,
                                 face_up=rules.zones[zone].visibility == "public")
                statuses = []
                for extra in extras:
                    if extra == "face down":
                        card.face_up = False
                    elif extra == "face up":
                        card.face_up = True
                    elif isinstance(extra, tuple):
                        card.counters = card.counters + ((extra[1], extra[2]),)
                    else:
                        statuses.append(extra)
                card.statuses = tuple(statuses)
                state.cards.append(card)
                pile.append(card.id)
        for player in range(players):
            for counter in rules.counters.values():
                if counter.scope == "player" and counter.start is not None:
                    state.player_counters[player][counter.name] = counter.start
        for (player, name), value in counters.items():
            state.player_counters[player][name] = value
        state.turn = turn
        state.turn_player = turn_player
        state.period_counts["turn"] = turn
        state.period["turn"] = "turn"
        if phase in game.step_phase:      # starting at a step: inside its phase
            state.period["phase"] = game.step_phase[phase]
            state.period_counts[game.step_phase[phase]] = 1
        state.log.append(("position", players, seed, turn, turn_player, phase))
        state.frames.append(Frame("game", game.phase_starts[phase],
                                  {"you": turn_player, "first": turn_player}))
        match = cls(game, state)
        match._advance()
        return match

    def _advance(self) -> None:
        Machine(self.game, self.state).run()

    # ---- OpenSpiel-shaped API

    def current_player(self) -> int:
        """The player to decide, or -4 (OpenSpiel's terminal) when over."""
        if self.state.result is not None or self.state.decision is None:
            return -4
        return self.state.decision.player

    def is_terminal(self) -> bool:
        return self.state.result is not None

    def legal_actions(self) -> list[int]:
        decision = self.state.decision
        if decision is None or self.state.result is not None:
            return []
        return list(range(len(decision.options)))

    def apply_action(self, action: int) -> None:
        decision = self.state.decision
        if decision is None:
            raise CardrulesError(Problem("E805", "the game is over: no decision to answer"))
        if not 0 <= action < len(decision.options):
            raise CardrulesError(Problem(
                "E806", f"illegal action {action}: the legal actions are 0 to "
                f"{len(decision.options) - 1}"))
        label = decision.labels[action] if decision.labels else str(decision.options[action])
        self.state.log.append(("choice", decision.player, decision.kind, decision.prompt,
                               label))
        frame = self.state.frames[-1]
        frame.locals[decision.store] = decision.options[action]
        self.state.decision = None
        self._advance()

    def action_to_string(self, action: int) -> str:
        decision = self.state.decision
        if decision is None:
            return str(action)
        if decision.labels:
            return decision.labels[action]
        return str(decision.options[action])

    def returns(self) -> list[float]:
        result = self.state.result
        n = self.state.players
        if result is None or result[0] == "draw":
            return [0.0] * n
        return [1.0 if p == result[1] else -1.0 for p in range(n)]

    def clone(self) -> "Match":
        return Match(self.game, self.state.clone())

    def observation(self, player: int) -> dict:
        """What ``player`` may see: public zones, their own private zones, the
        sizes of hidden ones, counters, and the decision if it is theirs."""
        state = self.state
        zones = {}
        for (name, owner), cards in state.zones.items():
            decl = self.game.rules.zones.get(name)
            visible = decl is None or decl.visibility == "public" or (
                decl.visibility == "private" and owner == player)
            key = f"{name}/{owner}" if owner >= 0 else name
            zones[key] = [state.cards[c].name for c in cards] if visible else len(cards)
        decision = state.decision
        return {
            "player": player,
            "turn": state.turn,
            "turn_player": state.turn_player,
            "counters": [dict(c) for c in state.player_counters],
            "zones": zones,
            "decision": None if decision is None or decision.player != player else {
                "prompt": decision.prompt, "options": list(decision.labels)},
            "result": state.result,
        }

    def game_over_by_cap(self, reason: str) -> None:
        op.end_game(self.state, ("draw", reason))

    def narration(self, viewer: int | None = None) -> list[str]:
        from interpreter.narration import narrate

        return list(narrate(self.state, self.game.rules, viewer))

    def log_digest(self) -> str:
        return hashlib.sha256(repr(self.state.log).encode()).hexdigest()
