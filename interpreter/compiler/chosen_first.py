"""Cards a step's number reads that a player chooses: chosen as the step
begins.

"Deal damage equal to target Creature's power to target Creature your Rival
controls": the number names a card to choose. A number is read in one
go, with no question in the middle of it, so the step first asks for each
such card (in the order the words name them), keeps it in a local of its
own, and the number reads the card kept (``named_numbers.CHOSEN_FIRST``,
read by ``selectors.compile_stat_of``). "it" stays what it was before: the
card chosen for the number is not the step's object. Words that name the
card without a choice ("this Creature's power", "the power of the
attacking Creature") are read as the step happens, as before.
"""

from __future__ import annotations

from typing import Callable

from interpreter.compiler.frames import cards_held
from interpreter.compiler.selectors import compile_selector
from interpreter.language import ast


def cards_to_choose_in_numbers(action: ast.Action, who: Callable) -> list[tuple[str, ast.Node]]:
    """The (stat, selector) of each number in ``action`` that reads the stat
    of a card a player chooses, in the order written."""
    found = []
    for node in ast.walk_all(action.args):
        if isinstance(node, ast.Measure) and node.form == "stat_of":
            stat, selector = node.args
            cards = compile_selector(selector, who)
            if not cards.given and cards.how != "all":
                found.append((stat, selector))
    return found


def choose_first(compiler, found: list[tuple[str, ast.Node]], who: Callable) -> dict:
    """Emit the choice of each card ``found`` names, kept in a local of its
    own ("it" left as it was); the selectors (by identity) -> those locals."""
    chosen = {}
    for stat, selector in found:
        at = len(compiler.e.program.instructions)
        kept, before = f"_read{at}", f"_it{at}"
        compiler.e.emit(lambda m, f, before=before: f.locals.__setitem__(
            before, f.locals.get("it")))
        compiler.select(selector, who, prompt=f"choose a card whose {stat} is read")

        def keep(m, f, kept=kept, before=before):
            cards = cards_held(f.locals.get("it"))
            f.locals[kept] = cards[0] if cards else None
            f.locals["it"] = f.locals.pop(before)
        compiler.e.emit(keep)
        chosen[id(selector)] = kept
    return chosen
