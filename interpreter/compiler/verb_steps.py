"""Game verbs in card text: a verb ("Mill 1") runs its definition from the
rules file, its slots filled with what the card says.
"""

from __future__ import annotations

import attrs

from interpreter.compiler.costs import _doable_checks
from interpreter.compiler.players import _nodes
from interpreter.compiler.program import JUMPED, suffix_words, unsupported
from interpreter.compiler.selectors import compile_amount, compile_selector
from interpreter.compiler.verb_slots import filled_resolution, use_slots
from interpreter.language import ast
from interpreter.language.game_rules import parse_ability
from interpreter.language.render import _verb_use
from interpreter.language.vocabulary import past_participle


class VerbSteps:
    """The StepCompiler's game verbs."""

    def announce(self, use: ast.VerbUse) -> None:
        """The event "before VERB" of the cards a game verb is done to (see
        ``_announced``); the verb is its pattern's first word."""
        # the cards it names outright ("the attacking card"), not those a
        # player is about to choose
        selections = [compile_selector(arg, lambda m, f: f.locals["you"])
                      for arg in use.args if isinstance(arg, ast.Selector)
                      and arg.form in _NAMED_OUTRIGHT]
        if not selections:
            return
        word = "before " + use.form.split()[0].lower()
        store = f"_before{len(self.e.program.instructions)}"
        self.e.emit(lambda m, f: _announced(m, f, word, selections, store))

    def card_verb(self, step: ast.Step) -> None:
        """ "Your Runner advances 1 Room": a game verb done by a card,
        by its controller ("you" in the definition); the event the verb
        counts as is that card's (and its controller's, "When you advance").
        Done once for each card the words name."""
        card, use, suffixes = step.args
        if suffixes:
            raise unsupported(suffixes[0], f'"{suffix_words(suffixes[0])}" '
                              "after a game verb")
        if any(isinstance(arg, ast.Selector) and arg.args and isinstance(
                arg.args[-1], ast.Qualifier) and arg.args[-1].form in ("unless_pays",
                                                                        "unless_does")
               for arg in use.args):
            raise unsupported(use, 'a tax ("unless ...") on a game verb a card does')
        self.select(card, lambda m, f: f.locals["you"])
        at = len(self.e.program.instructions)
        doers, saved = f"_doers{at}", f"_doer{at}"

        def keep(m, f):
            it = f.locals.get("it")
            f.locals[doers] = list(it) if isinstance(it, tuple) else (
                [] if it is None else [it])
            f.locals[saved] = f.locals.get("#doer")
        self.e.emit(keep)
        again, done = self.e.label(), self.e.label()
        self.e.place(again)

        def next_card(m, f):
            if not f.locals[doers]:
                return False
            f.locals["#doer"] = f.locals[doers].pop(0)
            return True
        self.e.jump_unless(next_card, done)
        self.as_player(lambda m, f: m.state.cards[f.locals["#doer"]].controller, use, False)
        self.e.jump(again)
        self.e.place(done)

        def restore(m, f):
            f.locals.pop(doers, None)
            f.locals["#doer"] = f.locals.pop(saved, None)
        self.e.emit(restore)

    def status_as_verb(self, step: ast.Step) -> ast.Step:
        """ "It is now paralysed" where the game declares "status paralysed:
        given by "Paralyse {card}"": the step is that verb, done to the
        cards the step names (the game's way of giving the status: how long
        it lasts, what it replaces). Inside that verb's own definition the
        status is given as written."""
        if step.form != "state_change":
            return step
        selector, statement, suffixes = step.args
        if statement.form != "becomes" or statement.args[0].form != "status":
            return step
        status = statement.args[0].args[0]
        verb = self.game.rules.status_givers.get(status.lower())
        if verb is None or verb in getattr(self, "_verbs_running", ()):
            return step
        if suffixes:
            written = verb.replace("{cards}", "...").replace("{card}", "...")
            raise unsupported(suffixes[0], f'"{status}" for a time of its own: the game gives '
                              f'it by "{verb}", which says how long it lasts',
                              suggestion=f'"{written}" (or "... is {status}") with no time '
                              'after it')
        return ast.Step("verb_step", (False, ast.VerbUse(verb, (selector,), statement.span), ()),
                        step.span)

    def verb(self, use: ast.VerbUse, optional: bool) -> None:
        """A game verb ("Mill 1") runs its definition from the rules
        file, its slots ({n}, {card}) filled with what the card says."""
        decl = next((v for v in self.game.rules.verbs if v.pattern.text == use.form), None)
        if decl is None or decl.definition is None:
            raise unsupported(use, f'the game verb "{use.form}" (it has no definition)')
        for index, (slot, arg) in enumerate(zip(use_slots(decl.pattern.text), use.args)):
            if slot == "{card}" and _names_each(arg):
                self._verb_for_each(use, index, optional)
                return
        depth = getattr(self, "_verb_depth", 0)
        if depth > 8:
            raise unsupported(use, f'the game verb "{use.form}" (it is defined in terms of itself)')
        definition = parse_ability(self.game.rules, decl.definition, self.game.rules.path,
                                   decl.definition_span)
        # "Allies with <BOLD> can't be Restricted": the verb is not done to
        # a card a "can't be VERBed" stops (not chosen; named: not done)
        done_to = _participles(decl.pattern.text)
        values = dict(zip(use_slots(decl.pattern.text),
                          (_that_can(arg, done_to) for arg in use.args)))
        filled = filled_resolution(definition, values, use)
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
        # "Your Rival can't advance this turn" / "This can't advance": the
        # verb is not done by that player, nor by that card
        word, barred = decl.pattern.leading_words.lower(), self.e.label()

        def may_do(m, f, word=word):
            if m.may_forbid(word) and m.barred(word, f.locals["you"], f.locals.get("#doer")):
                f.locals["did"] = False
                return False
            return True
        self.e.jump_unless(may_do, barred)
        skip = self.optional(lambda m, f: f.locals["you"], _verb_prompt(use)) if optional \
            else None
        replaced = self._replaced(use)
        self.announce(use)
        named = [compile_selector(arg, lambda m, f: f.locals["you"]) for arg in use.args
                 if isinstance(arg, ast.Selector) and arg.form in _NAMED_OUTRIGHT]
        if named and done_to:
            what = done_to[0]

            def allowed(m, f):
                if not m.may_forbid(what):
                    return True
                cards = [c for s in named for c in s.candidates(m, f)]
                if cards and all(m.forbidden(m.state.cards[c].controller, what, c)
                                 for c in cards):
                    for card in cards:
                        m.prevented(what, card)         # the log says why
                    f.locals["did"] = False
                    return False
                return True
            stopped = self.e.label()
            self.e.jump_unless(allowed, stopped)
        else:
            stopped = None
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
        # a step that ends the game says which verb's definition it is in
        outer_name, self._verb_name = getattr(self, "_verb_name", None), decl.pattern.text
        running = getattr(self, "_verbs_running", ())
        self._verbs_running = running + (decl.pattern.text,)
        # "..., then repeat this." in a verb's definition repeats the verb
        # from its start, not the text that uses the verb
        outer = getattr(self, "_repeat_from", None)
        # an "If ..., VERB. Otherwise, ..." around the verb is not answered by
        # an "if" inside its definition (as it is compiled, nor as it runs)
        had_if, saved_if = self._has_if, f"_if{len(self.e.program.instructions)}"
        self.e.emit(lambda m, f: f.locals.__setitem__(saved_if, f.locals.get("#if", True)))
        counted = decl.event is not None and any(
            slot in decl.pattern.text for slot in ("{card}", "{cards}"))
        if counted:
            # where the log stood: the verb counts as its event only for the
            # cards it acted on from here (``Machine.cards_acted_on``)
            since = f"_since{len(self.e.program.instructions)}"
            self.e.emit(lambda m, f: f.locals.__setitem__(since, len(m.state.log)))
        self._repeat_from = self.e.label()
        self.e.place(self._repeat_from)
        # a definition that is one "Choose one": its prompt is the verb
        outer_modal = self._modal_verb
        self._modal_verb = _modal_verb(use, filled)
        try:
            self.sentences(filled)
        finally:
            self._verb_depth = depth
            self._verb_name = outer_name
            self._verbs_running = running
            self._repeat_from = outer
            self._has_if = had_if
            self._modal_verb = outer_modal
        self.e.emit(lambda m, f: f.locals.__setitem__("#if", f.locals.pop(saved_if, True)))
        if roles:
            def after(m, f):
                kept = f.locals.pop(key, ())
                for card in list(m.in_play()):
                    for role in ("attacker", "defender"):
                        if card not in kept and role in m.state.cards[card].statuses:
                            m.set_status(card, role, False)
            self.e.emit(after)
        if decl.event is not None and not counted:
            # "counts as: advances" of a verb done to no card: the player's
            # event (and the card's that did it: "Your Character advances")
            self.e.emit(lambda m, f, event=decl.event: m.event(
                event, f.locals.get("#doer"), f.locals["you"]))
        elif decl.event is not None:
            # "counts as: sacrificed": the event of each card the verb acted on
            def counts(m, f, event=decl.event):
                it = f.locals.get("it")
                acted = m.cards_acted_on(f.locals.pop(since))
                for card in (it if isinstance(it, tuple) else (it,)):
                    if isinstance(card, int) and card in acted:
                        m.event(event, card, m.state.cards[card].owner)
            self.e.emit(counts)
        if stopped is not None:
            self.e.place(stopped)
        if replaced is not None:
            self.e.place(replaced)
        if skip is not None:
            self.e.place(skip)
        if cannot is not None:
            self.e.place(cannot)
        self.e.place(barred)

    def _verb_for_each(self, use: ast.VerbUse, index: int, optional: bool) -> None:
        """ "Fight with each attacking Creature" for a verb whose slot is one
        card ("Fight with {card}"): the verb is done once for each card, in
        the order the words list them, with "{card}" that card; a card that
        no longer fits the words when its turn comes is passed over."""
        arg = use.args[index]
        selection = compile_selector(arg, lambda m, f: f.locals["you"])
        key = f"_each{len(self.e.program.instructions)}"
        left = key + "*"

        # (tuples: a clone of the state shares its frames' values)
        def start(m, f):
            f.locals[left] = tuple(selection.candidates(m, f))
        self.e.emit(start)
        top, done = self.e.label(), self.e.label()
        self.e.place(top)

        def next_card(m, f):
            cards = f.locals[left]
            while cards:
                card, cards = cards[0], cards[1:]
                f.locals[left] = cards
                if card in selection.candidates(m, f):
                    f.locals[key] = (card,)
                    return True
            return False
        self.e.jump_unless(next_card, done)
        one = ast.Selector("bound", (key,), arg.span)
        self.verb(attrs.evolve(use, args=use.args[:index] + (one,) + use.args[index + 1:]),
                  optional)
        self.e.jump(top)
        self.e.place(done)

        def end(m, f):
            f.locals.pop(left, None)
            f.locals.pop(key, None)
        self.e.emit(end)

    def _replaced(self, use: ast.VerbUse) -> str | None:
        """In a game where some text replaces this verb ("If you would
        climb 1 Floor, ... instead"): a jump past the verb when a
        replacement takes its place (its program runs instead, "that much"
        the verb's number); the label to place after the verb, else None."""
        event = f"verb {use.form}"
        if event not in self.game.player_events_replaced:
            return None
        number = next((compile_amount(arg, use) for slot, arg in
                       zip(use_slots(use.form), use.args) if slot == "{n}"), None)
        done, doing = self.e.label(), self.e.program.name
        self.e.jump_unless(lambda m, f: not m.replaced_for_player(
            event, f.locals["you"], None if number is None else number(m, f), doing), done)
        return done


