"""Moves, combat and response windows: procedures a rules file writes as
sentences, and what the machine does for them.

- ``Players alternate moves until all pass in a row [or pass N moves in a
  row]``: each player in seat order makes a *move* (a period "Move" of its
  own, during which that player is the turn player, so "your Move" and
  priority follow the mover): actions until they pass. A move without an
  action is a pass; the window ends when every player still moving passed
  their last move; a player who passed N moves in a row makes no more.
- ``X is attacking`` / ``X is defending`` / ``X is STATUS``: a status (the
  first two: "attacker" and "defender", which "the attacking X" reads).
- ``X counts as VALUE until ...``: the card has that stat value too.
- ``X deals N damage to PLAYER`` (event "deals damage" of X, then N times the
  rules' ``player damage`` procedure, or the counter that takes damage) and
  ``X prevent(s) damage`` (event "prevents damage").
- ``PLAYER may respond with "LABEL" or "LABEL" to X``: a response window: the
  player may use one ability with one of those timing texts, from a card in
  their hand or in a zone their card kind is used from, paying its costs.
  The card or attack responded to becomes the first link of a chain, the
  response the next; the other player may respond to it (abilities whose
  timing is a ``response``), and the chain resolves from the highest link.
- ``PLAYER may defend against X``: the rules' ``defense`` block says with
  which cards (a single matching defender, or two that both match or both do
  not), where they go and what an attacker with a keyword needs.
- ``The waiting effects resolve``: triggered effects waiting resolve now.

Triggered abilities may have costs (asked, paid, or skipped), "once per
PERIOD" and "if" conditions; the ability programs are built here too.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable

import attrs

from interpreter import operations as op
from interpreter.language import ast
# interpreter.compile builds its StepCompiler on CombatSteps: its names are
# read from the module when used, not when this module loads.
from interpreter import compile as C
from interpreter.state import Frame

MAX_MOVES = 400                 # moves in one window before it is cut short


@attrs.define
class Cued:
    """An ability used in a response window: its label, the program that
    pays its costs and puts its effect on the chain, and a cost check."""

    label: str
    program: str
    can_pay: Callable
    response: bool              # its timing lets it answer any chain link


# ---------------------------------------------------------------- compiling steps


class CombatSteps:
    """The StepCompiler's steps for moves, combat and response windows."""

    # steps whose "may" is the window's own "pass" (no yes-no question first)
    ASKS_ITSELF = ("respond", "defend_against", "defend_again")

    def do_alternate_moves(self, action, who):
        store = f"_moves{len(self.e.program.instructions)}"
        lockout = action.args[0] if action.args else None

        def window(m, f):
            return alternate_moves(m, f, store, lockout)
        self.e.emit(window)

    def do_respond(self, action, who):
        *names, selector = [a for a in action.args if not isinstance(a, str)]
        labels = []
        for name in names:
            label = name.name if isinstance(name, ast.CardName) else str(name)
            timing = self.game.rules.timing(label)
            if timing is None:
                raise C.unsupported(name, f'responding with "{label}" (no timing of that name)')
            labels.append(timing.label)
        self.game.cued_labels.update(labels)
        selection = C.compile_selector(selector, lambda m, f: f.locals["you"])
        store = f"_respond{len(self.e.program.instructions)}"
        labels = tuple(labels)

        def window(m, f):
            return respond_window(m, f, who(m, f), selection, labels, store)
        self.e.emit(window)

    def do_defend_against(self, action, who):
        if self.game.rules.defense is None:
            raise C.unsupported(action, "defending (the rules file has no defense block)")
        selector = action.args[-1]
        selection = C.compile_selector(selector, lambda m, f: f.locals["you"])
        store = f"_defend{len(self.e.program.instructions)}"

        def window(m, f):
            return defend_window(m, f, who(m, f), selection, store)
        self.e.emit(window)

    def do_defend_again(self, action, who):
        if self.game.rules.defense is None:
            raise C.unsupported(action, "defending (the rules file has no defense block)")
        selection = C.compile_selector(action.args[-1], lambda m, f: f.locals["you"])
        store = f"_defend{len(self.e.program.instructions)}"

        def window(m, f):
            return defend_again_window(m, f, who(m, f), selection, store)
        self.e.emit(window)

    def do_resolve_waiting(self, action, who):
        def resolve(m, f):
            state = m.state
            if m.rules.resolution is None or not (state.pending or state.stack):
                return None
            f.pc += 1
            state.frames.append(Frame("resolve", 0, {}))
            return C.JUMPED
        self.e.emit(resolve)

    def combat_statement(self, step) -> bool:
        """Statements about cards that are not modifiers; False if not one."""
        selector, statement, suffixes = step.args
        form = statement.form
        you = lambda m, f: f.locals["you"]  # noqa: E731
        lasting = any(s.form == "lasting" for s in suffixes)
        if form == "becomes" and statement.args[0].form in ("attacking", "defending",
                                                              "status") and not (
                lasting and statement.args[0].form == "status"):
            # (a status with a duration is a modifier: see statement_changes)
            state = statement.args[0]
            # "the attacking X" / "the defending X" read these statuses
            status = state.args[0] if state.form == "status" else {
                "attacking": "attacker", "defending": "defender"}[state.form]
            self.select(selector, you)
            self.each_chosen(lambda m, f, c: m.set_status(c, status, True))
            return True
        if form == "counts_as":
            value = statement.args[0]
            until = None
            for suffix in suffixes:
                if suffix.form != "lasting":
                    raise C.unsupported(suffix, f'"{suffix.form.replace("_", " ")}" here')
                until = C.compile_duration(suffix.args[0])
            self.select(selector, you)

            def counts(m, f, card):
                end = until(m, f) if until is not None else ("game", 0, "end")
                m.add_modifier(card, "value", value, 1, f.locals.get("this"), end)
            self.each_chosen(counts)
            return True
        if form == "card_deals":
            amount, target = statement.args
            count = C.compile_amount(amount, statement)
            if not isinstance(target, ast.Player):
                raise C.unsupported(target, "a card dealing damage to a card")
            victim = C.compile_player(target)
            self.select(selector, you)
            use_procedure = self.game.rules.player_damage is not None
            counter = None if use_procedure else self.game.damage_counter(statement)

            def deals(m, f):
                it = f.locals.get("it")
                cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
                f.locals["did"] = bool(cards)
                player = victim(m, f)
                for card in cards:
                    m.event("deals damage", card, m.state.cards[card].controller)
                    if counter is not None:
                        m.set_counter(player, counter,
                                      m.state.counter(player, counter) - count(m, f))
                if use_procedure and cards:
                    f.pc += 1
                    damage_player(m, player, count(m, f) * len(cards))
                    return C.JUMPED
                return None
            self.e.emit(deals)
            return True
        if form == "card_prevents":
            self.select(selector, you)
            self.each_chosen(lambda m, f, c: m.event("prevents damage", c,
                                                     m.state.cards[c].controller))
            return True
        return False


