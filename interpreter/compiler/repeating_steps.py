"""Steps done again and again: "Gain 1 Gold for each exhausted Creature",
"For each Creature you control, draw a card", "Flip 2 coins. Draw a card
for each heads", "... that many times". The count is read once, as the
repetition starts; then the steps run that many times. Also what "for
each other ..." counts for a card a change is made to (all but that card).
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.players import compile_player
from interpreter.compiler.program import unsupported
from interpreter.compiler.selectors import compile_amount, compile_count, compile_selector
from interpreter.language import ast


class RepeatingSteps:
    """The StepCompiler's repetitions."""

    def repeat(self, count: Callable, body: Callable[[], None]) -> None:
        """``body`` compiles the steps; they run ``count`` times (read once)."""
        key = f"_times{len(self.e.program.instructions)}"
        top, done = self.e.label(), self.e.label()

        def start(m, f):
            f.locals[key] = count(m, f)
        self.e.emit_local(start)
        self.e.place(top)
        self.e.jump_unless(lambda m, f: f.locals[key] > 0, done)
        body()

        def less(m, f):
            f.locals[key] -= 1
        self.e.emit(less)
        self.e.jump(top)
        self.e.place(done)

    def repeat_times(self, step: ast.Step, suffix) -> None:
        """ "... that many times": the step, again and again, as many times as
        the amount of the event being replaced."""
        count = compile_amount(ast.Node("event_amount"), suffix)
        suffixes = tuple(s for s in step.args[-1] if s is not suffix)
        self.repeat(count, lambda: self.step(attrs.evolve(step, args=step.args[:-1] +
                                                          (suffixes,))))

    def repeat_for_each(self, step: ast.Step, suffix) -> None:
        """ "Gain 1 Gold for each exhausted Creature": the step once per card
        counted when it starts."""
        subject, optional, action, suffixes = step.args
        rest = tuple(s for s in suffixes if s is not suffix)
        count = compile_count(suffix.args[0])
        if isinstance(subject, ast.Player) and subject.form in ("each_player", "each_rival") \
                and not rest:
            # "Each player draws a card for each Creature they control":
            # counted for each player in turn, "they" that player
            self.for_each_player(lambda who: self.repeat(
                count, lambda: self.action(action, who, optional)),
                opponents=subject.form == "each_rival")
            return
        if isinstance(subject, ast.Player) and subject.form in _ONE_PLAYER:
            # "Your Rival loses 1 Life for each Creature they control": "they"
            # is the player doing the step from the count on
            who, counted = compile_player(subject), count

            def count(m, f):
                f.locals["they"] = who(m, f)
                return counted(m, f)
        self.repeat(count, lambda: self.step(ast.Step("act", (subject, optional, action, rest),
                                                      step.span)))

    def repeat_links(self, condition: ast.Condition, links, end: str, waits: bool) -> None:
        """ "For each Creature you control, draw a card and gain 1 Life": the
        rest of the sentence once per card counted when it starts."""
        if not links:
            raise unsupported(condition, '"for each" with no steps after it')
        self.repeat(compile_count(condition.args[0]), lambda: self._links(links, end, waits))


def other_than_changed(counted):
    """What a "for each other ..." counts, said of the card a change is made
    to ("Each Creature you control gets +1 power for each other Creature you
    control"): the selector without "other", each card then counting all
    but itself. None when the words do not say "other"."""
    if not (isinstance(counted, ast.Selector) and any(
            isinstance(a, ast.Adjective) and a.form == "other" for a in counted.args)):
        return None
    return compile_selector(attrs.evolve(counted, args=tuple(
        a for a in counted.args if not (isinstance(a, ast.Adjective) and a.form == "other"))),
        lambda m, f: f.locals["you"])


# the player forms that name one player, the same whenever read
_ONE_PLAYER = ("you", "rival", "an_opponent", "turn_player", "their_rival", "that_player",
               "nth_player")
