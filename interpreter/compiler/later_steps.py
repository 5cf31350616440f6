"""Steps an effect leaves for later: "At the end of the turn, draw a card"
(the rest of the sentence, run once when that edge of the period comes) and
"During your Rival's next turn, the defending creature can't retreat" (the
cards named now; the change theirs from the start of that period to its
end). The machine keeps what waits in the state (``GameState.delayed``) and
runs it as a triggered ability of the card whose effect it was
(``Triggers.delayed_steps``).
"""

from __future__ import annotations

import attrs

from interpreter.compiler.modifiers import compile_duration
from interpreter.compiler.program import Emitter, unsupported
from interpreter.compiler.selectors import compile_selector
from interpreter.language import ast


class LaterSteps:
    """The part of ``StepCompiler`` that leaves steps for a moment to come."""

    __slots__ = ()

    def later(self, moment: ast.Condition, links) -> None:
        """Steps an effect leaves for a moment to come ("At the end of the
        turn", "At the start of your next turn"): compiled as a program of
        their own, which the machine runs once when that edge of the period
        comes (``Triggers.delayed_steps``), as the card's controller, with
        the card and "it" as they are now (a card of "it" that moves before
        then is no longer it)."""
        if not links:
            raise unsupported(moment, "a moment with no steps after it")
        period = moment.args[0]
        if period.form == "each":
            # what an effect leaves for later happens once; every Upkeep is
            # a triggered ability's
            raise unsupported(period, f'"each {period.args[0]}" in an effect (the steps it '
                              'leaves for later happen once)',
                              suggestion=f'"the next {period.args[0]}", or a triggered ability '
                              f'of a card in play: "At the start of each {period.args[0]}, ..."')
        links = self.named_now(links)
        duration = ast.Duration("until_end" if moment.form == "at_end" else "until",
                                moment.args, moment.span)
        when = compile_duration(duration)
        later = Emitter(f"{self.e.program.name}@later{len(self.e.program.instructions)}",
                        moment.span)
        steps = type(self)(later, self.game)
        steps.sentence(ast.Sentence("plain", (attrs.evolve(links[0], form="first"),)
                                    + tuple(links[1:]), moment.span))
        name = later.program.name
        self.game.programs[name] = later.finish()

        def leave(m, f):
            # "it" kept with when each card came where it is: a card that has
            # moved since is another object by then (Triggers.delayed_steps)
            it = f.locals.get("it")
            cards = (it,) if isinstance(it, int) else it if isinstance(it, tuple) else ()
            kept = tuple((c, m.state.cards[c].entered) for c in cards) if cards else None
            m.state.delayed = m.state.delayed + ((
                when(m, f), name, f.locals["you"], f.locals.get("this"),
                (isinstance(it, int), kept) if kept is not None else None),)
        self.e.emit(leave)

    def later_step(self, step: ast.Step) -> bool:
        """ "Destroy the attacking Creature at the end of the Combat": as "At
        the end of the Combat, destroy the attacking Creature" (False: the
        step has no such suffix)."""
        if step.form not in ("act", "state_change", "verb_step", "player_verb_step"):
            return False
        moment = next((s for s in step.args[-1]
                       if s.form in ("at_end_suffix", "at_start_suffix")), None)
        if moment is None:
            return False
        rest = tuple(s for s in step.args[-1] if s is not moment)
        self.later(ast.Condition("at_end" if moment.form == "at_end_suffix" else "at_start",
                                 moment.args, moment.span),
                   [ast.Link("first", (attrs.evolve(step, args=step.args[:-1] + (rest,)),),
                             step.span)])
        return True

    def named_now(self, links) -> list:
        """ "At the end of the Combat, destroy the attacking Creature": the
        card the first step names outright (the attacking, the defending,
        that card, "the Creatures blocking it") is the one it names now,
        when the steps are left for later, as "During ..." is about the cards it names now: it is picked
        now, and the step left for later is done to "it"."""
        first = links[0].args[0]
        if not (isinstance(first, ast.Step) and first.form == "act" and first.args[2].args):
            return list(links)
        action = first.args[2]
        target = action.args[0]
        # "the Creatures blocking it": cards the words name by what they are now
        described_now = isinstance(target, ast.Selector) and target.form == "owned" and \
            target.args[0].form == "the"
        if not isinstance(target, ast.Selector) or target.form in ("it", "this", "them") or \
                not (described_now or
                     compile_selector(target, lambda m, f: f.locals["you"]).given):
            return list(links)
        self.select(target, lambda m, f: f.locals["you"])
        it = ast.Selector("it", (), target.span)
        step = attrs.evolve(first, args=first.args[:2] + (
            attrs.evolve(action, args=(it,) + tuple(action.args[1:])),) + first.args[3:])
        return [attrs.evolve(links[0], args=(step,))] + list(links[1:])

    def during(self, moment: ast.Condition, links) -> None:
        """ "During your Rival's next turn, the defending creature can't
        retreat" in an effect: the cards the words name now; from the start
        of that period the change is theirs, until its end (steps left for
        the period's start, ``later``, with "it" those cards)."""
        items = [link.args[0] for link in links]
        if len(items) != 1 or not isinstance(items[0], ast.Step) or \
                items[0].form != "state_change" or \
                any(s.form == "lasting" for s in items[0].args[2]):
            raise unsupported(moment, '"during ..." in an effect before anything but one change '
                              'to cards with no duration of its own ("During your Rival\'s next '
                              'turn, the defending creature can\'t retreat")')
        selector, statement, suffixes = items[0].args
        span = moment.span
        self.select(selector, lambda m, f: f.locals["you"])
        period = moment.args[0]
        to_its_end = ast.Suffix("lasting", (ast.Duration("until_end", (
            ast.PeriodRef("the", (period.args[-1],), span),), span),), span)
        change = ast.Step("state_change", (ast.Selector("it", (), span), statement,
                                           tuple(suffixes) + (to_its_end,)), span)
        self.later(ast.Condition("at_start", (period,), span),
                   [ast.Link("first", (change,), span)])