def damage_player(m, player: int, amount: int) -> None:
    """Push the rules' player damage procedure ``amount`` times (the frame
    that asks must already have moved past its instruction)."""
    for _ in range(amount):
        m.state.frames.append(Frame("player damage", 0, {"you": player, "they": player}))


def compile_player_damage(game) -> None:
    """The ``player damage`` procedure, when the rules file has one."""
    from interpreter.compile import StepCompiler
    from interpreter.language.game_rules import parse_ability

    sentence = game.rules.player_damage
    if sentence is None:
        return
    ability = parse_ability(game.rules, sentence.text, sentence.span.path)
    e = C.Emitter("player damage", sentence.span)
    StepCompiler(e, game).sentences(ability.resolution)
    game.programs["player damage"] = e.finish()


# ---------------------------------------------------------------- moves


def alternate_moves(m, f, store: str, lockout):
    state = m.state
    L = f.locals
    n = state.players
    if store + "@" not in L:
        L[store + "@"] = 0                        # whose move is next (seat index)
        L[store + "c"] = (0,) * n                 # passes in a row, per player
        L[store + "in"] = -1                      # the player moving, or -1
        L[store + "acted"] = False
        L[store + "tp"] = state.turn_player       # the turn player before the moves
        L[store + "#"] = 0
    first = L[store + "tp"]
    seats = [(first + i) % n for i in range(n) if not state.out[(first + i) % n]]
    mover = L[store + "in"]
    if mover >= 0:
        if store in L:
            choice = L.pop(store)
            if choice == ("pass",):
                state.log.append(("pass", mover))
                passes = list(L[store + "c"])
                passes[mover] = 0 if L[store + "acted"] else passes[mover] + 1
                L[store + "c"] = tuple(passes)
                if lockout is not None and passes[mover] >= lockout:
                    # "has no moves left" (a condition) until the window ends
                    state.usage["#no moves"] = tuple(sorted(
                        set(state.usage.get("#no moves", ())) | {mover}))
                L[store + "in"] = -1
                L[store + "@"] += 1
                m.end_period("move", "Move")
                return C.JUMPED
            L[store + "acted"] = True
            m.start_action(mover, choice)
            return C.JUMPED
        options, labels = m.legal_actions_for(f, mover)
        return m.ask(f, mover, "action", "take an action or end the move",
                     tuple(options) + (("pass",),), store, tuple(labels) + ("pass",))
    passes = L[store + "c"]
    active = [p for p in seats if lockout is None or passes[p] < lockout]
    if not active or all(passes[p] >= 1 for p in active) or L[store + "#"] >= MAX_MOVES:
        state.turn_player = first
        for key in ("@", "c", "in", "acted", "tp", "#"):
            L.pop(store + key, None)
        state.usage.pop("#no moves", None)
        return None
    while seats[L[store + "@"] % len(seats)] not in active:
        L[store + "@"] += 1
    mover = seats[L[store + "@"] % len(seats)]
    L[store + "in"] = mover
    L[store + "acted"] = False
    L[store + "#"] += 1
    state.turn_player = mover          # "your Move", and the mover's priority
    op.period(state, "move", "Move", "start")
    return C.JUMPED


