"""The step compiler: sentences of card text or of a rules procedure into
an Emitter's program.

:class:`StepCompiler` reads sentences, their conditions and steps: who acts
(each player in turn, "your opponent" when there are several), "may",
"for each", and the selecting of cards every step starts with; each action
of a step is compiled by its ``do_ACTION`` method, grouped by theme in the
step mixins (``moving_steps``, ``changing_steps``, ``window_steps``,
``verb_steps``, ``combat_steps``, ``mode_steps``, ``replacing``,
``repeating_steps``).
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.changing_steps import ChangingSteps
from interpreter.compiler.chosen_first import cards_to_choose_in_numbers, choose_first
from interpreter.compiler.combat_steps import CombatSteps
from interpreter.compiler.conditions import compile_condition, named_card, player_set
from interpreter.compiler.costs import _cost_checks_for_costs
from interpreter.compiler.frames import cards_held, did_all
from interpreter.compiler.later_steps import LaterSteps
from interpreter.compiler.mode_steps import ModeSteps
from interpreter.compiler.modifiers import (JOINED_ONLY, compile_lasting,
                                           joined_stat_changes, register_capability)
from interpreter.compiler.moving_steps import MovingSteps
from interpreter.compiler.players import compile_player, mentions_opponent, player_target
from interpreter.compiler.program import JUMPED, Emitter, suffix_words, unsupported
from interpreter.compiler.repeating_steps import RepeatingSteps
from interpreter.compiler.replacing import ReplacingSteps
from interpreter.compiler.named_numbers import naming, reading_chosen
from interpreter.compiler.selectors import (chooser_named, compile_amount, compile_measure,
                                           compile_selector, compile_zone)
from interpreter.compiler.verb_steps import VerbSteps
from interpreter.compiler.window_steps import WindowSteps
from interpreter.language import ast
from interpreter.language.render import _action, _amount as _amount_text, _condition, _item


class StepCompiler(MovingSteps, ChangingSteps, WindowSteps, VerbSteps, CombatSteps,
                   ModeSteps, ReplacingSteps, RepeatingSteps, LaterSteps):
    """Compiles sentences of card text or of a rules procedure into an
    Emitter's program."""

    def __init__(self, emitter: Emitter, game):
        self.e = emitter
        self.game = game          # the CompiledGame: zone roles, programs
        self.in_setup = False     # compiling the game's setup lines
        self._acting = None       # the action of the step being compiled

    # ---- sentences

    def sentences(self, sentences) -> None:
        with self.counting_cards(sentences):
            for sentence in sentences:
                self.sentence(sentence)

    # "Otherwise" reads whether the "if" of the sentence before held; a
    # sentence without an "if" leaves nothing for an "otherwise" to answer
    _has_if = False

    def sentence(self, sentence: ast.Sentence) -> None:
        sentence = joined_stat_changes(sentence)
        end = self.e.label()
        # "then": the next part happens only if this one did, except in card
        # text of a game whose card effects resolve "as much as you can"
        waits = not (self.game.rules.as_much_as_you_can and
                     self.e.program.name.startswith("card:"))
        if sentence.form == "then" and waits:
            self.e.jump_unless(lambda m, f: f.locals.get("did", True), end)
        links = list(sentence.args)
        where = [link.args[0] for link in links if isinstance(link.args[0], ast.Modifier)
                 and link.args[0].form == "where_x"]
        if where:
            # "..., where X is the number of cards in your hand": X is read
            # once, as the sentence starts, and named for its steps
            links = [link for link in links if link.args[0] is not where[0]]
            measure = compile_measure(where[0].args[0])

            def name_x(m, f):
                f.locals["X"] = measure(m, f)
            self.e.emit(name_x)
            with naming("X"):
                self._links(links, end, waits)
        else:
            self._links(links, end, waits)
        self.e.place(end)

    def _links(self, links, end: str, waits: bool) -> None:
        after_if, self._has_if = self._has_if, False
        subject = None
        for index, link in enumerate(links):
            item = link.args[0]
            if isinstance(item, ast.Step):
                item, subject = ast.with_subject(item, subject)
            if isinstance(item, ast.Condition) and item.form in (
                    "next_time", "next_time_event", "next_time_player"):
                # "The next time ... would ..., ... instead": a replacement that waits
                self.next_time(item, ast.Sentence("plain", tuple(links[index:]),
                                                  link.span), links[index + 1:])
                break
            if isinstance(item, ast.Condition) and item.form == "for_duration":
                # "This turn, if ... would ..., ... instead": a replacement that lasts
                self.lasting(item, ast.Sentence("plain", tuple(links[index:]), link.span),
                             links[index + 1:])
                break
            if isinstance(item, ast.Condition) and item.form == "for_each":
                # "For each Creature you control, draw a card": the rest, that many times
                self.repeat_links(item, links[index + 1:], end, waits)
                break
            if isinstance(item, ast.Condition) and item.form == "during":
                # "During your Rival's next turn, the defending creature can't
                # retreat": the cards now, the change theirs for that period
                self.during(item, links[index + 1:])
                break
            if isinstance(item, ast.Condition) and item.form in ("at_start", "at_end"):
                # "When this is played: At the end of the turn, draw a card.":
                # the rest of the sentence is left for that moment
                self.later(item, links[index + 1:])
                break
            if isinstance(item, ast.Condition) and item.form == "otherwise":
                if index != 0 or not after_if:
                    raise unsupported(item, '"otherwise" not at the start of the sentence '
                                      'after an "if"')
                self.e.jump_unless(lambda m, f: not f.locals.get("#if", True), end)
                continue
            if link.form == "then" and waits:
                self.e.jump_unless(lambda m, f: f.locals.get("did", True), end)
            if isinstance(item, ast.Condition):
                self.condition_item(item, end)
            elif isinstance(item, ast.Step):
                # "Play it, paying all costs": the step knows of its modifier
                after = links[index + 1].args[0] if index + 1 < len(links) else None
                self._paying = isinstance(after, ast.Modifier) and \
                    after.form == "paying_all_costs"
                try:
                    self.counted_step(item)
                finally:
                    self._paying = False
            elif isinstance(item, ast.Modifier) and item.form in ("paying_all_costs",):
                continue
            elif isinstance(item, ast.Modifier) and item.form in JOINED_ONLY:
                raise unsupported(item, JOINED_ONLY[item.form])
            elif isinstance(item, ast.Modifier) and item.form == "without_paying" and \
                    index > 0 and isinstance(links[index - 1].args[0], ast.Step) and \
                    links[index - 1].args[0].form == "act" and \
                    links[index - 1].args[0].args[2].form == "play":
                continue          # playing a card is without its cost already
            else:
                raise unsupported(item, f'"{item.form.replace("_", " ")}"')

    def condition_item(self, item: ast.Condition, end: str) -> None:
        if item.form == "if_":
            test = compile_condition(item.args[0])
            named = named_card(item.args[0])

            def holds(m, f):
                # "If it is an Action, you may discard it. If you do, ...": when
                # the condition fails, the steps it guards did not happen
                f.locals["#if"] = test(m, f)
                if f.locals["#if"]:
                    if named is not None:
                        # "If the defending creature is asleep, deal 30 damage
                        # to it": "it" is the card the condition is about
                        cards = named.candidates(m, f)
                        if len(cards) == 1:
                            f.locals["it"] = cards[0]
                    return True
                f.locals["did"] = False
                return False
            self.e.jump_unless(holds, end)
            self._has_if = True
            return
        raise unsupported(item, 'a step joined to "If ..." by "and" (write "If A, if B, ...")'
                          if item.form == "unread_and" else
                          f'"{_condition(item)}" inside an effect')

    # ---- steps

    def only_if(self, step: ast.Step) -> None:
        """ "Destroy the attacking Being if it has 50 or less AP": the step
        only if its condition holds, "it" in the condition being the step's
        object (a card named outright: "the", "this", "it")."""
        subject, optional, action, suffixes = step.args
        condition = next(s for s in suffixes if s.form == "if_suffix")
        rest = tuple(s for s in suffixes if s is not condition)
        target = action.args[0] if action.args and isinstance(action.args[0], ast.Selector) \
            else None
        selection = compile_selector(target, compile_player(subject)) if target else None
        if selection is None or not selection.given:
            raise unsupported(condition, '"if" after a step whose object is not a card '
                              'named outright ("Destroy the attacking Being if ...")')
        test = compile_condition(condition.args[0])
        skip = self.e.label()

        def holds(m, f):
            cards = selection.candidates(m, f)
            f.locals["it"] = cards[0] if len(cards) == 1 else tuple(cards)
            f.locals["did"] = bool(cards) and test(m, f)
            return f.locals["did"]
        self.e.jump_unless(holds, skip)
        self.step(attrs.evolve(step, args=(subject, optional, action, rest)))
        self.e.place(skip)

    def step(self, step: ast.Step) -> None:
        # a card chosen in a step is asked for with what the step does to it
        acting, self._acting = self._acting, step.args[2] if step.form == "act" else self._acting
        step = self.status_as_verb(step)
        try:
            self._step(step)
        finally:
            self._acting = acting

    def _step(self, step: ast.Step) -> None:
        if self.later_step(step):
            return
        times = _times(step)
        if times is not None:
            self.repeat_times(step, times)
            return
        if self.game.rules.players_max > 2 and self._opponent_outside_picks(step):
            self.choose_opponent()
        if step.form in ("act", "player_verb_step") and isinstance(step.args[0], ast.Player) \
                and step.args[0].form == "any_player":
            # "A player draws a card", "Target player loses 2 Life": the
            # acting player chooses one, who does the step ("they" after it)
            self.do_choose_player(None, compile_player(None))
            self._step(attrs.evolve(step, args=(
                attrs.evolve(step.args[0], form="that_player"),) + step.args[1:]))
            return
        if step.form == "act" and any(s.form == "if_suffix" for s in step.args[3]):
            self.only_if(step)
            return
        if step.form == "act":
            subject, optional, action, suffixes = step.args
            # "their" in a step no player is written doing is the cards'
            # owner's ("Send the top card of your Rival's deck to their void")
            self._no_subject = subject is None
            untaxed, tax = _without_tax(action)
            if tax is not None:
                self.taxed(attrs.evolve(step, args=(subject, optional, untaxed, suffixes)), tax)
                return
            if any(s.form == "for_free" for s in suffixes):
                # playing a card is without its cost ("for free") unless the
                # text says "paying all costs"
                if action.form != "play":
                    raise unsupported(step, '"for free" on a step other than playing a card')
                suffixes = tuple(s for s in suffixes if s.form != "for_free")
            ways = {s.form for s in suffixes
                    if s.form in ("one_at_a_time", "quietly", "in_any_order")}
            if "in_any_order" in ways and action.form not in ("move", "put", "put_back",
                                                               "return", "return_joined"):
                raise unsupported(step, '"in any order" on a step other than moving cards')
            if any(s.form == "rest_to" for s in suffixes) and \
                    action.form not in ("deal", "deal_measured"):
                raise unsupported(step, '"and the rest to" on a step other than dealing '
                                  "damage to a card")
            self._suffixes = tuple(s for s in suffixes if s.form in ("excess_to", "rest_to") or (
                s.form == "lasting" and action.form in ("nullify", "gain_control")))
            repeat = [s for s in suffixes if s.form == "for_each_suffix"]
            # "... one at a time while there are 3 or more Rooms in the Room
            # Row": card by card, the condition checked before each
            holding = [s for s in suffixes if s.form == "while_suffix"]
            others = [s for s in suffixes if s.form not in ways and s not in self._suffixes
                      and s not in repeat and s not in holding]
            if others:
                raise unsupported(others[0], "a step that lasts or repeats")
            if holding and action.form not in ("move", "put", "return", "add"):
                raise unsupported(holding[0], 'a step other than moving cards done "while ..."')
            self._while = compile_condition(holding[0].args[0]) if holding else None
            if repeat:
                self.repeat_for_each(step, repeat[0])
                return
            self._ways = ways
            try:
                if subject is not None and subject.form in ("each_player", "each_rival"):
                    # "Each opponent discards a card": every opponent, in turn
                    self.for_each_player(lambda who: self.action(action, who, optional),
                                         opponents=subject.form == "each_rival")
                elif subject is not None and subject.form in _PLAYER_SETS:
                    self.for_each_player(lambda who: self.action(action, who, optional),
                                         among=player_set(subject))
                elif subject is not None and subject.form in ("most_counter", "next_player"):
                    # "The player with the most Points ...": no one on a tie
                    # (and then no "next player" after them either)
                    who = compile_player(subject)
                    skip = self.e.label()

                    def anyone(m, f):
                        f.locals["they"] = who(m, f)
                        f.locals["did"] = f.locals["they"] is not None
                        return f.locals["did"]
                    self.e.jump_unless(anyone, skip)
                    self.action(action, lambda m, f: f.locals["they"], optional)
                    self.e.place(skip)
                elif subject is not None and subject.form in ("owner", "controller"):
                    self.each_card_player(subject, action, optional)
                else:
                    self.action(action, compile_player(subject), optional,
                                names_they=subject is not None)
            finally:
                self._ways = set()
                self._while = None
            return
        if step.form in ("verb_step", "player_verb_step"):
            untaxed, tax = _without_tax(step.args[-2])
            if tax is not None:
                self.taxed(attrs.evolve(step, args=step.args[:-2] + (untaxed, step.args[-1])),
                           tax)
                return
        if step.form == "player_verb_step":
            subject, optional, use, suffixes = step.args
            if suffixes:
                raise unsupported(suffixes[0], f'"{suffix_words(suffixes[0])}" '
                                  "after a game verb")
            if subject.form in ("each_player", "each_rival"):
                self.for_each_player(lambda who: self.as_player(who, use, optional),
                                     opponents=subject.form == "each_rival")
            elif subject.form in _PLAYER_SETS:
                self.for_each_player(lambda who: self.as_player(who, use, optional),
                                     among=player_set(subject))
            else:
                self.as_player(compile_player(subject), use, optional)
            return
        if step.form in _COMPILED_BY:
            getattr(self, _COMPILED_BY[step.form])(step)
            return
        if step.form == "verb_step":
            optional, use, suffixes = step.args
            if suffixes:
                raise unsupported(suffixes[0], f'"{suffix_words(suffixes[0])}" '
                                  "after a game verb")
            self.verb(use, optional)
            return
        raise unsupported(step, f'"{step.form.replace("_", " ")}"')

    # ---- "your opponent" with several opponents

    @staticmethod
    def _opponent_outside_picks(step: ast.Step) -> bool:
        """Whether a step names "your opponent" where a player, not a card
        picked, decides who it is ("Your opponent draws", "for each Character
        your opponent controls", "each Character your opponent controls"):
        then the acting player chooses the opponent first. A card picked
        among an opponent's ("Exhaust a Character your opponent controls")
        may be any opponent's: picking it chooses the opponent."""
        if not mentions_opponent(step.args):
            return False
        if step.form != "act":
            return True
        subject, _optional, action, suffixes = step.args
        picks = [a for a in action.args if isinstance(a, ast.Selector) and _picks_one(a)]
        others = tuple(a for a in action.args if not any(a is p for p in picks))
        return mentions_opponent(subject, others, suffixes)

    def choose_opponent(self) -> None:
        """The acting player chooses which opponent "your opponent" is for
        the rest of this effect, when several are in the game and none is
        chosen yet (no decision with a single opponent)."""
        store = f"_opp{len(self.e.program.instructions)}"

        def choose(m, f):
            you = f.locals["you"]
            if store in f.locals:
                f.locals["#opponent"] = (you, f.locals.pop(store))
                return None
            if m.chosen_opponent(f) is not None:
                return None
            opponents = m.opponents(you)
            if len(opponents) <= 1:
                return None
            return m.ask(f, you, "choose", "choose an opponent", tuple(opponents), store,
                         tuple(f"player {p + 1}" for p in opponents))
        self.e.emit(choose)

    def as_player(self, who: Callable, use: ast.VerbUse, optional: bool) -> None:
        """A game verb done by another player: "you" in its definition is
        that player while it runs."""
        saved = f"_you{len(self.e.program.instructions)}"

        def become(m, f):
            f.locals[saved] = f.locals["you"]
            f.locals["you"] = who(m, f)
        self.e.emit(become)
        self.verb(use, optional)

        def restore(m, f):
            f.locals["you"] = f.locals.pop(saved)
        self.e.emit(restore)

    def player_cannot(self, step: ast.Step) -> None:
        """"You can't attack this turn": a prohibition on a player, kept as a
        modifier whose target is the player (``player_target``)."""
        player, capability, *suffixes = step.args
        name = register_capability(self.game, capability)
        until = compile_lasting(suffixes)
        who = compile_player(player)

        def forbid(m, f):
            m.add_modifier(player_target(who(m, f)), "cannot", name, 1,
                           f.locals.get("this"), until(m, f))
        self.e.emit(forbid)

    def each_card_player(self, subject: ast.Player, action: ast.Action, optional: bool) -> None:
        """ "Destroy each Creature with 2 or less power. Its controller gains
        1 life.": with "it" several cards, the step is done once for each of
        them, "it" that card and the player its owner (or controller)."""
        at = len(self.e.program.instructions)
        left, kept = f"_cards{at}", f"_it{at}"
        again, done = self.e.label(), self.e.label()

        def start(m, f):
            it = f.locals.get("it")
            several = isinstance(it, tuple) and len(it) > 1
            # (one card: "it" after the step is what the step left, as ever)
            f.locals[kept] = (it,) if several else ()
            f.locals[left] = tuple(it) if several else (it,)
        self.e.emit(start)
        self.e.place(again)

        def next_card(m, f):
            if not f.locals[left]:
                return False
            f.locals["it"], f.locals[left] = f.locals[left][0], f.locals[left][1:]
            return True
        self.e.jump_unless(next_card, done)
        self.action(action, compile_player(subject), optional)
        self.e.jump(again)
        self.e.place(done)

        def restore(m, f):
            f.locals.pop(left, None)
            before = f.locals.pop(kept, ())
            if before:
                f.locals["it"] = before[0]
        self.e.emit(restore)

    def for_each_player(self, body: Callable, opponents: bool = False,
                        among: Callable | None = None) -> None:
        """Run ``body`` once per player, the turn player first (with
        ``opponents``, once per opponent of the acting player; with
        ``among``, once per player of the set it gives as the step starts,
        kept as "those players" for the steps after it in the sentence)."""
        index = f"_each{len(self.e.program.instructions)}"
        top, done, advancing = self.e.label(), self.e.label(), self.e.label()
        players = (lambda m, f: m.seat_order()) if among is None else \
            (lambda m, f: f.locals["#those"])

        def start(m, f):
            f.locals[index] = 0
            # "they" is each player in turn here only: what it was before
            # comes back after the loop ("Each player draws 3 cards. The next
            # player draws a card.": the player after "you", not the last one)
            f.locals[index + "t"] = (f.locals["they"],) if "they" in f.locals else ()
            if among is not None:
                f.locals["#those"] = among(m, f)
        self.e.emit_local(start)
        self.e.place(top)
        # players out of the game have no turn in "each player"
        self.e.jump_unless(lambda m, f: f.locals[index] < len(players(m, f)), done)

        def bind(m, f):
            f.locals["they"] = players(m, f)[f.locals[index]]
        self.e.emit_local(bind)
        if opponents:
            self.e.jump_unless(lambda m, f: f.locals["they"] != f.locals["you"], advancing)
        body(lambda m, f: f.locals["they"])
        self.e.place(advancing)

        def advance(m, f):
            f.locals[index] += 1
        self.e.emit_local(advance)
        self.e.jump(top)
        self.e.place(done)

        def unbind(m, f):
            before = f.locals.pop(index + "t", ())
            if before:
                f.locals["they"] = before[0]
            else:
                f.locals.pop("they", None)
        self.e.emit_local(unbind)

    def taxed(self, step: ast.Step, tax: ast.Qualifier) -> None:
        """ "Your Rival discards a card unless they pay 2 Mana" / "Deal 50
        damage to a Being unless your Rival discards a card": the player
        named may pay (or do the step), if they can; then the step does not
        happen (and "if you do" after it reads false)."""
        who = tax.args[0]
        subject = step.args[0] if step.form in ("act", "player_verb_step") else None
        if who.form in ("owner", "controller"):
            # "Destroy a Character your opponent controls unless its
            # controller mills 3": the card is chosen first, then its controller asked
            step = self._object_chosen_first(step, subject)
        payer = compile_player(subject) if who.form == "that_player" else compile_player(who)
        if tax.form == "unless_pays":
            amount, counter = tax.args[1:]
            need = compile_amount(amount, tax)
            paying = ast.Step("act", (None, False, ast.Action("pay", (amount, counter),
                                                                tax.span), ()), tax.span)

            def can(m, f, player):
                return m.can_pay(player, counter, need(m, f))
            words = f"pay {_amount_text(amount)} {counter}"
        else:
            paying = tax.args[1]
            paying = ast.Step("verb_step", (False, paying, ()), tax.span) \
                if isinstance(paying, ast.VerbUse) else \
                ast.Step("act", (None, False, paying, ()), tax.span)
            checks = _cost_checks_for_costs([paying], self.game.rules)

            def can(m, f, player):
                saved = f.locals["you"]
                f.locals["you"] = player         # the checks read "you": the payer
                try:
                    return all(check(m, f) for check in checks)
                finally:
                    f.locals["you"] = saved
            words = _item(paying)
            words = words[:1].lower() + words[1:]
        store = f"_tax{len(self.e.program.instructions)}"
        prompt = f"{words} so that this does not happen: " + _item(step)
        pay, done = self.e.label(), self.e.label()

        def ask(m, f):
            if store in f.locals:
                return None
            player = payer(m, f)
            if player is None or not can(m, f, player):
                f.locals[store] = False         # they cannot: no question
                return None
            return m.ask(f, player, "yes-no", prompt, (True, False), store, ("yes", "no"))
        self.e.emit(ask)
        self.e.jump_unless(lambda m, f: not f.locals.pop(store), pay)
        self.step(step)
        self.e.jump(done)
        self.e.place(pay)
        # done as the step itself is ("pay N COUNTER": cost changes, "can't
        # pay" and replacements of paying apply); the taxed step did not happen
        if paying.form == "verb_step":
            self.as_player(payer, paying.args[1], False)
        else:
            self.action(paying.args[2], payer, False)
        self.e.emit(lambda m, f: f.locals.__setitem__("did", False))
        self.e.place(done)

    def _object_chosen_first(self, step: ast.Step, subject) -> ast.Step:
        """Choose the object of a taxed step now (it becomes "it") and return
        the step done to "it"."""
        use = step.args[-2]
        index = next((i for i, arg in enumerate(use.args) if isinstance(arg, ast.Selector)),
                     None)
        if index is None:
            raise unsupported(step, '"unless its owner / controller ..." on a step with no card')
        actor = compile_player(subject) if subject is not None else \
            (lambda m, f: f.locals["you"])
        self.select(use.args[index], actor)
        it = ast.Selector("it", (), use.args[index].span)
        use = attrs.evolve(use, args=use.args[:index] + (it,) + use.args[index + 1:])
        return attrs.evolve(step, args=step.args[:-2] + (use, step.args[-1]))

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

    def action(self, action: ast.Action, who: Callable, optional: bool,
               names_they: bool = True) -> None:
        # who does the step is read once, as it starts: "their Rival gains
        # ..." must not be read again once "they" is that Rival
        actor = f"_who{len(self.e.program.instructions)}"
        named = who

        def bind_they(m, f):
            # "they", "their": the player doing this step
            f.locals["they"] = f.locals[actor] = named(m, f)

        def keep_they(m, f):
            # a step of yours with no player written ("Deal 2 damage to that
            # player", "Look at their hand"): "they" is still the player
            # named before it, if any, never you by default
            f.locals[actor] = named(m, f)
            f.locals.setdefault("they", f.locals[actor])
        self.e.emit_local(bind_they if names_they else keep_they)
        who = (lambda m, f: f.locals[actor])
        skip = self.optional(who, _prompt(action)) \
            if optional and action.form not in self.ASKS_ITSELF else None
        handler = getattr(self, "do_" + action.form, None)
        if handler is None:
            raise unsupported(action, f'"{action.form.replace("_", " ")}"')
        # "... equal to target Creature's power ...": that card is chosen first
        found = cards_to_choose_in_numbers(action, who)
        with reading_chosen(choose_first(self, found, who) if found else {}):
            handler(action, who)
        if skip is not None:
            self.e.place(skip)

    # ---- selecting cards

    def select(self, selector, who: Callable, chooser: Callable | None = None,
               prompt: str = "choose a card", default_zone: Callable | None = None) -> None:
        """Set ``it`` to the cards the selector picks (asking if needed)."""
        if isinstance(selector, ast.Selector) and selector.form == "joined":
            # "Destroy a Creature and the Relic Bonded to it": the first
            # part's cards are picked, then the second's ("it" the first's),
            # and the step is done to them all
            first = f"_first{len(self.e.program.instructions)}"
            self.select(selector.args[0], who, chooser, prompt, default_zone)
            self.e.emit(lambda m, f: f.locals.__setitem__(first, cards_held(f.locals.get("it"))))
            self.select(selector.args[1], who, chooser, prompt, default_zone)

            def together(m, f):
                cards = f.locals.pop(first)
                cards += tuple(c for c in cards_held(f.locals.get("it")) if c not in cards)
                f.locals["it"] = cards
            self.e.emit(together)
            return
        selection = compile_selector(selector, who, default_zone)
        if prompt == "choose a card" and self._acting is not None:
            doing = _action(self._acting, None)      # "choose 1 of them" as it is
            prompt = doing if doing.startswith("choose ") else f"choose a card to {doing}"
        if isinstance(selector, ast.Selector) and selector.form in (
                "the_attacking", "the_defending") and selector.args[0].form == "kind" and \
                self.game.rules.kind(selector.args[0].args[0]) is not None:
            # "the defending Ally" (a kind in the singular) while two defend:
            # the effect's controller picks one of them
            selection = attrs.evolve(selection, how="one", given=False)
        named = chooser_named(selector)
        if named is not None:
            # "Your Rival discards a card of your choice": you pick it
            chooser = (lambda m, f: f.locals["you"]) if named == "you" else who
        chooser = chooser or (lambda m, f: f.locals["you"])
        store = f"_pick{len(self.e.program.instructions)}"

        def pick(m, f):
            return m.pick(f, selection, chooser(m, f), prompt, store)
        self.e.emit(pick)
        if self.game.rules.players_max > 2 and isinstance(selector, ast.Selector) and \
                mentions_opponent(selector):
            # a card picked among an opponent's: that opponent is "your
            # opponent" for the rest of the effect
            def bind(m, f):
                it = f.locals.get("it")
                you = f.locals["you"]
                if isinstance(it, int) and m.chosen_opponent(f) is None and \
                        m.state.cards[it].controller != you:
                    f.locals["#opponent"] = (you, m.state.cards[it].controller)
            self.e.emit_local(bind)

    def each_chosen(self, body: Callable) -> None:
        """Run ``body(card)`` on each chosen card (``it``); did = any, and
        all the step asked for ("Discard 2 cards" with one card in hand is
        not done: "If you do" does not hold). "without triggering
        abilities": the zone events of the moves are not fired."""
        quiet = "quietly" in getattr(self, "_ways", ())

        def run(m, f):
            it = f.locals.get("it")
            cards = it if isinstance(it, tuple) else ((it,) if it is not None else ())
            m.quiet = quiet
            try:
                for card in cards:
                    body(m, f, card)
            finally:
                m.quiet = False
            m.shuffle_touched()
            f.locals["did"] = did_all(f, cards)
        self.e.emit(run)

    def one_at_a_time(self, selector, who: Callable, body: Callable,
                      holds: Callable | None = None) -> None:
        """"Move the top 3 cards of your deck ... one at a time": one card per
        run of the instruction, so that what the move triggers resolves
        before the next card is taken. The cards are looked for again each
        time (the top card may have changed). A pile declared "a player who
        needs a card from it when it is empty loses" makes its player lose
        when it runs out before the count is reached. ``holds`` ("while
        ..."): the condition checked before each card; the step stops when
        it fails."""
        selection = compile_selector(selector, who)
        quiet = "quietly" in getattr(self, "_ways", ())
        store = f"_one{len(self.e.program.instructions)}"
        if selector.form in ("top_cards", "bottom_cards"):
            count = selector.args[0] if len(selector.args) == 2 else 1
            required = compile_amount(count, selector)
            zone = compile_zone(selector.args[-1], who)
        else:
            required = lambda m, f: len(selection.candidates(m, f))  # noqa: E731
            zone = None

        def step(m, f):
            locals_ = f.locals
            if store not in locals_:
                locals_[store] = (required(m, f), 0)
            remaining, done = locals_[store]
            if remaining <= 0 or (holds is not None and not holds(m, f)):
                del locals_[store]
                f.locals["did"] = done > 0
                return None
            candidates = selection.candidates(m, f)
            if not candidates:
                del locals_[store]
                f.locals["did"] = False
                if zone is not None:
                    m.needed_card_from(zone(m, f))
                return None
            m.quiet = quiet
            try:
                body(m, f, candidates[0])
            finally:
                m.quiet = False
            if remaining == 1:
                m.shuffle_touched()
            locals_[store] = (remaining - 1, done + 1)
            return JUMPED
        self.e.emit(step)