def _participles(pattern: str) -> tuple[str, ...]:
    """ "be restricted" for the verb "Restrict {card}": how a "can't"
    names what the verb does to a card (its first word, as a participle)."""
    word = pattern.split()[0].lower()
    if not word.isalpha():
        return ()
    return (f"be {past_participle(word)}",)


def _names_each(arg) -> bool:
    """Whether a verb's card slot is given every card of some words ("each
    attacking Creature", "all Creatures you control")."""
    return isinstance(arg, ast.Selector) and arg.form in ("some", "owned") and any(
        isinstance(a, ast.Quantity) and a.form in ("each", "all") for a in arg.args)


def _that_can(arg, done_to: tuple):
    """A card slot's selector that chooses ("a card your Rival controls"),
    with the cards a "can't be VERBed" stops left out."""
    if not done_to or not isinstance(arg, ast.Selector) or arg.form not in ("some", "owned"):
        return arg
    word = done_to[0][3:]
    return attrs.evolve(arg, args=arg.args + (ast.Qualifier("that_can", (word,), arg.span),))


_NAMED_OUTRIGHT = ("this", "it", "them", "that", "those", "the_attacking", "the_defending",
                   "current")


def _announced(m, f, word: str, selections, store: str):
    """Before a player does a game verb ("Defend against X"), the cards it is
    done to have the event "before VERB" for their "Before your Rival
    defends" abilities, and what triggers resolves first (JUMPED until it
    has)."""
    if word not in m.game.before_events:
        return None
    cards = tuple(dict.fromkeys(c for s in selections for c in s.candidates(m, f)))
    if m.before_window(f, store, word, cards, f.locals["you"]) is None:
        f.locals.pop(store + "!", None)
        return None
    return JUMPED


def _gives_roles(sentences) -> bool:
    """Whether a verb's steps make a card attacking or defending ("it is
    attacking"): roles that end when the verb is done."""
    return any(isinstance(n, ast.State) and n.form in ("attacking", "defending")
               for n in _nodes(tuple(sentences)))


def _modal_verb(use: ast.VerbUse, sentences):
    """(the verb's use, its card slots' selections by slot number) when its
    whole definition is one "Choose one", else None."""
    if len(sentences) != 1 or len(sentences[0].args) != 1:
        return None
    step = sentences[0].args[0].args[0]
    if not (isinstance(step, ast.Step) and step.form == "choose_mode"):
        return None
    return use, {i: compile_selector(arg, lambda m, f: f.locals["you"])
                 for i, arg in enumerate(use.args) if isinstance(arg, ast.Selector)}


def _verb_prompt(use: ast.VerbUse) -> str:
    return _verb_use(use)