# ---------------------------------------------------------------- responses


def used_from_cards(m, player: int) -> list[int]:
    """The player's cards outside play whose kind says they are used from
    where they are (``used from: hand, ZONE``, not those with an ``unless``
    value), except a card being used: its effect has not resolved yet."""
    state = m.state
    out = []
    zones = m.game.used_from_zones
    if not zones:
        return out
    busy = None
    for zone in zones:
        key = (m.game.hand, player) if zone == "hand" else (zone, player)
        for card in state.zones.get(key, ()):
            kind = m.rules.kind(m.definition(card).kind)
            if kind is None or zone not in kind.used_from:
                continue
            if kind.used_from_unless and any(m.has_value(card, v)
                                             for v in kind.used_from_unless):
                continue
            if busy is None:
                busy = cards_in_use(m)
            if card not in busy:
                out.append(card)
    return out


def cards_in_use(m) -> set:
    """Cards whose use waits for their effect to resolve (``once used: ...
    after it resolves``): on the stack, or resolving now."""
    state = m.state
    busy = {entry[2] for entry in state.stack
            if any(key == "_after_use" for key, _ in entry[5])}
    busy.update(f.locals["this"] for f in state.frames if f.program == AFTER_USE)
    return busy


# ---------------------------------------------------------------- using cards up

AFTER_USE = "#after use"      # the program that finishes using a card up


def use_up(m, f) -> None:
    """What using one of its abilities does to the card ``this`` (its kind's
    ``once used`` steps for the zone it is used from): the steps due at once
    happen now; those due "after it resolves" go with the effect's entry
    (``_after_use``) and happen once it has resolved or was nullified."""
    card = f.locals["this"]
    kind = m.rules.kind(m.definition(card).kind)
    if kind is None or not kind.used_up:
        return
    zone = m.state.cards[card].zone[0]
    now, after = kind.once_used_in("hand" if zone == m.game.hand else zone)
    used_up_steps(m, card, now)
    if after:
        f.locals["_after_use"] = after


def used_up_steps(m, card: int, steps) -> None:
    for step in steps:
        if step == "revealed":
            op.reveal(m.state, card)
        elif step == "turned face up":
            m.flip(card, True)
        elif step == "face down":
            m.flip(card, False)
        elif step == "discarded":
            m.discard(card)


def after_use_locals(f) -> tuple:
    """The entry locals that carry the steps due after the effect."""
    after = f.locals.pop("_after_use", None)
    return (("_after_use", after),) if after else ()


def response_options(m, player: int, labels, subject, top) -> tuple[list, list]:
    """Abilities ``player`` may respond with: of the given labels (or, with
    ``labels`` None, of timings that answer any chain link)."""
    state = m.state
    options, names = [], []
    cards = list(m.hand_of(player)) + [c for c in used_from_cards(m, player)
                                       if c not in m.hand_of(player)]
    cards += [c for c in m.in_play() if state.cards[c].controller == player
              and c not in cards]
    probe = Frame("probe", 0, {"you": player, "it": subject, "responding_to": top})
    for card in cards:
        abilities = m.game.cued.get(state.cards[card].name)
        if not abilities:
            continue
        probe.locals["this"] = card
        for number, ability in enumerate(abilities):
            if labels is None:
                if not ability.response:
                    continue
            elif ability.label not in labels:
                continue
            if ability.can_pay(m, probe):
                options.append(("use", card, number))
                names.append(f"respond with {ability.label} of {m.card_label(card)}")
    return options, names