def _picks_one(selector: ast.Selector) -> bool:
    """A selector a player picks one card with ("a Character"), not several
    ("up to 2 Characters": they would have to be one opponent's) nor every
    card it describes ("each")."""
    if selector.form != "some" or not selector.args:
        return False
    return selector.args[0].form in ("one", "another")


def _prompt(action: ast.Action) -> str:
    try:
        return _action(action, None)
    except Exception:  # a prompt is only for reading
        return action.form.replace("_", " ")


# the steps of these forms, each compiled by the StepCompiler's method named
_COMPILED_BY = {
    "card_verb_step": "card_verb", "state_change": "state_change",
    "choose_mode": "choose_mode", "each_other": "each_other",
    "player_cannot": "player_cannot", "player_damage_prevented": "player_damage_prevented",
    "combat_damage_prevented": "combat_damage_prevented",
    "controls_copy": "controls_copy", "counters_prevented": "counters_prevented",
    "next_effect_prevented": "next_effect_prevented", "double_stat": "double_stat",
    "player_change": "player_change",
}


def _times(step: ast.Step):
    """The "N times" suffix of a step, if it has one."""
    if step.form in ("act", "state_change", "verb_step", "player_verb_step"):
        for suffix in step.args[-1]:
            if suffix.form == "times_suffix":
                return suffix
    return None


# subjects that are several players, worked out as the step starts
_PLAYER_SETS = ast.PLAYER_SETS


def _without_tax(action):
    """The action (or a game verb's use) without an "unless PLAYER pays N
    COUNTER" / "unless PLAYER does STEP" after its object, and that tax (or
    None)."""
    for index, arg in enumerate(action.args):
        if isinstance(arg, ast.Qualifier) and arg.form in ("unless_pays", "unless_does"):
            # "Draw a card unless ...": the tax of a step that names no card
            return attrs.evolve(action, args=action.args[:index] + action.args[index + 1:]), arg
        if isinstance(arg, ast.Selector) and arg.args and \
                isinstance(arg.args[-1], ast.Qualifier) and \
                arg.args[-1].form in ("unless_pays", "unless_does"):
            untaxed = attrs.evolve(arg, args=arg.args[:-1])
            args = action.args[:index] + (untaxed,) + action.args[index + 1:]
            return attrs.evolve(action, args=args), arg.args[-1]
    return action, None


