"""The numbers a text may name besides those it reads from the game ("that
much", "X", "that damage", "the excess"): which of them are in scope while
the text that gives them meaning compiles. A number named outside its scope
is a check problem at its line (``compile_amount``).
"""

from __future__ import annotations

import contextlib
import contextvars

# The numbers a text may name besides those it reads from the game, while
# the text that gives them meaning compiles: "that much" (in the steps of a
# replacement: the amount of the event replaced, local "amount"), "X" (in a
# sentence that says "where X is ...", local "X"); "that damage" (in a
# replacement of damage, which "Prevent that damage" names); "the excess" (in
# a replacement of paying more than a player has: the part past it).
NAMED_NUMBERS: contextvars.ContextVar[frozenset] = contextvars.ContextVar(
    "named_numbers", default=frozenset())


@contextlib.contextmanager
def naming(number: str):
    """Compile what is inside with ``number`` ("that much", "X") in scope."""
    token = NAMED_NUMBERS.set(NAMED_NUMBERS.get() | {number})
    try:
        yield
    finally:
        NAMED_NUMBERS.reset(token)


# The cards a number reads that its step chose before it ("Deal damage equal
# to target Creature's power to ..."): while the step compiles, the selector
# node (by identity) -> the local its card was kept in (chosen_first).
CHOSEN_FIRST: contextvars.ContextVar[dict] = contextvars.ContextVar("chosen_first", default={})


@contextlib.contextmanager
def reading_chosen(chosen: dict):
    """Compile what is inside with the cards in ``chosen`` already picked."""
    token = CHOSEN_FIRST.set({**CHOSEN_FIRST.get(), **chosen})
    try:
        yield
    finally:
        CHOSEN_FIRST.reset(token)