def use_response(m, player: int, card: int, number: int, subject, top) -> None:
    ability = m.game.cued[m.state.cards[card].name][number]
    m.state.log.append(("activate", player, ability.label, card))
    m.state.frames.append(Frame(ability.program, 0, {
        "you": player, "this": card, "it": subject, "_subject": subject,
        "responding_to": top}))


def before_window(m, f, store: str, word: str, cards, actor: int):
    """Before a window opens ("before respond", "before defend"): each card
    it is about has the event (its "Before your Rival responds" abilities
    trigger), then what triggered resolves. JUMPED while that happens (the
    window runs again), None once done; ``store + "!"`` keeps the stage
    until the window ends."""
    if word not in m.game.before_events:
        return None
    L = f.locals
    key = store + "!"
    stage = L.get(key, 0)
    if stage == 0:
        L[key] = 1
        triggers = m.game.triggers
        for card in cards:
            # only a card with such an ability has the event (nothing else sees it)
            if any(t.event == word for t in triggers.get(m.state.cards[card].name, ())):
                m.event(word, card, actor)
        return C.JUMPED
    if stage == 1:
        L[key] = 2
        if m.state.pending and m.rules.resolution is not None:
            m.state.frames.append(Frame("resolve", 0, {}))
            return C.JUMPED
    return None


def respond_window(m, f, responder: int, selection, labels, store: str):
    state = m.state
    L = f.locals
    subject = selection.candidates(m, f)
    it = subject[0] if len(subject) == 1 else tuple(subject)
    if store not in L and subject:
        waiting = before_window(m, f, store, "before respond", subject, responder)
        if waiting is not None:
            return waiting
        subject = selection.candidates(m, f)      # what resolved may have changed them
        it = subject[0] if len(subject) == 1 else tuple(subject)
    if store in L:
        L.pop(store + "!", None)
        answer = L.pop(store)
        if answer == ("pass",):
            state.log.append(("pass", responder))
            return None
        _, card, number = answer
        if not state.stack:
            # the played card (or attack) responded to: the chain's first link
            m.push_entry("", subject[0] if subject else card, m.rival_of(responder),
                         (("it", it),))
        top = state.stack[-1][0]
        f.pc += 1
        state.frames.append(Frame("resolve", 0, {"responder": m.rival_of(responder)}))
        use_response(m, responder, card, number, it, top)
        return C.JUMPED
    if not subject:
        L.pop(store + "!", None)
        return None
    top = state.stack[-1][0] if state.stack else None
    options, names = response_options(m, responder, labels, it, top)
    if not options:
        L.pop(store + "!", None)
        return None
    return m.ask(f, responder, "respond", "respond or pass",
                 tuple(options) + (("pass",),), store, tuple(names) + ("pass",))


def compile_response(game, card, index: int, node, ability) -> None:
    """A response ability: pay its costs, then the card is used up (the
    kind's ``once used``), then its effect goes on the chain as a link."""
    from interpreter.compile import StepCompiler
    from interpreter.compile_game import _cost_checks_for_costs

    label, conditions, costs, resolution = node.args
    for c in conditions:
        if c.form != "if_":
            raise C.unsupported(c, f'the condition "{c.form}" on a response')
    checks = _cost_checks_for_costs(costs, game.rules)
    checks += [C.compile_condition(c.args[0]) for c in conditions]
    name = f"card:{card.name}:{index}"
    effect = C.Emitter(name + ":effect", ability.span)
    StepCompiler(effect, game).sentences(resolution)
    game.programs[name + ":effect"] = effect.finish()
    e = C.Emitter(name, ability.span)
    steps = StepCompiler(e, game)
    for cost in costs:
        steps.step(cost)
    e.emit(use_up)

    def push(m, f, program=name + ":effect"):
        subject = f.locals.get("_subject")
        m.push_entry(program, f.locals["this"], f.locals["you"],
                     (("this", f.locals["this"]), ("you", f.locals["you"]),
                      ("it", subject), ("responding_to", f.locals.get("responding_to")))
                     + after_use_locals(f),
                     responding_to=f.locals.get("responding_to"))
    e.emit(push)
    game.programs[name] = e.finish()
    timing = game.rules.timing(label)
    game.cued.setdefault(card.name, []).append(Cued(
        timing.label, name, lambda m, f: all(c(m, f) for c in checks), timing.response))


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
    from interpreter.compile import StepCompiler
    from interpreter.compile_game import _cost_checks_for_costs

    use = name + (":use" if outside else ":intent")
    effect = C.Emitter(use + ":effect", ability.span)
    StepCompiler(effect, game).sentences(resolution)
    game.programs[use + ":effect"] = effect.finish()
    gates = []
    once = None
    for c in conditions:
        if c.form == "if_":
            gates.append(C.compile_condition(c.args[0]))
        elif c.form == "once_per":
            once = _once_key(name, c.args[0])
            gates.append(lambda m, f, once=once: once(m, f) not in m.state.usage)
        else:
            raise C.unsupported(c, f'the condition "{c.form}" on a triggered ability '
                                "used from outside play")
    gates.extend(_cost_checks_for_costs(costs, game.rules))
    e = C.Emitter(use, ability.span)
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
    e.emit(lambda m, f: m.state.log.append(("activate", f.locals["you"], shown_label,
                                            f.locals["this"])))
    if once is not None:
        e.emit(lambda m, f: m.state.usage.__setitem__(once(m, f), 1))
    held = "_trigger_it"
    e.emit(lambda m, f: f.locals.__setitem__(held, f.locals.get("it")))
    for cost in costs:
        steps.step(cost)
    e.emit(lambda m, f: f.locals.__setitem__("it", f.locals.pop(held)))
    if outside:
        e.emit(use_up)

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


# ---------------------------------------------------------------- defending


def _values(m, card: int, stat: str) -> set:
    """The values a card has for a stat: printed (a list stat's entries,
    each possibly a set of alternatives, "Jump/Punch", counts as each) and
    those it counts as (``counts as``)."""
    value = m.definition(card).stat(stat)
    out: set = set()
    for entry in (value if isinstance(value, tuple) else (value,) if value else ()):
        out.update(entry if isinstance(entry, tuple) else (entry,))
    for modifier in m.state.modifiers:
        if modifier.target == card and modifier.kind == "value":
            out.add(modifier.name)
    return out


def defense_options(m, defender: int, attacker: int, keep: tuple = ()) -> list[tuple]:
    """Every legal defense: (), single defenders, pairs. With ``keep`` (the
    defenders still in combat), only the defenses made of them and cards
    from the hand, and () for none."""
    d = m.rules.defense
    forbidden = getattr(m, "forbidden", None)
    pool = [c for c in m.state.zones.get(
        (m.game.hand, defender) if d.source == "hand" else (d.source, defender), ())
        if m.is_kind(c, d.kind) and not (forbidden and forbidden(defender, "defend", c))]
    pool += [c for c in keep if c not in pool]
    wanted = _values(m, attacker, d.matching)
    match = {c: bool(_values(m, c, d.matching) & wanted) for c in pool}
    options: list[tuple] = [()]
    if not (d.double_only and m.has_keyword(attacker, d.double_only)):
        options += [(c,) for c in pool if match[c] or (
            d.single_keyword and m.has_keyword(c, d.single_keyword))]
    if d.double:
        # a pair reads in the order of the cards' names
        options += [tuple(sorted((a, b), key=lambda c: (m.state.cards[c].name, c)))
                    for a, b in combinations(pool, 2) if match[a] == match[b]]
    if keep:
        options = [()] + [o for o in options[1:] if set(keep) <= set(o)]
    return options


def defend_window(m, f, defender: int, selection, store: str):
    state = m.state
    attackers = selection.candidates(m, f)
    if not attackers:
        return None
    attacker = attackers[0]
    if store not in f.locals:
        waiting = before_window(m, f, store, "before defend", (attacker,), defender)
        if waiting is not None:
            return waiting
        attackers = selection.candidates(m, f)    # what resolved may have changed them
        if not attackers:
            f.locals.pop(store + "!", None)
            return None
        attacker = attackers[0]
    if store in f.locals:
        f.locals.pop(store + "!", None)
        answer = f.locals.pop(store)
        if not answer:
            state.log.append(("pass", defender))
            return None
        _defend_with(m, f, defender, attacker, answer)
        return None
    options = defense_options(m, defender, attacker)
    if len(options) == 1:
        f.locals.pop(store + "!", None)
        return None
    labels = ["take the damage"] + [
        "defend with " + " and ".join(m.card_label(c) for c in option)
        for option in options[1:]]
    return m.ask(f, defender, "defend", f"defend against {m.card_label(attacker)}",
                 tuple(options), store, tuple(labels))


def _defend_with(m, f, defender: int, attacker: int, cards: tuple,
                 again: bool = False) -> None:
    """Defenders go into combat (the rest of ``f.locals["_defense"]`` are
    already there); the attacker is defended: the event "defended", except
    when a defense is made again in the same combat (its "When defended"
    effects triggered with the first)."""
    d = m.rules.defense
    kept = f.locals.get("_defense", ())
    for card in cards:
        if card in kept:
            continue
        m.move(card, (d.into, defender), face_up=True)
        if d.status:
            m.set_status(card, d.status, True)
        m.set_status(card, "defender", True)
    f.locals["_defense"] = tuple(cards)
    if not m.has_status(attacker, "defended"):
        m.set_status(attacker, "defended", True)
    if not again:
        m.event("defended", attacker, defender)


def defend_again_window(m, f, defender: int, selection, store: str):
    """DEFENDING CARDS BEING REMOVED FROM COMBAT: when defenders of the
    defense the last ``may defend against`` made have left the combat zone,
    the defending player may complete the defense with cards from the hand
    (a legal defense that keeps the remaining ones), keep the remaining ones
    if they are still a legal defense, or else discard them (no defense)."""
    state = m.state
    d = m.rules.defense
    L = f.locals
    attackers = selection.candidates(m, f)
    made = L.get("_defense", ())
    if not attackers or not made:
        return None
    attacker = attackers[0]
    keep = tuple(c for c in made if state.cards[c].zone == (d.into, defender))
    if len(keep) == len(made):
        return None                     # no defender left the combat
    options = defense_options(m, defender, attacker, keep)
    valid = not keep or any(set(o) == set(keep) for o in options[1:])
    if valid and keep:
        options = [keep] + [o for o in options[1:] if set(o) != set(keep)]
    if store in L:
        answer = L.pop(store)
    elif len(options) == 1:
        answer = options[0]             # nothing to choose
    else:
        labels = ["keep defending with " + " and ".join(m.card_label(c) for c in keep)
                  if valid and keep else
                  "discard the defending cards" if keep else "take the damage"]
        labels += ["defend with " + " and ".join(m.card_label(c) for c in option)
                   for option in options[1:]]
        return m.ask(f, defender, "defend", f"defend again against {m.card_label(attacker)}",
                     tuple(options), store, tuple(labels))
    if keep and set(answer) == set(keep):
        L["_defense"] = keep                          # the defense stands
    elif not answer:
        for card in keep:                             # not a legal defense: dropped
            m.discard(card)
        L["_defense"] = ()
        if m.has_status(attacker, "defended"):
            m.set_status(attacker, "defended", False)
    else:
        _defend_with(m, f, defender, attacker, answer, again=True)
    return None


# ---------------------------------------------------------------- triggers


def compile_trigger_body(game, name: str, ability, conditions, costs, resolution,
                         timing) -> str:
    """A triggered ability's program: its "if" and "once per" conditions,
    its costs (the controller chooses to pay them, or the effect is skipped),
    then its resolution."""
    from interpreter.compile import StepCompiler
    from interpreter.compile_game import _cost_checks_for_costs

    e = C.Emitter(name, ability.span)
    steps = StepCompiler(e, game)
    end = e.label()
    once = None
    gates = []
    for c in conditions:
        if c.form == "if_":
            test = C.compile_condition(c.args[0])
            gates.append(test)
            e.jump_unless(test, end)
        elif c.form == "once_per":
            once = c.args[0]
    if once is not None:
        key = _once_key(name, once)
        gates.append(lambda m, f: key(m, f) not in m.state.usage)
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
        e.emit(lambda m, f: f.locals.__setitem__("it", f.locals.pop(held)))
    # the conditions and costs must be met for the effect to trigger at all
    game.trigger_gates[name] = lambda m, f: all(g(m, f) for g in gates)
    if once is not None:
        e.emit(lambda m, f: m.state.usage.__setitem__(key(m, f), 1))
    steps.sentences(resolution)
    e.place(end)
    game.programs[name] = e.finish()
    return name


def _once_key(name: str, period: str) -> Callable:
    """The once-per key of a triggered ability, the same as its card's
    activated ability (Machine.usage_key: per card name and player), so that
    an ability used as another timing shares one limit with it."""
    card = name.split(":")[1] if ":" in name else name
    return lambda m, f: f"{card}|{name.rsplit(':', 1)[-1]}|{f.locals['you']}|{period}|" \
                        f"{m.state.period_counts.get(period, 0)}"
